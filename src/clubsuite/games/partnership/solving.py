"""The card play of the partnership game for the exact solver: follow suit (CP-1), points by partnership (CP-3).

Two sides, and points that always add up to the same total (or a sweep), so the solve is exact minimax. Measures:
``points``, the points the partnership of the seat to act ends the hand with (tricks, clubs, the Ruby Dame and the
sweep bonus, CP-3), and ``tricks``, the tricks it ends with.
"""

from __future__ import annotations

from collections.abc import Hashable

from clubsuite.cards import CLUBS_MASK, card_at
from clubsuite.engine import Phase, SomeMatch
from clubsuite.games.partnership.deal import HAND_SIZE, N_SEATS
from clubsuite.games.partnership.hand import RUBY_DAME, RUBY_DAME_POINTS, SWEEP_BONUS, score_lines, team_of
from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.solver.compiled import CompiledScorer, compiled_search
from clubsuite.solver.game import Measure, Solvable
from clubsuite.solver.model import Follow, PlayPosition
from clubsuite.solver.search import SolveStats

MEASURES = (
    Measure("points", "the points the partnership of the player to act ends the hand with (CP-3)"),
    Measure("tricks", "the tricks the partnership of the player to act ends the hand with"),
)
_DAME = 1 << RUBY_DAME


class PartnershipScorer:
    """What a trick is worth to one partnership: a point per trick, per club and five for the Ruby Dame, and five
    more at the end for taking every trick of the hand (CP-3); or, for the measure ``tricks``, one per trick."""

    def __init__(self, side: tuple[bool, ...], points: bool, side_tricks: int, other_tricks: int) -> None:
        self.side = side
        self.points = points
        self.special = _DAME if points else 0
        self.side_tricks = side_tricks
        self.other_tricks = other_tricks
        self._won: list[bool] = []

    def trick(self, winner: int, cards: int, n_players: int) -> int:
        """Count the trick for the partnership that took it; the side's share in points."""
        won = self.side[winner]
        self._won.append(won)
        if not won:
            self.other_tricks += 1
            return 0
        self.side_tricks += 1
        if not self.points:
            return 1
        return 1 + (cards & CLUBS_MASK).bit_count() + (RUBY_DAME_POINTS if cards & _DAME else 0)

    def untrick(self) -> None:
        """Take the last trick back."""
        if self._won.pop():
            self.side_tricks -= 1
        else:
            self.other_tricks -= 1

    def key(self) -> Hashable:
        """Whether the side may still take every trick (the sweep bonus depends on it)."""
        return self.points and self.other_tricks == 0

    def final(self) -> int:
        """The sweep bonus, when the side took all thirteen tricks."""
        return SWEEP_BONUS if self.points and self.side_tricks == HAND_SIZE else 0

    def bounds(self, live: int) -> tuple[int, int]:
        """At most every trick left with every club and the Dame still out, and the sweep while it is possible."""
        tricks = live.bit_count() // N_SEATS
        if not self.points:
            return 0, tricks
        top = tricks + (live & CLUBS_MASK).bit_count() + (RUBY_DAME_POINTS if live & _DAME else 0)
        return 0, top + (SWEEP_BONUS if self.other_tricks == 0 else 0)


class PartnershipSolving:
    """The solver part of the partnership game (see :class:`clubsuite.solver.game.TrickSolving`)."""

    measures = MEASURES

    def solvable(self, match: SomeMatch, measure: str, seat: int | None = None) -> Solvable | None:
        """The play in progress, for the partnership of the seat to act (or of ``seat``, whoever is to act)."""
        if not isinstance(match, PartnershipMatch) or match.phase != Phase.PLAY:
            return None
        hand = match.current
        assert hand is not None and hand.to_act is not None
        team = team_of(hand.to_act if seat is None else seat)
        side = tuple(team_of(s) == team for s in range(N_SEATS))
        side_tricks = sum(hand.tricks_won[s] for s in range(N_SEATS) if side[s])
        other_tricks = len(hand.tricks) - side_tricks
        points = measure == "points"
        # No sweep bonus in the points so far: the hand is not over.
        offset = score_lines(hand.tricks_won, hand.taken)[team].total if points else side_tricks
        leader = hand.leader
        position = PlayPosition(
            hands=list(hand.hands),
            leader=leader,
            trick=list(hand.trick_indices),
            players=tuple((leader + k) % N_SEATS for k in range(N_SEATS)),
            side=side,
            scorer=PartnershipScorer(side, points, side_tricks, other_tricks),
            follow=Follow.SUIT,
            tricks_done=len(hand.tricks),
        )
        return Solvable(position, offset)

    def action(self, index: int) -> object:
        """Solver indices are the standard card indices."""
        return card_at(index)

    def compiled_solve(
        self, position: PlayPosition, node_limit: int | None, stats: SolveStats | None
    ) -> dict[int, int] | None:
        """What :func:`clubsuite.solver.search.solve` returns for ``position``, from the compiled solver (the same
        search: the same values, node count and table size, and :class:`NodeLimitError` at the same node); None
        where it cannot answer (then the Python search runs)."""
        scorer = position.scorer
        if not isinstance(scorer, PartnershipScorer) or position.side != scorer.side or scorer._won:
            return None
        compiled = CompiledScorer(
            points=scorer.points,
            special=scorer.special,
            side_tricks=scorer.side_tricks,
            other_tricks=scorer.other_tricks,
        )
        return compiled_search(position, compiled, node_limit, stats)


SOLVING = PartnershipSolving()
