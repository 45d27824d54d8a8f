"""The events of Clubs (partnership): frozen records returned by every applied action.

Every event is public. The cards chosen for the pass never appear in an event, only who has chosen and, once all
have, the direction the cards went (CP-2); each seat learns the cards it gave and received through its view.
"""

from __future__ import annotations

from typing import NamedTuple

from clubsuite.cards import Card


class HandStarted(NamedTuple):
    """A new hand was dealt."""

    hand_number: int
    """0 for the first hand of the match."""
    dealer: int
    """The dealing seat."""
    direction: str
    """Where the pass goes this hand: ``left``, ``right`` or ``none`` (CP-2)."""


class PassChosen(NamedTuple):
    """A player chose the three cards to pass; they move only once all four have chosen (CP-2)."""

    seat: int


class CardsPassed(NamedTuple):
    """All four chose: every player's three cards went to the neighbour in ``direction`` at once (CP-2)."""

    direction: str


class PlayStarted(NamedTuple):
    """Trick play begins: the player at the dealer's left leads the first trick (CP-1)."""

    leader: int


class CardPlayed(NamedTuple):
    """A card was played to the current trick."""

    seat: int
    card: Card


class TrickTaken(NamedTuple):
    """A trick was completed and won."""

    seat: int
    """The winner, who leads next."""
    number: int
    """1 for the first trick of the hand."""
    cards: tuple[Card, ...]
    """The cards in the order played, the leader's first."""


class HandScored(NamedTuple):
    """The hand ended and was scored per partnership (CP-3).

    ``scores`` and ``totals`` are by seat: both partners carry their partnership's figure, so the shared tools
    (score sheets, records, simulation) read them as they read any game's.
    """

    tricks: tuple[int, ...]
    """Tricks taken by each seat."""
    scores: tuple[int, ...]
    """Each seat's partnership points for the hand."""
    totals: tuple[int, ...]
    """Each seat's partnership total after the hand."""
    team_scores: tuple[int, int]
    """The points of partnership 0 (seats 0 and 2) and partnership 1 (seats 1 and 3): 31 in all, or 36 (CP-3)."""


class MatchEnded(NamedTuple):
    """The match ended (CP-4): the seats of the winning partnership."""

    winners: tuple[int, ...]
    draw: bool
    totals: tuple[int, ...]
