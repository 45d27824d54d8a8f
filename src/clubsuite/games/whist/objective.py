"""What search bots maximize in Clubs (whist group): reaching +target or -target first (CW-5).

Each seat's distance to its nearer target is ``d = target - |total|``; its weight is ``DECAY ** d``, and a seat's
value is its share of the three weights (a seat two points from a target is far likelier to win than one ten points
away, whichever way it is heading). A finished match is worth 1 to its winners, a draw a third, a loss 0. The
solver's two measures (most and fewest tricks) both count: the bot may aim either way (CW-5).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from importlib import resources

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
        return self.share(match.totals, seat, match.options.target)

    def share(self, totals: Sequence[int], seat: int, target: int) -> float:
        """``seat``'s share of the chances from the totals (by the formula; the fitted objective reads its table)."""
        return share(totals, seat, target)

    def value_of_count(self, match: SomeMatch, seat: int, measure: str, count: int) -> float:
        """Ending the hand with ``count`` tricks: the seat scores ``count - 4``; the others' scores are unknown to
        this reckoning and left as they are."""
        assert isinstance(match, WhistMatch)
        totals = list(match.totals)
        totals[seat] += count - QUOTA
        target = match.options.target
        if abs(totals[seat]) >= target:
            return 1.0
        return self.share(totals, seat, target)


OBJECTIVE = WhistObjective()


FITTED_FILE = "fitted_objective.json"
"""The fitted table, a data file of this package (written by ``bench/fit_objective.py``; its command, seed and
held-out fit are in the file)."""


@functools.cache
def _fitted_table() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The fitted log-weights by distance to the nearer target, ``(up, down)``: ``up[d]`` for a positive total ``d``
    points short of +target, ``down[d]`` for a negative one short of -target (index 0 unused; a total of 0 is both)."""
    data = json.loads(resources.files(__package__).joinpath(FITTED_FILE).read_text(encoding="utf-8"))
    target = int(data["target"])
    weights = {int(total): float(w) for total, w in data["log_weights"].items()}
    up = (0.0, *(weights[target - d] for d in range(1, target + 1)))
    down = (0.0, *(weights[d - target] for d in range(1, target + 1)))
    return up, down


def fitted_log_weight(total: int, target: int) -> float:
    """A seat's fitted log-weight at ``total`` in a race to ``target``: read from the table by the distance to the
    nearer target and the side it lies on; a distance past the table's (a larger target than the fit's) continues
    its last step."""
    up, down = _fitted_table()
    table = up if total >= 0 else down
    d = max(1, target - abs(total))
    last = len(table) - 1
    if d <= last:
        return table[d]
    return table[last] + (d - last) * (table[last] - table[last - 1])


def fitted_share(totals: Sequence[int], seat: int, target: int) -> float:
    """``seat``'s share of the chances of reaching a target first, by the fitted weights."""
    logs = [fitted_log_weight(t, target) for t in totals]
    top = max(logs)
    weights = [math.exp(w - top) for w in logs]
    return weights[seat] / sum(weights)


class FittedWhistObjective(WhistObjective):
    """The whist objective with the fitted weights in place of ``DECAY ** d``.

    Each seat's weight is ``exp(w(total))``, where ``w`` was fitted (softmax over the three seats, cross-entropy,
    ``bench/fit_objective.py``) to which seat won matches of heuristic bots from the totals at each hand's start. The
    fit says that being near a target is worth much more than ``0.75 ** d`` allows: about ``0.55 ** d``."""

    def share(self, totals: Sequence[int], seat: int, target: int) -> float:
        """``seat``'s share of the chances from the totals, by the fitted weights."""
        return fitted_share(totals, seat, target)


FITTED_OBJECTIVE = FittedWhistObjective()
"""The fitted objective, read by a search with ``objective=fitted``."""
