"""A policy network's arithmetic, stated so that every path computes the same bits: its scores in a fixed order, an
action's log-probability, and the search for the likeliest action.

**Scores.** Each output of a layer starts at its bias and adds its inputs' products in increasing input order, in
single precision, every product and sum rounded on its own; ReLU between layers; +0 added to the last layer's
outputs (so that no -0 shows). A row's scores are then the same whatever batch it is computed in: a BLAS product
does not promise that (its order of sums changes with the batch's size, and so, in the last bit, its scores, and
now and then which of two close actions is likelier). The compiled core computes them in C (``native/policy.h``:
the learned seats of the vector environment's kernels, and :class:`clubsuite.bots.policy.Policy` where it is built);
:func:`ordered_scores` is the NumPy statement of the same sums, the fallback, and the tests hold the two to each
other bit for bit. An input of zero may be skipped or added: its product changes a sum only in the sign of a zero,
which the ReLU and the last +0 wipe out.

**Log-probabilities.** An action is spelled as ids; each id is scored on the observation with the ids before it
picked. An id's log-probability there is its score less the log of the sum of the exponentials of the scores of
the ids allowed after the same prefix (the largest of them taken out first, the sum taken in increasing id order),
in double precision with the C library's ``exp`` and ``log``; an action's is the sum of its ids' in spelling order.
:func:`log_probabilities_of` is that sum for every legal action.

**The likeliest action** (what :class:`clubsuite.bots.policy.PolicyBot` plays): the action of the highest
log-probability, the lowest id sequence first among equals. :func:`likeliest` finds it without scoring every
prefix: it scores a prefix, then visits the ids that may follow it likeliest first, and drops an id whose
log-probability so far is already below the best whole action found. That drops nothing that could win: every term
of the sum is at most 0 (an allowed score never exceeds the log-sum, and a double subtraction of a larger number
gives at most 0), so a sum never grows as ids are added. ``native/policy.h`` searches the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

Rows = npt.NDArray[np.float32]
"""Observations, one a row, or the scores of each."""
Scoring = Callable[[Rows], npt.ArrayLike]
"""Scores of the action ids for each row of a batch of observations."""

TERMS_AT_ONCE = 1 << 22
"""The most products :func:`ordered_scores` holds at once (16 MB of float32): its rows go in groups of no more."""


def flushed(values: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``values`` with every subnormal number (below 2**-126 in size, not 0) made 0: a trained network's inputs that
    never fire decay to them, and a processor multiplies them many times slower than other numbers (a row of one
    shipped policy took about three times as long). A product of one is below a single-precision sum's last bit
    unless the sum is itself that small."""
    tiny = np.finfo(np.float32).tiny
    return np.where(np.abs(values) < tiny, np.float32(0), values).astype(np.float32)


def ordered_scores(layers: Sequence[tuple[Rows, Rows]], rows: npt.ArrayLike) -> Rows:
    """The scores of each row (see the module docstring): the NumPy statement of ``native/policy.h``'s sums. Each
    layer's sums are running sums (``np.add.accumulate``, which adds in order) over the bias and the products of the
    inputs some row holds."""
    x: Rows = np.atleast_2d(np.asarray(rows, dtype=np.float32))
    for k, (w, b) in enumerate(layers):
        used = np.flatnonzero(x.any(axis=0))
        group = max(1, TERMS_AT_ONCE // ((len(used) + 1) * w.shape[1]))
        out = np.empty((x.shape[0], w.shape[1]), np.float32)
        for lo in range(0, x.shape[0], group):
            part = x[lo : lo + group]
            terms = np.empty((part.shape[0], len(used) + 1, w.shape[1]), np.float32)
            terms[:, 0] = b
            np.multiply(part[:, used, None], w[used][None], out=terms[:, 1:])
            out[lo : lo + group] = np.add.accumulate(terms, axis=1)[:, -1]
        x = out if k == len(layers) - 1 else np.where(out > 0, out, np.float32(0))
    scores: Rows = x + np.float32(0)
    return scores


def _log_sum(values: Sequence[float]) -> float:
    """log(sum(exp(v))) over ``values`` (the largest taken out first, the sum in the order given)."""
    top = max(values)
    total = 0.0
    for v in values:
        total += math.exp(v - top)
    return top + math.log(total)


def log_probabilities_of(
    scores: npt.NDArray[np.floating], row: dict[tuple[int, ...], int], spelled: Sequence[tuple[int, ...]]
) -> list[float]:
    """Each spelled action's log-probability (see the module docstring): ``row`` gives the row of ``scores`` of each
    prefix."""
    allowed: dict[tuple[int, ...], set[int]] = {}
    for seq in spelled:
        for d in range(len(seq)):
            allowed.setdefault(seq[:d], set()).add(seq[d])
    logz = {prefix: _log_sum([float(scores[row[prefix], i]) for i in sorted(ids)]) for prefix, ids in allowed.items()}
    found = []
    for seq in spelled:
        total = 0.0
        for d in range(len(seq)):
            total += float(scores[row[seq[:d]], seq[d]]) - logz[seq[:d]]
        found.append(total)
    return found


def likeliest(scoring: Scoring, observation: Rows, picked: int, spelled: Sequence[tuple[int, ...]]) -> int:
    """The index in ``spelled`` of the likeliest action (see the module docstring), scoring one prefix at a time:
    ``observation`` with nothing picked, its ``picked`` slot starting at ``picked``."""
    order = sorted(range(len(spelled)), key=lambda a: spelled[a])
    best: list[tuple[float, int]] = []  # the best action found: (log-probability, index)

    def visit(depth: int, members: list[int], partial: float) -> None:
        row = observation.copy()
        row[[picked + i for i in spelled[members[0]][:depth]]] = 1.0
        scores = np.asarray(scoring(row[None, :]), dtype=np.float32)[0]
        groups: dict[int, list[int]] = {}
        for a in members:  # in id order: the next ids come increasing
            groups.setdefault(spelled[a][depth], []).append(a)
        logz = _log_sum([float(scores[i]) for i in groups])
        logp = {i: partial + (float(scores[i]) - logz) for i in groups}
        for i in sorted(groups, key=lambda i: -logp[i]):  # likeliest first, the lower id among equals
            if best and logp[i] < best[0][0]:
                break
            first = groups[i][0]
            if len(spelled[first]) == depth + 1:
                if not best or logp[i] > best[0][0] or (logp[i] == best[0][0] and spelled[first] < spelled[best[0][1]]):
                    best[:] = [(logp[i], first)]
                continue
            visit(depth + 1, groups[i], logp[i])

    visit(0, order, 0.0)
    return best[0][1]
