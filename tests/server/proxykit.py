"""Test helpers for several server processes behind a real proxy: Debian's HAProxy with the configuration the project
ships (``deploy/haproxy.cfg``), in front of ``clubs serve`` processes over one PostgreSQL database.

HAProxy comes from the distribution: where it is missing and the tests run as root, ``apt-get install -y haproxy``
installs it. Where it cannot be had, these tests skip with the reason, unless ``CLUBS_REQUIRE_PROXY=1`` (CI sets it),
where they fail instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import psycopg
import pytest
from serverkit import Client, ProcessServer, start_all, wait_until
from websockets.exceptions import ConnectionClosed, InvalidHandshake

import loopback
from pgcluster import free_port

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"
"""The proxy configuration the project ships, used as it is."""
LEASE = "2"
"""Seconds a table stays its owner's without renewal in these tests: a killed owner's tables move within a few."""


def haproxy() -> str:
    """The path of HAProxy, installing Debian's package when it is missing and we are root; skips (or fails, with
    ``CLUBS_REQUIRE_PROXY=1``) with the reason where it cannot be had."""
    found = shutil.which("haproxy") or (shutil.which("haproxy", path="/usr/sbin:/sbin") or None)
    why = ""
    if found is None and os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get"):
        with open(Path(tempfile.gettempdir()) / "clubsuite-haproxy-install.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one installer at a time: the test processes may all find it missing
            found = shutil.which("haproxy", path="/usr/sbin:/sbin:/usr/bin")
            if found is None:
                why = _apt_install()
                found = shutil.which("haproxy", path="/usr/sbin:/sbin:/usr/bin")
    elif found is None:
        why = "haproxy is not installed, and installing it needs root (apt-get install haproxy)"
    if found is None:
        reason = f"no HAProxy for the proxy tests: {why or 'apt-get install haproxy did not provide one'}"
        if os.environ.get("CLUBS_REQUIRE_PROXY") == "1":
            pytest.fail(reason + " (CLUBS_REQUIRE_PROXY=1: the proxy tests must run)")
        pytest.skip(reason)
    return found


def _apt_install() -> str:
    quiet: dict[str, Any] = {"capture_output": True, "text": True, "timeout": 600}
    done = subprocess.run(["apt-get", "install", "-y", "-q", "haproxy"], check=False, **quiet)
    if done.returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], check=False, **quiet)
        done = subprocess.run(["apt-get", "install", "-y", "-q", "haproxy"], check=False, **quiet)
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["apt-get failed"])[-1]


class Proxy:
    """HAProxy with the shipped configuration on a loopback port, in front of three processes (or two: the shipped
    configuration names three, and the third is then the first again, so that the file is used as it is)."""

    def __init__(self, nodes: list[ProcessServer], folder: Path) -> None:
        assert len(nodes) in (2, 3), "the shipped configuration names three processes (two: the first twice)"
        self.port = free_port()
        self.nodes = nodes
        self.log = folder / "haproxy.log"
        named = [*nodes, nodes[0]][:3]
        self.env = {
            **os.environ,
            "CLUBS_PROXY_BIND": f"127.0.0.1:{self.port}",
            **{f"CLUBS_NODE{i + 1}": f"127.0.0.1:{n.port}" for i, n in enumerate(named)},
        }
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """Where clients connect."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proxy:
        """Start it (in the foreground, as a child) and wait until it passes a request on."""
        self._log_file = self.log.open("wb")
        self.proc = subprocess.Popen(
            [haproxy(), "-db", "-f", str(CONFIG)], env=self.env, stdout=self._log_file, stderr=subprocess.STDOUT
        )

        def up() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"haproxy exited with {self.proc.returncode}: {self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                return loopback.get(self.base + "/ready", timeout=2).status_code == 200
            return False

        wait_until(up, 30, "haproxy did not pass a request on")
        return self

    def stop(self) -> None:
        """Stop it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)
            self._log_file.close()


class Node(ProcessServer):
    """A ``clubs serve`` process of a site, with its operators' listener (``--metrics-port``) on loopback."""

    def __init__(self, data_dir: Path, port: int, extra: tuple[str, ...], metrics_port: int) -> None:
        super().__init__(data_dir, port, (*extra, "--metrics-port", str(metrics_port)))
        self.metrics_port = metrics_port

    @property
    def metrics(self) -> str:
        """Where its figures are read (``GET /metrics`` there; the public port has none)."""
        return f"http://127.0.0.1:{self.metrics_port}/metrics"


def node(folder: Path, url: str, name: str) -> Node:
    """A ``clubs serve`` process over the database ``url``, trusting the proxy (and the other processes) on
    loopback to name its clients' addresses, its figures served on a loopback port of their own."""
    place = folder / name
    place.mkdir()
    extra = ("--db", url, "--node", name, "--trusted-proxy", "127.0.0.1", "--lease-seconds", LEASE)
    return Node(place, free_port(), extra, free_port())


@contextlib.contextmanager
def serving_pair(folder: Path, url: str, extra: tuple[str, ...] = ()) -> Iterator[tuple[Node, Node]]:
    """Two processes (``a`` and ``b``, each also given the options ``extra``) over the database at ``url``, both
    serving; both killed at the end, the second first, whatever was done to them meanwhile."""
    first, second = node(folder, url, "a"), node(folder, url, "b")
    for process in (first, second):
        process.extra = (*process.extra, *extra)
    try:
        start_all([first, second])
        yield first, second
    finally:
        for process in (second, first):
            if process.proc is not None:
                process.kill(signal.SIGKILL)


def figures(url: str) -> str:
    """The figures a metrics listener serves at ``url`` (the Prometheus text format)."""
    answer = loopback.get(url, timeout=30)
    assert answer.status_code == 200, (answer.status_code, answer.text[:300])
    return answer.text


def reconnect(base: str, table: str, token: str | None, last_version: int | None, seconds: float = 60) -> Client:
    """Connect to a table as a client whose socket dropped would: again and again (a fifth of a second apart) until
    the table answers with its state, for at most ``seconds`` (a table whose owner died is refused or closed until
    another process has taken it over)."""
    deadline = time.monotonic() + seconds
    while True:
        client: Client | None = None
        try:
            client = Client(base, table, token, last_version=last_version)
            client.until(lambda m: m["type"] == "state", timeout=10)
            return client
        except (OSError, ConnectionClosed, InvalidHandshake, AssertionError, TimeoutError):
            if client is not None:
                client.close()
            if time.monotonic() > deadline:
                raise AssertionError(f"the table {table} did not answer again within {seconds} s") from None
            time.sleep(0.2)


def stored_log(url: str, table: str) -> list[tuple[int, int, str]]:
    """The action log of a table's first match, as stored: (seq, seat, action)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seq, seat, action FROM actions WHERE table_id = %s AND match_no = 0 ORDER BY seq", (table,)
        ).fetchall()
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


def owner_of(url: str, table: str) -> str | None:
    """The node named by a table's lease (live or not), as stored."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT node FROM leases WHERE table_id = %s", (table,)).fetchone()
    return None if row is None else str(row[0])


def turn_of(client: Client, seat: int = 0) -> dict[str, Any]:
    """The latest state or update once it says ``seat`` is to act (the one already received, or the next that
    does)."""
    states = [m for m in client.messages if m["type"] in ("state", "update")]
    last = states[-1] if states else None
    if last is not None and last["to_act"] == seat and not last["over"]:
        return last
    return client.until(lambda m: m["type"] in ("state", "update") and m["to_act"] == seat and not m["over"])


def play(client: Client, moves: int, seat: int = 0) -> None:
    """Make ``moves`` of the seat's moves (the first legal action each time), waiting for each to be told."""
    for _ in range(moves):
        state = turn_of(client, seat)
        version = state["version"]
        client.send({"type": "act", "action": state["legal"][0], "version": version})
        client.until(lambda m, v=version: m["type"] == "update" and m["version"] > v)


class Answer(NamedTuple):
    """An HTTP answer read off the wire: its status and its body (de-chunked)."""

    status: int
    body: bytes


def raw_request(port: int, method: str, target: bytes, body: bytes = b"", timeout: float = 30) -> Answer:
    """Send one request whose target goes on the wire byte for byte (no client library normalises it: ``%2e%2e``,
    ``..``, ``%00`` and the like arrive as written) to a loopback port, and read the whole answer (the connection
    closes after it)."""
    head = b"%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" % (method.encode("ascii"), target)
    if body or method in ("POST", "PUT", "PATCH"):
        head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(head + b"\r\n" + body)
        with contextlib.suppress(ConnectionResetError):
            while chunk := conn.recv(65536):
                received += chunk
    top, _, rest = received.partition(b"\r\n\r\n")
    lines = top.split(b"\r\n")
    assert lines and lines[0].startswith(b"HTTP/1."), f"no HTTP answer to {method} {target!r}: {received[:200]!r}"
    status = int(lines[0].split()[1])
    chunked = any(line.lower().replace(b" ", b"") == b"transfer-encoding:chunked" for line in lines[1:])
    return Answer(status, _dechunk(rest) if chunked else rest)


def _dechunk(data: bytes) -> bytes:
    """A chunked body's bytes, joined."""
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out
