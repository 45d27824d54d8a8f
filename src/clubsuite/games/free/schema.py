"""How records of Free Clubs look: the explicit deal, the notation of actions and the option ranges, for the
record schema (``clubsuite.schema``) and the generated tables of ``docs/records.md``."""

from __future__ import annotations

from clubsuite.schema.parts import JOKER, STANDARD_CARD_ALONE, SUIT, GameSchema, OptionRange, card_list, whole, words

AUCTION_CARD = f"(?:{JOKER}|(?:10|[TtJjQqKk]){SUIT})"
"""An auction card: a joker, or a K, Q, J or 10."""
PRIMARY_CARD = f"[2-9Aa]{SUIT}"
"""A primary card: A to 9."""
ANY_CARD = f"(?:{JOKER}|(?:10|[2-9TtJjQqKkAa]){SUIT})"
CALL = f"{words('call')}\\s+{ANY_CARD}(?:\\s+{words('by')}\\s+[012])?"
"""A call of a misplay, naming the card and, as records write it, the caller (FC-10)."""


def _three(card: str, count: int) -> dict[str, object]:
    return {
        "type": "array",
        "minItems": 3,
        "maxItems": 3,
        "items": {"type": "string", "pattern": card_list(card, count)},
    }


SCHEMA = GameSchema(
    deal={
        "type": "object",
        "required": ["auction", "primary", "chest"],
        "properties": {
            "auction": _three(AUCTION_CARD, 6),
            "primary": _three(PRIMARY_CARD, 10),
            "chest": {"type": "string", "pattern": card_list(PRIMARY_CARD, 6)},
        },
        "additionalProperties": False,
    },
    deal_text=(
        '{"auction": [three strings], "primary": [three strings], "chest": cards}: six auction cards (jokers, K, Q, '
        "J, 10) and ten primary cards (A to 9) per seat, by seat number, and the six-card chest"
    ),
    action={
        "type": "string",
        "pattern": whole(f"{words('pass', 'p')}|{JOKER}|{STANDARD_CARD_ALONE}|{CALL}"),
    },
    action_text=(
        "a bid (an auction card such as KD or JK1) or pass, then a Ten's discard, the card passed to the right and the "
        "cards played (7H); with misplays=true, call 7H by 2 (FC-10)"
    ),
    option_ranges={"target": OptionRange(1, 100000)},
)
