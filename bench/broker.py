"""The lobby's broker measured: PostgreSQL's LISTEN/NOTIFY beside Redis pub/sub, on loopback, in one sitting.

Run as ``python bench/broker.py [--messages 5000] [--bytes 1000] [--rounds 3]``. It starts a throwaway PostgreSQL
server (as the tests do) and, where Debian's ``redis-server`` and the ``redis`` Python package are installed, a
throwaway Redis on a free loopback port; then, for each broker in turn (alternating, ``--rounds`` times), one
listener and one publisher in this process: the publisher sends ``--messages`` messages of about ``--bytes`` bytes
(a lobby entry is about a kilobyte) one after another, each awaited as the server's code does, and the listener
notes when each arrives. It prints, per broker, the messages published a second and the latency from publishing to
arrival (p50, p99, max), the best round of each, and checks that every message arrived once, in order.

What the lobby needs is small: an entry a second at most per public table that changed (``server/table/lobbycast.py``).
The figures say how far either broker is from that need on this machine. Everything is on loopback, bounded, and
stopped at the end; no test depends on the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHANNEL = "clubs_bench"


def payload(i: int, size: int) -> str:
    """Message ``i``: its number, when it was sent, and filler to about ``size`` bytes."""
    head = json.dumps({"i": i, "t": time.perf_counter(), "pad": ""})
    return head[:-2] + "x" * max(0, size - len(head)) + '"}'


def figures(name: str, latencies: list[float], seconds: float, order_kept: bool) -> dict[str, Any]:
    """One round's figures."""
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 3)

    return {
        "broker": name,
        "messages": len(lat),
        "published_per_second": round(len(lat) / seconds, 1),
        "latency_ms_p50": pct(0.5),
        "latency_ms_p99": pct(0.99),
        "latency_ms_max": round(lat[-1] * 1000, 3),
        "latency_ms_mean": round(statistics.fmean(lat) * 1000, 3),
        "every_message_once_in_order": order_kept,
    }


async def measure(
    name: str, listen: Callable[[Callable[[str], None]], Awaitable[Any]], publish: Callable[[str], Awaitable[None]],
    count: int, size: int,
) -> dict[str, Any]:  # fmt: skip
    """Publish ``count`` messages and time each to the listener (``listen`` starts it and returns a stopper)."""
    arrived: list[tuple[int, float]] = []
    done = asyncio.Event()

    def heard(text: str) -> None:
        message = json.loads(text)
        arrived.append((message["i"], time.perf_counter() - message["t"]))
        if len(arrived) == count:
            done.set()

    stop = await listen(heard)
    try:
        start = time.perf_counter()
        for i in range(count):
            await publish(payload(i, size))
        seconds = time.perf_counter() - start
        await asyncio.wait_for(done.wait(), 60)
    finally:
        await stop()
    in_order = [i for i, _ in arrived] == list(range(count))
    return figures(name, [t for _, t in arrived], seconds, in_order)


def in_background(pump: Coroutine[Any, Any, None]) -> Callable[[], Awaitable[None]]:
    """Run a listener's loop as a task: the function that stops it."""
    task = asyncio.create_task(pump)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    return stop


async def postgres_round(url: str, count: int, size: int) -> dict[str, Any]:
    """A round over PostgreSQL: ``LISTEN`` on one connection, ``pg_notify`` on another (autocommit: one round trip
    each), as ``server/table/lobbycast.py`` does."""
    import psycopg

    publisher = await psycopg.AsyncConnection.connect(url, autocommit=True)
    listener = await psycopg.AsyncConnection.connect(url, autocommit=True)

    async def listen(heard: Callable[[str], None]) -> Callable[[], Awaitable[None]]:
        await listener.execute(f"LISTEN {CHANNEL}")

        async def pump() -> None:
            async for note in listener.notifies():
                heard(note.payload)

        return in_background(pump())

    async def publish(text: str) -> None:
        await publisher.execute("SELECT pg_notify(%s, %s)", (CHANNEL, text))

    try:
        return await measure("PostgreSQL LISTEN/NOTIFY", listen, publish, count, size)
    finally:
        await publisher.close()
        await listener.close()


async def redis_round(port: int, count: int, size: int) -> dict[str, Any]:
    """A round over Redis pub/sub: ``SUBSCRIBE`` on one connection, ``PUBLISH`` on another."""
    import redis.asyncio as aioredis

    publisher = aioredis.Redis(port=port)
    subscriber = aioredis.Redis(port=port)
    pubsub = subscriber.pubsub()

    async def listen(heard: Callable[[str], None]) -> Callable[[], Awaitable[None]]:
        await pubsub.subscribe(CHANNEL)

        async def pump() -> None:
            async for message in pubsub.listen():
                if message["type"] == "message":
                    heard(message["data"].decode())

        return in_background(pump())

    async def publish(text: str) -> None:
        await publisher.publish(CHANNEL, text)

    try:
        return await measure("Redis pub/sub", listen, publish, count, size)
    finally:
        await pubsub.aclose()
        await subscriber.aclose()
        await publisher.aclose()


def free_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def redis_server() -> Iterator[int | None]:
    """A throwaway Redis on loopback (no disk, no persistence): its port, or None where it is not installed."""
    binary = shutil.which("redis-server", path="/usr/bin:/usr/sbin:/usr/local/bin")
    try:
        import redis  # noqa: F401 (only whether it is there)
    except ImportError:
        binary = None
    if binary is None:
        yield None
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as where:
        cmd = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", where]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("redis-server did not start")
                time.sleep(0.05)
            yield port
        finally:
            proc.terminate()
            proc.wait(30)


def main(argv: list[str] | None = None) -> int:
    """Start the brokers, run the rounds, print the best round of each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--messages", type=int, default=5000, help="messages a round (default 5000)")
    parser.add_argument("--bytes", type=int, default=1000, help="about how long each message is (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each broker, alternating (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.messages <= 100_000 or not 50 <= args.bytes <= 7900 or not 1 <= args.rounds <= 10:
        parser.error("--messages 1..100000, --bytes 50..7900 (PostgreSQL's limit is 8000) and --rounds 1..10")
    sys.path.insert(0, str(ROOT / "tests"))
    from pgcluster import Cluster, server_binaries  # the tests' throwaway PostgreSQL server

    binaries = server_binaries()
    if binaries is None:
        raise SystemExit("PostgreSQL's server binaries are needed (apt-get install postgresql)")
    cluster = Cluster(binaries).start()
    rounds: list[dict[str, Any]] = []
    try:
        url = cluster.new_database()
        with redis_server() as port:
            if port is None:
                print("Redis not measured: needs redis-server (apt-get install redis-server) and the redis package")
            for _ in range(args.rounds):
                rounds.append(asyncio.run(postgres_round(url, args.messages, args.bytes)))
                if port is not None:
                    rounds.append(asyncio.run(redis_round(port, args.messages, args.bytes)))
    finally:
        cluster.stop()
    best = {}
    for r in rounds:
        if r["broker"] not in best or r["published_per_second"] > best[r["broker"]]["published_per_second"]:
            best[r["broker"]] = r
    if args.json:
        print(json.dumps({"rounds": rounds, "best": list(best.values())}, indent=2))
    else:
        for r in best.values():
            print(
                f"{r['broker']}: {r['published_per_second']} messages/s of {args.bytes} bytes, publish to arrival "
                f"p50 {r['latency_ms_p50']} ms, p99 {r['latency_ms_p99']} ms, max {r['latency_ms_max']} ms; "
                f"every message once, in order: {r['every_message_once_in_order']} (best of {args.rounds})"
            )
    return 0 if all(r["every_message_once_in_order"] for r in rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
