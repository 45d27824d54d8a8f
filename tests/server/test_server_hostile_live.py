"""The page's socket (``/live``) against a stranger who means harm (loopback only), on SQLite and PostgreSQL: binary
frames, text that is not UTF-8, JSON nested beyond reason or holding numbers too large, a flood beyond the message
rate, more topics than a socket may watch, more sockets than an address may open, a page of another site, and a
client that never reads what it is sent.

Every refusal is a documented ``error`` (the socket going on) or a close with a code; nothing a stranger sends
leaves a traceback in the log, and what the server keeps for a socket stays bounded.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import struct
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from serverkit import ROOMY, Client, ThreadServer, seated, wait_until
from test_server_live import Live
from test_server_rated import account
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from clubsuite.server.community.watching import QUEUE_MAX, TOPICS_MAX, Watching
from clubsuite.server.table.protocol import BURST, RATE

pytestmark = pytest.mark.backends("sqlite", "postgresql")


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """After the test: nothing the server logged carries a traceback (a stranger's input is never a fault)."""
    caplog.set_level(logging.INFO)
    yield
    faults = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not faults, [r.getMessage() for r in faults]


def watching_of(server: ThreadServer) -> Watching:
    found: Watching = server.server.config.app.state.watching
    return found


def error_after(live: Live, sent: str | bytes) -> dict[str, Any]:
    """Send one frame as it is; the error it is answered with."""
    live.messages.clear()
    live.ws.send(sent)
    return live.until(lambda m: m["type"] in ("error", "pong"), 30)


def still_answers(live: Live) -> None:
    live.messages.clear()
    live.send({"type": "ping"})
    live.until(lambda m: m["type"] == "pong", 30)


# -- raw frames ---------------------------------------------------------------------------------------------------
def raw_live(port: int, address: str = "127.0.0.1", receive_buffer: int | None = None) -> socket.socket:
    """A socket that opened ``/live`` by hand (its handshake answered 101)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    s.bind((address, 0))
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)  # byte by byte: what follows the head is the server's first frame
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:100]
    return s


def frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (final, masked with a zero mask, so that the payload goes as it is)."""
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + b"\x00\x00\x00\x00" + payload


def read_frames(s: socket.socket, seconds: float) -> list[tuple[int, bytes]]:
    """The server's frames (opcode, payload) until it closes the connection or ``seconds`` pass."""
    data = b""
    deadline = time.monotonic() + seconds
    with contextlib.suppress(OSError):
        while time.monotonic() < deadline:
            s.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
    frames = []
    while len(data) >= 2:
        n, at = data[1] & 0x7F, 2
        if n == 126:
            n, at = struct.unpack("!H", data[2:4])[0], 4
        elif n == 127:
            n, at = struct.unpack("!Q", data[2:10])[0], 10
        if len(data) < at + n:
            break
        frames.append((data[0] & 0x0F, data[at : at + n]))
        data = data[at + n :]
    return frames


# -- frames and messages ------------------------------------------------------------------------------------------
def test_binary_frames_are_read_as_the_same_bytes_would_be_and_bytes_that_are_not_utf8_are_refused(
    server: ThreadServer, no_tracebacks: None
) -> None:
    live = Live(server)
    try:
        live.until(lambda m: m["type"] == "welcome")
        got = error_after(live, b"\xff\xfe\x00")
        assert got["code"] == "bad_json" and "UTF-8" in got["message"], got
        got = error_after(live, b"")
        assert got["code"] == "bad_json", got
        got = error_after(live, b"\x89PNG\r\n\x1a\n" + os.urandom(200))
        assert got["code"] == "bad_json", got
        got = error_after(live, b'{"type": "shout"}')
        assert got["code"] == "bad_message" and "'type'" in got["message"], got
        got = error_after(live, b'{"type": "ping"}')  # a binary frame holding a message is that message
        assert got["type"] == "pong", got
        still_answers(live)
    finally:
        live.close()


def test_a_text_frame_that_is_not_utf8_closes_its_socket_alone(server: ThreadServer, no_tracebacks: None) -> None:
    other = Live(server)
    s = raw_live(server.port)
    try:
        other.until(lambda m: m["type"] == "welcome")
        s.sendall(frame(0x1, b'{"type": "ping", "x": "\xff\xfe"}'))
        frames = read_frames(s, 30)
        closes = [payload for opcode, payload in frames if opcode == 0x8]
        assert closes and struct.unpack("!H", closes[0][:2])[0] == 1007, frames  # invalid frame payload data
        assert not any(b"pong" in payload for _, payload in frames)
        still_answers(other)
        wait_until(lambda: len(watching_of(server).watchers) == 1, 30, "the closed socket was not counted out")
    finally:
        s.close()
        other.close()


def test_json_nested_beyond_reason_or_holding_numbers_too_large_is_refused_and_the_socket_goes_on(
    server: ThreadServer, no_tracebacks: None
) -> None:
    live = Live(server)
    try:
        live.until(lambda m: m["type"] == "welcome")
        cases: list[tuple[str, str, str]] = [
            ("[" * 2000 + "]" * 2000, "bad_json", "nested"),
            (
                '{"type": "ping", "n": ' + '{"a":' * 600 + "1" + "}" * 601,
                "bad_message",
                "'n'",
            ),  # deep, yet bounded by the size
            ('{"type": "ping", "n": 1e999}', "bad_json", "too large"),
            ('{"type": "ping", "n": -1e999}', "bad_json", "too large"),
            ('{"type": "ping", "n": NaN}', "bad_json", "JSON"),
            ('{"type": "ping", "n": Infinity}', "bad_json", "JSON"),
            ('{"type": "ping", "type": "watch"}', "bad_json", "type"),
            ('{"type": "watch", "topic": ' + "9" * 4000 + "}", "bad_message", "'topic'"),
            ('{"type": "watch", "topic": 1e308}', "bad_message", "'topic'"),
            ('{"type": "ping", "n": 1e-999}', "bad_message", "'n'"),
            ('{"type": "watch", "topic": ["tournaments"]}', "bad_message", "'topic'"),
            ('{"type": "watch", "topic": "tournament:\\u0000"}', "bad_topic", "'topic'"),
            ('{"type": "unwatch", "topic": "' + "t" * 61 + '"}', "bad_message", "at most 60 characters"),
            ('"ping"', "bad_json", "one JSON object"),
            ("null", "bad_json", "one JSON object"),
            ("", "bad_json", "JSON"),
        ]
        for sent, code, named in cases:
            got = error_after(live, sent)
            assert got.get("code") == code and named in got["message"], (sent[:60], got)
            assert len(got["message"]) < 400, got  # the rule, not the message sent back
        still_answers(live)
    finally:
        live.close()


def test_a_flood_beyond_the_message_rate_is_answered_rate_limited_and_stays_bounded(
    server: ThreadServer, no_tracebacks: None
) -> None:
    """400 messages at once: the first ones (the burst) answered, the rest refused as over the rate, each refusal
    queued for the socket like any answer; a flood that queues more than :data:`QUEUE_MAX` answers before the
    socket takes them is dropped (closed after what was queued). Either way the answers are bounded, and a socket
    that kept to the rate is served as ever."""
    live = Live(server)
    calm = Live(server)
    sent = 400
    try:
        for x in (live, calm):
            x.until(lambda m: m["type"] == "welcome")
        started = time.monotonic()
        with contextlib.suppress(ConnectionClosed):  # dropped mid-flood
            for _ in range(sent):
                live.ws.send('{"type": "ping"}')
        got: list[dict[str, Any]] = []
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            while True:
                got.append(json.loads(live.ws.recv(timeout=2)))
        elapsed = time.monotonic() - started
        pongs = sum(1 for m in got if m["type"] == "pong")
        limited = [m for m in got if m.get("code") == "rate_limited"]
        assert len(got) <= sent and pongs + len(limited) == len(got), got[-3:]
        assert pongs <= BURST + RATE * elapsed + 1, (pongs, elapsed)  # the rate: what it answers as asked
        assert limited and limited[0]["message"] == "too many messages: slow down"
        assert all(len(w.topics) == 0 and w.queue.qsize() <= QUEUE_MAX for w in watching_of(server).watchers)
        still_answers(calm)
    finally:
        live.close()
        calm.close()
    wait_until(lambda: not watching_of(server).watchers, 30, "the sockets were not counted out")


def test_a_socket_watches_at_most_eight_topics_and_what_it_watched_goes_with_it(
    server: ThreadServer, no_tracebacks: None
) -> None:
    watching = watching_of(server)
    lives = [Live(server) for _ in range(3)]
    try:
        for live in lives:
            live.until(lambda m: m["type"] == "welcome")
            for k in range(TOPICS_MAX):
                live.send({"type": "watch", "topic": f"tournament:t{k}"})
            live.send({"type": "watch", "topic": "tournament:t0"})  # watched already: no new topic
            got = error_after(live, json.dumps({"type": "watch", "topic": "tournaments"}))
            assert got["code"] == "too_many_topics" and f"at most {TOPICS_MAX}" in got["message"], got
            for k in range(20):  # many more, each refused
                live.send({"type": "watch", "topic": f"tournament:more{k}"})
            still_answers(live)
            assert [m.get("code") for m in live.messages if m["type"] == "error"].count("too_many_topics") <= 20
        wait_until(lambda: len(watching.by_topic) == TOPICS_MAX, 30, "the topics were not all watched")
        assert all(len(w.topics) == TOPICS_MAX for w in watching.watchers)
        assert all(len(ws) == 3 for ws in watching.by_topic.values())
        lives[0].send({"type": "unwatch", "topic": "tournament:t7"})
        lives[0].send({"type": "unwatch", "topic": "tournament:never"})  # not watched: nothing to do
        lives[0].send({"type": "watch", "topic": "tournaments"})
        still_answers(lives[0])
        assert not any(m.get("code") == "too_many_topics" for m in lives[0].messages)
        lives[0].until(lambda m: m["type"] == "tournaments", 30)
    finally:
        for live in lives:
            live.close()
    wait_until(lambda: not watching.watchers and not watching.by_topic, 30, "what the sockets watched was kept")


@pytest.mark.server(limits=replace(ROOMY, sockets_per_address=3))
def test_page_sockets_are_bounded_per_address_counted_apart_from_the_tables(
    server: ThreadServer, no_tracebacks: None
) -> None:
    watching = watching_of(server)
    lives = [Live(server) for _ in range(3)]
    table, (token,) = seated(server)
    at_table: list[Client] = []
    try:
        for live in lives:
            live.until(lambda m: m["type"] == "welcome")
        for _ in range(2):
            extra = Live(server)
            try:
                got = extra.until(lambda m: m["type"] == "error", 30)
                assert got["code"] == "too_many_connections" and "your address has 3" in got["message"], got
                with pytest.raises(ConnectionClosed) as closed:
                    extra.until(lambda m: False, 30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
                assert not any(m["type"] == "welcome" for m in extra.messages)
            finally:
                extra.close()
        assert sum(watching.by_address.values()) == 3
        # the tables count their own sockets: a player's and a spectator's are let in
        at_table = [Client(server.base, table, token), Client(server.base, table)]
        for c in at_table:
            c.until(lambda m: m["type"] == "state")
        # another address has its own share
        s = socket.create_connection(("127.0.0.1", server.port), timeout=30, source_address=("127.0.0.2", 0))
        url = server.base.replace("http://", "ws://") + "/live"
        with connect(url, sock=s, open_timeout=10, ping_interval=None) as elsewhere:
            assert json.loads(elsewhere.recv(30))["type"] == "welcome"
        lives.pop().close()
        wait_until(lambda: sum(watching.by_address.values()) == 2, 30, "the closed socket was not counted out")
        again = Live(server)
        lives.append(again)
        assert again.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
    finally:
        for live in lives:
            live.close()
        for c in at_table:
            c.close()
    wait_until(lambda: not watching.by_address, 30, "the sockets were not counted out")


@pytest.mark.server(origins=("https://club.example",))
def test_a_page_of_another_site_may_not_open_the_pages_socket(server: ThreadServer, no_tracebacks: None) -> None:
    """The socket carries what is meant for the signed-in account alone (its seats, its notices): a page of another
    site, which the browser would send the account's cookie with, is refused before it opens."""
    ann, _, _ = account(server, "Ann")
    url = server.base.replace("http://", "ws://") + "/live"
    cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in ann.cookies.items())}
    try:
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin=Origin("https://evil.example"), additional_headers=cookie, open_timeout=10)
        assert refused.value.response.status_code == 403
        assert not watching_of(server).watchers
        for origin in (f"http://127.0.0.1:{server.port}", "https://club.example"):
            with connect(url, origin=Origin(origin), additional_headers=cookie, open_timeout=10) as ws:
                welcome = json.loads(ws.recv(30))
                assert (welcome["type"], welcome["name"]) == ("welcome", "Ann")
    finally:
        ann.close()


def test_a_cookie_that_opens_no_session_is_a_guests_socket(server: ThreadServer, no_tracebacks: None) -> None:
    url = server.base.replace("http://", "ws://") + "/live"
    for value in ("x" * 5000, "not-a-session", "%00", "a;b=c"):
        cookie = {"Cookie": f"clubs_session={value}"}
        try:
            with connect(url, additional_headers=cookie, open_timeout=10) as ws:
                welcome = json.loads(ws.recv(30))
                assert (welcome["type"], welcome["name"]) == ("welcome", None)
        except InvalidStatus as exc:  # a head too large for the server is refused before it opens
            assert exc.response.status_code in (400, 431), value
    wait_until(lambda: not watching_of(server).watchers, 30, "the sockets were not counted out")


def test_a_client_that_never_reads_is_dropped_and_what_is_kept_for_it_stays_bounded(
    server: ThreadServer, no_tracebacks: None
) -> None:
    """A socket that reads nothing while it floods the server with messages, each answered (a pong, or an error
    once over the rate): once the system's buffers are full, the answers wait in the socket's queue, and at
    :data:`QUEUE_MAX` the socket is dropped rather than kept growing; the server reads no more of it, and other
    sockets are served as ever."""
    watching = watching_of(server)
    calm = Live(server)
    calm.until(lambda m: m["type"] == "welcome")
    before = set(watching.watchers)
    s = raw_live(server.port, receive_buffer=4096)
    try:
        wait_until(lambda: len(watching.watchers) == 2, 30, "the socket did not open")
        [mine] = set(watching.watchers) - before
        ping = frame(0x1, b'{"type":"ping"}')
        s.settimeout(0.5)
        most = 0
        deadline = time.monotonic() + 120
        while mine in watching.watchers:
            assert time.monotonic() < deadline, f"never dropped; {mine.queue.qsize()} queued"
            with contextlib.suppress(TimeoutError):
                s.sendall(ping * 200)
            most = max(most, mine.queue.qsize())
        most = max(most, mine.queue.qsize())
        assert mine.dropped and most <= QUEUE_MAX + 2  # the messages, and the two marks of its end (drop, close)
        still_answers(calm)
        again = Live(server)
        try:
            assert again.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
        finally:
            again.close()
    finally:
        s.close()
        calm.close()
    wait_until(lambda: not watching.watchers, 30, "the sockets were not counted out")
