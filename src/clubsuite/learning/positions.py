"""Positions for imitation learning: games of a benchmark environment played by a search bot (the *teacher*,
``expert`` by default) at every seat, each of its decisions kept with what it thought of every candidate.

**What is kept.** At every decision with more than one legal action the teacher searches as it would to play
(:meth:`clubsuite.bots.pimc.PimcBot.compare`: the same worlds, the same candidates), and the decision is written as
one or more *steps*, one per action id of the action it chose (:mod:`clubsuite.coding`: a card played is one id,
a pass of three cards three ids): the observation the learner would see at that step (the seat's view and the ids
picked so far), the mask of the ids allowed there, and the target, a distribution over those ids. A step where one
id alone is allowed teaches nothing and is left out.

**The target** is soft: half on the teacher's own choice, half spread over the candidates by the search's values,
``softmax(value / TEMPERATURE)`` (values are the game's objective, a share of a win, so the temperature of 0.02
spreads the weight over candidates within a few hundredths of a win of the best); candidates the search did not
value (past its width, or dropped by its pruning) get none. At a step inside a decision the target is that
distribution restricted to the actions the ids picked so far still allow, summed by their next id. Soft targets
carry what the search knew beyond its one choice: which alternatives were nearly as good (the imitation of Skat's
and of Ben's search bots did the same with the search's values).

**The values** are kept too, for offline learning that wants them rather than the target: at each step, for each
allowed id, the best value the search gave an action continuing through that id (in shares of a win: the game's
objective), NaN where it valued none of them (and for every id of a teacher that does not search).

**Which games.** Game ``g`` of an environment is the match seed ``derive_seed(env seed, TRAIN_SALT, g)``, never a
deal of the benchmark's set (``derive_seed(env seed, k)``), dealt and played as the environment plays a deal (one
hand, or the whole match). So that positions off the teacher's own path are seen too, each table plays a random
legal action instead of the teacher's choice at ``explore`` percent of the decisions (the teacher's label is kept
either way). Every random number comes from the game's seed: a shard is the same on every machine (but where a
decision reaches the teacher's wall-time cap, set far above its slowest decisions).

**Who plays the table** (``player``): the teacher by default. Another player (a bot of the registry, or a policy's
weights file) may play the table while the teacher still labels every decision: the positions a learner itself
reaches, labelled by the teacher, so that the next network learns to recover from the learner's own mistakes
(DAgger, Ross, Gordon and Bagnell). Such positions are kept in a folder of their own
(``<teacher>-played-by-<player>``, a weights file named ``policy-`` and the start of its SHA-256).

**A teacher that does not value its candidates** (the heuristic bot, say: a cheap first lesson for a network that is
then taught by the search; any bot but ``pimc`` and the levels built on it) labels its choice alone, all of the
target on it.

**Shards.** Games are written in shards of ``per_shard`` games, ``<data>/<env id>/<teacher>/games-<first>-<last>.npz``
(:func:`teacher_folder`), each
written whole or not at all, so a run stopped at any time goes on where it stopped when started again with the same
arguments.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import random
import re
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.bots.searching import Compared
from clubsuite.coding import Layout, RlCoding, coding_for, env_layout, observation_of
from clubsuite.engine import LegalActions, View
from clubsuite.errors import InvalidOptionsError
from clubsuite.npzread import Array, Bounds, Numbers, file_arrays, numbers, shape_text
from clubsuite.pools import Workers
from clubsuite.rl.agents import agent
from clubsuite.rl.benchmarks import BenchEnv, find_env, new_table
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed

TRAIN_SALT = 0x7EA1
"""Mixed into an environment's seed for the games positions come from (apart from the benchmark's deals)."""
TEMPERATURE = 0.02
"""The softmax temperature of the search's values, in shares of a win."""
SOFT = 0.5
"""The part of the target spread by the search's values (the rest is on the teacher's choice)."""
PLAYER_SALT = 0x91A7
"""Mixed into a game's seed for the random numbers of a player other than the teacher."""
MATCH_HANDS = 40
"""The most hands a game of a match environment is played to."""


Halves = npt.NDArray[np.float16]
"""Numbers kept small (observations, and targets as a shard holds them)."""
Mask = npt.NDArray[np.uint8]
"""The ids a step allows (1) and those it does not (0)."""
Rows = npt.NDArray[np.bool_] | npt.NDArray[np.intp] | slice
"""Which steps of a dataset are taken: a mask, indices or a slice."""


@dataclass
class Steps:
    """Labelled steps: observations, masks of the allowed ids, targets, and the game each came from."""

    obs: list[Halves] = field(default_factory=list)
    mask: list[Mask] = field(default_factory=list)
    target: list[Halves] = field(default_factory=list)
    game: list[int] = field(default_factory=list)
    value: list[npt.NDArray[np.float32]] = field(default_factory=list)


class _Caution(Protocol):
    @property
    def caution(self) -> int:
        """How sure the search must be (in hundredths) before it leaves its rollout bot's choice."""
        ...


@runtime_checkable
class Comparing(Protocol):
    """A teacher that values its candidates (:meth:`clubsuite.bots.pimc.PimcBot.compare`)."""

    @property
    def settings(self) -> _Caution:
        """Its settings (their caution decides between the candidates)."""
        ...

    def compare(self, view: object, legal: LegalActions[object], rng: random.Random, *include: object) -> Compared:
        """Every candidate valued world by world."""
        ...


def action_targets(values: Sequence[tuple[object, float]], choice: object) -> dict[object, float]:
    """The target of each candidate (see the module docstring) from the search's (action, value) pairs and the
    teacher's choice."""
    top = max(v for _, v in values)
    weights = [math.exp((v - top) / TEMPERATURE) for _, v in values]
    total = sum(weights)
    out = {a: SOFT * w / total for (a, _), w in zip(values, weights, strict=True)}
    out[choice] = out.get(choice, 0.0) + (1 - SOFT)
    return out


def decision_steps(
    coding: RlCoding,
    layout: Layout,
    view: View,
    legal: Sequence[object],
    targets: dict[object, float],
    chosen: object,
    values: dict[object, float] | None = None,
) -> list[tuple[Halves, Mask, Halves, npt.NDArray[np.float32]]]:
    """The steps of one decision as (observation, mask, target, value) along the ids of ``chosen``: at each, the
    target is ``targets`` restricted to the actions the ids picked so far allow, summed by their next id, and the
    value of each allowed id the best of ``values`` (the search's) among those actions through it (NaN where none
    has one)."""
    known = values or {}
    sequences = [(coding.tokens(a), targets.get(a, 0.0), known.get(a)) for a in legal]
    path = coding.tokens(chosen)
    out = []
    for depth in range(len(path)):
        prefix = path[:depth]
        open_ = [(seq, t, v) for seq, t, v in sequences if seq[:depth] == prefix]
        allowed = sorted({seq[depth] for seq, _, _ in open_})
        if len(allowed) < 2:
            continue
        mask = np.zeros(coding.action_count, np.uint8)
        mask[allowed] = 1
        target = np.zeros(coding.action_count, np.float32)
        value = np.full(coding.action_count, np.nan, np.float32)
        for seq, t, v in open_:
            target[seq[depth]] += t
            if v is not None and not v <= value[seq[depth]]:  # the best so far (NaN: none yet)
                value[seq[depth]] = v
        total = target.sum()
        if not total > 0:
            raise ValueError(f"no target on the path of {chosen!r}: the teacher chose an action that is not legal")
        target /= total
        obs = observation_of(coding, layout, view, prefix).astype(np.float16)
        out.append((obs, mask, target.astype(np.float16), value))
    return out


class Teacher:
    """A seat's player while positions are made: the teacher's search labels every decision (written to
    ``steps``), and the table plays its choice, or a random legal action at ``explore`` percent of decisions."""

    def __init__(
        self,
        spec: str,
        env: BenchEnv,
        coding: RlCoding,
        layout: Layout,
        steps: Steps,
        seed: int,
        seat: int,
        game: int,
        player: SomeBot | None = None,
    ) -> None:
        self.bot = make_bot(spec, env.game)
        self.player = player
        """The bot that plays the table (None: the teacher)."""
        self.player_rng = random.Random(derive_seed(seed, PLAYER_SALT, seat))
        self.searcher = self.bot if isinstance(self.bot, Comparing) else None
        self.name, self.coding, self.layout, self.steps, self.game = self.bot.name, coding, layout, steps, game
        self.rng = random.Random(derive_seed(seed, 0x5EED, seat))
        self.explorer = random.Random(derive_seed(seed, TRAIN_SALT, seat))
        self.explore = 0

    def choose(self, view: View, legal: LegalActions[object], rng: random.Random) -> object:
        """Label the decision, then play the teacher's choice or explore."""
        actions = list(legal)
        if len(actions) == 1:
            return actions[0]
        values: dict[object, float] | None = None
        if self.searcher is not None:
            compared = self.searcher.compare(view, legal, self.rng)
            chosen = compared.decision(self.searcher.settings.caution / 100)
            means = compared.means()
            targets = action_targets(means, chosen)
            values = dict(means)
        else:  # a teacher that does not search: its choice alone
            chosen = self.bot.choose(view, legal, self.rng)
            targets = {chosen: 1.0}
        for obs, mask, target, value in decision_steps(
            self.coding, self.layout, view, actions, targets, chosen, values
        ):
            self.steps.obs.append(obs)
            self.steps.mask.append(mask)
            self.steps.target.append(target)
            self.steps.game.append(self.game)
            self.steps.value.append(value)
        if self.explorer.randrange(100) < self.explore:
            return actions[self.explorer.randrange(len(actions))]
        if self.player is not None:
            return self.player.choose(view, legal, self.player_rng)
        return chosen


def play_games(env_id: str, teacher: str, first: int, last: int, explore: int, player: str | None = None) -> Steps:
    """Games ``first .. last - 1`` of the environment played (by ``player``, else the teacher) and labelled (see the
    module docstring)."""
    env = find_env(env_id)
    table = agent(player, env, "--player") if player is not None else None
    info, options = env.resolved()
    coding = coding_for(info, options)
    layout = env_layout(coding)
    steps = Steps()
    for g in range(first, last):
        seed = derive_seed(env.seed, TRAIN_SALT, g)
        seats = info.n_seats(options)
        bots = [
            Teacher(teacher, env, coding, layout, steps, seed, s, g, table.make(env) if table else None)
            for s in range(seats)
        ]
        for bot in bots:
            bot.explore = explore
        play_match(new_table(env), bots, seed, max_hands=1 if env.episode == "hand" else MATCH_HANDS)
    return steps


def _slug(text: str) -> str:
    return "-".join(re.findall(r"[A-Za-z0-9]+", text))


def player_name(player: str, env: BenchEnv) -> str:
    """How the positions name their ``player``: a weights file as ``policy-`` and the start of its SHA-256 (a
    policy is its numbers, wherever the file lies: two copies are one player, two policies of one name are two); a
    bot by its spec, with the start of the SHA-256 of the shipped policy it plays where it plays one (``learned``),
    so that positions of a policy since replaced are never taken for its own."""
    return _player_name(player, env.id)


@cache
def _player_name(player: str, env_id: str) -> str:
    made = agent(player, find_env(env_id), "--player")
    if made.kind == "weights" and made.sha256:
        return f"policy-{made.sha256[:12]}"
    return f"{player}-{made.sha256[:12]}" if made.sha256 else player


def teacher_folder(data: Path, env: BenchEnv, teacher: str, player: str | None = None) -> Path:
    """Where the positions of ``env`` labelled by ``teacher`` are kept: ``<data>/<env id>/<teacher>``, the
    teacher's spec written with letters, digits and dashes only (``pimc(samples=2)``: ``pimc-samples-2``), and
    ``<teacher>-played-by-<player>`` where another player played the table."""
    slug = _slug(teacher)
    if player is not None:
        slug += "-played-by-" + _slug(player_name(player, env))
    return data / env.id / slug


def shard_path(data: Path, env: BenchEnv, teacher: str, first: int, last: int, player: str | None = None) -> Path:
    """Where the shard of games ``first .. last - 1`` is kept."""
    return teacher_folder(data, env, teacher, player) / f"games-{first:07d}-{last - 1:07d}.npz"


def write_shard(path: Path, steps: Steps, env: BenchEnv, teacher: str, explore: int, player: str | None = None) -> None:
    """Write one shard whole (to a temporary name, then renamed: never half a shard under its name)."""
    coding = coding_for(*env.resolved())
    size = env_layout(coding).size
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")  # its own name: two runs
    os.fchmod(handle, 0o644)  # as an ordinary file would be (mkstemp's is private)
    try:  # on one folder never write into each other's file
        with os.fdopen(handle, "wb") as f:
            np.savez_compressed(
                f,
                obs=np.array(steps.obs, np.float16).reshape(-1, size),
                mask=np.array(steps.mask, np.uint8).reshape(-1, coding.action_count),
                target=np.array(steps.target, np.float16).reshape(-1, coding.action_count),
                game=np.array(steps.game, np.int32),
                value=np.array(steps.value, np.float32).reshape(-1, coding.action_count),
                about=np.frombuffer(about_text(env, teacher, explore, player).encode(), np.uint8),
            )
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def about_text(env: BenchEnv, teacher: str, explore: int, player: str | None = None) -> str:
    """What a shard says it holds (every shard of a folder must say the same)."""
    played = f" player={player_name(player, env)}" if player is not None else ""
    return f"{env.id} teacher={teacher} explore={explore}{played}"


def _make_shard(
    data: str, env_id: str, teacher: str, first: int, last: int, explore: int, player: str | None = None
) -> int:
    env = find_env(env_id)
    steps = play_games(env_id, teacher, first, last, explore, player)
    write_shard(shard_path(Path(data), env, teacher, first, last, player), steps, env, teacher, explore, player)
    return last - first


def _make_shard_of(
    data: str, env_id: str, teacher: str, explore: int, player: str | None, games: tuple[int, int]
) -> int:
    """:func:`_make_shard` of the games ``games`` (first, end), as a pool's task."""
    return _make_shard(data, env_id, teacher, games[0], games[1], explore, player)


def generate(
    env: BenchEnv,
    data: Path,
    games: int,
    per_shard: int = 10,
    workers: int = 1,
    teacher: str = "expert",
    explore: int = 10,
    progress: Callable[[int], None] | None = None,
    player: str | None = None,
) -> list[Path]:
    """Games ``0 .. games - 1`` of ``env`` made into shards under ``data`` (those already there are kept); the
    shards, in game order. ``progress(n)`` as each shard of ``n`` games is written."""
    make_bot(teacher, env.game)  # a bad teacher or player is refused before any work
    if player is not None:
        player_name(player, env)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")  # before the workers start (and load NumPy)
    folder = teacher_folder(data, env, teacher, player)
    kept = shard_ranges(folder)
    if kept:
        said = _about(kept[0][2])
        if said != about_text(env, teacher, explore, player):
            raise InvalidOptionsError(
                f"{folder}: its positions were made as '{said}', not as "
                f"'{about_text(env, teacher, explore, player)}': use another --data"
            )
    bounds = [(a, min(games, a + per_shard)) for a in range(0, games, per_shard)]
    shorter = []  # a last file of fewer games than a file holds: made again, whole, with the games now asked
    for a, b in bounds:
        for first, last, path in kept:
            if first == a and last < b - 1 and last - first + 1 < per_shard:
                shorter.append(path)
            elif first < b and a <= last and (first, last + 1) != (a, b):
                raise InvalidOptionsError(
                    f"{path.name} holds games {first} to {last}, across the files of {per_shard} games asked: "
                    f"use the --per-shard it was made with"
                )
    for path in shorter:
        path.unlink()
    todo = [(a, b) for a, b in bounds if not shard_path(data, env, teacher, a, b, player).exists()]
    if workers <= 1 or len(todo) <= 1:
        for a, b in todo:
            done = _make_shard(str(data), env.id, teacher, a, b, explore, player)
            if progress is not None:
                progress(done)
    elif todo:
        make = functools.partial(_make_shard_of, str(data), env.id, teacher, explore, player)
        with Workers(min(workers, len(todo))) as pool:  # a stop: no shard is made on
            for done in pool.map(make, todo, ordered=False):
                if progress is not None:
                    progress(done)
    return [shard_path(data, env, teacher, a, b, player) for a, b in bounds]


@dataclass
class Dataset:
    """Labelled steps read back from shards: observations (float16, kept small), masks (bool), targets (float32,
    each row summing to 1 over its mask) and each step's game."""

    obs: Halves
    mask: npt.NDArray[np.bool_]
    target: npt.NDArray[np.float32]
    game: Numbers
    """Each step's game number (integers as written)."""

    def __len__(self) -> int:
        return int(self.obs.shape[0])

    def split(self, every: int = 10) -> tuple[Dataset, Dataset]:
        """(training, validation): the steps of every ``every``-th game held out, so that no position of a held
        out game is ever trained on."""
        held = self.game % every == 0
        return self.take(~held), self.take(held)

    def take(self, rows: Rows) -> Dataset:
        """The steps at ``rows`` (a mask or indices)."""
        return Dataset(self.obs[rows], self.mask[rows], self.target[rows], self.game[rows])

    @staticmethod
    def joined(parts: Sequence[Dataset]) -> Dataset:
        """The steps of several datasets (folders of positions) together; each keeps its game numbers, so every
        tenth game of each is held out."""
        return Dataset(*(np.concatenate([getattr(d, k) for d in parts]) for k in ("obs", "mask", "target", "game")))


SHARD_NAME = re.compile(r"^games-(\d{7})-(\d{7})\.npz$")


def shard_ranges(folder: Path) -> list[tuple[int, int, Path]]:
    """The shards of a folder as (first game, last game, path), in game order; a file of another name is not one."""
    found = []
    for path in folder.glob("games-*.npz"):
        m = SHARD_NAME.match(path.name)
        if m:
            found.append((int(m.group(1)), int(m.group(2)), path))
    return sorted(found)


MAX_STEPS_PER_GAME = 5_000
"""The most decisions one game of a shard may hold (a match of a benchmark's environment takes a few hundred): a
shard's arrays are checked against the games its name covers before their numbers are read."""
MAX_SHARD_GAMES = 10_000
"""The most games one shard holds (the most ``--per-shard`` makes): a file whose name covers more is not one."""
MAX_SHARD_FILE = 1024**3
"""The largest shard read (one of 10,000 matches takes some 60 MB)."""
MAX_SHARD_UNPACKED = 4 * 1024**3
"""The most a shard's arrays may hold unpacked (one of 10,000 matches holds some 2.4 GB)."""
MAX_ABOUT = 4096
"""The longest ``about`` a shard may hold (bytes)."""
SHARD_ENTRIES = ("obs", "mask", "target", "game", "value", "about")
"""What a shard holds (``value`` since 1 December 2026: a shard made before has none, and is read as ever)."""
_SHARD_TYPES = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.uint8, np.bool_, np.int32, np.int64))


def _shard_arrays(path: Path, layout: tuple[int, int] | None, only: Sequence[str] = SHARD_ENTRIES) -> dict[str, Array]:
    """The arrays ``only`` of the shard at ``path`` (a shard may come from anyone: read by
    :mod:`clubsuite.npzread`, each array's header checked before its numbers are read): no entry but a shard's,
    ``about`` at most :data:`MAX_ABOUT` bytes, and, with the environment's ``layout`` (observation size, action
    count), every array of the steps' one count of rows, at most :data:`MAX_STEPS_PER_GAME` for each game the
    file's name covers."""
    m = SHARD_NAME.match(path.name)
    games = int(m.group(2)) - int(m.group(1)) + 1 if m else 0
    if games > MAX_SHARD_GAMES:
        raise InvalidOptionsError(
            f"{path}: not a file of positions: its name covers {games:,} games, more than a file holds "
            f"({MAX_SHARD_GAMES:,})"
        )
    most = max(0, games) * MAX_STEPS_PER_GAME
    size, actions = layout if layout is not None else (0, 0)
    rows: list[int] = []
    wanted = {"obs": (size,), "mask": (actions,), "target": (actions,), "game": (), "value": (actions,)}

    def check(name: str, shape: tuple[int, ...], dtype: np.dtype[np.generic]) -> str | None:
        if name not in SHARD_ENTRIES:
            return "is not one a file of positions holds"
        if name == "about":
            return None if len(shape) == 1 and shape[0] <= MAX_ABOUT and dtype == np.uint8 else "is not short text"
        if name not in only:
            return None
        if len(shape) != 1 + len(wanted[name]) or tuple(shape[1:]) != wanted[name]:
            expected = " x ".join(["steps", *map(str, wanted[name])])
            return f"is not {expected} numbers for this environment ({shape_text(shape)})"
        if shape[0] > most:
            steps = shape_text(shape[:1])
            return f"holds {steps} steps, more than {MAX_STEPS_PER_GAME:,} for each of its {games:,} games"
        if rows and shape[0] != rows[0]:
            return f"holds {shape[0]:,} steps where the others hold {rows[0]:,}"
        rows.append(shape[0])
        return None

    per_step = 8 * (size + 3 * actions + 1)  # the widest types a shard may use
    bounds = Bounds(
        max_bytes=min(MAX_SHARD_UNPACKED, most * per_step + MAX_ABOUT) if layout is not None else MAX_ABOUT,
        max_entries=len(SHARD_ENTRIES),
        max_directory=64 * 1024,
        types=_SHARD_TYPES,
        types_words="numbers",
        kind="a file of positions",
        max_file=MAX_SHARD_FILE,
    )

    def fail(why: str) -> InvalidOptionsError:
        return InvalidOptionsError(f"{path}: not a file of positions: {why}")

    try:
        return file_arrays(path, bounds, fail, check, only)
    except InvalidOptionsError:
        raise
    except (OSError, ValueError, EOFError, RuntimeError, NotImplementedError, MemoryError) as exc:
        raise fail(f"it is damaged ({type(exc).__name__})") from None
    except (zipfile.BadZipFile, zlib.error, struct.error) as exc:
        raise fail(f"it is damaged ({type(exc).__name__})") from None


def _about(path: Path) -> str:
    """What the shard at ``path`` says it holds."""
    about = _shard_arrays(path, None, ("about",)).get("about")
    if about is None:
        raise InvalidOptionsError(f"{path}: not a file of positions: it says nothing of what it holds")
    return bytes(about.tobytes()).decode("utf-8", "replace")


def _steps_array(arrays: dict[str, Array], key: str, shape: tuple[int, ...], path: Path, env: BenchEnv) -> Numbers:
    """The shard's entry ``key``, refused unless it holds numbers of the ``shape`` the environment gives."""
    array = numbers(arrays[key])
    if array is None or array.shape != shape:
        raise InvalidOptionsError(f"{path}: its {key} is not {shape} numbers for {env.id}")
    return array


def read_shards(folder: Path, env: BenchEnv, limit: int | None = None) -> tuple[Dataset, str]:
    """The steps of every shard under ``folder`` (of ``env``), in game order, those of the first ``limit`` games
    only where given; and what the shards say they hold. Each is checked: its arrays, their shapes for ``env``'s
    observation and actions, every target a distribution over its step's allowed ids, every shard made alike, no
    game in two shards."""
    coding = coding_for(*env.resolved())
    size, actions = env_layout(coding).size, coding.action_count
    shards = [(a, b, p) for a, b, p in shard_ranges(folder) if limit is None or a < limit]
    if not shards:
        raise InvalidOptionsError(f"{folder}: no positions there")
    for (_, last, path), (first, _, other) in itertools.pairwise(shards):
        if first <= last:
            raise InvalidOptionsError(f"{path.name} and {other.name} hold the same games: remove one of them")
    parts: dict[str, list[Numbers]] = {"obs": [], "mask": [], "target": [], "game": []}
    about = None
    for first, last, path in shards:
        said = _about(path)
        if about is not None and said != about:
            raise InvalidOptionsError(f"{path}: made as '{said}', unlike the others ('{about}')")
        about = said
        arrays = _shard_arrays(path, (size, actions))
        missing = [k for k in ("obs", "mask", "target", "game") if k not in arrays]
        if missing:
            raise InvalidOptionsError(f"{path}: not a file of positions: it holds no {', '.join(missing)}")
        n = len(arrays["game"])
        shapes = {"obs": (n, size), "mask": (n, actions), "target": (n, actions), "game": (n,)}
        obs, mask, target, game = (
            _steps_array(arrays, key, shapes[key], path, env) for key in ("obs", "mask", "target", "game")
        )
        if n and (game.min() < first or game.max() > last):
            raise InvalidOptionsError(f"{path}: it holds games outside {first} to {last}")
        sums = np.where(mask.astype(bool), target.astype(np.float32), 0.0).sum(axis=1)
        if not np.isfinite(obs.astype(np.float32)).all():
            raise InvalidOptionsError(f"{path}: an observation holds a value that is not a finite number")
        if not (np.isfinite(target.astype(np.float32)).all() and (sums > 0.5).all()):
            raise InvalidOptionsError(f"{path}: a target is not a distribution over its allowed ids")
        for key, array in (("obs", obs), ("mask", mask), ("target", target), ("game", game)):
            parts[key].append(array)
    allowed = np.concatenate(parts["mask"]).astype(np.bool_)
    targets = np.where(allowed, np.concatenate(parts["target"]).astype(np.float32), 0.0).astype(np.float32)
    targets /= targets.sum(axis=1, keepdims=True)
    data = Dataset(np.concatenate(parts["obs"]).astype(np.float16), allowed, targets, np.concatenate(parts["game"]))
    return (data.take(data.game < limit) if limit is not None else data), str(about)
