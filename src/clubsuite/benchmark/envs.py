"""The benchmark's environments: a game's rules spec frozen under an id with a version (``clubs_<game>-v1``), its
deal set, and the hashes that pin both.

A version changes only when what a result means changes: the rules (what is legal and how a hand scores), the deals,
the observation a learning agent is given or the reward. Three hashes say whether the code still plays a version:

* the **deal set**: SHA-256 of a header naming the set (``clubsuite-deal-set 1``, the spec, the seed, the count,
  and ``match`` where a deal starts a whole match) and of every deal's record form (``deal.to_json()``, canonical
  JSON, a line each): deal ``k`` is the first hand of the match seed ``derive_seed(seed, k)``, dealt by seat 0, as
  ``clubs play --seed`` would deal it (a match's later hands come from the same seed);
* the **rules trace**: SHA-256 of the first :data:`TRACE_DEALS` deals played out by ``random`` bots from a seed of
  each deal, every action in notation and every hand's scores: any change to what is legal, to the order legal
  actions come in or to the scoring changes it;
* the **observation** (:mod:`clubsuite.benchmark.observation`, with the ``rl`` extra): the layout, the action
  names and every observation vector along the same trace.

Each game declares its environments in its folder (its registry part ``benchmark``: ``games/<name>/benchmark.py``),
with the three hashes; ``tests/test_benchmark.py`` checks them for every id: a change that moves one must come with
a new version.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.engine import LegalActions, SomeGame, SomeMatch, games, load_part, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed

DEAL_SET_FORMAT = "clubsuite-deal-set 1"
EPISODES = ("hand", "match")
DEALS = 10_000
"""Deals in every set."""
TRACE_DEALS = 32
"""Deals the rules trace plays."""
BOT_SEED = 0x5EED
"""The bots of a deal's tables draw from ``Random(derive_seed(match seed, BOT_SEED))``, as a match played by
:func:`clubsuite.runner.play_match` does."""


@dataclass(frozen=True)
class BenchEnv:
    """One benchmark environment (see the module docstring)."""

    id: str
    spec: str
    """The rules spec, every option that matters named."""
    seed: int
    """The deal set's seed."""
    deals_sha256: str
    rules_sha256: str
    observation_sha256: str
    count: int = DEALS
    """Deals in its set."""
    episode: str = "hand"
    """What one deal of the set starts: ``hand`` (one hand, scored by its points) or ``match`` (the whole match
    of its seed, scored by who wins it: for a game whose points a hand are not what its players play for)."""

    @property
    def game(self) -> str:
        """The game's name."""
        return self.spec.split("(")[0]

    def resolved(self) -> tuple[SomeGame, object]:
        """The game and its options."""
        return resolve(self.spec)


def _registered() -> dict[str, BenchEnv]:
    """Every environment the registered games declare (their part ``benchmark``), in the games' order."""
    found: dict[str, BenchEnv] = {}
    for info in games():
        declared = load_part(info, "benchmark")
        for entry in declared if isinstance(declared, tuple) else ():
            env = BenchEnv(
                str(entry["id"]),
                str(entry["spec"]),
                int(entry["seed"]),
                str(entry["deals_sha256"]),
                str(entry["rules_sha256"]),
                str(entry["observation_sha256"]),
                episode=str(entry.get("episode", "hand")),
            )
            if env.episode not in EPISODES:
                raise ValueError(f"{env.id}: its episode must be one of {', '.join(EPISODES)}")
            if env.id in found or resolve(env.spec)[0].name != info.name:
                raise ValueError(f"{info.name} declares the benchmark environment {env.id} twice or of another game")
            found[env.id] = env
    return found


ENVS: dict[str, BenchEnv] = _registered()
"""Every environment, by id, with its pinned hashes: the deal set's, the rules trace's, the observation's."""


def default_env() -> BenchEnv:
    """The first environment of the first game: what ``clubs evaluate`` plays when none is named."""
    return next(iter(ENVS.values()))


def find_env(name: str) -> BenchEnv:
    """The environment ``name``: an id, or a game's name for that game's first environment; refused naming the ids
    there are."""
    if name in ENVS:
        return ENVS[name]
    for env in ENVS.values():
        if env.game == name:
            return env
    raise InvalidOptionsError(f"--game {name}: not a benchmark environment; the ids are: {', '.join(ENVS)}")


def match_seed(env: BenchEnv, k: int) -> int:
    """The match seed deal ``k`` of the set is the first hand of."""
    return derive_seed(env.seed, k)


def new_table(env: BenchEnv) -> SomeMatch:
    """A match of the environment's rules, seat 0 to deal first."""
    info, options = env.resolved()
    return info.new_match(options, 0)


def deal_records(env: BenchEnv, count: int | None = None) -> Iterator[str]:
    """The record form of the set's first ``count`` deals (all where None), as canonical JSON, in order."""
    info, options = env.resolved()
    for k in range(env.count if count is None else count):
        m = info.new_match(options, 0)
        seed = match_seed(env, k)
        m.deal(deal=info.deal_from_seed(derive_seed(seed, 0), 0))
        deal = m.hands[0].deal
        yield json.dumps(deal.to_json(), sort_keys=True, separators=(",", ":"))


def deals_hash(env: BenchEnv) -> str:
    """The deal set's hash (see the module docstring)."""
    episode = "" if env.episode == "hand" else f" {env.episode}"
    digest = hashlib.sha256(f"{DEAL_SET_FORMAT} {env.spec} {env.seed} {env.count}{episode}\n".encode())
    for line in deal_records(env):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


class Recorded:
    """A bot whose every decision is written down as it is made: ``(seat, action)`` appended to ``steps``."""

    def __init__(self, bot: SomeBot, seat: int, steps: list[tuple[int, object]]) -> None:
        self.bot, self.seat, self.steps, self.name = bot, seat, steps, bot.name

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """The bot's choice, written down."""
        action = self.bot.choose(view, legal, rng)
        self.steps.append((self.seat, action))
        return action


def trace_tables(env: BenchEnv) -> Iterator[tuple[SomeMatch, int, object]]:
    """The rules trace: the first :data:`TRACE_DEALS` deals played by ``random`` bots; each step as (the match
    before the action, the seat to act, the action), then the match after the hand as (match, -1, None)."""
    info, options = env.resolved()
    n = info.n_seats(options)
    for k in range(TRACE_DEALS):
        seed = match_seed(env, k)
        steps: list[tuple[int, object]] = []
        bots: list[SomeBot] = [Recorded(make_bot("random", info.name), s, steps) for s in range(n)]
        play_match(new_table(env), bots, seed, max_hands=1)
        replay = new_table(env)
        replay.deal(deal=info.deal_from_seed(derive_seed(seed, 0), 0))
        for seat, action in steps:
            yield replay, seat, action
            replay.apply(action)
        yield replay, -1, None


def rules_hash(env: BenchEnv) -> str:
    """The rules trace's hash (see the module docstring)."""
    digest = hashlib.sha256(f"clubsuite-rules-trace 1 {env.spec}\n".encode())
    for match, seat, action in trace_tables(env):
        if action is None:
            scores = match.summary()["hands"][0]["scores"]
            digest.update(f"scores {json.dumps(scores)}\n".encode())
        else:
            digest.update(f"{seat} {match.format_action(action)}\n".encode())
    return digest.hexdigest()
