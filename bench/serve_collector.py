"""What the cycle collector costs one server process under load, with the policy ``clubs serve`` applies and
without it: every collection timed, the full ones listed, the objects it tracks counted by type at the end.

Run as ``python bench/serve_collector.py --policy served|freeze|python [--tables 300] [--seconds 240]``. It starts
``clubs serve`` of this working tree over a temporary SQLite data directory, with the cycle collector's policy
(``server/http/collector.py``) as served (frozen once up, full collections spaced out), frozen only (Python's
thresholds),
or Python's defaults (nothing frozen), and times every collection through ``gc.callbacks``. It then plays
``bench/serve_compare.py``'s load (whist tables, one person thinking ``--think`` seconds, two random bots at
``--bot-delay``, ``--watchers`` spectators each, the load generator in ``--clients`` processes) for ``--seconds``,
asks the server for its report (a signal; the server writes it to a file of its data directory), and prints the
run's line (actions a second, p50, p99, max, cores, memory a table), the full collections (how long each held the
process and what it freed), the objects tracked at the end (the frozen ones apart) and the most common of their
types. Everything is bounded and the server is stopped; the figures are for reading, no test depends on them.
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

POLICIES = ("served", "freeze", "python")

BOOTSTRAP = """
import collections, gc, json, os, signal, sys, time
from clubsuite.server.http import app, collector
policy = os.environ["CLUBS_BENCH_POLICY"]
if policy == "python":
    app.settle = lambda: None
elif policy == "freeze":
    collector.FULL_AFTER = gc.get_threshold()[2]
pauses = []
began = [0.0]
def timed(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    else:
        pauses.append((info["generation"], time.perf_counter() - began[0], info["collected"]))
gc.callbacks.append(timed)
def report(*_):
    kinds = collections.Counter(type(o).__name__ for o in gc.get_objects())
    with open(os.environ["CLUBS_BENCH_REPORT"], "w") as out:
        json.dump({"pauses": pauses, "tracked": sum(kinds.values()), "frozen": gc.get_freeze_count(),
                   "kinds": kinds.most_common(12)}, out)
signal.signal(signal.SIGUSR1, report)
from clubsuite.cli.main import main
main()
"""
"""The server's start: the policy chosen, every collection timed, and a report written on SIGUSR1."""


def main(argv: list[str] | None = None) -> int:
    """One run with the chosen policy; its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--policy", choices=POLICIES, default="served", help="the collector's policy (default served)")
    parser.add_argument("--tables", type=int, default=300, help="tables played at once (default 300)")
    parser.add_argument("--seconds", type=float, default=240.0, help="how long to play (default 240)")
    load_arguments(parser)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    check_bounds(parser, args)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.json"
        os.environ["CLUBS_BENCH_POLICY"], os.environ["CLUBS_BENCH_REPORT"] = args.policy, str(path)

        with multiprocessing.get_context("spawn").Pool(args.clients) as pool:
            figures = measure(ROOT / "src", args.tables, args, pool, BOOTSTRAP, report_to(path))
        if not path.exists():
            print("the server wrote no report", file=sys.stderr)
            return 1
        found = json.loads(path.read_text())
    print(line(args.policy, figures))
    full = [(seconds, freed) for generation, seconds, freed in found["pauses"] if generation == 2]
    print(f"full collections: {len(full)}: " + ", ".join(f"{s * 1000:.0f} ms ({n} freed)" for s, n in full))
    young = [seconds for generation, seconds, _ in found["pauses"] if generation < 2]
    print(f"younger collections: {len(young)}, the longest {max(young, default=0.0) * 1000:.1f} ms")
    print(f"objects tracked at the end: {found['tracked']:,}, besides {found['frozen']:,} frozen")
    print("  " + ", ".join(f"{kind} {count:,}" for kind, count in found["kinds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
