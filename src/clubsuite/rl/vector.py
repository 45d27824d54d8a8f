"""Many tables at once for learning programs: a Gymnasium vector environment of one learner per table against this
project's bots, stepped as one batch.

``ClubsVectorEnv(spec, num_envs=...)`` holds ``num_envs`` tables of a game or variant. At each table the learner
holds one seat (``seat``, or drawn for each episode with ``seat=None``) and bots the others (``opponents``); one
:meth:`ClubsVectorEnv.step` takes one action id per table, applies it and lets the bots play to the learner's next
turn. Observations, action ids and masks are those of the PettingZoo environment (:mod:`clubsuite.rl.aec`,
:func:`clubsuite.coding.observation_of`), batched: ``{"observation": (num_envs, size) float32, "action_mask":
(num_envs, ids) int8}``. Rewards are those of :class:`clubsuite.rl.single.SingleSeatEnv`: the match's result
(+1, -1, 0) or each hand's score (``reward="points"``), and -1 ending the episode for an id the mask does not allow.
A table whose episode ended is reset at its next step, which ignores that step's action (Gymnasium's
``next-step`` autoreset).

**Seeds.** ``reset(seed=S)`` gives table i the base seed ``S + i``; its k-th episode is the match of seed
``derive_seed(S + i, k)``, dealt and played as :func:`clubsuite.runner.play_match` deals and plays it (the bots
drawing from one generator seeded from the match seed), so an episode is reproducible from its seed and its
learner's actions alone, and the same on either path below.

**Privileged information** (``privileged=True``; off by default, and **never for evaluation**: no seat may see
it, and the benchmark never turns it on): each step's ``infos["privileged"]`` holds ``hands``, the cards in every
seat's hand now (not the piles in no hand: a bid hand, a chest), by absolute seat (``infos["seat"]`` is the
learner's) and deck position (``num_envs, seats, deck``), and ``card_values``, where the learner is to play a card
and the game has an exact solver, the solver's final count for the learner after each of its legal cards, every
hand known, by action id (``num_envs, ids``; NaN elsewhere, and where the search would pass ``privileged_nodes``
positions): an oracle critic's input, or a target to distil. It runs on the engine's path (the tables' cards are
read from the engine's match), and the solver costs time at every card the learner plays.

**Two paths, one result.** Where a game's compiled kernel has tables for learners against the opponents asked for
(the game's registry part ``vector``) the whole batch runs in C, observations written straight into the arrays;
otherwise, or with ``CLUBS_PURE_PYTHON=1`` or ``engine=True``, each table is the engine's match and the
observation is built from the learner's view in Python. ``tests/test_rl_vector.py`` steps both paths side by side
and compares every observation, mask, reward and end.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.cards import bit_indices
from clubsuite.coding import Choice, Layout, RlCoding, coding_for, env_layout, observation_of
from clubsuite.engine import SomeGame, SomeMatch, resolve
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.rl.aec import REWARDS, settings
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed
from clubsuite.solver import NodeLimitError, NotSolvableError, card_values

SEAT_OF_EPISODE = 0x5EA7
"""The path of :func:`derive_seed` that draws the learner's seat from the match seed when it is not fixed."""
BOT_SEED = 0x5EED
"""The path of the bots' generator, as :func:`clubsuite.runner.play_match` seeds it."""
MOST_TABLES = 1 << 20
"""The most tables one environment holds."""
PRIVILEGED_NODES = 200_000
"""The most positions the solver may search for one decision's privileged card values."""

Batch = dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]


class EngineTable:
    """One table on the engine's path: the match, the learner's seat, the bots and their generator."""

    def __init__(
        self,
        info: SomeGame,
        options: object,
        coding: RlCoding,
        layout: Layout,
        lineup: Sequence[str],
        seat: int | None,
        points: bool,
        max_hands: int,
    ) -> None:
        self.info, self.options, self.coding, self.layout = info, options, coding, layout
        self.lineup, self.fixed_seat, self.points, self.max_hands = tuple(lineup), seat, points, max_hands
        self.base = self.episode = 0
        self.done = False

    def begin(self) -> None:
        """Start the episode ``self.episode`` of the base seed: its match, seat and bots, played to the learner."""
        self.match_seed = derive_seed(self.base, self.episode)
        seats = self.info.n_seats(self.options)
        if self.fixed_seat is None:
            self.learner = derive_seed(self.match_seed, SEAT_OF_EPISODE) % seats
        else:
            self.learner = self.fixed_seat
        others = [s for s in range(seats) if s != self.learner]
        self.bots: dict[int, SomeBot] = {
            s: make_bot(name, self.info.name) for s, name in zip(others, self.lineup, strict=True)
        }
        self.rng = random.Random(derive_seed(self.match_seed, BOT_SEED))
        self.match: SomeMatch = self.info.new_match(self.options, 0)
        self.ended = self.truncated = False
        deal_next(self.match, self.info, self.match_seed)
        self.run_bots()

    def _apply(self, action: object) -> float:
        """Apply a whole action; the learner's reward it brings (a hand's score, the match's result)."""
        match = self.match
        match.apply(action)
        if match.to_act is not None:
            return 0.0
        reward = float(match.hand_scores[-1][self.learner]) if self.points and match.hand_scores else 0.0
        if match.is_over:
            self.ended = True
            if not self.points:
                reward = 0.0 if match.draw else 1.0 if self.learner in set(match.winners) else -1.0
        elif len(match.hands) >= self.max_hands:
            self.truncated = True
        else:
            deal_next(match, self.info, self.match_seed)
        return reward

    def run_bots(self) -> float:
        """The bots act until the learner's turn or the end; the learner's reward meanwhile. Opens the learner's
        decision when it is its turn."""
        reward = 0.0
        match = self.match
        while not (self.ended or self.truncated) and (seat := match.to_act) != self.learner:
            assert seat is not None
            reward += self._apply(self.bots[seat].choose(match.view(seat), match.legal_actions(), self.rng))
        self.choice = None if self.ended or self.truncated else Choice(match.legal_actions(), self.coding.tokens)
        return reward

    def step(self, action_id: int) -> tuple[float, bool, bool, bool]:
        """One id of the learner: (reward, terminated, truncated, illegal)."""
        if self.choice is None or action_id not in self.choice.allowed():
            return -1.0, True, False, True
        chosen = self.choice.pick(action_id)
        if chosen is None:  # more ids to come in this decision
            return 0.0, False, False, False
        reward = self._apply(chosen)
        reward += self.run_bots()
        return reward, self.ended, self.truncated, False

    def privileged(self, hands: npt.NDArray[np.int8], values: npt.NDArray[np.float32], nodes: int) -> None:
        """Fill ``hands`` (seat by deck position: 1 for each card the seat holds now) and, where the learner is
        to play a card and the game has a solver, ``values`` (by action id: the solver's final count for the learner
        after each legal card, every hand known; left NaN where the search passes ``nodes`` positions)."""
        held = getattr(self.match.hands[-1], "hands", None) if self.match.hands else None
        for seat, mask in enumerate(held or ()):
            for index in bit_indices(int(mask)):
                hands[seat, self.layout.position[index]] = 1
        if self.choice is None or self.choice.picked or self.match.to_act != self.learner:
            return
        try:
            found = card_values(self.match, node_limit=nodes)
        except (NotSolvableError, NodeLimitError, ClubsError):
            return  # not card play, no solver for the game, or past the node limit: nothing said
        for card, value in found.items():
            ids = self.coding.tokens(card)
            if len(ids) == 1:
                values[ids[0]] = float(value)

    def observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The learner's observation and mask."""
        picked = self.choice.picked if self.choice is not None else ()
        vector = observation_of(self.coding, self.layout, self.match.view(self.learner), picked)
        mask = np.zeros(self.coding.action_count, np.int8)
        if self.choice is not None:
            mask[self.choice.allowed()] = 1
        return vector, mask


@runtime_checkable
class VectorTables(Protocol):
    """A game's compiled tables of one learner against bots, stepped together in its kernel: each call fills the
    arrays it is given, one row per table."""

    def reset(
        self,
        bases: Sequence[int],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        seats: npt.NDArray[np.int64],
        /,
    ) -> None:
        """Start episode 0 at every table from its base seed."""
        ...

    def step(
        self,
        ids: npt.NDArray[np.int64],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.uint8],
        truncated: npt.NDArray[np.uint8],
        illegal: npt.NDArray[np.uint8],
        seats: npt.NDArray[np.int64],
        /,
    ) -> None:
        """One action id per table, the learner's; the bots play until it is to act again or the episode ends."""
        ...


KernelTables = Callable[[object, int, Sequence[str], "int | None", str, int], object | None]
"""A game's part ``vector``: ``(options, n, opponents, seat, reward, max_hands)`` to :class:`VectorTables` for ``n``
tables with these settings, or None where its kernel cannot play them."""


@runtime_checkable
class HasVector(Protocol):
    """A game's parts that step tables in its compiled kernel."""

    def vector(self) -> KernelTables:
        """The maker of the tables."""
        ...


class ClubsVectorEnv(VectorEnv):
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
        spec, reward, max_hands = settings(spec, reward, max_hands)
        if not isinstance(num_envs, int) or not 1 <= num_envs <= MOST_TABLES:
            raise InvalidOptionsError(f"num_envs={num_envs!r}: from 1 to {MOST_TABLES:,} tables")
        if reward not in REWARDS:
            raise InvalidOptionsError(f"reward={reward!r}: expected one of {', '.join(REWARDS)}")
        if not isinstance(max_hands, int) or max_hands < 1:
            raise InvalidOptionsError(f"max_hands={max_hands!r}: at least 1 hand")
        self.info, self.options = resolve(spec)
        seats = self.info.n_seats(self.options)
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < seats):
            raise InvalidOptionsError(f"seat={seat!r}: {self.info.name} has seats 0 to {seats - 1}, or None to draw")
        names = [n.strip() for n in opponents.split(",")] if opponents else []
        if len(names) == 1:
            names *= seats - 1
        if len(names) != seats - 1:
            raise InvalidOptionsError(
                f"opponents={opponents!r}: give one bot for every other seat ({seats - 1}), or one for all of them"
            )
        for name in names:
            make_bot(name, self.info.name)  # refuses an unknown bot now, naming the known ones
        self.coding = coding_for(self.info, self.options)
        self.layout = env_layout(self.coding)
        self.num_envs = num_envs
        self.spec_text, self.opponents, self.fixed_seat = spec, tuple(names), seat
        self.reward_scheme, self.max_hands = reward, max_hands
        low, high = self.layout.bounds()
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.coding.action_count,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.coding.action_count)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, self.layout.size), np.float32)
        self._mask = np.zeros((num_envs, self.coding.action_count), np.int8)
        self._seats = np.zeros(num_envs, np.int64)
        if not isinstance(privileged, bool):
            raise InvalidOptionsError(f"privileged={privileged!r}: True or False")
        if not isinstance(privileged_nodes, int) or isinstance(privileged_nodes, bool) or privileged_nodes < 1:
            raise InvalidOptionsError(f"privileged_nodes={privileged_nodes!r}: a whole number of positions, at least 1")
        self.privileged, self.privileged_nodes = privileged, privileged_nodes
        self._tables = self._kernel_tables() if not (engine or privileged) else None
        self._engine: list[EngineTable] = []
        if self._tables is None:
            self._engine = [
                EngineTable(
                    self.info, self.options, self.coding, self.layout, names, seat, reward == "points", max_hands
                )
                for _ in range(num_envs)
            ]
        self._started = False

    @property
    def compiled(self) -> bool:
        """Whether the tables run in a compiled kernel (else on the engine's path)."""
        return self._tables is not None

    def _kernel_tables(self) -> VectorTables | None:
        """The kernel's tables for these settings, or None where there are none (no kernel for the game, not built,
        turned off, a bot the kernel does not have)."""
        if not isinstance(self.info.parts, HasVector):
            return None
        made = self.info.parts.vector()(
            self.options, self.num_envs, self.opponents, self.fixed_seat, self.reward_scheme, self.max_hands
        )
        if made is not None and not isinstance(made, VectorTables):
            raise TypeError(f"the vector part of {self.info.name} gave no tables: {made!r}")
        return made

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, object] | None = None
    ) -> tuple[Batch, dict[str, object]]:
        """Start episode 0 at every table: base seeds ``seed + i`` (a fresh random seed without one)."""
        if seed is None:
            seed = secrets.randbits(62)
        bases = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else [int(s) for s in seed]
        if len(bases) != self.num_envs or not all(0 <= b < 1 << 63 for b in bases):
            raise InvalidOptionsError(
                f"seed={seed!r}: a whole number from 0 below 2**63 - num_envs, or one such seed per table"
            )
        if self._tables is not None:
            self._tables.reset(bases, self._obs, self._mask, self._seats)
        else:
            for i, table in enumerate(self._engine):
                table.base, table.episode, table.done = bases[i], 0, False
                table.begin()
                self._obs[i], self._mask[i] = table.observe()
                self._seats[i] = table.learner
        self._started = True
        infos: dict[str, object] = {"seat": self._seats.copy()}
        self._add_privileged(infos)
        return self._batch(), infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Batch, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, object]]:
        """One action id per table; see the module docstring for rewards, ends and the autoreset."""
        if not self._started:
            raise InvalidOptionsError("the environment must be reset before it is stepped")
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise InvalidOptionsError(f"actions: one whole action id per table ({self.num_envs}), got {ids!r}")
        ids = ids.astype(np.int64)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.uint8)
        truncated = np.zeros(self.num_envs, np.uint8)
        illegal = np.zeros(self.num_envs, np.uint8)
        if self._tables is not None:
            self._tables.step(ids, self._obs, self._mask, rewards, terminated, truncated, illegal, self._seats)
        else:
            for i, table in enumerate(self._engine):
                if table.done:
                    table.episode += 1
                    table.done = False
                    table.begin()
                else:
                    rewards[i], terminated[i], truncated[i], illegal[i] = table.step(int(ids[i]))
                    table.done = bool(terminated[i] or truncated[i])
                self._obs[i], self._mask[i] = table.observe()
                self._seats[i] = table.learner
        infos: dict[str, object] = {"seat": self._seats.copy()}
        if illegal.any():
            infos["illegal_action"] = np.where(illegal.astype(bool), ids, -1)
            infos["_illegal_action"] = illegal.astype(bool)
        self._add_privileged(infos)
        return self._batch(), rewards, terminated.astype(bool), truncated.astype(bool), infos

    def _add_privileged(self, infos: dict[str, object]) -> None:
        """With ``privileged``, what no seat may see (see the module docstring): every table's hands and the
        solver's values of the learner's legal cards."""
        if not self.privileged:
            return
        seats = self.info.n_seats(self.options)
        hands = np.zeros((self.num_envs, seats, len(self.layout.deck.cards)), np.int8)
        values = np.full((self.num_envs, self.coding.action_count), np.nan, np.float32)
        for i, table in enumerate(self._engine):
            table.privileged(hands[i], values[i], self.privileged_nodes)
        infos["privileged"] = {"hands": hands, "card_values": values}
        infos["_privileged"] = np.ones(self.num_envs, bool)

    def _batch(self) -> Batch:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def close(self, **kwargs: object) -> None:
        """Nothing to release."""
