"""``bench/check_spread.py``: a race objective measured against who won, with its spread scaled."""

from __future__ import annotations

from typing import Any

import pytest

from bench_helpers import load


def _script() -> Any:
    return load("check_spread")


def test_a_small_check_measures_every_factor_and_names_its_command() -> None:
    result = _script().check("free", 3, 4)
    assert result["command"] == "python bench/check_spread.py free --matches 3 --seed 4"
    assert result["spread"] == {"name": "SPREAD", "value": 29.0}
    measured = result["cross_entropy_by_factor"]
    assert sorted(map(float, measured)) == sorted(_script().FACTORS)
    assert min(measured.values()) == measured[str(result["best_factor"])]
    assert result["gain_at_best"] >= 0 and result["hand_starts"] >= 3


def test_the_scaled_spread_is_put_back_after_the_check() -> None:
    from clubsuite.games.free import objective

    _script().check("free", 1, 4)
    assert objective.SPREAD == 29.0


def test_the_measure_reads_the_objective_with_the_spread_as_scaled() -> None:
    """A sixteen-fold change of the spread changes what the objective predicts, so the measure moves with it."""
    module = _script()
    rows = module.hand_starts("free", 2, 4)
    from unittest import mock

    from clubsuite.games.free import objective

    values = []
    for factor in (0.25, 4.0):
        with mock.patch.object(objective, "SPREAD", 29.0 * factor):
            values.append(module.cross_entropy("free", rows))
    assert values[0] != values[1]


def test_a_game_that_is_not_a_race_is_refused() -> None:
    with pytest.raises(SystemExit):
        _script().main(["whist"])


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(SystemExit):
        _script().main(["chess"])
