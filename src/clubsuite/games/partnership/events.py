"""The events of Clubs (partnership): frozen records returned by every applied action.

Every event is public. The cards chosen for the pass never appear in an event, only who has chosen and, once all
have, the direction the cards went (CP-2); each seat learns the cards it gave and received through its view.
"""

from __future__ import annotations

from typing import ClassVar

from clubsuite import events
from clubsuite.events import CardPlayed, Event, MatchEnded, PlayStarted, TrickTaken


class HandStarted(events.HandStarted):
    """A new hand was dealt: the shared event, with the direction of this hand's pass."""

    wire: ClassVar[str] = "HandStarted"

    direction: str
    """Where the pass goes this hand: ``left``, ``right`` or ``none`` (CP-2)."""


class PassChosen(Event):
    """A player chose the three cards to pass; they move only once all four have chosen (CP-2)."""

    wire: ClassVar[str] = "PassChosen"

    seat: int


class CardsPassed(Event):
    """All four chose: every player's three cards went to the neighbour in ``direction`` at once (CP-2)."""

    wire: ClassVar[str] = "CardsPassed"

    direction: str


class HandScored(Event):
    """The hand ended and was scored per partnership (CP-3).

    ``scores`` and ``totals`` are by seat: both partners carry their partnership's figure, so the shared tools
    (score sheets, records, simulation) read them as they read any game's.
    """

    wire: ClassVar[str] = "HandScored"

    tricks: tuple[int, ...]
    """Tricks taken by each seat."""
    scores: tuple[int, ...]
    """Each seat's partnership points for the hand."""
    totals: tuple[int, ...]
    """Each seat's partnership total after the hand."""
    team_scores: tuple[int, int]
    """The points of partnership 0 (seats 0 and 2) and partnership 1 (seats 1 and 3): 31 in all, or 36 (CP-3)."""


__all__ = [
    "CardPlayed",
    "CardsPassed",
    "HandScored",
    "HandStarted",
    "MatchEnded",
    "PassChosen",
    "PlayStarted",
    "TrickTaken",
]
