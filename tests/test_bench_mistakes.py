"""``bench/mistakes.py``, the finder of decisions where a level and a stronger reference disagree beyond noise: every
flagged position is read back from its record to the very decision, and the paired gap it reports is the one that
``Compared.gap`` computes world by world."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from bench_helpers import load, run_json
from clubsuite.analysis.positions import position_at
from clubsuite.bots.searching import Compared


def _script() -> Any:
    return load("mistakes")


def test_the_paired_gap_is_the_mean_and_standard_error_of_the_world_by_world_differences() -> None:
    compared = Compared(["a", "b"], 1, {"m": [[0.5, 0.4], [0.6, 0.45], [0.55, 0.5]]})
    best, measure, gap, error = compared.gap(1)
    assert (best, measure) == (0, "m")
    assert gap == pytest.approx(0.1)
    assert error == pytest.approx(0.05 / math.sqrt(3))  # differences 0.10, 0.15, 0.05: spread 0.05
    assert compared.gap(0)[2] == pytest.approx(0.0)  # the best against itself


@pytest.mark.long
@pytest.mark.parametrize("game", ["whist", "partnership"])
def test_every_flagged_decision_is_read_back_from_its_record_with_a_gap_beyond_noise(game: str) -> None:
    """The random bot judged by a small reference: it makes clear mistakes, each flagged with a record that leads to
    the very position (the seat to act, the random bot's action and the better one both legal there)."""
    result = _script().run(game, "random", "pimc(samples=8,caution=0)", 1, 3, 2.0, 0.01, 1)
    positions = result["positions"]
    assert positions and result["flagged"] == len(positions) <= result["decisions_judged"]
    assert [p["gap"] for p in positions] == sorted((p["gap"] for p in positions), reverse=True)
    for p in positions:
        match, _ = position_at(p["record"], 0, p["actions"])
        assert match.to_act == p["seat"]
        legal = match.legal_actions()
        assert match.parse_action(p["level_action"]) in legal and match.parse_action(p["best_action"]) in legal
        assert p["level_action"] != p["best_action"]
        assert p["gap"] >= 0.01 and p["gap"] > 2.0 * p["error"]


def test_a_flagged_position_is_measured_again_on_fresh_worlds_with_what_each_bot_plays_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--confirm FILE``: every position of an earlier result measured again for its two actions alone, on worlds
    drawn afresh, with what each bot of ``--picks`` plays there for each random seed; a file that is not a result is
    refused with its name."""
    import json

    module = _script()
    earlier = tmp_path / "found.json"
    assert (
        module.main(
            [
                "whist",
                "--level",
                "random",
                "--reference",
                "pimc(samples=8,caution=0)",
                "--hands",
                "1",
                "--seed",
                "3",
                "--out",
                str(earlier),
                "--json",
            ]
        )
        == 0
    )
    capsys.readouterr()
    found = json.loads(earlier.read_text())["positions"]
    assert found
    out = tmp_path / "again.json"
    args = ["whist", "--confirm", str(earlier), "--top", "2", "--reference", "pimc(samples=6,caution=0)"]
    assert module.main([*args, "--picks", "heuristic,random", "--tries", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    written = json.loads(out.read_text())
    assert written["run_seed"] == 3  # the earlier run's seed, which bench/select_positions.py labels positions with
    again = written["positions"]
    assert len(again) == min(2, len(found)) and "measured again" in printed
    for before, after in zip(found, again, strict=False):
        assert (after["worse"], after["better"]) == (before["level_action"], before["best_action"])
        assert after["worlds"] == 6 and after["error"] >= 0
        assert set(after["picks"]) == {"heuristic", "random"} and all(len(m) == 2 for m in after["picks"].values())
        match, _ = position_at(after["record"], 0, after["actions"])
        assert all(match.parse_action(m) in match.legal_actions() for m in after["picks"]["random"])
    with pytest.raises(SystemExit, match="not partnership"):
        module.main(["partnership", "--confirm", str(earlier)])
    with pytest.raises(SystemExit, match="--picks"):
        module.main([*args, "--picks", "pimc(samples=0)"])
    earlier.write_text("{}")
    with pytest.raises(SystemExit, match=r"found\.json"):
        module.main(args)


def test_every_nth_decision_is_judged_turning_with_the_hand() -> None:
    """``--every 3``: about a third of the decisions are judged; the level plays the same hand either way, and a
    decision judged is judged alike (what ``--every 3`` flags, ``--every 1`` flags too)."""
    module = _script()
    every = module.play_hand("whist", "random", "pimc(samples=2,caution=0)", 3, 1, 2.0, 0.01, 3)
    each = module.play_hand("whist", "random", "pimc(samples=2,caution=0)", 3, 1, 2.0, 0.01, 1)
    assert each["judged"] // 3 <= every["judged"] <= each["judged"] // 3 + 1
    assert {f["actions"] for f in every["flagged"]} <= {f["actions"] for f in each["flagged"]}
    assert module.play_hand("whist", "random", "pimc(samples=2,caution=0)", 3, 2, 2.0, 0.01, 3)["judged"] > 0


def test_a_long_run_saved_hand_by_hand_resumes_with_the_result_of_one_run(tmp_path: Path) -> None:
    """``--save FILE``: each judged hand is appended as it finishes; a run stopped after some hands goes on from the
    file and judges only the hands missing, with the very result of a run in one go; a hand judged with other
    settings does not count, and a file that is not a saved run is refused with its name."""

    module = _script()
    save = tmp_path / "hands.jsonl"
    args = ["whist", "--level", "random", "--reference", "pimc(samples=2,caution=0)", "--seed", "3", "--json"]
    first = run_json(module, [*args, "--hands", "1", "--save", str(save)])
    assert first["hands_saved_before"] == 0 and len(save.read_text().splitlines()) == 1
    resumed = run_json(module, [*args, "--hands", "2", "--save", str(save)])
    assert resumed["hands_saved_before"] == 1 and len(save.read_text().splitlines()) == 2
    whole = run_json(module, [*args, "--hands", "2"])
    assert resumed["positions"] == whole["positions"] and resumed["decisions_judged"] == whole["decisions_judged"]
    assert resumed["commits"]
    other = run_json(module, [*args, "--hands", "1", "--every", "2", "--save", str(save)])
    assert other["hands_saved_before"] == 0 and len(save.read_text().splitlines()) == 3  # other settings: judged
    save.write_text("not json\n")
    with pytest.raises(SystemExit):
        module.main([*args, "--hands", "1", "--save", str(save)])
