"""The exact solver for the card play of the trick games: every hand known, the value of each legal card.

:mod:`~clubsuite.solver.model` holds the shared position, :mod:`~clubsuite.solver.search` the alpha-beta search and
:mod:`~clubsuite.solver.game` the bridge to each game (its registry part ``solver``).
"""

from clubsuite.solver.game import Measure, NotSolvableError, Solvable, TrickSolving, card_values, solving_for
from clubsuite.solver.model import Follow, PlayPosition, Scorer
from clubsuite.solver.search import NodeLimitError, SolveStats, Table, solve

__all__ = [
    "Follow",
    "Measure",
    "NodeLimitError",
    "NotSolvableError",
    "PlayPosition",
    "Scorer",
    "Solvable",
    "SolveStats",
    "Table",
    "TrickSolving",
    "card_values",
    "solve",
    "solving_for",
]
