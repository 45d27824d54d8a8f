"""What a turn-based table costs a server: waking a parked table, a clock worked out, a look at the clocks.

Run as ``.venv/bin/python bench/turn_wake.py [--moves 150] [--repeat 7]``. It starts the server in this process over
SQLite in a temporary folder (``tests/server/serverkit.ThreadServer``, loopback, the test clock on), makes a
three-player turn-based whist table, plays ``--moves`` moves through the players' sockets, and then ``--repeat``
times: lets the table be parked (nobody at it) and times the first request about it (``GET /tables/{id}``, which
wakes it: its row read, its match rebuilt from the log with the public events of its last moves, its clock read)
against the same request while it is in memory. It also times ``turns.clock.deadline`` at its worst (a 14-day pace
in 8-hour playing hours with vacations, Europe/Paris across a daylight-saving change) and one look of the keeper at
the clocks with nothing due (``Keeper.beat``). Every figure depends on the machine: a bench to read, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "server"), str(ROOT / "tests")]

from serverkit import ThreadServer  # noqa: E402
from turnkit import DAY, Player, clients, leave, play, turn_table, wait_for  # noqa: E402

from clubsuite.server.store.database import Store  # noqa: E402
from clubsuite.server.turns.clock import PlayingHours, deadline  # noqa: E402
from clubsuite.server.turns.config import TurnConfig  # noqa: E402


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, min {min(values) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=150, help="moves logged before the table is parked")
    parser.add_argument("--repeat", type=int, default=7, help="parks and wakes timed")
    args = parser.parse_args()

    hours = PlayingHours("Europe/Paris", 9 * 60, 17 * 60)
    since = 1805670000.0  # late March 2027, days before Paris's change to summer time
    away = [(since + 2 * DAY, since + 5 * DAY), (since + 9 * DAY, since + 12 * DAY)]
    times = []
    for _ in range(200):
        start = time.perf_counter()
        deadline(since, 14 * DAY, hours, away)
        times.append(time.perf_counter() - start)
    median, least = statistics.median(times) * 1e6, min(times) * 1e6
    print(f"deadline, 14 days in 8-hour days with two vacations: median {median:.0f} us, min {least:.0f} us")

    with tempfile.TemporaryDirectory() as folder:
        store = Store.in_directory(Path(folder))
        config = TurnConfig(test_clock=True, sweep_every=0.05, park_after=0.2)
        with ThreadServer(store, turn_config=config) as server:
            app = server.server.config.app
            hub, keeper = app.state.hub, app.state.turns
            friends = [Player(server.base, name) for name in ("Ann", "Bob", "Cat")]
            table = turn_table(friends[0], friends[1:], pace=DAY)
            at = clients(server.base, table, friends)
            last = play(at, lambda m: False, moves=args.moves)
            leave(at)
            print(f"table of {last['version']} versions ({args.moves} moves asked; a match ends sooner)")
            query = f"/tables/{table}?invite={friends[0].invite}"
            woken, held = [], []
            for _ in range(args.repeat):
                wait_for(lambda: table not in hub.tables, 60, "the table to be parked")
                start = time.perf_counter()
                friends[0].get(query)
                woken.append(time.perf_counter() - start)
                start = time.perf_counter()
                friends[0].get(query)
                held.append(time.perf_counter() - start)
            print(f"GET /tables/{{id}} of a parked table (woken): {_ms(woken)}")
            print(f"the same, the table in memory: {_ms(held)}")
            beats = []
            for _ in range(20):
                start = time.perf_counter()
                asyncio.run_coroutine_threadsafe(keeper.beat(), hub.loop).result(60)
                beats.append(time.perf_counter() - start)
            print(f"a look at the clocks (Keeper.beat), nothing due: {_ms(beats)}")
            for p in friends:
                p.close()
        store.close()


if __name__ == "__main__":
    main()
