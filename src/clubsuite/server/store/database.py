"""The server's durable storage: tables, seats, matches and the action log, in SQLite or PostgreSQL.

One schema (``dbschema``, made and upgraded by the migrations when a store opens), written with SQLAlchemy Core,
serves both: SQLite by default (one file, WAL journal, no set-up) and PostgreSQL through a ``postgresql://`` URL.
The action log is the truth: a table's match in progress is rebuilt by replaying its actions on the match's seed,
so an action is committed before anyone hears of it, and a finished match's record is stored in the same commit as
its last action.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar, cast

from sqlalchemy import bindparam, create_engine, event, func, insert, select, update
from sqlalchemy.engine import Connection, Engine, Row, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection
from sqlalchemy.sql import ColumnElement, Select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import Executable

from clubsuite.jsonform import JsonObject
from clubsuite.server.store import migrate
from clubsuite.server.store.dbschema import SeatKind, actions, leavers, matches, seats, tables, turn_tables, users

T = TypeVar("T")

StoredRow = Row[*tuple[Any, ...]]
"""A row read from the store. The schema is SQLAlchemy Core tables, whose columns SQLAlchemy types as Any, so a row's
fields are whatever its columns hold: each reader names the fields it reads, and the rows the server keeps in memory
are made into dataclasses (:class:`TableRow`, :class:`SeatRow` and the rest) as soon as they are read."""

DriverParameters = tuple[object, ...] | dict[str, object]
"""The parameters of a compiled statement as the database driver takes them: in order, or by name."""

POSTGRES_WRITERS = 8
"""Database threads of a process over PostgreSQL: a write waits mostly on the network and the server, so several
tables' writes go on at once (SQLite has one)."""


class StoreError(Exception):
    """The database cannot be used or refused a write; the message names what (never a password)."""


class StaleWriteError(StoreError):
    """An action's place in the log is taken or skipped: another write came first, or the caller is out of date."""


class UnknownTableError(StoreError):
    """No such table in the database."""


class LeaseLostError(StaleWriteError):
    """A write about a table this process no longer owns: another process took it over (see ``ownership``)."""


class SharedSqliteError(StoreError):
    """A second server process on a SQLite database that another process serves."""


@dataclass(frozen=True)
class TableRow:
    """A table: its rules spec, house rules, invite code and the number of its match in progress."""

    id: str
    game: str
    settings: JsonObject
    invite: str
    created_at: float
    match_no: int
    closed: bool


@dataclass(frozen=True)
class SeatRow:
    """A seat: a person's (with its display name and token hash once taken) or a bot's."""

    seat: int
    kind: SeatKind
    bot: str | None
    name: str | None
    token_hash: str | None
    user_id: str | None = None
    """The account that holds the seat (None: a guest's, a free seat or a bot's)."""


@dataclass(frozen=True)
class MatchRow:
    """A match of a table: its seed, and its record once finished."""

    match_no: int
    seed: int
    started_at: float
    finished_at: float | None
    record: str | None


@dataclass(frozen=True)
class ActionRow:
    """One accepted action, in notation, with who made it and how (``seat``, ``bot``, ``takeover``, ``clock``)."""

    seq: int
    seat: int
    action: str
    source: str
    at: float


class AtOnce(NamedTuple):
    """The outcome of an action's write made at once (:meth:`Store.append_at_once`): None, written; else why not."""

    error: StoreError | None


class Appended(NamedTuple):
    """An action to append to a match's log (:meth:`Store.append_group`)."""

    table_id: str
    match_no: int
    row: ActionRow


class Fencing(Protocol):
    """What the store asks of this process's leases (``ownership.Ownership``): to fence a write about a table, and
    to own a table it stores."""

    def hold(self, table_id: str, epoch: int) -> None:
        """Note a table as held, once the transaction that took it is committed."""

    def guard(self) -> ColumnElement[bool]:
        """A condition, for a write's own statement (built once), that this process still holds a table's lease
        (locking the lease row shared, as :meth:`check` does); its values come from :meth:`guard_values`."""

    def guard_values(self, table_id: str) -> dict[str, object]:
        """The values of :meth:`guard`'s condition for ``table_id``; raises :class:`LeaseLostError` when this process
        does not hold it at all."""

    def check(self, conn: Connection, table_id: str) -> None:
        """Refuse (:class:`LeaseLostError`) a write about a table this process does not hold."""

    def claim_new(self, conn: Connection, table_id: str) -> None:
        """Own a new table, in the transaction that stores it."""


class Prepared:
    """A statement compiled once for one database, run with each call's values (``exec_driver_sql``): what SQLAlchemy
    would otherwise rebuild and look up in its cache at every call of a hot write."""

    def __init__(self, compiled: SQLCompiler) -> None:
        self.compiled = compiled
        self.sql = str(compiled)
        self.order: list[str] | None = list(compiled.positiontup or ()) if compiled.positional else None
        """The names of the positional parameters in their order (``?`` in SQLite), or None where they are named."""
        given = {bind.key for bind in compiled.binds.values() if bind.required}
        every = compiled.construct_params(dict.fromkeys(given)) or {}
        self.constants = {name: value for name, value in every.items() if name not in given}
        """The values the statement binds itself (a limit, a constant), worked out once."""

    def parameters(self, values: dict[str, object]) -> DriverParameters:
        """The driver's parameters for ``values`` (every parameter the statement binds, its constants included)."""
        every = {**self.constants, **values}
        return tuple(every[name] for name in self.order) if self.order is not None else every


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cursor.execute("PRAGMA synchronous=NORMAL")  # with WAL: a committed write survives a killed process
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    """The tables of one server in one database (``sqlite:///FILE`` or ``postgresql://...``)."""

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise StoreError(f"{url!r} is not a database URL: expected sqlite:///FILE or postgresql://...") from None
        self.url_for_display = parsed.render_as_string(hide_password=True)
        backend = parsed.get_backend_name()
        if backend == "postgresql" and parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        elif backend not in ("sqlite", "postgresql"):
            raise StoreError(f"{self.url_for_display}: the server stores its tables in SQLite or PostgreSQL only")
        self._writers = threading.Lock()
        self._lock: contextlib.AbstractContextManager[object] = (
            self._writers if backend == "sqlite" else contextlib.nullcontext()
        )
        """SQLite takes one writer at a time (this process's threads take turns); PostgreSQL takes many at once."""
        self._hot: PoolProxiedConnection | None = None
        """SQLite: the pooled connection the actions' writes go through, checked out once and kept (see
        :meth:`append_group`); None until the first, and on PostgreSQL."""
        self._at_once: PoolProxiedConnection | None = None
        """SQLite: the pooled connection of the writes made at once on the caller's thread (:meth:`append_at_once`),
        checked out once and kept, which never waits for a lock; None until the first, and on PostgreSQL."""
        self._closed = False
        """Whether :meth:`close` was called (no write is then made at once)."""
        self._prepared_append: tuple[bool, Prepared] | None = None
        """:meth:`_append`'s compiled statement, and whether it is fenced (built at the first action)."""
        self.ownership: Fencing | None = None
        """This process's leases, where the server runs with them: every write about a table is then fenced by the
        table's lease (``ownership``). None: no fencing (tools, and tests of the store alone)."""
        try:
            if backend == "sqlite":
                self.engine: Engine = create_engine(parsed, connect_args={"check_same_thread": False})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                # A connection per database thread and a few for the rest, kept open: a PostgreSQL connection is a
                # process of the server, slow to start, so none is opened and closed per write.
                self.engine = create_engine(parsed, pool_size=POSTGRES_WRITERS + 4, max_overflow=8, pool_recycle=600)
            migrate.upgrade(self.engine)  # the schema is made and kept current by its migrations
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"cannot open the database {self.url_for_display}: {type(exc).__name__}") from None

    @classmethod
    def in_directory(cls, path: Path | str) -> Store:
        """The default store: ``clubs.sqlite3`` in ``path`` (made when missing)."""
        folder = Path(path)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot make the data directory {str(folder)!r}: {exc.strerror}") from None
        return cls(f"sqlite:///{folder.resolve() / 'clubs.sqlite3'}")

    def close(self) -> None:
        """Close every connection."""
        with self._lock:
            self._closed = True
            if self._hot is not None:
                self._hot.close()  # back to the pool, which closes it with the rest
            if self._at_once is not None:
                self._at_once.invalidate()  # closed, never back to the pool: it never waits for a lock
            self._hot = self._at_once = None
        self.engine.dispose()

    @property
    def writers(self) -> int:
        """How many threads may usefully write at once: one for SQLite, several for PostgreSQL (each write about a
        table is still one at a time, under the table's own lock)."""
        return 1 if self.engine.dialect.name == "sqlite" else POSTGRES_WRITERS

    def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in one transaction (one writer at a time on SQLite); a conflict is a
        :class:`StaleWriteError`, any other refusal a :class:`StoreError`."""
        with self._lock:
            try:
                with self.engine.begin() as conn:
                    return work(conn)
            except IntegrityError as exc:
                raise StaleWriteError(f"the write conflicts with what is stored ({type(exc.orig).__name__})") from None
            except SQLAlchemyError as exc:
                raise StoreError(f"the database refused the write: {type(exc).__name__}") from None

    def read(self, query: Executable) -> list[StoredRow]:
        """The rows of one query."""
        try:
            with self.engine.connect() as conn:
                return list(conn.execute(query))
        except SQLAlchemyError as exc:
            raise StoreError(f"the database could not be read: {type(exc).__name__}") from None

    def reading(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` on one connection, for several queries that are read together."""
        try:
            with self.engine.connect() as conn:
                return work(conn)
        except SQLAlchemyError as exc:
            raise StoreError(f"the database could not be read: {type(exc).__name__}") from None

    def _fence(self, conn: Connection, table_id: str) -> None:
        """Refuse a write about a table this process does not own (where it runs with leases)."""
        if self.ownership is not None:
            self.ownership.check(conn, table_id)

    # -- tables ---------------------------------------------------------------------------------------------
    def create_table(self, table: TableRow, seat_rows: Sequence[SeatRow], first_match: MatchRow) -> None:
        """Store a new table with its seats and its first match, all or nothing (owned by this process, where it
        runs with leases)."""

        def work(conn: Connection) -> None:
            conn.execute(insert(tables).values(_table_values(table)))
            for s in seat_rows:
                conn.execute(insert(seats).values(table_id=table.id, **_seat_values(s)))
            conn.execute(insert(matches).values(table_id=table.id, **_match_values(first_match)))
            if self.ownership is not None:
                self.ownership.claim_new(conn, table.id)

        self.write(work)
        if self.ownership is not None:
            self.ownership.hold(table.id, 1)

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or None."""
        rows = self.read(select(tables).where(tables.c.id == table_id))
        return _table_row(rows[0]) if rows else None

    def table_by_invite(self, code: str) -> TableRow | None:
        """The table an invite code opens, or None."""
        rows = self.read(select(tables).where(tables.c.invite == code))
        return _table_row(rows[0]) if rows else None

    def tables(self, include_closed: bool = False) -> list[TableRow]:
        """Every table (open ones only, unless ``include_closed``), oldest first."""
        query = select(tables).order_by(tables.c.created_at, tables.c.id)
        if not include_closed:
            query = query.where(tables.c.closed.is_(False), tables.c.id.not_in(parked_tables()))
        return [_table_row(r) for r in self.read(query)]

    def park(self, table_id: str, parked: bool) -> None:
        """Mark a turn-based table parked (held in no process's memory: started by nobody, taken over by nobody,
        woken by a request about it or by its clock) or woken."""

        def work(conn: Connection) -> None:
            if parked:
                self._fence(conn, table_id)
            conn.execute(update(turn_tables).where(turn_tables.c.table_id == table_id).values(parked=parked))

        self.write(work)

    def close_table(self, table_id: str) -> None:
        """Mark a table closed (kept, no longer served)."""

        def work(conn: Connection) -> None:
            self._fence(conn, table_id)
            conn.execute(update(tables).where(tables.c.id == table_id).values(closed=True))

        self.write(work)

    # -- seats ----------------------------------------------------------------------------------------------
    def seats(self, table_id: str) -> list[SeatRow]:
        """The seats of a table, by number."""
        rows = self.read(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
        return [SeatRow(r.seat, SeatKind(r.kind), r.bot, r.name, r.token_hash, r.user_id) for r in rows]

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store a seat's new state (taken, given up)."""

        def work(conn: Connection) -> None:
            self._fence(conn, table_id)
            done = conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat.seat)
                .values(**_seat_values(seat))
            )
            if done.rowcount != 1:
                raise UnknownTableError(f"table {table_id!r} has no seat {seat.seat}")

        self.write(work)

    def seat_by_token_hash(self, token_hash: str) -> tuple[str, int] | None:
        """The (table, seat) a token hash holds, or None."""
        rows = self.read(select(seats.c.table_id, seats.c.seat).where(seats.c.token_hash == token_hash))
        return (rows[0].table_id, rows[0].seat) if rows else None

    # -- matches and the action log ---------------------------------------------------------------------------
    def start_match(self, table_id: str, row: MatchRow) -> None:
        """Store the table's next match and make it the one in progress."""

        def work(conn: Connection) -> None:
            self._fence(conn, table_id)
            current = conn.execute(select(tables.c.match_no).where(tables.c.id == table_id)).scalar()
            if current is None:
                raise UnknownTableError(f"there is no table {table_id!r}")
            if row.match_no != current + 1:
                raise StaleWriteError(f"table {table_id!r} is at match {current}; the next is {current + 1}")
            conn.execute(insert(matches).values(table_id=table_id, **_match_values(row)))
            conn.execute(update(tables).where(tables.c.id == table_id).values(match_no=row.match_no))

        self.write(work)

    def matches(self, table_id: str) -> list[MatchRow]:
        """The matches of a table, in order."""
        rows = self.read(select(matches).where(matches.c.table_id == table_id).order_by(matches.c.match_no))
        return [MatchRow(r.match_no, r.seed, r.started_at, r.finished_at, r.record) for r in rows]

    def append_action(
        self,
        table_id: str,
        match_no: int,
        row: ActionRow,
        finished: tuple[float, str] | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Commit one action at the end of a match's log; with ``finished`` (the time and the record's JSON), the
        match is marked finished in the same commit, and ``also`` (the match's results: history and ratings) is
        written in it too. A seq other than the next one is refused."""

        if finished is None:
            self._append(table_id, match_no, row)
            return

        def work(conn: Connection) -> None:
            self._fence(conn, table_id)
            last = conn.execute(self._last_seq(table_id, match_no)).scalar()
            count = 0 if last is None else last + 1
            if row.seq != count:
                raise StaleWriteError(
                    f"action {row.seq} of match {match_no} of table {table_id!r}: the next is {count}"
                )
            conn.execute(insert(actions).values(table_id=table_id, match_no=match_no, **_action_values(row)))
            if finished is not None:
                at, record = finished
                conn.execute(
                    update(matches)
                    .where(matches.c.table_id == table_id, matches.c.match_no == match_no)
                    .values(finished_at=at, record=record)
                )
                if also is not None:
                    also(conn)

        self.write(work)

    def finish_match(
        self, table_id: str, match_no: int, finished: tuple[float, str], also: Callable[[Connection], None]
    ) -> None:
        """Mark a match finished before its rules end it (a turn-based player lost on time), with its record (the
        time and the record's JSON) and, in the same commit, ``also`` (its results)."""

        def work(conn: Connection) -> None:
            self._fence(conn, table_id)
            at, record = finished
            conn.execute(
                update(matches)
                .where(matches.c.table_id == table_id, matches.c.match_no == match_no, matches.c.finished_at.is_(None))
                .values(finished_at=at, record=record)
            )
            also(conn)

        self.write(work)

    def _append(self, table_id: str, match_no: int, row: ActionRow) -> None:
        """An action that does not end its match (the write of almost every action): :meth:`append_group` of one."""
        outcome = self.append_group([Appended(table_id, match_no, row)])[0]
        if outcome is not None:
            raise outcome

    def append_group(self, group: Sequence[Appended]) -> list[StoreError | None]:
        """Commit the actions of several tables (none ending its match; at most one of each table) in one
        transaction, and say for each whether it was written (None) or why not (the error :meth:`append_action`
        raises). One action alone is one statement, with no transaction around it: one round trip.

        Each row is inserted by one statement, built and compiled once (:meth:`_append_statement`), only if its place
        is its log's next and, with leases, this process still holds the table's lease (read under a shared lock, as
        the fence reads it). A row that is not inserted does not stop the others; its reason is found after the
        commit. Should the database refuse the transaction itself (a conflict: another writer came first), nothing of
        it is written, and each action is tried again alone, so that one table's conflict costs no other table its
        action."""
        outcomes: list[StoreError | None] = [None] * len(group)
        runs: list[tuple[int, DriverParameters]] = []
        prepared = self._append_statement()
        for k, item in enumerate(group):
            values: dict[str, object] = {
                "table_id": item.table_id,
                "match_no": item.match_no,
                **_action_values(item.row),
            }
            try:
                if self.ownership is not None:
                    values.update(self.ownership.guard_values(item.table_id))
            except StoreError as exc:
                outcomes[k] = exc
                continue
            runs.append((k, prepared.parameters(values)))
        missed: list[int] = []
        conflict = False
        with self._lock:
            try:
                if self.engine.dialect.name == "sqlite":
                    missed = self._insert_sqlite(prepared.sql, runs)
                else:
                    with self.engine.connect() as conn:
                        if len(runs) == 1:
                            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                        with conn.begin():
                            missed = [k for k, values in runs if not conn.exec_driver_sql(prepared.sql, values).all()]
            except (IntegrityError, sqlite3.IntegrityError) as exc:
                if len(runs) == 1:
                    refused = exc.orig if isinstance(exc, IntegrityError) else exc
                    outcomes[runs[0][0]] = StaleWriteError(
                        f"the write conflicts with what is stored ({type(refused).__name__})"
                    )
                    return outcomes
                conflict = True
            except (SQLAlchemyError, sqlite3.Error) as exc:
                for k, _ in runs:
                    outcomes[k] = StoreError(f"the database refused the write: {type(exc).__name__}")
                return outcomes
        if conflict:  # nothing of the group was written: each alone
            for k, _ in runs:
                outcomes[k] = self.append_group([group[k]])[0]
            return outcomes
        for k in missed:
            outcomes[k] = self._why_not(group[k])
        return outcomes

    def _insert_sqlite(self, sql: str, runs: list[tuple[int, DriverParameters]]) -> list[int]:
        """SQLite, under the writers' lock: run the compiled insert for each of ``runs`` in one transaction on the
        kept connection (the driver's own calls: through SQLAlchemy's connection, checking a connection out, its
        transaction and its result cost four times the insert itself, at every action of every table); the
        positions whose row was not inserted. Raises the driver's error, the transaction rolled back."""
        if self._hot is None:
            self._hot = self.engine.raw_connection()  # the pool's connection: opened with the store's pragmas
        driver = self._hot.driver_connection
        assert isinstance(driver, sqlite3.Connection)  # SQLite's own driver
        try:
            missed = [k for k, values in runs if not driver.execute(sql, values).fetchall()]
            driver.commit()
        finally:  # failed part way: nothing of the group stays, and no transaction stays open
            if driver.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    driver.rollback()
        return missed

    @property
    def writes_at_once(self) -> bool:
        """Whether an action's write may be made on the caller's thread (:meth:`append_at_once`): on SQLite."""
        return self.engine.dialect.name == "sqlite"

    def append_at_once(self, item: Appended) -> AtOnce | None:
        """SQLite: write one action now, on the caller's thread (the server's event loop), where that costs less than
        handing it to the database thread and back: where no other write of this process is under way (its writers'
        lock is free) and no other process holds the database's write lock. Its outcome (None: written), or None
        where it was not tried or not written (another write under way, the database busy, the row not taken): the
        caller then hands it to the database thread as before (:meth:`append_group`), which waits as long as it must
        and says why a row was not taken. A write of SQLite in WAL mode with ``synchronous=NORMAL`` flushes nothing to
        the disk at its commit: one insert, some 80 microseconds, against a hand-off to a thread and back (two wake-ups,
        the interpreter's lock taken in turn) that cost ten times as much at the tail under load. The connection never
        waits for a lock (``busy_timeout`` 0) and never checkpoints the log (``wal_autocheckpoint`` 0: that can take
        milliseconds, and is left to :meth:`checkpoint` in the database thread)."""
        if not self.writes_at_once or not self._writers.acquire(blocking=False):
            return None
        try:
            values: dict[str, object] = {
                "table_id": item.table_id,
                "match_no": item.match_no,
                **_action_values(item.row),
            }
            try:
                if self.ownership is not None:
                    values.update(self.ownership.guard_values(item.table_id))
            except StoreError as exc:
                return AtOnce(exc)
            prepared = self._append_statement()
            driver = self._at_once_driver()
            if driver is None:
                return None
            try:
                taken = driver.execute(prepared.sql, prepared.parameters(values)).fetchall()
                driver.commit()
            except sqlite3.Error:  # busy, or refused: the database thread tries it again and says why
                return None
            finally:  # whatever stopped it, no transaction stays open on the kept connection
                if driver.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        driver.rollback()
            return AtOnce(None) if taken else None
        finally:
            self._writers.release()

    def _at_once_driver(self) -> sqlite3.Connection | None:
        """The kept connection of the writes made at once, opened and set up the first time (where that fails, None:
        the write goes to the database thread, and opening is tried again at the next); None once the store is
        closed."""
        if self._closed:
            return None
        if self._at_once is None:
            try:
                kept = self.engine.raw_connection()
            except Exception:  # a connection that cannot be had now: the database thread writes
                return None
            setup = cast("sqlite3.Connection", kept.driver_connection)
            try:
                setup.execute("PRAGMA busy_timeout=0")
                setup.execute("PRAGMA wal_autocheckpoint=0")
            except sqlite3.Error:
                kept.invalidate()  # never back to the pool half set up
                return None
            self._at_once = kept
        driver = self._at_once.driver_connection
        assert isinstance(driver, sqlite3.Connection)  # SQLite's own driver
        return driver

    def checkpoint(self) -> tuple[int, int, int] | None:
        """SQLite: copy what the write-ahead log holds into the database file, as far as no reader needs it
        (``PASSIVE``: nobody waits), so that the log does not grow while the writes made at once never checkpoint
        (:meth:`append_at_once`). Run in the database thread, without the writers' lock: a passive checkpoint and a
        write do not wait for each other. SQLite's answer: whether it was busy, the log's frames, those copied (None
        on PostgreSQL)."""
        if not self.writes_at_once:
            return None
        with self.engine.connect() as conn:
            busy, frames, copied = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        return int(busy), int(frames), int(copied)

    def _why_not(self, item: Appended) -> StoreError:
        """Why an action's row was not inserted: the table is not this process's, or its place is not the next."""

        def why(conn: Connection) -> StoreError:
            self._fence(conn, item.table_id)
            last = conn.execute(self._last_seq(item.table_id, item.match_no)).scalar()
            count = 0 if last is None else last + 1
            return StaleWriteError(
                f"action {item.row.seq} of match {item.match_no} of table {item.table_id!r}: the next is {count}"
            )

        try:
            found: StoreError = self.write(why)
        except StoreError as exc:
            return exc
        return found

    def _append_statement(self) -> Prepared:
        """:meth:`_append`'s statement, compiled for this database once (fenced when the process runs with leases):
        the action's row, inserted from a select that yields it only where its seq follows the log's last and the
        lease is this process's."""
        fenced = self.ownership is not None
        if self._prepared_append is not None and self._prepared_append[0] == fenced:
            return self._prepared_append[1]
        names = ["table_id", "match_no", "seq", "seat", "action", "source", "at"]
        last = (
            select(actions.c.seq)
            .where(actions.c.table_id == bindparam("table_id"), actions.c.match_no == bindparam("match_no"))
            .order_by(actions.c.seq.desc())
            .limit(1)
        )
        where = [func.coalesce(last.scalar_subquery(), -1) == bindparam("seq") - 1]
        if self.ownership is not None:
            where.append(self.ownership.guard())
        chosen = select(*[bindparam(n, type_=actions.c[n].type).label(n) for n in names]).where(*where)
        statement = insert(actions).from_select(names, chosen).returning(actions.c.seq)
        compiled = statement.compile(dialect=self.engine.dialect)
        assert isinstance(compiled, SQLCompiler)
        prepared = Prepared(compiled)
        self._prepared_append = (fenced, prepared)
        return prepared

    @staticmethod
    def _last_seq(table_id: str, match_no: int) -> Select[int]:
        """The log's last place, by its key (not a count of a log that grows)."""
        return (
            select(actions.c.seq)
            .where(actions.c.table_id == table_id, actions.c.match_no == match_no)
            .order_by(actions.c.seq.desc())
            .limit(1)
        )

    def add_leaver(self, table_id: str, match_no: int, seat: int, user_id: str, at: float) -> None:
        """Note that an account left a rated match before its end (it will finish last)."""

        def work(conn: Connection) -> None:
            self._fence(conn, table_id)
            conn.execute(
                insert(leavers).values(table_id=table_id, match_no=match_no, seat=seat, user_id=user_id, at=at)
            )

        self.write(work)

    def actions(self, table_id: str, match_no: int) -> list[ActionRow]:
        """The action log of a match, in order."""
        rows = self.read(
            select(actions)
            .where(actions.c.table_id == table_id, actions.c.match_no == match_no)
            .order_by(actions.c.seq)
        )
        return [ActionRow(r.seq, r.seat, r.action, r.source, r.at) for r in rows]


def _table_values(t: TableRow) -> dict[str, object]:
    return {
        "id": t.id,
        "game": t.game,
        "settings": json.dumps(t.settings, sort_keys=True),
        "invite": t.invite,
        "created_at": t.created_at,
        "match_no": t.match_no,
        "closed": t.closed,
    }


def parked_tables() -> Select[tuple[str]]:
    """The ids of the turn-based tables parked now (no process holds them; a request or a clock wakes them)."""
    return select(turn_tables.c.table_id).where(turn_tables.c.parked.is_(True))


def _table_row(r: StoredRow) -> TableRow:
    return TableRow(r.id, r.game, json.loads(r.settings), r.invite, r.created_at, r.match_no, bool(r.closed))


def _seat_values(s: SeatRow) -> dict[str, object]:
    return {
        "seat": s.seat,
        "kind": s.kind,
        "bot": s.bot,
        "name": s.name,
        "token_hash": s.token_hash,
        "user_id": s.user_id,
    }


def _match_values(m: MatchRow) -> dict[str, object]:
    return {
        "match_no": m.match_no,
        "seed": m.seed,
        "started_at": m.started_at,
        "finished_at": m.finished_at,
        "record": m.record,
    }


def _action_values(a: ActionRow) -> dict[str, object]:
    return {"seq": a.seq, "seat": a.seat, "action": a.action, "source": a.source, "at": a.at}


def lock_account(conn: Connection, user_id: str) -> None:
    """Hold the account's row until the transaction ends (PostgreSQL: ``FOR UPDATE``; SQLite writes one transaction
    at a time anyway), so that two requests of one account that count and then add (a limit per account: its
    tournaments, follows, reports) run one after the other instead of both seeing room for one more."""
    conn.execute(select(users.c.id).where(users.c.id == user_id).with_for_update())
