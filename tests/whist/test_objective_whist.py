"""The whist objectives a search reads (CW-5: +target and -target both win): the formula and the fitted table shipped
with the package (``bench/fit_objective.py``), read by the distance to the nearer target."""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import pytest

from clubsuite.bots import make_bot
from clubsuite.bots.objective import objective_for
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.whist.objective import FITTED_FILE, fitted_log_weight, fitted_share, share


def _shipped() -> dict[str, object]:
    data: dict[str, object] = json.loads(
        resources.files("clubsuite.games.whist").joinpath(FITTED_FILE).read_text(encoding="utf-8")
    )
    return data


def test_the_shipped_fit_predicts_held_out_winners_better_than_the_formula_and_even_chances() -> None:
    held = _shipped()["held_out"]
    assert isinstance(held, dict) and held["matches"] >= 500
    assert held["cross_entropy_fitted"] < held["cross_entropy_formula"] < held["cross_entropy_even"]


def test_the_fitted_weight_grows_towards_either_target_cw5() -> None:
    """Nearer a target is better on both sides: the shipped table rises from 0 towards +10 and towards -10."""
    up = [fitted_log_weight(t, 11) for t in range(11)]
    down = [fitted_log_weight(-t, 11) for t in range(11)]
    assert up == sorted(up) and down == sorted(down)
    table = _shipped()["log_weights"]
    assert isinstance(table, dict)
    assert all(fitted_log_weight(t, 11) == pytest.approx(table[str(t)]) for t in range(-10, 11))


def test_another_target_reads_the_table_by_distance_and_continues_its_last_step_past_it() -> None:
    assert fitted_log_weight(7, 9) == fitted_log_weight(9, 11)  # two short of +target either way
    assert fitted_log_weight(-8, 9) == fitted_log_weight(-10, 11)
    step = fitted_log_weight(0, 11) - fitted_log_weight(1, 11)  # from distance 10 to 11
    assert fitted_log_weight(0, 13) == pytest.approx(fitted_log_weight(0, 11) + 2 * step)


def test_fitted_shares_are_a_split_of_the_chances_and_favour_the_seat_nearest_a_target() -> None:
    totals = [9, -3, 1]
    shares = [fitted_share(totals, s, 11) for s in range(3)]
    assert math.isclose(sum(shares), 1.0) and max(shares) == shares[0]
    assert fitted_share([0, 0, 0], 1, 11) == pytest.approx(1 / 3)
    # The fit makes a near target count for more than the formula's 0.75 per point.
    assert fitted_share(totals, 0, 11) > share(totals, 0, 11)


def test_a_search_reads_the_fitted_objective_and_a_game_without_one_is_refused_when_the_bot_is_made() -> None:
    assert objective_for("whist", "fitted") is not objective_for("whist")
    bot = make_bot("pimc(samples=2,objective=fitted)", "whist")
    from clubsuite.engine import resolve

    info, options = resolve("whist")
    match = info.new_match(options)
    match.deal(deal=info.deal_from_seed(5, match.next_dealer))
    while match.to_act is not None and len(match.legal_actions()) == 1:
        match.apply(match.legal_actions()[0])
    assert match.to_act is not None
    assert bot.choose(match.view(match.to_act), match.legal_actions(), random.Random(1)) in match.legal_actions()
    with pytest.raises(InvalidOptionsError, match="no fitted objective"):
        make_bot("pimc(objective=fitted)", "free")
    with pytest.raises(InvalidOptionsError, match="objective='learned'"):
        make_bot("pimc(objective=learned)", "whist")
