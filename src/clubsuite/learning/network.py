"""The policy network and its training, in NumPy: a multilayer perceptron (ReLU between layers) from a step's
observation to one score per action id, trained to match the targets of :mod:`clubsuite.learning.positions` by
cross-entropy over the ids the step allows, with Adam.

Nothing here needs a GPU or a deep-learning framework: the networks are small (a few hundred thousand weights), the
forward and backward passes are a handful of matrix products, and NumPy runs them on any machine. Every random
number (initial weights, the order of the batches) comes from the ``seed``: a run is repeated exactly on the same
data, up to the floating-point order of the machine's BLAS.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from clubsuite.bots.policy import Layer, Scores
from clubsuite.learning.positions import Dataset

NEG = np.float32(-1e9)
"""The score given to an id the step does not allow before the softmax (its probability is then 0)."""


@dataclass(frozen=True)
class Settings:
    """How a network is trained."""

    hidden: tuple[int, ...] = (256, 128)
    """The widths of the hidden layers."""
    epochs: int = 12
    """Passes over the training steps."""
    batch: int = 256
    """Steps a batch."""
    lr: float = 1e-3
    """Adam's step size (halved after two thirds of the epochs, rounded down, in a run of three epochs or more)."""
    decay: float = 1e-5
    """L2 weight decay."""
    seed: int = 0
    """The seed of the initial weights and of the batches' order."""


@dataclass
class Epoch:
    """What one epoch reached: its training loss, and on the held-out steps the loss and how often the network's
    best allowed id is the target's best (the teacher's choice, where the teacher chose)."""

    epoch: int
    steps_seen: int
    seconds: float
    train_loss: float
    val_loss: float
    val_agree: float


Layers = list[Layer]
"""A network: its layers' weights and biases, first layer first."""
Mask = npt.NDArray[np.bool_] | npt.NDArray[np.uint8]
"""Which ids each step allows (true or 1), one row a step."""


def init_layers(inputs: int, outputs: int, hidden: Sequence[int], rng: np.random.Generator) -> Layers:
    """He-initialised weights, zero biases."""
    widths = [inputs, *hidden, outputs]
    layers: Layers = []
    for a, b in itertools.pairwise(widths):
        w = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        layers.append((w, np.zeros(b, np.float32)))
    return layers


def forward(layers: Layers, x: Scores) -> tuple[Scores, list[Scores]]:
    """The scores of a batch, and each layer's input (for the backward pass)."""
    inputs = []
    for k, (w, b) in enumerate(layers):
        inputs.append(x)
        x = x @ w + b
        if k < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x, inputs


def masked_log_softmax(scores: Scores, mask: Mask) -> Scores:
    """Log-probabilities over the allowed ids (``-inf``-like where not allowed)."""
    z: Scores = np.where(mask, scores, NEG)
    z = z - z.max(axis=1, keepdims=True)
    logp: Scores = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return logp


def loss_and_agreement(layers: Layers, data: Dataset, batch: int = 4096) -> tuple[float, float]:
    """The mean cross-entropy of the targets under the network on ``data``, and how often its best allowed id is
    the target's best."""
    if len(data) == 0:
        return float("nan"), float("nan")
    total, agree = 0.0, 0
    for a in range(0, len(data), batch):
        part = data.take(slice(a, a + batch))
        scores, _ = forward(layers, part.obs.astype(np.float32))
        logp = masked_log_softmax(scores, part.mask)
        total += float(-(part.target * np.where(part.mask, logp, 0.0)).sum())
        best = np.where(part.mask, scores, NEG).argmax(axis=1)
        agree += int((best == part.target.argmax(axis=1)).sum())
    return total / len(data), agree / len(data)


def gradients(layers: Layers, x: Scores, mask: Mask, target: Scores, decay: float = 0.0) -> tuple[float, list[Scores]]:
    """The batch's mean cross-entropy and its gradient with respect to every weight and bias (in the order
    ``w0, b0, w1, b1, ...``), with L2 ``decay`` on the weights (not counted in the loss)."""
    scores, inputs = forward(layers, np.asarray(x, np.float32))
    logp = masked_log_softmax(scores, mask)
    n = len(x)
    loss = float(-(target * np.where(mask, logp, 0.0)).sum()) / n
    grad = (np.where(mask, np.exp(logp), 0.0) - target) / n
    grads: list[Scores] = []
    for k in range(len(layers) - 1, -1, -1):
        w, _ = layers[k]
        grads[:0] = [inputs[k].T @ grad + decay * w, grad.sum(axis=0)]
        if k > 0:
            grad = (grad @ w.T) * (inputs[k] > 0)
    return loss, grads


def train(
    data: Dataset,
    settings: Settings,
    val: Dataset | None = None,
    report: Callable[[Epoch], None] | None = None,
    start: Layers | None = None,
) -> tuple[Layers, list[Epoch]]:
    """A network trained on ``data`` (see the module docstring), from ``start``'s weights (a copy) or random ones;
    each epoch measured on ``val`` (if given) and passed to ``report``."""
    if len(data) == 0:
        raise ValueError("no steps to train on")
    rng = np.random.default_rng(settings.seed)
    layers = init_layers(data.obs.shape[1], data.mask.shape[1], settings.hidden, rng)
    if start is not None:
        layers = [(w.copy(), b.copy()) for w, b in start]
    params = [p for layer in layers for p in layer]
    m: list[Scores] = [np.zeros_like(p) for p in params]  # Adam's moments (of the numbers' type NumPy takes)
    v: list[Scores] = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    t = 0
    history: list[Epoch] = []
    started = time.process_time()
    n = len(data)
    for epoch in range(1, settings.epochs + 1):
        late = settings.epochs >= 3 and epoch > settings.epochs * 2 // 3
        lr = settings.lr * (0.5 if late else 1.0)
        order = rng.permutation(n)
        seen_loss = 0.0
        for a in range(0, n, settings.batch):
            rows = order[a : a + settings.batch]
            loss, grads = gradients(layers, data.obs[rows], data.mask[rows], data.target[rows], settings.decay)
            seen_loss += loss * len(rows)
            t += 1
            for i, (p, g) in enumerate(zip(params, grads, strict=True)):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                step = lr * (m[i] / (1 - beta1**t)) / (np.sqrt(v[i] / (1 - beta2**t)) + eps)
                p -= step.astype(np.float32)
        val_loss, val_agree = loss_and_agreement(layers, val) if val is not None else (float("nan"), float("nan"))
        record = Epoch(epoch, epoch * n, time.process_time() - started, seen_loss / n, val_loss, val_agree)
        history.append(record)
        if report is not None:
            report(record)
    return layers, history


def weight_count(layers: Layers) -> int:
    """How many weights and biases a network has."""
    return sum(int(w.size + b.size) for w, b in layers)
