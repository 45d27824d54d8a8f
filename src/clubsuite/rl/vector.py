"""Many tables at once for learning programs: a Gymnasium vector environment of one learner per table against this
project's bots, stepped as one batch.

``ClubsVectorEnv(spec, num_envs=...)`` holds ``num_envs`` tables of a game or variant. At each table the learner
holds one seat (``seat``, or drawn for each episode with ``seat=None``) and bots the others (``opponents``: any
registered bot, the ``learned`` one included); one :meth:`ClubsVectorEnv.step` takes one action id per table,
applies it and lets the bots play to the learner's next turn. Observations, action ids and masks are those of the
PettingZoo environment (:mod:`clubsuite.rl.aec`, :func:`clubsuite.coding.observation_of`), batched:
``{"observation": (num_envs, size) float32, "action_mask": (num_envs, ids) int8}``. Rewards are those of
:class:`clubsuite.rl.single.SingleSeatEnv`: the match's result (+1, -1, 0) or each hand's score
(``reward="points"``), and -1 ending the episode for an id the mask does not allow. A table whose episode ended is
reset at its next step, which ignores that step's action (Gymnasium's ``next-step`` autoreset). Several learners
at a table (self-play) are :mod:`clubsuite.rl.selfplay`'s.

**Seeds.** ``reset(seed=S)`` gives table i the base seed ``S + i``; its k-th episode is the match of seed
``derive_seed(S + i, k)``, dealt and played as :func:`clubsuite.runner.play_match` deals and plays it (the bots
drawing from one generator seeded from the match seed), so an episode is reproducible from its seed and its
learner's actions alone, and the same on either path (:mod:`clubsuite.rl.tables`: the compiled kernel, where the
game has one for these opponents, the learned bot's network included, or the engine's matches).

**Privileged information** (``privileged=True``; off by default, and **never for evaluation**: no seat may see
it, and the benchmark never turns it on): each step's ``infos["privileged"]`` holds ``hands``, the cards in every
seat's hand now (not the piles in no hand: a bid hand, a chest), by absolute seat (``infos["seat"]`` is the
learner's) and deck position (``num_envs, seats, deck``), and ``card_values``, where the learner is to play a card
and the game has an exact solver, the solver's final count for the learner after each of its legal cards, every
hand known, by action id (``num_envs, ids``; NaN elsewhere, and where the search would pass ``privileged_nodes``
positions): an oracle critic's input, or a target to distil. It runs on the engine's path (the tables' cards are
read from the engine's match), and the solver costs time at every card the learner plays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv

from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.batch import MOST_TABLES, Batch, TablesBatch

__all__ = ["MOST_TABLES", "PRIVILEGED_NODES", "ClubsVectorEnv"]

PRIVILEGED_NODES = 200_000
"""The most positions the solver may search for one decision's privileged card values."""


class ClubsVectorEnv(TablesBatch, VectorEnv):
    """``num_envs`` tables of one learner against bots, stepped together (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  # Gymnasium reads it from the class

    def __init__(
        self,
        spec: str | None = None,
        num_envs: int = 16,
        opponents: str = "heuristic",
        seat: int | None = 0,
        reward: str | None = None,
        max_hands: int | None = None,
        engine: bool = False,
        privileged: bool = False,
        privileged_nodes: int = PRIVILEGED_NODES,
    ) -> None:
        TablesBatch.__init__(self, spec, num_envs, reward, max_hands)
        seats = self.seat_count
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < seats):
            raise InvalidOptionsError(f"seat={seat!r}: {self.info.name} has seats 0 to {seats - 1}, or None to draw")
        names = self.bots(opponents, seats - 1)
        self.opponents, self.fixed_seat = tuple(names), seat
        if not isinstance(privileged, bool):
            raise InvalidOptionsError(f"privileged={privileged!r}: True or False")
        if not isinstance(privileged_nodes, int) or isinstance(privileged_nodes, bool) or privileged_nodes < 1:
            raise InvalidOptionsError(f"privileged_nodes={privileged_nodes!r}: a whole number of positions, at least 1")
        self.privileged, self.privileged_nodes = privileged, privileged_nodes
        self.tables(seat, names, engine or privileged)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, object] | None = None
    ) -> tuple[Batch, dict[str, object]]:
        """Start episode 0 at every table: base seeds ``seed + i`` (a fresh random seed without one)."""
        self._tables.reset(self.bases(seed))
        infos: dict[str, object] = {"seat": self._tables.seats.copy()}
        self._add_privileged(infos)
        return self.batch(), infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Batch, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, object]]:
        """One action id per table; see the module docstring for rewards, ends and the autoreset."""
        every, terminated, truncated, infos = self.stepped(actions)
        rewards = every[np.arange(self.num_envs), self._tables.seats]  # the learner's: the seat each row shows
        self._add_privileged(infos)
        return self.batch(), rewards, terminated, truncated, infos

    def _add_privileged(self, infos: dict[str, object]) -> None:
        """With ``privileged``, what no seat may see (see the module docstring): every table's hands and the
        solver's values of the learner's legal cards."""
        if not self.privileged:
            return
        hands = np.zeros((self.num_envs, self.seat_count, len(self.layout.deck.cards)), np.int8)
        values = np.full((self.num_envs, self.coding.action_count), np.nan, np.float32)
        for i, table in enumerate(self._tables.engine):
            table.privileged(hands[i], values[i], self.privileged_nodes)
        infos["privileged"] = {"hands": hands, "card_values": values}
        infos["_privileged"] = np.ones(self.num_envs, bool)

    def close(self, **kwargs: object) -> None:
        """Nothing to release."""
