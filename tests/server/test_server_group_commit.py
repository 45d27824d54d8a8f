"""Group commit (``server/store/commits.py``, ``Store.append_group``), on both back ends: the actions of several
tables in
one transaction, each fenced and placed on its own, a bad one failing alone, and nobody told of an action before its
group is committed."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from serverkit import in_own_loop
from sqlalchemy import update
from test_server_ownership import _own

from clubsuite.server.store.commits import GroupCommit
from clubsuite.server.store.database import (
    ActionRow,
    Appended,
    LeaseLostError,
    MatchRow,
    SeatRow,
    StaleWriteError,
    Store,
    TableRow,
)
from clubsuite.server.store.dbschema import nodes

T = TypeVar("T")


pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""


def _tables(store: Store, *ids: str) -> None:
    for table_id in ids:
        row = TableRow(table_id, "whist", {"public": True}, f"invite-{table_id}", 1.0, 0, False)
        store.create_table(row, [SeatRow(0, "person", "random", None, None)], MatchRow(0, 7, 1.0, None, None))


def _row(seq: int, text: str = "keep") -> ActionRow:
    return ActionRow(seq, 0, text, "seat", 2.0 + seq)


def _log(store: Store, table_id: str) -> list[tuple[int, str]]:
    return [(r.seq, r.action) for r in store.actions(table_id, 0)]


def test_the_actions_of_several_tables_are_committed_together_each_in_its_own_log(store: Store) -> None:
    _tables(store, "t1", "t2", "t3")
    store.append_action("t2", 0, _row(0, "exchange"))
    group = [Appended("t1", 0, _row(0)), Appended("t2", 0, _row(1, "2C")), Appended("t3", 0, _row(0, "AS"))]
    assert store.append_group(group) == [None, None, None]
    assert _log(store, "t1") == [(0, "keep")]
    assert _log(store, "t2") == [(0, "exchange"), (1, "2C")]
    assert _log(store, "t3") == [(0, "AS")]


def test_an_action_out_of_its_place_fails_alone_and_the_rest_of_its_group_is_written(store: Store) -> None:
    """A stale writer (a seq taken already, or one that skips a place) is refused with the log's next place; the
    other tables' actions of the same transaction are written."""
    _tables(store, "t1", "t2", "t3")
    store.append_action("t2", 0, _row(0))
    group = [Appended("t1", 0, _row(0)), Appended("t2", 0, _row(0, "again")), Appended("t3", 0, _row(5))]
    first, taken, skipped = store.append_group(group)
    assert first is None
    assert isinstance(taken, StaleWriteError) and "the next is 1" in str(taken)
    assert isinstance(skipped, StaleWriteError) and "the next is 0" in str(skipped)
    assert _log(store, "t1") == [(0, "keep")]
    assert _log(store, "t2") == [(0, "keep")]
    assert _log(store, "t3") == []


def test_a_group_the_database_refuses_whole_is_written_action_by_action(store: Store) -> None:
    """An action the database itself refuses (here: of a table that does not exist, which its foreign key refuses)
    aborts the transaction; every action is then tried alone, and only the bad one fails."""
    _tables(store, "t1", "t2")
    group = [Appended("t1", 0, _row(0)), Appended("nowhere", 0, _row(0)), Appended("t2", 0, _row(0))]
    good, bad, other = store.append_group(group)
    assert good is None and other is None
    assert isinstance(bad, StaleWriteError)
    assert _log(store, "t1") == [(0, "keep")] and _log(store, "t2") == [(0, "keep")]


def test_an_action_of_a_table_this_process_no_longer_holds_is_fenced_out_alone(database_url: str) -> None:
    """With leases: the action of a table another process took over is refused by the lease (not written); the
    action of a table still held, in the same group, is written."""
    a, b = Store(database_url), Store(database_url)
    try:
        first = _own(a, "a")
        second = _own(b, "b")
        _tables(a, "t1", "t2")
        a.write(lambda conn: conn.execute(update(nodes).where(nodes.c.name == "a").values(seen_at=0.0)))
        assert second.acquire("t2")
        _own(a, "a")  # alive again, still holding t1 (nobody took it) but no longer t2
        a.ownership = first
        held, lost = a.append_group([Appended("t1", 0, _row(0)), Appended("t2", 0, _row(0))])
        assert held is None
        assert isinstance(lost, LeaseLostError)
        assert _log(b, "t1") == [(0, "keep")] and _log(b, "t2") == []
    finally:
        a.close()
        b.close()


def test_actions_arriving_while_a_group_is_written_wait_and_go_together_in_the_next(store: Store) -> None:
    """The first action is written alone; the ten that arrive while its write is held go as one group; none of them
    is reported written before its group's commit returned."""
    _tables(store, *[f"t{k}" for k in range(11)])
    release = threading.Event()
    calls: list[int] = []

    async def db(call: Callable[..., T], *args: Any) -> T:
        group = args[0]
        calls.append(len(group))
        if len(calls) == 1:
            await asyncio.get_running_loop().run_in_executor(None, release.wait, 60)
        return await asyncio.get_running_loop().run_in_executor(None, call, *args)

    async def play() -> None:
        commits = GroupCommit(store, db)
        first = asyncio.create_task(commits.append("t0", 0, _row(0)))
        while not calls:
            await asyncio.sleep(0.001)
        rest = [asyncio.create_task(commits.append(f"t{k}", 0, _row(0))) for k in range(1, 11)]
        await asyncio.sleep(0.05)
        assert not first.done() and not any(t.done() for t in rest)  # the first write is held: nobody is told
        assert _log(store, "t0") == []
        release.set()
        await asyncio.wait_for(asyncio.gather(first, *rest), 60)
        assert (commits.groups, commits.actions) == (2, 11)

    in_own_loop(play)
    assert calls == [1, 10]
    assert all(_log(store, f"t{k}") == [(0, "keep")] for k in range(11))


def test_a_failed_action_of_a_group_raises_its_own_error_to_its_table_only(store: Store) -> None:
    _tables(store, "t1", "t2")

    async def db(call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(None, call, *args)

    async def play() -> list[BaseException | None]:
        commits = GroupCommit(store, db)
        outcomes = await asyncio.gather(
            commits.append("t1", 0, _row(0)), commits.append("t2", 0, _row(3)), return_exceptions=True
        )
        return list(outcomes)

    good, bad = in_own_loop(play)
    assert good is None
    assert isinstance(bad, StaleWriteError) and "the next is 0" in str(bad)


# -- writes made at once (SQLite) ---------------------------------------------------------------------------------


def _recording(calls: list[str], answers: list[Any] | None = None) -> Callable[..., Any]:
    """A ``db`` that runs each store call in a thread, as the hub's does, and notes its name (and its answer)."""

    async def db(call: Callable[..., T], *args: Any) -> T:
        calls.append(call.__name__)
        answer = await asyncio.get_running_loop().run_in_executor(None, call, *args)
        if answers is not None:
            answers.append(answer)
        return answer

    return db


def test_an_action_finding_no_write_under_way_is_written_at_once_on_sqlite_and_by_the_database_thread_elsewhere(
    store: Store,
) -> None:
    """On SQLite the write is made on the event loop (no hand-off to the database thread, whose waits made most of an
    action's tail under load); on PostgreSQL, whose commit is a round trip, it never is."""
    _tables(store, "t1")
    calls: list[str] = []

    async def play() -> None:
        commits = GroupCommit(store, _recording(calls), at_once=store.writes_at_once)
        await commits.append("t1", 0, _row(0))
        await commits.append("t1", 0, _row(1))
        assert (commits.groups, commits.actions) == (2, 2)

    in_own_loop(play)
    assert _log(store, "t1") == [(0, "keep"), (1, "keep")]
    sqlite = store.engine.dialect.name == "sqlite"
    assert store.writes_at_once is sqlite
    assert calls == ([] if sqlite else ["append_group", "append_group"])


@pytest.mark.backends("sqlite")
def test_while_another_process_holds_the_write_lock_an_action_waits_for_it_in_the_database_thread_not_the_loop(
    store: Store,
) -> None:
    """The write made at once never waits for a lock: another process writing (an operator's command, say) sends the
    action to the database thread, which waits for its turn; the loop goes on meanwhile; the action is written once."""
    import sqlite3

    _tables(store, "t1")
    other = sqlite3.connect(store.engine.url.database or "", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the database's write lock, held by someone else
    calls: list[str] = []

    async def play() -> None:
        commits = GroupCommit(store, _recording(calls), at_once=True)
        write = asyncio.create_task(commits.append("t1", 0, _row(0)))
        while not calls:
            await asyncio.sleep(0.01)  # the loop turns: the write made at once did not wait
        assert calls == ["append_group"] and not write.done()
        assert _log(store, "t1") == []
        other.execute("COMMIT")
        await asyncio.wait_for(write, 60)

    try:
        in_own_loop(play)
    finally:
        other.close()
    assert _log(store, "t1") == [(0, "keep")]
    # it did not wait: its connection gives up on a lock at once (the database thread's waits up to ten seconds)
    kept = store._at_once.driver_connection  # what the write made at once is made on
    assert kept.execute("PRAGMA busy_timeout").fetchone() == (0,)
    assert kept.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)


@pytest.mark.backends("sqlite")
def test_an_action_out_of_its_place_tried_at_once_is_refused_by_the_database_thread_with_its_reason(
    store: Store,
) -> None:
    _tables(store, "t1")
    calls: list[str] = []

    async def play() -> None:
        commits = GroupCommit(store, _recording(calls), at_once=True)
        with pytest.raises(StaleWriteError, match="the next is 0"):
            await commits.append("t1", 0, _row(2))

    in_own_loop(play)
    assert calls == ["append_group"] and _log(store, "t1") == []


@pytest.mark.backends("sqlite")
def test_the_log_of_writes_made_at_once_is_checkpointed_in_the_database_thread(store: Store) -> None:
    """The connection of the writes made at once never checkpoints (that may take milliseconds on the loop): every
    ``checkpoint_every`` of them, the database thread does."""
    _tables(store, "t1")
    calls: list[str] = []
    answers: list[Any] = []

    async def play() -> None:
        commits = GroupCommit(store, _recording(calls, answers), at_once=True)
        commits.checkpoint_every = 3
        for seq in range(3):
            await commits.append("t1", 0, _row(seq))
        await commits.close()  # the checkpoint under way ends

    in_own_loop(play)
    assert calls == ["checkpoint"]
    ((busy, frames, copied),) = answers  # SQLite's answer: the log held the writes' frames, and all were copied
    assert busy == 0 and frames > 0 and copied == frames
    assert _log(store, "t1") == [(0, "keep"), (1, "keep"), (2, "keep")]


@pytest.mark.backends("sqlite")
def test_a_closed_store_writes_nothing_at_once_and_its_kept_connections_are_closed(store: Store) -> None:
    _tables(store, "t1")
    assert store.append_at_once(Appended("t1", 0, _row(0))) is not None  # written at once while open
    store.close()
    assert store.append_at_once(Appended("t1", 0, _row(1))) is None  # closed: for the database thread to refuse
