"""The card play of Clubs (whist group) for the exact solver: must-beat (CW-1), clubs broken (CW-2), tricks counted.

Two measures, because a whist player may aim either way (CW-5: +target and -target both win): ``tricks``, the
most tricks the seat to act can make when the other two play to hold it down, and ``fewest``, the fewest it can
be held to when the other two play to give it tricks. Both are the final count for the whole hand.
"""

from __future__ import annotations

from collections.abc import Hashable

from clubsuite.cards import card_at
from clubsuite.engine import Phase, SomeMatch
from clubsuite.games.whist.deal import N_SEATS
from clubsuite.games.whist.match import WhistMatch
from clubsuite.solver.compiled import CompiledScorer, compiled_search
from clubsuite.solver.game import Measure, Solvable
from clubsuite.solver.model import Follow, PlayPosition
from clubsuite.solver.search import SolveStats

MEASURES = (
    Measure("tricks", "the most tricks the player to act can take, the others playing against it"),
    Measure("fewest", "the fewest tricks the player to act can be held to, the others giving it tricks", False),
)


class TricksScorer:
    """One trick is worth ``sign`` to the side when ``seat`` wins it (``sign`` -1: fewer tricks is better)."""

    special = 0

    def __init__(self, seat: int, sign: int, n_seats: int) -> None:
        self.seat = seat
        self.sign = sign
        self.n_seats = n_seats

    def trick(self, winner: int, cards: int, n_players: int) -> int:
        """A trick is worth ``sign`` if the seat took it."""
        return self.sign if winner == self.seat else 0

    def untrick(self) -> None:
        """Nothing to take back: the value of a trick depends only on its winner."""

    def key(self) -> Hashable:
        """The rest of the hand depends on nothing but the cards."""
        return None

    def final(self) -> int:
        """No bonus at the end."""
        return 0

    def bounds(self, live: int) -> tuple[int, int]:
        """Between none and all of the tricks left."""
        left = live.bit_count() // self.n_seats
        return (0, left) if self.sign > 0 else (-left, 0)


class WhistSolving:
    """The solver part of the whist game (see :class:`clubsuite.solver.game.TrickSolving`)."""

    measures = MEASURES

    def solvable(self, match: SomeMatch, measure: str, seat: int | None = None) -> Solvable | None:
        """The play in progress, for the seat to act (or ``seat``, whoever is to act)."""
        if not isinstance(match, WhistMatch) or match.phase != Phase.PLAY:
            return None
        hand = match.current
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act if seat is None else seat
        sign = 1 if measure == "tricks" else -1
        leader = hand.leader
        position = PlayPosition(
            hands=list(hand.hands),
            leader=leader,
            trick=list(hand.trick_indices),
            players=tuple((leader + k) % N_SEATS for k in range(N_SEATS)),
            side=tuple(s == seat for s in range(N_SEATS)),
            scorer=TricksScorer(seat, sign, N_SEATS),
            follow=Follow.MUST_BEAT,
            clubs_broken=hand.clubs_broken,
            tricks_done=len(hand.tricks),
        )
        return Solvable(position, hand.tricks_won[seat], sign)

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
        if not isinstance(scorer, TricksScorer) or position.side != tuple(s == scorer.seat for s in range(N_SEATS)):
            return None
        return compiled_search(position, CompiledScorer(points=False, sign=scorer.sign), node_limit, stats)


SOLVING = WhistSolving()
