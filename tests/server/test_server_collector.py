"""The cycle collector's policy of a serving process (``collector``): what lives at start is set aside, full
collections are spaced out, and cycles are still collected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from serverkit import ProcessServer

import loopback
from clubsuite.server.http.collector import FULL_AFTER
from clubsuite.server.limits import HASH_MEMORY_LEAST
from pgcluster import free_port


def test_settling_sets_aside_what_lives_and_spaces_full_collections_yet_cycles_are_still_freed() -> None:
    """In a fresh interpreter (the policy is the process's): after ``settle`` the modules loaded so far are frozen,
    the third threshold is ``FULL_AFTER``, and a cycle made afterwards is found by a collection."""
    script = """
import gc
from clubsuite.server.http import app  # the server's code, loaded as clubs serve loads it
from clubsuite.server.http.collector import settle
settle()
frozen = gc.get_freeze_count()
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
del a, b
found = gc.collect()
print(frozen, gc.get_threshold()[2], found)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, third, found = map(int, done.stdout.split())
    assert frozen > 10_000  # the code of the server and its libraries
    assert third == FULL_AFTER
    assert found >= 2  # the two objects of the cycle (and their attribute dicts)


def test_clubs_serve_applies_the_policy_once_up_and_shows_it_in_its_metrics(tmp_path: Path) -> None:
    """The real ``clubs serve``: its ``/metrics`` (at its operators' listener) count the objects it froze once up,
    and its collections by generation."""
    metrics_port = free_port()
    # Argon2id at its cheapest (the hash every start makes, for unknown names, is no part of what is checked here)
    cheap = ("--hash-memory", str(HASH_MEMORY_LEAST), "--hash-passes", "1")
    with ProcessServer(tmp_path, extra=("--metrics-port", str(metrics_port), *cheap)):
        text = loopback.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).text
    figures = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines() if line and line[0] != "#"}
    assert figures["clubs_gc_frozen_objects"] > 10_000
    assert 'python_gc_collections_total{generation="2"}' in figures


def test_the_collector_benchmark_reports_the_full_collections_and_the_objects_tracked_under_each_policy() -> None:
    """``bench/serve_collector.py`` runs its load against a server with the policy it is given and reads the
    server's own report: frozen objects as served, none with Python's defaults. The two runs (each its own server
    over its own temporary data directory) go side by side."""
    bench = Path(__file__).parents[2] / "bench" / "serve_collector.py"
    runs = {
        policy: subprocess.Popen(
            [sys.executable, str(bench), "--policy", policy, "--tables", "3", "--seconds", "2", "--clients", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for policy in ("served", "python")
    }
    try:
        for (policy, proc), frozen in zip(runs.items(), (True, False), strict=True):
            stdout, stderr = proc.communicate(timeout=300)
            assert proc.returncode == 0, stderr[-2000:]
            assert f"{policy}     3 tables:" in stdout and "full collections:" in stdout
            tracked = next(row for row in stdout.splitlines() if row.startswith("objects tracked at the end"))
            assert ("besides 0 frozen" not in tracked) is frozen, tracked
    finally:
        for proc in runs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)
