"""``clubs calibrate`` and the calibrated bot ratings: the command on a tiny run, the fit on finishing orders made up
to show an answer, the refusals, the shipped file, and its reading of a match through ``clubsuite.ratings`` (the one
module of ratings, the server's too)."""

from __future__ import annotations

import functools
import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite import ratings
from clubsuite.bots.calibrated import all_pools, calibrated, provenance
from clubsuite.cli import calibrate as calibrate_cli
from clubsuite.engine import games, resolve
from clubsuite.sim import calibration
from clubsuite.sim.calibration import Placing, finishing_ranks, fit_levels, plan, rate_seats
from clubsuite.sim.stats import MatchOutcome

LEVELS = ("easy", "normal", "hard", "expert")


# -- the command ------------------------------------------------------------------------------------------------------
@pytest.mark.long
def test_a_tiny_calibration_writes_json_with_intervals_around_each_rating_and_a_figure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole command on 12 matches. Its fit is made smaller than the command's (4 passes and 20 bootstrap draws
    for 40 and 200, as the fit's own tests below take): what is checked here is what the command writes, and the
    full fit, a hundred times the work, is most of the command's CPU even on 12 matches. The JSON says the fit it
    got."""
    smaller = functools.partial(calibration.calibrate, passes=4, resamples=20)
    monkeypatch.setattr(calibrate_cli, "run_calibration", smaller)
    out, figure = tmp_path / "run.json", tmp_path / "run.png"
    args = ["calibrate", "whist", "--levels", "normal,random", "--matches", "12", "--seed", "3"]
    outcome = clubs_in_process([*args, "--out", str(out), "--plot", str(figure)])
    assert outcome.status == 0, outcome.stderr
    assert "cycle 2 of 2 played" in outcome.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["pool"] == "whist" and data["spec"] == "whist" and data["seed"] == 3
    assert data["matches"] == 12 and data["cycles"] == 2  # two levels at three seats: cycles of 2 line-ups x 3 turns
    assert data["command"] == "clubs calibrate whist --levels normal,random --matches 12 --seed 3"
    assert data["passes"] == 4 and data["resamples"] == 20
    assert set(data["levels"]) == {"normal", "random"}
    for name, level in data["levels"].items():
        assert math.isfinite(level["mu"]) and level["sigma"] > 0, name
        assert level["low"] <= level["shown"] <= level["high"], name
        assert level["shown"] == ratings.shown(ratings.Skill(level["mu"], level["sigma"]))[0]
    assert data["levels"]["normal"]["mu"] == 25.0 and data["levels"]["normal"]["shown"] == 1500  # the anchor
    assert figure.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert "normal" in outcome.stdout and "1500" in outcome.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--levels", "easy,hard"], "--levels"),  # no anchor
        (["--levels", "normal"], "--levels"),  # one level
        (["--levels", "normal,bogus"], "--levels"),
        (["--levels", "normal,easy,normal"], "--levels"),
        (["--levels", "normal,,easy"], "--levels"),
        (["--levels", "normal,random", "--matches", "7"], "--matches"),  # not whole cycles of 6
        (["--levels", "normal,random", "--matches", "6"], "--matches"),  # one cycle: no interval
        (["--matches", "0"], "--matches"),
        (["--seed", "-1"], "--seed"),
        (["--workers", "0"], "--workers"),
        (["--time-limit", "0"], "--time-limit"),
        (["--time-limit", "nan"], "--time-limit"),
        (["--out", "/nonexistent-folder/run.json"], "--out"),
    ],
)
def test_bad_arguments_are_refused_with_status_2_naming_the_argument(args: list[str], named: str) -> None:
    outcome = clubs_in_process(["calibrate", "whist", *args])
    assert outcome.status == 2, outcome.stderr
    assert named in outcome.stderr
    assert "Traceback" not in outcome.stderr and outcome.stdout == ""


def test_teams_made_by_options_are_refused() -> None:
    info = next(i for i in games() if not i.fixed_teams and any(i.teams_of(resolve(v)[1]) for v in i.variants))
    variant = next(v for v in info.variants if info.teams_of(resolve(v)[1]))
    outcome = clubs_in_process(["calibrate", variant, "--levels", "normal,random"])
    assert outcome.status == 2
    assert "makes teams by its options" in outcome.stderr


# -- the plan: who meets whom, where, on which cards ------------------------------------------------------------------
@pytest.mark.parametrize(("game", "levels"), [("whist", 3), ("whist", 4), ("northstar", 3), ("partnership", 3)])
def test_every_level_meets_every_other_and_holds_every_seat_in_each_cycle_on_one_deal(game: str, levels: int) -> None:
    info, options = resolve(game)
    names = LEVELS[:levels]
    table = plan(info, options, names)
    for cycle in range(3):
        arrangements = [table.seat_levels(cycle, p) for p in range(table.per_cycle)]
        seats = {(level, seat) for a in arrangements for seat, level in enumerate(a)}
        assert seats == {(level, seat) for level in names for seat in range(len(arrangements[0]))}
        met = {frozenset(a) for a in arrangements}
        for x in names:
            for y in names:
                assert any({x, y} <= group for group in met), (x, y)
        # every match of the cycle is dealt from the cycle's seed, as play_one(duplicate=True) derives it
        assert {table.index(cycle, p) // table.cycle_length for p in range(table.per_cycle)} == {cycle}
        assert len(set(arrangements)) == len(arrangements)
    if info.fixed_teams:
        for a in arrangements:
            assert all(len({a[s] for s in team}) == 1 for team in info.teams)  # partners are one level


# -- the fit -----------------------------------------------------------------------------------------------------------
def _cycles(order: dict[str, int], n_cycles: int, noise: float, seed: int) -> list[list[Placing]]:
    """Three-seat matches of the levels in ``order`` (lower finishes higher), every line-up turn of a cycle, the
    finishing order swapped between two random seats with probability ``noise``."""
    rng = random.Random(seed)
    names = list(order)
    out = []
    for _ in range(n_cycles):
        cycle = []
        for turn in range(3):
            levels = tuple(names[(i - turn) % 3] for i in range(3))
            ranks = [order[level] for level in levels]
            if rng.random() < noise:
                a, b = rng.sample(range(3), 2)
                ranks[a], ranks[b] = ranks[b], ranks[a]
            cycle.append(Placing(levels, tuple(ranks)))
        out.append(cycle)
    return out


def test_a_level_that_always_loses_rates_lower_and_one_that_always_wins_higher() -> None:
    cycles = _cycles({"strong": 0, "normal": 1, "weak": 2}, 8, 0.0, 1)
    fitted = fit_levels(cycles, ["strong", "normal", "weak"], seed=1, passes=4, resamples=20)
    assert fitted["normal"].mu == pytest.approx(25.0) and fitted["normal"].se == 0
    assert fitted["weak"].interval[1] < 1500 < fitted["strong"].interval[0]
    for rating in fitted.values():
        low, high = rating.interval
        assert low <= rating.shown <= high and rating.sigma > 0 and rating.matches == 24


def test_the_fit_is_the_same_for_the_same_seed_and_a_closer_contest_rates_closer() -> None:
    clear = _cycles({"strong": 0, "normal": 1, "weak": 2}, 10, 0.0, 2)
    close = _cycles({"strong": 0, "normal": 1, "weak": 2}, 10, 0.6, 2)
    names = ["strong", "normal", "weak"]
    one = fit_levels(close, names, seed=5, passes=4, resamples=10)
    assert one == fit_levels(close, names, seed=5, passes=4, resamples=10)
    sharp = fit_levels(clear, names, seed=5, passes=4, resamples=10)
    assert sharp["strong"].mu - sharp["weak"].mu > one["strong"].mu - one["weak"].mu > 0


def test_a_level_at_two_seats_moves_by_both_seats() -> None:
    # normal at two seats of a four-seat table, finishing first and second: it gains more than one seat's move.
    placing = Placing(("normal", "normal", "easy", "hard"), (0, 1, 2, 3))
    skills = dict.fromkeys(("normal", "easy", "hard"), (calibration.MU, calibration.SIGMA))
    alone = rate_seats([skills[level] for level in placing.levels], placing.ranks)
    calibration._update(skills, placing, (25 / 300) ** 2)
    assert skills["normal"][0] == pytest.approx(alone[0][0] + alone[1][0] - calibration.MU)
    assert skills["normal"][1] < min(alone[0][1], alone[1][1])
    assert skills["hard"] == alone[3]


# -- the calibration reads matches through clubsuite.ratings, as a rated match is read -----------------------------
EXAMPLES = [
    ([(25.0, 25 / 3)] * 4, [0, 1, 2, 3], ()),
    ([(25.0, 25 / 3)] * 3, [0, 0, 2], ()),
    ([(27.5, 2.0), (25.0, 1.5), (21.0, 3.0)], [2, 0, 1], ()),
    ([(25.0, 1.0), (25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3)], [1, 0, 1, 0], ((0, 2), (1, 3))),
    ([(30.0, 1.2), (20.0, 1.2), (30.0, 1.2), (20.0, 1.2)], [0, 1, 0, 1], ((0, 2), (1, 3))),
]


@pytest.mark.parametrize(("skills", "ranks", "teams"), EXAMPLES)
def test_the_calibration_rates_a_match_as_the_server_does(
    skills: list[tuple[float, float]], ranks: list[int], teams: tuple[tuple[int, ...], ...]
) -> None:
    mine = rate_seats(skills, ranks, teams)
    server = ratings.rate([ratings.Skill(mu, sigma) for mu, sigma in skills], ranks, teams)
    assert mine == [(s.mu, s.sigma) for s in server]


def test_the_calibration_uses_the_server_scale() -> None:
    assert ratings.Skill(calibration.MU, calibration.SIGMA) == ratings.START
    for mu, sigma in [(25.0, 25 / 3), (27.8, 0.9), (21.03, 1.7), (33.333, 0.25)]:
        rating, margin = ratings.shown(ratings.Skill(mu, sigma))
        assert round(ratings.shown_rating(mu)) == rating and round(ratings.shown_margin(sigma)) == margin


@pytest.mark.parametrize(
    ("winners", "draw", "scores", "teams"),
    [
        ((0,), False, (12, 3, -4), ()),
        ((0, 1), False, (11, -12, 9), ()),
        ((), True, (11, -11, 11), ()),
        ((2,), False, (40, 40, 10, 90), ()),
        ((1, 3), False, (60, 70, 55, 80), ((0, 2), (1, 3))),
        ((), False, (5, 5, 5, 1), ()),
    ],
)
def test_the_calibration_reads_a_finishing_order_as_the_server_does(
    winners: tuple[int, ...], draw: bool, scores: tuple[int, ...], teams: tuple[tuple[int, ...], ...]
) -> None:
    n = len(scores)
    outcome = MatchOutcome(0, 0, tuple(range(n)), winners, draw, 1, scores)
    summary = {"totals": list(scores), "winners": list(winners), "draw": draw}
    assert list(finishing_ranks(outcome, teams)) == ratings.finishing_ranks(summary, n, teams)


# -- the shipped calibrations ------------------------------------------------------------------------------------------
def test_the_shipped_calibrations_read_with_finite_means_and_positive_sigmas() -> None:
    pools = all_pools()
    assert pools, "calibrated.json ships the calibrations"
    for pool, levels in pools.items():
        assert levels == calibrated(pool)
        assert "normal" in levels and levels["normal"][0] == pytest.approx(ratings.START.mu), pool
        for level, (mu, sigma) in levels.items():
            assert math.isfinite(mu) and math.isfinite(sigma) and sigma > 0, (pool, level)
        made = provenance(pool)
        assert made["command"].startswith("clubs calibrate ") and made["matches"] > 0 and made["date"], pool
    assert calibrated("no-such-pool") == {}


def test_every_game_s_default_pool_is_calibrated_with_every_level_for_people_and_the_learned_bot() -> None:
    for info in games():
        info_, options = resolve(info.name)
        assert set(calibrated(ratings.pool(info_, options))) == {*LEVELS, "learned"}, info.name


def test_line_ups_take_every_choice_of_levels_or_the_levels_in_turn() -> None:
    assert calibration.side_lineups(LEVELS, 3) == [
        ("easy", "normal", "hard"),
        ("easy", "normal", "expert"),
        ("easy", "hard", "expert"),
        ("normal", "hard", "expert"),
    ]
    turns = calibration.side_lineups(LEVELS[:3], 4)
    assert turns == [
        ("easy", "normal", "hard", "easy"),
        ("normal", "hard", "easy", "normal"),
        ("hard", "easy", "normal", "hard"),
    ]
    assert sorted(Counter(lineup).most_common(1)[0][0] for lineup in turns) == ["easy", "hard", "normal"]
    assert calibration.side_lineups(["easy", "normal"], 4) == [("easy", "normal", "easy", "normal")]
