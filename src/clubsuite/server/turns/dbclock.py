"""The time turn-based clocks run by: the database's clock, so that every process and every restart read the same
time (a process's own clock may differ), plus the test clock's offset where ``clubs serve --test-clock`` asks for it.
"""

from __future__ import annotations

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import test_clock
from clubsuite.server.store.ownership import database_now


class DbClock:
    """Reads the turn clocks' time (seconds since the epoch) over one store."""

    def __init__(self, store: Store, test: bool = False) -> None:
        self.store = store
        self.test = test
        """Whether the test clock's offset is added (``--test-clock``)."""
        self._now = database_now(store.engine.dialect.name)

    def now_in(self, conn: Connection) -> float:
        """The time now, read inside the caller's transaction."""
        now = float(conn.execute(select(self._now)).scalar_one())
        if self.test:
            offset = conn.execute(select(test_clock.c.offset).where(test_clock.c.id == 1)).scalar()
            now += float(offset or 0.0)
        return now

    def now(self) -> float:
        """The time now (a store call: run it in a database worker)."""
        return self.store.reading(self.now_in)


def advance(store: Store, seconds: float) -> float:
    """Move the test clock on by ``seconds`` (``clubs admin clock --advance``); the new offset."""

    def work(conn: Connection) -> float:
        found = conn.execute(select(test_clock.c.offset).where(test_clock.c.id == 1)).scalar()
        if found is None:
            conn.execute(insert(test_clock).values(id=1, offset=seconds))
            return seconds
        offset = float(found) + seconds
        conn.execute(update(test_clock).where(test_clock.c.id == 1).values(offset=offset))
        return offset

    result: float = store.write(work)
    return result
