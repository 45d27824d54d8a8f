"""Load on one server process from an arena: N signed-in players at its tables while its standings are pushed to
every one of them.

Run as ``python bench/arena_load.py [--players N] [--seconds S] [--game SPEC] [--think T] [--clients C] ...``. It
starts ``clubs serve`` (one process, over SQLite in a temporary data directory) on a free loopback port, makes N
accounts, one arena of GAME (three seats for whist; bots fill a short table after the arena's wait, acting after
``--bot-delay`` seconds) hosted by the first account, enters every account and has the host start it. Every player
keeps the page's socket (``/live``) open watching ``tournament:<id>``, so that the N of them are sent the standings'
pushes; whenever it is seated (the ``seat`` notice pushed, or ``GET /tournaments/{id}/seat`` once it has waited
longer than the arena's wait for bots with no push), it asks the table for its seat's token (``POST
/tables/{id}/seat``, as a page does), connects to its table, plays a random legal action ``--think`` seconds on
average after it is its turn, and leaves when the match is over, for the next table it is pushed. The players are
played from ``--clients`` processes (default 2), so that the load generator is not what saturates first.

A whist match (to 11 points) takes some 470 actions, about eight minutes at one action a second, so in a run of a
few minutes no table of ``--game whist`` ends: to see players go from table to table (and the standings change), give
a shorter match, such as ``--game 'whist(target=1)'`` (one hand, some 40 actions).

It prints, over the S seconds after the start:

* the actions the server accepted a second (the highest version each table's players saw; the bots' among them),
  and the latency from a player's ``act`` to the update at that player (p50, p99, max), also split by whether a
  standings push was on its way to the watchers meanwhile (from 50 ms before the first watcher received it to when
  the last did);
* the standings pushes each watcher received (count, distinct versions, the time between two) and how long one
  push took to reach every watcher, the tournament's own version count, the players' lines (``tournament_me``);
* the seating: from the start to the last first seat, the wait from a table's end to the next seat, tables
  finished, players left waiting at the end, seats found only by asking;
* the server's CPU (cores busy, its event loop's thread apart) and resident memory (idle, before the entrants
  joined, after, at the end, per player), the loop's own delay (a ping on a page's socket every 0.1 s), the cycle
  collector's full collections, the load generator's CPU and what the rest of the machine used meanwhile;
* the server log's warnings and errors.

Everything is bounded: the set-up, the run and the wind-down each have a deadline, the client processes and the
server are stopped, and the data directory is removed. The server's limits are raised only where one loopback
address plays the part of every player (``load_limits``), and the password hash is made cheap so that making the
accounts takes seconds. The figures are for reading; no test depends on them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_compare import cpu_seconds, rss_bytes
from serve_load import await_up, free_port

COOKIE = "clubs_session"
BOTS_AFTER = 20.0
"""The seconds an arena's free player waits for people before bots fill the table (the server's own figure)."""
ASK_AFTER = BOTS_AFTER + 10.0
"""A player who has waited this long with no seat pushed asks for it (``GET /tournaments/{id}/seat``)."""
SETUP_SECONDS = 300.0
"""The most the accounts, the arena and the entries may take."""


def load_limits(players: int, max_tables: int | None = None) -> list[str]:
    """The server's limits raised for the benchmark, whose one address plays the part of every player: accounts
    and sign-ins made, entries, requests, sockets (a page's socket and a table's for each player, and a second
    table's while one is left) and connections, and the open tables (an arena's finished tables stay open until
    nobody has been at them for ``--table-idle``). The password hash is made cheap (a test's account, not a real
    one's). Every other limit (sizes, times, per-seat counts, rates of messages) stays as served."""
    sockets = 2 * players + 64
    return [
        "--max-tables", str(max_tables or 8 * players + 64),
        "--sockets-per-address", str(sockets),
        "--connections-per-address", str(2 * sockets),
        "--max-connections", str(2 * sockets + 256),
        "--account-rate", f"{players + 16}/minute",
        "--login-rate", f"{players + 16}/minute",
        "--join-rate", f"{players + 16}/minute",
        "--request-rate", f"{20 * players + 1000}/minute",
        "--hash-memory", "1024",
        "--hash-passes", "1",
        "--hash-queue", "64",
    ]  # fmt: skip


def pct(values: list[float], p: float) -> float | None:
    """The ``p`` quantile of ``values`` (None where there are none)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def ms(value: float | None) -> float | None:
    """Seconds as milliseconds, rounded."""
    return None if value is None else round(value * 1000, 1)


def scrape(url: str) -> dict[str, float]:
    """The server's ``/metrics`` figures by name (labels included); empty where it answers none."""
    try:
        text = httpx.get(url + "/metrics", timeout=30).text
    except httpx.HTTPError:
        return {}
    figures = {}
    for row in text.splitlines():
        name, _, value = row.rpartition(" ")
        if name and not row.startswith("#"):
            with contextlib.suppress(ValueError):
                figures[name] = float(value)
    return figures


def machine_busy() -> float | None:
    """The seconds of CPU the whole machine has spent busy (every core, every process), from /proc/stat."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, IndexError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int) -> tuple[float, float] | None:
    """The CPU seconds of process ``pid``'s main thread (the event loop's) and of all its threads, from /proc."""
    main = cpu_seconds(pid)
    try:
        fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        loop = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None
    return (loop, main) if main is not None else None


# -- one process of the load generator ---------------------------------------------------------------------------


class Share:
    """One client process's players and what they measure (plain values: they go back to the main process)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.o = options
        self.ws_url = options["base"].replace("http://", "ws://")
        self.topic = f"tournament:{options['tournament']}"
        self.start = math.inf
        """When the host started the arena (this machine's monotonic clock); inf until told."""
        self.latencies: list[tuple[float, float]] = []
        """(when the act was sent, seconds until the acting player's update)."""
        self.pushes: dict[int, list[float]] = {}
        """Per standings version: the first and last time a watcher here received it, how many did, and how many
        lines (``tournament_me``) that followed it were of another version."""
        self.watchers: list[dict[str, Any]] = []
        self.waits: list[tuple[float, float]] = []
        """When a player was seated again, and the seconds since its table ended."""
        self.first_seats: list[float] = []
        self.finished: set[str] = set()
        self.tables_played: set[str] = set()
        self.versions: dict[str, list[int]] = {}
        """Per table: the highest version its players saw here (its accepted actions), and the actions of its
        bots among them."""
        self.acts = 0
        self.refused: Counter[str] = Counter()
        self.live_errors: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.taken_over = 0
        self.asked = 0
        self.found_by_asking = 0
        self.moved_early = 0
        self.http: httpx.AsyncClient | None = None


class Player:
    """One simulated player: a page's socket watching the arena, and the table it sits at, if any."""

    def __init__(self, share: Share, cred: dict[str, str], rng: random.Random) -> None:
        self.s = share
        self.cred = cred
        self.rng = rng
        self.table: str | None = None
        self.task: asyncio.Task[None] | None = None
        self.live_task: asyncio.Task[None] | None = None
        self.played: set[str] = set()
        self.waiting_since: float | None = None
        """When its last table ended (None before its first seat, and while it plays)."""
        self.ready = asyncio.Event()
        self.figures: dict[str, Any] = {"pushes": 0, "versions": set(), "me": 0, "me_behind": 0, "gaps": []}
        self.sent: dict[int, float] = {}

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.cred['secret']}"}

    async def live(self) -> None:
        """The page's socket: the standings' pushes counted, a seat pushed taken."""
        f = self.figures
        last_push: float | None = None
        last_version = None
        try:
            async with connect(self.s.ws_url + "/live", additional_headers=self.headers(), max_size=2**24) as ws:
                await ws.send(json.dumps({"type": "watch", "topic": self.s.topic}))
                self.ready.set()
                async for raw in ws:
                    got = time.monotonic()
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind == "tournament":
                        version = msg["tournament"]["version"]
                        last_version = version
                        if got < self.s.start:
                            continue
                        f["pushes"] += 1
                        f["versions"].add(version)
                        if last_push is not None:
                            f["gaps"].append((got, got - last_push))
                        last_push = got
                        seen = self.s.pushes.setdefault(version, [got, got, 0, 0])
                        seen[0], seen[1], seen[2] = min(seen[0], got), max(seen[1], got), seen[2] + 1
                    elif kind == "tournament_me" and got >= self.s.start:
                        f["me"] += 1
                        if msg.get("version") != last_version:
                            f["me_behind"] += 1
                            if last_version in self.s.pushes:
                                self.s.pushes[last_version][3] += 1
                    elif kind == "notice" and msg.get("notice", {}).get("kind") == "seat":
                        self.seated(msg["notice"]["body"], got, asked=False)
                    elif kind == "error":
                        self.s.live_errors[str(msg.get("code"))] += 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.s.failures[f"live: {type(exc).__name__}"] += 1
        finally:
            self.ready.set()

    def seated(self, msg: dict[str, Any], got: float, asked: bool) -> None:
        """A seat to play (pushed, or found by asking): go to it unless it is the one played or already played."""
        table = msg.get("table")
        if not table or table == self.table or table in self.played:
            return
        if asked:
            self.s.found_by_asking += 1
        if self.task is not None and not self.task.done():
            self.s.moved_early += 1  # a new seat before the old table's end reached the player
            self.task.cancel()
        if self.waiting_since is not None:
            self.s.waits.append((got, got - self.waiting_since))
        elif not self.played:
            self.s.first_seats.append(got)
        self.waiting_since = None
        self.table = table
        self.played.add(table)
        self.s.tables_played.add(table)
        self.task = asyncio.get_running_loop().create_task(self.play(table, int(msg["seat"])))

    async def token(self, table: str) -> str | None:
        """The token of the seat the account holds at ``table``, asked of the table as a page asks it."""
        if self.s.http is None:
            return None
        headers = {**self.headers(), "X-CSRF-Token": self.cred["csrf"]}
        with contextlib.suppress(httpx.HTTPError, ValueError):
            answer = await self.s.http.post(f"/tables/{table}/seat", headers=headers)
            self.s.http.cookies.clear()
            if answer.status_code == 200:
                return str(answer.json()["token"])
            self.s.failures[f"seat: {answer.status_code}"] += 1
        return None

    async def play(self, table: str, seat: int) -> None:
        """One table: its seat's token asked of the table, then random legal actions after thinking, until the
        match is over."""
        token = await self.token(table)
        if token is None:
            return
        acted = -1
        self.sent = {}
        seen = self.s.versions.setdefault(table, [0, 0])
        by_bots = 0
        try:
            async with connect(self.s.ws_url + f"/tables/{table}/ws", max_size=2**24) as ws:
                hello = {"type": "hello", "protocol": 1, "token": token, "last_version": None}
                await ws.send(json.dumps(hello))
                async for raw in ws:
                    got = time.monotonic()
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind == "update":
                        by = msg.get("by") or {}
                        by_bots += int(by.get("source") != "seat")
                        seen[0], seen[1] = max(seen[0], msg["version"]), max(seen[1], by_bots)
                        sent = self.sent.pop(msg["version"] - 1, None)
                        if by.get("seat") == seat:
                            if by.get("source") == "seat" and sent is not None:
                                self.s.latencies.append((sent, got - sent))
                            elif by.get("source") in ("takeover", "clock"):
                                self.s.taken_over += 1
                    elif kind == "error":
                        self.s.refused[str(msg.get("code"))] += 1
                    if kind not in ("state", "update"):
                        continue
                    if msg.get("over"):
                        self.s.finished.add(table)
                        break
                    if msg.get("to_act") == seat and msg["version"] > acted and msg.get("legal"):
                        acted = msg["version"]
                        asyncio.get_running_loop().create_task(self.act(ws, msg))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.s.failures[f"table: {type(exc).__name__}"] += 1
        if self.table == table:
            self.table = None
            self.waiting_since = time.monotonic()

    async def act(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        await asyncio.sleep(self.s.o["think"] * self.rng.random() * 2)
        self.sent[msg["version"]] = time.monotonic()
        self.s.acts += 1
        with contextlib.suppress(Exception):
            await ws.send(
                json.dumps({"type": "act", "action": self.rng.choice(msg["legal"]), "version": msg["version"]})
            )

    async def ask(self) -> None:
        """Every few seconds after the start: a player who has waited long with no seat asks for it."""
        while True:
            await asyncio.sleep(5 + self.rng.random())
            now = time.monotonic()
            since = self.waiting_since if self.waiting_since is not None else (None if self.played else self.s.start)
            if self.table is not None or since is None or now - since < ASK_AFTER or self.s.http is None:
                continue
            self.s.asked += 1
            with contextlib.suppress(httpx.HTTPError, ValueError):
                answer = await self.s.http.get(f"/tournaments/{self.s.o['tournament']}/seat", headers=self.headers())
                self.s.http.cookies.clear()
                if answer.status_code == 200:
                    self.seated(answer.json(), time.monotonic(), asked=True)


async def play_share(options: dict[str, Any], creds: list[dict[str, str]], control: Any, ready: Any) -> Share:
    """This process's players, from their sockets' opening to the stop; what they measured."""
    share = Share(options)
    rng = random.Random(options["seed"])
    players = [Player(share, c, random.Random(rng.random())) for c in creds]
    gate = asyncio.Semaphore(50)

    async def opened(p: Player) -> None:
        async with gate:
            p.live_task = asyncio.get_running_loop().create_task(p.live())
            await asyncio.wait_for(p.ready.wait(), 60)

    async with httpx.AsyncClient(base_url=options["base"], timeout=30) as http:
        share.http = http
        await asyncio.gather(*(opened(p) for p in players), return_exceptions=True)
        ready.put(sum(p.live_task is not None and not p.live_task.done() for p in players))
        start, stop = await asyncio.to_thread(control.get, True, SETUP_SECONDS + 120)
        share.start = start
        askers = [asyncio.get_running_loop().create_task(p.ask()) for p in players]
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        end = time.monotonic()
        for p in players:
            if p.table is not None:
                state = "playing"
            elif p.played:
                state = "waiting"
            else:
                state = "never seated"
            p.figures["state"] = state
            since = p.waiting_since if p.waiting_since is not None else share.start
            p.figures["waited"] = end - since if state != "playing" else 0.0
        tasks = [*askers, *(p.live_task for p in players if p.live_task is not None)]
        tasks += [p.task for p in players if p.task is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for p in players:
        f = p.figures
        share.watchers.append({**f, "versions": len(f["versions"])})
    return share


def client_main(options: dict[str, Any], creds: list[dict[str, str]], control: Any, ready: Any, results: Any) -> None:
    """A client process: play its players, then send back what they measured."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    share = asyncio.run(play_share(options, creds, control, ready))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results.put(
        {
            "latencies": share.latencies,
            "pushes": share.pushes,
            "watchers": share.watchers,
            "waits": share.waits,
            "first_seats": share.first_seats,
            "finished": sorted(share.finished),
            "tables_played": sorted(share.tables_played),
            "versions": share.versions,
            "acts": share.acts,
            "refused": dict(share.refused),
            "live_errors": dict(share.live_errors),
            "failures": dict(share.failures),
            "taken_over": share.taken_over,
            "asked": share.asked,
            "found_by_asking": share.found_by_asking,
            "moved_early": share.moved_early,
            "cpu": usage.ru_utime + usage.ru_stime - used.ru_utime - used.ru_stime,
        }
    )


# -- the main process: set-up, the server's figures, the report --------------------------------------------------


async def make_players(base: str, count: int, seed: int) -> list[dict[str, str]]:
    """``count`` accounts, each signed in: name, session secret and CSRF token."""
    salt = random.Random(seed).randrange(10**6)

    async def one(http: httpx.AsyncClient, i: int) -> dict[str, str]:
        name = f"arena {salt:06d} {i:04d}"
        answer = await http.post("/account/signup", json={"name": name, "password": f"load-{name}-password"})
        answer.raise_for_status()
        secret = answer.cookies.get(COOKIE)
        if not secret:
            raise SystemExit(f"signing up {name!r} gave no session cookie")
        return {"name": name, "secret": secret, "csrf": answer.json()["csrf"]}

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        made = []
        for i in range(count):  # one client, the cookie read from each answer and the jar cleared
            made.append(await one(http, i))
            http.cookies.clear()
        return made


async def enter_all(base: str, tournament: str, creds: list[dict[str, str]]) -> None:
    """Every account enters the arena."""
    gate = asyncio.Semaphore(16)

    async def one(http: httpx.AsyncClient, c: dict[str, str]) -> None:
        async with gate:
            headers = {"Cookie": f"{COOKIE}={c['secret']}", "X-CSRF-Token": c["csrf"]}
            (await http.post(f"/tournaments/{tournament}/join", headers=headers)).raise_for_status()

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await asyncio.gather(*(one(http, c) for c in creds))


def host_post(base: str, path: str, host: dict[str, str], body: Any = None) -> dict[str, Any]:
    headers = {"Cookie": f"{COOKIE}={host['secret']}", "X-CSRF-Token": host["csrf"]}
    answer = httpx.post(base + path, json=body, headers=headers, timeout=60)
    if answer.status_code >= 400:
        raise SystemExit(f"POST {path}: {answer.status_code} {answer.text[:300]}")
    return dict(answer.json())


async def watch_server(base: str, pid: int, stop: float, out: dict[str, Any]) -> None:
    """During the run: a ping on a page's socket every 0.1 s (the event loop's delay, as a client sees it) and the
    server's memory every second."""
    out["pings"] = []
    out["rss"] = []

    async def memory() -> None:
        while time.monotonic() < stop:
            rss = rss_bytes(pid)
            if rss is not None:
                out["rss"].append(rss)
            await asyncio.sleep(1.0)

    async def pings() -> None:
        async with connect(base.replace("http://", "ws://") + "/live") as ws:
            while time.monotonic() < stop:
                sent = time.monotonic()
                await ws.send('{"type":"ping"}')
                while json.loads(await asyncio.wait_for(ws.recv(), 30)).get("type") != "pong":
                    pass
                out["pings"].append((sent, time.monotonic() - sent))
                await asyncio.sleep(max(0.0, sent + 0.1 - time.monotonic()))

    with contextlib.suppress(Exception):
        await asyncio.gather(memory(), pings())


def server_log(path: Path) -> dict[str, Any]:
    """The server log's warnings and errors: how many, and the first few kinds (numbers and ids blanked)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {"lines": 0, "warnings": 0, "errors": 0, "kinds": {}}
    kinds: Counter[str] = Counter()
    warnings = errors = 0
    for line in lines:
        upper = line.upper()
        if "ERROR" in upper or "TRACEBACK" in upper or "EXCEPTION" in upper:
            errors += 1
        elif "WARNING" in upper:
            warnings += 1
        else:
            continue
        kinds[re.sub(r"[A-Za-z0-9_-]{9,}|\d+(\.\d+)?", "#", line.split(" - ", 1)[-1])[:140]] += 1
    return {"lines": len(lines), "warnings": warnings, "errors": errors, "kinds": dict(kinds.most_common(8))}


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server, set the arena up, play it for the time given, gather the figures; stop everything."""
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="clubs-arena-") as data:
        port, metrics_port = free_port(), free_port()
        base, metrics = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{metrics_port}"
        clubs = str(Path(sys.executable).parent / "clubs")
        cmd = [clubs, "serve", "--port", str(port), "--data-dir", data, "--metrics-port", str(metrics_port)]
        cmd += ["--log-level", "warning", "--log-format", "plain", *load_limits(args.players, args.max_tables)]
        log_path = Path(data) / "server.log"
        procs: list[Any] = []
        with log_path.open("wb") as log_file:
            server = subprocess.Popen(cmd, stderr=log_file, stdout=subprocess.DEVNULL, cwd=data)
            try:
                await_up(base, server)
                return measure(args, ctx, base, metrics, server, procs) | {"log": server_log(log_path)}
            finally:
                for p in procs:
                    if p.is_alive():
                        p.terminate()
                    p.join(10)
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(10)
                if args.log:
                    Path(args.log).write_bytes(log_path.read_bytes())


def measure(
    args: argparse.Namespace, ctx: Any, base: str, metrics: str, server: subprocess.Popen[bytes], procs: list[Any]
) -> dict[str, Any]:
    """The run itself (see :func:`run`); ``procs`` gets the client processes started, for the caller to stop."""
    setup_deadline = time.monotonic() + SETUP_SECONDS
    rss_idle = rss_bytes(server.pid)
    t = time.monotonic()
    creds = asyncio.run(make_players(base, args.players, args.seed))
    signup_seconds = time.monotonic() - t
    rss_before = rss_bytes(server.pid)
    body = {
        "format": "arena",
        "game": args.game,
        "minutes": max(5, math.ceil(args.seconds / 60) + 1),
        "bots": True,
        "bot_delay": args.bot_delay,
    }
    tournament = host_post(base, "/tournaments", creds[0], body)["id"]
    t = time.monotonic()
    asyncio.run(enter_all(base, tournament, creds))
    join_seconds = time.monotonic() - t
    rss_joined = rss_bytes(server.pid)
    options = {"base": base, "tournament": tournament, "think": args.think}
    controls, ready, results = [], ctx.Queue(), ctx.Queue()
    for k in range(args.clients):
        control = ctx.Queue()
        share = creds[k :: args.clients]
        p = ctx.Process(target=client_main, args=({**options, "seed": args.seed + k}, share, control, ready, results))
        p.start()
        procs.append(p)
        controls.append(control)
    watching = sum(ready.get(True, max(1.0, setup_deadline - time.monotonic())) for _ in procs)
    time.sleep(1.5)  # the first pushes of the arena as it was (before the start) go out
    rss_watching = rss_bytes(server.pid)
    scraped_before = scrape(metrics)
    version_before = httpx.get(f"{base}/tournaments/{tournament}", timeout=30).json()["version"]
    cpu_before = thread_cpu(server.pid)
    machine_before = machine_busy()
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    host_post(base, f"/tournaments/{tournament}/start", creds[0])
    start = time.monotonic()
    stop = start + args.seconds
    for control in controls:
        control.put((start, stop))
    watched: dict[str, Any] = {}
    asyncio.run(watch_server(base, server.pid, stop, watched))
    time.sleep(max(0.0, stop - time.monotonic()))
    elapsed = time.monotonic() - start
    cpu_after = thread_cpu(server.pid)
    machine_after = machine_busy()
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    rss_end = rss_bytes(server.pid)
    scraped_after = scrape(metrics)
    view = httpx.get(f"{base}/tournaments/{tournament}", timeout=30).json()
    standings = httpx.get(f"{base}/tournaments/{tournament}/standings.json", timeout=60).json()
    health = httpx.get(f"{base}/health", timeout=30).json()
    shares = [results.get(True, 120) for _ in procs]
    for p in procs:
        p.join(30)

    def grew(name: str) -> float:
        return scraped_after.get(name, 0.0) - scraped_before.get(name, 0.0)

    lat = [x for s in shares for x in s["latencies"]]
    pushes: dict[int, list[float]] = {}
    for s in shares:
        for version, (first, last, count, behind) in s["pushes"].items():
            seen = pushes.setdefault(int(version), [first, last, 0, 0])
            seen[0], seen[1] = min(seen[0], first), max(seen[1], last)
            seen[2], seen[3] = seen[2] + count, seen[3] + behind
    windows = sorted((first, last) for first, last, _, _ in pushes.values())
    # a window begins a little before its first arrival: the push was being made and sent before it arrived
    windows = [(first - 0.05, last) for first, last in windows]

    def during_push(at: float, took: float) -> bool:
        return any(a <= at + took and at <= b for a, b in windows)

    during = [took for at, took in lat if during_push(at, took)]
    apart = [took for at, took in lat if not during_push(at, took)]
    watchers = [w for s in shares for w in s["watchers"]]
    counts = [w["pushes"] for w in watchers]
    distinct = [w["versions"] for w in watchers]
    gaps = [g for w in watchers for _, g in w["gaps"]]
    widest = max(((g, at) for w in watchers for at, g in w["gaps"]), default=(0.0, start))
    spreads = [last - first for first, last, count, _ in pushes.values() if count > 1]
    timeline = [
        {"at_s": round(first - start, 2), "version": v, "ms_to_all": ms(last - first), "watchers": n, "behind": b}
        for v, (first, last, n, b) in sorted(pushes.items(), key=lambda kv: kv[1][0])
    ]
    states = Counter(w["state"] for w in watchers)
    left_waiting = sorted(w["waited"] for w in watchers if w["state"] != "playing")
    pings = watched.get("pings", [])
    ping_during = [took for at, took in pings if during_push(at, took)]
    ping_apart = [took for at, took in pings if not during_push(at, took)]
    first_seats = [x - start for s in shares for x in s["first_seats"]]
    waits = [took for s in shares for _, took in s["waits"]]
    long_waits = sorted((round(took, 1), round(at - start, 1)) for s in shares for at, took in s["waits"])[-5:]
    server_cpu = loop_cpu = None
    if cpu_before is not None and cpu_after is not None:
        loop_cpu = (cpu_after[0] - cpu_before[0]) / elapsed
        server_cpu = (cpu_after[1] - cpu_before[1]) / elapsed

    own = own_after.ru_utime + own_after.ru_stime - own_before.ru_utime - own_before.ru_stime
    generator = round((sum(s["cpu"] for s in shares) + own) / elapsed, 2)
    machine = None
    if machine_before is not None and machine_after is not None:
        machine = round((machine_after - machine_before) / elapsed, 2)

    def mib(value: int | None) -> float | None:
        return None if value is None else round(value / 2**20, 1)

    def summed(key: str) -> dict[str, int]:
        total: Counter[str] = Counter()
        for s in shares:
            total.update(s[key])
        return dict(total)

    versions: dict[str, list[int]] = {}
    for s in shares:
        for table, (version, bots) in s["versions"].items():
            seen = versions.setdefault(table, [0, 0])
            seen[0], seen[1] = max(seen[0], version), max(seen[1], bots)
    accepted = sum(v for v, _ in versions.values())
    action_count = grew("clubs_action_seconds_count")
    return {
        "players": args.players,
        "game": args.game,
        "clients": args.clients,
        "think": args.think,
        "bot_delay": args.bot_delay,
        "seconds": round(elapsed, 1),
        "setup": {
            "signup_seconds": round(signup_seconds, 1),
            "join_seconds": round(join_seconds, 1),
            "watching": watching,
        },
        "actions": {
            "accepted_per_second": round(accepted / elapsed, 1),
            "by_bots": sum(b for _, b in versions.values()),
            "players_counted_by_server_per_second": round(grew('clubs_actions_total{source="seat"}') / elapsed, 1),
            "acts_sent": sum(s["acts"] for s in shares),
            "refused": summed("refused"),
            "taken_over": sum(s["taken_over"] for s in shares),
            "server_ms_mean_a_player_action": ms(grew("clubs_action_seconds_sum") / action_count)
            if action_count
            else None,
        },
        "latency": {
            "samples": len(lat),
            "ms_p50": ms(pct([x for _, x in lat], 0.5)),
            "ms_p99": ms(pct([x for _, x in lat], 0.99)),
            "ms_max": ms(max((x for _, x in lat), default=None)),
            "ms_mean": ms(statistics.fmean(x for _, x in lat)) if lat else None,
            "during_push": {"samples": len(during), "ms_p50": ms(pct(during, 0.5)), "ms_p99": ms(pct(during, 0.99))},
            "apart": {"samples": len(apart), "ms_p50": ms(pct(apart, 0.5)), "ms_p99": ms(pct(apart, 0.99))},
        },
        "standings": {
            "tournament_versions": view["version"] - version_before,
            "pushes_per_watcher_mean": round(statistics.fmean(counts), 1) if counts else None,
            "pushes_per_watcher_min": min(counts, default=None),
            "pushes_per_watcher_max": max(counts, default=None),
            "distinct_versions_per_watcher_mean": round(statistics.fmean(distinct), 1) if distinct else None,
            "distinct_versions_per_watcher_min": min(distinct, default=None),
            "versions_pushed": len(pushes),
            "watchers_without_a_push": sum(1 for c in counts if c == 0),
            "seconds_between_pushes_p50": round(pct(gaps, 0.5) or 0.0, 2),
            "seconds_between_pushes_max": round(widest[0], 2),
            "widest_gap_ended_at_s": round(widest[1] - start, 1),
            "ms_to_reach_every_watcher_p50": ms(pct(spreads, 0.5)),
            "ms_to_reach_every_watcher_max": ms(max(spreads, default=None)),
            "lines_per_watcher_mean": round(statistics.fmean(w["me"] for w in watchers), 1) if watchers else None,
            "lines_of_another_version": sum(w["me_behind"] for w in watchers),
            "live_errors": summed("live_errors"),
            "timeline": timeline,
        },
        "seating": {
            "s_to_first_seat_p50": round(pct(first_seats, 0.5) or 0.0, 2),
            "s_to_first_seat_p99": round(pct(first_seats, 0.99) or 0.0, 2),
            "s_to_last_first_seat": round(max(first_seats), 2) if first_seats else None,
            "players_seated": len(first_seats),
            "s_between_tables_p50": round(pct(waits, 0.5) or 0.0, 2),
            "s_between_tables_max": round(max(waits, default=0.0), 2),
            "longest_waits_and_when": long_waits,
            "tables_played": len({t for s in shares for t in s["tables_played"]}),
            "tables_finished": len({t for s in shares for t in s["finished"]}),
            "tables_in_standings": round(sum(r["tables"] for r in standings["standings"]) / 3, 1),
            "open_tables_at_end": health.get("tables"),
            "at_end": dict(states),
            "longest_wait_at_end_s": round(left_waiting[-1], 1) if left_waiting else 0.0,
            "asked_for_seat": sum(s["asked"] for s in shares),
            "found_only_by_asking": sum(s["found_by_asking"] for s in shares),
            "moved_before_table_end_seen": sum(s["moved_early"] for s in shares),
            "failures": summed("failures"),
        },
        "server": {
            "cores": None if server_cpu is None else round(server_cpu, 2),
            "event_loop_thread_cores": None if loop_cpu is None else round(loop_cpu, 2),
            "rss_mib_idle": mib(rss_idle),
            "rss_mib_before_entrants": mib(rss_before),
            "rss_mib_after_entrants": mib(rss_joined),
            "rss_mib_watching": mib(rss_watching),
            "rss_mib_peak": mib(max(watched.get("rss", []), default=None)),
            "rss_mib_end": mib(rss_end),
            "kib_per_player_at_end": None
            if rss_end is None or rss_before is None
            else round((rss_end - rss_before) / 1024 / args.players, 1),
            "full_collections": grew('python_gc_collections_total{generation="2"}'),
            "ping_ms_p50": ms(pct([x for _, x in pings], 0.5)),
            "ping_ms_p99": ms(pct([x for _, x in pings], 0.99)),
            "ping_ms_max": ms(max((x for _, x in pings), default=None)),
            "ping_ms_p99_during_push": ms(pct(ping_during, 0.99)),
            "ping_ms_p99_apart": ms(pct(ping_apart, 0.99)),
        },
        "generator_cores": generator,
        "machine": {
            "cores": os.cpu_count(),
            "busy_cores": machine,
            "others_cores": None
            if machine is None or server_cpu is None
            else round(max(0.0, machine - server_cpu - generator), 2),
            "load_average_1min": round(os.getloadavg()[0], 2),
        },
    }


def report(f: dict[str, Any]) -> str:
    """The figures as a few lines."""
    a, lat, st, se, sv, log = f["actions"], f["latency"], f["standings"], f["seating"], f["server"], f["log"]
    lines = [
        f"arena of {f['players']} players, {f['game']}, think {f['think']} s, bots after {f['bot_delay']} s, "
        f"{f['clients']} client processes, {f['seconds']} s after the start "
        f"(accounts made in {f['setup']['signup_seconds']} s, entered in {f['setup']['join_seconds']} s, "
        f"{f['setup']['watching']} watching)",
        f"actions: {a['accepted_per_second']} accepted/s (the tables' versions; {a['by_bots']} by bots in all; the "
        f"server counted {a['players_counted_by_server_per_second']}/s by players), {a['acts_sent']} acts sent, "
        f"refused {a['refused'] or 'none'}, {a['taken_over']} taken over by a bot or the clock; the server's own time "
        f"a player's action {a['server_ms_mean_a_player_action']} ms",
        f"act -> the player's update: p50 {lat['ms_p50']} ms, p99 {lat['ms_p99']} ms, max {lat['ms_max']} ms "
        f"({lat['samples']} samples); while a push went out: p50 {lat['during_push']['ms_p50']}, p99 "
        f"{lat['during_push']['ms_p99']} ms ({lat['during_push']['samples']}); otherwise p50 {lat['apart']['ms_p50']}, "
        f"p99 {lat['apart']['ms_p99']} ms ({lat['apart']['samples']})",
        f"standings: the tournament's version grew by {st['tournament_versions']}; pushes a watcher "
        f"{st['pushes_per_watcher_mean']} (min {st['pushes_per_watcher_min']}, max {st['pushes_per_watcher_max']}), "
        f"distinct versions {st['distinct_versions_per_watcher_mean']} (min {st['distinct_versions_per_watcher_min']}),"
        f" {st['watchers_without_a_push']} watchers with none; between two pushes p50 "
        f"{st['seconds_between_pushes_p50']} s, max {st['seconds_between_pushes_max']} s (ending "
        f"{st['widest_gap_ended_at_s']} s after the start); one push to every watcher "
        f"p50 {st['ms_to_reach_every_watcher_p50']} ms, max {st['ms_to_reach_every_watcher_max']} ms; own lines "
        f"{st['lines_per_watcher_mean']} a watcher ({st['lines_of_another_version']} of another version than the push "
        f"before); errors {st['live_errors'] or 'none'}; slowest pushes "
        + ", ".join(
            f"{x['ms_to_all']} ms at {x['at_s']} s ({x['behind']} lines behind)"
            for x in sorted(st["timeline"], key=lambda x: -(x["ms_to_all"] or 0))[:3]
        ),
        f"seating: first seats p50 {se['s_to_first_seat_p50']} s, p99 {se['s_to_first_seat_p99']} s, last "
        f"{se['s_to_last_first_seat']} s after the start ({se['players_seated']} seated); from a "
        f"table's end to the next seat p50 {se['s_between_tables_p50']} s, max {se['s_between_tables_max']} s "
        f"(the longest, as (wait, seated again at): {se['longest_waits_and_when']}); "
        f"tables played {se['tables_played']}, finished {se['tables_finished']} ({se['tables_in_standings']} in the "
        f"standings), {se['open_tables_at_end']} open at the end; at the end {se['at_end']}, longest wait "
        f"{se['longest_wait_at_end_s']} s; asked {se['asked_for_seat']} times, {se['found_only_by_asking']} seats "
        f"found only by asking; {se['moved_before_table_end_seen']} moved before their table's end reached them; "
        f"failures {se['failures'] or 'none'}",
        f"server: {sv['cores']} cores ({sv['event_loop_thread_cores']} the event loop's thread); memory idle "
        f"{sv['rss_mib_idle']} MiB, before entrants {sv['rss_mib_before_entrants']}, after "
        f"{sv['rss_mib_after_entrants']}, watching {sv['rss_mib_watching']}, peak {sv['rss_mib_peak']}, end "
        f"{sv['rss_mib_end']} MiB ({sv['kib_per_player_at_end']} KiB a player); {sv['full_collections']:.0f} full "
        f"collections; ping on a page's socket p50 {sv['ping_ms_p50']} ms, p99 {sv['ping_ms_p99']} ms, max "
        f"{sv['ping_ms_max']} ms (p99 {sv['ping_ms_p99_during_push']} ms while a push went out, "
        f"{sv['ping_ms_p99_apart']} ms otherwise)",
        f"machine: {f['machine']['cores']} cores, {f['machine']['busy_cores']} busy over the run: the server "
        f"{sv['cores']}, the load generator {f['generator_cores']} (its processes and this one), everything else "
        f"{f['machine']['others_cores']}; load average {f['machine']['load_average_1min']} at the end",
        f"server log: {log['lines']} lines, {log['warnings']} warnings, {log['errors']} errors"
        + "".join(f"\n  {n} x {kind}" for kind, n in log["kinds"].items()),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the arena's load once and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=500, help="players in the arena (default 500)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long to play after the start (default 120)")
    parser.add_argument("--game", default="whist", help="the arena's game: a name or rules spec (default whist)")
    parser.add_argument("--think", type=float, default=1.0, help="the players' mean thinking time, seconds")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the bots' delay before acting, seconds")
    parser.add_argument("--clients", type=int, default=2, help="processes of the load generator (default 2)")
    parser.add_argument(
        "--max-tables", type=int, default=None, help="the server's open tables (default 8N + 64; as served: 500)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", default=None, metavar="FILE", help="keep the server's log here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 1000 or not 0 < args.seconds <= 600 or not 1 <= args.clients <= 8:
        parser.error("--players 3..1000 (an arena's most), --seconds up to 600 and --clients 1..8 keep it bounded")
    if not 0 <= args.think <= 30 or not 0 <= args.bot_delay <= 10:
        parser.error("--think 0..30 and --bot-delay 0..10 seconds")
    if args.max_tables is not None and not 1 <= args.max_tables <= 100_000:
        parser.error("--max-tables 1..100000")
    figures = run(args)
    print(report(figures), flush=True)
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
