"""Interfaces for learning programs (the optional extra ``rl``): a PettingZoo AEC environment for every game and
variant, a Gymnasium environment that puts one learner in a seat against this project's bots, and its vector form
(many tables stepped as one batch, in the compiled kernel where the game has one).

``clubsuite.rl.env(SPEC)`` gives the PettingZoo environment of a game or variant spec,
``gymnasium.make(clubsuite.rl.GYM_ID, spec=SPEC)`` the Gymnasium one and
``gymnasium.make_vec(clubsuite.rl.GYM_ID, num_envs=N, spec=SPEC)`` the vector one; ``docs/rl.md`` documents the
action ids and every observation slot of every game.
"""

import gymnasium

from clubsuite.rl.aec import ClubsEnv, env, raw_env
from clubsuite.rl.single import SingleSeatEnv
from clubsuite.rl.vector import ClubsVectorEnv

GYM_ID = "clubsuite/SingleSeat-v0"
"""The Gymnasium id of :class:`SingleSeatEnv`: ``gymnasium.make(GYM_ID, spec=SPEC, opponents="hard")``."""

if GYM_ID not in gymnasium.registry:
    gymnasium.register(
        id=GYM_ID,
        entry_point="clubsuite.rl.single:SingleSeatEnv",
        vector_entry_point="clubsuite.rl.vector:ClubsVectorEnv",
    )

__all__ = ["GYM_ID", "ClubsEnv", "ClubsVectorEnv", "SingleSeatEnv", "env", "raw_env"]
