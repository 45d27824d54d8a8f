"""``bench/cost.py``: every bot asked at the very same decisions, its CPU time and worlds a decision added up; the
worlds are work, so they are the same on every run (the CPU time is not asserted: it depends on the machine)."""

from __future__ import annotations

from typing import Any

import pytest

from bench_helpers import load, run_json


def _script() -> Any:
    return load("cost")


def _run(module: Any, args: list[str]) -> dict[str, Any]:
    return run_json(module, args)


@pytest.mark.long
def test_every_bot_is_asked_at_the_same_decisions_and_its_worlds_counted() -> None:
    module = _script()
    bots = ["heuristic", "pimc(samples=2,width=3)", "pimc(samples=4,width=3,settle=200,least=2)"]
    first = _run(module, ["whist", *bots, "--hands", "1", "--json"])
    again = _run(module, ["whist", bots[2], "--hands", "1", "--json"])
    assert first["decisions"] == again["decisions"] > 10
    figures = first["bots"]
    assert figures["heuristic"]["searched_per_decision"] is None
    assert figures[bots[1]]["searched_per_decision"] == 2.0
    settling = figures[bots[2]]["searched_per_decision"]
    assert 2.0 <= settling <= 4.0
    assert settling == again["bots"][bots[2]]["searched_per_decision"]  # work, not time: the same on every run
    assert all(f["cpu_ms_per_decision"] > 0 for f in figures.values())


def test_a_bad_bot_is_refused_before_anything_is_played() -> None:
    with pytest.raises(SystemExit):
        _script().main(["whist", "pimc(samples=0)"])


def test_a_reference_judges_every_bot_at_the_same_decisions() -> None:
    """``--reference``: each bot's loss is the reference's best mean less the mean of its choice, never negative;
    a bot that always chooses as the first bot does differs from it by exactly nothing, decision by decision."""
    bots = ["pimc(samples=2,width=3)", "pimc(samples=2,width=3,caution=0)", "random"]
    result = _run(_script(), ["whist", *bots, "--hands", "1", "--reference", "pimc(samples=4,width=3)", "--json"])
    figures = result["bots"]
    assert result["reference"] == "pimc(samples=4,width=3)"
    assert all(f["loss"] >= 0 for f in figures.values())
    assert figures[bots[0]]["loss_vs_first"] == {"mean": 0.0, "se": 0.0}
    assert figures["random"]["loss"] > figures[bots[0]]["loss"]


def test_a_reference_that_is_not_a_pimc_bot_is_refused() -> None:
    with pytest.raises(SystemExit):
        _script().main(["whist", "heuristic", "--reference", "heuristic"])


def test_agreement_counts_the_decisions_where_a_bot_chose_as_the_first_did() -> None:
    """The first bot agrees with itself everywhere; the same search with the same worlds agrees everywhere too, and a
    random bot does not."""
    bots = ["pimc(samples=2,width=3)", "pimc(samples=2,width=3,ms=9000)", "random"]
    figures = _run(_script(), ["whist", *bots, "--hands", "1", "--json"])["bots"]
    assert figures[bots[0]]["agrees_with_first"] == 1.0
    assert figures[bots[1]]["agrees_with_first"] == 1.0
    assert figures["random"]["agrees_with_first"] < 1.0


def test_a_phase_asks_only_its_decisions_and_the_opening_budget_applies_there() -> None:
    """``--phase exchange`` asks only whist's exchange decisions (CW-4: at most one a seat, so at most three a hand),
    where ``opening`` sets the worlds searched."""
    bots = ["pimc(samples=2,width=3)", "pimc(samples=2,opening=3,width=3)"]
    result = _run(_script(), ["whist", *bots, "--hands", "2", "--phase", "exchange", "--json"])
    assert result["phases"] == ["exchange"]
    assert 1 <= result["decisions"] <= 6
    assert result["bots"][bots[0]]["searched_per_decision"] == 2.0
    assert result["bots"][bots[1]]["searched_per_decision"] == 3.0


def test_a_phase_with_no_decision_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script().main(["whist", "heuristic", "--hands", "1", "--phase", "auction"]) == 2
    assert "no decision with a choice in auction of whist" in capsys.readouterr().err
