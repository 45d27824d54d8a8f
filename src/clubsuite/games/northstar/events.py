"""The events of North Star's CLUBS: frozen records returned by every applied action, all of them public."""

from __future__ import annotations

from typing import ClassVar

from clubsuite.cards import CardSet
from clubsuite.events import Event, HandStarted, MatchEnded
from clubsuite.games.northstar.combos import Play


class Played(Event):
    """A single, set or run was played to the trick (NS-3)."""

    wire: ClassVar[str] = "Played"

    seat: int
    play: Play


class Passed(Event):
    """A player passed; they stay in the trick (NS-4)."""

    wire: ClassVar[str] = "Passed"

    seat: int


class DoubleCalled(Event):
    """A player called double or nothing (NS-8)."""

    wire: ClassVar[str] = "DoubleCalled"

    seat: int


class WentOut(Event):
    """A player played their last card and took a bonus card (NS-5)."""

    wire: ClassVar[str] = "WentOut"

    seat: int
    bonus: int
    """The bonus card taken: the highest left (NS-1, NS-5). The last player's final play takes none and sends no
    ``WentOut``: that player takes the 0 card when the round ends."""


class TrickWon(Event):
    """A trick was taken (NS-4): at once by a 15, by everyone else passing, or as the round ended."""

    wire: ClassVar[str] = "TrickWon"

    seat: int
    cards: CardSet
    at_once: bool
    """True when a 15 won it at once."""


class LastTurn(Event):
    """Only ``seat`` holds cards: it has one last turn on the trick (NS-5)."""

    wire: ClassVar[str] = "LastTurn"

    seat: int


class RoundEnded(Event):
    """The round is over (NS-5, NS-10)."""

    wire: ClassVar[str] = "RoundEnded"

    last: int | None
    """The player left holding cards who takes the 0 card (None when a team ended the round, NS-10)."""
    team: int | None
    """The team whose players alone still held cards and score nothing (NS-10), or None."""


class HandScored(Event):
    """The round's points (NS-2, NS-5, NS-8, NS-10) and the running totals."""

    wire: ClassVar[str] = "HandScored"

    scores: tuple[int, ...]
    """Each seat's points for the round."""
    totals: tuple[int, ...]
    """Each seat's running total."""
    team_totals: tuple[int, ...]
    """Each team's running total (the same as ``totals`` without teams)."""


__all__ = [
    "DoubleCalled",
    "HandScored",
    "HandStarted",
    "LastTurn",
    "MatchEnded",
    "Passed",
    "Played",
    "RoundEnded",
    "TrickWon",
    "WentOut",
]
