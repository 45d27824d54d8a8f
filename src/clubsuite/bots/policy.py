"""A policy as a weights file: data, never code. A NumPy ``.npz`` archive read with ``allow_pickle=False`` (so
nothing in it can run), checked before use: its size, its entries, every array's type, shape and values, and the
environment it was made for.

A weights file may come from anyone, so reading one costs no more than its checks allow, whatever it claims
(:mod:`clubsuite.npzread`): the file's size is checked (on the opened file) before a byte of
it is read or hashed; the archive's directory is checked to be a policy's few entries before it is parsed; each
entry's ``.npy`` header has its length checked before it is read, and is then checked (a plain type, dimensions not
negative, their product worked out in Python's integers so that none can wrap, the total under :data:`MAX_BYTES`)
before its numbers are read; and the numbers are read in pieces into the room the header was granted, the entry
refused as soon as it holds more (or fewer) than its header says. The bytes hashed are the bytes read: a file
changed meanwhile is never played under another one's hash.

The archive holds ``meta`` (UTF-8 JSON as an array of bytes: ``{"format": "clubsuite-policy", "version": 1, "env":
ID, "layers": L}``) and the layers of a multilayer perceptron, ``w0``, ``b0``, ... ``w{L-1}``,
``b{L-1}``: ``w0`` takes the environment's observation (:func:`clubsuite.coding.observation_of`, its length the
layout's size), each layer but the last is followed by a ReLU, and the last gives one score per action id.

The policy plays the legal action it finds likeliest. An action is spelled by one or more ids
(:mod:`clubsuite.coding`); at each step the policy's probability of an id is the softmax of its scores over the
ids allowed there, and an action's probability is the product over its ids. The action with the highest product is
played, the lowest id sequence first among equals: the same choice every time. Where every action is one id this is
the highest-scoring allowed id. :mod:`clubsuite.bots.policy_arith` states the arithmetic (scores summed in a fixed
order, the same bits in any batch; the search that finds the likeliest action without scoring every prefix), which
the compiled core (``native/policy.h``) follows where it is built.

A weight or bias too small to be a normal single-precision number (a subnormal: an input that never fired in
training decays to them) is read as 0 (:func:`clubsuite.bots.policy_arith.flushed`).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from clubsuite.bots.policy_arith import flushed, likeliest, log_probabilities_of, ordered_scores
from clubsuite.coding import Layout, RlCoding, coding_for, env_layout, observation_of
from clubsuite.engine import LegalActions, View, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.native import kernel
from clubsuite.npzread import Array, Bounds, file_bytes
from clubsuite.npzread import arrays as read_arrays
from clubsuite.safetext import quoted

if TYPE_CHECKING:
    from clubsuite.coding import Vector
    from clubsuite.native._policy import Net

FORMAT, VERSION = "clubsuite-policy", 1
MAX_BYTES = 64 * 1024 * 1024
"""The largest weights file read, and the most its arrays may hold unpacked (a policy of the benchmark has at most
a few megabytes)."""
MAX_ENTRIES = 2 * 16 + 1
MAX_LAYERS = 16
MAX_DIRECTORY = 64 * 1024
"""The largest archive directory read: a policy's :data:`MAX_ENTRIES` entries take a few kilobytes, while a
directory of a million empty entries would take a file of 50 MB and hundreds of MB once parsed."""

COMPILED = "clubsuite.native._policy"
"""The compiled module of a policy's arithmetic."""

Weights = npt.NDArray[np.float32]
"""A layer's weights (inputs by outputs) or its biases (one per output)."""
Layer = tuple[Weights, Weights]
"""One layer of the network: its weights and its biases."""
Scores = npt.NDArray[np.floating]
"""Scores worked out from float32 weights (float32 numbers, though NumPy's types do not follow that through
arithmetic)."""


class Scorer(Protocol):
    """What :class:`PolicyBot` plays: a game's coding and observation layout, and the scores of every action id for
    a batch of observations (a weights file's :class:`Policy`, or any model: :class:`clubsuite.rl.adapter.Adapter`)."""

    coding: RlCoding
    layout: Layout

    def scores(self, observation: npt.ArrayLike) -> Scores:
        """The score of every action id for each row of a batch of observations."""
        ...


class Policy:
    """A checked weights file (see the module docstring) for the environment ``env_id``, whose rules are ``spec``
    (a benchmark environment's id and rules spec)."""

    def __init__(self, path: Path, env_id: str, spec: str) -> None:
        self.path, self.env_id, self.spec = path, env_id, spec
        info, options = resolve(spec)
        self.coding: RlCoding = coding_for(info, options)
        self.layout = env_layout(self.coding)
        data = weights_bytes(path)
        self.sha256 = hashlib.sha256(data).hexdigest()
        """The SHA-256 of the bytes the layers were read from."""
        self.layers = [
            (flushed(w), flushed(b)) for w, b in _read(path, data, env_id, self.layout.size, self.coding.action_count)
        ]
        compiled = kernel(COMPILED)
        fits = compiled is not None and max(w.shape[1] for w, _ in self.layers) <= compiled.MAX_WIDTH
        self.net: Net | None = compiled.Net(self.layers) if compiled is not None and fits else None
        """The layers in the compiled core (``native/policy.h``), or None where it is not built or turned off, or a
        layer is wider than it takes (:mod:`clubsuite.bots.policy_arith` then computes the same scores in NumPy)."""

    def at_table(self, options: object) -> Policy:
        """The same weights reading a table of ``options`` (its own coding: the same slots, filled from its rules),
        for a table whose observation and actions are this environment's."""
        twin = copy.copy(self)
        twin.coding = coding_for(resolve(self.spec)[0], options)
        twin.layout = env_layout(twin.coding)
        return twin

    def scores(self, observation: npt.ArrayLike) -> Scores:
        """The score of every action id for one observation (or for each row of a batch of them), summed in the
        fixed order of :mod:`clubsuite.bots.policy_arith`: the same bits whatever the batch."""
        x = np.asarray(observation, dtype=np.float32)
        rows = np.atleast_2d(x)
        found: Scores = self.net.scores(rows) if self.net is not None else ordered_scores(self.layers, rows)
        return found if x.ndim > 1 else found[0]


@dataclass(frozen=True)
class Decision:
    """A decision as the policy reads it: the seat's observation, and each legal action spelled as ids."""

    observation: Vector
    spelled: list[tuple[int, ...]]


def prepared(policy: Scorer, view: View, legal: Sequence[object]) -> Decision:
    """The decision of ``view`` among ``legal`` read now (a view follows the state it reads: a search replaying a
    hand reads each decision before the next play)."""
    return Decision(observation_of(policy.coding, policy.layout, view), [tuple(policy.coding.tokens(a)) for a in legal])


def log_probabilities(policy: Scorer, decisions: Sequence[Decision]) -> list[list[float]]:
    """For each decision, the policy's log-probability of each legal action, in the order of its ``legal`` (the
    joint probability over the action's ids, see the module docstring). Every step of every decision is scored in
    one batch: a search weighing many imagined worlds pays for one pass of the network, not one a world."""
    blocks: list[Vector] = []
    rows: list[dict[tuple[int, ...], int]] = []
    first = 0
    picked = policy.layout.offsets["picked"]
    for decision in decisions:
        prefixes = sorted({seq[:d] for seq in decision.spelled for d in range(len(seq))})
        block = np.repeat(decision.observation[None, :], len(prefixes), axis=0)
        for r, prefix in enumerate(prefixes):
            block[r, [picked + i for i in prefix]] = 1.0
        blocks.append(block)
        rows.append({prefix: first + r for r, prefix in enumerate(prefixes)})
        first += len(prefixes)
    if not blocks:
        return []
    scores = np.asarray(policy.scores(np.concatenate(blocks) if len(blocks) > 1 else blocks[0]), np.float64)
    return [log_probabilities_of(scores, row, d.spelled) for d, row in zip(decisions, rows, strict=True)]


class PolicyBot:
    """A bot that plays a :class:`Policy`, or any :class:`Scorer` (see the module docstring)."""

    def __init__(self, policy: Scorer, name: str) -> None:
        self.policy, self.name = policy, name

    def choose(self, view: View, legal: LegalActions[object], rng: random.Random) -> object:
        """The policy's likeliest legal action (see the module docstring), searched in C where the policy is a
        weights file and the compiled core is built."""
        actions = list(legal)
        if len(actions) == 1:
            return actions[0]
        decision = prepared(self.policy, view, actions)
        picked = self.policy.layout.offsets["picked"]
        net = getattr(self.policy, "net", None)
        if net is not None:
            return actions[net.choose(decision.observation, picked, decision.spelled)]
        return actions[likeliest(self.policy.scores, decision.observation, picked, decision.spelled)]


def _fail(path: Path, why: str) -> InvalidOptionsError:
    return InvalidOptionsError(f"weights file {quoted(str(path), 200)}: {why}")


def _bounds() -> Bounds:
    """What a weights file may be (:mod:`clubsuite.npzread` reads it): float32 layers and the bytes of ``meta``,
    :data:`MAX_BYTES` at most."""
    return Bounds(
        max_bytes=MAX_BYTES,
        max_entries=MAX_ENTRIES,
        max_directory=MAX_DIRECTORY,
        types=(np.dtype(np.float32), np.dtype(np.uint8)),
        types_words="float32 numbers",
        kind="a policy",
    )


def weights_bytes(path: Path) -> bytes:
    """The bytes of the weights file at ``path``: refused unless it is a regular file of at most :data:`MAX_BYTES`,
    its size checked on the opened file before anything is read (a pipe is never waited on, a 2 GB sparse file
    never read)."""
    return file_bytes(path, _bounds(), lambda why: _fail(path, why))


def _float32(array: Array) -> Weights | None:
    """``array`` as the float32 numbers it holds (the same array), or None if it holds numbers of another type."""
    return array.astype(np.float32, copy=False) if array.dtype == np.float32 else None


def _read(path: Path, data: bytes, env_id: str, inputs: int, outputs: int) -> list[Layer]:
    """The layers of the weights file ``data`` (read from ``path``), every rule of the module docstring checked."""
    try:
        arrays = read_arrays(data, _bounds(), lambda why: _fail(path, why))
    except InvalidOptionsError:
        raise
    except (zipfile.BadZipFile, struct.error):
        raise _fail(path, "it is not a NumPy .npz archive") from None
    except OSError as exc:
        raise _fail(path, f"cannot be read: {exc.strerror or exc}") from None
    except (ValueError, EOFError, RuntimeError, NotImplementedError, zlib.error, MemoryError) as exc:
        raise _fail(path, f"it is damaged or not plain numbers ({type(exc).__name__})") from None
    meta = arrays.pop("meta", None)
    if meta is None or meta.dtype != np.uint8 or meta.ndim != 1:
        raise _fail(path, "its 'meta' entry (JSON as bytes) is missing")
    try:
        head = json.loads(bytes(meta.tobytes()).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _fail(path, "its 'meta' entry is not JSON") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("version") != VERSION:
        raise _fail(path, f"its 'meta' does not say format {FORMAT!r}, version {VERSION}")
    if head.get("env") != env_id:
        raise _fail(path, f"it was made for {quoted(str(head.get('env')), 40)}, not {env_id}")
    count = head.get("layers")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_LAYERS:
        raise _fail(path, f"its 'meta' must give 'layers' from 1 to {MAX_LAYERS}")
    expected = {f"{kind}{k}" for k in range(count) for kind in ("w", "b")}
    if set(arrays) != expected:
        extra = sorted(set(arrays) ^ expected)
        raise _fail(path, f"its entries must be meta and {', '.join(sorted(expected))} (not: {', '.join(extra)})")
    layers: list[Layer] = []
    width = inputs
    for k in range(count):
        w, b = _float32(arrays[f"w{k}"]), _float32(arrays[f"b{k}"])
        if w is None or b is None:
            raise _fail(path, f"layer {k} must be float32")
        out = outputs if k == count - 1 else (w.shape[1] if w.ndim == 2 else -1)
        if w.shape != (width, out) or b.shape != (out,):
            raise _fail(path, f"layer {k} must be {width}x{out} with {out} biases, not {w.shape} and {b.shape}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise _fail(path, f"layer {k} holds a value that is not a finite number")
        layers.append((w, b))
        width = out
    return layers


def write_policy(path: Path, env_id: str, layers: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]]) -> None:
    """Write ``layers`` (weights and biases, float32, all finite) as a weights file for the environment ``env_id``
    (what a training script saves), whole or not at all."""
    meta = np.frombuffer(
        json.dumps({"format": FORMAT, "version": VERSION, "env": env_id, "layers": len(layers)}).encode(),
        dtype=np.uint8,
    )
    entries: dict[str, npt.NDArray[np.uint8] | Weights] = {"meta": meta}
    for k, (w, b) in enumerate(layers):
        # in C order whatever the arrays given (a transposed matrix is in Fortran order): the reader takes no other
        entries[f"w{k}"], entries[f"b{k}"] = np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32)
        if not (np.isfinite(entries[f"w{k}"]).all() and np.isfinite(entries[f"b{k}"]).all()):
            raise ValueError(f"layer {k} holds a value that is not a finite number: not written")
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.fchmod(handle, 0o644)  # as an ordinary file would be (mkstemp's is private)
    try:
        with os.fdopen(handle, "wb") as f:
            np.savez_compressed(f, allow_pickle=False, **entries)
        os.replace(tmp, path)  # whole or not at all: a stopped run never leaves half a policy under its name
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
