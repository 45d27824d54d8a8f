"""The handle the server's services reach the database through: the store and the threads its calls run in.

Every store call blocks (SQLAlchemy over SQLite or PostgreSQL), so none runs on the event loop: :meth:`Database.run`
hands it to a database worker thread and awaits it. One thread over SQLite, which takes one writer at a time;
several over PostgreSQL, where the writes of different tables go on at once. The hub of tables, the accounts, the
tournaments, club nights and puzzles are all given this one handle when the application is built, so that none of
them reaches the database through another (the community's services never through the hub of tables).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple

from sqlalchemy.engine import Connection
from sqlalchemy.sql.expression import Executable

from clubsuite.server.store.database import Store, StoredRow

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Database:
    """One store and its worker threads (as many as the store takes writers at once)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._worker = ThreadPoolExecutor(max_workers=store.writers, thread_name_prefix="clubs-db")

    async def run(self, call: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a store call (``call(*args)``) in a database worker thread, the event loop free meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, call, *args)

    async def read(self, query: Executable) -> list[StoredRow]:
        """The rows of one query (:meth:`Store.read`)."""
        return await self.run(self.store.read, query)

    async def reading(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` run on one connection, for several queries read together (:meth:`Store.reading`)."""
        found: T = await self.run(self.store.reading, work)
        return found

    async def write(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` run in one transaction (:meth:`Store.write`: one writer at a time on SQLite)."""
        made: T = await self.run(self.store.write, work)
        return made

    async def close(self) -> None:
        """Close the store in its worker thread (after the calls already handed to it), then stop the threads."""
        await self.run(self.store.close)
        self._worker.shutdown(wait=True)


class InlineDatabase(Database):
    """The same handle whose store calls run in the calling thread: for a command that does one thing at a time,
    with no event loop to keep free (no worker thread is ever started)."""

    async def run(self, call: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run ``call(*args)`` here and now."""
        return call(*args)

    async def close(self) -> None:
        """Close the store."""
        self.store.close()
