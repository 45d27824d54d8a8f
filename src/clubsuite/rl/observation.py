"""The observation hash of a benchmark environment (needs the ``rl`` extra: NumPy): what a learning agent is given
and how it answers, pinned as :attr:`~clubsuite.rl.benchmarks.BenchEnv.observation_sha256`.

SHA-256 of the layout (every slot's name, size and bounds, and the deck's order), the action names, and, along the
rules trace (:func:`clubsuite.rl.benchmarks.trace_tables`), the observation vector of every decision as
little-endian float32 bytes and the action ids of the action taken.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from clubsuite.coding import coding_for, env_layout, observation_of
from clubsuite.rl.benchmarks import BenchEnv, trace_tables


def observation_hash(env: BenchEnv) -> str:
    """The environment's observation hash (see the module docstring)."""
    info, options = env.resolved()
    coding = coding_for(info, options)
    layout = env_layout(coding)
    head = {
        "slots": [[s.name, s.size, s.low, s.high] for s in layout.slots],
        "deck": [c.index for c in layout.deck.cards],
        "actions": list(coding.action_names),
    }
    digest = hashlib.sha256(b"clubsuite-observation 1\n" + json.dumps(head, sort_keys=True).encode() + b"\n")
    for match, seat, action in trace_tables(env):
        if action is None:
            continue
        vector = observation_of(coding, layout, match.view(seat))
        digest.update(np.asarray(vector, dtype="<f4").tobytes())
        digest.update(json.dumps(list(coding.tokens(action))).encode() + b"\n")
    return digest.hexdigest()
