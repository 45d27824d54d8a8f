"""Load on the game server: many tables at once, people and bots, every client timing its updates.

Run as ``python bench/serve_load.py [--tables N] [--seconds S] ...``. It starts ``clubs serve`` on a free loopback
port over a temporary data directory (or uses ``--url`` of a running server), makes N tables, each with one person
seat played by this process and bots in the others, connects that player and W watchers per table, and plays for S
seconds, counted from when every client has its table's first state (a slow start takes nothing from the time
measured). The player of each table thinks ``--think`` seconds before acting; the bots wait ``--bot-delay`` seconds.

It prints the actions the server accepted per second (every table's version counted) and the latency from a
player's ``act`` to the update it caused at every client of that table (the player and its watchers): p50, p99,
max. Everything is bounded: the run stops by itself after S seconds plus the set-up (whose seating gives up after
two minutes), and the server it started is stopped. The figures are for reading; no test depends on them.

With ``--processes N`` (1 to 3) it starts instead a throwaway PostgreSQL server (as the tests do), N ``clubs serve``
processes over it, and HAProxy with the shipped configuration (``deploy/haproxy.cfg``) in front of them, and every
client talks to the proxy only: tables are made and joined through it, and each socket lands on whichever process
the proxy picks (the request passed on to the table's owner where that is another). The configuration names three
processes; with fewer, the rest point at a port nobody listens on, which the proxy's checks mark down before the
run starts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Table:
    """One table of the run: its id, its player's token, and when each of the player's actions was sent."""

    id: str
    token: str
    sent: dict[int, float] = field(default_factory=dict)
    """For each version the player acted on: when the act was sent (this process's monotonic clock)."""


@dataclass
class Figures:
    """What the run measured."""

    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)
    """When the act of each latency was sent (the monotonic clock, the same in every process of the machine)."""
    acts: int = 0
    refused: int = 0


@dataclass
class Window:
    """When the measured play runs: it opens once every client of the run has its table's first state (so that a
    slow start, on a loaded machine, takes nothing from the time measured) and closes ``seconds`` later. Until it
    opens, players wait with their first move."""

    clients: int
    seconds: float
    seated: int = 0
    all_seated: asyncio.Event = field(default_factory=asyncio.Event)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    stop: float = float("inf")

    def sit(self) -> None:
        """One more client has its first state."""
        self.seated += 1
        if self.seated == self.clients:
            self.all_seated.set()

    def open(self) -> float:
        """Start the measured time; when it opened (the monotonic clock)."""
        start = time.monotonic()
        self.stop = start + self.seconds
        self.opened.set()
        return start


async def watch(
    url: str,
    table: Table,
    figures: Figures,
    stop: float | Window,
    token: str | None,
    rng: random.Random,
    think: float,
) -> None:
    """One client: the player (with ``token``, acting after ``think`` seconds) or a watcher; records latencies.
    ``stop`` is when to stop (the monotonic clock) or the run's :class:`Window`, which the client joins once it has
    its first state."""
    async with connect(url + f"/tables/{table.id}/ws", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "last_version": None}))
        pending: str | bytes | None = None
        if isinstance(stop, Window):
            pending = await ws.recv()  # the first state: the client is seated
            stop.sit()
            await stop.opened.wait()
        end = stop.stop if isinstance(stop, Window) else stop
        while time.monotonic() < end:
            if pending is not None:
                raw, pending = pending, None
            else:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
                except TimeoutError:
                    return
            got = time.monotonic()
            msg = json.loads(raw)
            if msg["type"] == "update":
                acted_on = msg["version"] - 1
                if msg["by"]["source"] == "seat" and acted_on in table.sent:
                    figures.latencies.append(got - table.sent[acted_on])
                    figures.sent_at.append(table.sent[acted_on])
            elif msg["type"] == "error" and token is not None:
                figures.refused += 1
            if token is not None and msg["type"] in ("state", "update") and msg["to_act"] == 0 and not msg["over"]:
                asyncio.get_running_loop().create_task(act(ws, table, msg, figures, rng, think))


async def act(
    ws: ClientConnection, table: Table, msg: dict[str, Any], figures: Figures, rng: random.Random, think: float
) -> None:
    """The player's move: a random legal action after thinking."""
    await asyncio.sleep(think * rng.random() * 2)
    table.sent[msg["version"]] = time.monotonic()
    figures.acts += 1
    with contextlib.suppress(Exception):
        await ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "version": msg["version"]}))


SEATING_SECONDS = 120
"""The longest the clients may take to connect and have their first state before the run gives up."""


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    """Make the tables, play for the time given, and gather the figures."""
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tables = []
        for _ in range(args.tables):
            seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2
            body = {"game": args.game, "seats": seats, "bot_delay": args.bot_delay, "grace": 3600}
            made = (await http.post("/tables", json=body)).raise_for_status().json()
            joined = (await http.post(f"/tables/{made['id']}/join", json={"name": "bench"})).raise_for_status().json()
            tables.append(Table(made["id"], joined["token"]))
        figures = Figures()
        ws_url = base.replace("http://", "ws://")
        window = Window(args.tables * (1 + args.watchers), args.seconds)
        clients = []
        for t in tables:
            clients.append(watch(ws_url, t, figures, window, t.token, random.Random(rng.random()), args.think))
            clients += [watch(ws_url, t, figures, window, None, rng, args.think) for _ in range(args.watchers)]
        playing = asyncio.gather(*clients, return_exceptions=False)
        seated = asyncio.ensure_future(window.all_seated.wait())
        either: list[asyncio.Future[Any]] = [playing, seated]
        await asyncio.wait(either, timeout=SEATING_SECONDS, return_when=asyncio.FIRST_COMPLETED)
        seated.cancel()
        if playing.done():
            await playing  # a client failed before the window opened: its error says why
        if not window.all_seated.is_set():
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
            raise SystemExit(f"{window.seated} of {window.clients} clients seated in {SEATING_SECONDS} s")
        before = sum([(await http.get(f"/tables/{t.id}")).json()["version"] for t in tables])
        start = window.open()
        await playing
        elapsed = time.monotonic() - start
        after = sum([(await http.get(f"/tables/{t.id}")).json()["version"] for t in tables])
    lat = sorted(figures.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": args.tables,
        "clients": args.tables * (1 + args.watchers),
        "seconds": round(elapsed, 2),
        "accepted_actions": after - before,
        "accepted_actions_per_second": round((after - before) / elapsed, 1),
        "player_acts": figures.acts,
        "refused": figures.refused,
        "latency_samples": len(lat),
        "latency_ms_p50": round(pct(0.50), 2),
        "latency_ms_p99": round(pct(0.99), 2),
        "latency_ms_max": round(lat[-1] * 1000, 2) if lat else None,
        "latency_ms_mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
    }


def load_limits(tables: int, watchers: int) -> list[str]:
    """The server's limits raised for the benchmark, whose one address plays the part of every client: its tables,
    their sockets and the rate it makes them at. Every other limit (sizes, times, per-seat counts) stays as served."""
    sockets = tables * (1 + watchers) + 16
    return [
        "--max-tables", str(tables + 16),
        "--tables-per-address", str(tables + 16),
        "--sockets-per-address", str(sockets),
        "--connections-per-address", str(sockets + 64),
        "--max-connections", str(sockets + 256),
        "--spectators-per-table", str(max(watchers, 1)),
        "--create-rate", f"{tables + 16}/minute",
        "--join-rate", f"{tables + 16}/minute",
        "--request-rate", f"{4 * sockets + 1000}/minute",
    ]  # fmt: skip


ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Site:
    """A site started by :func:`site`: the proxy's address, the database's URL and each process by node name."""

    base: str
    db: str
    nodes: dict[str, subprocess.Popen[bytes]]


@contextlib.contextmanager
def site(processes: int, tables: int, watchers: int, lease_seconds: float | None = None) -> Any:
    """PostgreSQL, ``processes`` servers over it and HAProxy in front (module docstring): a :class:`Site`."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pgcluster import Cluster, server_binaries  # the tests' throwaway PostgreSQL server

    binaries = server_binaries()
    haproxy = shutil.which("haproxy", path="/usr/sbin:/sbin:/usr/bin")
    if binaries is None or haproxy is None:
        raise SystemExit("--processes needs PostgreSQL's server binaries and haproxy (apt-get install haproxy)")
    cluster = Cluster(binaries).start()
    started: list[subprocess.Popen[bytes]] = []
    running: Site | None = None
    try:
        url = cluster.new_database()
        ports = [free_port() for _ in range(processes)]
        clubs = str(Path(sys.executable).parent / "clubs")
        for i, port in enumerate(ports):
            cmd = [clubs, "serve", "--port", str(port), "--db", url, "--node", f"node{i + 1}", "--log-level", "warning"]
            cmd += ["--trusted-proxy", "127.0.0.1", *load_limits(tables, watchers)]
            if lease_seconds is not None:
                cmd += ["--lease-seconds", str(lease_seconds)]
            started.append(subprocess.Popen(cmd, stderr=subprocess.DEVNULL, env={**os.environ}))
            await_up(f"http://127.0.0.1:{port}", started[-1])
        dead = free_port()
        proxy_port = free_port()
        env = {**os.environ, "CLUBS_PROXY_BIND": f"127.0.0.1:{proxy_port}"}
        for i in range(3):
            env[f"CLUBS_NODE{i + 1}"] = f"127.0.0.1:{ports[i] if i < processes else dead}"
        proxy = subprocess.Popen(
            [haproxy, "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        started.append(proxy)
        await_up(f"http://127.0.0.1:{proxy_port}", proxy)
        time.sleep(4)  # the checks mark a missing process down (twice a second apart) before the run
        running = Site(f"http://127.0.0.1:{proxy_port}", url, {f"node{i + 1}": started[i] for i in range(processes)})
        yield running
    finally:
        if running is not None:  # a process the caller started again in place of one it stopped
            started += [proc for proc in running.nodes.values() if proc not in started]
        for proc in reversed(started):
            if proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGCONT)  # a paused process must be able to stop
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        cluster.stop()


def await_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    """Wait until ``base`` answers ``/ready`` (at most 60 s), or fail if its process ended."""
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/ready", timeout=1).status_code == 200:
                return
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"{base} did not start")
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    """Start a server (unless --url), or a site of several (--processes), run the load, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--watchers", type=int, default=1, help="spectators per table besides its player (default 1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (default 20)")
    parser.add_argument("--think", type=float, default=0.5, help="the player's mean thinking time, seconds")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the bots' delay before acting, seconds")
    parser.add_argument("--game", default="whist", help="the rules spec of every table (3 seats)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url", default=None, help="a running server to load instead of starting one")
    parser.add_argument(
        "--processes", type=int, default=None, help="1 to 3: that many servers over PostgreSQL behind HAProxy"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 0 <= args.watchers <= 20 or not 0 < args.seconds <= 600:
        parser.error("--tables 1..2000, --watchers 0..20 and --seconds up to 600 keep the run bounded")
    if args.processes is not None and not 1 <= args.processes <= 3:
        parser.error("--processes 1..3: the shipped proxy configuration names three processes")
    if args.processes is not None:
        with site(args.processes, args.tables, args.watchers) as started:
            figures = asyncio.run(run(args, started.base))
        figures["processes"] = args.processes
        return report(figures, args.json)
    server = None
    with tempfile.TemporaryDirectory() as data:
        base = args.url
        if base is None:
            port = free_port()
            clubs = str(Path(sys.executable).parent / "clubs")
            cmd = [clubs, "serve", "--port", str(port), "--data-dir", data, "--log-level", "warning"]
            cmd += load_limits(args.tables, args.watchers)
            server = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, env={**os.environ})
            base = f"http://127.0.0.1:{port}"
        try:
            # A loaded machine may take a while to start a server (60 s, as the site's processes get); one that never
            # answers is stopped below like one that did, so that nothing it started outlives the run.
            deadline = time.monotonic() + 60
            while server is not None:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/health", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or server.poll() is not None:
                    print("the server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.1)
            figures = asyncio.run(run(args, base))
        finally:
            if server is not None:
                server.send_signal(signal.SIGTERM)
                server.wait(30)
    return report(figures, args.json)


def report(figures: dict[str, Any], as_json: bool) -> int:
    """Print the figures."""
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{figures['tables']} tables, {figures['clients']} clients, {figures['seconds']} s: "
            f"{figures['accepted_actions_per_second']} accepted actions/s; act -> update at every client of the "
            f"table: p50 {figures['latency_ms_p50']} ms, p99 {figures['latency_ms_p99']} ms, max "
            f"{figures['latency_ms_max']} ms ({figures['latency_samples']} samples, {figures['refused']} refused)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
