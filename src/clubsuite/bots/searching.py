"""What the search bots share: drawing worlds from a seat's view, playing a hand out, budgets and candidates.

A search bot sees what its seat's view shows and nothing more. It asks the view for *determinizations*: complete
states the seat cannot tell from the real one, every card it cannot see drawn again consistently with everything
it has seen (each game's sampler; the tests check that two deals the seat cannot tell apart give the same
determinization for the same random numbers). Everything the bot then computes runs on those imagined states.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.engine import LegalActions, SomeMatch, find_game
from clubsuite.errors import InvalidOptionsError


@runtime_checkable
class Determinizable(Protocol):
    """A view that can draw a complete state consistent with what its seat knows."""

    @property
    def seat(self) -> int: ...

    @property
    def phase(self) -> object:
        """The phase of the match (a search may spend more worlds in one phase than another)."""
        ...

    def determinize(self, rng: random.Random) -> SomeMatch:
        """A match that agrees with the view in everything the seat knows, the rest drawn with ``rng``."""
        ...


def worlds_from(view: object) -> Determinizable:
    """``view`` as a source of determinizations, or a clear error for a view that cannot give them."""
    if not isinstance(view, Determinizable):
        raise InvalidOptionsError(f"a search bot needs a view that can be determinized; got {type(view).__name__}")
    return view


class Budget:
    """When a search stops: after ``count`` units of work (worlds, iterations), or once ``cpu`` milliseconds of the
    thinking thread's CPU time have been spent, or once ``ms`` milliseconds of wall time have passed (0: no such
    limit), whichever comes first, and never before the first unit.

    Work and CPU time do not depend on the machine's load: a search stopped by them decides the same on a busy
    machine as on a quiet one, only later. Wall time does; the levels use it only as a cap for the person waiting,
    set far above what their work takes (``docs/bots.md``, "Levels")."""

    def __init__(self, count: int, ms: int, cpu: int = 0) -> None:
        self.count = count
        self.deadline = time.perf_counter() + ms / 1000 if ms else None
        self.cpu_deadline = time.thread_time() + cpu / 1000 if cpu else None
        self.done = 0
        self.stopped_by = "work"
        """What ended the search: ``work`` (the count reached), ``cpu`` or ``wall`` (a time limit)."""

    def out_of_time(self) -> bool:
        """Whether a time limit (CPU or wall) has been reached, whatever the work done."""
        return (self.cpu_deadline is not None and time.thread_time() >= self.cpu_deadline) or (
            self.deadline is not None and time.perf_counter() >= self.deadline
        )

    def more(self) -> bool:
        """Whether another unit of work may start."""
        if self.done >= self.count:
            self.stopped_by = "work"
            return False
        if not self.done:
            return True
        if self.cpu_deadline is not None and time.thread_time() >= self.cpu_deadline:
            self.stopped_by = "cpu"
            return False
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self.stopped_by = "wall"
            return False
        return True


Playout = Callable[[object, str, random.Random], bool]
"""A game's play-out of the hand in progress in its compiled kernel (its part ``playout``): the same actions the
rollout bot ``spec`` would take, drawing from ``rng`` what it would; False where it cannot (the bots then play)."""


@runtime_checkable
class HasPlayout(Protocol):
    """A game's parts that play a hand out in its compiled kernel."""

    def playout(self) -> Playout:
        """The play-out."""
        ...


class Rollouts:
    """Plays the rest of a hand with one bot per seat (each deciding from its own view of the imagined state)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self._bots: dict[tuple[str, int], SomeBot] = {}
        self._playouts: dict[str, Playout | None] = {}

    def bot(self, game: str, seat: int) -> SomeBot:
        """The rollout bot of ``seat`` (built once per game and seat)."""
        key = (game, seat)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(self.spec, game)
        return bot

    def finish_hand(self, match: SomeMatch, rng: random.Random) -> None:
        """Play until nobody is to act: the hand in progress is scored (and the match maybe over).

        A game's ``playout`` part (``compiled_finish(match, spec, rng) -> bool``) may play the hand in its compiled
        kernel, choosing exactly what the rollout bot would (and drawing from ``rng`` what it would); otherwise the
        bots play it here."""
        if match.game not in self._playouts:
            parts = find_game(match.game)[0].parts
            self._playouts[match.game] = parts.playout() if isinstance(parts, HasPlayout) else None
        compiled = self._playouts[match.game]
        if compiled is not None and compiled(match, self.spec, rng):
            return
        while match.to_act is not None:
            seat = match.to_act
            match.apply(self.bot(match.game, seat).choose(match.view(seat), match.legal_actions(), rng))


def candidates(legal: LegalActions[object], width: int, favourite: object | None, rng: random.Random) -> list[object]:
    """The actions a search compares: all of them when there are at most ``width``; otherwise ``favourite`` (the
    rollout bot's choice) and a random draw of the others, so that a choice among hundreds (a three-card pass,
    a wild climbing play) stays affordable. Kept in the order of ``legal``."""
    if len(legal) <= width:
        return list(legal)
    picked = set(rng.sample(range(len(legal)), width))
    chosen = [legal[i] for i in sorted(picked)]
    if favourite is not None and favourite not in chosen:
        chosen[-1] = favourite
    return chosen


def check_settings(kind: str, **values: tuple[int, int, int]) -> None:
    """Refuse a setting outside its range: ``values`` maps a setting to (value, lowest, highest)."""
    for key, (value, low, high) in values.items():
        if type(value) is not int or not low <= value <= high:
            raise InvalidOptionsError(f"{kind} setting {key}={value!r} is out of range: expected {low}..{high}")


def check_choices(kind: str, **values: tuple[str, tuple[str, ...]]) -> None:
    """Refuse a setting that is none of its words: ``values`` maps a setting to (value, the words allowed)."""
    for key, (value, allowed) in values.items():
        if value not in allowed:
            words = ", ".join(allowed[:-1]) + f" or {allowed[-1]}"
            raise InvalidOptionsError(f"{kind} setting {key}={value!r}: expected {words}")


def seeds(rng: random.Random, n: int) -> Sequence[int]:
    """``n`` seeds drawn from the decision's RNG up front, so that how far a time-limited search gets never
    changes what the RNG gives afterwards."""
    return [rng.getrandbits(64) for _ in range(n)]


@dataclass
class Compared:
    """What a paired search found: the candidates, the rollout bot's choice among them, and for each measure one
    row of values per world searched (every candidate valued in every world, so that two candidates can be compared
    world by world)."""

    actions: list[object]
    favourite: int
    rows: dict[str, list[list[float]]]

    def _mean(self, m: str, i: int) -> float:
        rows = self.rows[m]
        return sum(r[i] for r in rows) / len(rows)

    def best_in(self, m: str) -> int:
        """The index of the candidate with the highest mean in measure ``m`` (the first of equals)."""
        means = [self._mean(m, i) for i in range(len(self.actions))]
        return means.index(max(means))

    def means(self) -> list[tuple[object, float]]:
        """Each action with its best mean over the measures."""
        return [(a, max(self._mean(m, i) for m in self.rows)) for i, a in enumerate(self.actions)]

    def _best(self) -> tuple[str, int]:
        """The (measure, candidate index) with the highest mean."""
        best_m, best_i, best_v = "", 0, float("-inf")
        for m in self.rows:
            for i in range(len(self.actions)):
                v = self._mean(m, i)
                if v > best_v:
                    best_m, best_i, best_v = m, i, v
        return best_m, best_i

    def gap(self, taken: int) -> tuple[int, str, float, float]:
        """How much the best action beats the action at index ``taken``: (the best's index, the measure it is best
        in, the mean of their paired differences world by world in that measure, its standard error; 0 with one
        world). The best is the (measure, action) with the highest mean, as :meth:`decision` picks it."""
        best_m, best_i = self._best()
        mean, error = self.difference(best_i, taken, best_m)
        return best_i, best_m, mean, error

    def difference(self, first: int, second: int, measure: str) -> tuple[float, float]:
        """The mean of the paired differences, world by world, between the candidates at ``first`` and ``second``
        in ``measure``, and its standard error (0 with one world)."""
        diffs = [r[first] - r[second] for r in self.rows[measure]]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(var / n)

    def settled(self, z: float, margin: float, caution: float, alike: int) -> bool:
        """Whether more worlds are unlikely to change the choice by much: the action :meth:`decision` would play
        with ``caution`` is one that no other candidate could beat by more than ``margin`` in the measure of the
        best mean (their paired difference, plus ``z`` standard errors, stays under ``margin``). A close call
        between two actions worth about the same settles once the interval is narrow enough that playing either
        costs at most ``margin``.

        Two candidates worth the same in every world so far (touching cards, or a difference that has not shown up
        yet) have no spread to measure: they count as settled only after ``alike`` worlds (a pair that differs in
        one world in ten shows no difference in 24 worlds 8% of the time). Needs two worlds at least."""
        best_m, _ = self._best()
        rows = self.rows[best_m]
        n = len(rows)
        if n < 2:
            return False
        chosen = self.actions.index(self.decision(caution))
        for j in range(len(self.actions)):
            if j == chosen:
                continue
            if all(r[chosen] == r[j] for r in rows):
                if n < alike:
                    return False
                continue
            mean, error = self.difference(chosen, j, best_m)
            if -mean + z * error > margin:
                return False
        return True

    def outclassed(self, z: float) -> list[int]:
        """The candidates a search may stop valuing: in every measure, the best of that measure beats them by more
        than ``z`` standard errors of their paired differences (and by something). Never the rollout bot's choice
        (what ``caution`` measures against) nor the best of any measure. Needs two worlds at least."""
        if not self.rows or len(next(iter(self.rows.values()))) < 2:
            return []
        bests = {m: self.best_in(m) for m in self.rows}
        kept = {self.favourite, *bests.values()}
        return [
            j
            for j in range(len(self.actions))
            if j not in kept and all(self._beaten(b, j, m, z) for m, b in bests.items())
        ]

    def _beaten(self, best: int, j: int, m: str, z: float) -> bool:
        """Whether ``best`` beats ``j`` in measure ``m`` by something and by more than ``z`` standard errors."""
        mean, error = self.difference(best, j, m)
        return mean > 0 and mean > z * error

    def without(self, dropped: Sequence[int]) -> Compared:
        """The same comparison with the candidates at ``dropped`` left out (their values in every world too)."""
        gone = set(dropped)
        kept = [i for i in range(len(self.actions)) if i not in gone]
        rows = {m: [[r[i] for i in kept] for r in rows] for m, rows in self.rows.items()}
        return Compared([self.actions[i] for i in kept], kept.index(self.favourite), rows)

    def decision(self, caution: float) -> object:
        """The best (measure, action) by mean; but the favourite where the best beats it, in that measure, by no
        more than ``caution`` standard errors of their paired differences (each world values both)."""
        best_m, best_i = self._best()
        fav = self.favourite
        rows = self.rows[best_m]
        if best_i == fav or caution <= 0:
            return self.actions[best_i]
        diffs = [r[best_i] - r[fav] for r in rows]
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return self.actions[fav] if mean <= 0 else self.actions[best_i]
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return self.actions[best_i] if mean > caution * math.sqrt(var / n) else self.actions[fav]
