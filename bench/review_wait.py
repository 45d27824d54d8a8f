"""Reviews on the server: what one costs (first and asked again), and how long a second person's replay waits while a
stranger asks for reviews in a loop.

Run as ``python bench/review_wait.py [--seconds S] [--free N] [--src PATH]``. It starts ``clubs serve`` (of the
package in ``--src``, by default this checkout's, to measure another commit from a git worktree of it) on a free
loopback port over a temporary data directory, with the default limits, and plays N matches of Free Clubs and one of
whist (``whist(target=3)``) itself, seat 0 played at random against two random bots. Then:

1. someone (address 127.0.0.4) asks for the review of seat 0 of the first Free Clubs match and of the whist
   match, twice each: the time of each answer, the first worked out and the second, where the server keeps
   reviews, answered from what it kept;
2. for S seconds the stranger (127.0.0.2) asks for reviews of every other seat of those matches back to back (each
   one a review not yet worked out: the worst case, the cache no help), waiting out any refusal's ``Retry-After``,
   while the person asks for the replay of the whist match every ``--every`` seconds (within the default replay
   rate, ten a minute): the time of each replay's answer, p50 and max.

Everything runs on the loopback interface (addresses of 127.0.0.0/8, which Linux routes there) and is bounded: the
matches, S (at most 600) seconds of loop, each request at most 240 seconds; the server it started is stopped. The
figures are for reading; no test depends on them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
BOOTSTRAP = "from clubsuite.cli.main import main; main()"
"""How the server is started: the command line, as ``clubs serve`` runs it."""
STRANGER, PERSON, TIMER = "127.0.0.2", "127.0.0.3", "127.0.0.4"
REQUEST_SECONDS = 240.0
"""The longest any one request may take (a review of Free Clubs takes some 20 s on a quiet machine)."""


def free_port() -> int:
    """A loopback port nobody listens on."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(src: Path) -> Iterator[str]:
    """``clubs serve`` of the package in ``src`` on a free loopback port over a temporary data directory: its
    address; stopped after."""
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        cmd = [sys.executable, "-c", BOOTSTRAP, "serve", "--port", str(port), "--data-dir", data]
        cmd += ["--log-level", "warning"]
        env = {**os.environ, "PYTHONPATH": str(src)}
        proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, env=env, cwd=data)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/health", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit(f"the server at {base} did not start")
                time.sleep(0.1)
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def client(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=REQUEST_SECONDS)


def play_match(base: str, game: str, seed: int) -> str:
    """One match of ``game`` played to its end, seat 0 at random against two random bots: the table's id."""
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    with client(PERSON) as http:
        r = http.post(f"{base}/tables", json={"game": game, "seats": seats, "bot_delay": 0, "public": True})
        r.raise_for_status()
        table = str(r.json()["id"])
        token = http.post(f"{base}/tables/{table}/join", json={"name": "Ann"}).json()["token"]
    rng = random.Random(seed)
    deadline = time.monotonic() + 300
    url = base.replace("http://", "ws://") + f"/tables/{table}/ws"
    with connect(url, max_size=2**24, ping_interval=None, max_queue=None) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "last_version": None}))
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(60))
            if msg["type"] not in ("state", "update"):
                continue
            if msg["over"]:
                return table
            if msg["to_act"] == 0 and msg["legal"]:
                time.sleep(0.06)  # within the socket's message rate (20 a second)
                ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "version": msg["version"]}))
    raise SystemExit(f"the match of {game} did not end in 300 s")


def timed(http: httpx.Client, url: str) -> tuple[float, int]:
    """Seconds to the whole answer of a GET, and its status."""
    began = time.monotonic()
    r = http.get(url)
    return time.monotonic() - began, r.status_code


def review_costs(base: str, free: str, whist: str) -> dict[str, Any]:
    """Seat 0's review of each match asked twice (from an address of its own): seconds and status of each answer."""
    out: dict[str, Any] = {}
    with client(TIMER) as http:
        for name, table in (("free", free), ("whist", whist)):
            url = f"{base}/tables/{table}/review?match=0&seat=0"
            first, again = timed(http, url), timed(http, url)
            out[name] = {"first_s": round(first[0], 2), "again_s": round(again[0], 3), "status": [first[1], again[1]]}
    return out


def loop(base: str, asks: list[str], replay: str, seconds: float, every: float) -> dict[str, Any]:
    """The stranger asking reviews (``asks``, in turn) for ``seconds`` while the person asks ``replay`` every
    ``every`` seconds: the person's waits and the stranger's answers."""
    stop = threading.Event()
    stranger: dict[int, int] = {}
    waits: list[float] = []
    statuses: list[int] = []

    def strange() -> None:
        with client(STRANGER) as http:
            i = 0
            while not stop.is_set():
                r = http.get(asks[i % len(asks)])
                i += 1
                stranger[r.status_code] = stranger.get(r.status_code, 0) + 1
                if r.status_code in (429, 503):
                    stop.wait(min(float(r.headers.get("retry-after", "1")), 30.0))

    def person() -> None:
        with client(PERSON) as http:
            while not stop.is_set():
                began = time.monotonic()
                wait, status = timed(http, replay)
                waits.append(wait)
                statuses.append(status)
                stop.wait(max(0.0, every - (time.monotonic() - began)))

    threads = [threading.Thread(target=strange, daemon=True), threading.Thread(target=person, daemon=True)]
    threads[0].start()
    time.sleep(1.0)  # the stranger's first review under way before the person's first replay
    threads[1].start()
    stop.wait(seconds)
    stop.set()
    for t in threads:
        t.join(REQUEST_SECONDS + 30)
    return {
        "replays": len(waits),
        "replay_status": sorted(set(statuses)),
        "replay_p50_s": round(statistics.median(waits), 2) if waits else None,
        "replay_max_s": round(max(waits), 2) if waits else None,
        "stranger_answers": {str(k): v for k, v in sorted(stranger.items())},
    }


def main(argv: list[str] | None = None) -> int:
    """Start the server, play the matches, measure, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=90.0, help="how long the stranger asks (default 90)")
    parser.add_argument("--every", type=float, default=7.0, help="seconds between the person's replays (default 7)")
    parser.add_argument("--free", type=int, default=2, help="Free Clubs matches played (default 2)")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package's source folder to serve")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 1 <= args.free <= 5 or not 6.0 <= args.every <= 60:
        parser.error("--seconds up to 600, --free 1..5 and --every 6..60 keep the run bounded (and in its rates)")
    with server(args.src.resolve()) as base:
        frees = [play_match(base, "free", seed) for seed in range(args.free)]
        whist = play_match(base, "whist(target=3)", 99)
        with client(PERSON) as http:  # the replay workers started before anything is timed
            http.get(f"{base}/tables/{whist}/replay?match=0").raise_for_status()
        figures: dict[str, Any] = {"review": review_costs(base, frees[0], whist)}
        asks = [
            f"{base}/tables/{table}/review?match=0&seat={seat}"
            for table in frees
            for seat in (0, 1, 2)
            if (table, seat) != (frees[0], 0)
        ]
        figures["loop"] = loop(base, asks, f"{base}/tables/{whist}/replay?match=0", args.seconds, args.every)
    figures["src"] = str(args.src)
    if args.json:
        print(json.dumps(figures))
    else:
        for name, row in figures["review"].items():
            print(f"review of {name}: first {row['first_s']} s, again {row['again_s']} s, status {row['status']}")
        row = figures["loop"]
        print(
            f"the person's replays while the stranger asks reviews: {row['replays']} answered {row['replay_status']}, "
            f"p50 {row['replay_p50_s']} s, max {row['replay_max_s']} s; "
            f"the stranger's answers by status {row['stranger_answers']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
