"""Self-play at compiled speed: many tables at once, several seats at each played by learning programs (every seat,
or some: a team), the others by this project's bots, stepped as one batch.

``SelfPlayVectorEnv(spec, num_envs=..., seats=None)`` holds ``num_envs`` tables of a game, variant or benchmark
environment; ``seats`` are the seats played from outside at every table (None: all of them) and ``opponents`` the
bots of the others (any registered bot, ``learned`` included). Each :meth:`SelfPlayVectorEnv.step` takes one
action id per table, for the seat to act there, applies it and lets the bots play until a seat played from outside
is to act; that seat is ``infos["seat"]``, and the batch holds its observation and mask (those of the PettingZoo
environment, :func:`clubsuite.coding.observation_of`). Once an episode is over a row shows the first of ``seats``
with no id allowed.

Rewards are one per seat, ``(num_envs, seats)``: what each seat gained at the step (a hand's score reaches every
seat at once, whoever acted), the match's result (+1, -1, 0) or each hand's score (``reward="points"``), and -1 to
the seat that picks an id its mask does not allow, which ends the episode. A learner credits each seat's reward to
that seat's last decision. A table whose episode ended is reset at its next step, which ignores that step's action
(Gymnasium's ``next-step`` autoreset).

This is not a Gymnasium ``VectorEnv`` (one reward per table there); its spaces are those of one seat
(``single_observation_space``, ``single_action_space``) and of the batch. Seeds, episodes and the two paths (the
compiled kernel of every game, learned bots included, or the engine's matches: the same results) are those of
:mod:`clubsuite.rl.tables`; ``tests/test_rl_selfplay.py`` steps both paths side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.batch import Batch, TablesBatch
from clubsuite.rl.tables import OUTSIDE


class SelfPlayVectorEnv(TablesBatch):
    """``num_envs`` tables of several seats played from outside, stepped together (see the module docstring)."""

    def __init__(
        self,
        spec: str | None = None,
        num_envs: int = 16,
        seats: Sequence[int] | None = None,
        opponents: str = "heuristic",
        reward: str | None = None,
        max_hands: int | None = None,
        engine: bool = False,
    ) -> None:
        TablesBatch.__init__(self, spec, num_envs, reward, max_hands)
        count = self.seat_count
        chosen = list(range(count)) if seats is None else list(seats)
        if (
            not chosen
            or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < count for s in chosen)
            or len(set(chosen)) != len(chosen)
        ):
            raise InvalidOptionsError(
                f"seats={seats!r}: different seats from 0 to {count - 1} ({self.info.name}), at least one, or None for"
                " all of them"
            )
        self.learners = tuple(sorted(chosen))
        others = count - len(self.learners)
        names = self.bots(opponents, others) if others else []
        bots = iter(names)
        lineup = [OUTSIDE if s in self.learners else next(bots) for s in range(count) if s != self.learners[0]]
        self.opponents = tuple(names)
        self.tables(self.learners[0], lineup, engine)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, object] | None = None
    ) -> tuple[Batch, dict[str, object]]:
        """Start episode 0 at every table: base seeds ``seed + i`` (a fresh random seed without one)."""
        self._tables.reset(self.bases(seed))
        return self.batch(), {"seat": self._tables.seats.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Batch, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, object]]:
        """One action id per table, for the seat to act there; see the module docstring for rewards (one per seat),
        ends and the autoreset."""
        rewards, terminated, truncated, infos = self.stepped(actions)
        return self.batch(), rewards, terminated, truncated, infos

    def close(self) -> None:
        """Nothing to release."""
