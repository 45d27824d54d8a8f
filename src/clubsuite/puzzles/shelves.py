"""The shipped puzzles by rating pool, as a server's puzzle routes (``clubsuite.server.puzzles.library``) and the
offline app's (``clubsuite.offline.puzzles``) both offer them: the shelves (:func:`shelves`, one per pool, from the
shipped sets), what the list of pools and a pool's page show of each, and which puzzle is today's (the same on a
server and in the app). How the puzzles are read and kept is each side's own. Standard library only: the page's core
runs this.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from clubsuite.engine import find_game, resolve
from clubsuite.jsonform import JsonObject
from clubsuite.naming import name_words
from clubsuite.puzzles.choose import DIFFICULTY
from clubsuite.puzzles.model import KINDS, Puzzle
from clubsuite.puzzles.sets import ShippedSet, shipped_sets
from clubsuite.puzzles.standing import Standing
from clubsuite.puzzles.themes import theme_names
from clubsuite.ratings import pool as rating_pool

DAILY_BAND = (1300, 1900)
"""The first ratings today's puzzle is chosen among: neither a beginner's nor an expert's."""


@dataclass(frozen=True)
class Shelf:
    """The puzzles of one rating pool: its game and the shipped sets it is read from."""

    pool: str
    game: str
    sets: tuple[ShippedSet, ...]

    @property
    def count(self) -> int:
        """How many puzzles it holds."""
        return sum(s.count for s in self.sets)


def variant_pool(variant: str) -> str:
    """The rating pool of a variant (its game, at its seat count)."""
    info, options = resolve(variant)
    return rating_pool(info, options)


def pool_of(puzzle: Puzzle) -> str:
    """The rating pool of a puzzle's game and seat count."""
    return variant_pool(puzzle.variant)


def shelves() -> dict[str, Shelf]:
    """Every pool that has shipped puzzles, by pool name, in the order the index lists them (read afresh each
    call: a caller keeps them)."""
    by_pool: dict[str, list[ShippedSet]] = {}
    games: dict[str, str] = {}
    for s in shipped_sets():
        name = variant_pool(s.variant)
        by_pool.setdefault(name, []).append(s)
        games[name] = s.game
    return {name: Shelf(name, games[name], tuple(sets)) for name, sets in by_pool.items()}


def pool_entry(shelf: Shelf, standing: Standing | None) -> JsonObject:
    """One pool as the list of pools shows it: its game's title and words, how many puzzles it holds, and the
    player's standing in it (None: a guest's, nothing kept)."""
    info, options = resolve(shelf.sets[0].variant)
    return {
        "pool": shelf.pool,
        "game": shelf.game,
        "title": info.title,
        "name_words": name_words(info, options, None),
        "count": shelf.count,
        "standing": standing.to_json() if standing is not None else None,
    }


def pool_summary(pool: str, game: str, puzzles: Iterable[Puzzle], standing: Standing | None) -> JsonObject:
    """A pool's page: how many of its ``puzzles`` are of each kind and of each theme (with the theme's name and
    meaning, in English: a page words them from its catalog), the difficulties to choose from, and the player's
    standing (None: a guest's)."""
    every = list(puzzles)
    kinds = Counter(p.kind for p in every)
    counts = Counter(t for p in every for t in p.themes)
    names = theme_names(game)
    return {
        "pool": pool,
        "game": game,
        "title": find_game(game)[0].title,
        "count": len(every),
        "kinds": {k: kinds[k] for k in KINDS if kinds[k]},
        "themes": [
            {"id": t, "name": names[t][0], "meaning": names[t][1], "count": counts[t]} for t in names if counts[t]
        ],
        "difficulties": list(DIFFICULTY),
        "standing": standing.to_json() if standing is not None else None,
    }


def daily_pool(pools: Iterable[str], day: datetime.date) -> str | None:
    """The pool today's puzzle of ``day`` is from: the pools take turns day by day, in their order (None where
    there are none)."""
    names = list(pools)
    return names[day.toordinal() % len(names)] if names else None


def daily_pick(puzzles: Iterable[Puzzle], day: datetime.date) -> Puzzle:
    """Today's puzzle of ``day`` among the puzzles of its pool (:func:`daily_pool`; at least one): one of a first
    rating in :data:`DAILY_BAND` where there are any, drawn by a digest of the date, whatever order the puzzles
    come in."""
    every = sorted(puzzles, key=lambda p: p.id)
    band = [p for p in every if DAILY_BAND[0] <= p.rating <= DAILY_BAND[1]] or every
    digest = int.from_bytes(hashlib.sha256(f"daily {day.isoformat()}".encode()).digest()[:8], "big")
    return band[digest % len(band)]
