"""The observation adapter (clubsuite.rl.adapter; docs/benchmark.md, "Agents"): an entry point reads a seat's view
as the learning environments' observation and the legal actions as their action ids, and plays a scoring function
as a weights file's policy plays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import bench_agents
from cli_helpers import clubs_in_process
from clubsuite.bots.policy import Policy, PolicyBot, write_policy
from clubsuite.rl import raw_env
from clubsuite.rl.adapter import Adapter
from clubsuite.rl.benchmarks import ENVS
from clubsuite.rl.opponents import positions


@pytest.mark.parametrize("env_id", ["clubs_whist-v1", "clubs_partnership-v1", "clubs_northstar-4p-v1"])
def test_the_adapter_reads_a_view_as_the_environment_observes_it_and_the_legal_actions_as_its_mask(
    env_id: str,
) -> None:
    e = raw_env(env_id)
    adapter = Adapter(ENVS[env_id].spec)
    e.reset(seed=5)
    rng = random.Random(5)
    choice = None  # the decision in progress, as the adapter takes it, one id at a time beside the environment
    for _ in range(60):
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            break
        seen = e.observe(agent)
        assert e.match is not None
        if choice is None:
            choice = adapter.choice(e.match.legal_actions())
        view = e.match.view(e.possible_agents.index(agent))
        assert np.array_equal(adapter.observation(view, choice.picked), seen["observation"])
        allowed = choice.allowed()
        assert allowed == list(np.flatnonzero(seen["action_mask"]))
        picked = allowed[rng.randrange(len(allowed))]
        e.step(picked)
        if choice.pick(picked) is not None:
            choice = None
    assert adapter.observation_size == len(seen["observation"]) and adapter.action_count == len(seen["action_mask"])
    assert adapter.spelled(e.match.legal_actions())  # every legal action spelled by ids


@pytest.mark.parametrize("env_id", ["clubs_whist-v1", "clubs_free-v1"])
def test_a_scoring_function_played_through_the_adapter_chooses_as_the_same_weights_in_a_file(
    tmp_path: Path, env_id: str
) -> None:
    env = ENVS[env_id]
    adapter = Adapter(env.spec)
    scores = bench_agents.linear_scores(adapter.observation_size, adapter.action_count)
    path = tmp_path / "linear.npz"
    weights = scores(np.eye(adapter.observation_size, dtype=np.float32))  # the matrix itself, row by row
    write_policy(path, env.id, [(weights, np.zeros(adapter.action_count, np.float32))])
    from_file = PolicyBot(Policy(path, env.id, env.spec), "file")
    from_adapter = adapter.bot(scores, name="adapted")
    for decision, match, seat in positions(env):
        legal = match.legal_actions()
        view = match.view(seat)
        assert from_adapter.choose(view, legal, random.Random(decision)) == from_file.choose(
            view, legal, random.Random(decision)
        )


@pytest.mark.long
def test_clubs_evaluate_plays_an_entry_point_built_on_the_adapter() -> None:
    done = clubs_in_process(
        [
            "evaluate",
            "bench_agents:adapted",
            "--against",
            "random",
            "--game",
            "clubs_free-v1",
            "--deals",
            "30",
            "--json",
        ]
    )
    assert done.status == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["agent"]["kind"] == "python" and data["cpu"]["agent"]["decisions"] > 0
