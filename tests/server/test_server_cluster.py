"""Several ``clubs serve`` processes over one PostgreSQL database: any process answers any client about any table
(the request passed on to the table's owner, its WebSocket relayed there), a killed owner's tables are taken over
by another process from the log, and a stopping process hands its tables over.

Real processes and a real PostgreSQL server, on loopback, started and stopped by the tests; every wait is on a
condition, with a generous bound.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from serverkit import Client, ProcessServer, get, my_turn, new_table, post, wait_until

from pgcluster import Cluster, free_port

LEASE = "2"
"""Seconds a table stays its owner's without renewal in these tests: a killed owner's tables move within a few."""


def _node(tmp_path: Path, url: str, name: str) -> ProcessServer:
    folder = tmp_path / name
    folder.mkdir()
    extra = ("--db", url, "--node", name, "--trusted-proxy", "127.0.0.1", "--lease-seconds", LEASE)
    return ProcessServer(folder, free_port(), extra)


@pytest.fixture
def two(postgres: Cluster, tmp_path: Path) -> Iterator[tuple[ProcessServer, ProcessServer, str]]:
    """Two processes over one new database, both serving: (first, second, the database's URL)."""
    url = postgres.new_database()
    first = _node(tmp_path, url, "a").start()
    try:
        second = _node(tmp_path, url, "b").start()
        try:
            yield first, second, url
        finally:
            second.kill(signal.SIGKILL)
    finally:
        first.kill(signal.SIGKILL)


def _log(url: str, table: str) -> list[tuple[int, int, str]]:
    """The action log of a table's first match, as stored: (seq, seat, action)."""
    with psycopg.connect(url.replace("postgresql://", "postgresql://", 1)) as conn:
        rows = conn.execute(
            "SELECT seq, seat, action FROM actions WHERE table_id = %s AND match_no = 0 ORDER BY seq", (table,)
        ).fetchall()
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


def _owner(url: str, table: str) -> str | None:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT node FROM leases WHERE table_id = %s", (table,)).fetchone()
    return None if row is None else str(row[0])


def _play(client: Client, moves: int) -> None:
    """Make ``moves`` of seat 0's moves (the first legal action each time), waiting for each to be told."""
    for _ in range(moves):
        states = [m for m in client.messages if m["type"] in ("state", "update")]
        last = states[-1] if states else None
        mine = last is not None and last["to_act"] == 0 and not last["over"]
        state = last if mine and last is not None else my_turn(client)
        version = state["version"]
        client.send({"type": "act", "action": state["legal"][0], "version": version})
        client.until(lambda m, v=version: m["type"] == "update" and m["version"] > v)


def test_a_table_made_at_one_process_is_joined_watched_and_played_through_the_other(
    two: tuple[ProcessServer, ProcessServer, str],
) -> None:
    first, second, url = two
    table = new_table(first.base, "whist", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2])
    table_id = table["id"]
    assert _owner(url, table_id) == "a"
    info = get(second.base, f"/tables/{table_id}")  # asked of the process that does not own it: passed on
    assert info["id"] == table_id
    token = post(second.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    player = Client(second.base, table_id, token)  # the socket relayed to the owner
    watcher = Client(first.base, table_id)
    try:
        player.until(lambda m: m["type"] == "welcome" and m["seat"] == 0)
        _play(player, 3)
        version = player.last_state()["version"]
        watcher.until(lambda m: m["type"] in ("state", "update") and m["version"] >= version)
    finally:
        player.close()
        watcher.close()
    assert len(_log(url, table_id)) >= 3
    assert _owner(url, table_id) == "a"  # served where it was made all along


def test_a_killed_owner_s_table_goes_on_at_the_other_process_with_nothing_lost_or_doubled(
    two: tuple[ProcessServer, ProcessServer, str],
) -> None:
    """kill -9 of the owner in the middle of play: the other process takes the table over from the log within
    seconds, the client reconnects (to the survivor) and resyncs at the version it had, and play goes on; the log
    holds every accepted action once."""
    first, second, url = two
    table = new_table(first.base, "whist", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2])
    table_id = table["id"]
    token = post(first.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    player = Client(first.base, table_id, token)
    try:
        _play(player, 2)
        seen = player.last_state()["version"]
        before = _log(url, table_id)
    finally:
        player.close()
    first.kill(signal.SIGKILL)
    wait_until(lambda: _owner(url, table_id) == "b", 30, "the survivor did not take the table over")
    again = Client(second.base, table_id, token, last_version=seen)
    try:
        state = again.until(lambda m: m["type"] == "state")
        assert state["version"] >= seen
        _play(again, 2)
    finally:
        again.close()
    after = _log(url, table_id)
    assert after[: len(before)] == before  # nothing accepted before the kill was lost
    assert [seq for seq, _, _ in after] == list(range(len(after)))  # each place in the log once: nothing doubled
    assert len(after) >= len(before) + 2


def test_a_stopping_process_hands_its_tables_over_at_once(two: tuple[ProcessServer, ProcessServer, str]) -> None:
    """SIGTERM: the owner's leases end as it stops, so the other process serves the table at the client's next
    request, without waiting for a lease to run out."""
    first, second, url = two
    table = new_table(first.base, "whist", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2])
    table_id = table["id"]
    token = post(second.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    player = Client(second.base, table_id, token)
    try:
        _play(player, 1)
        seen = player.last_state()["version"]
        assert first.kill(signal.SIGTERM) in (0, 128 + signal.SIGTERM)
        bye: dict[str, Any] = player.until(lambda m: m["type"] == "bye")
        assert "reconnect" in bye["reason"]
    finally:
        player.close()
    again = Client(second.base, table_id, token, last_version=seen)
    try:
        again.until(lambda m: m["type"] == "welcome")
        assert _owner(url, table_id) == "b"
        _play(again, 1)
    finally:
        again.close()
