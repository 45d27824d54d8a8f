"""What holds one server process's event loop under load, and where an action's time goes inside it: the loop's
long callbacks, the cycle collector's pauses, an action's stages.

Run as ``python bench/serve_stalls.py [--tables 300] [--seconds 20] [--over-ms 5] [--src DIR] [--asyncio]``. It starts
``clubs serve`` of the working tree (or of the package in ``--src``, such as a reference ``serve_compare.py``
installed) over a temporary SQLite data directory, timing each callback of its event loop (``asyncio.Handle._run``: a
task's step or a plain callback; with ``--asyncio`` only, as uvloop's are run in C) and each collection through
``gc.callbacks``; plays ``bench/serve_compare.py``'s load; asks the server for its report (a signal; the server writes
it to a file); and prints the run's line, then how long the loop spent in callbacks longer than ``--over-ms``, grouped
by what they ran (a task's coroutine, or the callback's name), the longest first, with the time the collector held the
process among them. A client waits for the callbacks run before its update: where an action's p99 is tens of
milliseconds while the server has CPU to spare, this says which work was in the way. The figures are for reading; no
test depends on them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_compare import ROOT, check_bounds, line, load_arguments, measure, report_to

BOOTSTRAP = """
import asyncio, collections, gc, json, os, signal, time
from asyncio import events
over = float(os.environ["CLUBS_BENCH_OVER_MS"]) / 1000
spent = collections.defaultdict(lambda: [0, 0.0, 0.0])
loop_time = [0.0, 0]
run = events.Handle._run
def what(handle):
    target = getattr(handle._callback, "__self__", None)
    if isinstance(target, asyncio.Task):
        coro = target.get_coro()
        frame = getattr(coro, "cr_frame", None)
        where = f" at line {frame.f_lineno}" if frame is not None else ""
        return "task " + getattr(coro, "__qualname__", type(coro).__name__) + where
    return getattr(handle._callback, "__qualname__", repr(handle._callback))
def timed(self):
    began = time.perf_counter()
    run(self)
    took = time.perf_counter() - began
    loop_time[0] += took
    loop_time[1] += 1
    if took >= over:
        row = spent[what(self)]
        row[0] += 1
        row[1] += took
        row[2] = max(row[2], took)
events.Handle._run = timed
pauses = []
began = [0.0]
def collected(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    else:
        pauses.append((info["generation"], time.perf_counter() - began[0]))
gc.callbacks.append(collected)
stages = {"apply": [], "commit": [], "write": [], "tell": []}
def timing(cls, name, into):
    plain = getattr(cls, name)
    if asyncio.iscoroutinefunction(plain):
        async def wrapped(*args, **kwargs):
            began = time.perf_counter()
            try:
                return await plain(*args, **kwargs)
            finally:
                into.append(time.perf_counter() - began)
    else:
        def wrapped(*args, **kwargs):
            began = time.perf_counter()
            try:
                return plain(*args, **kwargs)
            finally:
                into.append(time.perf_counter() - began)
    setattr(cls, name, wrapped)
try:
    from clubsuite.server.table import live
    from clubsuite.server.store import commits
    timing(live.LiveTable, "_apply", stages["apply"])
    timing(commits.GroupCommit, "_write", stages["write"])
    timing(commits.GroupCommit, "append", stages["commit"])
    timing(live.LiveTable, "_broadcast_update", stages["tell"])
except (ImportError, AttributeError):
    pass  # a package laid out otherwise: its stages are not timed
def report(*_):
    with open(os.environ["CLUBS_BENCH_REPORT"], "w") as out:
        json.dump({"spent": spent, "loop": loop_time, "pauses": pauses, "stages": stages}, out)
signal.signal(signal.SIGUSR1, report)
from clubsuite.cli.main import main
main()
"""
"""The server's start: every callback of its loop and every collection timed, a report written on SIGUSR1. (A task
is named by its coroutine and the line it stopped at after the step: the line after the work.)"""


STAGES = {
    "apply": "actions applied, from the table's lock asked to the update told (players' and bots')",
    "commit": "actions committed, from the group commit asked (waiting for a write under way included)",
    "write": "writes of a group of actions, from the database thread asked to its answer",
    "tell": "updates encoded and queued for the table's connections",
}
"""The stages of an action timed in the server, and how each is described."""


def main(argv: list[str] | None = None) -> int:
    """One run; its figures and the loop's long callbacks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=300, help="tables played at once (default 300)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (default 20)")
    parser.add_argument("--over-ms", type=float, default=5.0, help="a callback this long or longer is counted")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package's folder (default the tree's)")
    parser.add_argument("--top", type=int, default=15, help="how many kinds of callback to list")
    parser.add_argument(
        "--asyncio",
        action="store_true",
        help="serve on the standard library's event loop, not uvloop's, so that its callbacks can be timed",
    )
    load_arguments(parser)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    check_bounds(parser, args)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.json"
        os.environ["CLUBS_BENCH_OVER_MS"], os.environ["CLUBS_BENCH_REPORT"] = str(args.over_ms), str(path)

        bootstrap = ("import sys; sys.modules['uvloop'] = None\n" if args.asyncio else "") + BOOTSTRAP
        with multiprocessing.get_context("spawn").Pool(args.clients) as pool:
            figures = measure(args.src.resolve(), args.tables, args, pool, bootstrap, report_to(path))
        if not path.exists():
            print("the server wrote no report", file=sys.stderr)
            return 1
        found = json.loads(path.read_text())
    print(line("served", figures))
    busy, count = found["loop"]
    if count:
        print(f"the loop ran {count:,} callbacks for {busy:.1f} s in all (the tables' making included)")
    else:
        print("the loop's callbacks were not timed (uvloop runs them in C: --asyncio serves on the standard loop)")
    rows = sorted(found["spent"].items(), key=lambda item: -item[1][1])
    if count:
        print(f"callbacks of {args.over_ms:g} ms or more, by what they ran (count, seconds in all, longest):")
    for name, (n, seconds, longest) in rows[: args.top]:
        print(f"  {n:>6} {seconds:8.2f} s {longest * 1000:8.1f} ms  {name}")
    for stage, about in STAGES.items():
        took = sorted(found["stages"].get(stage, []))
        if took:
            p50, p99 = (took[min(len(took) - 1, int(q * len(took)))] * 1000 for q in (0.5, 0.99))
            print(f"{about}: {len(took):,}, p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {took[-1] * 1000:.1f} ms")
    for generation in (0, 1, 2):
        held = [s for g, s in found["pauses"] if g == generation]
        if held:
            print(
                f"collections of generation {generation}: {len(held)}, {sum(held):.2f} s in all, the longest"
                f" {max(held) * 1000:.1f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
