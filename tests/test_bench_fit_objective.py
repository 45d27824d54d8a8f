"""``bench/fit_objective.py``: a tiny training run of the fitted objective, written in the form the package reads."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench_helpers import load


def _script() -> Any:
    return load("fit_objective")


@pytest.mark.long
def test_a_tiny_fit_writes_a_table_the_package_reads_with_its_command_seed_and_held_out_measure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "fitted.json"
    assert _script().main(["whist", "--matches", "10", "--seed", "3", "--out", str(out)]) == 0
    fitted = json.loads(out.read_text())
    assert json.loads(capsys.readouterr().out) == fitted
    assert fitted["command"] == "python bench/fit_objective.py whist --matches 10 --seed 3"
    assert fitted["target"] == 11 and sorted(map(int, fitted["log_weights"])) == list(range(-10, 11))
    assert fitted["log_weights"]["0"] == 0.0 and fitted["held_out"]["matches"] == 2
    assert fitted["hand_starts"] >= 10


@pytest.mark.long
def test_the_fit_recovers_the_weights_that_made_the_winners() -> None:
    """Winners drawn from known log-weights: the fitted table finds them again (up to the pinned middle).

    The known table is a straight line, which the fit's smoothing penalty (on second differences) leaves alone.
    20,000 winners are drawn, 160 for each of the 125 ways three seats can fall in the table; the fit takes each
    way once with its 160 draws as win shares (the form it takes a shared win in). Its loss and gradient are a mean
    over rows, so this is the fit of the 20,000 rows one by one, number for number, at a 160th of the CPU.
    """
    module = _script()
    rng = np.random.default_rng(1)
    truth = np.array([0.0, -0.5, -1.0, -1.5, -2.0])  # a 5-entry table, middle pinned at 0 after the fit
    index = np.array(list(itertools.product(range(5), repeat=3)))
    shares = module._shares(truth, index)
    draws = 160
    won = np.array([np.bincount(rng.choice(3, size=draws, p=p), minlength=3) for p in shares]) / draws
    fitted = module.fit_table(index, won, 5)
    assert np.allclose(fitted, truth - truth[2], atol=0.15)
    assert module.cross_entropy(module._shares(fitted, index), won) <= module.cross_entropy(shares, won) + 1e-3


def test_too_few_matches_to_hold_any_out_is_refused() -> None:
    with pytest.raises(SystemExit):
        _script().main(["whist", "--matches", "4"])
