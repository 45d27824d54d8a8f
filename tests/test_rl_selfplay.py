"""Self-play (``clubsuite.rl.selfplay``): many tables, several seats at each played from outside, stepped together.

The compiled tables (each game's ``vector.h``) are held to the engine's path step by step: every observation, mask,
seat to act, reward of every seat, end and illegal id, over whole episodes with every seat a learner, teams (North
Star's partners, NS-10; the partnership game's, CP-4) against bots, learned opponents, both reward schemes and
truncation. An episode with every seat played from outside is the match of its seed as the runner plays it, and the
match's result reaches every seat at once (CW-5, FC-9, NS-7, CP-4).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from clubsuite.bots.base import make_bot
from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.selfplay import SelfPlayVectorEnv
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed
from native_helpers import kernel_or_skip

Batch = dict[str, Any]


def _random_ids(obs: Batch, rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A random allowed id per table (0 where nothing is allowed: a table about to be reset)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in obs["action_mask"]])


CASES: dict[str, tuple[str, list[int] | None, str, str | None, int | None, int, int]] = {
    "whist-every-seat": ("whist(target=5)", None, "heuristic", None, None, 0, 500),
    "whist-benchmark-every-seat-illegal": ("clubs_whist-v1", None, "heuristic", None, None, 41, 400),
    "whist-one-seat-learned-and-random": ("whist", [2], "random,learned", "points", 4, 0, 400),
    "northstar-4p-every-seat": ("clubs_northstar-4p-v1", None, "heuristic", None, None, 0, 500),
    "northstar-teams-against-heuristic-points-truncated": (
        "northstar(players=4,teams=2x2)",
        [0, 2],
        "heuristic",
        "points",
        2,
        0,
        500,
    ),
    "northstar-wild-six-every-seat": ("northstar-wild(players=6)", None, "random", None, 3, 37, 400),
    "partnership-team-against-learned": ("partnership(target=40)", [0, 2], "learned", None, None, 0, 500),
    "free-two-seats-against-learned-points": ("free", [0, 1], "learned", "points", 3, 29, 400),
}
"""Settings (spec, seats played from outside, opponents, reward, max_hands, an id the mask refuses every so many
steps at table 0, steps); the tables' seeds and the ids chosen are drawn from the run's seed."""


@pytest.mark.long
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_compiled_self_play_tables_agree_with_the_engine_at_every_step(case: str, fresh_seed: int) -> None:
    spec, seats, opponents, reward, max_hands, bad_every, steps = CASES[case]
    compiled = SelfPlayVectorEnv(spec, 4, seats, opponents, reward, max_hands)
    kernel_or_skip(f"clubsuite.games.{compiled.info.name.split('-')[0]}._core")
    engine = SelfPlayVectorEnv(spec, 4, seats, opponents, reward, max_hands, engine=True)
    assert compiled.compiled and not engine.compiled
    obs, info = compiled.reset(seed=fresh_seed)
    twin, twin_info = engine.reset(seed=fresh_seed)
    rng = np.random.default_rng([fresh_seed, len(case)])
    ends = illegal = 0
    for step in range(steps):
        for key in ("observation", "action_mask"):
            differ = np.argwhere(obs[key] != twin[key])
            assert differ.size == 0, f"step {step}: {key} differs at (table, entry) {differ[:5].tolist()}"
        assert info["seat"].tolist() == twin_info["seat"].tolist(), f"step {step}: seats"
        learners = set(range(compiled.seat_count)) if seats is None else set(seats)
        assert set(info["seat"].tolist()) <= learners
        ids = _random_ids(obs, rng)
        if bad_every and step % bad_every == 0 and obs["action_mask"][0].any():
            ids[0] = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
        obs, rewards, terminated, truncated, info = compiled.step(ids)
        twin, twin_rewards, twin_terminated, twin_truncated, twin_info = engine.step(ids)
        assert rewards.shape == (4, compiled.seat_count)
        assert rewards.tolist() == twin_rewards.tolist(), f"step {step}: rewards"
        assert terminated.tolist() == twin_terminated.tolist() and truncated.tolist() == twin_truncated.tolist()
        assert ("illegal_action" in info) == ("illegal_action" in twin_info)
        ends += int(terminated.sum() + truncated.sum())
        illegal += int(info.get("_illegal_action", np.zeros(1)).sum())
    assert ends >= 4  # whole episodes were compared, autoresets included
    assert illegal > 0 if bad_every else illegal == 0


class _Lowest:
    """Plays the legal action of the lowest id sequence (draws nothing): what the test's outside seats pick."""

    def __init__(self, spec: str) -> None:
        from clubsuite.coding import coding_for

        info, options = resolve(spec)
        self.tokens = coding_for(info, options).tokens

    def choose(self, view: object, legal: Any, rng: object) -> object:
        return min(legal, key=self.tokens)


@pytest.mark.parametrize("spec", ["whist(target=4)", "northstar(players=4,target=40)", "partnership(target=30)"])
def test_an_episode_of_every_seat_played_from_outside_is_the_match_of_its_seed(spec: str) -> None:
    """Every seat picks the lowest allowed id (the lowest id sequence's action, id by id): the episode's rewards are
    the match's result for every seat, as the runner plays the match of seed derive_seed(base, 0) with that play."""
    env = SelfPlayVectorEnv(spec, 1, reward="win")
    obs, _ = env.reset(seed=77)
    total = np.zeros(env.seat_count)
    for _ in range(50_000):
        ids = np.array([int(np.flatnonzero(obs["action_mask"][0])[0])])
        obs, rewards, terminated, truncated, _ = env.step(ids)
        total += rewards[0]
        if terminated[0] or truncated[0]:
            break
    assert terminated[0]
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    play_match(match, [_Lowest(spec)] * env.seat_count, derive_seed(77, 0))
    winners = set(match.winners)
    assert total.tolist() == [0.0 if match.draw else 1.0 if s in winners else -1.0 for s in range(env.seat_count)]


def test_a_seat_that_picks_a_refused_id_alone_gets_minus_1_and_the_episode_ends() -> None:
    env = SelfPlayVectorEnv("whist", 2)
    obs, info = env.reset(seed=9)
    seat = int(info["seat"][0])
    refused = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    allowed = int(np.flatnonzero(obs["action_mask"][1])[0])
    obs, rewards, terminated, _, info = env.step(np.array([refused, allowed]))
    assert rewards[0].tolist() == [-1.0 if s == seat else 0.0 for s in range(3)]
    assert terminated.tolist() == [True, False] and info["illegal_action"].tolist() == [refused, -1]
    obs, rewards, terminated, _, info = env.step(np.array([99, int(np.flatnonzero(obs["action_mask"][1])[0])]))
    assert not terminated[0] and rewards[0].tolist() == [0.0, 0.0, 0.0] and obs["action_mask"][0].any()


def test_the_bots_play_the_seats_not_played_from_outside() -> None:
    """With seat 1 alone played from outside, every row shows seat 1 (the bots play the others in between)."""
    env = SelfPlayVectorEnv("northstar(players=3)", 3, seats=[1], opponents="random")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(300):
        assert set(info["seat"].tolist()) == {1}
        obs, _, _, _, info = env.step(_random_ids(obs, rng))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": []}, r"seats=\[\]"),
        ({"seats": [0, 0]}, r"seats=\[0, 0\]"),
        ({"seats": [3]}, r"seats=\[3\]"),
        ({"seats": [True]}, r"seats=\[True\]"),
        ({"seats": [0], "opponents": "random,random,random"}, "opponents='random,random,random'"),
        ({"seats": [0], "opponents": "wizard"}, "wizard"),
        ({"seats": [0], "opponents": "outside"}, "not a bot"),
        ({"num_envs": 0}, "num_envs=0"),
        ({"reward": "cash"}, "reward='cash'"),
        ({"max_hands": 0}, "max_hands=0"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        SelfPlayVectorEnv(**{"spec": "whist", **kwargs})


def test_bad_steps_and_seeds_are_refused_naming_them() -> None:
    env = SelfPlayVectorEnv("whist", 2)
    with pytest.raises(InvalidOptionsError, match="reset before"):
        env.step(np.array([0, 0]))
    with pytest.raises(InvalidOptionsError, match="seed=-1"):
        env.reset(seed=-1)
    env.reset(seed=1)
    with pytest.raises(InvalidOptionsError, match="one whole action id per table"):
        env.step(np.array([0]))


def test_learned_opponents_play_as_the_learned_bot_does() -> None:
    """The learned seats in the kernel choose what the engine's learned bot chooses (its network's scores the same
    bits whatever batch they are computed in): both paths, step by step, with every other seat played from
    outside."""
    make_bot("learned", "whist")  # the game has a learned bot
    env = SelfPlayVectorEnv("whist", 6, seats=[0, 1], opponents="learned")
    twin = SelfPlayVectorEnv("whist", 6, seats=[0, 1], opponents="learned", engine=True)
    kernel_or_skip("clubsuite.games.whist._core")
    obs, _ = env.reset(seed=12)
    other, _ = twin.reset(seed=12)
    rng = np.random.default_rng(12)
    for _ in range(400):
        assert (obs["observation"] == other["observation"]).all()
        ids = _random_ids(obs, rng)
        obs, rewards, *_ = env.step(ids)
        other, twin_rewards, *_ = twin.step(ids)
        assert rewards.tolist() == twin_rewards.tolist()
