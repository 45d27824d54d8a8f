"""Test helpers for the game server: a real server on a loopback port (uvicorn in a thread, or ``clubs serve`` in a
child process), HTTP calls, and WebSocket clients that keep every message they receive.

The clients are the protocol's own: they speak JSON over a real socket, as a browser or a bot process would.
The fixtures that start these servers for a test (``server``, ``store``, ``web``, ``two_nodes``) are in
``conftest.py`` beside this file.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import jsonschema
import uvicorn
from websockets.exceptions import InvalidState
from websockets.sync.client import ClientConnection, connect

import loopback
from clubsuite.server.http.app import create_app
from clubsuite.server.http.serving import uvicorn_config
from clubsuite.server.limits import HASH_MEMORY_LEAST, ServerLimits
from clubsuite.server.store.database import Store
from clubsuite.server.table.protocol import BURST, RATE
from clubsuite.server.turns.config import TurnConfig
from pgcluster import free_port
from timeouts import HTTP_TIMEOUT, pauses

Message = dict[str, Any]
T = TypeVar("T")


ROOMY = ServerLimits(
    max_tables=100_000,
    tables_per_address=100_000,
    create_rate="100000/minute",
    join_rate="100000/minute",
    replay_rate="100000/minute",
    request_rate="1000000/minute",
    account_rate="100000/minute",
    login_rate="100000/minute",
    puzzle_rate="100000/minute",
    hash_memory=HASH_MEMORY_LEAST,
    hash_passes=1,
)
"""The limits of most test servers: a public server's in every size, time and connection count, but rates and table
counts high enough for a test that makes hundreds of tables from one address in a minute (the tests of those
limits use the defaults), and Argon2id at its cheapest (a default hash takes a quarter of a second of CPU, and every
server start, sign-up and sign-in makes one: the tests of the default setting use the defaults)."""


class PromptServer(uvicorn.Server):
    """uvicorn's server, stopping as soon as :meth:`stop` is called rather than at its main loop's next tick (it
    looks for ``should_exit`` ten times a second): hundreds of test servers stop in a run, each waiting up to that
    tenth for nothing. The loop still refreshes the ``Date`` header once a second, as uvicorn's does."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._stopping = threading.Event()
        self._wake: Callable[[], None] = lambda: None

    async def main_loop(self) -> None:
        """Wait for :meth:`stop` (or the limits uvicorn checks at each tick, once a second)."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()
        self._wake = lambda: loop.call_soon_threadsafe(woken.set)
        while not self._stopping.is_set() and not await self.on_tick(0):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), 1.0)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown, in its order (listeners closed, every connection asked to close, then waited for with
        the tasks they run, within the graceful timeout when there is one, then the application's own shutdown),
        waiting on those conditions 5 ms at a time: uvicorn's waits a fixed tenth of a second after asking the
        connections to close, and looks again a tenth apart, a fifth of a second or more at every test server's
        stop for what is over in milliseconds."""
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            # a WebSocket its page is already closing refuses a second close (websockets' InvalidState, raised in
            # this server's thread, seen once under load): it needs none
            with contextlib.suppress(InvalidState):
                connection.shutdown()
        loop = asyncio.get_running_loop()
        grace = self.config.timeout_graceful_shutdown
        deadline = None if grace is None else loop.time() + grace
        while (self.server_state.connections or self.server_state.tasks) and not self.force_exit:
            if deadline is not None and loop.time() > deadline:
                for task in self.server_state.tasks:
                    task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
                break
            await asyncio.sleep(0.005)
        if not self.force_exit:
            await self.lifespan.shutdown()

    def stop(self) -> None:
        """Ask the server to stop, from any thread; it begins at once."""
        self.should_exit = True
        self._stopping.set()
        with contextlib.suppress(RuntimeError):  # the loop is already closed: nothing to wake
            self._wake()


class ThreadServer:
    """The application served by uvicorn in a background thread on a loopback port, over ``store``, with the
    configuration ``clubs serve`` uses (under ``limits``: :data:`ROOMY` unless given)."""

    def __init__(
        self,
        store: Store,
        limits: ServerLimits | None = None,
        origins: tuple[str, ...] = (),
        hosts: tuple[str, ...] = (),
        trusted: tuple[str, ...] = (),
        bots_after: float = 30.0,
        offline_app: Path | None = None,
        turn_config: TurnConfig | None = None,
    ) -> None:
        # The listening socket is bound here, to a port the system picks, and handed to uvicorn: no other test (or
        # test process) can take the port between choosing it and listening on it. It names TCP as its protocol, as
        # the sockets ``clubs serve`` listens on do: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on
        # connections accepted from such a socket. With it on, a message written while the client had not yet
        # acknowledged the one before waited for the client's delayed acknowledgement (some 40 ms), at the end of
        # every trick: time no player of a real server loses, and most of what the server tests spent waiting.
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.socket.bind(("127.0.0.1", 0))
        self.port = int(self.socket.getsockname()[1])
        self.limits = limits or ROOMY
        config = uvicorn_config(
            create_app(
                store, self.limits, origins, hosts, bots_after, offline_app=offline_app, turn_config=turn_config
            ),
            self.limits,
            "127.0.0.1",
            self.port,
            trusted,
            log_level="warning",
        )
        # No keepalive pings to the test clients: they share this process (and its interpreter lock) with the server
        # and its bots, and on a loaded machine a client's answer could wait past the ping's timeout (1011).
        config.ws_ping_interval = None
        self.server = PromptServer(config)
        self.server.install_signal_handlers = lambda: None  # type: ignore[method-assign]  # not the main thread
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    @property
    def base(self) -> str:
        """The server's address."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        # Looked at every 5 ms (a flag of this process, not a request): the server is up in tens of milliseconds,
        # and the slowing polls of wait_until overshot that by as much again at every test server's start.
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise AssertionError("the server did not start")
            time.sleep(0.005)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()
        self.thread.join(15)
        self.socket.close()


class ProcessServer:
    """``clubs serve`` in a child process on a loopback port, over a data directory (for stopping it for real)."""

    def __init__(self, data_dir: Path, port: int | None = None, extra: tuple[str, ...] = ()) -> None:
        self.port = port or free_port()
        self.data_dir = data_dir
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """The server's address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ProcessServer:
        """Start it and wait until it answers."""
        return self.launch().wait_up()

    def launch(self) -> ProcessServer:
        """Start the process without waiting for it (:meth:`wait_up` waits): several are started side by side."""
        args = [str(Path(sys.executable).parent / "clubs"), "serve", "--port", str(self.port)]
        args += ["--data-dir", str(self.data_dir), "--log-level", "info", *self.extra]
        self.log = self.data_dir / f"server-{self.port}-{time.monotonic_ns()}.log"
        self._log_file = self.log.open("wb")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self._log_file, env={**os.environ})
        return self

    def wait_up(self) -> ProcessServer:
        """Wait until the launched process answers (it fails, with the process's log, if it exits first)."""

        def up() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"clubs serve exited with {self.proc.returncode}: {self.logs()}")
            with contextlib.suppress(httpx.HTTPError):
                return loopback.get(self.base + "/health", timeout=1).status_code == 200
            return False

        wait_until(up, 90, "clubs serve did not answer")
        return self

    def __enter__(self) -> ProcessServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        """Make sure the server is gone, whatever the test did."""
        if self.proc is not None and self.proc.poll() is None:
            self.kill(signal.SIGKILL)

    def kill(self, sig: int = signal.SIGKILL) -> int:
        """Send ``sig`` and wait for the process to end; its exit status."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            return self.proc.returncode
        self.proc.send_signal(sig)
        code = self.proc.wait(30)
        self._log_file.close()
        return code

    def logs(self) -> str:
        """What the server wrote to standard error so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


def start_all(servers: list[ProcessServer]) -> None:
    """Start every server, side by side (each starts as it would alone: several processes over one database start
    together in a real deployment too), and wait until each answers."""
    for server in servers:
        server.launch()
    for server in servers:
        server.wait_up()


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def validate(instance: Any, schema: dict[str, Any]) -> None:
    """``jsonschema.validate(instance, schema)``: the same check and the same error, with the schema itself checked
    and its validator built once, not again for every message (that took some 9 ms a message, most of the time of a
    test that checks a whole match's messages)."""
    made = _VALIDATORS.get(id(schema))
    if made is None or made[0] is not schema:
        kind = jsonschema.validators.validator_for(schema)
        kind.check_schema(schema)
        made = _VALIDATORS[id(schema)] = (schema, kind(schema))
    error = jsonschema.exceptions.best_match(made[1].iter_errors(instance))
    if error is not None:
        raise error


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Wait for ``check()`` to hold, polling; fails with ``what`` after ``seconds``. The polls start 20 ms apart and
    slow to four a second (:func:`timeouts.pauses`): a check that asks a server (a cheap request now) stays far under a
    real server's request rate (600 a minute per address) however long a loaded machine makes the wait."""
    deadline = time.monotonic() + seconds
    waits = pauses()
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(next(waits))


def post(base: str, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
    """POST JSON and check the status; the decoded answer."""
    r = loopback.post(base + path, json=body or {}, timeout=HTTP_TIMEOUT)
    assert r.status_code == status, (r.status_code, r.text)
    return r.json()


def get(base: str, path: str, status: int = 200) -> Any:
    """GET and check the status; the decoded answer (text when it is not JSON)."""
    r = loopback.get(base + path, timeout=HTTP_TIMEOUT)
    assert r.status_code == status, (r.status_code, r.text)
    try:
        return r.json()
    except ValueError:
        return r.text


def new_table(base: str, game: str, seats: list[dict[str, Any]] | None = None, **settings: Any) -> Message:
    """Make a table (bots act at once unless told otherwise)."""
    body: dict[str, Any] = {"game": game, "bot_delay": 0, **settings}
    if seats is not None:
        body["seats"] = seats
    return post(base, "/tables", body, 201)  # type: ignore[no-any-return]


@contextlib.contextmanager
def its_tables_closed(server: ThreadServer) -> Iterator[None]:
    """The tables made meanwhile on ``server`` (a module's, its tests' in turn) closed at the end, as the stop of a
    server of the test's own closes them: a bot would otherwise take over each seat its player left (30 s on) and
    play the match on, unseen, while the module's other tests run."""
    hub = server.server.config.app.state.hub

    async def table_ids() -> set[str]:
        return set(hub.tables)

    async def close_new(before: set[str]) -> None:
        for table in [t for key, t in hub.tables.items() if key not in before]:
            await hub.close_table(table, telling="its test is over")

    before = asyncio.run_coroutine_threadsafe(table_ids(), hub.loop).result(60)
    try:
        yield
    finally:
        asyncio.run_coroutine_threadsafe(close_new(before), hub.loop).result(60)


def seated(server: ThreadServer, game: str = "whist", people: int = 1, **settings: Any) -> tuple[str, list[str]]:
    """A table of ``game`` with ``people`` person seats first and bots in the others: (table id, tokens)."""
    n = {"whist": 3, "free": 3, "partnership": 4}.get(game, 4)
    seats = [{"kind": "person"}] * people + [{"kind": "bot", "bot": "random"}] * (n - people)
    table = new_table(server.base, game, seats, **settings)
    tokens = [post(server.base, f"/tables/{table['id']}/join", {"name": f"p{i}"})["token"] for i in range(people)]
    return table["id"], tokens


def my_turn(client: Client, seat: int = 0) -> Message:
    """Wait until a state or update says ``seat`` is to act."""
    return client.until(lambda m: m["type"] in ("state", "update") and m["to_act"] == seat and not m["over"])


class Client:
    """A WebSocket client of one table: says hello, keeps every message received, acts on request."""

    def __init__(
        self,
        base: str,
        table: str,
        token: str | None = None,
        last_version: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """``headers``: sent with the opening request (a ``Cookie``: a signed-in spectator)."""
        url = base.replace("http://", "ws://") + f"/tables/{table}/ws"
        # No keepalive pings of its own: on a loaded machine a ping unanswered within its timeout closed a test
        # client (1011) mid-test; the server pings, and the client answers those. And no limit on the messages
        # received and not yet read (max_queue): with one, a client that had not read all of a match's messages
        # stopped reading its socket, so that closing it waited out the close timeout (10 s) for a closing frame
        # it could not read. A test reads what it wants of them; none relies on the client holding the server up.
        self._opened = connect(
            url, open_timeout=10, max_size=2**24, ping_interval=None, max_queue=None, additional_headers=headers
        )
        self.ws: ClientConnection = self._opened.__enter__()
        self.messages: list[Message] = []
        self.sent: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._rate, self._burst = 0.8 * RATE, BURST - 10
        self._tokens, self._at = self._burst, time.monotonic()
        self.send({"type": "hello", "protocol": 1, "token": token, "last_version": last_version})

    def send(self, msg: dict[str, Any], paced: bool = True) -> None:
        """Send one message (kept), keeping under the server's message rate as any well-behaved client must.

        A tight loop of actions against instant bots can outrun the documented limit (RATE messages a second, BURST at
        once) on a fast machine, and the server answers ``rate_limited`` and drops the message. The client keeps its
        own bucket, a little below the server's so that network jitter cannot empty the server's, and waits for a
        token when it is out. ``paced=False`` sends at once (the test of the limit itself).
        """
        if paced:
            now = time.monotonic()
            self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
            if self._tokens < 1:
                time.sleep((1 - self._tokens) / self._rate)
                self._tokens = 1.0
            self._tokens -= 1
            self._at = time.monotonic()
        self.sent.append(msg)
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10) -> Message:
        """The next message (kept)."""
        text = self.ws.recv(timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: Message = json.loads(text)
        self.messages.append(msg)
        return msg

    def until(self, check: Callable[[Message], bool], timeout: float = 20) -> Message:
        """Read messages until one satisfies ``check``; that message."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                msg = self.recv(left)
            except TimeoutError:
                raise AssertionError(f"no such message in {timeout} s; the last ones: {self.messages[-3:]}") from None
            if check(msg):
                return msg

    def drain(self, quiet: float = 0.05) -> list[Message]:
        """Every message that arrives until the socket has been quiet for ``quiet`` seconds."""
        got = []
        with contextlib.suppress(TimeoutError):
            while True:
                got.append(self.recv(quiet))
        return got

    def pending(self) -> list[Message]:
        """Every message already received and not yet read (kept), without waiting for more."""
        got = []
        with contextlib.suppress(TimeoutError):
            while True:
                got.append(self.recv(0))
        return got

    def last_state(self) -> Message:
        """The latest state or update received."""
        return next(m for m in reversed(self.messages) if m["type"] in ("state", "update"))

    def close(self) -> None:
        """Close the socket."""
        with contextlib.suppress(Exception):
            self._opened.__exit__(None, None, None)


K = TypeVar("K")


def arrivals(clients: dict[K, Client], seconds: float) -> Iterator[tuple[K, Message]]:
    """Every message the clients receive, as (its client's key, the message), each client's in the order it got
    them, for at most ``seconds`` (then it fails): what has arrived is handed over at once, and only when no client
    has anything waiting does it wait, 5 ms at a time, for the first client's next message (every table change is sent
    to every client). A client that acts on a message hands its answer to the server at once,
    instead of after waiting for its socket to go quiet: the same messages in the same order, without idle time."""
    deadline = time.monotonic() + seconds
    first = next(iter(clients))
    while time.monotonic() < deadline:
        got = False
        for key, client in clients.items():
            for msg in client.pending():
                got = True
                yield key, msg
        if not got:
            try:
                msg = clients[first].recv(0.005)
            except TimeoutError:
                continue
            yield first, msg
    raise AssertionError(f"what was awaited did not come within {seconds} s")


@contextlib.contextmanager
def clients(base: str, table: str, tokens: list[str | None]) -> Iterator[list[Client]]:
    """One connected client per token (None: a spectator), closed at the end."""
    made = [Client(base, table, t) for t in tokens]
    try:
        yield made
    finally:
        for c in made:
            c.close()


def in_own_loop(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``main()`` to its end in a new event loop of its own thread: a browser test before it in the same test
    process may have left Playwright's loop running in this thread, where ``asyncio.run`` is refused."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()
