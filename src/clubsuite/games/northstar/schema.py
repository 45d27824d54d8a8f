"""How records of North Star's CLUBS look: the explicit deal, the notation of actions, the option ranges and the
seats that follow the ``players`` option, for the record schema (``clubsuite.schema``) and the generated tables of
``docs/records.md``."""

from __future__ import annotations

from clubsuite.games.northstar.options import MAX_PLAYERS, MIN_PLAYERS
from clubsuite.schema.parts import SUIT, GameSchema, OptionRange, card_list, whole, words

CARD = f"(?:1[0-5]|[1-9]){SUIT}"
"""A North Star card in a deal: a value 1..15 and a suit (``7H``, ``15c``)."""
VALUE = "(?:1[0-5]|0?[1-9])"
"""A value in a play, where a leading zero is read too (``07``)."""
PART = f"{VALUE}{SUIT}?(?:={VALUE})?"
"""A card of a play, a bare value (found in the player's hand), or a wild 15 with the value it stands for."""


def _seats(players: int) -> dict[str, object]:
    """Records of ``players`` players list as many seats (NS-1)."""
    return {
        "if": {
            "required": ["options"],
            "properties": {"options": {"required": ["players"], "properties": {"players": {"const": players}}}},
        },
        "then": {"properties": {"seats": {"minItems": players, "maxItems": players}}},
    }


SCHEMA = GameSchema(
    deal={
        "type": "object",
        "required": ["hands"],
        "properties": {
            "hands": {
                "type": "array",
                "minItems": MIN_PLAYERS,
                "maxItems": MAX_PLAYERS,
                "items": {"type": "string", "pattern": card_list(CARD, 10)},
            }
        },
        "additionalProperties": False,
    },
    deal_text='{"hands": [seat 0, seat 1, ...]}: ten cards (1C to 15S) per seat, by seat number',
    action={
        "type": "string",
        "pattern": whole(f"{words('pass', 'p', 'double', 'd', 'double cards')}|{PART}(?:[\\s,\\-]+{PART})*"),
    },
    action_text=(
        "a play, its cards in value order (7H, 7C 7H, 4H 5C 6D; a wild 15 with the value it stands for, 15S=7), "
        "pass or double (NS-3, NS-4, NS-8, NS-9)"
    ),
    option_ranges={
        "players": OptionRange(MIN_PLAYERS, MAX_PLAYERS),
        "club_points": OptionRange(0, 100, length=15),
        "target": OptionRange(0, 100000),
    },
    rules=tuple(_seats(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)),
    rules_text=("when options.players is given, the record lists exactly that many seats (NS-1)",),
)
