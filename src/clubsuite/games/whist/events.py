"""The events of Clubs (whist group): frozen records returned by every applied action.

All of them are public: the exchange decisions are seen by everyone, and the cards a player takes with the bid
hand reach only that player, through its view, never through an event (CW-4).
"""

from __future__ import annotations

from typing import ClassVar

from clubsuite.events import CardPlayed, Event, HandStarted, MatchEnded, PlayStarted, TrickTaken


class Decided(Event):
    """A player kept their hand or exchanged it for the bid hand (CW-4)."""

    wire: ClassVar[str] = "Decided"

    seat: int
    exchanged: bool


class HandScored(Event):
    """The hand ended: tricks and scores against the quota of four."""

    wire: ClassVar[str] = "HandScored"

    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


WhistEvent = HandStarted | Decided | PlayStarted | CardPlayed | TrickTaken | HandScored | MatchEnded

__all__ = [
    "CardPlayed",
    "Decided",
    "HandScored",
    "HandStarted",
    "MatchEnded",
    "PlayStarted",
    "TrickTaken",
]
