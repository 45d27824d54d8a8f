"""The exact solver in the compiled core (``native/solve.h``): the same search as :mod:`clubsuite.solver.search`,
for the positions and scorers it knows, with the same values, node counts and table sizes.

A game's solver part offers it through ``compiled_solve`` (see :data:`clubsuite.solver.game.CompiledSolve`),
describing its scorer as a :class:`CompiledScorer`; :func:`compiled_search` returns None wherever the compiled
solver cannot answer (not built, turned off, a position of another shape, out of memory), and the Python search
then runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubsuite.native import kernel
from clubsuite.solver.model import Follow, PlayPosition
from clubsuite.solver.search import INF, NodeLimitError, SolveStats

SOLVER = "clubsuite.native._solver"
"""The compiled solver's module."""

_PAST_LIMIT, _OUT_OF_MEMORY, _OVER = 1, 2, 3
"""The compiled solver's status codes that are not a result (solve.h)."""


@dataclass(frozen=True)
class CompiledScorer:
    """A scorer as the compiled solver knows it: tricks worth ``sign`` each to the side, or (``points``) a point a
    trick and a club, five for the queen of diamonds and five more for a sweep."""

    points: bool
    sign: int = 1
    special: int = 0
    """Cards never equivalent to another (solver indices)."""
    side_tricks: int = 0
    """Tricks the side took before the position (for the sweep)."""
    other_tricks: int = 0
    """Tricks the others took before the position."""


def compiled_search(
    position: PlayPosition, scorer: CompiledScorer, node_limit: int | None, stats: SolveStats | None
) -> dict[int, int] | None:
    """What :func:`clubsuite.solver.search.solve` returns for ``position`` scored by ``scorer``, from the compiled
    solver, or None where it cannot answer; raises :class:`NodeLimitError` at the very node the Python search
    would."""
    core = kernel(SOLVER)
    n = len(position.hands)
    if (
        core is None
        or position.skip_empty
        or n not in (3, 4)
        or len(position.trick) >= n
        or position.players != tuple((position.leader + k) % n for k in range(n))
    ):
        return None
    limit = node_limit if node_limit is not None else INF
    solved: tuple[int, dict[int, int] | None, int, int] = core.solve(
        position.hands,
        position.leader,
        position.trick,
        position.side,
        position.follow is Follow.MUST_BEAT,
        -1 if position.clubs_broken is None else int(position.clubs_broken),
        position.tricks_done,
        position.max_tricks,
        scorer.points,
        scorer.sign,
        scorer.special,
        scorer.side_tricks,
        scorer.other_tricks,
        limit,
    )
    status, values, nodes, entries = solved
    if status == _OUT_OF_MEMORY:
        return None  # the Python search runs instead, and counts its own nodes
    if stats is not None:
        stats.nodes += nodes
        stats.entries = entries
    if status == _PAST_LIMIT:
        raise NodeLimitError(f"the solve went past {limit} nodes")
    if status == _OVER:
        return {}
    return values
