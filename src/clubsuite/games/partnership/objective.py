"""What search bots maximize in the partnership game: the partnership's chance of winning the race to the target.

The two partnership totals race to the target (CP-4): :func:`clubsuite.bots.objective.race_share` with the mean
points of a partnership in a hand (15.5 of 31) and their spread. A hand's points decide both sides' (31 split,
or 36 to 0 for a sweep, CP-3), so the solver's count gives both new totals exactly.
"""

from __future__ import annotations

from clubsuite.bots.objective import match_result, race_share
from clubsuite.engine import SomeMatch
from clubsuite.games.partnership.hand import SWEEP_BONUS, team_of
from clubsuite.games.partnership.match import PartnershipMatch

GAIN = 15.5
"""Mean points of a partnership in a hand."""
SPREAD = 6.5
"""Standard deviation of a partnership's points in a hand (heuristic bots, measured)."""
HAND_POINTS = 31
"""Points given out in a hand without a sweep."""


class PartnershipObjective:
    """The partnership objective (see the module docstring)."""

    measures = ("points",)
    solve_in_search = True

    def value(self, match: SomeMatch, seat: int) -> float:
        """After a hand: the result, or the race share of the two totals."""
        done = match_result(match, seat, 0.5)
        if done is not None:
            return done
        assert isinstance(match, PartnershipMatch)
        totals = (match.totals[0], match.totals[1])
        return race_share(totals, team_of(seat), match.options.target, GAIN, SPREAD)

    def value_of_count(self, match: SomeMatch, seat: int, measure: str, count: int) -> float:
        """Ending the hand with ``count`` points for the seat's partnership; the other takes the rest (CP-3)."""
        assert isinstance(match, PartnershipMatch)
        team = team_of(seat)
        sweep = HAND_POINTS + SWEEP_BONUS
        other = sweep if count == 0 else 0 if count == sweep else HAND_POINTS - count
        totals = [match.totals[0], match.totals[1]]
        totals[team] += count
        totals[1 - team] += other
        target = match.options.target
        if max(totals) >= target and totals[0] != totals[1]:
            return 1.0 if totals[team] > totals[1 - team] else 0.0
        return race_share(totals, team, target, GAIN, SPREAD)


OBJECTIVE = PartnershipObjective()
