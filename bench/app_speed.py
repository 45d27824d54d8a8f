"""How fast the offline app starts and plays in a browser, and what it downloads.

Run as ``.venv/bin/python bench/app_speed.py [--out FILE.json] [--repeat 3]``. It builds the app into a temporary
folder (``clubs app build DIR --pyodide node_modules/pyodide``), serves it with ``python -m http.server`` on
127.0.0.1 (a free port; stopped at the end, whatever happens) and measures in headless Chromium (Debian's, as the
browser tests run it: ``tests/server/browserkit.py``):

1. **first visit** (a fresh browser context: nothing cached): seconds from ``page.goto`` of the lobby to
   ``#app-status[data-ready]`` (the app's files kept by its service worker: the lobby starts no Python), and to a
   dealt hand on the table page (whist's Play clicked with normal bots; the table page starts the worker, Pyodide
   and clubsuite's core, and makes the table in it);
2. **a later start from the cache**: in the same context once the service worker controls the page, the context
   offline (``context.set_offline(True)``), a new page on the lobby: the same two times;
3. **bot move times**: in a lobby page of that context (still offline) tables are driven directly through
   ``static/js/offline.js``'s ``ask``: whole matches of every game against easy and normal bots and one hand of
   each game against hard bots, the person playing the first legal action. Each ``bot`` request is timed in the
   page around ``ask`` (``performance.now()``: the worker's Python and the message passing); the worker's own
   figure (the ``ms`` it posts: Python alone) is read by a listener added to the page's ``Worker`` (an init script:
   the app's code is unchanged);
4. **download sizes**: every file of the build (``build.json`` and the disk), the gzip-compressed size (level 6)
   of ``pyodide/*``, ``core/clubsuite.zip`` and the rest (what a first visit downloads from a compressing server),
   the requests the first visit actually made of the server (its log), and an update that changes only
   clubsuite's Python, taken as the files whose SHA-256 would change: ``core/clubsuite.zip``, ``build.json`` and
   ``sw.js``;
5. **an update in the browser** (once each, unless ``--no-update-check``): a copy of the build is visited until its
   service worker controls the page, then made again as a build where only clubsuite's core changed (the zip's
   bytes, ``sw.js`` and ``build.json`` as the build writes them, every file rewritten) and the lobby reloaded online
   until it offers the new version: the requests the new service worker made, and whether its cache holds the new
   build's bytes (SHA-256 of every cached file against the new ``build.json``). Twice: the files written just
   before the first visit, and a day before (so that the browser's HTTP cache may take them as fresh, as it does
   for a file served with a Last-Modified and no Cache-Control).

During the starts "from the cache" the context is offline and the server is stopped as well (``set_offline`` alone
let the service worker's update checks of ``sw.js`` through to the server). Steps 1 to 3 run ``--repeat`` times,
each in a fresh context; the times are given as median and min over the runs, the bot moves pooled over the runs
(median, 95th percentile by nearest rank, max). The browser's console errors, page errors and failed requests are
collected and printed by phase. Every figure depends on the machine (its ``nproc`` is printed): this is a bench
to read, not a test.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))  # browserkit: Debian's Chromium and its switches
sys.path.insert(0, str(ROOT / "tests"))

from browserkit import LAUNCH_ARGS, chromium  # noqa: E402

GAMES = ("whist", "free", "northstar", "partnership")
"""The games the lobby offers (each a ``li.game-tile[data-game=NAME]``)."""
LEVELS = (("easy", True), ("normal", True), ("hard", False))
"""The bots' levels driven through ``ask``, and whether a whole match is played (else one hand)."""
WAIT_MS = 120_000
"""The longest any one wait in the browser lasts (a page's element, a request to the worker)."""
DRIVE_LIMIT_MS = 600_000
"""The longest one game at one level may be driven through ``ask``."""
GZIP_LEVEL = 6
"""The compression a compressing server is taken to use (gzip's default)."""
HAND_SELECTOR = ".my-area [data-card]"
"""A card of the person's own hand on the table page: there once the hand is dealt and drawn."""
CACHE_PREFIX = "clubsuite-app:/:"
"""The service worker's caches are named this and the build's id (sw.js)."""
UPDATE_AGES = (0.0, 86_400.0)
"""How long before the first visit the build's files were written, in the update checks: just before (no heuristic
HTTP freshness: the browser asks again), and a day before (a browser may keep such a file fresh for 2.4 h)."""
UPDATE_SET = ("core/clubsuite.zip", "build.json", "sw.js")
"""The files whose SHA-256 changes when only clubsuite's Python changes: its zip, the build's list (which holds
every hash and the build id) and the service worker (which holds the build id)."""

WORKER_HOOK = """(() => {
  const Native = window.Worker;
  if (!Native || Native.benchHooked) return;
  window.benchWorkerMs = null;
  class Hooked extends Native {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("message", (event) => {
        const data = event.data;
        if (data && typeof data.ms === "number") window.benchWorkerMs = data.ms;
      });
    }
  }
  Hooked.benchHooked = true;
  window.Worker = Hooked;
})();"""
"""An init script: every worker a page makes also tells the page the ``ms`` of its last answer (Python's time).
Its listener is added before offline.js's, so the figure is there when ``ask``'s promise resolves."""

WORKER_STARTED = """async () => {
  const m = await import(new URL("static/js/offline.js", location.href).href);
  await m.rulesReady();
  return m.startedIn;
}"""
"""The seconds the page's worker took to start (Pyodide and the core), as offline.js keeps them."""

SW_READY = """async (limit) => {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no service worker ready")), limit));
  const registration = await Promise.race([navigator.serviceWorker.ready, timeout]);
  return registration.active ? registration.active.state : null;
}"""

CACHE_HASHES = """async ({name, base}) => {
  if (!(await caches.has(name))) return null;
  const cache = await caches.open(name);
  const out = {};
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
    const path = request.url.startsWith(base) ? request.url.slice(base.length) || "./" : request.url;
    out[path] = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return out;
}"""
"""The SHA-256 of every file a service worker's cache holds, by its path in the app (``./``: the lobby)."""

DRIVE = """async ({games, level, whole, waitMs, limitMs}) => {
  const m = await import(new URL("static/js/offline.js", location.href).href);
  await m.rulesReady();
  const ask = (request) => Promise.race([m.ask(request), new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`no answer to ${request.op} in ${waitMs} ms`)), waitMs))]);
  const out = [];
  for (const game of games) {
    const id = `bench-${level}-${game}-${Date.now().toString(36)}`;
    const row = {game, level, whole, bot: [], python: [], acts: 0, hands: 0, over: false, errors: [], problem: null};
    const began = performance.now();
    try {
      let answer = await ask({op: "table", id, game, name: "Bench", seat: 0, level, coach: false});
      if (!answer.ok) throw new Error(`table: ${answer.error}`);
      answer = await ask({op: "send", table: id, message: {type: "hello", protocol: 1}});
      let state = null;
      for (;;) {
        if (!answer.ok) throw new Error(answer.error);
        for (const msg of answer.messages) {
          if (msg.type === "state" || msg.type === "update") state = msg;
          if (msg.type === "update" && "scored" in msg) row.hands += 1;
          if (msg.type === "error") row.errors.push(`${msg.code}: ${msg.message}`);
        }
        if (state && state.over) { row.over = true; break; }
        if (!whole && row.hands > 0) break;
        if (performance.now() - began > limitMs) throw new Error(`not over after ${limitMs} ms`);
        if (answer.due) {
          window.benchWorkerMs = null;
          const t0 = performance.now();
          answer = await ask({op: "bot", table: id, version: answer.due.version});
          row.bot.push(performance.now() - t0);
          row.python.push(window.benchWorkerMs);
        } else if (state && state.legal && state.legal.length) {
          answer = await ask({op: "send", table: id,
            message: {type: "act", protocol: 1, action: state.legal[0], version: state.version}});
          row.acts += 1;
        } else {
          throw new Error(`stuck: no bot due and no legal action (to_act ${state && state.to_act})`);
        }
      }
    } catch (err) {
      row.problem = String(err && err.message ? err.message : err);
    }
    row.seconds = (performance.now() - began) / 1000;
    out.push(row);
  }
  return out;
}"""
"""Drive one table of each game through ``ask`` at one level: every ``bot`` request timed (page and Python)."""


# -- the app, built and served ------------------------------------------------------------------------------------
def clubs_command() -> str:
    """The ``clubs`` command of this Python's environment."""
    beside = Path(sys.executable).with_name("clubs")
    return str(beside) if beside.exists() else str(ROOT / ".venv" / "bin" / "clubs")


def build_app(folder: Path) -> str:
    """Build the app into ``folder`` with Pyodide from ``node_modules/pyodide``; what the command said."""
    pyodide = ROOT / "node_modules" / "pyodide"
    if not pyodide.is_dir():
        sys.exit(f"no {pyodide}: run npm ci first (the build takes Pyodide from there)")
    command = [clubs_command(), "app", "build", str(folder), "--pyodide", str(pyodide), "--offline"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout.strip()


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


_LOG_LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/[\d.]+" (?P<status>\d{3})')


@dataclass(frozen=True)
class Served:
    """One request the server logged: its path (no query) and its status."""

    path: str
    status: int


class StaticServer:
    """``python -m http.server`` serving a folder on 127.0.0.1 (one port for its life, so one origin), its request
    log kept in a file. :meth:`stop` and :meth:`start` take it away and back (the app offline for real)."""

    def __init__(self, folder: Path, log: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.log_path = log
        self._log: TextIO = log.open("a", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        """Serve (again, on the same port), once it listens."""
        if self.process is not None and self.process.poll() is None:
            return
        command = [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1"]
        self.process = subprocess.Popen(
            [*command, "--directory", str(self.folder)], stdout=subprocess.DEVNULL, stderr=self._log
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"http.server stopped at once ({self.process.returncode}): see {self.log_path}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"http.server is not listening on port {self.port} after 30 s")

    def stop(self) -> None:
        """Stop serving (the process ended, killed if it does not end in 10 s)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        self.stop()
        self._log.close()

    def mark(self) -> int:
        """Where the log ends now."""
        self._log.flush()
        return self.log_path.stat().st_size

    def since(self, mark: int) -> list[Served]:
        """The requests logged after ``mark``."""
        with self.log_path.open(encoding="utf-8", errors="replace") as f:
            f.seek(mark)
            text = f.read()
        found = (_LOG_LINE.search(line) for line in text.splitlines())
        return [Served(m["path"].split("?")[0], int(m["status"])) for m in found if m]


@contextmanager
def served(folder: Path, log: Path) -> Iterator[StaticServer]:
    """The folder served for the block, the server stopped after it whatever happens."""
    server = StaticServer(folder, log)
    try:
        yield server
    finally:
        server.close()


# -- what the browser said ----------------------------------------------------------------------------------------
@dataclass
class Noticed:
    """The console errors, page errors and failed requests of the pages watched, each with its phase."""

    console: list[str] = field(default_factory=list)
    page: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def watch(self, page: Page, phase: str) -> None:
        page.on("console", lambda msg: self._console(phase, msg))
        page.on("pageerror", lambda exc: self.page.append(f"[{phase}] {exc}"))
        page.on("requestfailed", lambda request: self._failed(phase, request))

    def _console(self, phase: str, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.console.append(f"[{phase}] {msg.text} ({msg.location.get('url', '')})")

    def _failed(self, phase: str, request: Request) -> None:
        self.failed.append(f"[{phase}] {request.method} {request.url}: {request.failure}")


# -- one run ------------------------------------------------------------------------------------------------------
@dataclass
class Run:
    """One run's figures, in seconds."""

    first_ready: float
    first_dealt: float
    first_worker_table: float | None
    cached_ready: float
    cached_dealt: float
    cached_worker_table: float | None
    first_requests: list[Served]
    drives: list[dict[str, Any]]


def start_and_deal(page: Page, url: str) -> tuple[float, float, float | None]:
    """Open the lobby at ``url``, wait until it is ready (its files kept: it starts no Python), play whist against
    normal bots until the hand is drawn: seconds to ready, seconds to the dealt hand (both from the goto), and the
    table page's worker start (Pyodide and the core)."""
    began = time.perf_counter()
    page.goto(url, timeout=WAIT_MS)
    page.wait_for_selector("#app-status[data-ready]", timeout=WAIT_MS)
    ready = time.perf_counter() - began
    tile = page.locator('li.game-tile[data-game="whist"]')
    tile.locator('select[data-choice="level"]').select_option("normal")
    tile.locator("button.play").click()
    page.wait_for_url("**/table.html?local=*", timeout=WAIT_MS)
    page.wait_for_selector(HAND_SELECTOR, timeout=WAIT_MS)
    dealt = time.perf_counter() - began
    table_worker = page.evaluate(WORKER_STARTED)
    return ready, dealt, table_worker


def one_run(browser: Browser, server: StaticServer, noticed: Noticed, n: int) -> Run:
    """A fresh context: the first visit, a start from the cache offline, and the bots driven (offline)."""
    context: BrowserContext = browser.new_context(service_workers="allow")
    try:
        context.add_init_script(WORKER_HOOK)
        context.set_default_timeout(WAIT_MS)
        index = server.base + "index.html"

        page = context.new_page()
        noticed.watch(page, f"run {n}: first visit")
        mark = server.mark()
        first = start_and_deal(page, index)
        state = page.evaluate(SW_READY, WAIT_MS)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT_MS)
        if state != "activated":
            print(f"  run {n}: the service worker is {state}, not activated", file=sys.stderr)
        first_requests = server.since(mark)

        context.set_offline(True)  # the service worker's update check still reached the server: stop it too
        server.stop()
        page.close()
        page = context.new_page()
        noticed.watch(page, f"run {n}: cached start, offline")
        cached = start_and_deal(page, index)
        page.close()

        page = context.new_page()
        noticed.watch(page, f"run {n}: bots, offline")
        page.goto(index, timeout=WAIT_MS)
        page.wait_for_selector("#app-status[data-ready]", timeout=WAIT_MS)
        drives: list[dict[str, Any]] = []
        for level, whole in LEVELS:
            args = {"games": list(GAMES), "level": level, "whole": whole, "waitMs": WAIT_MS, "limitMs": DRIVE_LIMIT_MS}
            drives.extend(page.evaluate(DRIVE, args))
        return Run(
            first_ready=first[0],
            first_dealt=first[1],
            first_worker_table=first[2],
            cached_ready=cached[0],
            cached_dealt=cached[1],
            cached_worker_table=cached[2],
            first_requests=first_requests,
            drives=drives,
        )
    finally:
        context.close()
        server.start()


def rebuild_with_new_core(folder: Path) -> dict[str, Any]:
    """What ``clubs app build`` writes where only clubsuite's Python changed, made in place in ``folder``:
    ``core/clubsuite.zip`` other bytes (the same modules, another zip comment), ``sw.js`` and ``build.json`` made
    as the build makes them, and every file written again (a build rewrites them all: each has a new modification
    time). The new ``build.json``."""
    from clubsuite.app.build import service_worker

    core = folder / "core" / "clubsuite.zip"
    with zipfile.ZipFile(core, "a") as z:
        z.comment = b"app_speed: a new clubsuite"
    about: dict[str, Any] = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    sums = {p: h for p, h in about["files"].items() if p != "sw.js"}
    sums["core/clubsuite.zip"] = hashlib.sha256(core.read_bytes()).hexdigest()
    build_id = hashlib.sha256(json.dumps(sums, sort_keys=True).encode()).hexdigest()[:16]
    worker = service_worker(build_id, sums)
    (folder / "sw.js").write_bytes(worker)
    sums["sw.js"] = hashlib.sha256(worker).hexdigest()
    about.update(build=build_id, files=sums)
    (folder / "build.json").write_text(json.dumps(about, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    touch(folder, time.time())
    return about


def touch(folder: Path, when: float) -> None:
    """Every file of ``folder`` modified at ``when`` (what a server's Last-Modified says)."""
    for path in folder.rglob("*"):
        if path.is_file():
            os.utime(path, (when, when))


def update_check(browser: Browser, source: Path, work: Path, noticed: Noticed, age: float) -> dict[str, Any]:
    """An update that changes only clubsuite, as a browser takes it: a copy of the build whose files were written
    ``age`` seconds before a first visit; once the service worker controls the page, the build made again with a
    new core (:func:`rebuild_with_new_core`), the lobby reloaded online until it offers the new version. What the
    new service worker asked of the server, and whether the new build's cache holds the new build's bytes."""
    label = f"built {age / 3600:g} h before" if age else "built just before"
    folder = work / f"update-{int(age)}"
    shutil.copytree(source, folder)
    touch(folder, time.time() - age)
    old = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    with served(folder, work / f"update-{int(age)}.log") as server:
        context: BrowserContext = browser.new_context(service_workers="allow")
        try:
            page = context.new_page()
            noticed.watch(page, f"update, {label}")
            page.goto(server.base + "index.html", timeout=WAIT_MS)
            page.wait_for_selector("#app-status[data-ready]", timeout=WAIT_MS)
            page.evaluate(SW_READY, WAIT_MS)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT_MS)
            mark = server.mark()
            new = rebuild_with_new_core(folder)
            page.reload(timeout=WAIT_MS)
            page.wait_for_selector("#app-status[data-ready]", timeout=WAIT_MS)
            page.wait_for_selector("[data-action=new-version]", timeout=WAIT_MS)
            requests = server.since(mark)
            held = page.evaluate(CACHE_HASHES, {"name": CACHE_PREFIX + new["build"], "base": server.base})
        finally:
            context.close()
    files: dict[str, str] = new["files"]
    expected = {**files, "./": files["index.html"]}
    held = held or {}
    fetched = [("index.html" if r.path == "/" else r.path.lstrip("/")) for r in requests if r.status == 200]
    return {
        "label": label,
        "age_s": age,
        "builds": [old["build"], new["build"]],
        "requests": len(requests),
        "by_status": {str(s): sum(r.status == s for r in requests) for s in sorted({r.status for r in requests})},
        "fetched_200": fetched,
        "bytes_200": sum((folder / p).stat().st_size for p in fetched if (folder / p).is_file()),
        "new_cache_files": len(held),
        "new_cache_stale": sorted(p for p, h in held.items() if expected.get(p) != h),
        "new_cache_missing": sorted(set(files) - set(held) - {"sw.js"}),
        "new_core_cached": held.get("core/clubsuite.zip") == files["core/clubsuite.zip"],
    }


# -- figures ------------------------------------------------------------------------------------------------------
def nearest_rank(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def spread(values: list[float]) -> dict[str, float | int]:
    """Count, median, 95th percentile and max of ``values`` (none: only the count)."""
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "median": statistics.median(values),
        "p95": nearest_rank(values, 0.95),
        "max": max(values),
    }


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


def sizes(folder: Path, first_requests: list[Served]) -> dict[str, Any]:
    """The build's bytes: its files, gzip sizes by part, the update's set, the first visit's requests."""
    about = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    listed: dict[str, str] = about["files"]
    on_disk = {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}
    data = {path: p.read_bytes() for path, p in on_disk.items()}
    mismatched = [p for p, h in listed.items() if p not in data or hashlib.sha256(data[p]).hexdigest() != h]
    unlisted = sorted(set(data) - set(listed) - {"build.json"})

    def part(paths: list[str]) -> dict[str, int]:
        return {"files": len(paths), "bytes": sum(len(data[p]) for p in paths), "gzip": sum(gz(data[p]) for p in paths)}

    pyodide = sorted(p for p in data if p.startswith("pyodide/"))
    rest = sorted(p for p in data if not p.startswith("pyodide/") and p != "core/clubsuite.zip")
    fetched = [r for r in first_requests if r.status == 200]
    fetched_paths = [("index.html" if r.path.endswith("/") else r.path.lstrip("/")) for r in fetched]
    fetched_bytes = sum(len(data.get(p, b"")) for p in fetched_paths)
    counts: dict[str, int] = {}
    for p in fetched_paths:
        counts[p] = counts.get(p, 0) + 1
    return {
        "build": about.get("build"),
        "listed": {"files": len(listed), "bytes": sum(len(data.get(p, b"")) for p in listed)},
        "on_disk": part(sorted(data)),
        "mismatched_hashes": mismatched,
        "unlisted_files": unlisted,
        "gzip_level": GZIP_LEVEL,
        "pyodide": part(pyodide),
        "pyodide_files": {p: {"bytes": len(data[p]), "gzip": gz(data[p])} for p in pyodide},
        "core": part(["core/clubsuite.zip"]),
        "rest": part(rest),
        "update_only_clubsuite": {"set": list(UPDATE_SET), **part(list(UPDATE_SET))},
        "first_visit_requests": {
            "requests": len(first_requests),
            "by_status": {
                str(s): sum(r.status == s for r in first_requests) for s in sorted({r.status for r in first_requests})
            },
            "bytes_200": fetched_bytes,
            "fetched_twice_or_more": {p: c for p, c in sorted(counts.items()) if c > 1},
            "not_200": dict(sorted(Counter(f"{r.status} {r.path}" for r in first_requests if r.status != 200).items())),
        },
    }


def summary(runs: list[Run], folder: Path) -> dict[str, Any]:
    """Every figure of the runs: the times (median and min), the bot moves pooled, the sizes."""

    def times(pick: Callable[[Run], float | None]) -> dict[str, Any]:
        got = [x for x in (pick(r) for r in runs) if x is not None]
        return {"runs": got, "median": statistics.median(got) if got else None, "min": min(got) if got else None}

    bots: dict[str, Any] = {}
    for level, whole in LEVELS:
        rows = [d for r in runs for d in r.drives if d["level"] == level]
        pooled = [ms for d in rows for ms in d["bot"]]
        python = [ms for d in rows for ms in d["python"] if ms is not None]
        bots[level] = {
            "played": "whole matches" if whole else "one hand",
            "page_ms": spread(pooled),
            "python_ms": spread(python),
            "games": {
                g: {
                    "page_ms": spread([ms for d in rows if d["game"] == g for ms in d["bot"]]),
                    "python_ms": spread([ms for d in rows if d["game"] == g for ms in d["python"] if ms is not None]),
                    "acts": sum(d["acts"] for d in rows if d["game"] == g),
                    "hands": sum(d["hands"] for d in rows if d["game"] == g),
                    "over": [d["over"] for d in rows if d["game"] == g],
                    "seconds": [round(d["seconds"], 2) for d in rows if d["game"] == g],
                }
                for g in GAMES
            },
            "problems": [f"{d['game']}: {d['problem']}" for d in rows if d["problem"]],
            "table_errors": [f"{d['game']}: {e}" for d in rows for e in d["errors"]],
        }
    return {
        "times_s": {
            "first_visit_ready": times(lambda r: r.first_ready),
            "first_visit_dealt_hand": times(lambda r: r.first_dealt),
            "first_visit_worker_start_table": times(lambda r: r.first_worker_table),
            "cached_offline_ready": times(lambda r: r.cached_ready),
            "cached_offline_dealt_hand": times(lambda r: r.cached_dealt),
            "cached_offline_worker_start_table": times(lambda r: r.cached_worker_table),
        },
        "bot_moves": bots,
        "sizes": sizes(folder, runs[0].first_requests if runs else []),
    }


# -- the report ---------------------------------------------------------------------------------------------------
def mb(n: int) -> str:
    return f"{n / 1e6:7.2f} MB"


def show(result: dict[str, Any]) -> None:
    print(f"\nmachine: nproc {result['nproc']}, {result['chromium']}")
    print("(every timing depends on the machine and what else runs on it: this is a bench, not a test)")
    print(f"build: {result['build_said']}\n")

    runs = len(result["times_s"]["first_visit_ready"]["runs"])
    print(f"{'seconds (' + str(runs) + ' runs, fresh contexts)':44} {'median':>8} {'min':>8}")
    labels = {
        "first_visit_ready": "first visit: lobby ready",
        "first_visit_dealt_hand": "first visit: dealt hand (whist, normal)",
        "first_visit_worker_start_table": "  worker start in the table page",
        "cached_offline_ready": "from the cache, offline: lobby ready",
        "cached_offline_dealt_hand": "from the cache, offline: dealt hand",
        "cached_offline_worker_start_table": "  worker start in the table page",
    }
    for key, label in labels.items():
        t = result["times_s"][key]
        if t["median"] is None:
            print(f"{label:44} {'-':>8} {'-':>8}")
        else:
            print(f"{label:44} {t['median']:8.2f} {t['min']:8.2f}")

    print(
        f"\n{'bot moves, ms':24} {'moves':>6} {'median':>8} {'p95':>8} {'max':>8}"
        f"   python: {'median':>7} {'p95':>7} {'max':>7}"
    )
    for level, row in result["bot_moves"].items():
        page, python = row["page_ms"], row["python_ms"]
        label = f"{level} ({row['played']})"
        if not page["n"]:
            print(f"{label:24} {0:6d}")
            continue
        line = f"{label:24} {page['n']:6d} {page['median']:8.1f} {page['p95']:8.1f} {page['max']:8.1f}"
        if python["n"]:
            line += f"           {python['median']:7.1f} {python['p95']:7.1f} {python['max']:7.1f}"
        print(line)
        for game, g in row["games"].items():
            if g["page_ms"]["n"]:
                print(
                    f"  {game:22} {g['page_ms']['n']:6d} {g['page_ms']['median']:8.1f} {g['page_ms']['p95']:8.1f}"
                    f" {g['page_ms']['max']:8.1f}   (over: {sum(g['over'])}/{len(g['over'])}, hands {g['hands']})"
                )
        for p in row["problems"] + row["table_errors"]:
            print(f"  ! {p}")
    print("(page: performance.now() around ask, with the message passing; python: the worker's own ms)")

    s = result["sizes"]
    print(f"\ndownload sizes (gzip level {s['gzip_level']}){'':14} {'bytes':>10} {'gzip':>10}  files")
    for label, key in (
        ("every file of the build", "on_disk"),
        ("pyodide/*", "pyodide"),
        ("core/clubsuite.zip", "core"),
    ):
        print(f"{label:42} {mb(s[key]['bytes'])} {mb(s[key]['gzip'])}  {s[key]['files']}")
    for path, f in s["pyodide_files"].items():
        print(f"  {path:40} {mb(f['bytes'])} {mb(f['gzip'])}")
    print(f"{'the rest':42} {mb(s['rest']['bytes'])} {mb(s['rest']['gzip'])}  {s['rest']['files']}")
    u = s["update_only_clubsuite"]
    print(f"{'update changing only clubsuite':42} {mb(u['bytes'])} {mb(u['gzip'])}  ({', '.join(u['set'])})")
    print(f"build.json lists {s['listed']['files']} files, {s['listed']['bytes']:,} bytes (itself not included)")
    if s["mismatched_hashes"] or s["unlisted_files"]:
        print(f"  ! hashes that differ: {s['mismatched_hashes']}; files not listed: {s['unlisted_files']}")
    fv = s["first_visit_requests"]
    print(
        f"first visit (run 1) asked the server {fv['requests']} times {fv['by_status']}: {mb(fv['bytes_200'])} in 200s"
        f" (uncompressed: http.server does not compress)"
    )
    if fv["fetched_twice_or_more"]:
        print(f"  fetched more than once: {fv['fetched_twice_or_more']}")
    if fv["not_200"]:
        print(f"  other answers: {fv['not_200']}")
    for u in result["update_checks"]:
        print(
            f"update in the browser ({u['label']} the first visit): {u['requests']} requests {u['by_status']},"
            f" {mb(u['bytes_200'])} in 200s; the new build's cache: {u['new_cache_files']} files,"
            f" {len(u['new_cache_stale'])} with other bytes than the new build's,"
            f" {len(u['new_cache_missing'])} missing;"
            f" new core cached: {u['new_core_cached']}"
        )
        if u["new_cache_stale"]:
            more = " ..." if len(u["new_cache_stale"]) > 8 else ""
            print(f"  ! stale in the new cache: {u['new_cache_stale'][:8]}{more}")

    n = result["noticed"]
    print(
        f"\nbrowser: {len(n['console'])} console errors, {len(n['page'])} page errors,"
        f" {len(n['failed'])} failed requests"
    )
    for kind in ("console", "page", "failed"):
        for line in n[kind][:20]:
            print(f"  {kind}: {line}")
        if len(n[kind]) > 20:
            print(f"  {kind}: ... and {len(n[kind]) - 20} more")


def nproc() -> int:
    try:
        return int(subprocess.run(["nproc"], capture_output=True, text=True, timeout=10, check=True).stdout)
    except (OSError, ValueError, subprocess.SubprocessError):
        return len(os.sched_getaffinity(0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=None, help="write every figure as JSON here")
    parser.add_argument("--repeat", type=int, default=3, help="runs, each in a fresh browser context (default 3)")
    parser.add_argument("--no-update-check", action="store_true", help="skip the update checks (about 30 s)")
    args = parser.parse_args(argv)

    try:
        executable = chromium(True)
    except (Exception, pytest.skip.Exception, pytest.fail.Exception) as exc:
        sys.exit(f"no Chromium to run: {exc}")

    noticed = Noticed()
    runs: list[Run] = []
    updates: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="clubs-app-speed-") as temp:
        folder = Path(temp) / "app"
        print("building the app ...", flush=True)
        said = build_app(folder)
        with served(folder, Path(temp) / "http.log") as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=executable, args=LAUNCH_ARGS, headless=True)
            try:
                for n in range(1, args.repeat + 1):
                    print(f"run {n} of {args.repeat} ...", flush=True)
                    try:
                        runs.append(one_run(browser, server, noticed, n))
                    except PlaywrightError as exc:
                        noticed.page.append(f"[run {n}] the run stopped: {exc}".splitlines()[0])
                        print(f"  run {n} stopped: {exc}", file=sys.stderr)
                for age in () if args.no_update_check else UPDATE_AGES:
                    print(f"update check, files written {age / 3600:g} h before the first visit ...", flush=True)
                    try:
                        updates.append(update_check(browser, folder, Path(temp), noticed, age))
                    except PlaywrightError as exc:
                        noticed.page.append(f"[update check] stopped: {exc}".splitlines()[0])
                        print(f"  the update check stopped: {exc}", file=sys.stderr)
                version = browser.version
            finally:
                browser.close()
        if not runs:
            sys.exit("no run finished: see the errors above")
        result: dict[str, Any] = {
            "nproc": nproc(),
            "chromium": f"{executable} {version}",
            "build_said": said,
            **summary(runs, folder),
            "update_checks": updates,
            "noticed": {"console": noticed.console, "page": noticed.page, "failed": noticed.failed},
        }
    show(result)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
