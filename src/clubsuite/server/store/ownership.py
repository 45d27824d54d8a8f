"""Which server process owns which table, when several processes share one database.

Each process is a **node**: a name, the address the other nodes reach it at, a state (serving, stopping, stopped)
and a **heartbeat** on the database's own clock (so that the machines' clocks never have to agree), renewed every
little while. Each open table has at most one **owner** at a time, held by a **lease** row: the owning node and an
**epoch** that grows at every change of owner. A lease is good while its node is serving and its heartbeat is
fresh (no older than the lease time): one heartbeat renews every lease of a node at once, so a node's cost of
keeping its tables does not grow with their number. A node that stops beating (killed, paused, cut off) loses its
tables once its heartbeat is stale: another node takes each over, with a new epoch, by rebuilding it from the action
log as at start-up. A stopping node says so, and its tables may be taken at once.

Every write about a table (an action, a seat, a match, its closing) is **fenced**: in the write's own transaction
the table's lease row is read and locked (shared), and the write is refused unless this node still holds it with
the epoch it took it at (:class:`LeaseLostError`). A node that wakes from a pause after its tables were taken over
therefore cannot write a second history; the action log's key (table, match, seq) would refuse it as well. A lease
whose node went stale but that nobody has taken yet still fences correctly: a node taking it over must update the
same row, so it waits for the write and then replays the log with the write in it.

One process over SQLite is the plain case: it owns every table. SQLite cannot be shared by processes on several
machines, and is not built for several writers: a second node on a SQLite database while another is alive is
refused at start-up, naming the other and PostgreSQL.

Every method here does database work and blocks: the hub runs them in its database threads, like every store call.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnElement

from clubsuite.server.store.database import LeaseLostError, SharedSqliteError, Store, parked_tables
from clubsuite.server.store.dbschema import leases, nodes, tables

SERVING, STOPPING, STOPPED = "serving", "stopping", "stopped"
"""A node's states: serving its tables; handing them over (still answering); gone."""


@dataclass(frozen=True)
class Claim:
    """What an attempt to take a table came to (:meth:`Ownership.claim`): the ``epoch`` this node now holds it at;
    or else the live ``owner`` that holds it, as (node, address); or neither (the table is closed or unknown)."""

    epoch: int | None = None
    owner: tuple[str, str] | None = None


def database_now(dialect: str) -> ColumnElement[Any]:
    """The database's clock, in seconds since the epoch, as a SQL expression (leases expire by it, so the nodes'
    own clocks may differ). Any: SQLAlchemy types PostgreSQL's ``extract`` one way and SQLite's arithmetic another,
    and the expression is only compared with numbers in SQL."""
    if dialect == "postgresql":
        return func.extract("epoch", func.clock_timestamp())
    return (func.julianday("now") - 2440587.5) * 86400.0


class Ownership:
    """This node's name, address and leases over one store (see the module docstring)."""

    def __init__(self, store: Store, node: str, address: str, lease_seconds: float) -> None:
        self.store = store
        self.node = node
        self.address = address
        self.ttl = lease_seconds
        self.held: dict[str, int] = {}
        """The tables this node owns, with the epoch of each lease (changed in the database threads, under
        ``_held_lock``)."""
        self._held_lock = threading.Lock()
        self.sqlite = store.engine.dialect.name == "sqlite"
        self._now = database_now(store.engine.dialect.name)

    # -- the node ---------------------------------------------------------------------------------------------
    def register(self) -> None:
        """Say this node serves (its address, its heartbeat). Over SQLite, refuse when another node is alive on the
        same database: several processes need PostgreSQL."""

        def work(conn: Connection) -> None:
            now = conn.execute(select(self._now)).scalar_one()
            if self.sqlite:
                other = conn.execute(
                    select(nodes.c.name, nodes.c.address).where(
                        nodes.c.name != self.node, nodes.c.state != STOPPED, nodes.c.seen_at > now - 2 * self.ttl
                    )
                ).first()
                if other is not None:
                    raise SharedSqliteError(
                        f"another server process ({other.name}, at {other.address}) is serving this SQLite database:"
                        " several processes need PostgreSQL (--db postgresql://USER@HOST/NAME)"
                    )
            conn.execute(delete(nodes).where(nodes.c.name == self.node))
            conn.execute(
                insert(nodes).values(name=self.node, address=self.address, started_at=now, seen_at=now, state=SERVING)
            )

        self.store.write(work)

    def _live(self) -> Select[str]:
        """The names of the nodes whose leases are good now: serving, with a fresh heartbeat."""
        return select(nodes.c.name).where(nodes.c.state == SERVING, nodes.c.seen_at >= self._now - self.ttl)

    def renew(self) -> list[str]:
        """The heartbeat: this node is seen, which keeps every lease it holds good for another ``ttl`` seconds.
        Tables another node took over while this one was not seen (a pause longer than the lease) are returned,
        for the hub to stop serving them."""

        def work(conn: Connection) -> list[str]:
            # The tables held before the leases are read: a table taken (committed, then held) while this
            # transaction reads is not in what it read, and must not be taken for lost (it was, once: a table made
            # at one process was dropped two milliseconds later as "moving to another server").
            with self._held_lock:
                before = dict(self.held)
            conn.execute(
                update(nodes).where(nodes.c.name == self.node, nodes.c.state == SERVING).values(seen_at=self._now)
            )
            mine = conn.execute(select(leases.c.table_id, leases.c.epoch).where(leases.c.node == self.node)).all()
            still = {r.table_id: r.epoch for r in mine}
            return [t for t, epoch in before.items() if still.get(t) != epoch]

        lost: list[str] = self.store.write(work)
        with self._held_lock:
            for t in lost:
                self.held.pop(t, None)
        return lost

    def stop(self, state: str = STOPPED) -> None:
        """Say this node is ``state``: its tables may be taken at once by another node. While ``stopping``, a write
        already under way still passes its fence until another node has taken the table (it then finds the write in
        the log); once ``stopped``, nothing does."""

        def work(conn: Connection) -> None:
            conn.execute(update(nodes).where(nodes.c.name == self.node).values(state=state, seen_at=self._now))

        self.store.write(work)
        if state == STOPPED:
            with self._held_lock:
                self.held.clear()

    # -- leases -----------------------------------------------------------------------------------------------
    def acquire(self, table_id: str) -> bool:
        """Take the table (:meth:`claim`): True when this node now holds it."""
        return self.claim(table_id).epoch is not None

    def claim(self, table_id: str) -> Claim:
        """Take the table: nobody holds it, its owner is no longer live (stale, stopping or stopped), or it is this
        node's own (taken again at a restart under the same name), with a new epoch each time. Where a live owner
        holds it, that owner, read in the same transaction: a caller that found no live owner a moment before (the
        owner's heartbeat was late, then came) learns where the table is instead of taking it for unknown. Neither
        where the table is closed or unknown."""

        def work(conn: Connection) -> Claim:
            open_ = conn.execute(select(tables.c.closed).where(tables.c.id == table_id)).first()
            if open_ is None or open_.closed:
                return Claim()
            taken = conn.execute(
                update(leases)
                .where(
                    leases.c.table_id == table_id,
                    or_(leases.c.node == self.node, leases.c.node.not_in(self._live())),
                )
                .values(node=self.node, epoch=leases.c.epoch + 1)
                .returning(leases.c.epoch)
            ).first()
            if taken is not None:
                return Claim(epoch=int(taken.epoch))
            holder = conn.execute(
                select(nodes.c.name, nodes.c.address)
                .select_from(leases.join(nodes, nodes.c.name == leases.c.node))
                .where(leases.c.table_id == table_id)
            ).first()
            if holder is not None:
                return Claim(owner=(holder.name, holder.address))  # the update passed it by: a live owner holds it
            self.claim_new(conn, table_id)  # never leased
            return Claim(epoch=1)

        claim: Claim = self.store.write(work)
        if claim.epoch is not None:
            self.hold(table_id, claim.epoch)
        return claim

    def hold(self, table_id: str, epoch: int) -> None:
        """Note a table as held with that epoch, once the transaction that took it is committed."""
        with self._held_lock:
            self.held[table_id] = epoch

    def claim_new(self, conn: Connection, table_id: str) -> None:
        """The first lease of a table, in the transaction that stores it (a concurrent first lease makes the write
        conflict, and the caller lose); the caller notes it as held once the transaction is committed."""
        conn.execute(insert(leases).values(table_id=table_id, node=self.node, epoch=1))

    def release(self, table_ids: Iterable[str]) -> None:
        """Give tables up (closed here): their leases go."""
        ids = list(table_ids)
        if not ids:
            return

        def work(conn: Connection) -> None:
            conn.execute(delete(leases).where(leases.c.node == self.node, leases.c.table_id.in_(ids)))

        self.store.write(work)
        with self._held_lock:
            for t in ids:
                self.held.pop(t, None)

    def orphans(self, limit: int) -> list[str]:
        """Open tables no live node owns (never leased, or their owner is stale, stopping or stopped), for this node
        to take over."""
        query = (
            select(tables.c.id)
            .select_from(tables.outerjoin(leases, leases.c.table_id == tables.c.id))
            .where(
                tables.c.closed.is_(False),
                tables.c.id.not_in(parked_tables()),  # a parked turn-based table waits for a request or its clock
                or_(leases.c.table_id.is_(None), leases.c.node.not_in(self._live())),
            )
            .order_by(func.random())
            .limit(limit)
        )
        return [r.id for r in self.store.read(query)]

    def owner(self, table_id: str) -> tuple[str, str] | None:
        """The live owner of a table, as (node, address), or None (no live owner: it is about to be taken over)."""
        query = (
            select(nodes.c.name, nodes.c.address)
            .select_from(leases.join(nodes, nodes.c.name == leases.c.node))
            .where(
                and_(
                    leases.c.table_id == table_id,
                    nodes.c.state == SERVING,
                    nodes.c.seen_at >= self._now - self.ttl,
                )
            )
        )
        rows = self.store.read(query)
        return (rows[0].name, rows[0].address) if rows else None

    # -- fencing ----------------------------------------------------------------------------------------------
    @staticmethod
    def guard() -> ColumnElement[bool]:
        """The fence as a condition of a write's own statement, built once: the lease row still names this node
        with the epoch it took the table at (read under a shared lock, so a node taking the table over waits for
        the write). Its values are bound at each write by :meth:`guard_values`."""
        own = (
            select(leases.c.table_id)
            .where(
                leases.c.table_id == bindparam("lease_table"),
                leases.c.node == bindparam("lease_node"),
                leases.c.epoch == bindparam("lease_epoch"),
            )
            .with_for_update(read=True)
        )
        return own.exists()

    def guard_values(self, table_id: str) -> dict[str, object]:
        """The values :meth:`guard`'s condition is run with for ``table_id``; raises :class:`LeaseLostError` when this
        node does not hold the table at all."""
        with self._held_lock:
            held = self.held.get(table_id)
        if held is None:
            raise LeaseLostError(f"table {table_id!r} is no longer this node's: the write is refused")
        return {"lease_table": table_id, "lease_node": self.node, "lease_epoch": held}

    def check(self, conn: Connection, table_id: str) -> None:
        """In a write's transaction: lock the table's lease and refuse the write unless this node holds it with the
        epoch it took (see the module docstring)."""
        held = self.held.get(table_id)
        row = conn.execute(
            select(leases.c.node, leases.c.epoch).where(leases.c.table_id == table_id).with_for_update(read=True)
        ).first()
        if held is None or row is None or row.node != self.node or row.epoch != held:
            owner = "nobody" if row is None else f"node {row.node}"
            raise LeaseLostError(
                f"table {table_id!r} is no longer this node's ({owner} holds it): the write is refused"
            )


def default_node_name(host: str, port: int) -> str:
    """A node's name when none is given: where it listens, which no two live processes of one machine share."""
    return f"{host}:{port}"
