"""What makes a position a puzzle: one action clearly best, every other clearly worse, by a judge that cannot be
argued with (lichess asks the same of a chess puzzle: one move clearly best, the others clearly worse).

Three judges, three kinds of puzzle:

* ``double_dummy`` (the trick games' card play, every hand shown): exactly one legal card keeps the exact solver's
  best value for the seat to act, and every other card loses at least ``min_loss`` of it (a trick, a point). The
  solver's value assumes every other side plays against the seat (its partner with it), so the answer is the same
  whoever checks it with ``clubs solve``.
* ``endgame`` (a game with an exact search of its round's end, registry part ``endgame``, every hand shown): the
  same criterion over every legal action (a play, a pass, a call), valued by that search.
* ``single_dummy`` (every game, the seat's own view only): the action a search finds best from what the seat could
  know beats every other by a margin far beyond the search's noise. It is *found* on some worlds (deals the seat
  cannot tell from the real one) and *measured* on others the finding never saw, paired world by world (the same
  worlds for every action): every other action must lose at least ``min_margin`` of a win on average (the
  objective counts the estimated chance of winning the match), and that mean must stand at least ``min_z`` standard
  errors from zero. With the defaults (0.02 and 4 standard errors on 64 worlds), an action only as good as the
  solution passes with a chance under one in thirty thousand. That screen chooses which positions are kept, so the
  margins it measured are biased upwards among those it keeps (the winner's curse: of many positions near the bar,
  those whose worlds happened to favour the answer pass). So a position that passes is *confirmed* on ``confirm``
  worlds more, drawn after the choice from a seed of their own: paired world by world again, the answer's mean lead
  over every other action must have the lower end of its 95% confidence interval at ``min_margin`` or above. That
  confirmed margin and its interval are what the puzzle states.

Equivalent cards (two touching cards of a suit) keep the same value, so a position where the right suit matters but
not which of its touching cards is played is no exact puzzle: its answer would not be one card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from clubsuite.engine import SomeMatch, find_game
from clubsuite.seeding import derive_seed
from clubsuite.solver import NotSolvableError, card_values, solving_for
from clubsuite.solver.game import measure_named

CONFIRM_WORLDS = 512
"""Single dummy: the fresh worlds a margin is confirmed on (its 95% interval is then about a hundredth of a win
either side for a typical spread of the paired differences)."""
CONFIDENCE_Z = 1.959964
"""The normal quantile of a two-sided 95% confidence interval."""

ENDGAME_MEASURE = "round"
"""The measure of an ``endgame`` puzzle: the round score the seat can be sure of."""


@dataclass(frozen=True)
class ExactAnswer:
    """A position's one right action by an exact judge: its value and the best any other action gets."""

    kind: str
    """``double_dummy`` or ``endgame``."""
    measure: str
    """What is counted (as ``clubs solve --measure`` names it; ``round`` for an endgame), for the seat to act."""
    maximize: bool
    """Whether the seat wants the count high."""
    solution: str
    """The one action that keeps the best value, in the game's notation."""
    value: int
    """The final count after the solution, with best play on every side."""
    next_best: int
    """The best final count any other legal action gets."""
    values: Mapping[str, int]
    """Every legal action's final count, by its notation."""

    @property
    def loss(self) -> int:
        """How much the best of the other actions gives away (at least the ``min_loss`` it was found with)."""
        return abs(self.value - self.next_best)


class Endgame(Protocol):
    """A game's exact search of its round's end (a module of the game's folder), for its endgame puzzles."""

    def searchable(self, match: object, /) -> object | None:
        """The round in progress where the search applies, or None."""
        ...

    def action_values(self, match: object, node_limit: int | None = None, /) -> dict[object, int] | None:
        """Each legal action of the seat to act with the round score it can be sure of after it, or None where the
        search does not apply."""
        ...

    def best_reply(self, match: object, seat: int, node_limit: int | None = None, /) -> object | None:
        """The action of the seat to act that holds ``seat``'s round score lowest, or None."""
        ...


@runtime_checkable
class HasEndgame(Protocol):
    """A game's parts that search its round's end exactly."""

    def endgame(self) -> Endgame:
        """The search."""
        ...


def endgame_part(game: str) -> Endgame | None:
    """The ``endgame`` part of ``game``, or None."""
    parts = find_game(game)[0].parts
    return parts.endgame() if isinstance(parts, HasEndgame) else None


def _unique_best(
    kind: str, measure: str, maximize: bool, values: Mapping[str, int], min_loss: int
) -> ExactAnswer | None:
    if min_loss < 1:
        raise ValueError(f"min_loss={min_loss}: a puzzle's other actions must lose at least 1")
    if len(values) < 2:
        return None
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=maximize)
    (solution, value), (_, next_best) = ranked[0], ranked[1]
    if abs(value - next_best) < min_loss:
        return None
    return ExactAnswer(kind, measure, maximize, solution, value, next_best, dict(values))


def double_dummy(
    match: SomeMatch, measure: str | None = None, min_loss: int = 1, node_limit: int | None = None
) -> ExactAnswer | None:
    """The double-dummy puzzle of ``match`` at its card to play, for ``measure`` (the game's first by default): None
    where fewer than two cards are legal, where more than one card keeps the best value, or where the next best
    loses less than ``min_loss``. The match is left as it was (the solver works on its own copy);
    :class:`~clubsuite.solver.NotSolvableError` where the game has no solver or no card is to be played, and
    :class:`~clubsuite.solver.search.NodeLimitError` past ``node_limit``."""
    if min_loss < 1:
        raise ValueError(f"min_loss={min_loss}: a puzzle's other cards must lose at least 1")
    chosen = measure_named(solving_for(match.game), measure)
    values = {match.format_action(a): v for a, v in card_values(match, chosen.name, node_limit=node_limit).items()}
    return _unique_best("double_dummy", chosen.name, chosen.maximize, values, min_loss)


def endgame_values(match: SomeMatch, node_limit: int | None = None) -> dict[str, int]:
    """Every legal action of the seat to act with the round score it can be sure of, by the game's exact search of
    its round's end; :class:`~clubsuite.solver.NotSolvableError` where the game has none or it does not apply."""
    part = endgame_part(match.game)
    if part is None:
        raise NotSolvableError("this game has no exact search of a round's end")
    values = part.action_values(match, node_limit)
    if values is None:
        raise NotSolvableError("the exact search of a round's end does not apply here (no one to act, or teams)")
    return {match.format_action(a): v for a, v in values.items()}


def endgame(match: SomeMatch, min_loss: int = 1, node_limit: int | None = None) -> ExactAnswer | None:
    """The endgame puzzle of ``match`` at its action to take (see the module docstring), or None;
    :class:`~clubsuite.solver.NotSolvableError` where the game has no such search or it does not apply,
    :class:`~clubsuite.solver.search.NodeLimitError` past ``node_limit`` positions."""
    return _unique_best("endgame", ENDGAME_MEASURE, True, endgame_values(match, node_limit), min_loss)


def exact(
    match: SomeMatch, kind: str, measure: str | None = None, min_loss: int = 1, node_limit: int | None = None
) -> ExactAnswer | None:
    """The exact puzzle of ``kind`` (``double_dummy`` or ``endgame``) at ``match``'s point, or None."""
    if kind == "double_dummy":
        return double_dummy(match, measure, min_loss, node_limit)
    if kind == "endgame":
        return endgame(match, min_loss, node_limit)
    raise ValueError(f"kind={kind!r}: an exact puzzle is double_dummy or endgame")


@dataclass(frozen=True)
class WorldCheck:
    """How the single-dummy criterion was measured: on worlds apart from those the answer was found on."""

    seed: int
    """The seed the search was given: the finding worlds are drawn from ``derive_seed(seed, 1)``, the checking
    worlds from ``derive_seed(seed, 2)`` (the same seed gives the same worlds and the same figures)."""
    worlds: int
    """Worlds the margin was measured on."""
    margin: float
    """The smallest mean paired difference between the solution and another action, in wins (0..1)."""
    z: float
    """That difference in standard errors of its mean (the smallest over the other actions; ``inf`` where the
    solution was better by the same amount in every world)."""
    better: float
    """The share of the worlds in which the solution did strictly better than every other action."""
    worse: float
    """The share of the worlds in which some other action did strictly better than the solution."""
    confirmed: Confirmation


@dataclass(frozen=True)
class Confirmation:
    """The margin measured again, after the answer was chosen and kept, on worlds neither the finding nor the
    screening saw (drawn from ``derive_seed(seed, 3)``): against the closest other action (the one whose interval
    reaches lowest), the mean paired lead and its 95% confidence interval."""

    worlds: int
    margin: float
    low: float
    high: float


@dataclass(frozen=True)
class SingleDummyAnswer:
    """A position's one right action from the seat's own view (see the module docstring)."""

    measure: str
    """The objective's measure the search compared the actions in (``rollout`` where hands were played out)."""
    solution: str
    values: Mapping[str, float]
    """Every action's mean value (the estimated chance of winning the match) over the checking worlds."""
    check: WorldCheck


def _paired(diffs: list[float]) -> tuple[float, float]:
    """The mean of paired differences and its standard error (0 with one world)."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def _leads(rows: Mapping[str, list[list[float]]], measure: str, s: int) -> list[tuple[float, float]]:
    """The mean paired lead of action ``s`` (in ``measure``) over every other action in every measure, world by
    world, with its standard error."""
    mine = rows[measure]
    n = len(mine)
    width = len(mine[0]) if n else 0
    return [_paired([mine[w][s] - rows[m][w][j] for w in range(n)]) for m in rows for j in range(width) if j != s]


def confirm(
    match: SomeMatch, seed: int, solution: object, measure: str, worlds: int = CONFIRM_WORLDS
) -> Confirmation | None:
    """The margin of ``solution`` measured on ``worlds`` fresh worlds (see :class:`Confirmation`), or None where the
    search compares no other action there."""
    from clubsuite.bots.pimc import PimcBot, PimcSettings

    seat = match.to_act
    assert seat is not None
    legal = match.legal_actions()
    checker = PimcBot(PimcSettings(samples=worlds, width=max(2, min(len(legal), 10_000))))
    fresh = checker.compare(match.view(seat), legal, random.Random(derive_seed(seed, 3)), solution)
    if len(fresh.actions) < 2 or measure not in fresh.rows:
        return None
    leads = _leads(fresh.rows, measure, fresh.actions.index(solution))
    mean, error = min(leads, key=lambda me: me[0] - CONFIDENCE_Z * me[1])
    return Confirmation(len(fresh.rows[measure]), mean, mean - CONFIDENCE_Z * error, mean + CONFIDENCE_Z * error)


def single_dummy(
    match: SomeMatch,
    seed: int,
    find: int = 16,
    worlds: int = 64,
    min_margin: float = 0.02,
    min_z: float = 4.0,
    confirm_worlds: int = CONFIRM_WORLDS,
) -> SingleDummyAnswer | None:
    """The single-dummy puzzle of ``match`` for the seat to act (see the module docstring): the best action by a
    PIMC search of ``find`` worlds, screened on ``worlds`` other worlds (drawn from a seed apart from the
    finding's): it must beat every other legal action by at least ``min_margin`` and ``min_z`` standard errors;
    then kept only if ``confirm_worlds`` fresh worlds (a third seed) confirm it, the lower end of the 95% interval
    of its lead over every other action at ``min_margin`` or above. The search sees only the seat's view; the match
    is left as it was."""
    from clubsuite.bots.pimc import PimcBot, PimcSettings

    seat = match.to_act
    if seat is None:
        return None
    legal = match.legal_actions()
    if len(legal) < 2:
        return None
    view = match.view(seat)
    width = max(2, min(len(legal), 10_000))
    finder = PimcBot(PimcSettings(samples=find, width=width))
    found = finder.compare(view, legal, random.Random(derive_seed(seed, 1)))
    _, best_i = max(
        ((m, i) for m in found.rows for i in range(len(found.actions))),
        key=lambda mi: sum(r[mi[1]] for r in found.rows[mi[0]]),
    )
    solution = found.actions[best_i]
    check_seed = derive_seed(seed, 2)
    checker = PimcBot(PimcSettings(samples=worlds, width=width))
    checked = checker.compare(view, legal, random.Random(check_seed), solution)
    if len(checked.actions) < 2:
        return None
    s = checked.actions.index(solution)
    means = {m: sum(r[s] for r in rows) / len(rows) for m, rows in checked.rows.items()}
    measure = max(means, key=lambda m: means[m])
    rows = checked.rows[measure]
    n = len(rows)
    # A search may aim high or low (a game with several measures): the answer, in its best measure, must beat every
    # other action in every measure, world by world.
    rivals = [(m, j) for m in checked.rows for j in range(len(checked.actions)) if j != s]
    margin, z = math.inf, math.inf
    for m, j in rivals:
        mean, error = _paired([rows[w][s] - checked.rows[m][w][j] for w in range(n)])
        margin = min(margin, mean)
        z = min(z, mean / error if error > 0 else (math.inf if mean > 0 else 0.0))
    if margin < min_margin or z < min_z:
        return None
    # the screen chose this position: its margin is confirmed on worlds drawn after the choice (the winner's curse)
    confirmed = confirm(match, seed, solution, measure, confirm_worlds)
    if confirmed is None or confirmed.low < min_margin:
        return None
    better = sum(1 for w in range(n) if all(rows[w][s] > checked.rows[m][w][j] for m, j in rivals)) / n
    worse = sum(1 for w in range(n) if any(checked.rows[m][w][j] > rows[w][s] for m, j in rivals)) / n
    values = {
        match.format_action(a): max(sum(r[i] for r in rs) / n for rs in checked.rows.values())
        for i, a in enumerate(checked.actions)
    }
    return SingleDummyAnswer(
        measure,
        match.format_action(solution),
        values,
        WorldCheck(seed, len(rows), margin, z, better, worse, confirmed),
    )
