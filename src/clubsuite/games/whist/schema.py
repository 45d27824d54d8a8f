"""How records of Clubs (whist group) look: the explicit deal, the notation of actions and the option ranges, for
the record schema (``clubsuite.schema``) and the generated tables of ``docs/records.md``."""

from __future__ import annotations

from clubsuite.schema.parts import STANDARD_CARD, STANDARD_CARD_ALONE, GameSchema, OptionRange, card_list, whole, words

THIRTEEN = {"type": "string", "pattern": card_list(STANDARD_CARD, 13)}

SCHEMA = GameSchema(
    deal={
        "type": "object",
        "required": ["hands", "bid"],
        "properties": {
            "hands": {"type": "array", "minItems": 3, "maxItems": 3, "items": THIRTEEN},
            "bid": THIRTEEN,
        },
        "additionalProperties": False,
    },
    deal_text=(
        '{"hands": [seat 0, seat 1, seat 2], "bid": cards}: thirteen standard cards each, by seat number; the 52 '
        "cards once each"
    ),
    action={
        "type": "string",
        "pattern": whole(f"{words('keep', 'k', 'exchange', 'x', 'take', 'bid')}|{STANDARD_CARD_ALONE}"),
    },
    action_text="keep or exchange (k, x, take, bid) in the exchange round (CW-4), then a card such as 10H",
    option_ranges={"target": OptionRange(1, 1000)},
)
