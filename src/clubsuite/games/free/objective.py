"""What search bots maximize in Free Clubs: the chance of having the highest total once one reaches the target.

A race of three totals to the target (FC-9): :func:`clubsuite.bots.objective.race_share` with a seat's mean points
in a hand and their spread. The solver counts only the seat's own points (FC-4, FC-8), so the others' totals are
left as they are when a count is valued.
"""

from __future__ import annotations

from clubsuite.bots.objective import match_result, race_share
from clubsuite.engine import SomeMatch
from clubsuite.games.free.match import FreeMatch

GAIN = 30.0
"""Mean points of a seat in a hand."""
SPREAD = 29.0
"""Standard deviation of a seat's points in a hand (heuristic bots, measured)."""


class FreeObjective:
    """The Free Clubs objective (see the module docstring)."""

    measures = ("points",)
    solve_in_search = False

    def value(self, match: SomeMatch, seat: int) -> float:
        """After a hand: the result, or the race share of the totals."""
        done = match_result(match, seat, 0.0)
        if done is not None:
            return done
        assert isinstance(match, FreeMatch)
        return race_share(match.totals, seat, match.options.target, GAIN, SPREAD)

    def value_of_count(self, match: SomeMatch, seat: int, measure: str, count: int) -> float:
        """Ending the hand with ``count`` points for the seat, the others' totals unchanged."""
        assert isinstance(match, FreeMatch)
        totals = list(match.totals)
        totals[seat] += count
        target = match.options.target
        if totals[seat] >= target and totals[seat] > max(t for s, t in enumerate(totals) if s != seat):
            return 1.0
        return race_share(totals, seat, target, GAIN, SPREAD)


OBJECTIVE = FreeObjective()
