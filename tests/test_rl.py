"""The learning interfaces: PettingZoo's and Gymnasium's own API tests on every game and variant, the action coding
(every legal action reachable by exactly one masked sequence of ids, perft-style), observations that depend on the
seat's view only, seeded episodes, rewards, and clear refusals."""

from __future__ import annotations

import functools
import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from clubsuite.coding import Choice, Features, check_prefix_free, coding_for
from clubsuite.engine import SomeMatch, resolve
from clubsuite.errors import IllegalActionError, InvalidOptionsError
from clubsuite.rl import GYM_ID, ClubsEnv, SingleSeatEnv, env, raw_env
from clubsuite.rl.aec import MAX_HANDS
from clubsuite.rl.benchmarks import ENVS

SPECS = [
    "whist",
    "whist-1997",
    "free",
    "free(misplays=true)",
    "partnership",
    "northstar",
    "northstar(players=2)",
    "northstar(players=3)",
    "northstar(players=5)",
    "northstar(players=6)",
    "northstar-2013",
    "northstar-double",
    "northstar-wild(players=3)",
    "northstar-crazy(players=5)",
    "northstar-teams",
    "northstar(players=6,teams=3x2)",
    "northstar(players=6,teams=2x3)",
]


@pytest.mark.long
@pytest.mark.parametrize("spec", SPECS)
def test_every_game_passes_pettingzoo_api_test_and_seed_test(spec: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo advises a plain array observation; a dict with an action mask is its own documented shape.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(env(spec), num_cycles=2000)
        seed_test(functools.partial(env, spec), num_cycles=300)


@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar(players=3)", "northstar-teams"])
def test_the_single_seat_environment_passes_gymnasiums_check_env(spec: str) -> None:
    check_env(SingleSeatEnv(spec, opponents="heuristic"), skip_render_check=True)
    made = gymnasium.make(GYM_ID, spec=spec, opponents="easy", seat=None, render_mode="ansi")
    check_env(made.unwrapped)


def _random_positions(spec: str, seed: int, count: int) -> list[SomeMatch]:
    """``count`` positions of one random match (clones), taken at random decisions."""
    info, options = resolve(spec)
    rng = random.Random(seed)
    match = info.new_match(options, 0)
    found: list[SomeMatch] = []
    while len(found) < count and not match.is_over:
        if match.to_act is None:
            match.deal(rng)
            continue
        if rng.random() < 0.15:
            found.append(match.clone())
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    return found


def _spelled(choice: Choice) -> list[object]:
    """Every action the masks let a learner spell, by depth-first search over the allowed ids."""
    out: list[object] = []
    for action_id in choice.allowed():
        step = choice.copy()
        done = step.pick(action_id)
        out.extend([done] if done is not None else _spelled(step))
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_every_legal_action_is_spelled_by_exactly_one_masked_sequence_of_ids(spec: str) -> None:
    info, options = resolve(spec)
    coding = coding_for(info, options)
    for match in _random_positions(spec, 7, 6):
        legal = list(match.legal_actions())
        sequences = [coding.tokens(a) for a in legal]
        check_prefix_free(sequences)
        assert all(0 <= t < coding.action_count for seq in sequences for t in seq)
        spelled = _spelled(Choice(legal, coding.tokens))
        assert len(spelled) == len(legal)
        assert {coding.tokens(a) for a in spelled} == set(sequences)


@pytest.mark.parametrize("spec", SPECS)
def test_an_observation_depends_only_on_what_the_seat_may_know(spec: str) -> None:
    """Redrawing every card a seat cannot see (``determinize``) leaves its observation as it was: no hidden card
    reaches the vector."""
    info, options = resolve(spec)
    coding = coding_for(info, options)
    rng = random.Random(3)
    for match in _random_positions(spec, 11, 4):
        for seat in range(match.n_seats):
            real, other = Features(coding.layout), Features(coding.layout)
            coding.observe(match.view(seat), real)
            coding.observe(match.determinize(seat, rng).view(seat), other)
            assert np.array_equal(real.vector, other.vector), f"seat {seat}"


def _play_out(e: ClubsEnv, seed: int) -> dict[str, float]:
    """Play one episode with random legal ids; the total reward of every agent."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        allowed = np.flatnonzero(e.action_mask(agent))
        e.step(int(allowed[rng.randrange(len(allowed))]))
    return totals


@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar-teams"])
def test_a_win_rewards_every_winner_1_and_every_other_seat_minus_1(spec: str) -> None:
    e = raw_env(spec)
    totals = _play_out(e, 5)
    assert e.match is not None and e.match.is_over
    winners = set(e.match.winners)
    expected = {a: (0.0 if e.match.draw else 1.0 if s in winners else -1.0) for s, a in enumerate(e.possible_agents)}
    assert totals == expected


@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar(players=3)"])
def test_points_rewards_add_up_to_the_match_totals(spec: str) -> None:
    e = raw_env(spec, reward="points")
    totals = _play_out(e, 9)
    assert e.match is not None
    assert [totals[a] for a in e.possible_agents] == [float(t) for t in e.match.totals]


def test_a_match_past_max_hands_is_truncated_without_reward() -> None:
    e = raw_env("whist", max_hands=1)
    totals = _play_out(e, 2)
    assert e.match is not None and len(e.match.hands) == 1
    assert totals == dict.fromkeys(e.possible_agents, 0.0)


@pytest.mark.parametrize("env_id", ["clubs_free-v1", "clubs_partnership-v1", "clubs_northstar-4p-v1"])
def test_a_benchmark_id_of_one_hand_deals_gives_its_rules_one_hand_an_episode_and_its_points(env_id: str) -> None:
    """What the benchmark scores is what the environment of its id rewards (docs/benchmark.md): one hand, its
    points."""
    e = raw_env(env_id)
    bench = ENVS[env_id]
    assert (e.spec_text, e.reward_scheme, e.max_hands) == (bench.spec, "points", 1)
    totals = _play_out(e, 3)
    assert e.match is not None and len(e.match.hands) == 1
    assert [totals[a] for a in e.possible_agents] == [float(t) for t in e.match.totals]
    assert coding_for(*resolve(bench.spec)).action_count == e.coding.action_count  # the same ids as the spec's


def test_a_benchmark_id_of_whole_matches_gives_whole_matches_rewarded_by_who_wins() -> None:
    e = raw_env("clubs_whist-v1")
    assert (e.spec_text, e.reward_scheme, e.max_hands) == ("whist", "win", MAX_HANDS)
    totals = _play_out(e, 4)
    assert e.match is not None and e.match.is_over
    assert sorted(totals.values()) in ([-1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0])


def test_a_benchmark_id_takes_other_settings_where_given_and_every_interface_takes_ids() -> None:
    custom = raw_env("clubs_free-v1", reward="win", max_hands=5)
    assert (custom.spec_text, custom.reward_scheme, custom.max_hands) == ("free", "win", 5)
    learner = gymnasium.make(GYM_ID, spec="clubs_northstar-4p-v1", opponents="heuristic")
    obs, _ = learner.reset(seed=1)
    done, steps = False, 0
    while not done:
        obs, _, terminated, truncated, _ = learner.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done, steps = terminated or truncated, steps + 1
    assert learner.unwrapped.game.match is not None and len(learner.unwrapped.game.match.hands) == 1
    tables = gymnasium.make_vec(GYM_ID, num_envs=3, spec="clubs_partnership-v1")
    assert (tables.unwrapped.reward_scheme, tables.unwrapped.max_hands) == ("points", 1)
    tables.close()
    for name in ("clubs_free-v9", "clubs_whist"):
        with pytest.raises(InvalidOptionsError, match=f"{name}: not a benchmark environment; the ids are: clubs_"):
            raw_env(name)


def test_the_same_seed_replays_the_episode_and_another_seed_does_not() -> None:
    def trace(seed: int) -> list[int]:
        e = raw_env("free")
        e.reset(seed=seed)
        out = []
        for agent in e.agent_iter(max_iter=200):
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            allowed = np.flatnonzero(e.action_mask(agent))
            out.append(int(allowed[0]))
            e.step(out[-1])
        return out

    assert trace(1) == trace(1)
    assert trace(1) != trace(2)


def test_an_id_the_mask_refuses_is_refused_and_changes_nothing() -> None:
    e = raw_env("partnership")
    e.reset(seed=4)
    agent = e.agent_selection
    before = e.observe(agent)
    refused = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action id {refused} continues no legal action"):
        e.step(refused)
    after = e.observe(agent)
    assert e.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_the_wrapped_environment_ends_the_episode_on_an_illegal_id_with_minus_1() -> None:
    e = env("whist")
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_a_learner_plays_whole_episodes_against_bots_from_any_seat() -> None:
    learner = SingleSeatEnv("partnership", opponents="heuristic", seat=None)
    seats = set()
    for seed in range(4):
        obs, info = learner.reset(seed=seed)
        seats.add(info["seat"])
        done = False
        while not done:
            allowed = np.flatnonzero(obs["action_mask"])
            assert len(allowed) > 0
            obs, reward, terminated, truncated, _ = learner.step(allowed[-1])
            done = terminated or truncated
        assert reward in (-1.0, 1.0)
    assert len(seats) > 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"reward": "money"}, "reward='money'"),
        ({"max_hands": 0}, "max_hands=0"),
        ({"render_mode": "human"}, "render_mode='human'"),
    ],
)
def test_bad_environment_settings_are_refused_naming_the_setting(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        raw_env("whist", **kwargs)  # type: ignore[arg-type]


def test_bad_opponents_or_seat_are_refused_naming_them() -> None:
    with pytest.raises(InvalidOptionsError, match="one bot for every other seat"):
        SingleSeatEnv("whist", opponents="random,random,random")
    with pytest.raises(InvalidOptionsError, match="seats 0 to 3"):
        SingleSeatEnv("partnership", seat=4)
    with pytest.raises(InvalidOptionsError, match="nonsense"):
        SingleSeatEnv("whist", opponents="nonsense")


def test_docs_rl_lists_every_slot_and_action_id_as_the_code_has_them() -> None:
    from pathlib import Path

    from clubsuite.rl.reference import BEGIN, END, reference_markdown

    page = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    generated = page[page.index(BEGIN) : page.index(END) + len(END)] + "\n"
    assert generated == reference_markdown(), "docs/rl.md is stale: python -m clubsuite.rl.reference"
