"""What the exact solver knows of a trick-play position, in a form every trick game of the suite shares.

The trick games of the suite agree on what wins a trick: the highest club, or with no club the highest card of the
suit led. They differ in what a follower may play (a must-beat rule, or plain follow-suit), in whether clubs may be
led before they are broken, in who takes part in a trick (a game may let an empty hand sit out) and in what the
tricks are worth. A :class:`PlayPosition` holds the cards in a *solver index space* in which a higher index of a
suit is always the stronger card (a game whose ace is the lowest card renumbers its cards), and a :class:`Scorer`
says what the tricks are worth to the side being solved for.

Solving is from one *side*'s point of view: the seats in it play to make the value as high as possible, every other
seat plays to make it as low as possible (the *paranoid* reading of a game of more than two sides; in the
partnership game, with two sides and points that always add up to the same total, it is exact minimax).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol


class Follow(Enum):
    """What a follower must play."""

    SUIT = "suit"
    """Follow the suit led if able, else anything."""
    MUST_BEAT = "must_beat"
    """Beat the highest card of the suit led when able, else follow suit; void, win the trick by ruffing when able;
    on a club lead, beat the highest club when able."""


class Scorer(Protocol):
    """What the tricks are worth to the side being solved for.

    The value of a line of play is the sum of :meth:`trick` over its tricks plus :meth:`final` at the end. What
    :meth:`final` and the rest of the hand depend on beyond the cards (a sweep still possible, who took diamonds) is
    what :meth:`key` returns: two positions with the same cards, leader and key have the same value from there on,
    which is what lets the solver remember values (its transposition table).
    """

    special: int
    """Cards (solver indices) worth more than their neighbours: never treated as equivalent to another card."""

    def trick(self, winner: int, cards: int, n_players: int) -> int:
        """Record a trick won by ``winner`` holding ``cards`` (a mask); return the points it adds for the side."""
        ...

    def untrick(self) -> None:
        """Take back the last :meth:`trick`."""
        ...

    def key(self) -> Hashable:
        """What the value of the rest of the hand depends on besides the cards and the leader."""
        ...

    def final(self) -> int:
        """The points added when the hand ends (bonuses, contracts), for the side."""
        ...

    def bounds(self, live: int) -> tuple[int, int]:
        """The lowest and highest value the rest of the hand can still add, with the cards ``live`` in hands."""
        ...


@dataclass
class PlayPosition:
    """A trick-play position with every hand known, in solver indices (see the module docstring)."""

    hands: list[int]
    """Each seat's cards as a mask."""
    leader: int
    """The seat that led (or leads) the trick in progress."""
    trick: list[int]
    """The cards of the trick in progress, in play order."""
    players: tuple[int, ...]
    """The seats taking part in the trick in progress, in play order (the leader first)."""
    side: tuple[bool, ...]
    """Per seat: whether it plays for the side being solved for."""
    scorer: Scorer
    follow: Follow = Follow.SUIT
    clubs_broken: bool | None = None
    """Whether clubs are broken (a club may not be led before, unless the leader holds only clubs); None where the
    game has no such rule."""
    skip_empty: bool = False
    """Seats without cards sit out, and the hand ends once two seats are out of cards."""
    tricks_done: int = 0
    max_tricks: int = 13
    """The hand ends after this many tricks (or when the cards run out)."""

    @property
    def to_act(self) -> int:
        """The seat to play next."""
        return self.players[len(self.trick)]

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (no trick in progress and no trick left to play)."""
        if self.trick:
            return False
        if self.tricks_done >= self.max_tricks:
            return True
        if self.skip_empty:
            return sum(1 for h in self.hands if not h) >= 2
        return not any(self.hands)


def players_from(hands: list[int], leader: int, skip_empty: bool) -> tuple[int, ...]:
    """The seats of a trick led by ``leader``, in order; with ``skip_empty``, only those holding cards."""
    n = len(hands)
    seats = tuple((leader + k) % n for k in range(n))
    return tuple(s for s in seats if hands[s]) if skip_empty else seats


def next_leader(hands: list[int], winner: int, skip_empty: bool) -> int:
    """Who leads after ``winner`` took a trick: the winner, or with ``skip_empty`` the next seat holding cards."""
    if not skip_empty or hands[winner]:
        return winner
    n = len(hands)
    for k in range(1, n):
        s = (winner + k) % n
        if hands[s]:
            return s
    return winner
