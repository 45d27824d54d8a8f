"""The knee of one server process, for a commit and the working tree side by side: the most tables whose p99 stays
under 50 ms.

Run as ``python bench/serve_compare.py --compare REF [--steps 50,100,150,...] [--seconds 20]``. It checks out REF into a
temporary git worktree and installs it apart as ``make`` installs the package (its compiled core built with the build
requirements of its own ``pyproject.toml``; the run stops where that core did not build), then, for each table count of
``--steps`` in turn, runs ``bench/serve_load.py``'s load (whist tables with one person thinking ``--think`` seconds, two
bots at ``--bot-delay``, ``--watchers`` spectators each) against a fresh ``clubs serve`` of REF and one of the working
tree, alternating which goes first, one process each over its own SQLite data directory (a package of this environment
that changes how a server serves, uvloop's event loop, is kept from a reference whose own requirements do not name it).
A side stops stepping once its p99 reaches the bound; its knee is the last count under it. Every run prints its line
(accepted actions a second, p50, p99, max, the server's CPU and memory per table, and the load generator's own CPU;
where the server's ``/metrics`` has them (read at its metrics listener, ``--metrics-port``, or for a REF from before
that option at its public port), the mean number of actions a commit wrote and the full collections of the cycle
collector during the run); the end prints the knees. With ``--past-knee`` every side runs every step (the figures at
every count, such as the 1,000-table one), and its knee is the last count of an unbroken run under the bound from the
first.

The load generator runs in ``--clients`` processes (each playing a share of the tables' sockets) so that it is not
the bottleneck, and reports its CPU: the seconds of CPU its processes used per second of the run (1.0 is one core
busy). The server's CPU is read the same way from ``/proc`` (Linux). Everything is bounded: every run stops by
itself, every server it started is stopped, and the worktree is removed. The figures are for reading; no test
depends on them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_load import Figures, Table, await_up, free_port, load_limits, watch

ROOT = Path(__file__).resolve().parent.parent
BOUND_MS = 50.0
BOOTSTRAP = "from clubsuite.cli.main import main; main()"
"""How a server is started: the command line, as ``clubs serve`` runs it."""
"""The p99 a table count must stay under to count towards the knee."""


SERVING_EXTRAS = ("uvloop",)
"""Packages of this environment that change how a server serves (uvicorn takes uvloop's event loop wherever it can be
imported): a reference whose own requirements do not name one runs without it, as its install would."""
KERNEL = "clubsuite.games.whist._core"
"""The compiled kernel the load's tables play on: the reference must have it, as the working tree does."""


SETTLE = 5.0
"""Seconds from the start of a run after which an action's latency counts towards the settled p99: the first ones
meet every client connecting at once (each sent the whole table) and the first actions of every table together."""
KEPT = ROOT / "build" / "serve-compare"
"""Where each reference's install is kept, by commit, for the next run (building its compiled core takes minutes)."""


def bootstrap_for(ref: str) -> str:
    """How a server of ``ref`` is started: the command line, with the packages of :data:`SERVING_EXTRAS` its own
    ``pyproject.toml`` does not require made unimportable (so that it serves as it was installed to)."""
    pyproject = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:pyproject.toml"], capture_output=True, text=True
    ).stdout
    missing = [name for name in SERVING_EXTRAS if f'"{name}' not in pyproject]
    blocked = "".join(f"sys.modules[{name!r}] = None; " for name in missing)
    return f"import sys; {blocked}{BOOTSTRAP}" if missing else BOOTSTRAP


def kernel_of(target: Path) -> subprocess.CompletedProcess[str]:
    """Where the compiled whist kernel of the install in ``target`` is imported from (or why not), in a process of
    its own."""
    check = f"import importlib; print(importlib.import_module({KERNEL!r}).__file__)"
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env)


@contextlib.contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """The path of ``ref``'s package installed apart as ``make`` installs it (a build in its own environment with
    the build requirements of its ``pyproject.toml``, Cython included), made from a detached checkout in a temporary
    folder the first time and kept in ``build/serve-compare/<commit>`` for the next run (remove it to build the
    reference again, with a new compiler say). Stops the run where the
    reference's compiled core did not build: a reference running on pure Python would make the comparison unfair."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"], capture_output=True, text=True
    ).stdout.strip()
    if not commit:
        raise SystemExit(f"{ref}: no such commit")
    target = KEPT / commit
    if target.is_dir() and kernel_of(target).stdout.startswith(str(target)):
        yield target
        return
    folder = Path(tempfile.mkdtemp(prefix="clubs-ref-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder / "tree"), commit], check=True)
    try:
        uv = Path(sys.executable).with_name("uv")
        if uv.exists():
            cmd = [str(uv), "pip", "install", "--quiet", "--python", sys.executable, "--no-deps", "--target"]
        else:
            cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target"]
        print(f"{ref}: building and installing it apart (several minutes, once)", file=sys.stderr)
        build = subprocess.run([*cmd, str(folder / "installed"), str(folder / "tree")], capture_output=True, text=True)
        found = kernel_of(folder / "installed")
        if build.returncode or found.returncode or not found.stdout.startswith(str(folder / "installed")):
            raise SystemExit(
                f"{ref}: its compiled core did not build, so it would run on pure Python and the comparison would not"
                f" be fair; stopped.\n{build.stderr[-2000:]}{found.stderr[-2000:]}"
            )
        KEPT.mkdir(parents=True, exist_ok=True)
        partial = KEPT / f"{commit}.partial"  # moved whole first, then renamed: a stopped move never looks built
        shutil.rmtree(partial, ignore_errors=True)
        shutil.move(folder / "installed", partial)
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "tree")], check=False)
        shutil.rmtree(folder, ignore_errors=True)
    yield target


def cpu_seconds(pid: int) -> float | None:
    """The CPU (user and system) process ``pid`` has used, from /proc; None where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def rss_bytes(pid: int) -> int | None:
    """The resident memory of process ``pid``, from /proc; None where there is none."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


@contextlib.contextmanager
def server(
    src: Path, tables: int, watchers: int, bootstrap: str = BOOTSTRAP
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``clubs serve`` of the package in ``src`` on a free loopback port over a temporary data directory, started by
    the Python code ``bootstrap`` (which ends by running the command line)."""
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        cmd = [sys.executable, "-c", bootstrap, "serve", "--port", str(port)]
        cmd += ["--data-dir", data, "--log-level", "warning", *load_limits(tables, watchers)]
        if "--metrics-port" in (src / "clubsuite" / "cli" / "serve.py").read_text(encoding="utf-8"):
            metrics_port = free_port()
            cmd += ["--metrics-port", str(metrics_port)]
            FIGURES[f"http://127.0.0.1:{port}"] = f"http://127.0.0.1:{metrics_port}"
        env = {**os.environ, "PYTHONPATH": str(src.resolve())}  # the server runs in its data directory
        proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, env=env, cwd=data)
        base = f"http://127.0.0.1:{port}"
        try:
            await_up(base, proc)
            yield base, proc
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


FIGURES: dict[str, str] = {}
"""The metrics listener of each server started here, by its public address (a server of a REF from before
``--metrics-port`` has none: its ``/metrics`` is on its public port)."""


def scrape(base: str) -> dict[str, float]:
    """The server's ``/metrics`` figures by name (labels included); empty where it answers none."""
    try:
        text = httpx.get(FIGURES.get(base, base) + "/metrics", timeout=30).text
    except httpx.HTTPError:
        return {}
    figures = {}
    for row in text.splitlines():
        name, _, value = row.rpartition(" ")
        if name and not row.startswith("#"):
            with contextlib.suppress(ValueError):
                figures[name] = float(value)
    return figures


def make_tables(base: str, count: int, bot_delay: float) -> list[Table]:
    """``count`` whist tables, each with one person seat joined by the benchmark and two random bots."""
    tables = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for _ in range(count):
            seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2
            body = {"game": "whist", "seats": seats, "bot_delay": bot_delay, "grace": 3600}
            made = http.post("/tables", json=body).raise_for_status().json()
            joined = http.post(f"/tables/{made['id']}/join", json={"name": "bench"}).raise_for_status().json()
            tables.append(Table(made["id"], joined["token"]))
    return tables


def versions(base: str, tables: list[Table]) -> int:
    """The sum of the tables' versions: every action the server accepted."""
    with httpx.Client(base_url=base, timeout=30) as http:
        return sum(http.get(f"/tables/{t.id}").json()["version"] for t in tables)


def client_share(ws_url: str, share: list[tuple[str, str]], options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One process of the load generator: the player and watchers of its share of the tables until the stop time;
    its latencies, acts and refusals, and its own CPU."""
    figures = Figures()
    rng = random.Random(seed)
    used = resource.getrusage(resource.RUSAGE_SELF)  # a pool's process serves several runs: count this one's

    async def play() -> None:
        clients = []
        for table_id, token in share:
            table = Table(table_id, token)
            clients.append(watch(ws_url, table, figures, options["stop"], token, random.Random(rng.random()),
                                 options["think"]))  # fmt: skip
            clients += [
                watch(ws_url, table, figures, options["stop"], None, rng, options["think"])
                for _ in range(options["watchers"])
            ]
        await asyncio.gather(*clients)

    asyncio.run(play())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "latencies": figures.latencies,
        "sent_at": figures.sent_at,
        "acts": figures.acts,
        "refused": figures.refused,
        "cpu": usage.ru_utime + usage.ru_stime - used.ru_utime - used.ru_stime,
    }


def measure(
    src: Path, tables: int, args: argparse.Namespace, pool: Any, bootstrap: str = BOOTSTRAP, after: Any = None
) -> dict[str, Any]:
    """One run: a fresh server of ``src`` (started by ``bootstrap``), ``tables`` tables, the load for
    ``args.seconds``; its figures. ``after``, if given, is called with the server's process once the load is over,
    before the server stops."""
    with server(src, tables, args.watchers, bootstrap) as (base, proc):
        memory_before = rss_bytes(proc.pid)
        made = make_tables(base, tables, args.bot_delay)
        before = versions(base, made)
        scraped_before = scrape(base)
        cpu_before = cpu_seconds(proc.pid)
        start = time.monotonic()
        options = {"stop": time.monotonic() + args.seconds, "think": args.think, "watchers": args.watchers}
        ws_url = base.replace("http://", "ws://")
        shares = [[(t.id, t.token) for t in made[k :: args.clients]] for k in range(args.clients)]
        jobs = [
            pool.apply_async(client_share, (ws_url, share, options, args.seed + k)) for k, share in enumerate(shares)
        ]
        results = [job.get(args.seconds + 120) for job in jobs]
        elapsed = time.monotonic() - start
        cpu_after = cpu_seconds(proc.pid)
        memory_after = rss_bytes(proc.pid)
        accepted = versions(base, made)
        scraped_after = scrape(base)
        if after is not None:
            after(proc)
    lat = sorted(x for r in results for x in r["latencies"])
    settled = sorted(
        x for r in results for x, sent in zip(r["latencies"], r["sent_at"], strict=True) if sent >= start + SETTLE
    )

    def pct(p: float, lat: list[float] = lat) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    server_cpu = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / elapsed
    per_table = None if memory_before is None or memory_after is None else (memory_after - memory_before) / tables

    def grew(name: str) -> float | None:
        """How much a figure of the server's ``/metrics`` grew during the run (None where it has none)."""
        if name not in scraped_after:
            return None
        return scraped_after[name] - scraped_before.get(name, 0.0)

    groups, grouped = grew("clubs_commit_groups"), grew("clubs_commit_group_actions")
    return {
        "tables": tables,
        "accepted_actions_per_second": round((accepted - before) / elapsed, 1),
        "latency_samples": len(lat),
        "latency_ms_p50": round(pct(0.50), 2),
        "latency_ms_p99": round(pct(0.99), 2),
        "latency_ms_p99_settled": round(pct(0.99, settled), 2),
        "latency_ms_max": round(lat[-1] * 1000, 2) if lat else None,
        "refused": sum(r["refused"] for r in results),
        "server_cores": None if server_cpu is None else round(server_cpu, 2),
        "generator_cores": round(sum(r["cpu"] for r in results) / elapsed, 2),
        "memory_per_table_bytes": None if per_table is None else round(per_table),
        "mean_commit_group": round(grouped / groups, 2) if groups and grouped is not None else None,
        "full_collections": grew('python_gc_collections_total{generation="2"}'),
    }


def check_bounds(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a run of one server's benchmark that would not stay bounded (``--tables``, ``--seconds``, ``--clients``)
    past their limits."""
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 900 or not 1 <= args.clients <= 8:
        parser.error("--tables 1..2000, --seconds up to 900 and --clients 1..8 keep the run bounded")


def report_to(path: Path) -> Callable[[subprocess.Popen[bytes]], None]:
    """An ``after`` for :func:`measure`: asks the server for its report (a signal, SIGUSR1, that a benchmark's
    bootstrap answers by writing ``path``) and waits until it is written (60 s at most)."""

    def ask(proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)  # the file is written whole in well under that

    return ask


def line(label: str, f: dict[str, Any]) -> str:
    """One run's figures as a line."""
    memory = f["memory_per_table_bytes"]
    return (
        f"{label:>12} {f['tables']:>5} tables: {f['accepted_actions_per_second']:>7} actions/s, p50 "
        f"{f['latency_ms_p50']} ms, p99 {f['latency_ms_p99']} ms"
        + (
            f" ({f['latency_ms_p99_settled']} ms after the first {SETTLE:.0f} s)"
            if f["latency_ms_p99_settled"] == f["latency_ms_p99_settled"]  # none in a run shorter than that
            else ""
        )
        + f", max {f['latency_ms_max']} ms; server "
        f"{f['server_cores']} cores, {'?' if memory is None else f'{memory / 1024:.1f} KiB'} a table; load "
        f"generator {f['generator_cores']} cores"
        + (f"; {f['mean_commit_group']} actions a commit" if f["mean_commit_group"] is not None else "")
        + (f"; {f['full_collections']:.0f} full collections" if f["full_collections"] is not None else "")
    )


def load_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the load itself, the same in every benchmark of one server process: spectators, the player's
    thinking, the bots' delay, the generator's processes."""
    parser.add_argument("--watchers", type=int, default=1, help="spectators per table besides its player")
    parser.add_argument("--think", type=float, default=0.5, help="the player's mean thinking time, seconds")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the bots' delay before acting, seconds")
    parser.add_argument("--clients", type=int, default=2, help="processes of the load generator (default 2)")


def main(argv: list[str] | None = None) -> int:
    """Step the table count for REF and the working tree, alternating, and print each knee."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--compare", required=True, metavar="REF", help="the commit to compare the working tree with")
    parser.add_argument("--steps", default="50,100,150,200,250,300,400,500,600,800,1000", help="table counts")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each run plays (default 20)")
    load_arguments(parser)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--past-knee",
        action="store_true",
        help="run every step for both sides, past their knees too (the figures at every count)",
    )
    parser.add_argument("--json", action="store_true", help="print every run's figures as JSON at the end")
    args = parser.parse_args(argv)
    try:
        steps = sorted({int(s) for s in args.steps.split(",")})
    except ValueError:
        parser.error(f"--steps {args.steps!r}: table counts separated by commas")
    if not steps or not all(1 <= s <= 2000 for s in steps):
        parser.error("--steps: table counts from 1 to 2000")
    if not 0 < args.seconds <= 600 or not 0 <= args.watchers <= 20 or not 1 <= args.clients <= 8:
        parser.error("--seconds up to 600, --watchers 0..20 and --clients 1..8 keep the run bounded")
    runs: list[dict[str, Any]] = []
    knees: dict[str, int] = {args.compare: 0, "working tree": 0}
    with worktree(args.compare) as ref_src, multiprocessing.get_context("spawn").Pool(args.clients) as pool:
        sources = {args.compare: ref_src, "working tree": ROOT / "src"}
        bootstraps = {args.compare: bootstrap_for(args.compare), "working tree": BOOTSTRAP}
        if bootstraps[args.compare] != BOOTSTRAP:
            print(f"{args.compare}: served without {', '.join(SERVING_EXTRAS)}, as its requirements install it")
        going = set(sources)
        for k, tables in enumerate(steps):
            order = list(sources) if k % 2 == 0 else list(reversed(sources))
            for label in order:
                if label not in going:
                    continue
                figures = measure(sources[label], tables, args, pool, bootstraps[label])
                figures["side"] = label
                runs.append(figures)
                print(line(label, figures), flush=True)
                if figures["latency_ms_p99"] < BOUND_MS:
                    if knees[label] == steps[k - 1] or k == 0:  # under the bound at every count so far
                        knees[label] = tables
                elif not args.past_knee:
                    going.discard(label)
            if not going:
                break
    print(f"knee (the most tables with p99 under {BOUND_MS:.0f} ms, steps {args.steps}):")
    for label, knee in knees.items():
        print(f"  {label}: {knee or 'below ' + str(steps[0])} tables")
    if knees[args.compare]:
        print(f"  ratio: {knees['working tree'] / knees[args.compare]:.2f}")
    if args.json:
        print(json.dumps({"knees": knees, "runs": runs}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
