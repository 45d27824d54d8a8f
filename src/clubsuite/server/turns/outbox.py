"""Durable delivery of reminders: each push or e-mail is a row of ``outbox`` until it is delivered, so that a
process that stops or dies loses none.

A process claims a batch of due rows in one transaction (``claimed_by`` its node, ``claimed_until`` now plus
:data:`CLAIM_SECONDS`; PostgreSQL's ``FOR UPDATE SKIP LOCKED`` keeps two processes off the same rows, and a dead
process's claims simply expire), delivers them off the event loop, and then: delivered, or refused for good, the row
is deleted; a temporary failure (a network error, a push service's 429 or 5xx, an SMTP 4xx) is tried again after
``30 s * 2^attempts`` (at most :data:`MAX_BACKOFF`), and dropped after :data:`MAX_ATTEMPTS` attempts; gone (the
subscription 404/410, the address refused with 550/551/553) deletes the row and forgets the subscription or
address, in the same transaction.

A row's body is JSON the deliverer reads; nothing here logs a body, a key or a secret.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.server.store.dbschema import outbox
from clubsuite.server.store.handle import Database
from clubsuite.server.tokens import new_id
from clubsuite.server.turns.dbclock import DbClock

log = logging.getLogger("clubsuite.server.turns")

CLAIM_SECONDS = 120.0
"""How long a claim holds: a process that dies with rows claimed leaves them to another this long after."""
BATCH = 32
"""Rows one round claims."""
AT_ONCE = 8
"""Rows delivered at the same time (each in a worker thread)."""
MAX_ATTEMPTS = 8
"""Attempts before a row is dropped."""
FIRST_BACKOFF = 30.0
MAX_BACKOFF = 6 * 3600.0

Kind = Literal["push", "mail"]
Result = Literal["sent", "gone", "retry", "drop", "later"]
"""Delivered; the target is gone (forget it); try again after a back-off; refused for good; or not now (the row
waits until ``Outcome.at``, no attempt counted: the player's night)."""


@dataclass(frozen=True)
class Letter:
    """One row of the outbox as its deliverer gets it."""

    id: str
    kind: Kind
    user_id: str
    target: str
    body: JsonObject
    attempts: int


@dataclass(frozen=True)
class Outcome:
    """What became of one delivery."""

    result: Result
    at: float | None = None
    """For ``later``: when to look again."""


def backoff(attempts: int) -> float:
    """Seconds before the next try, after ``attempts`` failed ones."""
    return float(min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** max(0, attempts - 1)))


def enqueue(conn: Connection, kind: Kind, user_id: str, target: str, body: JsonObject, now: float, at: float) -> str:
    """Add a row (in the caller's transaction), due at ``at``; its id."""
    made = new_id()
    conn.execute(
        insert(outbox).values(
            id=made,
            kind=kind,
            user_id=user_id,
            target=target,
            body=json.dumps(body, separators=(",", ":")),
            attempts=0,
            next_at=at,
            claimed_by=None,
            claimed_until=None,
            created_at=now,
        )
    )
    return made


Deliver = Callable[[Letter], Awaitable[Outcome]]
Gone = Callable[[Connection, Letter], None]


class Outbox:
    """The rows of every process, delivered by this one's node."""

    def __init__(self, database: Database, clock: DbClock, node: str, deliver: Deliver, gone: Gone) -> None:
        self.database = database
        self.clock = clock
        self.node = node
        self.deliver = deliver
        """Delivers one row (its blocking work off the event loop) and says what became of it."""
        self.gone = gone
        """Forgets a row's target, in the transaction that deletes the row."""

    def _claim(self, conn: Connection) -> list[Letter]:
        now = self.clock.now_in(conn)
        free = or_(outbox.c.claimed_until.is_(None), outbox.c.claimed_until < now)
        ids = [
            r.id
            for r in conn.execute(
                select(outbox.c.id)
                .where(outbox.c.next_at <= now, free)
                .order_by(outbox.c.next_at)
                .limit(BATCH)
                .with_for_update(skip_locked=True)
            )
        ]
        if not ids:
            return []
        until = now + CLAIM_SECONDS
        conn.execute(update(outbox).where(outbox.c.id.in_(ids), free).values(claimed_by=self.node, claimed_until=until))
        rows = conn.execute(
            select(outbox).where(
                outbox.c.id.in_(ids), outbox.c.claimed_by == self.node, outbox.c.claimed_until == until
            )
        ).all()
        return [Letter(r.id, r.kind, r.user_id, r.target, json.loads(r.body), r.attempts) for r in rows]

    def _settle(self, conn: Connection, letter: Letter, outcome: Outcome) -> None:
        mine = (outbox.c.id == letter.id, outbox.c.claimed_by == self.node)
        if outcome.result in ("sent", "drop"):
            conn.execute(delete(outbox).where(*mine))
        elif outcome.result == "gone":
            conn.execute(delete(outbox).where(*mine))
            self.gone(conn, letter)
        elif outcome.result == "later":
            at = outcome.at if outcome.at is not None else self.clock.now_in(conn) + FIRST_BACKOFF
            conn.execute(update(outbox).where(*mine).values(next_at=at, claimed_by=None, claimed_until=None))
        else:
            attempts = letter.attempts + 1
            if attempts >= MAX_ATTEMPTS:
                log.info("a %s reminder was dropped after %d attempts", letter.kind, attempts)
                conn.execute(delete(outbox).where(*mine))
                return
            at = self.clock.now_in(conn) + backoff(attempts)
            conn.execute(
                update(outbox).where(*mine).values(attempts=attempts, next_at=at, claimed_by=None, claimed_until=None)
            )

    async def _one(self, letter: Letter, gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                outcome = await self.deliver(letter)
            except Exception:  # a deliverer's own fault: tried again later, the process goes on
                log.exception("delivering a %s reminder failed", letter.kind)
                outcome = Outcome("retry")
            await self.database.write(lambda conn: self._settle(conn, letter, outcome))

    async def round(self) -> int:
        """Claim the due rows (one batch) and deliver them; how many were claimed."""
        letters = await self.database.write(self._claim)
        if letters:
            gate = asyncio.Semaphore(AT_ONCE)
            await asyncio.gather(*(self._one(letter, gate) for letter in letters))
        return len(letters)
