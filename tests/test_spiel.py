"""The games in OpenSpiel: OpenSpiel's own ``random_sim_test`` on every game and variant, information states kept by
``resample_from_infostate`` (the game's exact sampler), and OpenSpiel's IS-MCTS bot playing the games."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from bench_helpers import load, run_json
from clubsuite.rl.spiel import REGISTERED, ScriptedRandom
from clubsuite.seeding import shuffled

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""

GAMES = [
    "clubs_whist(max_hands=2)",
    "clubs_whist(lead_after_exchange=left_of_last_exchanger,max_hands=2)",
    "clubs_free(max_hands=2)",
    "clubs_free(misplays=true,max_hands=1)",
    "clubs_partnership(max_hands=2)",
    "clubs_northstar(players=2,max_hands=2)",
    "clubs_northstar(max_hands=2)",
    "clubs_northstar(players=3,wild_fifteens=true,max_hands=2)",
    "clubs_northstar(players=5,double_or_nothing=true,max_hands=1)",
    "clubs_northstar(players=6,teams=3x2,max_hands=1)",
]


def test_every_game_is_registered_with_openspiel() -> None:
    assert set(REGISTERED) <= set(pyspiel.registered_names())
    assert {"clubs_whist", "clubs_free", "clubs_partnership", "clubs_northstar"} <= set(REGISTERED)


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_openspiels_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_whole_match_is_played_to_its_end_with_returns_only_at_the_end() -> None:
    game = pyspiel.load_game("clubs_whist")
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0, 0.0]
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    match = state.table.match
    assert match.is_over
    assert state.returns() == [0.0] * 3 if match.draw else [1.0 if s in match.winners else -1.0 for s in range(3)]


def test_the_chance_swaps_rebuild_exactly_the_shuffle_they_choose() -> None:
    rng = np.random.RandomState(1)
    for n in (2, 18, 52, 60):
        swaps = [int(rng.randint(i + 1)) for i in range(n - 1, 0, -1)]
        scripted = ScriptedRandom([(j + 0.5) / (i + 1) for j, i in zip(swaps, range(n - 1, 0, -1), strict=True)])
        order = list(range(n))
        for i, j in zip(range(n - 1, 0, -1), swaps, strict=True):
            order[i], order[j] = order[j], order[i]
        assert shuffled(n, scripted) == order
        assert scripted.unused == 0


@pytest.mark.parametrize("name", GAMES[::2])
def test_a_resampled_state_keeps_the_players_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(0)
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 25:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.current_player() == state.current_player()
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == 25


@pytest.mark.long
@pytest.mark.parametrize("name", ["clubs_whist(max_hands=2)", "clubs_partnership(max_hands=1)", GAMES[7]])
def test_openspiels_ismcts_bot_plays_the_games_through_the_exact_sampler(name: str) -> None:
    game = pyspiel.load_game(name)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(2),
    )
    resampling = np.random.RandomState(3)
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, resampling.uniform))
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 12:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        steps += 1
    assert steps == 12


def test_bad_parameters_are_refused_naming_them() -> None:
    with pytest.raises(Exception, match="max_hands=0"):
        pyspiel.load_game("clubs_whist(max_hands=0)")
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("clubs_northstar(players=9)")


def _comparison_script(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``bench/vs_openspiel.py`` as a module (registered by name, so that spawned workers can unpickle its tasks)."""
    # a placeholder first, so that the test's end removes the name again (the load replaces it)
    monkeypatch.setitem(sys.modules, "vs_openspiel", types.ModuleType("vs_openspiel"))
    return load("vs_openspiel", register=True)


def _run_comparison(module: Any, args: list[str]) -> dict[str, Any]:
    return run_json(module, args)


WHIST_SHORT, PARTNERSHIP_SHORT = "whist(target=1)", "partnership(target=20)"
"""Games of short matches for the comparison's tests (they check its mechanics, not the bots)."""


@pytest.mark.long
def test_the_openspiel_comparison_plays_every_deal_in_every_seating_with_the_same_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bench/vs_openspiel.py`` at a tiny size, so that it cannot rot (its figures are read from ``make bench``):
    duplicate deals in every seating, paired intervals, CPU time per move for both sides."""
    module = _comparison_script(monkeypatch)
    matchups = "ours:ismcts-random,heuristic:ismcts-fair"
    # Short matches: IS-MCTS's random rollouts run to the end of the match (the script's design), and this checks
    # the script's mechanics, not the bots.
    games = f"{WHIST_SHORT},{PARTNERSHIP_SHORT}"
    report = _run_comparison(module, ["--ms", "1", "--deals", "2", "--games", games, "--matchups", matchups, "--json"])
    assert report["method"]["ours"] == "pimc(samples=10000,cpu=1)"
    assert set(report["method"]["openspiel"]) == {"ismcts-random", "ismcts-fair"}
    assert report["method"]["openspiel"]["ismcts-fair"]["uct_c"] == 0.7
    results = report["results"]
    assert [(r["game"], r["matchup"]) for r in results] == [
        (WHIST_SHORT, "ours:ismcts-random"),
        (WHIST_SHORT, "heuristic:ismcts-fair"),
        (PARTNERSHIP_SHORT, "ours:ismcts-random"),
        (PARTNERSHIP_SHORT, "heuristic:ismcts-fair"),
    ]
    seatings = {WHIST_SHORT: 6, PARTNERSHIP_SHORT: 2}
    for r in results:
        n = seatings[r["game"]]
        assert r["deals"] == 2 and r["seatings"] == n and r["plays"] == 2 * n
        fingerprints = []
        for deal in r["per_deal"]:
            lineups = {tuple(p["lineup"]) for p in deal["plays"]}
            assert len(deal["plays"]) == len(lineups) == n  # every seating of the cycle, once
            assert all(lineup.count("ours") and lineup.count("theirs") for lineup in lineups)
            prints = {p["fingerprint"] for p in deal["plays"]}
            assert len(prints) == 1  # the same cards in every seating
            fingerprints += prints
            assert all(0 <= v <= 1 for p in deal["plays"] for v in p["values"])
        assert fingerprints[0] != fingerprints[1]  # and other cards in the next deal
        for figure in ("win_chance_points", "points_per_hand"):
            f = r["difference"][figure]
            assert f["low"] <= f["mean"] <= f["high"]
        mean = sum(d["win_chance_difference"] for d in r["per_deal"]) / 2
        assert abs(r["difference"]["win_chance_points"]["mean"] - mean) < 1e-9
        for side in ("ours", "theirs"):
            assert r[side]["moves"] > 0 and r[side]["cpu_ms_per_move"] > 0
            assert 0 <= r[side]["win_chance"] <= 100
        assert r["theirs"]["simulations_per_move"] >= 2
    # the same deals for every match-up of a game, and the searching bots counted
    assert results[0]["per_deal"][0]["plays"][0]["fingerprint"] == results[1]["per_deal"][0]["plays"][0]["fingerprint"]
    assert results[0]["ours"]["simulations_per_move"] >= 1 and results[1]["ours"]["simulations_per_move"] is None


@pytest.mark.long
def test_the_openspiel_comparison_deals_the_same_cards_over_several_workers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same deals whatever the number of processes; with several, each deal is saved (``--save``) by the
    process that waits on the workers as soon as it is finished."""
    import json

    module = _comparison_script(monkeypatch)
    args = ["--ms", "1", "--deals", "2", "--games", WHIST_SHORT, "--matchups", "heuristic:ismcts-fair", "--json"]
    alone = _run_comparison(module, [*args, "--workers", "1"])
    save = tmp_path / "deals.jsonl"
    shared = _run_comparison(module, [*args, "--workers", "2", "--save", str(save)])
    assert sorted(json.loads(line)["deal"]["deal"] for line in save.read_text().splitlines()) == [0, 1]

    def dealt(report: dict[str, Any]) -> list[list[tuple[str, tuple[str, ...]]]]:
        return [
            [(p["fingerprint"], tuple(p["lineup"])) for p in d["plays"]]
            for r in report["results"]
            for d in r["per_deal"]
        ]

    assert dealt(alone) == dealt(shared)


def test_the_openspiel_comparison_resumes_from_its_saved_deals(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--save``: a long run stopped after some deals goes on from the file and plays only the deals missing, so
    that the figures of a run done in parts are those of one run; a deal saved with another budget does not count."""
    import json

    module = _comparison_script(monkeypatch)
    save = tmp_path / "deals.jsonl"
    args = ["--ms", "1", "--games", WHIST_SHORT, "--matchups", "heuristic:ismcts-fair", "--json", "--save", str(save)]
    first = _run_comparison(module, [*args, "--deals", "1"])
    assert len(save.read_text().splitlines()) == 1
    resumed = _run_comparison(module, [*args, "--deals", "2"])
    assert len(save.read_text().splitlines()) == 2  # only the second deal was played
    assert resumed["results"][0]["per_deal"][0] == first["results"][0]["per_deal"][0]  # taken, not played again
    assert [d["deal"] for d in resumed["results"][0]["per_deal"]] == [0, 1]
    _run_comparison(module, [*args, "--deals", "1", "--ms", "2"])
    keys = [json.loads(line)["key"] for line in save.read_text().splitlines()]
    assert len(keys) == 3 and json.loads(keys[2])["ms"] == 2  # another budget: played afresh
    assert all(json.loads(line)["commit"] for line in save.read_text().splitlines())
    assert resumed["results"][0]["commits"]  # the code that played the deals, named
    # a run killed while writing its last deal: that deal is dropped and played again
    lines = save.read_text().splitlines()
    save.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])
    again = _run_comparison(module, [*args, "--deals", "2"])
    assert again["results"][0]["per_deal"] == resumed["results"][0]["per_deal"]
    assert len(save.read_text().splitlines()) == 2
    save.write_text("not json\n")
    with pytest.raises(SystemExit):
        module.main([*args, "--deals", "1"])
    with pytest.raises(SystemExit):  # refused before any deal is played
        module.main([*args, "--deals", "1", "--save", str(tmp_path / "no-such-folder" / "deals.jsonl")])


def test_the_comparison_plays_two_of_this_projects_bots_on_the_same_duplicate_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A match-up ``A:B`` of two of this project's bot specs (how a new level is measured against ``expert``): both
    sides are this project's bots with their own budgets, on the deals of the OpenSpiel match-ups, every seating of
    the cycle, each side's CPU a decision reported; a bad spec is refused before anything is played."""
    module = _comparison_script(monkeypatch)
    args = ["--deals", "1", "--games", WHIST_SHORT, "--json"]
    report = _run_comparison(module, [*args, "--matchups", "pimc(samples=2,settle=200,least=2):heuristic"])
    (result,) = report["results"]
    assert (result["ours_bot"], result["theirs_bot"]) == ("pimc(samples=2,settle=200,least=2)", "heuristic")
    assert result["theirs_settings"] is None and result["seatings"] == 6
    assert result["ours"]["simulations_per_move"] >= 1 and result["theirs"]["simulations_per_move"] is None
    assert result["ours"]["moves"] > 0 and result["theirs"]["moves"] > 0
    control = _run_comparison(module, [*args, "--ms", "1", "--matchups", "heuristic:ismcts-fair"])
    assert (
        result["per_deal"][0]["plays"][0]["fingerprint"]
        == control["results"][0]["per_deal"][0]["plays"][0]["fingerprint"]
    )
    with pytest.raises(SystemExit):
        module.main([*args, "--matchups", "pimc(samples=0):heuristic"])
