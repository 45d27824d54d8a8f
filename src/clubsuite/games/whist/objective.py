"""What search bots maximize in Clubs (whist group): reaching +target or -target first (CW-5).

Each seat's distance to its nearer target is ``d = target - |total|``; its weight is ``DECAY ** d``, and a seat's
value is its share of the three weights (a seat two points from a target is far likelier to win than one ten points
away, whichever way it is heading). A finished match is worth 1 to its winners, a draw a third, a loss 0. The
solver's two measures (most and fewest tricks) both count: the bot may aim either way (CW-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.bots.objective import match_result
from clubsuite.engine import SomeMatch
from clubsuite.games.whist.hand import QUOTA
from clubsuite.games.whist.match import WhistMatch

DECAY = 0.75
"""How much a point of distance to the nearer target costs, as a factor on a seat's weight."""
DRAW = 1 / 3
"""A draw (all three at a target at once, CW-5): nobody wins, shared three ways."""


def share(totals: Sequence[int], seat: int, target: int) -> float:
    """``seat``'s share of the chances of reaching a target first (see the module docstring)."""
    weights = [DECAY ** max(0, target - abs(t)) for t in totals]
    return weights[seat] / sum(weights)


class WhistObjective:
    """The whist objective (see the module docstring)."""

    measures = ("tricks", "fewest")
    solve_in_search = False

    def value(self, match: SomeMatch, seat: int) -> float:
        """After a hand: the result, or the share of the chances from the totals."""
        done = match_result(match, seat, DRAW)
        if done is not None:
            return done
        assert isinstance(match, WhistMatch)
        return share(match.totals, seat, match.options.target)

    def value_of_count(self, match: SomeMatch, seat: int, measure: str, count: int) -> float:
        """Ending the hand with ``count`` tricks: the seat scores ``count - 4``; the others' scores are unknown to
        this reckoning and left as they are."""
        assert isinstance(match, WhistMatch)
        totals = list(match.totals)
        totals[seat] += count - QUOTA
        target = match.options.target
        if abs(totals[seat]) >= target:
            return 1.0
        return share(totals, seat, target)


OBJECTIVE = WhistObjective()
