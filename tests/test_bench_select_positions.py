"""``bench/select_positions.py``: the written rule that turns a confirmed mistakes run into regression positions (a
clear gap, at least one bot that plays the better action with every seed tried), applied to the committed runs and to
made-up ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bench_helpers import load

RUNS = Path(__file__).resolve().parent.parent / "bench" / "runs"
POSITIONS = Path(__file__).resolve().parent / "data" / "positions"


def _script() -> Any:
    return load("select_positions")


@pytest.mark.parametrize("game", ["whist", "northstar"])
def test_the_committed_positions_of_a_later_run_are_exactly_what_the_rule_selects(game: str) -> None:
    """The positions of the seed-2 runs in the game's file are the ones the rule picks from the committed confirmed
    run, labelled with that run's seed, and nothing more."""
    module = _script()
    confirmed = json.loads((RUNS / f"mistakes-{game}-seed2-confirm.json").read_text())
    held = json.loads((POSITIONS / f"{game}.json").read_text())
    picked = module.selected(confirmed, 2, int(held["seed"]))
    from_run = [p for p in held["positions"] if p.get("seed") == 2]
    assert picked and sorted(picked, key=lambda p: p["gap"]) == sorted(from_run, key=lambda p: p["gap"])


def _confirmed_file(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A confirmed whist run of three made-up positions: one clear with a bot that finds it, one clear that no bot
    finds every time, one within four standard errors."""
    real = json.loads((RUNS / "mistakes-whist-seed2-confirm.json").read_text())
    base = real["positions"][0]
    clear = {**copy.deepcopy(base), "gap": 0.05, "error": 0.005, "picks": {"hard": [base["better"]] * 3}}
    missed = {**copy.deepcopy(clear), "actions": clear["actions"] + 100}
    missed["picks"] = {"hard": [base["better"], base["worse"], base["better"]]}
    noisy = {**copy.deepcopy(clear), "actions": clear["actions"] + 200, "gap": 0.03, "error": 0.008}
    confirmed = {**{k: v for k, v in real.items() if k != "positions"}, "positions": [noisy, missed, clear]}
    confirmed["run_seed"] = 9
    path = tmp_path / "confirmed.json"
    path.write_text(json.dumps(confirmed))
    return path, clear


def test_a_clear_gap_that_some_bot_finds_every_time_is_added_once_with_its_run_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _script()
    confirmed, clear = _confirmed_file(tmp_path)
    into = tmp_path / "whist.json"
    held = json.loads((POSITIONS / "whist.json").read_text())
    into.write_text(json.dumps(held))
    assert module.main([str(confirmed), "--into", str(into), "--dry-run"]) == 0
    assert "1 new positions of 3" in capsys.readouterr().out
    assert json.loads(into.read_text()) == held  # a dry run writes nothing
    assert module.main([str(confirmed), "--into", str(into)]) == 0
    after = json.loads(into.read_text())
    assert after["positions"][:-1] == held["positions"]
    added = after["positions"][-1]
    assert (added["seed"], added["actions"], added["bots"]) == (9, clear["actions"], ["hard"])
    capsys.readouterr()
    assert module.main([str(confirmed), "--into", str(into)]) == 0  # the same run again adds nothing
    assert "0 new positions" in capsys.readouterr().out
    assert json.loads(into.read_text()) == after


def test_a_run_without_its_seed_or_a_file_of_another_game_is_refused_by_name(tmp_path: Path) -> None:
    module = _script()
    confirmed, _ = _confirmed_file(tmp_path)
    data = json.loads(confirmed.read_text())
    del data["run_seed"]
    confirmed.write_text(json.dumps(data))
    with pytest.raises(SystemExit, match="--run-seed"):
        module.main([str(confirmed), "--dry-run"])
    with pytest.raises(SystemExit, match="not a positions file of whist"):
        module.main([str(confirmed), "--run-seed", "2", "--into", str(POSITIONS / "free.json"), "--dry-run"])
    confirmed.write_text("[]")
    with pytest.raises(SystemExit, match=r"confirmed\.json"):
        module.main([str(confirmed)])
