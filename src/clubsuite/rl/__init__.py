"""Interfaces for learning programs (the optional extra ``rl``): a PettingZoo AEC environment for every game and
variant, a Gymnasium environment that puts one learner in a seat against this project's bots, its vector form
(many tables stepped as one batch, in the compiled kernel where the game has one) and self-play's (several seats
at each table played by learners: :class:`SelfPlayVectorEnv`).

``clubsuite.rl.env(SPEC)`` gives the PettingZoo environment of a game or variant spec,
``gymnasium.make(clubsuite.rl.GYM_ID, spec=SPEC)`` the Gymnasium one and
``gymnasium.make_vec(clubsuite.rl.GYM_ID, num_envs=N, spec=SPEC)`` the vector one; ``docs/rl.md`` documents the
action ids and every observation slot of every game.
"""

from __future__ import annotations

import importlib
from typing import Any

GYM_NAME = "clubsuite/SingleSeat-v0"
"""The Gymnasium id of :class:`SingleSeatEnv` (``GYM_ID`` registers it: read that one)."""
_LAZY = {
    "ClubsEnv": "clubsuite.rl.aec",
    "env": "clubsuite.rl.aec",
    "raw_env": "clubsuite.rl.aec",
    "SingleSeatEnv": "clubsuite.rl.single",
    "ClubsVectorEnv": "clubsuite.rl.vector",
    "SelfPlayVectorEnv": "clubsuite.rl.selfplay",
}
"""The environments, imported when first asked for: the benchmark's environments and agents
(:mod:`clubsuite.rl.benchmarks`, :mod:`clubsuite.rl.agents`, which ``clubs evaluate`` and ``clubs learn`` read) load
without the ``rl`` extra's packages."""


def __getattr__(name: str) -> Any:
    """``GYM_ID`` (registered with Gymnasium on first use: ``gymnasium.make(GYM_ID, spec=SPEC, opponents="hard")``)
    and the environments, loaded when first asked for."""
    if name == "GYM_ID":
        import gymnasium

        if GYM_NAME not in gymnasium.registry:
            gymnasium.register(
                id=GYM_NAME,
                entry_point="clubsuite.rl.single:SingleSeatEnv",
                vector_entry_point="clubsuite.rl.vector:ClubsVectorEnv",
            )
        return GYM_NAME
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'clubsuite.rl' has no attribute {name!r}")


__all__ = ["GYM_ID", "ClubsEnv", "ClubsVectorEnv", "SelfPlayVectorEnv", "SingleSeatEnv", "env", "raw_env"]
