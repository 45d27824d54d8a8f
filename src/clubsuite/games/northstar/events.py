"""The events of North Star's CLUBS: frozen records returned by every applied action, all of them public."""

from __future__ import annotations

from typing import NamedTuple

from clubsuite.cards import CardSet
from clubsuite.games.northstar.combos import Play


class HandStarted(NamedTuple):
    """A new round was dealt."""

    hand_number: int
    """0 for the first round of the match."""
    dealer: int
    """The dealing seat; the seat to its left leads."""


class Played(NamedTuple):
    """A single, set or run was played to the trick (NS-3)."""

    seat: int
    play: Play


class Passed(NamedTuple):
    """A player passed; they stay in the trick (NS-4)."""

    seat: int


class DoubleCalled(NamedTuple):
    """A player called double or nothing (NS-8)."""

    seat: int


class WentOut(NamedTuple):
    """A player played their last card and took a bonus card (NS-5)."""

    seat: int
    bonus: int
    """The bonus card taken: the highest left (NS-1, NS-5). The last player's final play takes none and sends no
    ``WentOut``: that player takes the 0 card when the round ends."""


class TrickWon(NamedTuple):
    """A trick was taken (NS-4): at once by a 15, by everyone else passing, or as the round ended."""

    seat: int
    cards: CardSet
    at_once: bool
    """True when a 15 won it at once."""


class LastTurn(NamedTuple):
    """Only ``seat`` holds cards: it has one last turn on the trick (NS-5)."""

    seat: int


class RoundEnded(NamedTuple):
    """The round is over (NS-5, NS-10)."""

    last: int | None
    """The player left holding cards who takes the 0 card (None when a team ended the round, NS-10)."""
    team: int | None
    """The team whose players alone still held cards and score nothing (NS-10), or None."""


class HandScored(NamedTuple):
    """The round's points (NS-2, NS-5, NS-8, NS-10) and the running totals."""

    scores: tuple[int, ...]
    """Each seat's points for the round."""
    totals: tuple[int, ...]
    """Each seat's running total."""
    team_totals: tuple[int, ...]
    """Each team's running total (the same as ``totals`` without teams)."""


class MatchEnded(NamedTuple):
    """Someone reached the target and the top total is not tied (NS-7)."""

    winners: tuple[int, ...]
    """The winning seat, or every seat of the winning team."""
    totals: tuple[int, ...]
