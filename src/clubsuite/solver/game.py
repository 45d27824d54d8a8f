"""How a trick game offers its card play to the exact solver, and the solver's answers in the game's own terms.

A trick game names, in its registry part ``solver``, an object satisfying :class:`TrickSolving`: it turns the hand in
progress of a match (all hands known) into a :class:`~clubsuite.solver.model.PlayPosition` for one *measure* (what
is being counted: tricks, fewest tricks, points), and back from solver indices to the game's cards.
:func:`card_values` then gives the double-dummy value of every legal card, as the final count for the whole hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from clubsuite.engine import SomeMatch, find_game
from clubsuite.errors import ClubsError
from clubsuite.safetext import quoted
from clubsuite.solver.model import PlayPosition
from clubsuite.solver.search import SolveStats, Table, solve


@dataclass(frozen=True)
class Measure:
    """What a solve counts, for the seat to act."""

    name: str
    """Its name in ``clubs solve --measure`` and in JSON."""
    description: str
    """One line for people."""
    maximize: bool = True
    """Whether the seat wants the count high (False: as low as possible, such as fewest tricks)."""


@dataclass(frozen=True)
class Solvable:
    """A position to solve and how its values read as final counts: ``offset + sign * value``."""

    position: PlayPosition
    offset: int = 0
    sign: int = 1


CompiledSolve = Callable[[PlayPosition, "int | None", "SolveStats | None"], "dict[int, int] | None"]
"""A game's compiled search (its solver part's optional ``compiled_solve``): what :func:`solve` returns for the
position, values, node count and limit alike, or None where it cannot (the Python search then runs)."""


class TrickSolving(Protocol):
    """What a trick game gives the solver (its registry part ``solver``). It may also have a ``compiled_solve``
    (:data:`CompiledSolve`): the same search in its compiled kernel, used when present."""

    @property
    def measures(self) -> Sequence[Measure]:
        """The measures the game offers, the default first."""
        ...

    def solvable(self, match: SomeMatch, measure: str, seat: int | None = None) -> Solvable | None:
        """The card play in progress as a position solved for the seat to act (or for ``seat`` and its side,
        whoever is to act: the values of the card to play are then ``seat``'s counts, the player to act choosing
        among them), or None when no card is to be played."""
        ...

    def action(self, index: int) -> object:
        """The game's card for a solver index."""
        ...


@runtime_checkable
class HasSolver(Protocol):
    """A trick game's parts that give the exact solver its card play."""

    def solver(self) -> TrickSolving:
        """The game's side of the solver."""
        ...


class NotSolvableError(ClubsError):
    """The game has no exact solver, or the match is not at a card to play."""


def solving_for(game: str) -> TrickSolving:
    """The solver part of ``game``; :class:`NotSolvableError` naming the games that have one if it has none."""
    from clubsuite.engine import games

    info, _ = find_game(game)
    if not isinstance(info.parts, HasSolver):
        have = ", ".join(g.name for g in games() if isinstance(g.parts, HasSolver)) or "none"
        raise NotSolvableError(
            f"{info.title} has no exact solver (it is not a trick game); the trick games are: {have}"
        )
    return info.parts.solver()


def measure_named(solving: TrickSolving, name: str | None) -> Measure:
    """The measure called ``name`` (default: the first); an unknown name is refused naming the known ones."""
    if name is None:
        return solving.measures[0]
    for m in solving.measures:
        if m.name == name:
            return m
    known = ", ".join(m.name for m in solving.measures)
    raise NotSolvableError(f"unknown measure {quoted(name)}; this game's measures are: {known}")


def card_values(
    match: SomeMatch,
    measure: str | None = None,
    table: Table | None = None,
    node_limit: int | None = None,
    stats: SolveStats | None = None,
    seat: int | None = None,
) -> dict[object, int]:
    """The final count of ``measure`` for the seat to act after each of its legal cards, every hand known; with
    ``seat``, that seat's final count (and its side's) after each legal card of whoever is to act, the others
    playing against it (the line of a puzzle: a defender picks the card that holds the seat lowest).

    Reads the real hands of ``match``: for analysis with all cards shown (``clubs solve``, the review) or on a
    determinized copy (search bots), never for a seat's own decision on a real match.
    """
    solving = solving_for(match.game)
    m = measure_named(solving, measure)
    got = solving.solvable(match, m.name, seat)
    if got is None:
        raise NotSolvableError("no card is to be played here: the solver answers only during the play of the cards")
    raw = None
    compiled: CompiledSolve | None = getattr(solving, "compiled_solve", None)
    if compiled is not None and table is None:  # a shared table lives in Python: the Python search uses it
        raw = compiled(got.position, node_limit, stats)
    if raw is None:
        raw = solve(got.position, table, node_limit, stats)
    return {solving.action(i): got.offset + got.sign * v for i, v in raw.items()}
