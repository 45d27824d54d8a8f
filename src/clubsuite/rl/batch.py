"""What the vector environments share (:class:`clubsuite.rl.vector.ClubsVectorEnv`, one learner per table, and
:class:`clubsuite.rl.selfplay.SelfPlayVectorEnv`, several): their settings, checked and named when refused; the
spaces of one table's observation and action; the tables' base seeds; and the batch of ids a step takes."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from clubsuite.bots.base import make_bot
from clubsuite.coding import coding_for, env_layout
from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.aec import REWARDS, settings
from clubsuite.rl.tables import OUTSIDE, Tables

MOST_TABLES = 1 << 20
"""The most tables one environment holds."""

Batch = dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]


class TablesBatch:
    """``num_envs`` tables of a game, some seats played from outside (see :mod:`clubsuite.rl.tables`): the settings
    and spaces of a vector environment over them."""

    def __init__(self, spec: str | None, num_envs: int, reward: str | None, max_hands: int | None) -> None:
        spec, reward, max_hands = settings(spec, reward, max_hands)
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or not 1 <= num_envs <= MOST_TABLES:
            raise InvalidOptionsError(f"num_envs={num_envs!r}: from 1 to {MOST_TABLES:,} tables")
        if reward not in REWARDS:
            raise InvalidOptionsError(f"reward={reward!r}: expected one of {', '.join(REWARDS)}")
        if not isinstance(max_hands, int) or max_hands < 1:
            raise InvalidOptionsError(f"max_hands={max_hands!r}: at least 1 hand")
        self.info, self.options = resolve(spec)
        self.seat_count = self.info.n_seats(self.options)
        self.coding = coding_for(self.info, self.options)
        self.layout = env_layout(self.coding)
        self.num_envs = num_envs
        self.spec_text, self.reward_scheme, self.max_hands = spec, reward, max_hands
        low, high = self.layout.bounds()
        self.single_observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.coding.action_count,), dtype=np.int8),
            }
        )
        self.single_action_space: spaces.Space[Any] = spaces.Discrete(self.coding.action_count)
        self.observation_space: spaces.Space[Any] = batch_space(self.single_observation_space, num_envs)
        self.action_space: spaces.Space[Any] = batch_space(self.single_action_space, num_envs)
        self._started = False

    def bots(self, opponents: str, count: int) -> list[str]:
        """The bots ``opponents`` names (comma-separated, or one for all) for ``count`` seats, each refused now if
        unknown (naming the known ones)."""
        names = [n.strip() for n in opponents.split(",")] if opponents else []
        if len(names) == 1:
            names *= count
        if len(names) != count:
            raise InvalidOptionsError(
                f"opponents={opponents!r}: give one bot for every other seat ({count}), or one for all of them"
            )
        for name in names:
            if name == OUTSIDE:
                raise InvalidOptionsError(f"opponents={opponents!r}: {OUTSIDE!r} is not a bot")
            make_bot(name, self.info.name)
        return names

    _tables: Tables

    def tables(self, seat: int | None, lineup: Sequence[str], engine: bool) -> Tables:
        """The tables for these seats (kept, and returned)."""
        self._tables = Tables(
            self.info,
            self.options,
            self.coding,
            self.layout,
            self.num_envs,
            seat,
            lineup,
            self.reward_scheme,
            self.max_hands,
            engine,
        )
        return self._tables

    @property
    def compiled(self) -> bool:
        """Whether the tables run in a compiled kernel (else on the engine's path)."""
        return self._tables.kernel is not None

    def stepped(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, object]]:
        """One step of the tables: every seat's rewards (tables by seats), the ends, and the infos (the seat each row
        shows; the ids refused, where any was)."""
        ids = self.ids(actions)
        rewards, terminated, truncated, illegal = self._tables.step(ids)
        infos: dict[str, object] = {"seat": self._tables.seats.copy()}
        if illegal.any():
            infos["illegal_action"] = np.where(illegal.astype(bool), ids, -1)
            infos["_illegal_action"] = illegal.astype(bool)
        return rewards, terminated.astype(bool), truncated.astype(bool), infos

    def batch(self) -> Batch:
        """The tables' observations and masks now (copies)."""
        return {"observation": self._tables.obs.copy(), "action_mask": self._tables.mask.copy()}

    def bases(self, seed: int | Sequence[int] | None) -> list[int]:
        """The tables' base seeds: ``seed + i`` for table i, one given per table, or a fresh random one without."""
        if seed is None:
            seed = secrets.randbits(62)
        bases = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else [int(s) for s in seed]
        if len(bases) != self.num_envs or not all(0 <= b < 1 << 63 for b in bases):
            raise InvalidOptionsError(
                f"seed={seed!r}: a whole number from 0 below 2**63 - num_envs, or one such seed per table"
            )
        self._started = True
        return bases

    def ids(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """A step's ids, one whole number per table (refused, naming them, before the environment is reset or when
        they are not that)."""
        if not self._started:
            raise InvalidOptionsError("the environment must be reset before it is stepped")
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise InvalidOptionsError(f"actions: one whole action id per table ({self.num_envs}), got {ids!r}")
        return ids.astype(np.int64)
