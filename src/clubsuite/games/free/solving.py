"""The card play of Free Clubs for the exact solver: follow suit, empty hands sit out (FC-6, FC-7), the hand's points.

Cards are renumbered for the solver so that a higher index is the stronger card of its suit (the ace is the
lowest, FC-1). The measure ``points`` is the score the seat to act ends the hand with, everything counted (FC-4,
FC-8: tricks, the contract, the diamonds, the ace of hearts, no spades); its side is itself and, after a Joker, its
partner (FC-4), everyone else playing against it. The measure ``tricks`` counts the side's tricks. A misplay called
in table mode (FC-10) is not modelled beyond a forfeit already decided: the solver plays lawful cards.
"""

from __future__ import annotations

from collections.abc import Hashable

from clubsuite.cards import Suit, card_at
from clubsuite.engine import Phase, SomeMatch
from clubsuite.games.free.deal import N_SEATS, PRIMARY_SUIT_MASKS
from clubsuite.games.free.hand import (
    ACE_OF_HEARTS,
    ACE_OF_HEARTS_BONUS,
    CONTRACT_PENALTY,
    DIAMONDS_BONUS,
    MAX_TRICKS,
    NO_SPADES_BONUS,
    SOLO_CONTRACT,
    TEAM_CONTRACT,
    TRICK_POINTS,
    FreeHand,
    score_hand,
)
from clubsuite.games.free.match import FreeMatch
from clubsuite.games.free.options import FreeOptions
from clubsuite.solver.game import Measure, Solvable
from clubsuite.solver.model import Follow, PlayPosition

MEASURES = (
    Measure("points", "the points the player to act scores for the hand, everything counted (FC-4, FC-8)"),
    Measure("tricks", "the tricks the player to act (with a Joker partner, the team) ends the hand with"),
)


def to_solver(index: int) -> int:
    """The solver index of a primary card: the suit's block, ace 0, two 1, ..., nine 8."""
    rank = index % 13 + 2
    return index - index % 13 + (0 if rank == 14 else rank - 1)


def from_solver(index: int) -> int:
    """The card index of a solver index (the inverse of :func:`to_solver`)."""
    strength = index % 13 + 1
    return index - index % 13 + (12 if strength == 1 else strength - 2)


def _mask_to_solver(mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= 1 << to_solver(low.bit_length() - 1)
    return out


_DIAMONDS = PRIMARY_SUIT_MASKS[Suit.DIAMONDS]
_SPADES = PRIMARY_SUIT_MASKS[Suit.SPADES]


class FreeScorer:
    """The seat's score for the hand, computed at the end by the engine's own :func:`score_hand`."""

    def __init__(
        self, hand: FreeHand, seat: int, options: FreeOptions, tricks_only: bool, side: tuple[bool, ...]
    ) -> None:
        self.seat = seat
        self.options = options
        self.tricks_only = tricks_only
        self.side = side
        self.special = 0 if tricks_only else 1 << to_solver(ACE_OF_HEARTS)
        self.winner = hand.winner
        self.partner = hand.partner
        self.forfeit = frozenset(m.seat for m in hand.misplays if m.called == 3)
        contract = (hand.partner >= 0 and self.seat in hand.team) or self.seat == hand.winner
        self.team = tuple(s for s in range(N_SEATS) if side[s])
        self.need = (TEAM_CONTRACT if hand.partner >= 0 else SOLO_CONTRACT) if contract else 0
        """The tricks the seat's side must take to escape the contract penalty (0: it has no contract)."""
        self.tricks_won = list(hand.tricks_won)
        self.taken = list(hand.taken)
        self._log: list[tuple[int, int]] = []

    def trick(self, winner: int, cards: int, n_players: int) -> int:
        """Count the trick; only the measure ``tricks`` scores it as it falls."""
        engine = 0
        m = cards
        while m:
            low = m & -m
            m ^= low
            engine |= 1 << from_solver(low.bit_length() - 1)
        self._log.append((winner, self.taken[winner]))
        self.tricks_won[winner] += 1
        self.taken[winner] |= engine
        return 1 if self.tricks_only and self.side[winner] else 0

    def untrick(self) -> None:
        """Take the last trick back."""
        winner, before = self._log.pop()
        self.tricks_won[winner] -= 1
        self.taken[winner] = before

    def key(self) -> Hashable:
        """What the seat's score still depends on besides the cards: the tricks taken (all of them for the ten-trick
        limit, FC-7; the seat's and its partner's for the points and the contract, FC-4), the diamonds each seat took
        (the majority, FC-8), and whether the seat took a spade or the ace of hearts."""
        won = self.tricks_won
        if self.tricks_only:
            return sum(won)
        mine = self.taken[self.seat]
        return (
            sum(won),
            tuple(won[s] for s in self.team),
            tuple((t & _DIAMONDS).bit_count() for t in self.taken),
            bool(mine & _SPADES),
            bool(mine >> ACE_OF_HEARTS & 1),
        )

    def final(self) -> int:
        """The seat's score for the hand (FC-4, FC-8)."""
        if self.tricks_only:
            return 0
        return score_hand(self.tricks_won, self.taken, self.winner, self.partner, self.options, self.forfeit)[self.seat]

    def bounds(self, live: int) -> tuple[int, int]:
        """Tricks: none to all left. Points: the tricks already taken and every bonus still open, the contract
        penalty unless it is already made (FC-4, FC-8)."""
        left = MAX_TRICKS - sum(self.tricks_won)
        if self.tricks_only:
            return 0, min(left, live.bit_count())
        if self.seat in self.forfeit:
            return CONTRACT_PENALTY, 0
        mine = self.tricks_won[self.seat]
        taken = self.taken[self.seat]
        lo = TRICK_POINTS * mine + (ACE_OF_HEARTS_BONUS if taken >> ACE_OF_HEARTS & 1 else 0)
        hi = TRICK_POINTS * (mine + left) + DIAMONDS_BONUS + NO_SPADES_BONUS + ACE_OF_HEARTS_BONUS
        if self.need and sum(self.tricks_won[s] for s in self.team) < self.need:
            lo += CONTRACT_PENALTY
        return lo, hi


class FreeSolving:
    """The solver part of Free Clubs (see :class:`clubsuite.solver.game.TrickSolving`)."""

    measures = MEASURES

    def solvable(self, match: SomeMatch, measure: str, seat: int | None = None) -> Solvable | None:
        """The play in progress, for the seat to act (or ``seat``, whoever is to act) and its Joker partner."""
        if not isinstance(match, FreeMatch) or match.phase != Phase.PLAY:
            return None
        hand = match.current
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act if seat is None else seat
        team = hand.team if seat in hand.team and hand.partner >= 0 else (seat,)
        side = tuple(s in team for s in range(N_SEATS))
        tricks_only = measure == "tricks"
        position = PlayPosition(
            hands=[_mask_to_solver(h) for h in hand.hands],
            leader=hand.leader,
            trick=[to_solver(c) for _, c in hand.trick],
            players=tuple(hand._players),  # the seats of this trick, fixed when it was led (FC-6)
            side=side,
            scorer=FreeScorer(hand, seat, match.options, tricks_only, side),
            follow=Follow.SUIT,
            skip_empty=True,
            tricks_done=len(hand.tricks),
            max_tricks=MAX_TRICKS,
        )
        offset = sum(hand.tricks_won[s] for s in team) if tricks_only else 0
        return Solvable(position, offset)

    def action(self, index: int) -> object:
        """The primary card of a solver index."""
        return card_at(from_solver(index))


SOLVING = FreeSolving()
