"""The puzzles a server offers: the shipped sets (:mod:`clubsuite.puzzles.sets`), one rating pool each (a game, or a
game at one seat count, as matches are rated: :mod:`clubsuite.puzzles.shelves`), read once when first asked for (off
the event loop) and kept in memory; which puzzle is today's; and each puzzle's two parts for the page
(:mod:`~.positions`), worked out in a worker process once and kept: a shipped puzzle's for as long as the server runs
(compressed, some 2 KB each: a few megabytes for every shipped puzzle), so that asking for every puzzle there is costs
the workers each one once and never again, and the most recently used :data:`KEPT_PARTS` ready to send.

What is not worked out yet is worked out for each asker (an address, and an account where one is signed in) one at
a time: a second new puzzle asked while the asker's first is still being worked out is refused (429, try again in a
moment), so that a few addresses cannot fill the workers' queue and leave a bystander's puzzle refused. A puzzle
being worked out for someone else is waited for, free.

The answers stay here: a route judges an attempt against the puzzle's solution and values, and hands the page only
what the action it answered gets and, once solved or given up, the line.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable

from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.model import Puzzle, dumps_line, read_set
from clubsuite.puzzles.shelves import Shelf, daily_pick, daily_pool, shelves
from clubsuite.server.puzzles.positions import puzzle_parts

log = logging.getLogger("clubsuite.server")

KEPT_PARTS = 512
"""Puzzles whose worked-out parts are kept in memory ready to send (some 20 to 100 KB each); every shipped puzzle's
are kept besides, compressed."""
ASKER_WAIT = 1
"""Seconds an asker whose last new puzzle is still being worked out is told to wait."""

Work = Callable[[Callable[[str], tuple[int, bytes, bool]], str, str], Awaitable[tuple[int, bytes, bool]]]
"""Runs ``work(line)`` in a worker process, given ``work``, a puzzle's JSON line and its id (the server's
:meth:`~clubsuite.server.table.replaying.Replayer.puzzle`): status, JSON, compressed."""


class PuzzleRefused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """A puzzle request that cannot be answered: the HTTP status, a code and the words."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.retry_after = status, code, retry_after


class Library:
    """The shipped puzzles by pool, today's puzzle, and the parts each puzzle shows (see the module docstring)."""

    def __init__(self, work: Work) -> None:
        self.work = work
        self.shelves = shelves()
        self._loaded: dict[str, dict[str, Puzzle]] = {}
        self._loading: dict[str, asyncio.Future[dict[str, Puzzle]]] = {}
        self._parts: OrderedDict[str, JsonObject] = OrderedDict()
        self._working: dict[str, asyncio.Future[JsonObject]] = {}
        self._packed: dict[str, bytes] = {}
        """Every shipped puzzle's parts worked out so far, compressed JSON, kept while the server runs."""
        self._asking: dict[str, str] = {}
        """The askers (an address, an account) with a new puzzle being worked out for them, and its id."""
        self.worked_out = 0
        """Puzzles whose parts the workers worked out (each shipped one once)."""
        self._daily: tuple[datetime.date, Puzzle] | None = None
        self.broken: set[str] = set()
        """The puzzles whose position could not be worked out (a fault of the server's sets: logged once each, and
        never chosen as the next puzzle again)."""

    def shelf(self, pool: str) -> Shelf:
        """The shelf of ``pool``; 404 naming the pools there are."""
        found = self.shelves.get(pool)
        if found is None:
            raise PuzzleRefused(
                404, "no_puzzles", f"there are no puzzles of that pool; there are: {', '.join(self.shelves)}"
            )
        return found

    async def puzzles(self, pool: str) -> dict[str, Puzzle]:
        """The puzzles of ``pool`` by id (read in a thread the first time: a set is a few megabytes of JSON)."""
        shelf = self.shelf(pool)
        if pool in self._loaded:
            return self._loaded[pool]
        loading = self._loading.get(pool)
        if loading is None:
            loading = asyncio.ensure_future(asyncio.to_thread(_read, shelf))
            self._loading[pool] = loading
        try:
            loaded = await asyncio.shield(loading)
        finally:
            if loading.done():
                self._loading.pop(pool, None)
        self._loaded[pool] = loaded
        return loaded

    async def puzzle(self, pool: str, puzzle_id: str) -> Puzzle:
        """The puzzle ``puzzle_id`` of ``pool``; 404 where it has none of that id."""
        found = (await self.puzzles(pool)).get(puzzle_id)
        if found is None:
            raise PuzzleRefused(404, "no_puzzle", "there is no puzzle of that id in this pool")
        return found

    async def daily(self, day: datetime.date) -> Puzzle:
        """The puzzle of ``day`` (the same for everyone, all day, UTC, and the offline app's that day): the pools
        take turns day by day (:func:`~clubsuite.puzzles.shelves.daily_pool`), and within the day's pool a puzzle is
        drawn by a digest of the date (:func:`~clubsuite.puzzles.shelves.daily_pick`)."""
        if self._daily is not None and self._daily[0] == day:
            return self._daily[1]
        pool = daily_pool(self.shelves, day)
        if pool is None:
            raise PuzzleRefused(404, "no_puzzles", "this server has no puzzles")
        chosen = daily_pick((await self.puzzles(pool)).values(), day)
        self._daily = (day, chosen)
        return chosen

    async def parts(self, puzzle: Puzzle, askers: Iterable[str] = ()) -> JsonObject:
        """The puzzle's position and line (:mod:`~.positions`): kept ones, one being worked out (shared), or worked
        out now in a worker for ``askers`` (an address, an account); :class:`PuzzleRefused` (429) where one of them
        has a new puzzle being worked out already, :class:`ReplayRefused` (503) where the workers are full,
        :class:`PuzzleRefused` (503) where the puzzle cannot be worked out (the server's own fault: logged, and the
        puzzle set aside in :attr:`broken`)."""
        kept = self._parts.get(puzzle.id)
        if kept is not None:
            self._parts.move_to_end(puzzle.id)
            return kept
        packed = self._packed.get(puzzle.id)
        if packed is not None:
            return self._keep(puzzle.id, json.loads(zlib.decompress(packed)))
        working = self._working.get(puzzle.id)
        if working is None:
            who = list(askers)
            if any(a in self._asking for a in who):
                raise PuzzleRefused(
                    429,
                    "rate_limited",
                    "one new puzzle at a time: the last one you asked for is still being worked out",
                    retry_after=ASKER_WAIT,
                )
            working = asyncio.ensure_future(self._work_out(puzzle))
            self._working[puzzle.id] = working
            for a in who:
                self._asking[a] = puzzle.id
            working.add_done_callback(lambda done: self._done(puzzle.id, who, done))
        return await asyncio.shield(working)

    def shipped(self, puzzle: Puzzle) -> bool:
        """Whether ``puzzle`` is one of the shipped sets' (an own puzzle is not)."""
        return any(loaded.get(puzzle.id) is puzzle for loaded in self._loaded.values())

    async def _work_out(self, puzzle: Puzzle) -> JsonObject:
        status, body, _ = await self.work(puzzle_parts, dumps_line(puzzle), puzzle.id)
        if status != 200:
            if puzzle.id not in self.broken:
                self.broken.add(puzzle.id)
                log.error("puzzle %s cannot be shown: %s", puzzle.id, body[:300].decode(errors="replace"))
            raise PuzzleRefused(503, "busy", "this puzzle cannot be shown just now: try another")
        self.worked_out += 1
        if self.shipped(puzzle):
            self._packed[puzzle.id] = zlib.compress(body)
        return self._keep(puzzle.id, json.loads(body))

    def _keep(self, puzzle_id: str, parts: JsonObject) -> JsonObject:
        """Keep ``parts`` among the most recently used, ready to send."""
        self._parts[puzzle_id] = parts
        while len(self._parts) > KEPT_PARTS:
            self._parts.popitem(last=False)
        return parts

    def _done(self, puzzle_id: str, askers: list[str], work: asyncio.Future[JsonObject]) -> None:
        if self._working.get(puzzle_id) is work:
            del self._working[puzzle_id]
        for a in askers:
            if self._asking.get(a) == puzzle_id:
                del self._asking[a]
        if not work.cancelled():
            work.exception()  # retrieved here: every asker may have gone


def _read(shelf: Shelf) -> dict[str, Puzzle]:
    return {p.id: p for s in shelf.sets for p in read_set(s.file)}
