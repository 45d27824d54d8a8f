"""Table sockets, private tables and the server's counts against a stranger who means harm (loopback only): frames
too large to read, nesting that would exhaust the reader, pages of other sites, too many sockets, spectators and
tables, a private table's id without its invite, and the race of a player coming back while their bot's move is
being written.

Every refusal is a documented ``error`` (or a 4xx before the socket opens); the table plays on.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import socket
import struct
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from serverkit import ROOMY, Client, ProcessServer, ThreadServer, get, my_turn, new_table, post, seated, wait_until
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import loopback
from clubsuite.server.store.database import Appended, Store, StoreError
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings


def ws_url(server: Any, table: str) -> str:
    return server.base.replace("http://", "ws://") + f"/tables/{table}/ws"


# -- frames and messages -------------------------------------------------------------------------------------------
def rss_kb(pid: int) -> int:
    """The resident memory of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def huge_frame_socket(port: int, table: str) -> socket.socket:
    """A socket that opens the table's WebSocket and starts a 15 MiB text frame (no hello): the head of the frame
    and its first 256 KiB."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:100]
    size = 15 * 1024 * 1024
    frame = b"\x81\xff" + struct.pack("!Q", size) + b"\x00\x00\x00\x00"  # text, masked (a zero mask), 64-bit length
    with contextlib.suppress(OSError):
        s.sendall(frame + b"x" * 256 * 1024)
    return s


def test_a_frame_over_the_message_limit_closes_its_socket_as_it_arrives_and_memory_stays_bounded(
    tmp_path: Path,
) -> None:
    with ProcessServer(tmp_path) as server:
        table = new_table(server.base, "whist")["id"]
        assert server.proc is not None
        before = rss_kb(server.proc.pid)
        sockets = [huge_frame_socket(server.port, table) for _ in range(40)]
        try:
            for s in sockets:
                got = b""
                with contextlib.suppress(ConnectionResetError):
                    while chunk := s.recv(65536):
                        got += chunk
                # the server's close frame: 1009, "message too big", sent without reading the frame's payload
                assert b"\x03\xf1" in got, got[:40]
            after = rss_kb(server.proc.pid)
        finally:
            for s in sockets:
                s.close()
        assert after - before < 64 * 1024, f"the server grew by {(after - before) // 1024} MiB"
        assert get(server.base, "/health")["status"] == "ok"
        c = Client(server.base, table)
        assert c.until(lambda m: m["type"] == "state")["table"]["id"] == table
        c.close()


def test_a_message_over_the_limit_closes_only_its_own_socket(server: ThreadServer) -> None:
    table, (token,) = seated(server, people=1)
    watcher = Client(server.base, table)
    watcher.until(lambda m: m["type"] == "state")
    c = Client(server.base, table, token)
    my_turn(c)
    c.ws.send('{"type": "ping", "pad": "' + "x" * server.limits.max_ws_bytes + '"}')
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            c.ws.recv(30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    back = Client(server.base, table, token)
    turn = my_turn(back)
    back.send({"type": "act", "action": turn["legal"][0], "version": turn["version"]})
    back.until(lambda m: m["type"] == "update")
    watcher.until(lambda m: m["type"] == "update")
    for x in (back, watcher):
        x.close()


def test_a_message_nested_thousands_deep_gets_bad_json_and_the_connection_lives(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    turn = my_turn(c)
    c.ws.send("[" * 2000 + "]" * 2000)  # under the 4096-byte limit, far too deep for any message
    error = c.until(lambda m: m["type"] == "error")
    assert error["code"] == "bad_json" and "nested" in error["message"]
    c.ws.send('{"type": "ping", "n": NaN}')
    assert c.until(lambda m: m["type"] == "error")["code"] == "bad_json"
    c.send({"type": "ping"})
    assert c.until(lambda m: m["type"] == "pong")["version"] == turn["version"]
    c.close()


@pytest.mark.server(origins=("https://club.example",))
def test_a_page_of_another_site_may_not_open_a_table_socket(server: ThreadServer) -> None:
    table = new_table(server.base, "whist")["id"]
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(server, table), origin="https://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    for origin in (f"http://127.0.0.1:{server.port}", "https://club.example"):
        with connect(ws_url(server, table), origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
            ws.send('{"type": "hello", "token": null}')
            assert '"welcome"' in str(ws.recv(10))


# -- private tables ------------------------------------------------------------------------------------------------
def hello_answer(server: ThreadServer, table: str, **hello: Any) -> dict[str, Any]:
    """The first answer to a hello with these fields."""
    with connect(ws_url(server, table), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", **hello}))
        return json.loads(ws.recv(10))  # type: ignore[no-any-return]


def test_a_private_table_is_joined_and_watched_only_through_its_invite_and_its_id_tells_nothing(
    server: ThreadServer,
) -> None:
    made = new_table(server.base, "whist", public=False)
    table, invite = made["id"], made["invite"]
    nowhere = loopback.get(server.base + "/tables/NoSuchTable1").json()
    for r in (
        loopback.get(server.base + f"/tables/{table}"),
        loopback.post(server.base + f"/tables/{table}/join", json={"name": "Mallory"}),
        loopback.get(server.base + f"/tables/{table}/record.json"),
        loopback.get(server.base + f"/tables/{table}/replay"),
        loopback.post(server.base + f"/tables/{table}/leave", json={"token": "x" * 32}),
        loopback.get(server.base + f"/tables/{table}", params={"invite": "wrong"}),
    ):
        assert r.status_code == 404 and r.json()["code"] == "no_table", r.text
        assert r.json()["message"].replace(table, "NoSuchTable1") == nowhere["message"]  # the same as no table
    assert hello_answer(server, table, token=None)["code"] == "no_table"
    assert hello_answer(server, table, token=None, invite="wrong")["code"] == "no_table"
    assert loopback.get(server.base + "/tables").json() == []
    # with the invite: seen, joined and watched
    assert get(server.base, f"/tables/{table}?invite={invite}")["id"] == table
    assert get(server.base, f"/invites/{invite}")["id"] == table
    token = post(server.base, f"/invites/{invite}/join", {"name": "Ann"})["token"]
    assert hello_answer(server, table, token=None, invite=invite)["role"] == "spectator"
    assert hello_answer(server, table, token=token)["role"] == "seat"
    # a seat token is a way in too (its holder is at the table), for the seat's own requests
    r = loopback.get(server.base + f"/tables/{table}/record.json", params={"invite": invite})
    assert r.status_code == 409 and r.json()["code"] == "not_over"  # found; its record waits for the end


# -- counts --------------------------------------------------------------------------------------------------------
@pytest.mark.server(limits=replace(ROOMY, sockets_per_token=2, spectators_per_table=2, sockets_per_address=6))
def test_sockets_are_bounded_per_seat_token_per_address_and_spectators_per_table(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    opened = [Client(server.base, table, token) for _ in range(2)]
    for c in opened:
        c.until(lambda m: m["type"] == "state")
    third = Client(server.base, table, token)
    error = third.until(lambda m: m["type"] == "error")
    assert error["code"] == "too_many_connections" and "this seat has 2" in error["message"]
    third.close()
    watchers = [Client(server.base, table) for _ in range(2)]
    for c in watchers:
        c.until(lambda m: m["type"] == "state")
    error = Client(server.base, table).until(lambda m: m["type"] == "error")
    assert error["code"] == "too_many_connections" and "2 spectators" in error["message"]
    other, _ = seated(server)
    more = [Client(server.base, other) for _ in range(2)]  # six from this address now
    for c in more:
        c.until(lambda m: m["type"] == "state")
    error = Client(server.base, other).until(lambda m: m["type"] == "error")
    assert error["code"] == "too_many_connections" and "your address has 6" in error["message"]
    for c in opened + watchers + more:
        c.close()
    # closed sockets are counted out: the seat is reachable again
    wait_until(
        lambda: sum(server.server.config.app.state.hub.admission.by_address.values()) == 0,
        30,
        "sockets not counted out",
    )
    again = Client(server.base, table, token)
    assert again.until(lambda m: m["type"] in ("state", "error"))["type"] == "state"
    again.close()


@pytest.mark.server(limits=replace(ROOMY, tables_per_address=3, max_tables=4))
def test_tables_are_bounded_per_address_and_in_all(server: ThreadServer) -> None:
    for _ in range(3):
        new_table(server.base, "whist")
    r = loopback.post(server.base + "/tables", json={"game": "whist"})
    assert r.status_code == 429 and r.json()["code"] == "too_many_tables"
    hub = server.server.config.app.state.hub
    made = asyncio.run_coroutine_threadsafe(
        hub.create_table("whist", [SeatRequest("person")] * 3, TableSettings(), creator="203.0.113.9"), hub.loop
    )
    made.result(10)  # another address may: four tables now, the most the server holds
    r = loopback.post(server.base + "/tables", json={"game": "whist"})
    assert r.status_code in (429, 503)
    more = asyncio.run_coroutine_threadsafe(
        hub.create_table("whist", [SeatRequest("person")] * 3, TableSettings(), creator="203.0.113.10"), hub.loop
    )
    with pytest.raises(Exception, match="as many tables as it can hold"):
        more.result(10)


@pytest.mark.server(limits=replace(ROOMY, table_idle=6.0))
def test_a_table_nobody_is_at_is_closed_after_a_while_and_one_with_a_player_stays(server: ThreadServer) -> None:
    # Idle for 6 s: room enough, however loaded the machine, to connect to the other tables before they count as
    # idle. The table whose player leaves is another than the one whose player stays, so that the two waits for a
    # table to go idle run at once, not one after the other.
    quiet = new_table(server.base, "whist")["id"]
    table, (token,) = seated(server)
    left, (left_token,) = seated(server)
    c = Client(server.base, table, token)
    c.until(lambda m: m["type"] == "state")
    gone = Client(server.base, left, left_token)
    gone.until(lambda m: m["type"] == "state")
    gone.close()  # its player has gone: nobody is at it from now on
    wait_until(lambda: loopback.get(server.base + f"/tables/{quiet}").status_code == 404, 30, "not closed")
    wait_until(lambda: loopback.get(server.base + f"/tables/{left}").status_code == 404, 30, "not closed")
    assert get(server.base, f"/tables/{table}")["id"] == table  # its player is still there
    store = server.server.config.app.state.hub.store
    assert [t.id for t in store.tables()] == [table]  # closed in the database too (kept, not served)
    assert {t.id for t in store.tables(include_closed=True)} == {quiet, table, left}
    c.close()


def test_the_lobby_lists_at_most_a_hundred_tables_those_waiting_first(server: ThreadServer) -> None:
    for _ in range(103):
        new_table(server.base, "whist")
    listed = get(server.base, "/tables")
    assert len(listed) == 100 and all(t["waiting"] for t in listed)


# -- the race of a player coming back ------------------------------------------------------------------------------
def test_a_player_back_while_their_bots_move_is_written_is_told_a_state_they_can_act_on(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The take-over bot's move is being committed (held until the player's hello waits for the table) when the
    player comes back: the state they get is the table as it is once the commit is told, and their action on it is
    accepted, never refused as stale."""
    hub = server.server.config.app.state.hub
    armed, writing, proceed, first = threading.Event(), threading.Event(), threading.Event(), [True]
    real = hub.store.append_group

    def held_group(group: list[Appended]) -> list[StoreError | None]:
        takeover = any(item.row.source == "takeover" for item in group)
        if takeover and armed.is_set() and first[0]:  # held in its group's commit until the player is back
            first[0] = False
            writing.set()
            proceed.wait(60)
        return real(group)

    monkeypatch.setattr(hub.store, "append_group", held_group)
    # A write made at once on the event loop (SQLite) cannot be overtaken by a hello: nothing runs on the loop while
    # it is made. The race is the database thread's (a write under way elsewhere, PostgreSQL): there it is held.
    monkeypatch.setattr(hub.commits, "at_once", False)
    table, (token,) = seated(server, grace=0)
    c = Client(server.base, table, token)
    c.until(lambda m: m["type"] == "state")
    armed.set()  # the next take-over, once the player has gone
    c.close()
    assert writing.wait(30), "the bot never took the seat over"
    back = Client(server.base, table, token)
    lock = hub.tables[table].lock
    wait_until(lambda: bool(getattr(lock, "_waiters", None)), 30, "the hello did not wait for the commit under way")
    proceed.set()
    state = back.until(lambda m: m["type"] == "state")
    turn = state if state["to_act"] == 0 and not state["over"] else my_turn(back)
    back.send({"type": "act", "action": turn["legal"][0], "version": turn["version"]})
    answer = back.until(lambda m: m["type"] == "error" or (m["type"] == "update" and m["by"]["seat"] == 0))
    assert answer["type"] == "update" and answer["by"]["source"] == "seat", answer
    late = [m for m in back.messages if m["type"] == "update" and m["by"]["source"] == "takeover"]
    assert not late, f"a take-over was told after the state the player came back to: {late}"
    back.close()


def test_a_private_tables_socket_answers_exactly_as_a_missing_tables_does(server: ThreadServer) -> None:
    private = new_table(server.base, "whist", public=False)["id"]
    answers = {}
    for table in (private, "NoSuchTable1"):
        got = []
        for first in ('{"type": "ping"}', "nonsense", '{"type": "hello", "token": null}'):
            with connect(ws_url(server, table), open_timeout=10) as ws:
                ws.send(first)
                got.append(json.loads(ws.recv(10))["code"])
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(10)
                got.append(closed.value.rcvd.code if closed.value.rcvd else None)
        answers[table] = got
    assert answers[private] == answers["NoSuchTable1"] == ["bad_message", 4400, "bad_json", 4400, "no_table", 4404]


@pytest.mark.server(limits=replace(ROOMY, connections_per_address=4, max_connections=6))
def test_network_connections_are_bounded_per_address_and_in_all_before_a_byte_is_read(server: ThreadServer) -> None:
    def opened(address: str) -> socket.socket:
        s = socket.socket()
        s.bind((address, 0))
        s.connect(("127.0.0.1", server.port))
        s.settimeout(30)
        return s

    def refused_at_once(s: socket.socket) -> bool:
        with contextlib.suppress(ConnectionResetError):
            return s.recv(1) == b""
        return True

    held = [opened("127.0.0.2") for _ in range(4)]  # idle: none has sent a byte
    held[0].sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert held[0].recv(12) == b"HTTP/1.1 200"  # a counted connection is served
    fifth = opened("127.0.0.2")
    assert refused_at_once(fifth)  # one too many from this address, closed before a byte is read
    held += [opened("127.0.0.3") for _ in range(2)]  # six in all now
    assert refused_at_once(opened("127.0.0.4"))  # one too many for the server
    for s in held:
        s.close()
    door = server.server.config.http.door  # type: ignore[union-attr]
    wait_until(lambda: door.total == 0, 30, "the closed connections were not counted out")
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:  # counted out: room again
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert s.recv(12) == b"HTTP/1.1 200"


def test_searching_bots_cannot_hold_up_instant_bots_or_hints_and_one_address_gives_few_tables_to_them(
    tmp_path: Path,
) -> None:
    """With every search worker process kept busy, a table of instant bots still plays; an address may give
    searching bots to only so many tables."""
    with (
        ThreadServer(Store.in_directory(tmp_path), replace(ROOMY, search_tables_per_address=1)) as server,
        multiprocessing.get_context("spawn").Manager() as manager,
    ):
        release = manager.Event()
        thinkers = server.server.config.app.state.hub.thinkers  # type: ignore[union-attr]
        busy = [thinkers.pool.submit(release.wait, 60)[0] for _ in range(thinkers.workers)]
        try:
            # every worker has its task (a worker's future runs once the pool has handed it over)
            wait_until(lambda: all(f.running() for f in busy), 120, "the bot workers were not made busy")
            quick = new_table(server.base, "whist", [{"kind": "bot", "bot": "random"}] * 3)["id"]
            wait_until(lambda: get(server.base, f"/tables/{quick}")["version"] >= 5, 60, "instant bots were held up")
            expert = [{"kind": "person"}, {"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "random"}]
            new_table(server.base, "whist", expert)
            r = loopback.post(server.base + "/tables", json={"game": "whist", "seats": expert})
            assert r.status_code == 429 and r.json()["code"] == "too_many_tables" and "searching" in r.json()["message"]
        finally:
            release.set()
            for f in busy:
                f.result(60)


def test_a_seat_given_up_while_its_hello_waits_is_not_reached_with_the_old_token(server: ThreadServer) -> None:
    """The table is busy (its lock held); a leave waits for it, then a hello with the token being given up: once the
    table is free the seat is given up first, and the hello, its token no longer a seat's, is refused."""
    hub = server.server.config.app.state.hub
    table, (token, _) = seated(server, people=2)
    lock = hub.tables[table].lock
    free = threading.Event()

    async def busy() -> None:
        async with lock:
            await asyncio.get_running_loop().run_in_executor(None, free.wait, 60)

    held = asyncio.run_coroutine_threadsafe(busy(), hub.loop)
    wait_until(lock.locked, 30, "the table was not made busy")

    def waiting() -> int:
        return len(getattr(lock, "_waiters", None) or ())

    with ThreadPoolExecutor(1) as pool:
        left = pool.submit(post, server.base, f"/tables/{table}/leave", {"token": token})
        wait_until(lambda: waiting() == 1, 30, "the leave did not wait for the table")
        c = Client(server.base, table, token)
        wait_until(lambda: waiting() == 2, 30, "the hello did not wait for the table")
        free.set()
        held.result(30)
        assert left.result(30)["seat"] == 0
    answer = c.until(lambda m: m["type"] in ("welcome", "error"))
    assert answer["type"] == "error" and answer["code"] == "bad_token", answer
    c.close()
