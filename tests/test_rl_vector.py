"""The vector environment (``clubsuite.rl.vector``): many tables of one learner against bots, stepped together.

The compiled tables (each game's ``vector.h``) are held to the engine's path step by step: every observation, mask,
reward, end and seat, over whole episodes with both readings of CW-3, the partnership game's passes spelled id by
id, both readings of Free Clubs' no-spades bonus (FC-8), North Star's plays spelled card by card for 2 to 6 players
with wild 15s, Crazy CLUBS, teams, double or nothing and both readings of the kept pack (NS-6), fixed and drawn
seats, both reward schemes, truncation, random, heuristic and learned opponents (the network evaluated in the kernel:
the learned bot's choices, its stand-in where no policy reads the table), and ids the mask does not allow. The
engine's path is held to :func:`clubsuite.runner.play_match` (an episode is the match of its seed) and to the
PettingZoo environment's observation; every game runs on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from clubsuite.bots import RandomBot
from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.whist.bulk import CORE
from clubsuite.rl.aec import ClubsEnv
from clubsuite.rl.vector import ClubsVectorEnv
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed
from native_helpers import kernel_or_skip

Batch = dict[str, Any]


def _random_ids(obs: Batch, rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A random allowed id per table (0 where nothing is allowed: a table about to be reset)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in obs["action_mask"]])


def _assert_same(a: Batch, b: Batch, where: str) -> None:
    for key in ("observation", "action_mask"):
        differ = np.argwhere(a[key] != b[key])
        assert differ.size == 0, f"{where}: {key} differs at (table, entry) {differ[:5].tolist()}"


LEFT_OF_LAST = "whist(lead_after_exchange=left_of_last_exchanger,target=5)"
"""CW-3's other reading, in short matches."""
FREE_NO_SPADES = "free(no_spades_needs_a_trick=true,target=40)"
"""FC-8's other reading, in short matches."""
TEAMS_DOUBLE = "northstar(players=6,teams=3x2,double_or_nothing=true)"
"""North Star's three teams of two (NS-10) with double or nothing (NS-8)."""
MIXED_FIVE = "heuristic,random,heuristic,random,heuristic"
CASES = {
    "random-fixed-seat-win": ("whist", "random", 0, "win", 500, 0, 540),
    "random-drawn-seat-points-truncated": ("whist", "random", None, "points", 3, 0, 540),
    "heuristic-1997-seat-2": ("whist-1997(target=3)", "heuristic", 2, "win", 500, 0, 180),
    "mixed-left-of-last-exchanger": (LEFT_OF_LAST, "heuristic,random", None, "points", 500, 0, 180),
    "illegal-ids": ("whist", "random", 1, "win", 500, 37, 540),
    "partnership-random-seat-0": ("partnership(target=40)", "random", 0, "win", 500, 0, 420),
    "partnership-mixed-points-illegal": ("partnership", "heuristic,random,heuristic", None, "points", 2, 23, 300),
    "free-random-fixed-seat-win": ("free(target=60)", "random", 0, "win", 500, 0, 420),
    "free-heuristic-drawn-seat-points-truncated": ("free", "heuristic", None, "points", 2, 0, 300),
    "free-mixed-no-spades-illegal": (FREE_NO_SPADES, "random,heuristic", 1, "win", 500, 19, 360),
    "northstar-random-drawn-seat-points": ("northstar", "random", None, "points", 500, 0, 360),
    "northstar-wild-heuristic-seat-1-illegal": ("northstar-wild(players=4)", "heuristic", 1, "win", 500, 29, 360),
    "northstar-teams-double-mixed-truncated": (TEAMS_DOUBLE, MIXED_FIVE, None, "win", 2, 0, 360),
    "northstar-crazy-duel-points": ("northstar-crazy(players=2)", "heuristic", None, "points", 500, 0, 300),
    "northstar-2013-five-seat-4": ("northstar-2013(players=5)", "heuristic", 4, "win", 500, 0, 300),
    "learned-whist-drawn-seat": ("whist", "learned", None, "win", 500, 0, 360),
    "learned-northstar-4p-points": ("northstar(players=4)", "learned", None, "points", 500, 0, 300),
    "learned-partnership-mixed-illegal": ("partnership", "learned,random,heuristic", 1, "win", 500, 31, 300),
    "learned-free-points-truncated": ("free", "learned", 0, "points", 3, 0, 300),
    "learned-northstar-3p-no-policy-stands-in": ("northstar(players=3)", "learned", 0, "win", 500, 0, 200),
}
"""Settings (spec, opponents, seat, reward, max_hands, an illegal id every so many steps at table 0, steps). The
tables' seeds and the ids chosen are drawn from the run's seed (``fresh_seed``): many runs cover more steps than one
long one."""


@pytest.mark.long
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_compiled_tables_agree_with_the_engine_at_every_step(case: str, fresh_seed: int) -> None:
    """The rules (CW-1..CW-5, CP-1..CP-4, the pass spelled id by id, FC-1..FC-9, NS-1..NS-11, a play spelled id by
    id) and the observation of each game's rl.py in its vector.h: both paths from the same seeds and the same ids."""
    spec, opponents, seat, reward, max_hands, bad_every, steps = CASES[case]
    kernel_or_skip(f"clubsuite.games.{spec.split('(')[0].split('-')[0]}._core")
    compiled = ClubsVectorEnv(spec, 5, opponents, seat, reward, max_hands)
    engine = ClubsVectorEnv(spec, 5, opponents, seat, reward, max_hands, engine=True)
    assert compiled.compiled and not engine.compiled
    obs, info = compiled.reset(seed=fresh_seed)
    twin, twin_info = engine.reset(seed=fresh_seed)
    _assert_same(obs, twin, "reset")
    assert (info["seat"] == twin_info["seat"]).all()
    rng = np.random.default_rng([fresh_seed, len(case)])
    ends = illegal = 0
    for step in range(steps):
        ids = _random_ids(obs, rng)
        if bad_every and step % bad_every == 0:
            ids[0] = 54 if step % 2 else int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
        obs, rewards, terminated, truncated, info = compiled.step(ids)
        twin, twin_rewards, twin_terminated, twin_truncated, twin_info = engine.step(ids)
        _assert_same(obs, twin, f"step {step}")
        assert rewards.tolist() == twin_rewards.tolist(), f"step {step}: rewards"
        assert terminated.tolist() == twin_terminated.tolist() and truncated.tolist() == twin_truncated.tolist()
        assert info["seat"].tolist() == twin_info["seat"].tolist()
        assert ("illegal_action" in info) == ("illegal_action" in twin_info)
        ends += int(terminated.sum() + truncated.sum())
        illegal += int(info.get("_illegal_action", np.zeros(1)).sum())
    assert ends >= 5  # whole episodes were compared, autoresets included
    assert illegal > 0 if bad_every else illegal == 0


def test_an_episode_is_the_match_of_its_seed_as_play_match_plays_it() -> None:
    """Episode k of table i: the match of seed derive_seed(seed + i, k), dealt and played as the runner does, the
    bots drawing from the match's one generator and the learner's choices drawing nothing."""

    class Lowest:
        """A learner that always takes the lowest allowed id's action (draws nothing)."""

        def choose(self, view: object, legal: Any, rng: object) -> object:
            return legal[0]

    for spec in ("whist", "partnership", "northstar(players=4)"):
        env = ClubsVectorEnv(spec, 2, "random", 1, engine=True)
        env.reset(seed=40)
        first_episode: dict[int, tuple[int, ...]] = {}
        for _ in range(20_000):
            ids = [  # the next id of the first legal action's spelling
                0 if t.choice is None else t.coding.tokens(t.match.legal_actions()[0])[len(t.choice.picked)]
                for t in env._tables.engine
            ]
            _, _, terminated, _, _ = env.step(np.array(ids))
            for i in np.flatnonzero(terminated):
                first_episode.setdefault(int(i), tuple(env._tables.engine[i].match.totals))
            if len(first_episode) == 2:
                break
        info, options = resolve(spec)
        for i, base in enumerate((40, 41)):
            match = info.new_match(options, 0)
            bots: list[Any] = [RandomBot()] * info.n_seats(options)
            bots[1] = Lowest()
            play_match(match, bots, derive_seed(base, 0))
            assert first_episode[i] == tuple(match.totals), (spec, i)


def test_the_engine_path_observes_as_the_pettingzoo_environment_does() -> None:
    env = ClubsVectorEnv("partnership", 3, "random", None, engine=True)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    aec = ClubsEnv("partnership")
    for _ in range(200):
        for i, table in enumerate(env._tables.engine):
            if table.choice is None:
                continue
            aec.match, aec._choice = table.match, table.choice
            aec.agent_selection = aec.possible_agents[table.learner]
            aec.terminations = aec.truncations = dict.fromkeys(aec.possible_agents, False)
            seen = aec.observe(aec.agent_selection)
            assert (seen["observation"] == obs["observation"][i]).all()
            assert (seen["action_mask"] == obs["action_mask"][i]).all()
        obs, *_ = env.step(_random_ids(obs, rng))


@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar(players=5)", "northstar-wild(players=3)"])
def test_every_game_steps_in_batches_within_its_spaces(spec: str) -> None:
    env = ClubsVectorEnv(spec, 3, "random", None)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and info["seat"].shape == (3,)
    rng = np.random.default_rng(3)
    for _ in range(300):
        obs, rewards, terminated, truncated, _ = env.step(_random_ids(obs, rng))
        assert env.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (3,)
        ended = terminated | truncated
        assert (obs["action_mask"][~ended].sum(axis=1) > 0).all()  # a table in play always offers an id


def test_a_table_that_ended_starts_its_next_episode_at_the_next_step_ignoring_the_action() -> None:
    env = ClubsVectorEnv("whist(target=1)", 2, "random", 0)
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(2000):
        obs, _, terminated, truncated, _ = env.step(_random_ids(obs, rng))
        if terminated[0]:
            break
    assert terminated[0] and not obs["action_mask"][0].any()
    obs, rewards, terminated, truncated, info = env.step(np.array([99, 0]))  # 99 is no id: ignored
    assert rewards[0] == 0 and not terminated[0] and not truncated[0] and "illegal_action" not in info
    assert obs["action_mask"][0].any()


def test_an_id_the_mask_refuses_ends_the_episode_with_minus_1() -> None:
    env = ClubsVectorEnv("whist", 2, "random", 0)
    obs, _ = env.reset(seed=9)
    refused = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    allowed = int(np.flatnonzero(obs["action_mask"][1])[0])
    obs, rewards, terminated, _, info = env.step(np.array([refused, allowed]))
    assert rewards.tolist()[0] == -1.0 and terminated.tolist() == [True, False]
    assert info["illegal_action"].tolist() == [refused, -1]


def test_the_pure_python_setting_takes_the_engines_path(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel_or_skip(CORE)
    kernel_or_skip("clubsuite.games.partnership._core")
    kernel_or_skip("clubsuite.games.free._core")
    kernel_or_skip("clubsuite.games.northstar._core")
    assert ClubsVectorEnv("whist", 1).compiled and ClubsVectorEnv("partnership", 1).compiled
    assert ClubsVectorEnv("free", 1).compiled and ClubsVectorEnv("northstar-crazy(players=6)", 1).compiled
    assert not ClubsVectorEnv("free(misplays=true)", 1).compiled  # FC-10's table mode: the engine's alone
    assert not ClubsVectorEnv("whist", 1, "easy").compiled  # a bot the kernel does not have
    assert (
        ClubsVectorEnv("whist", 1, "learned").compiled and ClubsVectorEnv("northstar(players=4)", 1, "learned").compiled
    )
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert not ClubsVectorEnv("whist", 1).compiled and not ClubsVectorEnv("free", 1).compiled
    assert not ClubsVectorEnv("northstar", 1).compiled


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "num_envs=0"),
        ({"num_envs": 2**21}, "num_envs=2097152"),
        ({"seat": 3}, "seat=3"),
        ({"opponents": "random,random,random"}, "opponents='random,random,random'"),
        ({"opponents": "wizard"}, "wizard"),
        ({"reward": "cash"}, "reward='cash'"),
        ({"max_hands": 0}, "max_hands=0"),
        ({"spec": "whist(target=-1)"}, "target"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message.replace("(", r"\(").replace("*", r"\*")):
        ClubsVectorEnv(**{"spec": "whist", **kwargs})


def test_bad_steps_and_seeds_are_refused_naming_them() -> None:
    env = ClubsVectorEnv("whist", 2)
    with pytest.raises(InvalidOptionsError, match="reset before"):
        env.step(np.array([0, 0]))
    with pytest.raises(InvalidOptionsError, match="seed=-1"):
        env.reset(seed=-1)
    with pytest.raises(InvalidOptionsError, match="seed="):
        env.reset(seed=[1])
    env.reset(seed=1)
    with pytest.raises(InvalidOptionsError, match="one whole action id per table"):
        env.step(np.array([0, 0, 0]))
    with pytest.raises(InvalidOptionsError, match="one whole action id per table"):
        env.step(np.array([0.5, 1.0]))


def test_gymnasium_make_vec_gives_the_vector_environment() -> None:
    import gymnasium

    import clubsuite.rl

    made = gymnasium.make_vec(clubsuite.rl.GYM_ID, num_envs=4, spec="whist-1997", opponents="random", seat=None)
    assert isinstance(made, ClubsVectorEnv) and made.num_envs == 4
    obs, info = made.reset(seed=2)
    assert obs["observation"].shape == (4, made.layout.size) and info["seat"].shape == (4,)


def test_privileged_information_is_off_by_default_and_never_in_the_compiled_path() -> None:
    env = ClubsVectorEnv("whist", num_envs=2)
    _, info = env.reset(seed=3)
    _, _, _, _, stepped = env.step(np.argmax(env._tables.mask, axis=1))
    assert "privileged" not in info and "privileged" not in stepped
    assert ClubsVectorEnv("whist", num_envs=2, privileged=True).compiled is False


@pytest.mark.long
@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar(players=3)"])
def test_privileged_information_is_every_hand_and_the_solvers_values_of_the_learners_legal_cards(spec: str) -> None:
    from clubsuite.cards import bit_indices
    from clubsuite.solver import card_values

    # A small node limit: the early decisions of a hand pass it at once (their values left unknown) and the later
    # ones are solved, so the values are still checked at many decisions without searching whole deals.
    env = ClubsVectorEnv(spec, num_envs=2, privileged=True, opponents="random", privileged_nodes=1_000)
    batch, info = env.reset(seed=11)
    valued = 0
    for _ in range(60):
        extra = info["privileged"]
        assert info["_privileged"].all()
        for i, table in enumerate(env._tables.engine):
            held = table.match.hands[-1].hands
            expected = np.zeros_like(extra["hands"][i])
            for seat, mask in enumerate(held):
                for index in bit_indices(int(mask)):
                    expected[seat, env.layout.position[index]] = 1
            assert (extra["hands"][i] == expected).all()
            own = batch["observation"][i][env.layout.offsets["hand"] : env.layout.offsets["hand"] + expected.shape[1]]
            assert (extra["hands"][i][table.learner] == (own > 0)).all()  # what the learner's own slot says
            values = extra["card_values"][i]
            known = ~np.isnan(values)
            if known.any():
                valued += 1
                solver = {table.match.format_action(c): v for c, v in card_values(table.match).items()}
                named = {env.coding.action_names[int(k)]: float(values[k]) for k in np.flatnonzero(known)}
                assert named == solver  # each card's value under the id that names it
                assert set(np.flatnonzero(known)) <= set(np.flatnonzero(batch["action_mask"][i]))
        ids = [int(np.flatnonzero(m)[0]) for m in batch["action_mask"]]
        batch, _, _, _, info = env.step(np.array(ids))
    assert (valued > 0) == (spec != "northstar(players=3)")  # a trick game's solver, none for the climbing game
