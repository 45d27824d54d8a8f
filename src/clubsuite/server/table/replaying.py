"""Replays for the browser's viewer, worked out in a process of their own.

A replay is the costliest answer the server gives: every step of a record replayed by the rules engine, with the
public table and every hand at each step, so its work and its size grow with the record (a match to 1000 points
is 125 KB of record and some 10 MB of frames). It is never done on the event loop, nor in a thread that would take
the interpreter from it: :class:`Replayer` sends the record's bytes to a pool of ``replay_workers`` processes, lets
``replay_queue`` more wait, and refuses the rest at once (busy: try again). The worker reads the record as every
record is read (standard JSON, bounded), works its frames out (:mod:`clubsuite.analysis.frames`: at most
``MAX_FRAMES`` steps), stops at ``max_replay_bytes`` of answer,
and hands back the answer already encoded (and compressed, where the client takes gzip), so that the server's
process holds only the few hundred kilobytes that go out.

A review (one seat's decisions searched, :func:`review_answer`) costs far more: from seconds to a minute of a worker
for one match, by the game and its length. So reviews have workers of their own (``review_workers``,
``review_queue``: a replay never waits behind a review), each is worked out once and kept in the database
(:class:`ReviewStore`, keyed by a digest of the record's canonical JSON, the seat and the review's settings, so the
same match however written hits one entry, in every process and after a restart), two identical reviews asked at
once in one process share one working-out, and the reviews an address or an account has worked out are counted
against an hourly budget (``review_rate``, ``review_account_rate``; a kept review is answered free).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from clubsuite import __version__
from clubsuite.analysis import frames
from clubsuite.analysis.review import PAGE_SAMPLES
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.records.files import parse_record
from clubsuite.server.limits import RateLimits, ServerLimits
from clubsuite.server.store.database import StaleWriteError, StoreError
from clubsuite.server.store.dbschema import reviews
from clubsuite.server.store.handle import Database
from clubsuite.server.workers import RenewingPool

log = logging.getLogger("clubsuite.server")

TASKS_PER_WORKER = 50
"""Replays a worker process works out before a fresh one takes its place."""
GZIP_FROM = 64 * 1024
"""Answers from this size up go out compressed to a client that takes gzip."""


class ReplayRefused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """A replay that cannot be given: the HTTP status, a code and the words."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.retry_after = status, code, retry_after


def replay_frames(record: object) -> JsonObject:
    """Every step of a record, for the replay viewer (:func:`clubsuite.analysis.frames.replay_frames`); raises
    :class:`ReplayRefused` (400) naming the problem when the record is not one the engine accepts."""
    try:
        return frames.replay_frames(record)
    except ClubsError as exc:
        raise ReplayRefused(400, "bad_record", str(exc)) from None


def replay_answer(raw: bytes | str, gzipped: bool, max_bytes: int) -> tuple[int, bytes, bool]:
    """The work of one replay, in a worker process: (HTTP status, the JSON answer, whether it is gzip-compressed);
    an answer over ``max_bytes`` is refused.

    Every refusal is an answer too (400 with ``bad_record``, 413 with ``too_large``), so nothing but the answer
    crosses back."""
    try:
        record = parse_record(raw, "the record")
        body = json.dumps(replay_frames(record), separators=(",", ":")).encode()
        if len(body) > max_bytes:
            raise ReplayRefused(
                413,
                "too_large",
                f"the replay of this record would take over {max_bytes} bytes: too long to show",
            )
        status = 200
    except ClubsError as exc:
        status, body = 400, _error("bad_record", str(exc))
    except ReplayRefused as exc:
        status, body = exc.status, _error(exc.code, str(exc))
    if gzipped and len(body) >= GZIP_FROM:
        return status, gzip.compress(body, 5), True
    return status, body, False


REVIEW_SETTINGS = f"samples={PAGE_SAMPLES} labels=1 clubsuite={__version__}"
"""What a kept review was worked out with, besides the match and the seat: a review kept under other settings (or by
another release of the search) is not answered again, but worked out anew."""
KEPT_STATUSES = frozenset({200, 413})
"""The answers a review keeps: those the search was run for. A refusal before it (no such seat, a match too long)
costs nothing to give again."""


def review_answer(raw: bytes | str, gzipped: bool, max_bytes: int, seat: int) -> tuple[int, bytes, bool]:
    """The work of one review, in a worker process: every decision of ``seat`` in the record, the value of the
    action taken and of the best one by search from the seat's own view, and with every hand known in the trick
    games' card play (:func:`clubsuite.analysis.review.review`); answered as :func:`replay_answer` answers."""
    from clubsuite.analysis.review import ReviewSettings, SeatMissingError, check_reviewable, review

    try:
        record = parse_record(raw, "the record")
        if not isinstance(record, dict):
            raise ClubsError("a record is a JSON object")
        try:
            check_reviewable(record, seat)
        except SeatMissingError as exc:
            raise ReplayRefused(400, "bad_request", str(exc)) from None
        done = review(record, seat, ReviewSettings(samples=PAGE_SAMPLES))
        body = json.dumps(done.to_json(), separators=(",", ":")).encode()
        status = 200 if len(body) <= max_bytes else 413
        if status == 413:
            body = _error("too_large", "the review is too long to show")
    except ClubsError as exc:
        status, body = 400, _error("bad_record", str(exc))
    except ReplayRefused as exc:
        status, body = exc.status, _error(exc.code, str(exc))
    return status, body, False


def _error(code: str, message: str) -> bytes:
    return json.dumps({"code": code, "message": message}).encode()


def record_digest(raw: bytes | str) -> str:
    """The digest a review is kept under: SHA-256 of the record's canonical JSON (read as every record is read, then
    written with sorted keys, no spaces and ASCII escapes), so the same match however it was written hits the same
    entry. Raises :class:`ClubsError` for bytes that are no record."""
    record = parse_record(raw, "the record")
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


class ReviewKey(NamedTuple):
    """What a kept review answers: the match (:func:`record_digest`), the seat and the settings."""

    digest: str
    seat: int
    settings: str = REVIEW_SETTINGS


class ReviewStore:
    """Worked-out reviews kept in the database (table ``reviews``): every process of the server reads them and they
    outlast a restart. At most ``max_bytes`` of answers are kept: each new one past that drops the oldest (by when
    it was worked out), and one answer larger than a quarter of it is not kept at all. Reads and writes run through
    ``database`` (the server's database threads); a database that refuses is a review worked out again, never an
    error."""

    def __init__(self, database: Database, max_bytes: int) -> None:
        self.database, self.max_bytes = database, max_bytes

    async def get(self, key: ReviewKey) -> tuple[int, bytes] | None:
        """The kept answer of ``key`` (its status and JSON), or None."""
        query = select(reviews.c.status, reviews.c.answer).where(
            reviews.c.digest == key.digest, reviews.c.seat == key.seat, reviews.c.settings == key.settings
        )
        try:
            rows = await self.database.read(query)
        except StoreError as exc:
            log.warning("the kept reviews could not be read: %s", exc)
            return None
        return (int(rows[0].status), str(rows[0].answer).encode()) if rows else None

    async def put(self, key: ReviewKey, status: int, body: bytes) -> None:
        """Keep the answer of ``key`` (one too large is not kept; one another process kept first stays)."""
        if len(body) > self.max_bytes // 4:
            return
        try:
            await self.database.write(lambda conn: self._put(conn, key, status, body))
        except StaleWriteError:
            pass  # another process worked the same review out and kept it first: the same answer
        except StoreError as exc:
            log.warning("a review could not be kept: %s", exc)

    def _put(self, conn: Connection, key: ReviewKey, status: int, body: bytes) -> None:
        conn.execute(
            insert(reviews).values(
                digest=key.digest,
                seat=key.seat,
                settings=key.settings,
                status=status,
                answer=body.decode(),
                size=len(body),
                created_at=time.time(),
            )
        )
        total = int(conn.execute(select(func.coalesce(func.sum(reviews.c.size), 0))).scalar_one())
        while total > self.max_bytes:  # the oldest go, a few at a time, until the rest fit
            oldest = conn.execute(
                select(reviews.c.digest, reviews.c.seat, reviews.c.settings, reviews.c.size)
                .order_by(reviews.c.created_at, reviews.c.digest)
                .limit(32)
            ).all()
            if not oldest:
                break
            for row in oldest:
                if total <= self.max_bytes:
                    break
                conn.execute(
                    delete(reviews).where(
                        reviews.c.digest == row.digest, reviews.c.seat == row.seat, reviews.c.settings == row.settings
                    )
                )
                total -= int(row.size)


class _Workers:
    """One pool of worker processes with its queue: how much is in it, and the addresses with work in it (one
    each, so nobody fills the queue alone)."""

    def __init__(self, workers: int, queue: int, what: str) -> None:
        self.pool = RenewingPool(workers, TASKS_PER_WORKER)
        self.room = workers + queue
        self.what = what
        self.in_flight = 0
        self.asking: set[str] = set()

    def enter(self, who: str) -> None:
        """Take a place for ``who``'s work, or refuse: 429 when that address has work in the pool already, 503 when
        the workers and the queue are full or the server is stopping."""
        if who in self.asking:
            raise ReplayRefused(
                429, "rate_limited", f"one {self.what} at a time: the last one asked for is being worked out"
            )
        if self.in_flight >= self.room:
            raise ReplayRefused(503, "busy", f"the server is working out other {self.what}s: try again in a moment")
        if self.pool.closed:
            raise ReplayRefused(503, "busy", "the server is stopping: try again in a moment")
        self.in_flight += 1
        self.asking.add(who)

    def leave(self, who: str) -> None:
        """Give back the place :meth:`enter` took."""
        self.in_flight -= 1
        self.asking.discard(who)

    async def run(self, fn: Callable[..., tuple[int, bytes, bool]], *args: Any) -> tuple[int, bytes, bool]:
        """``fn(*args)`` in a worker process."""
        future, executor = self.pool.submit(fn, *args)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:  # a worker died (killed for memory): a new pool for the next one
            self.pool.broken(executor)
            raise ReplayRefused(503, "busy", f"the {self.what} could not be worked out: try again") from None


class Replayer:
    """The replay and review workers of one server: two pools of processes (each started when first needed) with
    bounded queues, the reviews kept (``store``; None: none kept) and the hourly review budgets."""

    def __init__(self, limits: ServerLimits, store: ReviewStore | None = None) -> None:
        self.max_bytes = limits.max_replay_bytes
        self.store = store
        self._replays = _Workers(limits.replay_workers, limits.replay_queue, "replay")
        self._reviews = _Workers(limits.review_workers, limits.review_queue, "review")
        self._puzzles = _Workers(limits.replay_workers, limits.puzzle_queue, "puzzle")
        self._budgets = RateLimits(limits)
        self._reviewing: dict[ReviewKey, asyncio.Future[tuple[int, bytes, bool]]] = {}
        """The reviews being worked out in this process, by key: an identical one asked meanwhile waits for it."""
        self.reviews_worked = 0
        """Reviews worked out by the workers (each one counted in its asker's budgets)."""
        self.reviews_from_store = 0
        """Reviews answered from the kept ones (free)."""
        self.reviews_shared = 0
        """Reviews answered by an identical one being worked out when they were asked (free)."""

    @property
    def in_flight(self) -> int:
        """Replays being worked out or waiting for a worker now."""
        return self._replays.in_flight

    @property
    def reviews_in_flight(self) -> int:
        """Reviews being worked out or waiting for a review worker now."""
        return self._reviews.in_flight

    async def answer(
        self,
        raw: bytes | str,
        gzipped: bool,
        who: str,
        review_seat: int | None = None,
        account: str | None = None,
    ) -> tuple[int, bytes, bool]:
        """The replay answer of a record's bytes for the address ``who`` (with ``review_seat``: the review of that
        seat's decisions instead, for the signed-in ``account`` if any); :class:`ReplayRefused` when that address
        has one under way already (429), a review would pass the address's or the account's hourly budget (429) or
        the workers and their queue are full (503)."""
        if review_seat is not None:
            return await self._review(raw, who, review_seat, account)
        self._replays.enter(who)
        try:
            return await self._replays.run(replay_answer, raw, gzipped, self.max_bytes)
        finally:
            self._replays.leave(who)

    async def _review(self, raw: bytes | str, who: str, seat: int, account: str | None) -> tuple[int, bytes, bool]:
        """A review: the kept one, or the one being worked out, or (within the budgets) a new one worked out and
        kept. Its answer is never compressed (some tens of kilobytes)."""
        try:
            digest = await asyncio.to_thread(record_digest, raw)  # off the loop: a record may be 512 KB
        except ClubsError as exc:
            return 400, _error("bad_record", str(exc)), False
        key = ReviewKey(digest, seat)
        running = self._reviewing.get(key)
        if running is None and self.store is not None:
            kept = await self.store.get(key)
            if kept is not None:
                self.reviews_from_store += 1
                return kept[0], kept[1], False
            running = self._reviewing.get(key)  # begun while the store was read
        if running is not None:
            self.reviews_shared += 1
            return await asyncio.shield(running)
        self._reviews.enter(who)
        budgets = [("review", who), *([("review_account", account)] if account is not None else [])]
        wait = self._budgets.allow_all(budgets)
        if wait is not None:
            self._reviews.leave(who)
            raise ReplayRefused(
                429,
                "rate_limited",
                "you have asked for many reviews this hour: try again later",
                retry_after=math.ceil(wait),
            )
        work = asyncio.ensure_future(self._work_out(key, raw))
        self._reviewing[key] = work
        work.add_done_callback(lambda done: self._done(key, who, done))
        return await asyncio.shield(work)  # one asker gone does not stop the work the others wait for

    async def _work_out(self, key: ReviewKey, raw: bytes | str) -> tuple[int, bytes, bool]:
        """Work a review out in a review worker and keep it (before it is answered: whoever asks next finds it)."""
        status, body, _ = await self._reviews.run(review_answer, raw, False, self.max_bytes, key.seat)
        self.reviews_worked += 1
        if self.store is not None and status in KEPT_STATUSES:
            await self.store.put(key, status, body)
        return status, body, False

    def _done(self, key: ReviewKey, who: str, work: asyncio.Future[tuple[int, bytes, bool]]) -> None:
        """A review's work is over (answered, failed or stopped): its place in the review workers is free."""
        self._reviews.leave(who)
        if self._reviewing.get(key) is work:
            del self._reviewing[key]
        if not work.cancelled():
            work.exception()  # retrieved here: every asker may have gone

    async def puzzle(
        self, work: Callable[[str], tuple[int, bytes, bool]], text: str, key: str
    ) -> tuple[int, bytes, bool]:
        """``work(text)`` in a puzzle worker (as many as for replays, in processes of their own, with
        ``puzzle_queue`` waiting): a puzzle's position and line worked out from its JSON line, ``key`` naming the
        puzzle (one at a time each); :class:`ReplayRefused` (503) where they are full."""
        self._puzzles.enter(key)
        try:
            return await self._puzzles.run(work, text)
        finally:
            self._puzzles.leave(key)

    async def budgeted(
        self, work: Callable[..., tuple[int, bytes, bool]], who: str, account: str | None, *args: Any
    ) -> tuple[int, bytes, bool]:
        """``work(*args)`` in a review worker, counted as a review worked out in the hourly budgets of the address
        ``who`` and of ``account``: work that costs what a review costs (a player's own puzzles made from a match).
        :class:`ReplayRefused` as for a review (429: one at a time, or a budget spent; 503: the workers full)."""
        self._reviews.enter(who)
        try:
            budgets = [("review", who), *([("review_account", account)] if account is not None else [])]
            wait = self._budgets.allow_all(budgets)
            if wait is not None:
                raise ReplayRefused(
                    429,
                    "rate_limited",
                    "you have asked for much costly work this hour (reviews, puzzles of your games): try again later",
                    retry_after=math.ceil(wait),
                )
            return await self._reviews.run(work, *args)
        finally:
            self._reviews.leave(who)

    def close(self) -> None:
        """Stop the workers."""
        self._replays.pool.close()
        self._reviews.pool.close()
        self._puzzles.pool.close()
