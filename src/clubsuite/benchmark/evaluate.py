"""``clubs evaluate``'s work: an agent against a bot level on a benchmark environment's deals, every deal played
from every side of the table, one paired result per deal.

**Sides and rotations.** A side is a seat, or a team where the rules make teams (``teams_of`` in the registry:
fixed partnerships, or teams chosen by options). Deal ``k`` is played once per side: at table ``r`` the agent
holds every seat of side ``r`` and the level every other seat, seat 0 deals, and one hand (or the match) is
played. Every seat draws its own random numbers, the same at every table of the deal
(``Random(derive_seed(match seed, 0x5EED, seat))``): an agent played against itself gives exactly the same tables
and a result of exactly 0 on every deal, and no bot's draws can move another's.

**The result.** A side's score is its hand score (a team's, where teams score together), or, in an environment
whose deals start whole matches, its share of the match's win (1 shared among the winning sides; a draw, or a
match cut at :data:`MAX_MATCH_HANDS`, shared by all); at table ``r`` the agent's margin is its side's score less
the mean of the other sides' scores; a deal's result is the mean margin over its tables. The mean of the deals'
results, with its 95% interval (mean ± 1.96 standard errors of independent deals: the tables of a deal are not
counted apart), is the agent's advantage; the agent side's own mean score is reported with its interval too.

**CPU.** Every decision of the agent and of the level is timed by ``time.process_time()`` (the CPU of every
thread of the process): mean, 95th percentile and most per decision, and the mean wall time.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, runtime_checkable

from clubsuite import __version__
from clubsuite.benchmark.provenance import provenance
from clubsuite.bots.base import SomeBot
from clubsuite.engine import LegalActions, SomeMatch
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.pools import Workers
from clubsuite.rl.agents import Agent
from clubsuite.rl.benchmarks import BOT_SEED, BenchEnv, deals_hash, find_env, match_seed, new_table
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed
from clubsuite.sim.stats import paired_mean

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The settings that keep NumPy's linear algebra to one thread (``clubs evaluate`` sets them before NumPy loads:
a policy's CPU a decision is then its own, on any machine)."""
MAX_MATCH_HANDS = 500
"""The most hands a match episode is played to (a match rarely passes 30); one cut there counts as a draw."""

UNITS = {
    "hand": "points a hand: the agent's side less the mean of the other sides, averaged over the sides it held",
    "match": "matches won: the agent side's share of the win less the other sides' mean share, averaged over the "
    "sides it held",
}


def sides_of(env: BenchEnv) -> tuple[tuple[int, ...], ...]:
    """The environment's sides: its teams, else every seat alone."""
    info, options = env.resolved()
    teams = info.teams_of(options)
    return tuple(tuple(t) for t in teams) if teams else tuple((s,) for s in range(info.n_seats(options)))


class AgentFault(Exception):  # noqa: N818 - a bot's failure, reported as the agent's
    """A bot that failed to choose, or chose an action that is not legal: its seat and what went wrong."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(reason)
        self.seat, self.reason = seat, reason


class Timed:
    """A bot whose every decision's CPU (``process_time``) and wall time are kept, drawing from its seat's own
    generator (``Random(derive_seed(match seed, 0x5EED, seat))``); it decides as the bot does, and a failure or an
    illegal choice is an :class:`AgentFault` naming the seat."""

    def __init__(self, bot: SomeBot, seed: int, seat: int) -> None:
        self.bot, self.name, self.seat = bot, bot.name, seat
        self.rng = random.Random(derive_seed(seed, BOT_SEED, seat))
        self.cpu: list[float] = []
        self.wall = 0.0

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """The bot's choice, timed (``rng``, the table's shared generator, is not used)."""
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            action = self.bot.choose(view, legal, self.rng)
        except Exception as exc:  # an agent's own code: its failure is its result, not the evaluation's
            raise AgentFault(self.seat, f"its choose raised {type(exc).__name__}: {exc}") from None
        self.cpu.append(time.process_time() - cpu)
        self.wall += time.perf_counter() - wall
        if action not in list(legal):
            raise AgentFault(self.seat, f"it chose {action!r}, which is not legal there")
        return action


def _made(agent: Agent, env: BenchEnv, k: int, seat: int) -> SomeBot:
    """A fresh bot of ``agent``; a factory that fails is refused naming the agent and the deal."""
    try:
        return agent.make(env)
    except ClubsError:
        raise
    except Exception as exc:  # an entry point's own code
        raise InvalidOptionsError(f"{agent.text}: deal {k}, seat {seat}: its factory raised {exc!r}") from None


@dataclass
class DealResult:
    """One deal: each table's side scores (by rotation, then by side), the agent's result, and the decisions'
    CPU seconds of the agent and of the level, with their wall time."""

    deal: int
    scores: list[list[float]]
    result: float
    agent_score: float
    agent_cpu: list[float] = field(default_factory=list)
    level_cpu: list[float] = field(default_factory=list)
    agent_wall: float = 0.0
    level_wall: float = 0.0
    actions_sha256: str = ""
    """The SHA-256 of every action of every table of the deal (:func:`actions_hash`): two runs that played a deal
    alike, on any machine, give the same."""


@runtime_checkable
class TeamScored(Protocol):
    """A match of a game of fixed partnerships, whose score is kept by team."""

    @property
    def team_totals(self) -> Sequence[int]:
        """Each team's running total."""
        ...


def side_scores(match: SomeMatch, sides: Sequence[Sequence[int]], episode: str) -> list[Fraction]:
    """Each side's score: in a one-hand episode, its points in the hand (a seat's, or its team's: the hand's team
    scores); in a match, its share of the win (1 shared by the winning sides, a draw shared by every side)."""
    if episode == "match":
        won = [k for k, side in enumerate(sides) if set(side) & set(match.winners)]
        if match.draw or not won:
            return [Fraction(1, len(sides))] * len(sides)
        return [Fraction(1, len(won)) if k in won else Fraction(0) for k in range(len(sides))]
    if len(sides[0]) > 1:
        if not isinstance(match, TeamScored):
            raise TypeError(f"a match of {match.game} has teams but no team_totals")
        return [Fraction(int(v)) for v in match.team_totals]
    scores = match.summary()["hands"][0]["scores"]
    return [Fraction(int(scores[side[0]])) for side in sides]


def actions_hash(tables: Sequence[SomeMatch]) -> str:
    """The SHA-256 of a deal's tables, in order: every hand's actions as the engine writes them, a line a hand, and
    the sides' scores after the table. A deal played again with the same agents gives the same."""
    digest = hashlib.sha256(b"clubsuite-deal-actions 1\n")
    for r, match in enumerate(tables):
        digest.update(f"table {r}\n".encode())
        for i, hand in enumerate(match.hands):
            actions = " ".join(match.format_action(a) for a in hand.action_log())
            digest.update(f"hand {i}: {actions}\n".encode())
        digest.update(f"totals {list(match.totals)} winners {sorted(match.winners)}\n".encode())
    return digest.hexdigest()


def play_deal(env_or_id: BenchEnv | str, agent: Agent, against: Agent, k: int) -> DealResult:
    """Deal ``k`` of the environment (or of the held-out set it is dealt from) played from every side (see the module
    docstring)."""
    env = find_env(env_or_id) if isinstance(env_or_id, str) else env_or_id
    sides = sides_of(env)
    seed = match_seed(env, k)
    n = sum(len(s) for s in sides)
    out = DealResult(k, [], 0.0, 0.0)
    margins: list[Fraction] = []
    own: list[Fraction] = []
    tables: list[SomeMatch] = []
    for r, side in enumerate(sides):
        bots = [
            Timed(_made(agent, env, k, seat) if seat in side else _made(against, env, k, seat), seed, seat)
            for seat in range(n)
        ]
        hands = 1 if env.episode == "hand" else MAX_MATCH_HANDS
        try:
            match = play_match(new_table(env), bots, seed, max_hands=hands)
        except AgentFault as fault:
            who = agent if fault.seat in side else against
            raise InvalidOptionsError(f"{who.text}: deal {k}, seat {fault.seat}: {fault.reason}") from None
        tables.append(match)
        scores = side_scores(match, sides, env.episode)
        out.scores.append([float(v) for v in scores])
        others = [v for i, v in enumerate(scores) if i != r]
        margins.append(scores[r] - sum(others, Fraction(0)) / len(others))  # exact: a mirror gives 0
        own.append(scores[r])
        for seat, bot in enumerate(bots):
            if seat in side:
                out.agent_cpu += bot.cpu
                out.agent_wall += bot.wall
            else:
                out.level_cpu += bot.cpu
                out.level_wall += bot.wall
    out.result = float(sum(margins, Fraction(0)) / len(margins))
    out.agent_score = float(sum(own, Fraction(0)) / len(own))
    out.actions_sha256 = actions_hash(tables)
    return out


def _play_deals(env: BenchEnv, agent: Agent, against: Agent, ks: Sequence[int]) -> list[DealResult]:
    return [play_deal(env, agent, against, k) for k in ks]


def results(
    env: BenchEnv,
    agent: Agent,
    against: Agent,
    deals: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    chunk: int = 4,
    skip: Collection[int] = (),
) -> Iterator[DealResult]:
    """Deals ``0 .. deals-1`` but those in ``skip`` (already played) played, in deal order whatever the number of
    ``workers`` (processes); ``progress(n)`` after each ``n`` deals are done."""
    ks = [k for k in range(deals) if k not in skip]
    if not ks:  # every deal already played (a resumed evaluation that had finished)
        return
    if workers <= 1:
        for k in ks:
            yield play_deal(env, agent, against, k)
            if progress is not None:
                progress(1)
        return
    chunks = [ks[i : i + chunk] for i in range(0, len(ks), chunk)]
    # Leaving the block (a failure, a stop, a caller that reads no further) ends the workers: no chunk runs on.
    with Workers(min(workers, len(chunks))) as pool:
        for done in pool.map(functools.partial(_play_deals, env, agent, against), chunks):
            if progress is not None:
                progress(len(done))
            yield from done


def cpu_json(cpu: Sequence[float], wall: float) -> JsonObject:
    """Decisions' CPU as the evaluation reports it (milliseconds)."""
    if not cpu:
        return {"decisions": 0, "cpu_ms_mean": None, "cpu_ms_p95": None, "cpu_ms_max": None, "wall_ms_mean": None}
    ordered = sorted(cpu)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "decisions": len(cpu),
        "cpu_ms_mean": round(1000 * statistics.fmean(cpu), 4),
        "cpu_ms_p95": round(1000 * p95, 4),
        "cpu_ms_max": round(1000 * ordered[-1], 4),
        "wall_ms_mean": round(1000 * wall / len(cpu), 4),
    }


def summary(
    env: BenchEnv, agent: Agent, against: Agent, played: Sequence[DealResult], per_deal: bool = False
) -> JsonObject:
    """The evaluation as JSON (``docs/benchmark.md`` describes every field)."""
    results_ = [d.result for d in played]
    own = [d.agent_score for d in played]

    def interval(values: Sequence[float]) -> JsonObject:
        if len(values) < 2:
            return {"mean": values[0] if values else None, "ci95": None}
        mean, (low, high) = paired_mean(values)
        return {"mean": round(mean, 4), "ci95": [round(low, 4), round(high, 4)]}

    out: JsonObject = {
        "format": "clubsuite-evaluation",
        "version": 1,
        "env": {
            "id": env.id,
            "spec": env.spec,
            "deals_sha256": env.deals_sha256,
            "rules_sha256": env.rules_sha256,
            "observation_sha256": env.observation_sha256,
            "opponents": dict(env.opponents),
            **({"held_out": {"name": env.held_out, "deals_sha256": held_hash(env)}} if env.held_out else {}),
        },
        "deals": deals_json(env, len(played)),
        "agent": agent.to_json(),
        "against": against.to_json(),
        "sides": [list(s) for s in sides_of(env)],
        "episode": env.episode,
        "result": {
            "unit": UNITS[env.episode],
            **interval(results_),
            "interval": "95%, mean ± 1.96 standard errors over deals",
        },
        "agent_score": interval(own),
        "cpu": {
            "clock": "process_time",
            "agent": cpu_json([c for d in played for c in d.agent_cpu], sum(d.agent_wall for d in played)),
            "against": cpu_json([c for d in played for c in d.level_cpu], sum(d.level_wall for d in played)),
        },
        "clubsuite": __version__,
        "provenance": provenance(),
    }
    if per_deal:
        out["per_deal"] = [deal_json(d) for d in played]
    return out


@functools.cache
def held_hash(env: BenchEnv) -> str:
    """The hash of a held-out set's deals, worked out once a process (it reads every deal of the set)."""
    return deals_hash(env)


def deals_json(env: BenchEnv, played: int) -> JsonObject:
    """The deals an evaluation played: the set's seed and size, or for a held-out set its name in place of its seed
    (which no result ever names)."""
    if env.held_out:
        return {"held_out": env.held_out, "set": env.count, "played": played}
    return {"seed": env.seed, "set": env.count, "played": played}


def deal_json(d: DealResult) -> JsonObject:
    """One deal as the evaluation's file keeps it: enough to take it up again (``clubs evaluate --resume``)."""
    return {
        "deal": d.deal,
        "result": d.result,
        "scores": d.scores,
        "agent_score": d.agent_score,
        "agent_cpu_us": [round(1e6 * c) for c in d.agent_cpu],
        "level_cpu_us": [round(1e6 * c) for c in d.level_cpu],
        "agent_wall": round(d.agent_wall, 6),
        "level_wall": round(d.level_wall, 6),
        "actions_sha256": d.actions_sha256,
    }


SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_KEPT_NUMBER = 1e12
"""The largest number (a score, a time) a kept deal may hold: far past any game's score or any decision's time."""


def _number(value: object) -> float:
    """A kept number, checked: a finite number no larger than :data:`MAX_KEPT_NUMBER`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("not a number")
    if isinstance(value, int) and abs(value) > MAX_KEPT_NUMBER:  # before float(), which a huge int overflows
        raise ValueError("a number out of range")
    number = float(value)
    if not abs(number) <= MAX_KEPT_NUMBER:  # NaN and infinity fail this too
        raise ValueError("a number out of range")
    return number


def deal_from_json(data: object, sides: int) -> DealResult:
    """A deal kept by :func:`deal_json`, checked (a ``ValueError`` says what is wrong)."""
    if not isinstance(data, dict):
        raise ValueError("a deal is not an object")
    deal = data.get("deal")
    if not isinstance(deal, int) or isinstance(deal, bool) or deal < 0:
        raise ValueError("a deal's number is not a whole number")
    scores = data.get("scores")
    if not isinstance(scores, list) or len(scores) != sides:
        raise ValueError(f"deal {deal}: its scores are not one list a side")
    rows = []
    for row in scores:
        if not isinstance(row, list) or len(row) != sides:
            raise ValueError(f"deal {deal}: a table's scores are not one a side")
        try:
            rows.append([_number(v) for v in row])
        except ValueError as exc:
            raise ValueError(f"deal {deal}: its scores hold {exc}") from None
    times = {}
    for key in ("agent_cpu", "level_cpu"):
        values = data.get(f"{key}_us")
        if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_KEPT_NUMBER for v in values
        ):
            raise ValueError(f"deal {deal}: its {key}_us is not a list of whole microseconds")
        times[key] = [v / 1e6 for v in values]
    actions = data.get("actions_sha256")
    if not isinstance(actions, str) or not SHA256.fullmatch(actions):
        raise ValueError(f"deal {deal}: its actions_sha256 is not a SHA-256 in hexadecimal")
    try:
        out = DealResult(
            deal,
            rows,
            _number(data.get("result")),
            _number(data.get("agent_score")),
            times["agent_cpu"],
            times["level_cpu"],
            _number(data.get("agent_wall")),
            _number(data.get("level_wall")),
            actions,
        )
    except ValueError as exc:
        raise ValueError(f"deal {deal}: {exc}") from None
    margins = [row[r] - (sum(row) - row[r]) / (sides - 1) for r, row in enumerate(rows)]
    if not (
        abs(sum(margins) / sides - out.result) <= 1e-6
        and abs(sum(r[k] for k, r in enumerate(rows)) / sides - out.agent_score) <= 1e-6
    ):
        raise ValueError(f"deal {deal}: its result is not what its scores make")
    return out
