"""The server's storage, on both back ends: SQLite (the default) and PostgreSQL (a throwaway server, skipped only
where PostgreSQL's server binaries cannot be found). The same tests run against each."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from clubsuite.server.store.database import (
    ActionRow,
    MatchRow,
    SeatRow,
    StaleWriteError,
    Store,
    StoreError,
    TableRow,
    UnknownTableError,
)

pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test runs on SQLite and on PostgreSQL: over a new store (``store``), or over a new database it opens
itself (``database_url``, from ``tests/conftest.py``)."""


def table(table_id: str = "t1", invite: str = "inv1", created: float = 1.0) -> TableRow:
    return TableRow(
        table_id, "whist", {"public": True, "clock": None, "name": "Zoë's table"}, invite, created, 0, False
    )


SEATS = [SeatRow(0, "person", "random", None, None), SeatRow(1, "bot", "heuristic", None, None)]
FIRST = MatchRow(0, 2**63 - 1, 1.5, None, None)


def action(seq: int) -> ActionRow:
    return ActionRow(seq, seq % 2, f"{seq + 2}C", "seat", 10.0 + seq)


def test_a_table_its_seats_and_first_match_are_stored_and_read_back(store: Store) -> None:
    store.create_table(table(), SEATS, FIRST)
    assert store.table("t1") == table()
    assert store.table_by_invite("inv1") == table()
    assert store.table("nope") is None and store.table_by_invite("nope") is None
    assert store.seats("t1") == SEATS
    assert store.matches("t1") == [FIRST]  # a seed of 63 bits survives
    assert store.tables() == [table()]


def test_table_creation_is_all_or_nothing(store: Store) -> None:
    with pytest.raises(StaleWriteError):
        store.create_table(table(), [SEATS[0], SEATS[0]], FIRST)  # the same seat twice
    assert store.table("t1") is None and store.seats("t1") == [] and store.matches("t1") == []
    store.create_table(table(), SEATS, FIRST)
    with pytest.raises(StaleWriteError):
        store.create_table(table("t2", "inv1"), SEATS, FIRST)  # an invite code already taken
    assert [t.id for t in store.tables()] == ["t1"]


def test_the_action_log_takes_each_next_action_once_and_refuses_a_duplicate_or_a_gap(store: Store) -> None:
    store.create_table(table(), SEATS, FIRST)
    for seq in range(3):
        store.append_action("t1", 0, action(seq))
    with pytest.raises(StaleWriteError):
        store.append_action("t1", 0, action(1))  # a second writer of action 1
    with pytest.raises(StaleWriteError):
        store.append_action("t1", 0, action(5))  # a gap
    assert store.actions("t1", 0) == [action(0), action(1), action(2)]


def test_finishing_a_match_stores_its_record_in_the_same_commit_as_the_last_action(store: Store) -> None:
    store.create_table(table(), SEATS, FIRST)
    store.append_action("t1", 0, action(0), finished=(20.0, '{"record": "ünïcode"}'))
    (done,) = store.matches("t1")
    assert done.finished_at == 20.0 and done.record == '{"record": "ünïcode"}'
    with pytest.raises(StaleWriteError):
        store.append_action("t1", 0, action(0), finished=(21.0, "{}"))
    assert store.matches("t1")[0].record == '{"record": "ünïcode"}'  # the refused write changed nothing


def test_matches_are_numbered_in_order(store: Store) -> None:
    store.create_table(table(), SEATS, FIRST)
    with pytest.raises(StaleWriteError):
        store.start_match("t1", MatchRow(2, 5, 3.0, None, None))
    store.start_match("t1", MatchRow(1, 5, 3.0, None, None))
    assert [m.match_no for m in store.matches("t1")] == [0, 1]
    assert store.table("t1").match_no == 1  # type: ignore[union-attr]
    with pytest.raises(UnknownTableError):
        store.start_match("nope", MatchRow(1, 5, 3.0, None, None))


def test_a_seat_is_found_by_its_token_hash_and_can_be_given_up(store: Store) -> None:
    store.create_table(table(), SEATS, FIRST)
    taken = SeatRow(0, "person", "random", "Zoë", "ab" * 32)
    store.update_seat("t1", taken)
    assert store.seats("t1")[0] == taken
    assert store.seat_by_token_hash("ab" * 32) == ("t1", 0)
    assert store.seat_by_token_hash("cd" * 32) is None
    store.update_seat("t1", SEATS[0])
    assert store.seat_by_token_hash("ab" * 32) is None
    with pytest.raises(UnknownTableError):
        store.update_seat("t1", SeatRow(7, "person", None, None, None))


def test_a_closed_table_is_kept_but_not_listed(store: Store) -> None:
    store.create_table(table(), SEATS, FIRST)
    store.create_table(table("t2", "inv2", 2.0), SEATS, FIRST)
    store.close_table("t1")
    assert [t.id for t in store.tables()] == ["t2"]
    assert [t.id for t in store.tables(include_closed=True)] == ["t1", "t2"]


def test_what_is_committed_survives_closing_and_reopening(database_url: str) -> None:
    first = Store(database_url)
    first.create_table(table(), SEATS, FIRST)
    first.append_action("t1", 0, action(0))
    first.close()
    again = Store(database_url)  # the schema exists: made again without touching the data
    assert again.actions("t1", 0) == [action(0)] and again.table("t1") == table()
    again.close()


def test_an_action_survives_the_process_being_killed_right_after_its_commit(database_url: str) -> None:
    setup = Store(database_url)
    setup.create_table(table(), SEATS, FIRST)
    setup.close()
    child = (
        "import os, sys\n"
        "from clubsuite.server.store.database import Store, ActionRow\n"
        "s = Store(sys.argv[1])\n"
        "s.append_action('t1', 0, ActionRow(0, 0, '2C', 'seat', 1.0))\n"
        "os.kill(os.getpid(), 9)\n"
    )
    done = subprocess.run([sys.executable, "-c", child, database_url], capture_output=True, timeout=60, check=False)
    assert done.returncode == -9, done.stderr
    again = Store(database_url)
    assert again.actions("t1", 0) == [ActionRow(0, 0, "2C", "seat", 1.0)]
    again.close()


def test_two_threads_writing_to_different_tables_lose_nothing(store: Store) -> None:
    store.create_table(table("a", "ia"), SEATS, FIRST)
    store.create_table(table("b", "ib"), SEATS, FIRST)

    def write(table_id: str) -> None:
        for seq in range(40):
            store.append_action(table_id, 0, action(seq))

    threads = [threading.Thread(target=write, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.actions("a", 0) == store.actions("b", 0) == [action(s) for s in range(40)]


def test_a_bad_url_is_refused_and_a_password_is_never_shown(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a database URL"):
        Store("nonsense")
    with pytest.raises(StoreError, match="SQLite or PostgreSQL only"):
        Store("mysql://u:secret@localhost/db")
    with pytest.raises(StoreError) as refused:
        Store("postgresql://clubs:hunter2@127.0.0.1:1/none")
    assert "hunter2" not in str(refused.value) and "***" in str(refused.value)
    folder = tmp_path / "a file"
    folder.write_text("x")
    with pytest.raises(StoreError, match="data directory"):
        Store.in_directory(folder)
