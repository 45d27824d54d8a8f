"""The events of Free Clubs: frozen records returned by every applied action.

Every event is public. Hidden cards (the chest, discards, the cards passed by a Queen or in the pass before play)
never appear in an event, only their number; each seat learns the cards it may know through its view.
"""

from __future__ import annotations

from typing import ClassVar

from clubsuite import events
from clubsuite.cards import Card
from clubsuite.events import CardPlayed, Event, HandStarted, MatchEnded, PlayStarted


class BidMade(Event):
    """A player bid an auction card, face up (FC-3)."""

    wire: ClassVar[str] = "BidMade"

    seat: int
    card: Card


class AuctionPassed(Event):
    """A player passed in the auction (FC-3)."""

    wire: ClassVar[str] = "AuctionPassed"

    seat: int


class AuctionWon(Event):
    """The auction ended (two passes in a row, or a Joker: FC-3, FC-4)."""

    wire: ClassVar[str] = "AuctionWon"

    seat: int
    """The last bidder, who takes the chest."""
    partner: int | None
    """With a Joker, the player who made the bid before it; otherwise None."""
    bid: Card
    """The winning bid."""


class ChestTaken(Event):
    """The auction winner took the treasure chest into their hand (FC-5); its cards stay hidden."""

    wire: ClassVar[str] = "ChestTaken"

    seat: int
    size: int
    """How many cards the chest held."""


class HandicapResolved(Event):
    """One bid's handicap was carried out (FC-5)."""

    wire: ClassVar[str] = "HandicapResolved"

    seat: int
    bid: Card
    removed: int
    """How many primary cards left the hand (0 when the suit was empty)."""
    to: int | None
    """For a Queen, the left neighbour who received the card; None for a discard."""


class PassStarted(Event):
    """The handicaps are done; each player chooses a card to pass to the right, starting with ``seat`` (FC-2)."""

    wire: ClassVar[str] = "PassStarted"

    seat: int


class CardsPassed(Event):
    """Every player chose; the chosen cards moved to the right at once (FC-2)."""

    wire: ClassVar[str] = "CardsPassed"

    passes: int
    """How many players passed a card."""


class TrickTaken(events.TrickTaken):
    """A trick was completed and won: the shared event, with the seat that played each card, since a player out of
    cards is skipped and a trick may hold two cards (FC-7)."""

    wire: ClassVar[str] = "TrickTaken"

    players: tuple[int, ...]
    """The seat that played each card of ``cards``, in play order."""


class HandScored(Event):
    """The hand ended and was scored (FC-4, FC-8)."""

    wire: ClassVar[str] = "HandScored"

    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class MisplayCalled(Event):
    """A player called a misplay (FC-10, option ``misplays``); the call and its penalty are public.

    An uncalled misplay is never announced: its card is on the table like any other.
    """

    wire: ClassVar[str] = "MisplayCalled"

    caller: int
    seat: int
    """The player who made the misplay."""
    card: Card
    stage: int
    """1: the card went back to the hand; 2: the misplayer forfeits the trick; 3: the misplayer forfeits their
    positive points for the hand."""


class NoMisplay(Event):
    """A player called a card that did not follow suit, the table checked, and it was lawful: its player held none
    of the led suit (FC-10, option ``misplays``). Public, told to every seat, kept in the record; nothing else
    changes (no penalty for a wrong call)."""

    wire: ClassVar[str] = "NoMisplay"

    caller: int
    seat: int
    """The player who played the card."""
    card: Card


class HandRescored(Event):
    """A misplay called after the hand was scored but before the next deal changed its scores (FC-10)."""

    wire: ClassVar[str] = "HandRescored"

    scores: tuple[int, ...]
    totals: tuple[int, ...]


__all__ = [
    "AuctionPassed",
    "AuctionWon",
    "BidMade",
    "CardPlayed",
    "CardsPassed",
    "ChestTaken",
    "HandRescored",
    "HandScored",
    "HandStarted",
    "HandicapResolved",
    "MatchEnded",
    "MisplayCalled",
    "NoMisplay",
    "PassStarted",
    "PlayStarted",
    "TrickTaken",
]
