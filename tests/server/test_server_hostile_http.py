"""The lobby and the replay viewer against a stranger who means harm (loopback only): hostile bodies and heads,
requests that never end, pages of other sites, floods, and the costliest request there is, a replay.

Every answer is a documented 4xx (a JSON object with ``code`` and ``message``), never a 500, and nothing a stranger
sends leaves a traceback in the log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import os
import signal
import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields, replace
from pathlib import Path

import httpx
import pytest
from serverkit import ROOMY, Client, ThreadServer, my_turn, new_table, post, seated, wait_until

import loopback
from cli_helpers import clubs_in_process
from clubsuite.server.limits import ServerLimits, address_key, docs_block, flag
from clubsuite.server.store.database import Store

GOLDEN = Path(__file__).parent.parent / "golden"


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """After the test: nothing the server logged carries a traceback (a stranger's input is never a fault)."""
    caplog.set_level(logging.INFO)
    yield
    faults = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not faults, [r.getMessage() for r in faults]


def refused(r: httpx.Response, status: int, code: str) -> str:
    """Check a refusal: its status, its JSON code; its message."""
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return str(body["message"])


def raw_request(port: int, data: bytes, read: bool = True) -> bytes:
    """Send ``data`` on a fresh connection (ignoring a server that closes early) and read the answer to the end."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        with contextlib.suppress(OSError):
            s.sendall(data)
        if not read:
            return b""
        got = b""
        with contextlib.suppress(OSError):
            while chunk := s.recv(65536):
                got += chunk
        return got


# -- bodies ------------------------------------------------------------------------------------------------------
NOT_STANDARD_JSON = [b'{"name": NaN}', b'{"name": Infinity}', b'{"seat": 1e999}', b'{"token": -Infinity}']


@pytest.mark.parametrize("body", NOT_STANDARD_JSON)
def test_nan_infinity_and_numbers_too_large_in_a_lobby_body_get_400_bad_json_not_500(
    server: ThreadServer, body: bytes, no_tracebacks: None
) -> None:
    table = new_table(server.base, "whist")
    for path in (
        "/tables",
        f"/tables/{table['id']}/join",
        f"/invites/{table['invite']}/join",
        f"/tables/{table['id']}/leave",
        f"/tables/{table['id']}/rematch",
    ):
        r = loopback.post(server.base + path, content=body, headers={"content-type": "application/json"})
        assert "not a JSON number" in refused(r, 400, "bad_json") or "too large" in r.json()["message"], path
    assert loopback.get(server.base + f"/tables/{table['id']}").json()["free_seats"] == [0, 1, 2]  # nothing changed


def test_a_body_nested_beyond_reason_gets_400_in_the_lobby_and_the_replay_viewer(
    server: ThreadServer, no_tracebacks: None
) -> None:
    r = loopback.post(server.base + "/tables", content=b"[" * 60_000, headers={"content-type": "application/json"})
    assert "nested" in refused(r, 400, "bad_json")
    r = loopback.post(server.base + "/replays", content=b"[" * 100_000)
    assert "nested" in refused(r, 400, "bad_record")
    assert loopback.get(server.base + "/health").json()["status"] == "ok"


def test_the_lobby_refuses_a_value_of_the_wrong_type_and_a_field_that_does_not_belong(
    server: ThreadServer, no_tracebacks: None
) -> None:
    r = loopback.post(server.base + "/tables", json={"game": "whist", "public": "yes"})
    assert refused(r, 422, "bad_request").startswith("'public'")
    r = loopback.post(server.base + "/tables", json={"game": "whist", "colour": "red"})
    assert "'colour'" in refused(r, 422, "bad_request")
    r = loopback.post(server.base + "/tables", json={"game": "whist", "seats": [{"kind": "robot"}, {}, {}]})
    assert "'seats.0.kind'" in refused(r, 422, "bad_request")
    table = new_table(server.base, "whist")
    r = loopback.post(server.base + f"/tables/{table['id']}/join", json={"name": 5})
    assert refused(r, 422, "bad_request").startswith("'name'")
    r = loopback.post(server.base + f"/tables/{table['id']}/join", json={"name": "Ann", "seat": "1"})
    assert refused(r, 422, "bad_request").startswith("'seat'")
    assert loopback.get(server.base + "/tables").json()[0]["free_seats"] == [0, 1, 2]


def test_a_chunked_body_over_the_limit_gets_413_and_is_read_no_further(server: ThreadServer) -> None:
    head = (
        f"POST /tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    answer = raw_request(server.port, head + chunk * 160)  # 10 MB, of which the server reads at most 64 KB more
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"too_large"' in answer and b"connection: close" in answer.lower()  # and the rest is not read


# -- heads and time ------------------------------------------------------------------------------------------------
def test_a_head_too_large_or_with_too_many_lines_is_refused_without_a_500(server: ThreadServer) -> None:
    long_line = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 100_000 + b"\r\n\r\n"
    many = (
        b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: b\r\n" % i for i in range(10_000)) + b"\r\n"
    )
    few_but_many = (
        b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: b\r\n" % i for i in range(150)) + b"\r\n"
    )
    for data in (long_line, many):
        status = raw_request(server.port, data)[:12]
        # 431 from the guard for a head that arrived whole, 400 from the HTTP parser for one still arriving past it
        assert status in (b"HTTP/1.1 431", b"HTTP/1.1 400"), status
    answer = raw_request(server.port, few_but_many)
    assert answer.startswith(b"HTTP/1.1 431") and b'"headers_too_large"' in answer
    assert loopback.get(server.base + "/health").status_code == 200


@pytest.mark.server(limits=replace(ROOMY, request_timeout=1.0))
def test_connections_that_send_their_request_too_slowly_are_closed(server: ThreadServer) -> None:
    table = new_table(server.base, "whist")
    starts = [
        b"",  # connected, and never a byte
        b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # a head never finished
        b"POST /tables/%s/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{" % table["id"].encode(),
    ]
    sockets = []
    for data in starts * 10:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        s.sendall(data)
        sockets.append(s)
    try:
        for s in sockets:
            s.settimeout(30)
            with contextlib.suppress(ConnectionResetError):
                assert s.recv(65536) == b""  # the server closed it (long before the 30 s are up)
    finally:
        for s in sockets:
            s.close()
    assert loopback.get(server.base + "/health").status_code == 200
    assert loopback.get(server.base + f"/tables/{table['id']}").json()["free_seats"] == [0, 1, 2]


# -- other sites ---------------------------------------------------------------------------------------------------
@pytest.mark.server(origins=("https://club.example",))
def test_a_page_of_another_site_may_not_post_to_the_lobby_but_the_servers_own_and_allowed_ones_may(
    server: ThreadServer,
) -> None:
    body = {"game": "whist"}
    r = loopback.post(server.base + "/tables", json=body, headers={"origin": "https://evil.example"})
    assert "another site" in refused(r, 403, "bad_origin")
    assert loopback.get(server.base + "/tables").json() == []
    own = f"http://127.0.0.1:{server.port}"
    assert loopback.post(server.base + "/tables", json=body, headers={"origin": own}).status_code == 201
    allowed = {"origin": "https://club.example"}
    assert loopback.post(server.base + "/tables", json=body, headers=allowed).status_code == 201
    assert loopback.post(server.base + "/tables", json=body).status_code == 201  # no Origin: not a browser


# -- rates ---------------------------------------------------------------------------------------------------------
@pytest.mark.server(limits=replace(ROOMY, create_rate="3/minute"))
def test_making_tables_too_fast_from_one_address_is_refused_with_429_and_retry_after(server: ThreadServer) -> None:
    for _ in range(3):
        new_table(server.base, "whist")
    r = loopback.post(server.base + "/tables", json={"game": "whist"})
    assert "at most 3 a minute" in refused(r, 429, "rate_limited")
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert len(loopback.get(server.base + "/tables").json()) == 3


@pytest.mark.server(limits=replace(ROOMY, join_rate="5/minute"))
def test_guessing_invite_codes_is_rate_limited(server: ThreadServer) -> None:
    for i in range(5):
        refused(loopback.post(server.base + f"/invites/guess{i}/join", json={"name": "Eve"}), 404, "no_table")
    refused(loopback.post(server.base + "/invites/guess5/join", json={"name": "Eve"}), 429, "rate_limited")
    refused(loopback.get(server.base + "/invites/guess6"), 429, "rate_limited")


@pytest.mark.server(limits=replace(ROOMY, request_rate="20/minute"))
def test_every_request_counts_in_one_rate_per_address(server: ThreadServer) -> None:
    codes = [loopback.get(server.base + "/health").status_code for _ in range(25)]
    assert codes[:20] == [200] * 20 and codes[20:] == [429] * 5


# -- replays -------------------------------------------------------------------------------------------------------
def from_address(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8 reaches the server)."""
    return loopback.client(transport=loopback.transport(local_address=address), timeout=120)


def test_a_replay_is_worked_out_off_the_event_loop_and_a_full_queue_is_refused(tmp_path: Path) -> None:
    """With the replay worker frozen (SIGSTOP), three replays from three addresses wait (one worker, a queue of two)
    while the server answers everything else and a table plays on; a fourth is refused at once, and so is a second
    from an address whose first is waiting; thawed, the three are answered."""
    limits = replace(ROOMY, replay_workers=1, replay_queue=2)
    record = (GOLDEN / "whist-1997-explicit.record.json").read_bytes()
    with ThreadServer(Store.in_directory(tmp_path), limits) as server:
        before = {p.pid for p in multiprocessing.active_children()}
        assert loopback.post(server.base + "/replays", content=record, timeout=60).status_code == 200
        workers = [p.pid for p in multiprocessing.active_children() if p.pid not in before]
        assert len(workers) == 1
        replayer = server.server.config.app.state.replayer
        table, (token,) = seated(server)
        c = Client(server.base, table, token)
        clients = {a: from_address(a) for a in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")}
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        try:
            with ThreadPoolExecutor(3) as pool:
                waiting = [
                    pool.submit(clients[a].post, server.base + "/replays", content=record)
                    for a in ("127.0.0.2", "127.0.0.3", "127.0.0.4")
                ]
                wait_until(lambda: replayer.in_flight == 3, 30, "the three replays did not reach the server")
                r = clients["127.0.0.5"].post(server.base + "/replays", content=record)
                assert "try again" in refused(r, 503, "busy")
                r = clients["127.0.0.2"].post(server.base + "/replays", content=record)
                assert "one replay at a time" in refused(r, 429, "rate_limited")
                assert loopback.get(server.base + "/health").json()["status"] == "ok"
                turn = my_turn(c)
                c.send({"type": "act", "action": turn["legal"][0], "version": turn["version"]})
                c.until(lambda m: m["type"] == "update" and m["version"] == turn["version"] + 1)
                assert not any(f.done() for f in waiting)  # all of it while the replays waited
                for pid in workers:
                    os.kill(pid, signal.SIGCONT)
                assert [f.result().status_code for f in waiting] == [200, 200, 200]
        finally:
            for pid in workers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
            c.close()
            for client in clients.values():
                client.close()


def test_a_record_with_more_steps_than_a_replay_shows_is_refused_before_it_is_replayed(server: ThreadServer) -> None:
    record = json.loads((GOLDEN / "whist-1997-explicit.record.json").read_text())
    record["hands"][0]["actions"] = ["2C"] * 20_001  # past the steps a replay shows (and wrong from the first)
    r = loopback.post(server.base + "/replays", content=json.dumps(record, separators=(",", ":")), timeout=60)
    assert "too long to show" in refused(r, 400, "bad_record")


def test_a_long_replay_goes_out_compressed_and_one_too_large_to_show_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    assert clubs_in_process(["watch", "whist(target=60)", "--seed", "4", "--save", str(path)]).status == 0
    record = path.read_bytes()
    with ThreadServer(Store.in_directory(tmp_path / "a")) as server:
        r = loopback.post(server.base + "/replays", content=record, headers={"accept-encoding": "gzip"}, timeout=60)
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        assert r.num_bytes_downloaded * 5 < len(r.content)  # what went over the wire, against the JSON it holds
        frames = r.json()["frames"]
        assert len(frames) == len(json.loads(record)["hands"]) + sum(
            len(h["actions"]) for h in json.loads(record)["hands"]
        )
    small = replace(ROOMY, max_replay_bytes=len(r.content) // 2)
    with ThreadServer(Store.in_directory(tmp_path / "b"), small) as server:
        r = loopback.post(server.base + "/replays", content=record, timeout=60)
        assert "too long to show" in refused(r, 413, "too_large")


def test_docs_server_md_gives_every_limit_with_its_default_and_what_it_bounds() -> None:
    page = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    assert docs_block() in page, "run: python -m clubsuite.server.limits --write docs/server.md"
    assert all(flag(f.name) in docs_block() for f in fields(ServerLimits))


def test_leaving_and_rematching_with_a_token_of_another_table_is_refused(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    _, (other_token,) = seated(server)
    refused(loopback.post(server.base + f"/tables/{table}/leave", json={"token": other_token}), 403, "bad_token")
    refused(loopback.post(server.base + f"/tables/{table}/rematch", json={"token": other_token}), 403, "bad_token")
    assert post(server.base, f"/tables/{table}/leave", {"token": token})["seat"] == 0
    refused(loopback.post(server.base + f"/tables/{table}/leave", json={"token": token}), 403, "bad_token")


# -- names, hosts, paths -------------------------------------------------------------------------------------------
def test_a_name_that_borrows_letters_shows_nothing_or_looks_like_a_seated_players_is_refused(
    server: ThreadServer,
) -> None:
    table = new_table(server.base, "whist")["id"]
    join = server.base + f"/tables/{table}/join"
    assert "one alphabet" in refused(loopback.post(join, json={"name": "Аnn"}), 400, "bad_request")  # Cyrillic А
    for blank in ("Ann\u3164", "\uffa0Bob"):  # Hangul fillers: letters that show nothing
        assert "letters, digits" in refused(loopback.post(join, json={"name": blank}), 400, "bad_request")
    post(server.base, f"/tables/{table}/join", {"name": "Bill"})
    for alike in ("bill", "BILL", "BiII", "Bi1l", "Ｂｉｌｌ", "Biӏl"):
        r = loopback.post(join, json={"name": alike})
        assert r.status_code in (400, 409), (alike, r.text)
        assert r.json()["code"] in ("name_taken", "bad_request"), (alike, r.text)
    assert post(server.base, f"/tables/{table}/join", {"name": "Анна"})["seat"] == 1  # one alphabet, unlike any
    assert get_free(server, table) == [2]


def get_free(server: ThreadServer, table: str) -> list[int]:
    return list(loopback.get(server.base + f"/tables/{table}").json()["free_seats"])


@pytest.mark.server(hosts=("clubs.example", "*.club.example"))
def test_a_request_for_a_name_the_server_does_not_answer_to_is_refused(server: ThreadServer) -> None:
    """A page whose own name was pointed at the server (DNS rebinding) sends that name as Host: refused, so its
    Origin cannot pass for the server's own."""
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    assert "--allow-host" in refused(
        loopback.post(server.base + "/tables", json={"game": "w"}, headers=evil), 400, "bad_host"
    )
    refused(loopback.get(server.base + "/health", headers={"host": "evil.example"}), 400, "bad_host")
    handshake = (
        b"GET /tables/x/ws HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head, _, body = raw_request(server.port, handshake).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and json.loads(body)["code"] == "bad_host"  # not upgraded
    for host in (f"127.0.0.1:{server.port}", "localhost", "[::1]:80", "clubs.example", "a.club.example"):
        assert loopback.get(server.base + "/health", headers={"host": host}).status_code == 200, host


def test_no_such_path_or_method_and_unreadable_http_are_refused_as_json(server: ThreadServer) -> None:
    refused(loopback.get(server.base + "/nope"), 404, "no_path")
    refused(loopback.put(server.base + "/health"), 405, "bad_method")
    refused(loopback.delete(server.base + "/tables"), 405, "bad_method")
    answer = raw_request(server.port, b"GET /\xff HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and json.loads(body)["code"] == "bad_http"


def test_clients_are_counted_by_address_an_ipv6_one_by_its_network() -> None:
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::7") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")


@pytest.mark.server(limits=replace(ROOMY, connections_per_address=2, create_rate="2/minute"), trusted=("127.0.0.1",))
def test_behind_a_trusted_proxy_clients_are_counted_by_the_address_it_names(server: ThreadServer) -> None:
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=30) for _ in range(4)]
    try:  # the proxy's own connections carry many clients: not held to one client's share
        held[3].sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert held[3].recv(12) == b"HTTP/1.1 200"
    finally:
        for s in held:
            s.close()
    for client in ("198.51.100.1", "198.51.100.2"):  # each client its own rate, as the proxy names it
        for _ in range(2):
            r = loopback.post(server.base + "/tables", json={"game": "whist"}, headers={"x-forwarded-for": client})
            assert r.status_code == 201
        r = loopback.post(server.base + "/tables", json={"game": "whist"}, headers={"x-forwarded-for": client})
        refused(r, 429, "rate_limited")
