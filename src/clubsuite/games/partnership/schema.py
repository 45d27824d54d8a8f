"""How records of Clubs (partnership) look: the explicit deal, the notation of actions and the option ranges, for
the record schema (``clubsuite.schema``) and the generated tables of ``docs/records.md``."""

from __future__ import annotations

from clubsuite.schema.parts import SEPARATOR, STANDARD_CARD, GameSchema, OptionRange, card_list, words

THIRTEEN = {"type": "string", "pattern": card_list(STANDARD_CARD, 13)}
CARDS = f"{STANDARD_CARD}(?:{SEPARATOR}{STANDARD_CARD})*"
"""Cards separated by spaces or commas (the reader splits the action into words first, so a card has no space inside):
one card is a card played, several a pass; how many a pass must name is a rule (CP-2), checked on replay."""

SCHEMA = GameSchema(
    deal={
        "type": "object",
        "required": ["hands"],
        "properties": {"hands": {"type": "array", "minItems": 4, "maxItems": 4, "items": THIRTEEN}},
        "additionalProperties": False,
    },
    deal_text='{"hands": [seat 0, seat 1, seat 2, seat 3]}: thirteen standard cards each, by seat number',
    action={
        "type": "string",
        "pattern": f"^[\\s,]*(?:{words('pass', 'p')}[\\s,]+{CARDS}|{CARDS})[\\s,]*$",
    },
    action_text="a pass of three cards (pass 2C 7H QS, CP-2), then a card such as 10H",
    option_ranges={"target": OptionRange(1, 100000)},
)
