"""The learning baselines (``clubsuite.learning.baselines``): the gradients they step along are those of their
losses (checked against finite differences), DMC teaches every seat its own return, a run is the same from the same
seed, and a trained network is a weights file ``clubs evaluate`` plays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

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
