"""The puzzle ratings ``clubs puzzle`` keeps on this computer: the player's rating per game (and seat count), each
puzzle's rating as the attempts move it, and the history of attempts.

One JSON file (``CLUBS_PUZZLE_STORE``, else ``$XDG_DATA_HOME/clubsuite/puzzles.json``, else
``~/.local/share/clubsuite/puzzles.json``), written whole each time (a crash leaves the old file or the new one,
never half), read within a size limit, every value checked: a file that is not one is refused with its name and
what is wrong, and is never overwritten.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from clubsuite.puzzles.model import Puzzle, PuzzleError
from clubsuite.puzzles.rating import attempt, puzzle_skill
from clubsuite.ratings import START, Skill, shown
from clubsuite.records.files import write_atomically
from clubsuite.safetext import quoted

STORE_VERSION = 1
MAX_STORE_BYTES = 8 * 1024 * 1024
HISTORY = 2000
"""The most attempts the history keeps (the oldest go first)."""


def default_path() -> Path:
    """Where the store lives (see the module docstring)."""
    named = os.environ.get("CLUBS_PUZZLE_STORE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "clubsuite" / "puzzles.json"


@dataclass(frozen=True)
class Attempted:
    """One attempt, as the history keeps it."""

    puzzle: str
    pool: str
    solved: bool
    rating: int
    """The player's rating after it."""
    at: int
    """When (seconds since 1970)."""


@dataclass
class Store:
    """The ratings and history (see the module docstring)."""

    path: Path
    players: dict[str, Skill] = field(default_factory=dict)
    puzzles: dict[str, Skill] = field(default_factory=dict)
    history: list[Attempted] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> Store:
        """The store at ``path`` (empty where there is no file yet)."""
        if not path.exists():
            return cls(path)
        name = quoted(str(path))
        try:
            with path.open("rb") as f:
                data = f.read(MAX_STORE_BYTES + 1)
        except OSError as exc:
            raise PuzzleError(f"cannot read the puzzle ratings {name}: {exc.strerror or exc}") from None
        if len(data) > MAX_STORE_BYTES:
            raise PuzzleError(f"the puzzle ratings {name} are larger than {MAX_STORE_BYTES // (1024 * 1024)} MB")
        try:
            raw = json.loads(data)
            return cls(path, _skills(raw["players"]), _skills(raw["puzzles"]), _history(raw["history"]))
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            raise PuzzleError(
                f"the puzzle ratings {name} cannot be read ({exc}); move the file away to start afresh"
            ) from None

    def save(self) -> None:
        """Write the store whole (see the module docstring)."""
        data = {
            "version": STORE_VERSION,
            "players": {k: [v.mu, v.sigma] for k, v in self.players.items()},
            "puzzles": {k: [v.mu, v.sigma] for k, v in self.puzzles.items()},
            "history": [[a.puzzle, a.pool, a.solved, a.rating, a.at] for a in self.history[-HISTORY:]],
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, json.dumps(data, separators=(",", ":")).encode())
        except OSError as exc:
            raise PuzzleError(
                f"cannot keep the puzzle ratings in {quoted(str(self.path))}: {exc.strerror or exc}"
            ) from None

    def player(self, pool: str) -> Skill:
        """The player's skill in ``pool`` (a newcomer's where there is none yet)."""
        return self.players.get(pool, START)

    def puzzle(self, puzzle: Puzzle) -> Skill:
        """The puzzle's skill: as the attempts here moved it, else from its rating."""
        return self.puzzles.get(puzzle.id, puzzle_skill(puzzle.rating))

    def ratings(self) -> dict[str, int]:
        """The ratings (as shown) of the puzzles the attempts here moved."""
        return {k: shown(v)[0] for k, v in self.puzzles.items()}

    def rating(self, pool: str) -> tuple[int, int]:
        """The player's rating in ``pool`` as a person reads it: (rating, ±)."""
        return shown(self.player(pool))

    def attempted(self, pool: str) -> dict[str, bool]:
        """Each puzzle tried in ``pool``: whether its last attempt solved it."""
        return {a.puzzle: a.solved for a in self.history if a.pool == pool}

    def streak(self, pool: str) -> int:
        """How many puzzles in a row the player has solved in ``pool``, back from the last attempt."""
        n = 0
        for a in reversed(self.history):
            if a.pool != pool:
                continue
            if not a.solved:
                break
            n += 1
        return n

    def record(self, pool: str, puzzle: Puzzle, solved: bool) -> tuple[int, int]:
        """Rate one attempt (the player against the puzzle) and keep it; returns the player's rating before and
        after."""
        before = shown(self.player(pool))[0]
        player, rated = attempt(self.player(pool), self.puzzle(puzzle), solved)
        self.players[pool] = player
        self.puzzles[puzzle.id] = rated
        after = shown(player)[0]
        self.history.append(Attempted(puzzle.id, pool, solved, after, int(time.time())))
        return before, after


def _skills(raw: object) -> dict[str, Skill]:
    if not isinstance(raw, dict):
        raise TypeError("ratings must be an object")
    out = {}
    for key, value in raw.items():
        if not isinstance(key, str) or len(key) > 100:
            raise ValueError("a rating's name is not a short text")
        mu, sigma = value
        if not all(isinstance(x, int | float) and math.isfinite(x) and abs(x) < 1000 for x in (mu, sigma)):
            raise ValueError(f"the rating of {key!r} is not two finite numbers")
        if sigma <= 0:
            raise ValueError(f"the rating of {key!r} has no uncertainty left")
        out[key] = Skill(float(mu), float(sigma))
    return out


def _history(raw: object) -> list[Attempted]:
    if not isinstance(raw, list):
        raise TypeError("the history must be a list")
    out = []
    for entry in raw[-HISTORY:]:
        puzzle, pool, solved, rating, at = entry
        if not (isinstance(puzzle, str) and isinstance(pool, str) and isinstance(solved, bool)):
            raise ValueError("an attempt in the history is not what it should be")
        if not (isinstance(rating, int) and isinstance(at, int)):
            raise ValueError("an attempt's rating and time must be whole numbers")
        out.append(Attempted(puzzle[:40], pool[:100], solved, rating, at))
    return out
