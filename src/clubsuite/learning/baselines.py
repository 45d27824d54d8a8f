"""Learning baselines for the benchmark, in NumPy: PPO with action masks against the environment's bots, and Deep
Monte-Carlo (DMC, as DouZero learns Dou Dizhu) in self-play, each on the compiled vector environments
(:mod:`clubsuite.rl.vector`, :mod:`clubsuite.rl.selfplay`), within a budget of CPU seconds.

Both learn a multilayer perceptron over the environment's observation with one output per action id, which is what
a weights file holds (:mod:`clubsuite.bots.policy`), so a run's network is exported and measured by
``clubs evaluate`` like any agent. An action spelled by several ids is learned id by id (each id a step).

* **PPO** (:class:`Ppo`): one learner per table against ``opponents`` (a drawn seat), the policy's logits masked to
  the allowed ids, a separate value network, rollouts of ``horizon`` steps from every table, advantages by GAE
  (undiscounted, lambda 0.95), the clipped surrogate with an entropy bonus, Adam.
* **DMC** (:class:`Dmc`): every seat a learner sharing one Q-network; epsilon-greedy over the allowed ids; when a
  seat's episode ends each of its steps is taught the seat's return (the sum of its rewards in the episode, no
  discount) by squared error on the id it chose; Adam on batches drawn in random order from the latest ``pool``
  samples (one episode's steps are alike: batches of them alone teach little).

Runs are reproducible from their seed up to the floating-point order of the machine's BLAS (the environments' own
results are exact). Time is counted as this process's CPU seconds (``time.process_time``): set
``OPENBLAS_NUM_THREADS=1`` for a budget a single core's (``tools/baselines.py`` does).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from clubsuite.learning.network import Layers, forward, init_layers, masked_log_softmax

Floats = npt.NDArray[np.floating[Any]]


def backward(layers: Layers, inputs: list[Floats], grad: Floats) -> list[Floats]:
    """The gradient of every weight and bias (``w0, b0, w1, b1, ...``) given the loss's gradient with respect to the
    network's outputs, and each layer's input from :func:`clubsuite.learning.network.forward`."""
    grads: list[Floats] = []
    for k in range(len(layers) - 1, -1, -1):
        w, _ = layers[k]
        grads[:0] = [inputs[k].T @ grad, grad.sum(axis=0)]
        if k > 0:
            grad = (grad @ w.T) * (inputs[k] > 0)
    return grads


@dataclass
class Adam:
    """Adam over a network's weights and biases, updated in place."""

    layers: Layers
    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    m: list[Floats] = field(default_factory=list)
    v: list[Floats] = field(default_factory=list)

    def step(self, grads: Sequence[Floats], clip: float = 0.5) -> None:
        """One step along ``grads``, their overall norm clipped to ``clip``."""
        params = [p for layer in self.layers for p in layer]
        if not self.m:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads)))
        scale = min(1.0, clip / norm) if norm > 0 else 1.0
        self.t += 1
        for i, (p, g) in enumerate(zip(params, grads, strict=True)):
            g = g * scale
            self.m[i] = self.beta1 * self.m[i] + (1 - self.beta1) * g
            self.v[i] = self.beta2 * self.v[i] + (1 - self.beta2) * g * g
            m_hat = self.m[i] / (1 - self.beta1**self.t)
            v_hat = self.v[i] / (1 - self.beta2**self.t)
            p -= (self.lr * m_hat / (np.sqrt(v_hat) + self.eps)).astype(np.float32)


def ppo_loss_gradient(
    logits: Floats,
    mask: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    old_logp: Floats,
    advantages: Floats,
    clip: float,
    entropy: float,
) -> tuple[float, Floats]:
    """PPO's clipped surrogate less ``entropy`` times the policy's entropy, averaged over the batch, and its gradient
    with respect to the logits (masked ids have none)."""
    n = len(actions)
    logp = masked_log_softmax(logits, mask)
    p = np.where(mask, np.exp(logp), 0.0)
    taken = logp[np.arange(n), actions]
    ratio = np.exp(taken - old_logp)
    clipped = np.clip(ratio, 1 - clip, 1 + clip)
    surrogate = np.minimum(ratio * advantages, clipped * advantages)
    plogp = np.where(mask, p * logp, 0.0)
    ent = -plogp.sum(axis=1)
    loss = float(-(surrogate.mean()) - entropy * ent.mean())
    # d(-surrogate)/d(taken): -ratio * A where the unclipped term is the smaller one (or they are equal), else 0
    active = (ratio * advantages) <= (clipped * advantages)
    d_taken = np.where(active, -ratio * advantages, 0.0) / n
    onehot = np.zeros_like(p)
    onehot[np.arange(n), actions] = 1.0
    grad = d_taken[:, None] * (onehot - p)
    # d(-entropy)/d(logits) = p * (logp + H) over the allowed ids
    grad += entropy * np.where(mask, p * (logp + ent[:, None]), 0.0) / n
    return loss, grad


def started_from(path: str, env_id: str, hidden: Sequence[int]) -> Layers:
    """The layers of the weights file at ``path`` (read and checked as the ``learned`` bot reads one) as trainable
    copies, refused unless its hidden widths are ``hidden``."""
    from pathlib import Path

    from clubsuite.bots.policy import Policy
    from clubsuite.errors import InvalidOptionsError
    from clubsuite.rl.benchmarks import find_env
    from clubsuite.safetext import quoted

    layers = Policy(Path(path), env_id, find_env(env_id).spec).layers
    widths = tuple(w.shape[1] for w, _ in layers[:-1])
    if widths != tuple(hidden):
        given, wanted = ",".join(map(str, widths)), ",".join(map(str, hidden))
        raise InvalidOptionsError(f"weights file {quoted(path, 200)}: its hidden layers are {given}, not {wanted}")
    return [(np.array(w, np.float32), np.array(b, np.float32)) for w, b in layers]


@dataclass(frozen=True)
class PpoSettings:
    """How PPO learns."""

    hidden: tuple[int, ...] = (256, 128)
    tables: int = 64
    horizon: int = 64
    epochs: int = 4
    minibatch: int = 1024
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    lam: float = 0.95
    opponents: str = "heuristic"
    init: str = ""
    """A weights file of the environment to start the policy from (an imitation policy, say), or "" for He's
    random weights."""
    warmup: int = 0
    """Iterations at the start that teach the value network alone (the policy stays as it is): a policy started
    from a weights file meets a value network that knows nothing, whose advantages would first undo what it knew."""


class Ppo:
    """PPO with action masks (see the module docstring) on environment ``env_id`` (a benchmark id or rules spec)."""

    def __init__(self, env_id: str, seed: int, settings: PpoSettings | None = None) -> None:
        from clubsuite.rl.vector import ClubsVectorEnv

        self.s = settings or PpoSettings()
        self.rng = np.random.default_rng(seed)
        self.env = ClubsVectorEnv(env_id, self.s.tables, self.s.opponents, None)
        size, ids = self.env.layout.size, self.env.coding.action_count
        self.policy = init_layers(size, ids, self.s.hidden, self.rng)
        self.value = init_layers(size, 1, self.s.hidden, self.rng)
        last_w, last_b = self.policy[-1]
        self.policy[-1] = ((last_w * 0.01).astype(np.float32), last_b)
        if self.s.init:
            self.policy = started_from(self.s.init, env_id, self.s.hidden)
        self.iterations = 0
        self.opt_policy = Adam(self.policy, self.s.lr)
        self.opt_value = Adam(self.value, self.s.lr)
        self.obs, _ = self.env.reset(seed=int(self.rng.integers(2**62)))
        self.resetting = np.zeros(self.s.tables, bool)
        self.steps = 0
        """The learner's ids trained on so far."""
        self.returns: list[float] = []
        """The learner's return of every training episode finished so far."""
        self._running = np.zeros(self.s.tables)

    def iteration(self) -> None:
        """One rollout of ``horizon`` steps at every table, then ``epochs`` passes over it."""
        s, n = self.s, self.s.tables
        obs = np.zeros((s.horizon, n, self.env.layout.size), np.float32)
        masks = np.zeros((s.horizon, n, self.env.coding.action_count), bool)
        actions = np.zeros((s.horizon, n), np.int64)
        logps = np.zeros((s.horizon, n))
        values = np.zeros((s.horizon + 1, n))
        rewards = np.zeros((s.horizon, n))
        dones = np.zeros((s.horizon, n), bool)
        valid = np.zeros((s.horizon, n), bool)
        for t in range(s.horizon):
            x, mask = np.asarray(self.obs["observation"], np.float32), self.obs["action_mask"].astype(bool)
            logits, _ = forward(self.policy, x)
            logp = masked_log_softmax(logits, mask)
            p = np.where(mask, np.exp(logp), 0.0)
            cum = np.cumsum(p, axis=1)
            draw = self.rng.random(n)[:, None] * cum[:, -1:]
            chosen = np.minimum((cum < draw).sum(axis=1), mask.shape[1] - 1)
            values[t] = forward(self.value, x)[0][:, 0]
            obs[t], masks[t], actions[t] = x, mask, chosen
            logps[t] = logp[np.arange(n), chosen]
            valid[t] = ~self.resetting
            self.obs, reward, terminated, truncated, _ = self.env.step(chosen)
            rewards[t] = reward
            dones[t] = terminated | truncated
            self._running += reward
            for i in np.flatnonzero(dones[t]):
                self.returns.append(float(self._running[i]))
                self._running[i] = 0.0
            self.resetting = dones[t]
        values[s.horizon] = forward(self.value, np.asarray(self.obs["observation"], np.float32))[0][:, 0]
        advantages = np.zeros((s.horizon, n))
        running = np.zeros(n)
        for t in range(s.horizon - 1, -1, -1):  # GAE, undiscounted; a step on a resetting table starts afresh
            nonterminal = ~dones[t]
            following = np.where(valid[t + 1] if t + 1 < s.horizon else ~self.resetting, values[t + 1], 0.0)
            delta = rewards[t] + nonterminal * following - values[t]
            running = delta + s.lam * nonterminal * running
            advantages[t] = np.where(valid[t], running, 0.0)
            running = np.where(valid[t], running, 0.0)
        targets = advantages + values[: s.horizon]
        keep = valid.reshape(-1)
        data = [
            obs.reshape(-1, obs.shape[-1])[keep],
            masks.reshape(-1, masks.shape[-1])[keep],
            actions.reshape(-1)[keep],
            logps.reshape(-1)[keep],
            advantages.reshape(-1)[keep],
            targets.reshape(-1)[keep],
        ]
        self.steps += int(keep.sum())
        self.iterations += 1
        x, m, a, lp, adv, tg = data
        self._update(x, m, a, lp, adv, tg, policy=self.iterations > s.warmup)

    def _update(
        self,
        x: Floats,
        mask: npt.NDArray[np.bool_],
        actions: npt.NDArray[np.int64],
        old_logp: Floats,
        advantages: Floats,
        targets: Floats,
        policy: bool = True,
    ) -> None:
        s = self.s
        count = len(actions)
        for _ in range(s.epochs):
            order = self.rng.permutation(count)
            for a in range(0, count, s.minibatch):
                rows = order[a : a + s.minibatch]
                if policy:
                    adv = advantages[rows]
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                    logits, inputs = forward(self.policy, x[rows])
                    _, grad = ppo_loss_gradient(
                        logits, mask[rows], actions[rows], old_logp[rows], adv, s.clip, s.entropy
                    )
                    self.opt_policy.step(backward(self.policy, inputs, grad.astype(np.float32)))
                v, v_inputs = forward(self.value, x[rows])
                v_grad = (v[:, 0] - targets[rows])[:, None] / len(rows)
                self.opt_value.step(backward(self.value, v_inputs, v_grad.astype(np.float32)))

    def layers(self) -> Layers:
        """The policy network (what a weights file holds)."""
        return self.policy


@dataclass(frozen=True)
class DmcSettings:
    """How DMC learns."""

    hidden: tuple[int, ...] = (256, 128)
    tables: int = 64
    epsilon: float = 0.05
    batch: int = 1024
    pool: int = 16_384
    """Samples gathered before they are learned from, in random order (``pool // batch`` Adam steps)."""
    lr: float = 3e-4


class Dmc:
    """Deep Monte-Carlo in self-play (see the module docstring) on environment ``env_id``."""

    def __init__(self, env_id: str, seed: int, settings: DmcSettings | None = None) -> None:
        from clubsuite.rl.selfplay import SelfPlayVectorEnv

        self.s = settings or DmcSettings()
        self.rng = np.random.default_rng(seed)
        self.env = SelfPlayVectorEnv(env_id, self.s.tables)
        size, ids = self.env.layout.size, self.env.coding.action_count
        self.q = init_layers(size, ids, self.s.hidden, self.rng)
        self.opt = Adam(self.q, self.s.lr)
        self.obs, info = self.env.reset(seed=int(self.rng.integers(2**62)))
        self.seats = np.asarray(info["seat"])
        self.resetting = np.zeros(self.s.tables, bool)
        seats = self.env.seat_count
        self.open: list[list[list[tuple[Floats, int]]]] = [[[] for _ in range(seats)] for _ in range(self.s.tables)]
        self.gained = np.zeros((self.s.tables, seats))
        self.ready_x: list[Floats] = []
        self.ready_a: list[int] = []
        self.ready_g: list[float] = []
        self.steps = 0
        """The ids trained on so far (every seat's)."""
        self.returns: list[float] = []
        """Seat 0's return of every training episode finished so far."""

    def iteration(self) -> None:
        """Steps every table until ``pool`` samples have finished, then Adam steps on batches of them in random
        order."""
        s = self.s
        while len(self.ready_a) < s.pool:
            self.step()
        x = np.asarray(self.ready_x[: s.pool], np.float32)
        a = np.asarray(self.ready_a[: s.pool], np.int64)
        g = np.asarray(self.ready_g[: s.pool])
        del self.ready_x[: s.pool], self.ready_a[: s.pool], self.ready_g[: s.pool]
        order = self.rng.permutation(len(a))
        for first in range(0, len(a), s.batch):
            rows = order[first : first + s.batch]
            q, inputs = forward(self.q, x[rows])
            grad = np.zeros_like(q)
            grad[np.arange(len(rows)), a[rows]] = (q[np.arange(len(rows)), a[rows]] - g[rows]) / len(rows)
            self.opt.step(backward(self.q, inputs, grad.astype(np.float32)))
        self.steps += len(a)

    def step(self) -> None:
        """One step of every table: each seat to act picks (epsilon-greedy), and every episode that ends teaches
        its steps."""
        n = self.s.tables
        x, mask = np.asarray(self.obs["observation"], np.float32), self.obs["action_mask"].astype(bool)
        q, _ = forward(self.q, x)
        greedy = np.where(mask, q, -np.inf).argmax(axis=1)
        explore = self.rng.random(n) < self.s.epsilon
        noise = self.rng.random(mask.shape) * mask
        chosen = np.where(explore, noise.argmax(axis=1), greedy)
        for i in np.flatnonzero(~self.resetting):
            self.open[i][int(self.seats[i])].append((x[i].copy(), int(chosen[i])))
        self.obs, rewards, terminated, truncated, info = self.env.step(chosen)
        self.gained += np.where(self.resetting[:, None], 0.0, rewards)
        ended = terminated | truncated
        for i in np.flatnonzero(ended):
            for seat, steps in enumerate(self.open[i]):
                for obs, action in steps:
                    self.ready_x.append(obs)
                    self.ready_a.append(action)
                    self.ready_g.append(float(self.gained[i, seat]))
                steps.clear()
            self.returns.append(float(self.gained[i, 0]))
            self.gained[i] = 0.0
        self.resetting = ended
        self.seats = np.asarray(info["seat"])

    def layers(self) -> Layers:
        """The Q-network (what a weights file holds: its scores are the values of the ids)."""
        return self.q


def train_for(learner: Ppo | Dmc, cpu_seconds: float) -> float:
    """Iterations of ``learner`` until it has spent ``cpu_seconds`` more of this process's CPU time; the CPU
    seconds spent (an iteration is never cut)."""
    start = time.process_time()
    while time.process_time() - start < cpu_seconds:
        learner.iteration()
    return time.process_time() - start
