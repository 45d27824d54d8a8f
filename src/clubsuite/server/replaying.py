"""Replays for the browser's viewer, worked out in a process of their own.

A replay is the costliest answer the server gives: every step of a record replayed by the rules engine, with the
public table and every hand at each step, so its work and its size grow with the record (a match to 1000 points
is 125 KB of record and some 10 MB of frames). It is never done on the event loop, nor in a thread that would take
the interpreter from it: :class:`Replayer` sends the record's bytes to a pool of ``replay_workers`` processes, lets
``replay_queue`` more wait, and refuses the rest at once (busy: try again). The worker reads the record as every
record is read (standard JSON, bounded), stops at :data:`MAX_FRAMES` steps and ``max_replay_bytes`` of answer,
and hands back the answer already encoded (and compressed, where the client takes gzip), so that the server's
process holds only the few hundred kilobytes that go out.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from concurrent.futures.process import BrokenProcessPool

from clubsuite.engine import SomeMatch, load_part
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.records.files import parse_record
from clubsuite.records.replay import Replay
from clubsuite.server.protocol import event_json
from clubsuite.server.workers import RenewingPool

MAX_FRAMES = 20_000
"""The most steps a replay is shown with (a record with more is refused, named)."""
TASKS_PER_WORKER = 50
"""Replays a worker process works out before a fresh one takes its place."""
GZIP_FROM = 64 * 1024
"""Answers from this size up go out compressed to a client that takes gzip."""


class ReplayRefused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """A replay that cannot be given: the HTTP status, a code and the words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def replay_frames(record: object) -> JsonObject:
    """Every step of a record, for the replay viewer: for the deal of each hand and each action, what was done, the
    public table (the game's spectator view) and every seat's hand, with the cards of the game's own piles that are
    in no hand (the game's part ``hidden``).

    Raises :class:`ReplayRefused` (400) naming the problem when the record is not one the engine accepts."""
    if not isinstance(record, dict):
        raise ReplayRefused(400, "bad_record", "a record is a JSON object")
    hands = record.get("hands")
    if isinstance(hands, list):  # counted before any is replayed: a record too long to show costs nothing
        steps = len(hands) + sum(
            len(h["actions"]) for h in hands if isinstance(h, dict) and isinstance(h.get("actions"), list)
        )
        if steps > MAX_FRAMES:
            raise ReplayRefused(
                400, "bad_record", f"the record has {steps} steps, more than {MAX_FRAMES}: too long to show"
            )
    try:
        run = Replay(record)
        public = load_part(run.info, "spectator")
        if not callable(public):
            raise ClubsError(f"{run.info.name} has no spectator view")
        hidden = load_part(run.info, "hidden")  # the game's piles in no hand, where it has any
        frames: list[JsonValue] = []
        for step in run.steps():
            if len(frames) >= MAX_FRAMES:
                raise ClubsError(f"the record has more than {MAX_FRAMES} steps: too long to show")
            frames.append(
                {
                    "hand": step.hand,
                    "action": step.action,
                    "seat": step.seat,
                    "events": [event_json(e) for e in step.events],
                    "view": public(run.match),
                    "hands": all_hands(run.match),
                    "hidden": hidden(run.match) if callable(hidden) else {},
                }
            )
        run.check_result()
    except ClubsError as exc:
        raise ReplayRefused(400, "bad_record", str(exc)) from None
    seats: list[JsonValue] = [s.get("name") if isinstance(s, dict) else None for s in run.seats]
    return {
        "game": run.info.name,
        "title": run.info.title,
        "variant": run.variant,
        "seats": seats,
        "frames": frames,
        "result": run.match.summary(),
    }


def all_hands(match: SomeMatch) -> list[JsonValue]:
    """Every seat's cards now, from each seat's own view (what a replay shows: the record holds every deal)."""
    out: list[JsonValue] = []
    for seat in range(match.n_seats):
        view = match.view(seat).to_dict()
        out.append(view.get("hand"))
    return out


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


REVIEW_SAMPLES = 8
"""Deals the review samples at each decision (the command line's ``clubs review`` takes 16 by default: the server
halves it, so a review costs half as much and marks the same clear mistakes)."""
MAX_REVIEWED = 400
"""The most decisions of the seat a review looks at (a longer match is refused, named: ``clubs review`` has no
bound)."""


def review_answer(raw: bytes | str, gzipped: bool, max_bytes: int, seat: int) -> tuple[int, bytes, bool]:
    """The work of one review, in a worker process: every decision of ``seat`` in the record, the value of the
    action taken and of the best one by search from the seat's own view, and with every hand known in the trick
    games' card play (:func:`clubsuite.analysis.review.review`); answered as :func:`replay_answer` answers."""
    from clubsuite.analysis.review import ReviewSettings, review

    try:
        record = parse_record(raw, "the record")
        if not isinstance(record, dict):
            raise ClubsError("a record is a JSON object")
        seats = record.get("seats")
        if not isinstance(seats, list) or not 0 <= seat < len(seats):
            raise ReplayRefused(400, "bad_request", f"the record has no seat {seat + 1}")
        hands = record.get("hands")
        actions = (
            sum(len(h["actions"]) for h in hands if isinstance(h, dict) and isinstance(h.get("actions"), list))
            if isinstance(hands, list)
            else 0
        )
        if actions > MAX_REVIEWED * len(seats):
            raise ReplayRefused(400, "bad_record", f"the match has {actions} actions: too long to review here")
        done = review(record, seat, ReviewSettings(samples=REVIEW_SAMPLES))
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


class Replayer:
    """The replay workers of one server: a pool of processes (started when first needed) and a bounded queue."""

    def __init__(self, workers: int, queue: int, max_bytes: int) -> None:
        self.workers, self.queue, self.max_bytes = workers, queue, max_bytes
        self._pool = RenewingPool(workers, TASKS_PER_WORKER)
        self._in_flight = 0
        self._asking: set[str] = set()
        """The addresses with a replay in the workers or their queue (one each: nobody fills the queue alone)."""

    @property
    def in_flight(self) -> int:
        """Replays being worked out or waiting for a worker now."""
        return self._in_flight

    async def answer(
        self, raw: bytes | str, gzipped: bool, who: str, review_seat: int | None = None
    ) -> tuple[int, bytes, bool]:
        """The replay answer of a record's bytes for the address ``who`` (with ``review_seat``: the review of that
        seat's decisions instead); :class:`ReplayRefused` when that address has a replay under way already (429) or
        the workers and the queue are full (503)."""
        if who in self._asking:
            raise ReplayRefused(429, "rate_limited", "one replay at a time: the last one asked for is being worked out")
        if self._in_flight >= self.workers + self.queue:
            raise ReplayRefused(503, "busy", "the server is working out other replays: try again in a moment")
        if self._pool.closed:
            raise ReplayRefused(503, "busy", "the server is stopping: try again in a moment")
        self._in_flight += 1
        self._asking.add(who)
        try:
            if review_seat is not None:
                future, executor = self._pool.submit(review_answer, raw, gzipped, self.max_bytes, review_seat)
            else:
                future, executor = self._pool.submit(replay_answer, raw, gzipped, self.max_bytes)
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:  # a worker died (killed for memory): a new pool for the next replay
                self._pool.broken(executor)
                raise ReplayRefused(503, "busy", "the replay could not be worked out: try again") from None
        finally:
            self._in_flight -= 1
            self._asking.discard(who)

    def close(self) -> None:
        """Stop the workers."""
        self._pool.close()
