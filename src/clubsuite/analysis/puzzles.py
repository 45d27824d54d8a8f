"""Puzzles from real games, the first criterion: a double-dummy puzzle, a card to play where every hand is shown and
exactly one legal card keeps the solver's best value for the seat to act while every other card loses at least
``min_loss`` of it (a trick, a point). The opponents' replies are the solver's best defence, so the answer is the
same whoever checks it with ``clubs solve``.

Equivalent cards (two touching cards of a suit) keep the same value, so a position where the right suit matters but
not which of its touching cards is played is no puzzle: its answer would not be one card. Lichess's generator asks
the same of a chess puzzle (one move clearly best, the others clearly worse), and this module is where the other
criteria of the puzzle generator will live (a single-dummy margin over worlds, a climbing game's endgames).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from clubsuite.engine import SomeMatch
from clubsuite.solver import card_values, solving_for
from clubsuite.solver.game import measure_named


@dataclass(frozen=True)
class DoubleDummyPuzzle:
    """A position's one right card, every hand known: its value and the best any other card gets."""

    measure: str
    """What the solver counts (as ``clubs solve --measure`` names it), for the seat to act."""
    solution: str
    """The one card that keeps the best value, in the game's notation."""
    value: int
    """The final count of the measure after the solution, with best play on every side."""
    next_best: int
    """The best final count any other legal card gets."""
    values: Mapping[str, int]
    """Every legal card's final count, by its notation."""

    @property
    def loss(self) -> int:
        """How much the best of the other cards gives away (at least the ``min_loss`` it was found with)."""
        return abs(self.value - self.next_best)


def double_dummy(
    match: SomeMatch, measure: str | None = None, min_loss: int = 1, node_limit: int | None = None
) -> DoubleDummyPuzzle | None:
    """The double-dummy puzzle of ``match`` at its card to play, for ``measure`` (the game's first by default): None
    where fewer than two cards are legal, where more than one card keeps the best value, or where the next best
    loses less than ``min_loss``. The match is left as it was (the solver works on its own copy);
    :class:`~clubsuite.solver.NotSolvableError` where the game has no solver or no card is to be played, and
    :class:`~clubsuite.solver.search.NodeLimitError` past ``node_limit``."""
    if min_loss < 1:
        raise ValueError(f"min_loss={min_loss}: a puzzle's other cards must lose at least 1")
    chosen = measure_named(solving_for(match.game), measure)
    values = {match.format_action(a): v for a, v in card_values(match, chosen.name, node_limit=node_limit).items()}
    if len(values) < 2:
        return None
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=chosen.maximize)
    (solution, value), (_, next_best) = ranked[0], ranked[1]
    if abs(value - next_best) < min_loss:
        return None
    return DoubleDummyPuzzle(chosen.name, solution, value, next_best, values)
