"""The learning baselines (``clubsuite.learning.baselines``): the gradients they step along are those of their
losses (checked against finite differences), DMC teaches every seat its own return, a run is the same from the same
seed, and a trained network is a weights file ``clubs evaluate`` plays; PPO started from a weights file starts from
its layers and leaves them alone while the value network warms up, and ``clubs learn ppo`` trains, records and
refuses bad settings by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.bots.policy import Policy, write_policy
from clubsuite.learning.baselines import Dmc, DmcSettings, Ppo, PpoSettings, backward, ppo_loss_gradient
from clubsuite.learning.network import forward, init_layers


def test_backward_gives_the_gradient_of_a_loss_of_the_outputs() -> None:
    rng = np.random.default_rng(1)
    layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in init_layers(5, 3, (4,), rng)]
    x = rng.normal(size=(6, 5))
    weights = rng.normal(size=(6, 3))

    def loss() -> float:
        return float((forward(layers, x)[0] * weights).sum())

    _, inputs = forward(layers, x)
    grads = backward(layers, inputs, weights)
    w0 = layers[0][0]
    for i, j in [(0, 0), (2, 3), (4, 1)]:
        w0[i, j] += 1e-6
        up = loss()
        w0[i, j] -= 2e-6
        down = loss()
        w0[i, j] += 1e-6
        assert grads[0][i, j] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_the_ppo_gradient_is_that_of_its_clipped_surrogate_and_entropy() -> None:
    rng = np.random.default_rng(2)
    logits = rng.normal(size=(8, 5))
    mask = rng.random((8, 5)) < 0.7
    mask[:, 0] = True
    actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in mask])
    old = np.log(np.full(8, 0.3)) + rng.normal(0, 0.4, 8)  # some ratios past the clip, some within
    adv = rng.normal(size=8)
    loss, grad = ppo_loss_gradient(logits, mask, actions, old, adv, 0.2, 0.01)
    for i, j in [(0, 0), (3, int(np.flatnonzero(mask[3])[-1])), (7, 0)]:
        bumped = logits.copy()
        bumped[i, j] += 1e-6
        up, _ = ppo_loss_gradient(bumped, mask, actions, old, adv, 0.2, 0.01)
        bumped[i, j] -= 2e-6
        down, _ = ppo_loss_gradient(bumped, mask, actions, old, adv, 0.2, 0.01)
        assert grad[i, j] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-6)
    assert (grad[~mask] == 0).all()  # an id the mask refuses gets no gradient
    assert np.isfinite(loss)


def test_dmc_teaches_every_step_of_a_seat_that_seats_return_in_its_episode() -> None:
    """In whist matches to 1 point (CW-5) the return is +1 for the seats that reached it, -1 for the others, or 0 for
    everyone in a draw: every target is one of these, and each finished episode teaches as many steps as its seats
    took."""
    learner = Dmc("whist(target=1)", 3, DmcSettings(tables=2, pool=10_000, hidden=(8,)))
    while len(learner.returns) < 3:
        learner.step()
    assert set(learner.ready_g) <= {-1.0, 0.0, 1.0} and learner.ready_g
    assert all(r in (-1.0, 0.0, 1.0) for r in learner.returns)


def _weights_after(kind: str, seed: int) -> list[Any]:
    if kind == "ppo":
        ppo = Ppo("whist(target=2)", seed, PpoSettings(tables=4, horizon=8, minibatch=16, hidden=(16,)))
        for _ in range(2):
            ppo.iteration()
        return [w.copy() for w, _ in ppo.layers()]
    dmc = Dmc("whist(target=2)", seed, DmcSettings(tables=4, batch=32, pool=64, hidden=(16,)))
    for _ in range(2):
        dmc.iteration()
    return [w.copy() for w, _ in dmc.layers()]


@pytest.mark.parametrize("kind", ["ppo", "dmc"])
def test_a_run_is_the_same_from_the_same_seed_and_another_from_another(kind: str) -> None:
    a, b, c = _weights_after(kind, 5), _weights_after(kind, 5), _weights_after(kind, 6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, z) for x, z in zip(a, c, strict=True))


def test_a_trained_network_is_a_weights_file_of_its_environment(tmp_path: Path) -> None:
    ppo = Ppo("clubs_whist-v1", 1, PpoSettings(tables=4, horizon=8, minibatch=16, hidden=(16,)))
    ppo.iteration()
    path = tmp_path / "ppo.npz"
    write_policy(path, "clubs_whist-v1", ppo.layers())
    policy = Policy(path, "clubs_whist-v1", "whist")
    assert [w.shape for w, _ in policy.layers] == [w.shape for w, _ in ppo.layers()]


def test_ppo_from_a_weights_file_starts_from_its_layers_and_the_warmup_teaches_the_value_alone(tmp_path: Path) -> None:
    first = Ppo("clubs_whist-v1", 1, PpoSettings(tables=4, horizon=8, minibatch=16, hidden=(16,)))
    first.iteration()
    path = tmp_path / "start.npz"
    write_policy(path, "clubs_whist-v1", first.layers())
    started = [w.copy() for w, _ in Policy(path, "clubs_whist-v1", "whist").layers]
    settings = PpoSettings(tables=4, horizon=8, minibatch=16, hidden=(16,), init=str(path), warmup=2)
    ppo = Ppo("clubs_whist-v1", 2, settings)
    assert all(np.array_equal(w, s) for (w, _), s in zip(ppo.layers(), started, strict=True))
    value = [w.copy() for w, _ in ppo.value]
    for _ in range(2):
        ppo.iteration()
    assert all(np.array_equal(w, s) for (w, _), s in zip(ppo.layers(), started, strict=True))
    assert not all(np.array_equal(w, v) for (w, _), v in zip(ppo.value, value, strict=True))
    ppo.iteration()  # the warmup over: the policy learns
    assert not all(np.array_equal(w, s) for (w, _), s in zip(ppo.layers(), started, strict=True))


def test_clubs_learn_ppo_trains_a_policy_records_how_and_clubs_evaluate_plays_it(tmp_path: Path) -> None:
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    small = ["learn", "ppo", "clubs_free-v1", "--tables", "2", "--hidden", "16", "--iterations", "2"]
    outcome = clubs_in_process([*small, "--out", str(first)])
    assert outcome.status == 0, outcome.stderr
    outcome = clubs_in_process([*small, "--init", str(first), "--warmup", "1", "--seed", "3", "--out", str(second)])
    assert outcome.status == 0, outcome.stderr
    written = second.with_suffix(".json").read_text()
    record = json.loads(written)
    assert record["method"] == "ppo" and record["init"] == "first.npz" and str(tmp_path) not in written
    assert record["settings"]["warmup"] == 1 and record["curve"][-1]["iteration"] == 2 and record["ids"] > 0
    assert "--init first.npz" in record["command"] and "--seed 3" in record["command"]
    outcome = clubs_in_process(
        ["evaluate", str(second), "--against", "random", "--game", "clubs_free-v1", "--deals", "30", "--json"]
    )
    assert outcome.status == 0, outcome.stderr
    assert json.loads(outcome.stdout)["agent"]["sha256"] == Policy(second, "clubs_free-v1", "free").sha256


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--init", "FIRST", "--hidden", "8"], "its hidden layers are 16, not 8"),
        (["--opponents", "wizard"], "--opponents 'wizard'"),
        (["--warmup", "3", "--iterations", "3"], "--warmup 3: fewer than --iterations"),
        (["--tables", "0"], "--tables"),
        (["--lr", "1"], "--lr"),
    ],
)
def test_bad_ppo_settings_are_refused_naming_them(args: list[str], says: str, tmp_path: Path) -> None:
    first = tmp_path / "first.npz"
    ppo = Ppo("clubs_free-v1", 1, PpoSettings(tables=2, horizon=4, minibatch=8, hidden=(16,)))
    write_policy(first, "clubs_free-v1", ppo.layers())
    out = tmp_path / "out.npz"
    given = [str(first) if a == "FIRST" else a for a in args]
    outcome = clubs_in_process(["learn", "ppo", "clubs_free-v1", "--out", str(out), *given])
    assert outcome.status == 2 and says in outcome.stderr, outcome.stderr
    assert_safe_output(outcome)
    assert not out.exists()
