"""The benchmark's environments: a game's rules spec frozen under an id with a version (``clubs_<game>-v1``), its
deal set, and the hashes that pin both.

A version changes only when what a result means changes: the rules (what is legal and how a hand scores), the deals,
the observation a learning agent is given or the reward. Three hashes say whether the code still plays a version:

* the **deal set**: SHA-256 of a header naming the set (``clubsuite-deal-set 1``, the spec, the seed, the count,
  and ``match`` where a deal starts a whole match) and of every deal's record form (``deal.to_json()``, canonical
  JSON, a line each): deal ``k`` is the first hand of the match seed ``derive_seed(seed, k)``, dealt by seat 0, as
  ``clubs play --seed`` would deal it (a match's later hands come from the same seed);
* the **rules trace**: SHA-256 of the resolved options and of the first :data:`TRACE_DEALS` deals played out by a
  chooser frozen in this module (a hand each, or the whole match where a deal starts one), every legal list in the
  engine's order, every action, every hand's scores and every match's winners: a change to what is legal in any
  state the trace reaches, to the order legal actions come in, to the scoring or to the end of a match changes it;
* the **observation** (:mod:`clubsuite.rl.observation`, with the ``rl`` extra): the layout, the action
  names and every observation vector along the same trace.

Beside them, each environment pins its **reference opponents**: the bot levels a result is measured against, each
by a hash of its choices on positions of the same trace (:mod:`clubsuite.rl.opponents`).

Each game declares its environments in its folder (its registry part ``benchmark``: ``games/<name>/benchmark.py``),
with the three hashes; ``tests/test_benchmark.py`` checks them for every id: a change that moves one must come with
a new version.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from clubsuite.coding import HasBenchmark
from clubsuite.engine import SomeGame, SomeMatch, games, resolve
from clubsuite.errors import InvalidOptionsError
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
    opponents: tuple[tuple[str, str], ...] = ()
    """The reference opponents: each pinned level's name and the SHA-256 of its choices on the environment's frozen
    positions (:mod:`clubsuite.rl.opponents`)."""
    held_out: str = ""
    """The name of the held-out set this environment is dealt from (:mod:`clubsuite.benchmark.heldout`: ``seed``
    and ``count`` are then the set's, the seed secret), or "" for its public deals."""

    def pinned(self, level: str) -> str | None:
        """The pinned hash of the level ``level``, or None where the environment pins no level of that name."""
        return dict(self.opponents).get(level)

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
        for entry in info.parts.benchmark() if isinstance(info.parts, HasBenchmark) else ():
            env = BenchEnv(
                entry["id"],
                entry["spec"],
                entry["seed"],
                entry["deals_sha256"],
                entry["rules_sha256"],
                entry["observation_sha256"],
                episode=entry.get("episode", "hand"),
                opponents=tuple(entry.get("opponents", {}).items()),
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


def find_env(name: str, what: str = "--game") -> BenchEnv:
    """The environment ``name``: an id, or a game's name for that game's first environment; refused naming the ids
    there are (and ``what``, the argument that gave it)."""
    if name in ENVS:
        return ENVS[name]
    for env in ENVS.values():
        if env.game == name:
            return env
    raise InvalidOptionsError(f"{what} {name}: not a benchmark environment; the ids are: {', '.join(ENVS)}")


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


TRACE_HANDS = 60
"""The most hands a traced match is played to (a match of random play may run long)."""


def trace_tables(env: BenchEnv) -> Iterator[tuple[SomeMatch, int, object]]:
    """The rules trace: the first :data:`TRACE_DEALS` deals played out by a chooser frozen here (each decision the
    legal action at ``Random(derive_seed(match seed, 0x7EACE)).randrange`` of the legal list: nothing of the
    registry's bots enters it), one hand each, or the whole match (to :data:`TRACE_HANDS` hands) where a deal
    starts a match. Each step as (the match before the action, the seat to act, the action), and after every hand
    (the match, -1, None)."""
    info, _ = env.resolved()
    for k in range(TRACE_DEALS):
        seed = match_seed(env, k)
        rng = random.Random(derive_seed(seed, 0x7EACE))
        match = new_table(env)
        for hand in range(1 if env.episode == "hand" else TRACE_HANDS):
            if match.is_over:
                break
            match.deal(deal=info.deal_from_seed(derive_seed(seed, hand), match.next_dealer))
            while match.to_act is not None:
                legal = list(match.legal_actions())
                action = legal[rng.randrange(len(legal))]
                yield match, match.to_act, action
                match.apply(action)
            yield match, -1, None


def rules_hash(env: BenchEnv) -> str:
    """The rules trace's hash (see the module docstring): the resolved options, and at every step the seat to act,
    every legal action in the order the engine lists them and the action taken; after every hand its scores, and
    after a traced match who won it."""
    options: Any = env.resolved()[1]
    head = json.dumps(
        {"spec": env.spec, "episode": env.episode, "options": dataclasses.asdict(options)}, sort_keys=True
    )
    digest = hashlib.sha256(f"clubsuite-rules-trace 2 {head}\n".encode())
    for match, seat, action in trace_tables(env):
        if action is None:
            scores = match.summary()["hands"][-1]["scores"]
            digest.update(f"scores {json.dumps(scores)} over {match.is_over}\n".encode())
            if match.is_over:
                digest.update(f"won {json.dumps(list(match.winners))} draw {match.draw}\n".encode())
        else:
            legal = " ".join(match.format_action(a) for a in match.legal_actions())
            digest.update(f"{seat} [{legal}] {match.format_action(action)}\n".encode())
    return digest.hexdigest()
