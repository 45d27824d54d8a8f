"""Tests of bulk simulation: reproducibility across worker counts, seat rotation, the counts and the interval."""

from __future__ import annotations

import random
from typing import Any

import pytest

import clubsuite.sim as sim
from clubsuite.bots import RandomBot, make_bot
from clubsuite.engine import LegalActions, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.runner import play_match
from clubsuite.sim import entry_labels, seating, simulate, wilson_interval

RANDOMS = ["random", "random", "random"]


def test_same_seed_gives_the_same_result_with_one_or_two_workers() -> None:
    one = simulate("whist", RANDOMS, 6, seed=11, workers=1)
    two = simulate("whist", RANDOMS, 6, seed=11, workers=2)
    assert one.outcomes == two.outcomes
    assert one.to_json() == two.to_json()
    assert [o.index for o in two.outcomes] == list(range(6))


def test_a_different_seed_plays_different_matches() -> None:
    a = simulate("whist", RANDOMS, 3, seed=1)
    b = simulate("whist", RANDOMS, 3, seed=2)
    assert [o.match_seed for o in a.outcomes] != [o.match_seed for o in b.outcomes]
    assert [o.seat_scores for o in a.outcomes] != [o.seat_scores for o in b.outcomes]


def test_seating_rotates_every_entry_through_every_seat() -> None:
    assert seating(0, 3) == (0, 1, 2)
    assert seating(1, 3) == (1, 2, 0)
    assert seating(2, 3) == (2, 0, 1)
    assert seating(3, 3) == (0, 1, 2)
    result = simulate("whist", RANDOMS, 6, seed=0)
    for k, outcome in enumerate(result.outcomes):
        assert outcome.seats == tuple((i + k) % 3 for i in range(3))
    for entry in range(3):
        assert sorted(o.seats[entry] for o in result.outcomes[:3]) == [0, 1, 2]


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


def test_seat_rotation_puts_entry_i_at_seat_i_plus_k_in_match_k(monkeypatch: pytest.MonkeyPatch) -> None:
    current: list[tuple[str, int]] = []
    per_match: list[set[tuple[str, int]]] = []
    monkeypatch.setattr(sim, "make_bot", lambda name, game: _SeatRecorder(name, current))

    def next_match(done: int, total: int) -> None:
        per_match.append(set(current))
        current.clear()

    result = simulate("whist", ["a", "b", "c"], 4, seed=5, progress=next_match)
    assert len(per_match) == 4
    for k, seen in enumerate(per_match):
        # Each entry decided only at its rotated seat, and every entry decided at least once.
        assert seen == {("a", k % 3), ("b", (1 + k) % 3), ("c", (2 + k) % 3)}
        assert result.outcomes[k].seats == ((k % 3), (1 + k) % 3, (2 + k) % 3)


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
