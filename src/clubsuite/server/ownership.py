"""Which server process owns which table, when several processes share one database.

Each process is a **node**: a name, the address the other nodes reach it at, and a heartbeat. Each open table has
at most one **owner** at a time, held by a **lease** row: the owning node, an **epoch** that grows at every change
of owner, and an expiry on the database's own clock (so that the nodes' clocks never have to agree). The owner
renews its leases every little while; a node that stops renewing (killed, paused, cut off) loses its tables once
their leases expire, and another node takes them over by rebuilding them from the action log, as at start-up.

Every write about a table (an action, a seat, a match, its closing) is **fenced**: in the write's own transaction,
the table's lease row is read and locked, and the write is refused unless this node still holds it with the epoch it
took it at (:class:`LeaseLostError`). A node that wakes from a pause after its leases were taken over therefore
cannot write a second history; the action log's key (table, match, seq) would refuse it as well. A lease that has
merely run out, not yet taken, still fences correctly: a node taking it over must lock the same row first, after
the write, and then replays the log with that write in it.

One process over SQLite is the plain case: it owns every table. SQLite cannot be shared by processes on several
machines, and is not built for several writers: a second node on a SQLite database while another is alive is
refused at start-up, naming the other and PostgreSQL.

Every method here does database work and blocks: the hub runs them in its database thread, like every store call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from clubsuite.server.dbschema import leases, nodes, tables
from clubsuite.server.store import LeaseLostError, SharedSqliteError, Store

SERVING, STOPPING, STOPPED = "serving", "stopping", "stopped"
"""A node's states: serving its tables; handing them over (still answering); gone."""


def database_now(dialect: str) -> ColumnElement[Any]:
    """The database's clock, in seconds since the epoch, as a SQL expression (leases expire by it, so the nodes'
    own clocks may differ)."""
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
        """The tables this node owns, with the epoch of each lease (changed in the database thread only)."""
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

    def renew(self) -> list[str]:
        """The heartbeat: this node is seen, and every lease it still holds lasts another ``ttl`` seconds. A lease
        that ran out is not renewed (another node may have it already, or may take it at any moment): the tables
        lost so are returned, for the hub to stop serving them."""

        def work(conn: Connection) -> list[str]:
            conn.execute(update(nodes).where(nodes.c.name == self.node).values(seen_at=self._now))
            kept = conn.execute(
                update(leases)
                .where(leases.c.node == self.node, leases.c.expires_at >= self._now)
                .values(expires_at=self._now + self.ttl)
                .returning(leases.c.table_id, leases.c.epoch)
            ).all()
            still = {r.table_id: r.epoch for r in kept}
            return [t for t, epoch in list(self.held.items()) if still.get(t) != epoch]

        lost: list[str] = self.store.write(work)
        for t in lost:
            self.held.pop(t, None)
        return lost

    def stop(self, state: str = STOPPED) -> None:
        """Hand every table over at once (its lease runs out now, so another node takes it on its next look) and
        say this node is ``state``. While ``stopping``, a write already under way still passes its fence until
        another node has taken the table (it then finds the write in the log); once ``stopped``, nothing does."""

        def work(conn: Connection) -> None:
            conn.execute(update(leases).where(leases.c.node == self.node).values(expires_at=self._now - 1))
            conn.execute(update(nodes).where(nodes.c.name == self.node).values(state=state, seen_at=self._now))

        self.store.write(work)
        if state == STOPPED:
            self.held.clear()

    # -- leases -----------------------------------------------------------------------------------------------
    def acquire(self, table_id: str) -> bool:
        """Take the table: its lease is free, ran out, or is this node's own (taken again at a restart under the same
        name, with a new epoch). False when a live owner holds it, or the table is closed or unknown."""

        def work(conn: Connection) -> int | None:
            open_ = conn.execute(select(tables.c.closed).where(tables.c.id == table_id)).first()
            if open_ is None or open_.closed:
                return None
            taken = conn.execute(
                update(leases)
                .where(
                    leases.c.table_id == table_id,
                    or_(leases.c.expires_at < self._now, leases.c.node == self.node),
                )
                .values(node=self.node, epoch=leases.c.epoch + 1, expires_at=self._now + self.ttl)
                .returning(leases.c.epoch)
            ).first()
            if taken is not None:
                return int(taken.epoch)
            if conn.execute(select(leases.c.node).where(leases.c.table_id == table_id)).first() is not None:
                return None  # a live owner holds it
            self.claim_new(conn, table_id)
            return 1

        epoch: int | None = self.store.write(work)
        if epoch is None:
            return False
        self.held[table_id] = epoch
        return True

    def claim_new(self, conn: Connection, table_id: str) -> None:
        """The first lease of a table, in the transaction that stores it (a concurrent first lease makes the write
        conflict, and the caller lose); the caller notes it as held once the transaction is committed."""
        conn.execute(insert(leases).values(table_id=table_id, node=self.node, epoch=1, expires_at=self._now + self.ttl))

    def release(self, table_ids: Iterable[str]) -> None:
        """Give tables up now (closed here, or handed over)."""
        ids = list(table_ids)
        if not ids:
            return

        def work(conn: Connection) -> None:
            conn.execute(
                update(leases)
                .where(leases.c.node == self.node, leases.c.table_id.in_(ids))
                .values(expires_at=self._now - 1)
            )
            for t in ids:
                self.held.pop(t, None)

        self.store.write(work)

    def orphans(self, limit: int) -> list[str]:
        """Open tables no live node owns (never leased, or their lease ran out), for this node to take over."""
        query = (
            select(tables.c.id)
            .select_from(tables.outerjoin(leases, leases.c.table_id == tables.c.id))
            .where(tables.c.closed.is_(False), or_(leases.c.table_id.is_(None), leases.c.expires_at < self._now))
            .order_by(func.random())
            .limit(limit)
        )
        return [r.id for r in self.store.read(query)]

    def owner(self, table_id: str) -> tuple[str, str] | None:
        """The live owner of a table, as (node, address), or None (no owner now: it is about to be taken over)."""
        query = (
            select(nodes.c.name, nodes.c.address)
            .select_from(leases.join(nodes, nodes.c.name == leases.c.node))
            .where(and_(leases.c.table_id == table_id, leases.c.expires_at >= self._now, nodes.c.state != STOPPED))
        )
        rows = self.store.read(query)
        return (rows[0].name, rows[0].address) if rows else None

    # -- fencing ----------------------------------------------------------------------------------------------
    def check(self, conn: Connection, table_id: str) -> None:
        """In a write's transaction: lock the table's lease and refuse the write unless this node holds it with the
        epoch it took (see the module docstring)."""
        held = self.held.get(table_id)
        row = conn.execute(
            select(leases.c.node, leases.c.epoch).where(leases.c.table_id == table_id).with_for_update()
        ).first()
        if held is None or row is None or row.node != self.node or row.epoch != held:
            owner = "nobody" if row is None else f"node {row.node}"
            raise LeaseLostError(
                f"table {table_id!r} is no longer this node's ({owner} holds it): the write is refused"
            )


def default_node_name(host: str, port: int) -> str:
    """A node's name when none is given: where it listens, which no two live processes of one machine share."""
    return f"{host}:{port}"
