"""The ratings of rated matches (``ratings.py``): the finishing order read from a match's summary
(winners,
totals, ties, draws, teams, leavers), the skills OpenSkill's Plackett-Luce model gives after a match, the pools, the
number a person reads and the leaderboard's sort, and every malformed input refused with a clear message.

The properties that must hold for any match (the best side never loses mean, the worst never gains, every sigma stays
positive and finite, seat numbers do not matter) are checked with Hypothesis across the whole accepted range of
skills."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from clubsuite.bots import make_bot
from clubsuite.engine import games, resolve
from clubsuite.ratings import (
    SKILL_LIMIT,
    START,
    Skill,
    conservative,
    finishing_ranks,
    pool,
    rate,
    shown,
)
from clubsuite.runner import play_match

Teams = tuple[tuple[int, ...], ...]
PARTNERS: Teams = ((0, 2), (1, 3))
"""Partnership's teams, and North Star's 2x2: partners sit opposite."""


def summary(totals: Sequence[float], winners: Sequence[int] = (), draw: bool = False) -> dict[str, Any]:
    """The part of a match's ``summary()`` that ranking reads."""
    return {"totals": list(totals), "winners": list(winners), "draw": draw, "hands": []}


# -- the newcomer, the shown number, the leaderboard's sort ----------------------------------------------------------
def test_a_newcomer_starts_at_openskills_defaults() -> None:
    model = PlackettLuce()
    assert (START.mu, START.sigma) == (model.mu, model.sigma) == (25.0, 25.0 / 3.0)


def test_a_newcomer_reads_1500_plus_or_minus_1000() -> None:
    assert shown(START) == (1500, 1000)


def test_the_shown_rating_moves_60_points_per_unit_of_mu_and_the_plus_minus_is_two_sigmas() -> None:
    assert shown(Skill(26.0, 1.0)) == (1560, 120)
    assert shown(Skill(20.0, 0.5)) == (1200, 60)
    assert shown(Skill(25.004, 25.0 / 3.0)) == (1500, 1000)  # rounded only when shown


def test_a_skill_that_is_not_finite_is_not_shown() -> None:
    with pytest.raises(ValueError, match="not finite"):
        shown(Skill(math.nan, 1.0))


def test_the_leaderboard_sorts_by_mu_minus_three_sigmas_and_a_newcomer_sits_at_zero() -> None:
    assert conservative(START) == pytest.approx(0.0)
    assert conservative(Skill(30.0, 2.0)) == 24.0
    assert conservative(Skill(30.0, 2.0)) == pytest.approx(PlackettLuce().rating(30.0, 2.0).ordinal())


def test_two_early_wins_rank_below_a_long_steady_record_on_the_leaderboard() -> None:
    once = rate([START, START], [0, 1], [])[0]
    lucky = rate([once, START], [0, 1], [])[0]
    steady = Skill(28.0, 2.0)
    assert lucky.mu > steady.mu
    assert conservative(lucky) < conservative(steady)


# -- pools ---------------------------------------------------------------------------------------------------------
def test_a_game_with_several_seat_counts_has_a_pool_per_count() -> None:
    assert pool(*resolve("northstar")) == "northstar-4p"
    assert pool(*resolve("northstar-duel")) == "northstar-2p"
    assert pool(*resolve("northstar(players=6)")) == "northstar-6p"


def test_variants_share_their_games_pool_at_the_same_seat_count() -> None:
    assert pool(*resolve("northstar-wild")) == pool(*resolve("northstar")) == "northstar-4p"
    assert pool(*resolve("northstar-teams")) == "northstar-4p"


def test_a_game_with_one_seat_count_pools_under_its_plain_name() -> None:
    assert pool(*resolve("whist")) == "whist"
    assert pool(*resolve("whist(target=9)")) == "whist"
    assert pool(*resolve("partnership")) == "partnership"


def test_every_registered_game_and_variant_pools_by_name_and_seat_count() -> None:
    for info in games():
        for spec in (info.name, *info.variants):
            _, options = resolve(spec)
            several = len(info.seats) > 1
            assert pool(info, options) == (f"{info.name}-{info.n_seats(options)}p" if several else info.name)


def test_a_pool_refuses_the_options_of_another_game() -> None:
    northstar, _ = resolve("northstar")
    _, whist_options = resolve("whist")
    with pytest.raises(TypeError, match="options of game 'northstar'"):
        pool(northstar, whist_options)


# -- finishing ranks -----------------------------------------------------------------------------------------------
def test_the_winner_ranks_first_and_the_others_follow_by_totals() -> None:
    assert finishing_ranks(summary([40, 55, 20, 30], winners=[1]), 4, ()) == [1, 0, 3, 2]


def test_winners_rank_first_whatever_their_totals() -> None:
    # Whist: +11 and -11 both win (CW-5); the third player's +1 ranks below both.
    assert finishing_ranks(summary([11, -11, 1], winners=[0, 1]), 3, ()) == [0, 0, 2]


def test_equal_totals_share_a_rank_and_the_next_rank_counts_the_sides_ahead() -> None:
    ranks = finishing_ranks(summary([50, 30, 30, 10], winners=[0]), 4, ())
    assert ranks == [0, 1, 1, 3]


def test_a_draw_ranks_by_totals_only() -> None:
    assert finishing_ranks(summary([12, -11, 11], draw=True), 3, ()) == [0, 2, 1]
    assert finishing_ranks(summary([11, 11, 11], draw=True), 3, ()) == [0, 0, 0]


def test_a_match_without_a_winner_or_a_draw_ranks_by_totals() -> None:
    assert finishing_ranks(summary([5, 9, 7]), 3, ()) == [2, 0, 1]


def test_a_leaver_finishes_last_even_with_the_most_points() -> None:
    ranks = finishing_ranks(summary([90, 10, 20, 30]), 4, (), left={0})
    assert ranks == [3, 2, 1, 0]


def test_a_leaver_finishes_last_even_as_a_winner_and_below_a_tie() -> None:
    ranks = finishing_ranks(summary([90, 10, 10, 30], winners=[0]), 4, (), left=[0])
    assert ranks == [3, 1, 1, 0]


def test_several_leavers_share_the_last_rank() -> None:
    assert finishing_ranks(summary([90, 10, 20, 30]), 4, (), left=(0, 3)) == [2, 1, 0, 2]


def test_partners_share_their_teams_rank() -> None:
    ranks = finishing_ranks(summary([53, 50, 70, 48], winners=[0, 2]), 4, PARTNERS)
    assert ranks == [0, 1, 0, 1]


def test_a_teams_total_is_the_sum_of_its_members_totals() -> None:
    # North Star 3x2: teams 0+3, 1+4, 2+5. Team 0 won; team 2 (35 + 35 = 70) ranks above team 1 (60 + 0 = 60),
    # although seat 1 has the best total of those two teams.
    ranks = finishing_ranks(summary([54, 60, 35, 58, 0, 35], winners=[0, 3]), 6, ((0, 3), (1, 4), (2, 5)))
    assert ranks == [0, 2, 1, 0, 2, 1]


def test_a_leaver_takes_the_whole_team_to_last_place() -> None:
    ranks = finishing_ranks(summary([80, 10, 80, 10], winners=[0, 2]), 4, PARTNERS, left=[2])
    assert ranks == [1, 0, 1, 0]


def test_a_seat_in_no_team_is_a_side_alone() -> None:
    ranks = finishing_ranks(summary([10, 20, 10, 5, 25]), 5, ((0, 2),))
    assert ranks == [1, 1, 1, 3, 0]  # team 0+2 totals 20, as seat 1 alone does: the two sides share rank 1


@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar-teams", "northstar(players=6,teams=3x2)"])
def test_a_real_finished_match_ranks_its_winners_first_and_partners_together(spec: str) -> None:
    info, options = resolve(spec)
    n = info.n_seats(options)
    match = play_match(info.new_match(options, 0), [make_bot("random", info.name) for _ in range(n)], 7)
    assert match.is_over
    teams = info.teams_of(options)
    ranks = finishing_ranks(match.summary(), n, teams)
    assert {ranks[s] for s in match.winners} == {0}
    assert all(ranks[s] > 0 for s in range(n) if s not in match.winners)
    assert all(len({ranks[s] for s in team}) == 1 for team in teams)
    after = rate([START] * n, ranks, teams)
    assert all(after[s].mu > START.mu for s in match.winners)


# -- rating ----------------------------------------------------------------------------------------------------------
def test_the_winner_of_a_two_player_match_gains_and_the_loser_loses() -> None:
    winner, loser = rate([START, START], [0, 1], [])
    assert winner.mu > START.mu > loser.mu
    assert winner.mu - START.mu == pytest.approx(START.mu - loser.mu)


def test_sigma_shrinks_after_a_newcomers_first_match() -> None:
    after = rate([START] * 4, [0, 1, 2, 3], [])
    assert all(s.sigma < START.sigma for s in after)


def test_the_order_of_finish_orders_the_gains() -> None:
    after = rate([START] * 4, [2, 0, 3, 1], [])
    assert after[1].mu > after[3].mu > START.mu > after[0].mu > after[2].mu


def test_partners_move_together_in_the_same_direction() -> None:
    skills = [Skill(30.0, 3.0), Skill(22.0, 6.0), Skill(20.0, 8.0), Skill(27.0, 2.0)]
    after = rate(skills, [0, 1, 0, 1], PARTNERS)
    assert after[0].mu > skills[0].mu and after[2].mu > skills[2].mu
    assert after[1].mu < skills[1].mu and after[3].mu < skills[3].mu


def test_the_less_certain_partner_moves_further() -> None:
    skills = [Skill(25.0, 2.0), START, Skill(25.0, 8.0), START]
    after = rate(skills, [0, 1, 0, 1], PARTNERS)
    assert after[2].mu - skills[2].mu > after[0].mu - skills[0].mu > 0


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    upset = rate([START, Skill(35.0, 3.0)], [0, 1], [])[0]
    expected = rate([START, Skill(15.0, 3.0)], [0, 1], [])[0]
    assert upset.mu > expected.mu > START.mu


def test_a_tie_between_equal_skills_changes_no_mean() -> None:
    after = rate([START] * 3, [0, 0, 0], [])
    assert all(s.mu == START.mu for s in after)
    assert all(s.sigma < START.sigma for s in after)


def test_a_strong_player_tied_for_first_with_a_weak_one_may_lose_a_little() -> None:
    # The model's own reading of a tie: it says the two played alike, which is news against the stronger one. So
    # "the best rank never loses mean" holds for a side alone at the top, not for a side sharing it.
    strong, weak, _ = rate([Skill(40.0, 2.0), Skill(10.0, 2.0), Skill(10.0, 2.0)], [0, 0, 1], [])
    assert strong.mu < 40.0 and weak.mu > 10.0


def test_a_very_certain_players_sigma_may_grow_a_hair() -> None:
    # Each match first widens sigma by the model's tau (25/300), so that ratings keep following people who change.
    certain, _ = rate([Skill(25.0, 0.5), START], [0, 1], [])
    assert 0.5 < certain.sigma < 0.51


def test_the_result_is_openskills_plackett_luce() -> None:
    skills = [Skill(30.0, 3.0), Skill(22.0, 6.0), Skill(20.0, 8.0), Skill(27.0, 2.0)]
    model = PlackettLuce()
    expected = model.rate([[model.rating(s.mu, s.sigma)] for s in skills], ranks=[2, 0, 1, 3])
    after = rate(skills, [2, 0, 1, 3], [])
    assert [(s.mu, s.sigma) for s in after] == [(t[0].mu, t[0].sigma) for t in expected]


def test_only_the_order_of_the_ranks_matters() -> None:
    skills = [Skill(30.0, 3.0), Skill(22.0, 6.0), Skill(20.0, 8.0), Skill(27.0, 2.0)]
    assert rate(skills, [0, 1, 1, 3], []) == rate(skills, [0, 1, 1, 2], []) == rate(skills, [5, 9, 9, 10], [])


def test_rating_is_deterministic_and_leaves_its_arguments_alone() -> None:
    skills = [Skill(30.0, 3.0), Skill(22.0, 6.0), Skill(20.0, 8.0), Skill(27.0, 2.0)]
    ranks = [1, 0, 1, 0]
    teams = [[0, 2], [1, 3]]
    first = rate(skills, ranks, teams)
    assert rate(skills, ranks, teams) == first
    assert skills == [Skill(30.0, 3.0), Skill(22.0, 6.0), Skill(20.0, 8.0), Skill(27.0, 2.0)]
    assert ranks == [1, 0, 1, 0] and teams == [[0, 2], [1, 3]]


def test_the_extremes_of_the_accepted_range_rate_without_trouble() -> None:
    tiny = 5e-324
    for top, bottom in ((SKILL_LIMIT, -SKILL_LIMIT), (-SKILL_LIMIT, SKILL_LIMIT)):
        skills = [Skill(top, tiny)] * 4 + [Skill(bottom, tiny)] * 4
        after = rate(skills, [0, 0, 0, 0, 1, 1, 1, 1], ((0, 1, 2, 3), (4, 5, 6, 7)))
        assert all(math.isfinite(s.mu) and 0 < s.sigma < math.inf for s in after)


# -- refusals ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("skills", "ranks", "teams", "message"),
    [
        ([START, START], [0], (), "1 ranks for 2 skills"),
        ([START], [0], (), "at least two sides"),
        ([START, START], [0, 0], ((0, 1),), "at least two sides"),
        ([Skill(math.nan, 1.0), START], [0, 1], (), "mu of seat 0 must be a finite number"),
        ([START, Skill(25.0, math.inf)], [0, 1], (), "sigma of seat 1 must be a finite number"),
        ([START, Skill(25.0, 0.0)], [0, 1], (), "sigma of seat 1 must be above 0"),
        ([START, Skill(25.0, -1.0)], [0, 1], (), "sigma of seat 1 must be above 0"),
        ([Skill(SKILL_LIMIT * 2, 1.0), START], [0, 1], (), "mu of seat 0 must be within"),
        ([START, START], [0, 0.5], (), "rank of seat 1 must be a whole number"),
        ([START, START], [0, True], (), "rank of seat 1 must be a whole number"),
        ([START] * 4, [0, 1, 1, 0], PARTNERS, r"partners \[0, 2\] must share a rank"),
        ([START] * 4, [0, 1, 0, 1], ((0, 2), (2, 3)), "seat 2 is in two teams"),
        ([START] * 4, [0, 1, 0, 1], ((0, 4), (1, 3)), "4, which is not a seat"),
        ([START] * 4, [0, 1, 0, 1], ((), (1, 3)), "at least one seat"),
    ],
)
def test_bad_input_to_rate_is_refused(skills: list[Skill], ranks: list[Any], teams: Teams, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rate(skills, ranks, teams)


def test_sides_too_far_apart_for_the_model_are_refused_not_miscounted() -> None:
    skills = [Skill(SKILL_LIMIT, 0.1)] * 8 + [Skill(-SKILL_LIMIT, 0.1)]
    with pytest.raises(ValueError, match="too far apart"):
        rate(skills, [1] * 8 + [0], (tuple(range(8)),))


@pytest.mark.parametrize(
    ("data", "n_seats", "left", "message"),
    [
        (summary([1, 2]), 3, (), "must be a list of 3 numbers"),
        ({"winners": [], "draw": False}, 2, (), "must be a list of 2 numbers"),
        (summary([1, math.nan]), 2, (), "must be finite numbers"),
        (summary([1, True]), 2, (), "must be finite numbers"),
        ({"totals": [1, 2], "winners": []}, 2, (), "'draw' must be true or false"),
        (summary([1, 2], winners=[2]), 2, (), "include 2, which is not a seat"),
        (summary([1, 2], winners=[0], draw=True), 2, (), "a draw has no winners"),
        (summary([1, 2]), 2, [-1], "seats that left include -1"),
        (summary([1, 2]), 0, (), "at least 1"),
    ],
)
def test_a_malformed_summary_is_refused(data: dict[str, Any], n_seats: int, left: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        finishing_ranks(data, n_seats, (), left)


# -- properties of any match ---------------------------------------------------------------------------------------
Match = tuple[list[Skill], list[int], Teams, list[tuple[int, ...]]]
"""Skills and ranks per seat, the teams as given to :func:`rate`, and every side (teams and players alone)."""

finite_mu = st.floats(-SKILL_LIMIT, SKILL_LIMIT)
positive_sigma = st.floats(0.0, SKILL_LIMIT, exclude_min=True)


@st.composite
def matches(draw: st.DrawFn) -> Match:
    """A match of 2 to 6 sides of 1 to 4 players each, seated in any order, with any skills and any finishing order
    (ties included)."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=2, max_size=6))
    seats = draw(st.permutations(range(sum(sizes))))
    sides, start = [], 0
    for size in sizes:
        sides.append(tuple(seats[start : start + size]))
        start += size
    lone_as_teams = draw(st.booleans())  # a player alone may be named as a team of one, or left out of the teams
    teams = tuple(side for side in sides if len(side) > 1 or lone_as_teams)
    side_ranks = draw(st.lists(st.integers(0, len(sides) - 1), min_size=len(sides), max_size=len(sides)))
    ranks = [0] * len(seats)
    for side, rank in zip(sides, side_ranks, strict=True):
        for seat in side:
            ranks[seat] = rank
    skills = [Skill(draw(finite_mu), draw(positive_sigma)) for _ in seats]
    return skills, ranks, teams, sides


@pytest.mark.long
@settings(max_examples=200, deadline=None)
@given(matches())
def test_every_sigma_stays_positive_and_finite(match: Match) -> None:
    skills, ranks, teams, _ = match
    after = rate(skills, ranks, teams)
    assert len(after) == len(skills)
    assert all(math.isfinite(s.mu) and math.isfinite(s.sigma) and s.sigma > 0 for s in after)


@pytest.mark.long
@settings(max_examples=200, deadline=None)
@given(matches())
def test_a_side_alone_at_the_top_never_loses_mean_and_one_alone_at_the_bottom_never_gains(match: Match) -> None:
    skills, ranks, teams, sides = match
    after = rate(skills, ranks, teams)
    side_ranks = [ranks[side[0]] for side in sides]
    for side, rank in zip(sides, side_ranks, strict=True):
        alone = side_ranks.count(rank) == 1
        if alone and rank == min(side_ranks):
            assert all(after[s].mu >= skills[s].mu for s in side)
        if alone and rank == max(side_ranks):
            assert all(after[s].mu <= skills[s].mu for s in side)


@pytest.mark.long
@settings(max_examples=200, deadline=None)
@given(matches())
def test_partners_always_move_the_same_way(match: Match) -> None:
    skills, ranks, teams, sides = match
    after = rate(skills, ranks, teams)
    for side in sides:
        directions = {(after[s].mu > skills[s].mu) - (after[s].mu < skills[s].mu) for s in side}
        assert directions <= {0, 1} or directions <= {0, -1}


@pytest.mark.long
@settings(max_examples=200, deadline=None)
@given(matches(), st.data())
def test_the_result_does_not_depend_on_seat_numbers(match: Match, data: st.DataObject) -> None:
    skills, ranks, teams, _ = match
    n = len(skills)
    moved = data.draw(st.permutations(range(n)), label="new seat of each old seat")
    new_skills, new_ranks = [START] * n, [0] * n
    for old, new in enumerate(moved):
        new_skills[new], new_ranks[new] = skills[old], ranks[old]
    new_teams = tuple(tuple(moved[s] for s in team) for team in reversed(teams))
    before, after = rate(skills, ranks, teams), rate(new_skills, new_ranks, new_teams)
    for old, new in enumerate(moved):
        assert after[new].mu == pytest.approx(before[old].mu, rel=1e-9, abs=1e-9)
        assert after[new].sigma == pytest.approx(before[old].sigma, rel=1e-9, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(-200, 200), min_size=n, max_size=n),
            st.sets(st.integers(0, n - 1), max_size=2),
            st.sets(st.integers(0, n - 1), max_size=n),
            st.sampled_from([(), tuple((s, s + n // 2) for s in range(n // 2))]),
        )
    )
)
def test_finishing_ranks_put_winners_first_leavers_last_and_partners_together(
    case: tuple[list[int], set[int], set[int], Teams],
) -> None:
    totals, winners, left, teams = case
    n = len(totals)
    ranks = finishing_ranks(summary(totals, winners=sorted(winners)), n, teams, left)
    gone = set(left) | {p for team in teams if set(team) & left for p in team}
    staying = [s for s in range(n) if s not in gone]
    for team in teams:
        assert len({ranks[s] for s in team}) == 1
    assert all(ranks[g] > ranks[s] for g in gone for s in staying)
    assert len({ranks[g] for g in gone}) <= 1
    for s in staying:
        if s in winners or any(s in team and set(team) & winners for team in teams):
            assert ranks[s] == 0
    if not teams:
        for a in staying:
            for b in staying:
                if a not in winners and b not in winners and totals[a] > totals[b]:
                    assert ranks[a] < ranks[b]
                if a not in winners and b not in winners and totals[a] == totals[b]:
                    assert ranks[a] == ranks[b]
