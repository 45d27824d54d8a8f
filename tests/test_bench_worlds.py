"""``bench/worlds.py``: the study of what a search's worlds buy. Its searches are simulated on saved tables, so they
must choose exactly as the bot's own rules do (:class:`clubsuite.bots.searching.Compared`), and a collection is work,
the same on every run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench_helpers import load, run_json
from clubsuite.bots.searching import Compared

_WORLDS = load("worlds", register=True)
"""Loaded once and registered by name: its dataclasses look their module up by name."""


def _script() -> Any:
    return _WORLDS


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, list[list[float]]], int]:
    """A table of values (worlds by candidates, per measure) with ties and repeats, and a favourite."""
    worlds = draw(st.integers(2, 10))
    candidates = draw(st.integers(2, 5))
    measures = draw(st.sampled_from([("rollout",), ("tricks", "fewest")]))
    value = st.sampled_from([0.0, 0.25, 0.3, 0.5, 0.75, 1.0])
    rows = {m: [[draw(value) for _ in range(candidates)] for _ in range(worlds)] for m in measures}
    return rows, draw(st.integers(0, candidates - 1))


def _decision(module: Any, rows: dict[str, list[list[float]]], favourite: int) -> Any:
    pool = {m: np.array(r, dtype=np.float64) for m, r in rows.items()}
    width = len(next(iter(rows.values()))[0])
    return module.Decision(pool, np.zeros(width), favourite, False, "play", 0)


@settings(max_examples=300, deadline=None)
@given(tables(), st.sampled_from([0.0, 1.0, 2.0]))
def test_the_studied_choice_is_the_choice_the_bot_makes_from_the_same_worlds(
    table: tuple[dict[str, list[list[float]]], int], caution: float
) -> None:
    module = _script()
    rows, favourite = table
    d = _decision(module, rows, favourite)
    width = d.candidates
    seen = np.arange(d.worlds)
    expected = Compared(list(range(width)), favourite, rows).decision(caution)
    assert module.choose(d, seen, list(range(width)), caution) == expected


@settings(max_examples=200, deadline=None)
@given(tables(), st.integers(2, 4))
def test_the_studied_pruning_drops_what_the_bot_drops_and_costs_what_it_values(
    table: tuple[dict[str, list[list[float]]], int], least: int
) -> None:
    """``prune N`` in the study: the same candidates left at every world as ``pimc(prune=200)`` keeps (its
    :meth:`Compared.outclassed`), the same choice at the end, and a cost of one play-out per candidate still valued
    in each world."""
    module = _script()
    rows, favourite = table
    d = _decision(module, rows, favourite)
    n = d.worlds
    alive = list(range(d.candidates))
    cost = 0
    for k in range(1, n + 1):
        cost += len(alive)
        if least <= k < n:
            found = Compared(
                alive, alive.index(favourite), {m: [[r[j] for j in alive] for r in rs[:k]] for m, rs in rows.items()}
            )
            gone = {alive[j] for j in found.outclassed(2.0)}
            alive = [j for j in alive if j not in gone]
    final = Compared(
        alive, alive.index(favourite), {m: [[r[j] for j in alive] for r in rs] for m, rs in rows.items()}
    ).decision(1.0)
    policy = module.Policy("prune", n, prune=2.0, least=least)
    assert module.search(d, np.arange(n), policy) == (final, cost)


def test_a_collection_is_work_and_resumes_and_its_judgement_adds_up(tmp_path: Path) -> None:
    """Collected again with the same settings, nothing is searched again and the file stays as it was; judged,
    ``expert`` is the unit of cost and of the paired differences, ``hard`` costs a quarter of it, no choice loses
    less than nothing, and every saved decision is counted."""
    module = _script()
    save = tmp_path / "worlds.jsonl"
    args = ["whist", "--hands", "1", "--every", "8", "--worlds", "64", "--save", str(save)]
    assert module.main(args) == 0
    first = save.read_text()
    assert module.main(args) == 0
    assert save.read_text() == first
    saved = [json.loads(line) for line in first.splitlines()]
    assert len(saved) == 1
    decisions = saved[0]["deal"]["decisions"]
    assert decisions and all(len(next(iter(d["rows"].values()))) == 64 for d in decisions)
    result = run_json(module, ["--judge", str(save), "--reps", "2", "--json"])
    assert result["decisions"] == len(decisions)
    policies = result["policies"]
    assert policies["uniform 32 (expert)"]["cost"] == 1.0
    assert policies["uniform 32 (expert)"]["versus_expert"] == 0.0
    assert policies["uniform 8 (hard)"]["cost"] == pytest.approx(0.25)
    assert "uniform 64" not in policies  # a pool of 32 worlds cannot hold it
    assert policies["prune 32"]["cost"] <= 1.0
    assert all(p["loss"] >= 0 for p in policies.values())


def test_a_file_that_is_not_a_collection_is_refused_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(SystemExit):
        _script().main(["--judge", str(bad)])
    assert "bad.jsonl" in capsys.readouterr().err
