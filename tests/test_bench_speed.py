"""``bench/bench.py``: the bulk path's figures, compiled and pure Python, side by side with their ratio (the rates
are not asserted: they depend on the machine)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from bench_helpers import load, run_json
from clubsuite.games.whist.bulk import CORE
from clubsuite.native import compiled


def _bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``bench/bench.py`` loaded (registered while the test runs: its dataclasses look their module up), with the
    pinning to one core turned off so that the test process keeps its cores."""
    monkeypatch.setitem(sys.modules, "bench", None)  # put back (removed) when the test ends
    module = load("bench", register=True)
    monkeypatch.setattr(module, "pin_to_one_core", lambda: "not pinned (a test)")
    return module


@pytest.mark.long
def test_the_bulk_path_is_measured_beside_its_pure_python_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _bench(monkeypatch)
    only = ["--only", "clubsuite-whist-bulk", "--only", "clubsuite-whist-bulk-python"]
    report = run_json(module, [*only, "--seconds", "0.05", "--repeat", "1", "--json"])
    python = report["figures"]["clubsuite-whist-bulk-python"]
    assert python["hands_per_second"] > 0 and python["actions"] == 42 * python["units"]
    if compiled(CORE) is None:
        assert "clubsuite-whist-bulk" in report["skipped"]
        return
    bulk = report["figures"]["clubsuite-whist-bulk"]
    assert bulk["units"] >= 1000  # whole batches of matches: at least one batch of a thousand matches' hands
    ratio = next(r for r in report["ratios"] if r["to"] == "clubsuite-whist-bulk-python")
    assert ratio["hands_per_hand"] == pytest.approx(bulk["hands_per_second"] / python["hands_per_second"])


def test_the_bulk_path_is_skipped_with_a_reason_when_the_kernels_are_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = _bench(monkeypatch)
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    report = run_json(module, ["--only", "clubsuite-whist-bulk", "--seconds", "0.05", "--repeat", "1", "--json"])
    assert "CLUBS_PURE_PYTHON" in report["skipped"]["clubsuite-whist-bulk"]
    assert report["figures"] == {}


def test_the_vector_environment_is_measured_beside_its_engine_path(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _bench(monkeypatch)
    only = ["--only", "clubsuite-whist-vector", "--only", "clubsuite-whist-vector-python"]
    report = run_json(module, [*only, "--seconds", "0.05", "--repeat", "1", "--json"])
    python = report["figures"]["clubsuite-whist-vector-python"]
    assert python["actions"] >= 16 and python["actions_per_second"] > 0  # at least one step of its 16 tables
    if compiled(CORE) is None:
        assert "clubsuite-whist-vector" in report["skipped"]
        return
    vector = report["figures"]["clubsuite-whist-vector"]
    assert vector["actions"] >= 256
    ratio = next(r for r in report["ratios"] if r["to"] == "clubsuite-whist-vector-python")
    assert ratio["actions_per_action"] == pytest.approx(vector["actions_per_second"] / python["actions_per_second"])
