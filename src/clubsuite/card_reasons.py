"""Why a card's notation is refused, as data (:mod:`clubsuite.reasons`): the reasons every game shares when it reads
cards (:mod:`clubsuite.cards`), each with its code, ruling (none: notation is no rule of a game) and English words.

A deck's name and the notation it accepts are words of the sentence, not parameters: each deck registers its own
two templates (:func:`deck_reasons`, called by :class:`~clubsuite.cards.Deck`), so that every language words the
deck and its notation as it likes. This module imports nothing that imports :mod:`clubsuite.cards`.
"""

from __future__ import annotations

from typing import NamedTuple

from clubsuite.reasons import Template, template

NO_SUCH_INDEX = template("cards.no_such_index", "{index} is not the index of any card")
CARD_TWICE = template("cards.card_twice", "{card} appears twice in {text}")

STANDARD_HELP = "a rank A K Q J 10 (or T) 9..2 then a suit C D H S or ♣ ♦ ♥ ♠, e.g. 10H, QC"
"""How a standard card is written (a deck's notation help is made of these parts, joined with ``; ``)."""
NUMBERED_HELP = "a value 1..15 then a suit C D H S or ♣ ♦ ♥ ♠, e.g. 15C, 7H"
"""How a numbered card is written."""
JOKER_HELP = "or a joker JK1, JK2"
"""How a joker is written."""


class DeckReasons(NamedTuple):
    """The two refusals of one deck's notation."""

    empty: Template
    """Nothing to read: ``empty card: expected a card of the ... deck, such as 10H or QC``."""
    not_a_card: Template
    """``{text}`` names no card of the deck (``text``: the input, quoted)."""


def _literal(text: str) -> str:
    """``text`` as literal words of a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


def deck_reasons(key: str, name: str, notation_help: str) -> DeckReasons:
    """Register (once) the refusals of the deck ``key`` called ``name`` whose notation ``notation_help`` describes:
    codes ``cards.empty_card_<key>`` and ``cards.not_a_card_<key>``."""
    deck, notation = _literal(name), _literal(notation_help)
    return DeckReasons(
        template(f"cards.empty_card_{key}", f"empty card: expected a card of the {deck} deck, such as 10H or QC"),
        template(f"cards.not_a_card_{key}", f"{{text}} is not a card of the {deck} deck: {notation}"),
    )
