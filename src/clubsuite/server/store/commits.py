"""Group commit: the ordinary actions of every table of a process are written to the database in groups, one
transaction each, and each table hears that its action is durable only once its group is committed.

How a group forms: there is no waiting on a timer. An action that finds no write under way is written at once; while
a write is under way, the actions that arrive join the next group, which goes as soon as it ends (everything
waiting, up to :data:`MOST`). So a quiet
server writes each action alone (no added latency), and a busy one writes as many actions per commit as arrived in
the time of one commit (a few milliseconds): the fixed cost of a write (a hand-off to the database thread, a
connection from the pool, a commit, on PostgreSQL a flush of its log to the disk) is paid once per group instead of
once per action.

On SQLite an action that finds no write under way is first written at once, on the event loop
(:meth:`~clubsuite.server.store.database.Store.append_at_once`: one insert that flushes nothing to the disk, cheaper
than the hand-off to the database thread and back, whose waits made most of an action's tail under load); where
another write of the process is under way, the database is busy or the row was not taken, it goes to the database
thread as above. The log is then checkpointed in the database thread every :data:`CHECKPOINT_EVERY` such writes.

The guarantees of one action's write stay those of :meth:`~clubsuite.server.store.database.Store.append_group`: each
row is
fenced by its table's lease and its place in the log, a row that cannot be written fails alone, and a table's action
is told to nobody before its group is committed (:meth:`~clubsuite.server.table.live.LiveTable.apply` awaits
:meth:`GroupCommit.append` under the table's lock, so at most one action of a table is in a group).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from clubsuite.server.store.database import ActionRow, Appended, Store, StoreError

log = logging.getLogger(__name__)

MOST = 64
"""The most actions one transaction writes (a larger backlog goes in several, one after the other)."""
CHECKPOINT_EVERY = 1000
"""After this many writes made at once (SQLite), the database thread checkpoints the write-ahead log."""

Db = Callable[..., Awaitable[Any]]
"""Runs a store call in the database worker: ``await db(store.method, *args)``."""


class GroupCommit:
    """The actions waiting to be written, and who writes them (see the module docstring).

    An action that finds no write under way is written at once by its own caller, alone (as cheap as a write without
    groups: no task, no queue); the actions that arrive meanwhile wait, and when that write ends one task writes
    them, group after group, until none waits."""

    def __init__(self, store: Store, db: Db, most: int = MOST, at_once: bool = False) -> None:
        self.store, self.db, self.most = store, db, most
        self.at_once = at_once
        """Whether an action that finds no write under way is first tried at once, on the event loop
        (:meth:`Store.append_at_once`: SQLite), and handed to the database thread only where that was not done."""
        self.checkpoint_every = CHECKPOINT_EVERY
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None
        self._waiting: list[tuple[Appended, asyncio.Future[None]]] = []
        self._writing = False
        """Whether a write is under way (an action that arrives then waits for the next group)."""
        self._drainer: asyncio.Task[None] | None = None
        self.groups = 0
        """Groups written so far (with :attr:`actions`, the mean size of a group)."""
        self.actions = 0
        """Actions written so far, in every group."""

    async def append(self, table_id: str, match_no: int, row: ActionRow) -> None:
        """Write ``row`` at the end of the match's log (at once, or with the next group while a write is under way);
        returns once it is committed, raises the :class:`StoreError` of its own write when it was not written."""
        item = Appended(table_id, match_no, row)
        if self.at_once and not self._writing:
            done = self.store.append_at_once(item)
            if done is not None:
                self._written_at_once()
                if done.error is not None:
                    raise done.error
                return
        if self._writing:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append((item, future))
            await future
            return
        self._writing = True
        try:
            (outcome,) = await self._write([item])
        finally:
            self._next()
        if outcome is not None:
            raise outcome

    def _written_at_once(self) -> None:
        """One write made at once: counted, and every :attr:`checkpoint_every` of them the log checkpointed in the
        database thread (one at a time; a failure is the next one's to mend)."""
        self.groups += 1
        self.actions += 1
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.checkpoint_every and (
            self._checkpointing is None or self._checkpointing.done()
        ):
            self._since_checkpoint = 0
            self._checkpointing = asyncio.create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await self.db(self.store.checkpoint)
        except Exception:  # the next one tries again; said, so that a log that keeps growing is seen
            log.warning("the write-ahead log could not be checkpointed", exc_info=True)

    def _next(self) -> None:
        """A write ended: the actions that arrived meanwhile go next, as groups, or nothing is under way any more."""
        if self._waiting:
            self._drainer = asyncio.create_task(self._drain())
        else:
            self._writing = False

    async def _write(self, group: list[Appended]) -> list[StoreError | None]:
        """One group in one transaction, in the database thread: each action's outcome."""
        try:
            outcomes: list[StoreError | None] = await self.db(self.store.append_group, group)
        except Exception as exc:  # the store answers with its own errors; anything else fails the group
            outcomes = [StoreError(f"the write failed: {type(exc).__name__}") for _ in group]
        self.groups += 1
        self.actions += len(group)
        return outcomes

    async def _drain(self) -> None:
        """Write the waiting actions group by group until none waits."""
        group: list[tuple[Appended, asyncio.Future[None]]] = []
        try:
            while self._waiting:
                group, self._waiting = self._waiting[: self.most], self._waiting[self.most :]
                outcomes = await self._write([item for item, _ in group])
                for (_, future), outcome in zip(group, outcomes, strict=True):
                    if future.done():
                        continue
                    if outcome is None:
                        future.set_result(None)
                    else:
                        future.set_exception(outcome)
                group = []
        finally:  # cancelled (the server is stopping): nobody waits for ever on a write that will not be reported
            for _, future in group + self._waiting:
                if not future.done():
                    future.set_exception(StoreError("the server is stopping: the write was not confirmed"))
            self._waiting = []
            self._writing = False

    async def close(self) -> None:
        """Let the groups waiting be written (the server is stopping)."""
        for task in (self._drainer, self._checkpointing):
            if task is not None:
                with contextlib.suppress(Exception):
                    await task
