"""Calibrating bot levels: their ratings on the scale people are rated on, from matches the levels play each other.

The server rates people with OpenSkill's Plackett-Luce model (``clubsuite.ratings``). A bot level needs a
starting rating on that same scale, so that "hard bot, 1480" means what "a person, 1480" means. This module gets it
from bot-only matches:

* **Line-ups.** A table of the game's seat count is filled from the levels in rotation: with at least as many levels
  as sides, every choice of levels for the sides (so every level meets every other); with fewer, the levels in
  turn, some level filling two sides. In a game of fixed partnerships a side is a partnership and both partners
  are the same level, so a partnership is rated as a team of two players of that level.
* **Cycles of duplicate deals.** Cycle ``c`` deals one set of cards (the match seed ``derive_seed(seed, c)``, as
  ``clubs simulate --duplicate`` deals one cycle of seatings) and every line-up plays it from every seat: the turns
  of one order round the table, from :func:`clubsuite.sim.seating.seating`, the order moving on from cycle to
  cycle. So each level holds every seat's cards in every cycle, and the luck of the deal cancels out of the
  comparison. The cycles are independent of each other, the matches within one are not (they share the cards).
* **The fit.** Each match's finishing order (winners first, then by total, partners together: the order the
  server reads from a finished match) updates the levels' skills with OpenSkill's Plackett-Luce model, exactly as
  a rated match on the server updates people's. Those updates are sequential, so their result depends on the order
  of the matches; the fit therefore makes several passes, each from a newcomer's skill through all the matches in
  its own shuffled order, and averages them. A level that sits at two seats of one match (more seats than levels)
  moves by the sum of its seats' moves, and gains the sum of their precision: OpenSkill's move is a step along the
  likelihood's slope, and the slope for one skill that two seats share is the sum of theirs.
* **The anchor.** Only differences of skill are measured, so the scale is pinned: every pass is shifted so that
  the ``normal`` level is at a newcomer's mean, shown 1500. "A normal bot plays like a new player is assumed to."
* **Intervals.** A bootstrap over cycles: the cycles are drawn again with replacement (whole cycles, since the
  matches of a cycle share their cards), the fit is made again on each draw, and the spread of the refits is the
  standard error of each level's mean. The 95% interval is the mean plus or minus 1.96 standard errors. The
  anchor has none: the other levels are measured against it.

The update is a rated match's: :mod:`clubsuite.ratings` (``rate``, ``finishing_ranks``, the shown scale), the module
the server, the puzzles and the terminal read too.
"""

from __future__ import annotations

import io
import itertools
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

from clubsuite import ratings
from clubsuite.bots.base import make_bot
from clubsuite.engine import SomeGame, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.options import spec_of
from clubsuite.pools import Workers
from clubsuite.safetext import quoted
from clubsuite.seeding import derive_seed, shuffled
from clubsuite.sim.running import MAX_MATCHES, MAX_WORKERS, play_one
from clubsuite.sim.seating import Teams, seating, seating_cycle
from clubsuite.sim.stats import Z95, MatchOutcome

MU = ratings.START.mu
"""A newcomer's mean skill, OpenSkill's default; the anchor level is pinned here."""
SIGMA = ratings.START.sigma
"""A newcomer's uncertainty, OpenSkill's default; every pass starts each level here."""

ANCHOR = "normal"
"""The level whose mean is pinned to a newcomer's (shown 1500): the scale means "normal plays like a newcomer is
assumed to"."""
MAX_LEVELS = 6
"""The most levels one calibration takes: six levels at three seats already make twenty line-ups a cycle."""
PASSES = 40
"""Sequential passes over the matches, each in its own shuffled order, averaged into the estimate."""
RESAMPLES = 200
"""Bootstrap draws of the cycles behind each standard error."""
DEFAULT_CYCLES = 20
"""Cycles played when no number of matches is given."""


@dataclass(frozen=True)
class Placing:
    """One match as the fit reads it: the level at every seat, the rank every seat finished at (0 is best, ties
    equal, partners equal), and the partnerships (seat tuples; empty when everyone plays alone)."""

    levels: tuple[str, ...]
    ranks: tuple[int, ...]
    teams: Teams = ()


@dataclass(frozen=True)
class LevelRating:
    """A level's calibrated skill: the mean and uncertainty the server starts it with, and how it reads."""

    mu: float
    """The mean skill (OpenSkill's scale), averaged over the passes, the anchor at :data:`MU`."""
    sigma: float
    """The uncertainty to start the level with: OpenSkill's own sigma after the matches (averaged over the passes)
    and the bootstrap standard error, added in quadrature (the skill moves, and the estimate of it is uncertain)."""
    se: float
    """The bootstrap standard error of :attr:`mu` (0 for the anchor, which the other levels are measured against)."""
    matches: int
    """How many matches the level played."""

    @property
    def shown(self) -> int:
        """The rating as a person reads it on the server: ``1500 + 60 (mu - 25)``, rounded."""
        return round(ratings.shown_rating(self.mu))

    @property
    def interval(self) -> tuple[int, int]:
        """The 95% interval of the shown rating: the mean plus or minus 1.96 bootstrap standard errors, rounded."""
        return round(ratings.shown_rating(self.mu - Z95 * self.se)), round(
            ratings.shown_rating(self.mu + Z95 * self.se)
        )

    def to_json(self) -> JsonObject:
        """The level's entry in a calibration's JSON: ``mu``, ``sigma``, ``se``, ``shown``, ``low``, ``high``,
        ``matches``."""
        low, high = self.interval
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "se": round(self.se, 4),
            "shown": self.shown,
            "low": low,
            "high": high,
            "matches": self.matches,
        }


@dataclass(frozen=True)
class Plan:
    """What each cycle of a calibration plays: every line-up from every seat, on the cycle's deal.

    A match is named by its line-up and its turn of the table; :meth:`index` gives the match index that
    :func:`clubsuite.sim.running.play_one` takes with ``duplicate=True``, whose seating is ``seating(index)`` and
    whose deal is the cycle's. Cycle ``c`` uses the ``c``-th order round the table (in turn), so that over as many
    cycles as there are orders each line-up sits in every order."""

    seats: int
    """Seats at the table."""
    teams: Teams
    """The game's fixed partnerships (empty when everyone plays alone)."""
    lineups: tuple[tuple[str, ...], ...]
    """The level of each entry of each line-up, one per seat (partners repeated)."""
    matches: tuple[tuple[int, int], ...]
    """Each match of a cycle as (line-up number, turn of the table)."""
    cycle_length: int
    """The length of :func:`seating_cycle` for the table: how far apart two cycles' match indices start."""

    @property
    def per_cycle(self) -> int:
        """Matches in one cycle."""
        return len(self.matches)

    def index(self, cycle: int, position: int) -> int:
        """The match index of the ``position``-th match of cycle ``cycle``: its turn of the order round the table
        numbered ``cycle % orders``, on the cycle's deal (``derive_seed(seed, cycle)``)."""
        orders = self.cycle_length // self.seats
        turn = self.matches[position][1]
        return cycle * self.cycle_length + (cycle % orders) * self.seats + turn

    def seat_levels(self, cycle: int, position: int) -> tuple[str, ...]:
        """The level at every seat in the ``position``-th match of cycle ``cycle``."""
        lineup = self.lineups[self.matches[position][0]]
        return _by_seat(lineup, seating(self.index(cycle, position), self.seats, self.teams))


@dataclass(frozen=True)
class Calibration:
    """The result of a calibration run."""

    spec: str
    """The rules spec as given."""
    canonical_spec: str
    """The spec with every option spelled out."""
    seats: int
    """Seats at each table."""
    seed: int
    """The run's seed: cycle ``c`` is dealt from ``derive_seed(seed, c)``."""
    levels: tuple[str, ...]
    """The levels, in the order given."""
    matches: int
    """Matches played and fitted."""
    cycles: int
    """Cycles played and fitted (whole cycles only)."""
    asked: int
    """Matches asked for; more than :attr:`matches` when the time limit stopped the run."""
    ratings: Mapping[str, LevelRating]
    """Each level's calibrated rating."""
    passes: int = PASSES
    """Shuffled passes averaged into each estimate."""
    resamples: int = RESAMPLES
    """Bootstrap draws behind each standard error."""

    def to_json(self) -> JsonObject:
        """The result as JSON (without the pool, the command and the date, which the caller knows)."""
        return {
            "spec": self.spec,
            "canonical_spec": self.canonical_spec,
            "seats": self.seats,
            "matches": self.matches,
            "cycles": self.cycles,
            "matches_asked": self.asked,
            "seed": self.seed,
            "anchor": ANCHOR,
            "passes": self.passes,
            "resamples": self.resamples,
            "levels": {level: self.ratings[level].to_json() for level in self.levels},
        }


# -- the update, as a rated match's ---------------------------------------------------------------------------------
def rate_seats(
    skills: Sequence[tuple[float, float]], ranks: Sequence[int], teams: Teams = ()
) -> list[tuple[float, float]]:
    """Every seat's ``(mu, sigma)`` after one match: :func:`clubsuite.ratings.rate`, the update of a rated match."""
    after = ratings.rate([ratings.Skill(mu, sigma) for mu, sigma in skills], list(ranks), teams)
    return [(skill.mu, skill.sigma) for skill in after]


def finishing_ranks(outcome: MatchOutcome, teams: Teams = ()) -> tuple[int, ...]:
    """The rank each seat finished at, read as a rated match's (:func:`clubsuite.ratings.finishing_ranks`): winners
    first, then by total, partners as one side. Nobody leaves a bot match, so there are no leavers to put last."""
    summary = {"totals": list(outcome.seat_scores), "draw": False, "winners": list(outcome.winner_seats)}
    return tuple(ratings.finishing_ranks(summary, len(outcome.seat_scores), teams))


# -- the fit ---------------------------------------------------------------------------------------------------------
def _update(skills: dict[str, tuple[float, float]], placing: Placing, tau_squared: float) -> None:
    """Move the levels' skills by one match (in place). A level at several seats moves by the sum of its seats'
    moves and gains the sum of their precision, each measured from its skill widened by the model's ``tau``."""
    after = rate_seats([skills[level] for level in placing.levels], placing.ranks, placing.teams)
    moved: dict[str, list[tuple[float, float]]] = {}
    for level, new in zip(placing.levels, after, strict=True):
        moved.setdefault(level, []).append(new)
    for level, news in moved.items():
        if len(news) == 1:
            skills[level] = news[0]
            continue
        mu, sigma = skills[level]
        widened = 1.0 / (sigma * sigma + tau_squared)
        precision = widened + sum(1.0 / (s * s) - widened for _, s in news)
        skills[level] = (mu + sum(m - mu for m, _ in news), 1.0 / math.sqrt(precision))


def fit_pass(placings: Sequence[Placing], levels: Sequence[str], rng: random.Random) -> dict[str, tuple[float, float]]:
    """One pass: every level from a newcomer's skill through all ``placings`` in an order shuffled by ``rng``,
    then shifted so that the anchor (``normal``, or the first level when there is none) sits at :data:`MU`."""
    tau = float(ratings.model().tau)
    skills = dict.fromkeys(levels, (MU, SIGMA))
    for i in shuffled(len(placings), rng):
        _update(skills, placings[i], tau * tau)
    anchor = ANCHOR if ANCHOR in skills else levels[0]
    shift = MU - skills[anchor][0]
    return {level: (mu + shift, sigma) for level, (mu, sigma) in skills.items()}


def fit(
    placings: Sequence[Placing], levels: Sequence[str], passes: int, rng: random.Random
) -> dict[str, tuple[float, float]]:
    """Each level's ``(mu, sigma)``: the mean over ``passes`` shuffled passes (:func:`fit_pass`)."""
    runs = [fit_pass(placings, levels, rng) for _ in range(passes)]
    return {
        level: (statistics.fmean(r[level][0] for r in runs), statistics.fmean(r[level][1] for r in runs))
        for level in levels
    }


def fit_levels(
    cycles: Sequence[Sequence[Placing]],
    levels: Sequence[str],
    seed: int = 0,
    passes: int = PASSES,
    resamples: int = RESAMPLES,
) -> dict[str, LevelRating]:
    """Each level's calibrated rating from the matches of some cycles (each cycle a list of :class:`Placing`).

    The estimate is :func:`fit` over all the matches; its standard error is the spread of the same fit over
    ``resamples`` draws of the cycles with replacement. ``seed`` seeds the shuffles and the draws (made from
    ``random()`` alone, the one output of Python's generator it promises to keep, as the deals are), so the same
    matches always give the same ratings. The anchor (``normal``, pinned to a newcomer's mean) must be among the
    levels, and there must be at least one cycle.
    """
    if ANCHOR not in levels:
        raise InvalidOptionsError(f"--levels {','.join(levels)}: the scale is pinned by {ANCHOR}; include it")
    if not cycles:
        raise InvalidOptionsError("a calibration needs at least one cycle of matches")
    rng = random.Random(derive_seed(seed, 0, 1))
    every = [p for cycle in cycles for p in cycle]
    estimate = fit(every, levels, passes, rng)
    draws: list[dict[str, tuple[float, float]]] = []
    for _ in range(resamples):
        chosen = [cycles[math.floor(rng.random() * len(cycles))] for _ in cycles]
        draws.append(fit([p for cycle in chosen for p in cycle], levels, passes, rng))
    out = {}
    for level in levels:
        mu, sigma = estimate[level]
        se = statistics.stdev(d[level][0] for d in draws) if len(draws) > 1 else 0.0
        if level == ANCHOR:
            se = 0.0  # exactly: every fit pins it, so any spread is rounding
        played = sum(1 for p in every if level in p.levels)
        out[level] = LevelRating(mu=mu, sigma=math.hypot(sigma, se), se=se, matches=played)
    return out


# -- what is played ----------------------------------------------------------------------------------------------------
def _by_seat(lineup: Sequence[str], seats: Sequence[int]) -> tuple[str, ...]:
    """The level at every seat when entry ``i`` of ``lineup`` sits at ``seats[i]``."""
    out = [""] * len(lineup)
    for level, seat in zip(lineup, seats, strict=True):
        out[seat] = level
    return tuple(out)


def side_lineups(levels: Sequence[str], sides: int) -> list[tuple[str, ...]]:
    """The levels of each line-up, one per side: with at least as many levels as sides every choice of ``sides``
    levels (so every level meets every other); with fewer, the levels in turn from each level on (``a,b,c,a``,
    ``b,c,a,b``, ``c,a,b,c`` for three levels at four seats), a line-up that holds the same levels as an earlier one
    left out."""
    if len(levels) >= sides:
        return [tuple(c) for c in itertools.combinations(levels, sides)]
    seen: set[tuple[str, ...]] = set()
    out = []
    for start in range(len(levels)):
        lineup = tuple(levels[(start + i) % len(levels)] for i in range(sides))
        key = tuple(sorted(lineup))
        if key not in seen:
            seen.add(key)
            out.append(lineup)
    return out


def plan(info: SomeGame, options: object, levels: Sequence[str]) -> Plan:
    """The matches of each cycle for ``levels`` at the table of ``info`` with ``options``: every line-up at every
    turn of the table. In a game of fixed partnerships two turns that put the same partnerships at the same seats
    (turns two apart, for two partnerships of two) would replay the same match, and the second is left out.

    Refuses (:class:`InvalidOptionsError`) teams that the options make rather than the game (the seatings would
    split partners across levels)."""
    n = info.n_seats(options)
    teams = info.teams if info.fixed_teams else ()
    if not info.fixed_teams and info.teams_of(options):
        raise InvalidOptionsError(
            f"{quoted(spec_of(info.name, options))} makes teams by its options, and a calibration rates each level "
            f"alone or as a partnership of one level: calibrate {info.name} without teams at {n} seats instead"
        )
    lineups = []
    for chosen in side_lineups(levels, len(teams) if teams else n):
        if teams:
            seat_levels = [""] * n
            for level, team in zip(chosen, teams, strict=True):
                for seat in team:
                    seat_levels[seat] = level
            lineups.append(tuple(seat_levels))
        else:
            lineups.append(chosen)
    matches = []
    for number, lineup in enumerate(lineups):
        # Partners share a level and every order keeps them together, so which turns repeat is the same in every
        # cycle. Alone, a line-up that repeats a level may repeat itself under one order and not another, so
        # every turn is played (a repeat, where one happens, is the same deal at the same seats again).
        seen: set[tuple[str, ...]] = set()
        for turn in range(n):
            arrangement = _by_seat(lineup, seating(turn, n, teams))
            if not teams or arrangement not in seen:
                seen.add(arrangement)
                matches.append((number, turn))
    return Plan(n, teams, tuple(lineups), tuple(matches), seating_cycle(n, teams))


def check(
    spec: str, levels: Sequence[str], matches: int | None, seed: int, workers: int
) -> tuple[SomeGame, object, Plan, int]:
    """Validate a calibration's inputs, naming the bad one; the game, its options, the plan of a cycle and the
    number of matches to play (:data:`DEFAULT_CYCLES` cycles when ``matches`` is None)."""
    for name, value in (("--seed", seed), ("--workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptionsError(f"{name} {value!r} is not a whole number")
    if not 0 <= seed < 2**64:
        raise InvalidOptionsError(f"--seed {seed}: a seed is a whole number from 0 to 2**64 - 1")
    if not 1 <= workers <= MAX_WORKERS:
        raise InvalidOptionsError(f"--workers {workers}: 1 to {MAX_WORKERS} worker processes")
    info, options = resolve(spec)
    given = ",".join(levels)
    if len(levels) < 2 or len(levels) > MAX_LEVELS:
        raise InvalidOptionsError(f"--levels {quoted(given)}: give 2 to {MAX_LEVELS} levels, comma-separated")
    for level in levels:
        if not level:
            raise InvalidOptionsError(f"--levels {quoted(given)}: a level name is empty")
        try:
            make_bot(level, info.name)
        except InvalidOptionsError as exc:
            raise InvalidOptionsError(f"--levels {quoted(given)}: {exc}") from None
    repeated = sorted({level for level in levels if levels.count(level) > 1})
    if repeated:
        raise InvalidOptionsError(f"--levels {quoted(given)}: {', '.join(repeated)} given twice")
    if ANCHOR not in levels:
        raise InvalidOptionsError(
            f"--levels {quoted(given)}: the scale is pinned by the {ANCHOR} level (shown 1500, a newcomer's "
            "rating), so it must be one of them"
        )
    table = plan(info, options, levels)
    size = table.per_cycle
    if matches is None:
        matches = DEFAULT_CYCLES * size
    if isinstance(matches, bool) or not isinstance(matches, int) or not 1 <= matches <= MAX_MATCHES:
        raise InvalidOptionsError(f"--matches {matches!r}: a whole number from 1 to {MAX_MATCHES:,}")
    if matches % size or matches < 2 * size:
        raise InvalidOptionsError(
            f"--matches {matches}: {len(levels)} levels at {info.n_seats(options)} seats play cycles of {size} "
            f"matches (every line-up from every seat on one deal), and the intervals need at least two cycles: give "
            f"a multiple of {size}, at least {2 * size}"
        )
    return info, options, table, matches


# -- playing -----------------------------------------------------------------------------------------------------------
def _play(task: tuple[int, str, tuple[str, ...], int, int]) -> tuple[int, list[MatchOutcome]]:
    """Worker task ``(position, spec, levels by entry, seed, match index)``: play that match. Top level so that a
    worker process can find it by name; returns its position so the parent can put the matches back in order."""
    position, spec, lineup, seed, index = task
    info, options = resolve(spec)
    return position, [play_one(info, options, lineup, seed, index, duplicate=True)]


CycleProgress = Callable[[int, int, float], None]
"""Called as ``progress(cycles_done, cycles_planned, seconds_so_far)`` after each cycle."""


def _play_cycles(
    spec: str,
    table: Plan,
    cycles: int,
    seed: int,
    workers: int,
    time_limit: float | None,
    progress: CycleProgress | None,
) -> list[list[MatchOutcome]]:
    """The outcomes of each cycle played, in order. With ``time_limit`` no cycle is started once the time so far
    and a cycle's mean time so far would pass it (two cycles are always played)."""
    started = time.monotonic()
    done: list[list[MatchOutcome]] = []

    def tasks(cycle: int) -> list[tuple[int, str, tuple[str, ...], int, int]]:
        return [
            (position, spec, table.lineups[number], seed, table.index(cycle, position))
            for position, (number, _) in enumerate(table.matches)
        ]

    def go_on(cycle: int) -> bool:
        if cycle >= cycles:
            return False
        if time_limit is None or cycle < 2:
            return True
        spent = time.monotonic() - started
        return spent + spent / cycle <= time_limit

    if workers == 1:
        info, options = resolve(spec)
        while go_on(len(done)):
            done.append(
                [
                    play_one(info, options, lineup, seed, index, duplicate=True)
                    for _, _, lineup, _, index in tasks(len(done))
                ]
            )
            if progress is not None:
                progress(len(done), cycles, time.monotonic() - started)
        return done
    processes = min(workers, table.per_cycle, os.cpu_count() or 1)
    with Workers(processes, start=None) as pool:  # forked, as a simulation's (clubsuite.sim.running)
        while go_on(len(done)):
            found: dict[int, MatchOutcome] = {}
            for position, outcomes in pool.map(_play, tasks(len(done)), ordered=False):
                found[position] = outcomes[0]
            done.append([found[p] for p in range(table.per_cycle)])
            if progress is not None:
                progress(len(done), cycles, time.monotonic() - started)
    return done


def calibrate(
    spec: str,
    levels: Sequence[str],
    matches: int | None = None,
    seed: int = 0,
    workers: int = 1,
    time_limit: float | None = None,
    progress: CycleProgress | None = None,
    passes: int = PASSES,
    resamples: int = RESAMPLES,
) -> Calibration:
    """Play a calibration of ``levels`` at the tables of ``spec`` and fit their ratings (see the module's account).

    ``matches`` (a whole number of cycles, at least two; :data:`DEFAULT_CYCLES` cycles by default) are played,
    fewer when ``time_limit`` (seconds) runs out first: then only the whole cycles played so far are fitted. The
    matches depend on the arguments alone (each from its own match seed, as in ``clubs simulate``), whatever
    ``workers``; bots with a time budget search as far as the machine's speed lets them. Raises
    :class:`InvalidOptionsError` naming a bad input before anything is played.
    """
    ratings.model()  # OpenSkill missing: refused before anything is played
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise InvalidOptionsError(f"--time-limit {time_limit!r}: a number of seconds above 0")
    info, options, table, total = check(spec, tuple(levels), matches, seed, workers)
    played = _play_cycles(spec, table, total // table.per_cycle, seed, workers, time_limit, progress)
    teams = table.teams
    cycles = [
        [
            Placing(table.seat_levels(c, position), finishing_ranks(outcome, teams), teams)
            for position, outcome in enumerate(outcomes)
        ]
        for c, outcomes in enumerate(played)
    ]
    fitted = fit_levels(cycles, tuple(levels), seed, passes, resamples)
    return Calibration(
        spec=spec,
        canonical_spec=spec_of(info.name, options),
        seats=info.n_seats(options),
        seed=seed,
        levels=tuple(levels),
        matches=len(played) * table.per_cycle,
        cycles=len(played),
        asked=total,
        ratings=fitted,
        passes=passes,
        resamples=resamples,
    )


# -- the figure --------------------------------------------------------------------------------------------------------
def pyplot() -> ModuleType:
    """Matplotlib's pyplot on the file-only backend, or a clear refusal when the extra ``plots`` is missing (a
    command calls it first to refuse before anything is played; :func:`figure_png` then imports pyplot itself, so
    that its drawing calls are checked against Matplotlib's own types)."""
    try:
        import matplotlib
    except ImportError:
        raise InvalidOptionsError(
            "--plot needs Matplotlib to draw the figure: pip install 'clubsuite[plots]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure_png(runs: Sequence[Mapping[str, JsonValue]]) -> bytes:
    """A PNG figure of one or more calibrations (each as its JSON: ``pool``, ``matches``, ``cycles`` and
    ``levels`` with ``shown``, ``low`` and ``high``), one panel each: every level's shown rating with its 95%
    interval, and the newcomer's 1500, where the anchor sits."""
    pyplot()
    import matplotlib.pyplot as plt

    height = sum(0.42 * len(run["levels"]) + 0.9 for run in runs) + 0.5
    figure, panels = plt.subplots(len(runs), 1, figsize=(7.0, height), sharex=True, squeeze=False)
    for axes, run in zip((row[0] for row in panels), runs, strict=True):
        names = list(run["levels"])
        values = [run["levels"][n]["shown"] for n in names]
        below = [v - run["levels"][n]["low"] for n, v in zip(names, values, strict=True)]
        above = [run["levels"][n]["high"] - v for n, v in zip(names, values, strict=True)]
        positions = list(range(len(names)))[::-1]
        axes.axvline(ratings.SHOWN_CENTRE, color="#999999", linestyle="--", linewidth=1)
        axes.errorbar(values, positions, xerr=[below, above], fmt="o", color="#1f5a99", ecolor="#1d2125", capsize=4)
        for y, value, name in zip(positions, values, names, strict=True):
            axes.annotate(f"{value}", (value, y), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
            if name == ANCHOR:
                axes.annotate(
                    "anchor",
                    (value, y),
                    textcoords="offset points",
                    xytext=(0, -13),
                    ha="center",
                    fontsize=7,
                    color="#666666",
                )
        axes.set_yticks(positions, names)
        axes.set_ylim(-0.7, len(names) - 0.3)
        axes.set_title(f"{run['pool']}: {run['matches']} matches, {run['cycles']} cycles", fontsize=10)
        axes.grid(axis="x", alpha=0.3)
    panels[-1][0].set_xlabel("rating as shown (1500 = a newcomer = normal), with its 95% interval")
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=90, metadata={"Software": None})
    plt.close(figure)
    return out.getvalue()
