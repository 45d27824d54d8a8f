"""Table ownership by lease (``server/store/ownership.py``), on both back ends: one owner at a time, a lapsed lease
taken
over with a new epoch, and every write about a table fenced by its lease, so that an owner that lost its table (a
paused process waking after another took over) can write nothing: no second history."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import in_own_loop
from sqlalchemy import delete, insert, update

from clubsuite.server.http.forwarding import Forwarder, Peers
from clubsuite.server.limits import ServerLimits
from clubsuite.server.store.database import (
    ActionRow,
    LeaseLostError,
    MatchRow,
    SeatRow,
    SharedSqliteError,
    StaleWriteError,
    Store,
    TableRow,
)
from clubsuite.server.store.dbschema import nodes
from clubsuite.server.store.handle import Database
from clubsuite.server.store.ownership import SERVING, STOPPING, Claim, Ownership
from clubsuite.server.table.hub import Hub

TTL = 120.0
"""A lease that never runs out by itself during a test, however slow the machine: the tests make leases lapse
(:func:`_lapse`), so that nothing depends on timing."""


@pytest.fixture
def stores(database_url: str) -> Iterator[tuple[Store, Store]]:
    """Two processes' stores over one database (two engines, as two processes have)."""
    a, b = Store(database_url), Store(database_url)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _own(store: Store, node: str) -> Ownership:
    """A node's ownership over ``store``, its node row written directly (over SQLite, :meth:`Ownership.register`
    refuses a second live node: what is tested here is the leases)."""
    ownership = Ownership(store, node, f"http://{node}", TTL)
    store.ownership = ownership
    store.write(lambda conn: conn.execute(delete(nodes).where(nodes.c.name == node)))
    store.write(
        lambda conn: conn.execute(
            insert(nodes).values(name=node, address=f"http://{node}", started_at=0.0, seen_at=ALIVE, state=SERVING)
        )
    )
    return ownership


def _table(store: Store, table_id: str = "t1") -> None:
    row = TableRow(table_id, "whist", {"public": True}, f"invite-{table_id}", 1.0, 0, False)
    store.create_table(row, [SeatRow(0, "person", "random", None, None)], MatchRow(0, 7, 1.0, None, None))


def _act(store: Store, seq: int, text: str = "keep", table_id: str = "t1") -> None:
    store.append_action(table_id, 0, ActionRow(seq, 0, text, "seat", 2.0 + seq))


ALIVE = 1e12
"""A heartbeat far ahead of any clock: a node of these tests stays live until :func:`_lapse` says otherwise."""


def _lapse(store: Store, node: str = "a") -> None:
    """The node's heartbeat is stale now (as when it stopped beating: killed, paused or cut off), and so are the
    leases it holds."""
    store.write(lambda conn: conn.execute(update(nodes).where(nodes.c.name == node).values(seen_at=0.0)))


def test_a_table_made_by_a_process_is_its_own_and_nobody_else_may_take_it_while_it_lives(
    stores: tuple[Store, Store],
) -> None:
    a, b = stores
    first, second = _own(a, "a"), _own(b, "b")
    _table(a)
    assert first.held == {"t1": 1}
    assert second.acquire("t1") is False
    assert second.owner("t1") == ("a", "http://a")
    assert first.renew() == []  # renewed: still held


def test_a_lapsed_lease_is_taken_over_with_a_new_epoch_and_the_old_owner_learns_it_lost_the_table(
    stores: tuple[Store, Store],
) -> None:
    a, b = stores
    first, second = _own(a, "a"), _own(b, "b")
    _table(a)
    _lapse(a)
    assert second.owner("t1") is None  # nobody owns it now: it is about to be taken over
    assert "t1" in second.orphans(10)
    assert second.acquire("t1") is True
    assert second.held == {"t1": 2}
    assert second.owner("t1") == ("b", "http://b")
    assert first.renew() == ["t1"]
    assert first.held == {}


def test_a_paused_owner_waking_after_its_table_was_taken_over_cannot_write_a_second_history(
    stores: tuple[Store, Store],
) -> None:
    """Split brain: the old owner still has the table in memory and tries its next action; the write is refused by
    the lease before the log is touched, and the log holds the new owner's history only."""
    a, b = stores
    _own(a, "a")
    second = _own(b, "b")
    _table(a)
    _act(a, 0, "keep")
    _lapse(a)
    assert second.acquire("t1")
    _act(b, 1, "exchange")
    with pytest.raises(LeaseLostError, match="no longer this node's"):
        _act(a, 1, "keep")
    with pytest.raises(LeaseLostError):
        _act(a, 2, "keep")  # the next place in the log, too: the fence, not the key, refuses it
    assert [(r.seq, r.action) for r in b.actions("t1", 0)] == [(0, "keep"), (1, "exchange")]
    with pytest.raises(LeaseLostError):
        a.update_seat("t1", SeatRow(0, "person", "random", "Mallory", "h"))
    assert b.seats("t1")[0].name is None


def test_a_lapsed_lease_nobody_took_still_fences_correctly_and_the_log_key_refuses_a_second_writer(
    stores: tuple[Store, Store],
) -> None:
    """A lease that merely ran out lets its owner write (the write locks the lease row, so a taker comes after it
    and replays the log with the write in it); two writers of one place in the log cannot both succeed."""
    a, b = stores
    _own(a, "a")
    _own(b, "b")
    _table(a)
    _lapse(a)
    _act(a, 0, "keep")
    assert [r.seq for r in b.actions("t1", 0)] == [0]
    b.ownership = None  # a writer that bypasses the leases still meets the log's key
    with pytest.raises(StaleWriteError):
        _act(b, 0, "exchange")


def test_a_restarted_process_takes_its_own_tables_back_at_once_with_a_new_epoch(stores: tuple[Store, Store]) -> None:
    a, b = stores
    _own(a, "a")
    _table(a)
    again = _own(b, "a")  # the same node name, as after a restart on the same address
    assert again.acquire("t1") is True
    assert again.held == {"t1": 2}


def test_a_stopping_process_hands_its_tables_over_at_once_and_its_late_writes_go_in_until_they_are_taken(
    stores: tuple[Store, Store],
) -> None:
    """Handing over (``stopping``): another process may take the table at once, without waiting for the lease to
    run out; an action already under way at the old owner is still written until then (the new owner replays it),
    and refused once the table is taken."""
    a, b = stores
    first, second = _own(a, "a"), _own(b, "b")
    _table(a)
    first.stop(STOPPING)
    _act(a, 0, "keep")
    assert second.acquire("t1") is True
    assert [r.action for r in b.actions("t1", 0)] == ["keep"]
    with pytest.raises(LeaseLostError):
        _act(a, 1, "keep")
    first.stop()
    assert first.held == {}


def test_a_closed_table_is_nobody_s_to_take(stores: tuple[Store, Store]) -> None:
    a, b = stores
    first, second = _own(a, "a"), _own(b, "b")
    _table(a)
    a.close_table("t1")
    first.stop()
    assert "t1" not in second.orphans(10)
    assert second.acquire("t1") is False


def test_a_take_over_that_finds_a_live_owner_names_it_and_one_of_a_closed_table_finds_nothing(
    stores: tuple[Store, Store],
) -> None:
    a, b = stores
    first, second = _own(a, "a"), _own(b, "b")
    _table(a)
    assert second.claim("t1") == Claim(owner=("a", "http://a"))
    _lapse(a)
    assert second.claim("t1") == Claim(epoch=2)
    assert second.claim("nonesuch") == Claim()
    assert first.renew() == ["t1"]


def test_a_table_whose_owner_beat_late_is_passed_to_that_owner_and_never_answered_unknown(
    stores: tuple[Store, Store],
) -> None:
    """A table just made at one process, asked for at another while the owner's heartbeat is late: the other process
    reads no live owner, then, before it can take the table, the owner's heartbeat comes. The take-over's own
    transaction names the owner, and the request is passed to it, never answered as a table that does not exist
    (which a person who made a table and joined it at once was told, through the proxy, under load)."""
    a, b = stores
    _own(a, "a")
    second = _own(b, "b")
    _table(a)
    _lapse(a)
    read = second.owner

    def owner_then_heartbeat(table_id: str) -> tuple[str, str] | None:
        found = read(table_id)  # no live owner, as read now ...
        a.write(lambda conn: conn.execute(update(nodes).where(nodes.c.name == "a").values(seen_at=ALIVE)))
        return found  # ... and the owner's heartbeat comes right after

    second.owner = owner_then_heartbeat  # type: ignore[method-assign]

    async def main() -> str | None:
        hub = Hub(Database(b), ServerLimits(), second)
        try:
            forwarder = Forwarder(_no_app, hub, Peers(), 1 << 20)
            return await forwarder._owner_elsewhere({"type": "http", "path": "/tables/t1/join", "headers": []})
        finally:
            await hub.stop()

    assert in_own_loop(main) == "http://a"
    assert second.held == {}  # not taken from its live owner


async def _no_app(scope: object, receive: object, send: object) -> None:
    raise AssertionError("the request was to be passed on, not answered here")


def test_a_second_process_on_a_sqlite_database_is_refused_naming_postgresql(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clubs.sqlite3'}"
    a, b = Store(url), Store(url)
    try:
        Ownership(a, "127.0.0.1:8001", "http://127.0.0.1:8001", 60.0).register()
        with pytest.raises(SharedSqliteError, match="PostgreSQL") as refused:
            Ownership(b, "127.0.0.1:8002", "http://127.0.0.1:8002", 60.0).register()
        assert "127.0.0.1:8001" in str(refused.value)
        Ownership(b, "127.0.0.1:8001", "http://127.0.0.1:8001", 60.0).register()  # the same node, restarted: served
    finally:
        a.close()
        b.close()


def test_a_table_taken_while_the_heartbeat_reads_its_leases_is_not_taken_for_lost(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose lease is committed, and so noted as held, after the heartbeat read this process's leases and
    before it compared them with the tables held, is still held: the heartbeat compares only the tables held before
    it read. (Before, such a table was dropped as "moving to another server" two milliseconds after it was made, and
    answered as unknown everywhere until its lease ran out.)"""
    a, _ = stores
    first = _own(a, "a")
    _table(a)
    write = a.write

    class ReadThenTaken:
        """The heartbeat's connection: right after the leases are read, another table's taking ends (held)."""

        def __init__(self, conn: Any) -> None:
            self.conn = conn

        def execute(self, statement: Any, *args: Any) -> Any:
            result = self.conn.execute(statement, *args)
            if "FROM leases" in str(statement) and "t2" not in first.held:
                first.hold("t2", 1)  # as a table's making does once its lease is committed
            return result

    monkeypatch.setattr(a, "write", lambda work: write(lambda conn: work(ReadThenTaken(conn))))
    assert first.renew() == []
    assert first.held == {"t1": 1, "t2": 1}
