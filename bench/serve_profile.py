"""Where one server process spends its time under load: a sampling profile of ``clubs serve`` while
``bench/serve_load.py``'s load plays, summed by function and by the stage of an action.

Run as ``python bench/serve_profile.py [--tables 150] [--seconds 20] [--src PATH]`` (it needs py-spy: ``pip install
py-spy``, or the ``bench`` extra). It starts a server of the package in ``--src`` (default this working tree's
``src``) over a temporary SQLite data directory, makes the tables (whist, one person thinking ``--think`` seconds,
two random bots at ``--bot-delay``, ``--watchers`` spectators each), plays the load from ``--clients`` processes and
meanwhile records the server with py-spy (``--rate`` samples a second, every thread, without pausing the process).
It prints the share of the samples in each stage of the work (the stages are matched on the stack, the first match
wins: see ``STAGES``), then the functions with the most samples on the stack and with the most at the top of it.
Everything is bounded and the server is stopped; the figures are for reading, no test depends on them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_compare import ROOT, client_share, load_arguments, make_tables, server, versions

STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "the database write (SQLAlchemy, sqlite3, the store)",
        ("sqlalchemy/", "sqlite3", "clubsuite/server/store/database.py"),
    ),
    ("copying the match (clone)", ("clone (", "clubsuite/copying.py")),
    ("JSON encoding", ("json/encoder.py", "json/__init__.py")),
    ("the spectators' view (public_view)", ("public_view (",)),
    ("the seats' views and legal actions (_for)", ("_for (clubsuite/server/table/live.py", "to_dict (clubsuite/games")),
    ("judging and applying the action", ("explain (", "parse_action (", "apply (clubsuite/", "advance (clubsuite")),
    (
        "the rest of an update (events, seats, hands played)",
        ("_broadcast_update (", "event_json (", "summary (clubsuite", "seat_names (", "persona_names ("),
    ),
    ("the bots' choices", ("_choose (clubsuite/server", "imagined (")),
    ("handing work to threads", ("ThreadPoolExecutor.submit", "run_in_executor")),
    (
        "socket reads and writes",
        ("selector_events.py", "websockets/", "h11/", "_read (clubsuite/server/table/socket.py"),
    ),
    ("the web framework (uvicorn, starlette, FastAPI)", ("uvicorn/", "starlette/", "fastapi/")),
    ("the event loop", ("asyncio/", "selectors.py")),
    ("threads waiting for work", ("concurrent/futures/thread.py", "threading.py")),
)
"""The stages of the work. A sample belongs to the stage of the innermost frame of its stack that one matches (by a
substring; among stages, the first listed): what the process was doing at that moment, as near the top as
recognised."""


def stage_of(frames: list[str]) -> str:
    """The stage of a sample's stack (outermost frame first): ``STAGES``, or ``other``."""
    for frame in reversed(frames):
        for name, needles in STAGES:
            if any(needle in frame for needle in needles):
                return name
    return "other"


def summary(raw: str, top: int) -> str:
    """The report of py-spy's raw output (one line a distinct stack: its frames joined by ``;``, then its count)."""
    stages: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    leaf: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if not f.startswith("process ") and not f.startswith("thread ")]
        total += count
        stages[stage_of(frames)] += count
        for frame in set(frames):
            inclusive[frame] += count
        if frames:
            leaf[frames[-1]] += count
    if not total:
        return "no samples"
    lines = [f"{total} samples; by stage (the share of every sample, every thread):"]
    lines += [f"  {100 * n / total:5.1f}%  {name}" for name, n in stages.most_common()]
    lines.append(f"functions with the most samples on the stack (top {top}):")
    lines += [f"  {100 * n / total:5.1f}%  {name}" for name, n in inclusive.most_common(top)]
    lines.append(f"functions with the most samples at the top of the stack (top {top}):")
    lines += [f"  {100 * n / total:5.1f}%  {name}" for name, n in leaf.most_common(top)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Start the server, play the load while py-spy records it, print the profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=150, help="tables played at once (default 150)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play and record (default 20)")
    load_arguments(parser)
    parser.add_argument("--rate", type=int, default=250, help="py-spy's samples a second (default 250)")
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package's source folder to serve")
    parser.add_argument("--raw", type=Path, default=None, help="also keep py-spy's raw output in this file")
    parser.add_argument(
        "--wall",
        action="store_true",
        help="sample every thread at every tick, waiting included (py-spy --idle), instead of only the thread "
        "holding the GIL: where the time of each thread goes, not only the CPU's",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600 or not 1 <= args.clients <= 8:
        parser.error("--tables 1..2000, --seconds up to 600 and --clients 1..8 keep the run bounded")
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
    if spy is None:
        raise SystemExit("py-spy is needed: pip install py-spy (or the bench extra)")
    with (
        tempfile.TemporaryDirectory() as work,
        server(args.src.resolve(), args.tables, args.watchers) as (base, proc),
        multiprocessing.get_context("spawn").Pool(args.clients) as pool,
    ):
        made = make_tables(base, args.tables, args.bot_delay)
        before = versions(base, made)
        out = Path(work) / "profile.txt"
        record = [spy, "record", "--pid", str(proc.pid), "--rate", str(args.rate), "--duration", str(int(args.seconds))]
        record += ["--format", "raw", "--output", str(out), "--threads", "--nonblocking"]
        record += ["--idle"] if args.wall else ["--gil"]
        recorder = subprocess.Popen(record, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        start = time.monotonic()
        options = {"stop": start + args.seconds, "think": args.think, "watchers": args.watchers}
        shares = [[(t.id, t.token) for t in made[k :: args.clients]] for k in range(args.clients)]
        ws_url = base.replace("http://", "ws://")
        jobs = [pool.apply_async(client_share, (ws_url, s, options, args.seed + k)) for k, s in enumerate(shares)]
        results = [job.get(args.seconds + 120) for job in jobs]
        elapsed = time.monotonic() - start
        after = versions(base, made)
        _, problem = recorder.communicate(timeout=args.seconds + 60)
        if recorder.returncode or not out.exists():
            raise SystemExit(f"py-spy failed: {problem.decode(errors='replace').strip()}")
        raw = out.read_text()
        if args.raw is not None:
            args.raw.write_text(raw)
    lat = sorted(x for r in results for x in r["latencies"])
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else float("nan")
    print(
        f"{args.tables} tables, {elapsed:.1f} s: {(after - before) / elapsed:.1f} accepted actions/s, p99 {p99:.1f} "
        f"ms; py-spy at {args.rate}/s, "
        + ("every thread at every tick, waiting included" if args.wall else "the thread holding the GIL: work")
    )
    print(summary(raw, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
