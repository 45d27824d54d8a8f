"""The events of Clubs (whist group): frozen records returned by every applied action.

All of them are public: the exchange decisions are seen by everyone, and the cards a player takes with the bid
hand reach only that player, through its view, never through an event (CW-4).
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


class Decided(NamedTuple):
    """A player kept their hand or exchanged it for the bid hand (CW-4)."""

    seat: int
    exchanged: bool


class PlayStarted(NamedTuple):
    """The exchange round is over and ``leader`` leads the first trick (CW-3)."""

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
    """The cards in the order played."""


class HandScored(NamedTuple):
    """The hand ended: tricks and scores against the quota of four."""

    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class MatchEnded(NamedTuple):
    """The match ended (CW-5)."""

    winners: tuple[int, ...]
    """The winning seats; empty on a draw."""
    draw: bool
    totals: tuple[int, ...]


WhistEvent = HandStarted | Decided | PlayStarted | CardPlayed | TrickTaken | HandScored | MatchEnded
