"""Tests of bulk simulation: reproducibility across worker counts, seat rotation, the counts and the interval."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest

import clubsuite.sim as sim
from clubsuite.bots import RandomBot, make_bot
from clubsuite.engine import LegalActions, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.runner import play_match
from clubsuite.sim import entry_labels, rotation_summary, seating, seating_cycle, simulate, wilson_interval

RANDOMS = ["random", "random", "random"]


def test_same_seed_gives_the_same_result_with_one_or_two_workers() -> None:
    # Eight matches: more than one cycle of seatings, cut into several chunks for the two workers.
    one = simulate("whist", ["heuristic", "random", "random"], 8, seed=11, workers=1)
    two = simulate("whist", ["heuristic", "random", "random"], 8, seed=11, workers=2)
    assert one.outcomes == two.outcomes
    assert one.to_json() == two.to_json()
    assert one.format_table() == two.format_table()
    assert [o.index for o in two.outcomes] == list(range(8))
    assert [o.seats for o in two.outcomes] == [seating(k, 3) for k in range(8)]


def test_a_different_seed_plays_different_matches() -> None:
    a = simulate("whist", RANDOMS, 3, seed=1)
    b = simulate("whist", RANDOMS, 3, seed=2)
    assert [o.match_seed for o in a.outcomes] != [o.match_seed for o in b.outcomes]
    assert [o.seat_scores for o in a.outcomes] != [o.seat_scores for o in b.outcomes]


def test_seating_of_three_bots_cycles_through_all_six_seatings() -> None:
    # The first order is turned through every seat, then the mirrored order: the bots' order around the table
    # changes, not only their seats.
    assert [seating(k, 3) for k in range(6)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (1, 0, 2), (2, 1, 0)]
    assert [seating(k, 3) for k in range(6, 12)] == [seating(k, 3) for k in range(6)]
    assert seating_cycle(3) == 6


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_seating_of_up_to_four_bots_uses_every_permutation_once_per_cycle(n: int) -> None:
    cycle = [seating(k, n) for k in range(math.factorial(n))]
    assert seating_cycle(n) == math.factorial(n)
    assert sorted(cycle) == sorted(itertools.permutations(range(n)))
    assert seating(math.factorial(n), n) == cycle[0]


def _seat_counts(seatings: list[tuple[int, ...]]) -> Counter[tuple[int, int]]:
    """How often each (entry, seat) pair occurs in ``seatings``."""
    return Counter((entry, seat) for seats in seatings for entry, seat in enumerate(seats))


def _clockwise_neighbours(seatings: list[tuple[int, ...]]) -> Counter[tuple[int, int]]:
    """How often entry ``b`` sits at the next seat clockwise from entry ``a``, as ``(a, b)``, over ``seatings``."""
    pairs: Counter[tuple[int, int]] = Counter()
    for seats in seatings:
        n = len(seats)
        at = {seat: entry for entry, seat in enumerate(seats)}
        pairs.update((entry, at[(seat + 1) % n]) for entry, seat in enumerate(seats))
    return pairs


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_aligned_block_of_n_matches_gives_every_entry_every_seat_once(n: int) -> None:
    for block in range(seating_cycle(n) // n):
        seatings = [seating(block * n + turn, n) for turn in range(n)]
        assert _seat_counts(seatings) == Counter({(entry, seat): 1 for entry in range(n) for seat in range(n)})


@pytest.mark.parametrize(("n", "cycle"), [(5, 60), (6, 120)])
def test_five_or_six_bots_hold_every_ordered_triple_of_seats_once_per_cycle(n: int, cycle: int) -> None:
    assert seating_cycle(n) == cycle == n * (n - 1) * (n - 2)
    seatings = [seating(k, n) for k in range(cycle)]
    assert len(set(seatings)) == cycle
    assert seating(cycle, n) == seatings[0]
    # Every ordered triple of entries lands on every ordered triple of seats exactly once: so each bot has each
    # pair of bots as its left and right neighbours, and each other bot at each distance, equally often.
    triples = Counter(
        (entries, tuple(seats[e] for e in entries))
        for seats in seatings
        for entries in itertools.permutations(range(n), 3)
    )
    assert len(triples) == math.perm(n, 3) ** 2
    assert set(triples.values()) == {1}
    # The set is closed under turning the table by one seat, which the grouping by order relies on.
    assert {tuple((s + 1) % n for s in seats) for seats in seatings} == set(seatings)


def test_more_than_six_bots_go_through_every_seating() -> None:
    seatings = [seating(k, 7) for k in range(seating_cycle(7))]
    assert len(seatings) == 5040
    assert len(set(seatings)) == 5040
    assert seatings[:7] == [tuple((i + k) % 7 for i in range(7)) for k in range(7)]


@pytest.mark.parametrize(
    ("args", "message"),
    [((-1, 3), "match index -1"), ((0, 0), "0 seats"), ((True, 3), "match index True"), ((0, 2.0), "2.0 seats")],
)
def test_seating_refuses_a_bad_match_index_or_seat_count(args: tuple[Any, Any], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        seating(*args)


def test_over_six_matches_every_bot_sits_in_every_seat_twice_and_meets_every_neighbour() -> None:
    result = simulate("whist", RANDOMS, 6, seed=0)
    seatings = [o.seats for o in result.outcomes]
    assert seatings == [seating(k, 3) for k in range(6)]
    assert _seat_counts(seatings) == Counter({(entry, seat): 2 for entry in range(3) for seat in range(3)})
    # Every ordered pair of neighbours occurs: each bot has each other bot on its left in some matches and on its
    # right in others, three times each.
    assert _clockwise_neighbours(seatings) == Counter({(a, b): 3 for a in range(3) for b in range(3) if a != b})


class _SeatRecorder:
    """A random bot that writes down, under its entry name, every seat whose view it was handed."""

    def __init__(self, name: str, log: list[tuple[str, int]]) -> None:
        self.name = name
        self._log = log
        self._random = RandomBot()

    def choose(self, view: Any, legal: LegalActions, rng: random.Random) -> Any:
        """Record the seat, then play a random legal action."""
        self._log.append((self.name, view.seat))
        return self._random.choose(view, legal, rng)


def test_each_bot_plays_only_at_the_seat_its_seating_gives_it(monkeypatch: pytest.MonkeyPatch) -> None:
    current: list[tuple[str, int]] = []
    per_match: list[set[tuple[str, int]]] = []
    monkeypatch.setattr(sim.running, "make_bot", lambda name, game: _SeatRecorder(name, current))

    def next_match(done: int, total: int) -> None:
        per_match.append(set(current))
        current.clear()

    result = simulate("whist", ["a", "b", "c"], 6, seed=5, progress=next_match)
    assert len(per_match) == 6
    for k, seen in enumerate(per_match):
        # Each entry decided only at its seat of match k, and every entry decided at least once.
        seats = seating(k, 3)
        assert seen == {("a", seats[0]), ("b", seats[1]), ("c", seats[2])}
        assert result.outcomes[k].seats == seats


def test_a_simulated_match_replays_from_its_match_seed() -> None:
    result = simulate("whist", RANDOMS, 2, seed=9)
    info, options = resolve("whist")
    for outcome in result.outcomes:
        match = info.new_match(options, 0)
        play_match(match, [make_bot("random", "whist") for _ in range(3)], outcome.match_seed)
        assert tuple(match.winners) == outcome.winner_seats
        assert tuple(match.totals) == outcome.seat_scores
        assert len(match.hand_scores) == outcome.hands


def test_wilson_interval_on_known_values() -> None:
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    # Newcombe (1998), example of 81 out of 263: 0.2553 to 0.3662.
    assert wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert high < 1.0


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(InvalidOptionsError, match="at least one trial"):
        wilson_interval(0, 0)
    with pytest.raises(InvalidOptionsError, match="11 successes out of 10"):
        wilson_interval(11, 10)


def test_cw5_win_counts_agree_with_draws_and_multiple_winners() -> None:
    # Target 1 makes draws (all three at a target at once) and shared wins frequent.
    result = simulate("whist(target=1)", RANDOMS, 30, seed=0)
    assert result.draws > 0
    assert any(len(o.winner_seats) > 1 for o in result.outcomes)
    for o in result.outcomes:
        assert o.draw == (not o.winner_seats)
        assert not any(o.won(entry) for entry in range(3)) if o.draw else any(o.won(entry) for entry in range(3))
    wins = sum(e.wins for e in result.entries)
    assert wins == sum(len(o.winner_seats) for o in result.outcomes)
    assert wins >= result.matches - result.draws
    assert result.to_json()["draws"] == result.draws


def test_cw5_hand_scores_add_up_to_one_per_hand() -> None:
    # Each hand's scores sum to 13 tricks - 3 x 4 = 1, so the entries' total scores sum to the hands played.
    result = simulate("whist", RANDOMS, 5, seed=3)
    assert sum(e.total_score for e in result.entries) == result.hands
    assert sum(e.mean_score_per_hand for e in result.entries) == pytest.approx(1.0)
    assert result.mean_hands_per_match == result.hands / 5
    assert all(e.hands == result.hands and e.matches == 5 for e in result.entries)


def test_repeated_bot_names_get_distinct_labels() -> None:
    assert entry_labels(["random", "heuristic", "random", "random"]) == ("random", "heuristic", "random#2", "random#3")
    result = simulate("whist", RANDOMS, 1, seed=0)
    assert [e["label"] for e in result.to_json()["bots"]] == ["random", "random#2", "random#3"]


def test_result_json_and_table_state_the_interval() -> None:
    result = simulate("whist-1997", RANDOMS, 2, seed=0)
    data = result.to_json()
    assert data["canonical_spec"] == "whist(lead_after_exchange=left_of_last_exchanger)"
    assert data["confidence_interval"] == "95% Wilson score interval"
    for entry in data["bots"]:
        low, high = entry["win_rate_ci95"]
        assert 0.0 <= low <= entry["win_rate"] <= high <= 1.0
    table = result.format_table()
    assert "Wilson" in table
    assert "random#3" in table


@pytest.mark.parametrize(
    ("matches", "coverage"),
    [
        (6, "6 matches = 1 full cycle of 6: seats exactly balanced"),
        (12, "12 matches = 2 full cycles of 6: seats exactly balanced"),
        (7, "7 matches = 1 full cycle of 6 + 1 match: seats balanced except for the last 1 match"),
        (4, "4 matches, less than one cycle of 6: seats not balanced"),
    ],
)
def test_table_header_says_how_seats_are_rotated_and_whether_cycles_are_whole(matches: int, coverage: str) -> None:
    result = simulate("whist(target=1)", RANDOMS, matches, seed=0)
    lines = result.format_table().splitlines()
    assert lines[0] == f"{matches} matches of whist(target=1), seed 0"
    assert lines[1] == rotation_summary(3)
    assert "all 6 seatings" in lines[1]
    assert lines[2] == coverage
    assert result.to_json()["seat_rotation"] == rotation_summary(3)
    assert result.to_json()["seating_cycle"] == 6


def test_rotation_summary_names_the_cycle_for_five_and_six_seats() -> None:
    assert "60 seatings" in rotation_summary(5)
    assert "120 seatings" in rotation_summary(6)
    assert "any three bots at any three seats" in rotation_summary(6)
    assert "all 24 seatings" in rotation_summary(4)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"matches": 0}, "matches=0"),
        ({"workers": 0}, "workers=0"),
        ({"bots": ["random", "random"]}, "2 bots given"),
        ({"bots": ["random", "random", "random", "random"]}, "4 bots given"),
        ({"bots": ["random", "nobot", "random"]}, "nobot"),
        ({"spec": "nogame"}, "nogame"),
        ({"spec": "whist(target=0)"}, "target=0"),
        ({"spec": "whist(colour=red)"}, "colour"),
    ],
)
def test_bad_inputs_raise_naming_the_input(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"spec": "whist", "bots": RANDOMS, "matches": 2, "seed": 0, **kwargs}
    with pytest.raises(InvalidOptionsError, match=message):
        simulate(**args)


def test_fc9_free_table_explains_that_free_clubs_has_no_draws() -> None:
    table = simulate("free", RANDOMS, 2, seed=0).format_table()
    assert "draws: 0  (Free Clubs has none: a tie for the highest total plays another hand, FC-9)" in table
    assert "CW-5" not in table
    assert "each match has one winner" in table


def test_cw5_whist_table_still_explains_draws_and_shared_wins() -> None:
    table = simulate("whist", RANDOMS, 1, seed=0).format_table()
    assert "all players at a target at once, CW-5" in table
    assert "FC-9" not in table


def test_every_game_has_a_balance_report_counted_from_its_hands() -> None:
    for spec, bots in (("whist", RANDOMS), ("partnership", ("heuristic", "random"))):
        result = simulate(spec, bots, 2, seed=0, hand_facts=True)
        report = sim.build_report(result).to_json()
        assert report["hands"] == result.hands
        assert sim.hand_facts_of(spec)


# -- partnerships ------------------------------------------------------------------------------------------------
TEAMS = ((0, 2), (1, 3))


def test_cp3_seatings_of_a_partnership_game_keep_partners_together_in_a_cycle_of_eight() -> None:
    assert seating_cycle(4, TEAMS) == 8
    cycle = [seating(k, 4, TEAMS) for k in range(8)]
    assert len(set(cycle)) == 8 and seating(8, 4, TEAMS) == cycle[0]
    for seats in cycle:
        assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} == {frozenset(t) for t in TEAMS}
    assert _seat_counts(cycle) == Counter({(entry, seat): 2 for entry in range(4) for seat in range(4)})
    # Each partnership sits in both orders round the table: entry 1 after entry 0 in some seatings, entry 3 in others.
    followers = {next(e for e in range(4) if seats[e] == (seats[0] + 1) % 4) for seats in cycle}
    assert followers == {1, 3}
    assert "keep partners together" in rotation_summary(4, TEAMS)


def test_cp3_simulation_of_partnerships_counts_per_team_and_takes_one_bot_per_team() -> None:
    result = simulate("partnership", ["heuristic", "random"], 8, seed=5)
    assert result.bots == ("heuristic", "random", "heuristic", "random")
    teams = result.team_stats
    assert [t.label for t in teams] == ["heuristic+heuristic", "random+random"]
    assert sum(t.wins for t in teams) == 8
    for outcome in result.outcomes:
        assert outcome.won(0) == outcome.won(2) and outcome.won(1) == outcome.won(3)
        assert outcome.won(0) != outcome.won(1)  # CP-4: one partnership wins every match
    assert teams[0].mean_score_per_hand + teams[1].mean_score_per_hand >= 31
    assert result.to_json()["teams"][0]["entries"] == [0, 2]
    assert simulate("partnership", ["heuristic", "random"], 8, seed=5, workers=2) == result
    assert "teams" not in simulate("whist", ["random"] * 3, 2, seed=1).to_json()


def test_duplicate_deals_give_every_seating_of_a_cycle_the_same_cards() -> None:
    """With ``duplicate`` the matches of one cycle of seatings share their match seed (so their deals), the next
    cycle has another; two copies of one bot then get exactly the same figures, card luck having cancelled out."""
    result = simulate("whist", ["heuristic", "heuristic", "random"], 12, seed=4, duplicate=True)
    seeds = [o.match_seed for o in result.outcomes]
    assert len(set(seeds[:6])) == 1 and len(set(seeds[6:])) == 1 and seeds[0] != seeds[6]
    first, second = result.entries[0], result.entries[1]
    assert (first.wins, first.total_score) == (second.wins, second.total_score)
    assert result.to_json()["duplicate"] is True
    plain = simulate("whist", ["heuristic", "heuristic", "random"], 12, seed=4)
    assert len({o.match_seed for o in plain.outcomes}) == 12


def test_the_first_bot_is_compared_with_each_other_paired_by_cycle() -> None:
    """``versus_first``: per full cycle of seatings the difference of win rates and of points per hand, then their
    means and 95% intervals; two copies of one bot on duplicate deals differ by exactly nothing, the heuristic bot
    beats a random one; a partner is not compared with itself, and fewer than two cycles give no comparison."""
    same = simulate("whist", ["heuristic", "heuristic", "random"], 12, seed=4, duplicate=True).versus_first()
    assert [v["other"] for v in same] == ["heuristic#2", "random"]
    assert same[0]["win_rate_difference"] == 0 and same[0]["ci95"] == [0, 0]
    assert same[0]["points_per_hand_difference"] == 0 and same[0]["points_per_hand_ci95"] == [0, 0]
    assert same[1]["win_rate_difference"] > 0 and same[1]["cycles"] == 2
    assert same[1]["points_per_hand_ci95"][0] <= same[1]["points_per_hand_difference"]
    assert same[1]["points_per_hand_difference"] <= same[1]["points_per_hand_ci95"][1]
    pair_result = simulate("partnership", ["heuristic", "random"], 16, seed=2)
    pair = pair_result.versus_first()
    assert [v["other"] for v in pair] == ["random"]
    # Over the two cycles the mean of the per-cycle point differences per hand, recomputed from the outcomes.
    per_cycle = []
    for c in range(2):
        group = pair_result.outcomes[8 * c : 8 * (c + 1)]
        per_cycle.append(sum(o.score(0) - o.score(1) for o in group) / sum(o.hands for o in group))
    assert pair[0]["points_per_hand_difference"] == sum(per_cycle) / 2 > 0
    assert simulate("whist", ["heuristic", "random", "random"], 6, seed=1).versus_first() == []
