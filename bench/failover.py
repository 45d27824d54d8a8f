"""How long play stops at a table whose process dies or stops: the take-over time, measured through the proxy.

Run as ``python bench/failover.py [--processes 3] [--tables 12] [--trials 3]``. It starts PostgreSQL, that many
``clubs serve`` processes and HAProxy with the shipped configuration (as ``bench/serve_load.py --processes`` does),
makes the tables through the proxy (a person's seat played here at once, two random bots acting after
``--bot-delay``), and keeps a player client at every table: it acts whenever it is its turn and, when its socket
drops, reconnects through the proxy with the last version it saw, as the browser does.

Each trial stops one process that owns tables, the one owning most: ``kill -9`` (SIGKILL) or a graceful stop
(SIGTERM), taking turns, and starts it again afterwards. For each table that process owned, the *pause* is the time
from the last update the player saw before the signal to the first it saw after it: the time nobody at the table
could see play go on. The run prints, for each kind of stop, the pauses' median and maximum over all tables and
trials, with the lease time the processes ran with and how old the stopped process's heartbeat was at the stop (a
process starved of CPU beyond the lease time may lose its tables before it is stopped). It checks what a player
could lose: the versions every player saw only ever grew, and each table's log is one history (every place once).

Everything is on loopback, bounded in count and time, and stopped at the end. The figures are for reading; no test
depends on them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_load import Site, site  # the benchmark's own set-up of a site

GAME = "whist(target=1000)"
"""A match long enough that no table ends during a run."""


@dataclass
class Player:
    """One table's player: its table, its token, and when it saw each version (this process's monotonic clock)."""

    table: str
    token: str
    seen: list[tuple[float, int]] = field(default_factory=list)
    backwards: int = 0
    """Updates that came with a version lower than one already seen (must stay 0)."""

    def last(self) -> int | None:
        """The last version seen, if any."""
        return self.seen[-1][1] if self.seen else None


async def keep_playing(ws_base: str, player: Player, stop: float, rng: random.Random) -> None:
    """Play at the table until ``stop``: act on every turn, reconnect with the last version whenever the socket
    drops (after 50 ms, as quickly as a browser would try again)."""
    while time.monotonic() < stop:
        with contextlib.suppress(Exception):
            async with connect(f"{ws_base}/tables/{player.table}/ws", open_timeout=5) as ws:
                hello = {"type": "hello", "protocol": 1, "token": player.token, "last_version": player.last()}
                await ws.send(json.dumps(hello))
                while time.monotonic() < stop:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                    msg = json.loads(raw)
                    if msg["type"] not in ("state", "update"):
                        continue
                    version = int(msg["version"])
                    last = player.last()
                    if last is not None and version < last:
                        player.backwards += 1
                    if last is None or version > last:
                        player.seen.append((time.monotonic(), version))
                    if msg["to_act"] == 0 and not msg["over"]:
                        act = {"type": "act", "action": rng.choice(msg["legal"]), "version": version}
                        await ws.send(json.dumps(act))
        await asyncio.sleep(0.05)


def owners(db: str) -> dict[str, str]:
    """Each table's lease holder, as stored."""
    import psycopg

    with psycopg.connect(db) as conn:
        return {str(t): str(n) for t, n in conn.execute("SELECT table_id, node FROM leases").fetchall()}


def heartbeat_age(db: str, node: str) -> float:
    """Seconds since the node's last heartbeat, on the database's clock."""
    import psycopg

    with psycopg.connect(db) as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM clock_timestamp()) - seen_at FROM nodes WHERE name = %s", (node,)
        ).fetchone()
    return float(row[0]) if row is not None else float("nan")


def pause_after(player: Player, at: float) -> float | None:
    """Seconds from the last version seen before ``at`` to the first seen after it (None: none after it)."""
    before = [t for t, _ in player.seen if t <= at]
    after = [t for t, _ in player.seen if t > at]
    if not before or not after:
        return None
    return after[0] - before[-1]


def one_history(db: str, table: str) -> bool:
    """The table's log holds each place once, in order."""
    import psycopg

    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT match_no, seq FROM actions WHERE table_id = %s ORDER BY match_no, seq", (table,)
        ).fetchall()
    by_match: dict[int, list[int]] = {}
    for match_no, seq in rows:
        by_match.setdefault(int(match_no), []).append(int(seq))
    return all(seqs == list(range(len(seqs))) for seqs in by_match.values())


async def trial(
    started: Site, players: list[Player], how: signal.Signals, settle: float, after: float
) -> tuple[list[float], float]:
    """Play ``settle`` seconds, stop the process owning most tables with ``how``, play ``after`` seconds more:
    the pauses of that process's tables (a table that saw nothing after the stop counts as ``after``), and the age
    of that process's heartbeat just before the stop."""
    stop = time.monotonic() + settle + after
    ws_base = started.base.replace("http://", "ws://")
    tasks = [asyncio.create_task(keep_playing(ws_base, p, stop, random.Random(i))) for i, p in enumerate(players)]
    await asyncio.sleep(settle)
    held = owners(started.db)
    live = [n for n, proc in started.nodes.items() if proc.poll() is None]
    victim = max(live, key=lambda n: sum(1 for owner in held.values() if owner == n))
    theirs = [p for p in players if held.get(p.table) == victim]
    age = heartbeat_age(started.db, victim)
    at = time.monotonic()
    started.nodes[victim].send_signal(how)
    await asyncio.gather(*tasks)
    with contextlib.suppress(subprocess.TimeoutExpired):
        started.nodes[victim].wait(30)
    pauses = [pause_after(p, at) for p in theirs]
    return [after if x is None else x for x in pauses], age


def restart(started: Site, name: str, command: list[str]) -> None:
    """Start a stopped process again with its command line and wait until it is ready."""
    from serve_load import await_up

    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    started.nodes[name] = proc
    port = command[command.index("--port") + 1]
    await_up(f"http://127.0.0.1:{port}", proc)


def main(argv: list[str] | None = None) -> int:
    """Start the site, run the trials, print the pauses."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--processes", type=int, default=3, help="2 or 3 processes (default 3)")
    parser.add_argument("--tables", type=int, default=12, help="tables played at once (default 12)")
    parser.add_argument("--trials", type=int, default=4, help="stops, SIGKILL and SIGTERM in turn (default 4)")
    parser.add_argument("--bot-delay", type=float, default=0.1, help="the bots' delay before acting, seconds")
    parser.add_argument("--lease-seconds", type=float, default=3.0, help="the processes' lease time (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.processes not in (2, 3) or not 1 <= args.tables <= 200 or not 1 <= args.trials <= 20:
        parser.error("--processes 2..3, --tables 1..200 and --trials 1..20 keep the run bounded")
    settle, after = 4.0, 4 * args.lease_seconds + 6
    pauses: dict[str, list[float]] = {"SIGKILL": [], "SIGTERM": []}
    ages: list[float] = []
    with site(args.processes, args.tables, 1, args.lease_seconds) as started:
        commands = {name: list(map(str, proc.args)) for name, proc in started.nodes.items()}
        players = []
        with httpx.Client(base_url=started.base, timeout=30) as http:
            for _ in range(args.tables):
                seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2
                body = {"game": GAME, "seats": seats, "bot_delay": args.bot_delay, "grace": 3600}
                made = http.post("/tables", json=body).raise_for_status().json()
                token = http.post(f"/tables/{made['id']}/join", json={"name": "bench"}).raise_for_status().json()
                players.append(Player(made["id"], token["token"]))
        for i in range(args.trials):
            how = signal.SIGKILL if i % 2 == 0 else signal.SIGTERM
            print(f"[failover] trial {i + 1} of {args.trials}: {how.name}", file=sys.stderr, flush=True)
            before = dict(started.nodes)
            moved, age = asyncio.run(trial(started, players, how, settle, after))
            pauses[how.name] += moved
            ages.append(age)
            for name, proc in before.items():
                if proc.poll() is not None:
                    restart(started, name, commands[name])
        intact = all(one_history(started.db, p.table) for p in players)
    figures: dict[str, Any] = {
        "processes": args.processes,
        "tables": args.tables,
        "lease_seconds": args.lease_seconds,
        "versions_went_back": sum(p.backwards for p in players),
        "every_log_one_history": intact,
        "heartbeat_age_at_stop_s_max": round(max(ages), 2),
    }
    for name, xs in pauses.items():
        if xs:
            figures[name] = {
                "tables_moved": len(xs),
                "pause_s_median": round(statistics.median(xs), 2),
                "pause_s_max": round(max(xs), 2),
            }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for name in pauses:
            if name in figures:
                f = figures[name]
                print(
                    f"{name}: {f['tables_moved']} tables moved, play paused median {f['pause_s_median']} s, "
                    f"max {f['pause_s_max']} s (lease {args.lease_seconds} s)"
                )
        print(f"versions that went back: {figures['versions_went_back']}; every log one history: {intact}")
        print(f"the stopped process's heartbeat was at most {figures['heartbeat_age_at_stop_s_max']} s old")
    return 0 if intact and figures["versions_went_back"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
