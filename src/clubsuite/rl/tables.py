"""The tables behind the vector environments (:mod:`clubsuite.rl.vector`, :mod:`clubsuite.rl.selfplay`): many
matches at once, some seats played from outside (one id per table at each :meth:`Tables.step`: a learner, or
several in self-play), the others by this project's bots, the learned bot among them.

At each table the learner holds one seat (fixed, or drawn for each episode from the match seed) and ``lineup`` says
who plays each other seat, in increasing seat order: a bot's name, or :data:`OUTSIDE` (another seat played from
outside). A step takes one id for the seat to act at each table, applies it and plays the other seats until a seat
played from outside is to act or the episode ends. Each seat's reward is the match's result (+1, -1, 0) or each
hand's score (``points``), and -1 to the seat that picks an id the mask does not allow, which ends the episode; a
table whose episode ended is reset at its next step, which ignores that step's action (Gymnasium's ``next-step``
autoreset). The row of a table shows the seat to act, or the learner's seat once the episode is over.

**Seeds.** Table i's k-th episode is the match of seed ``derive_seed(base_i, k)``, dealt and played as
:func:`clubsuite.runner.play_match` deals and plays it (the bots drawing from one generator seeded from the match
seed): an episode is reproducible from its seed and the ids played from outside alone.

**Two paths, one result.** Where a game's compiled kernel has tables for these seats (the game's registry part
``vector``: every game's kernel plays the random, heuristic and learned bots and seats played from outside) the
whole batch runs in C, observations written straight into the arrays, and a learned seat's network is evaluated
there too, one decision after another with no call back into Python: the same choices as the learned bot's
(:mod:`clubsuite.bots.policy_arith`: scores that are the same bits in any batch, and the same search). Otherwise, or
with ``CLUBS_PURE_PYTHON=1`` or ``engine=True``, each table is the engine's match and the observation is built from
the seat's view in Python. ``tests/test_rl_vector.py`` and ``tests/test_rl_selfplay.py`` step both paths side by side
and compare every observation, mask, reward, end and seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from clubsuite.bots.base import SomeBot, bot_names, make_bot
from clubsuite.cards import bit_indices
from clubsuite.coding import Choice, Layout, RlCoding, observation_of
from clubsuite.engine import SomeGame, SomeMatch
from clubsuite.errors import ClubsError
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed
from clubsuite.solver import NodeLimitError, NotSolvableError, card_values

SEAT_OF_EPISODE = 0x5EA7
"""The path of :func:`derive_seed` that draws the learner's seat from the match seed when it is not fixed."""
BOT_SEED = 0x5EED
"""The path of the bots' generator, as :func:`clubsuite.runner.play_match` seeds it."""
OUTSIDE = "outside"
"""In a lineup: a seat played from outside (its ids given to each step)."""


class EngineTable:
    """One table on the engine's path: the match, the seats, the bots and their generator."""

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
        self.seats = info.n_seats(options)
        self.base = self.episode = 0
        self.done = False
        self.gained = [0.0] * self.seats

    def begin(self) -> None:
        """Start the episode ``self.episode`` of the base seed: its match, seats and bots, played to the first turn
        of a seat played from outside."""
        self.match_seed = derive_seed(self.base, self.episode)
        if self.fixed_seat is None:
            self.learner = derive_seed(self.match_seed, SEAT_OF_EPISODE) % self.seats
        else:
            self.learner = self.fixed_seat
        others = [s for s in range(self.seats) if s != self.learner]
        self.outside = {self.learner} | {s for s, name in zip(others, self.lineup, strict=True) if name == OUTSIDE}
        self.bots: dict[int, SomeBot] = {
            s: make_bot(name, self.info.name) for s, name in zip(others, self.lineup, strict=True) if name != OUTSIDE
        }
        self.rng = random.Random(derive_seed(self.match_seed, BOT_SEED))
        self.match: SomeMatch = self.info.new_match(self.options, 0)
        self.ended = self.truncated = False
        deal_next(self.match, self.info, self.match_seed)
        self.run_bots()
        self.gained = [0.0] * self.seats

    def _apply(self, action: object) -> None:
        """Apply a whole action, adding to each seat's gains what it brings (a hand's score, the match's result)."""
        match = self.match
        match.apply(action)
        if match.to_act is not None:
            return
        if self.points and match.hand_scores:
            for s in range(self.seats):
                self.gained[s] += float(match.hand_scores[-1][s])
        if match.is_over:
            self.ended = True
            if not self.points:
                winners = set(match.winners)
                for s in range(self.seats):
                    self.gained[s] += 0.0 if match.draw else 1.0 if s in winners else -1.0
        elif len(match.hands) >= self.max_hands:
            self.truncated = True
        else:
            deal_next(match, self.info, self.match_seed)

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once the episode is over."""
        return None if self.ended or self.truncated else self.match.to_act

    def run_bots(self) -> None:
        """The bots act until a seat played from outside is to act, or the end. Opens that seat's decision."""
        match = self.match
        while (seat := self.to_act) is not None and seat not in self.outside:
            self._apply(self.bots[seat].choose(match.view(seat), match.legal_actions(), self.rng))
        self.choice = None if self.to_act is None else Choice(match.legal_actions(), self.coding.tokens)

    def step(self, action_id: int) -> tuple[bool, bool, bool]:
        """One id of the seat to act: (terminated, truncated, illegal); the seats' rewards are added to
        :attr:`gained` (-1 to the seat for an id the mask does not allow)."""
        seat = self.to_act
        if self.choice is None or seat is None or action_id not in self.choice.allowed():
            if seat is not None:
                self.gained[seat] -= 1.0
            return True, False, True
        chosen = self.choice.pick(action_id)
        if chosen is None:  # more ids to come in this decision
            return False, False, False
        self._apply(chosen)
        self.run_bots()
        return self.ended, self.truncated, False

    def shown(self) -> int:
        """The seat whose observation the table's row shows: the seat to act, or the learner's once it is over."""
        seat = self.to_act
        return self.learner if seat is None else seat

    def observe(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``seat``'s observation, and its mask (the ids it may pick now: none unless it is to act)."""
        mine = self.choice is not None and self.to_act == seat
        picked = self.choice.picked if mine and self.choice is not None else ()
        vector = observation_of(self.coding, self.layout, self.match.view(seat), picked)
        mask = np.zeros(self.coding.action_count, np.int8)
        if mine and self.choice is not None:
            mask[self.choice.allowed()] = 1
        return vector, mask

    def privileged(self, hands: npt.NDArray[np.int8], values: npt.NDArray[np.float32], nodes: int) -> None:
        """Fill ``hands`` (seat by deck position: 1 for each card the seat holds now) and, where the learner is
        to play a card and the game has a solver, ``values`` (by action id: the solver's final count for the learner
        after each legal card, every hand known; left NaN where the search passes ``nodes`` positions)."""
        held = getattr(self.match.hands[-1], "hands", None) if self.match.hands else None
        for seat, mask in enumerate(held or ()):
            for index in bit_indices(int(mask)):
                hands[seat, self.layout.position[index]] = 1
        if self.choice is None or self.choice.picked or self.to_act != self.learner:
            return
        try:
            found = card_values(self.match, node_limit=nodes)
        except (NotSolvableError, NodeLimitError, ClubsError):
            return  # not card play, no solver for the game, or past the node limit: nothing said
        for card, value in found.items():
            ids = self.coding.tokens(card)
            if len(ids) == 1:
                values[ids[0]] = float(value)


@runtime_checkable
class VectorTables(Protocol):
    """A game's compiled tables, stepped together in its kernel (``native/vector_tables.pxi``): each call fills the
    arrays it is given, one row per table."""

    seats: int

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
        """One id per table, of the seat to act; the other seats play until one played from outside is to act."""
        ...


Layers = Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
"""A policy's layers, ``(weights, biases)`` pairs (:class:`clubsuite.bots.policy.Policy`)."""
KernelTables = Callable[[object, int, Sequence[str], "int | None", str, int, "Layers | None"], object | None]
"""A game's part ``vector``: ``(options, n, lineup, seat, reward, max_hands, layers)`` to :class:`VectorTables` for
``n`` tables with these settings (``layers``: the learned seats' policy, where a seat is learned), or None where its
kernel cannot play them."""


@runtime_checkable
class HasVector(Protocol):
    """A game's parts that step tables in its compiled kernel."""

    def vector(self) -> KernelTables:
        """The maker of the tables."""
        ...


def stand_in(game: str) -> str:
    """The bot the learned bot plays as at a table no policy reads (:class:`clubsuite.bots.learned.LearnedBot`)."""
    return "heuristic" if "heuristic" in bot_names(game) else "random"


class Tables:
    """``n`` tables of ``info`` with these seats (see the module docstring), on the kernel or the engine's path.
    :attr:`obs`, :attr:`mask` and :attr:`seats` (the seat each row shows) are kept up to date by :meth:`reset` and
    :meth:`step`."""

    def __init__(
        self,
        info: SomeGame,
        options: object,
        coding: RlCoding,
        layout: Layout,
        n: int,
        seat: int | None,
        lineup: Sequence[str],
        reward: str,
        max_hands: int,
        engine: bool,
    ) -> None:
        self.info, self.options, self.n = info, options, n
        self.seat_count = info.n_seats(options)
        self.obs = np.zeros((n, layout.size), np.float32)
        self.mask = np.zeros((n, coding.action_count), np.int8)
        self.seats = np.zeros(n, np.int64)
        self.kernel = None if engine else self._kernel(seat, lineup, reward, max_hands)
        self.engine: list[EngineTable] = []
        if self.kernel is None:
            self.engine = [
                EngineTable(info, options, coding, layout, lineup, seat, reward == "points", max_hands)
                for _ in range(n)
            ]

    def _kernel(self, seat: int | None, lineup: Sequence[str], reward: str, max_hands: int) -> VectorTables | None:
        """The kernel's tables for these settings, or None where there are none (no kernel for the game, not built,
        turned off, a bot the kernel does not have). A learned seat at a table no shipped policy reads is its
        stand-in bot, as the learned bot itself plays there."""
        if not isinstance(self.info.parts, HasVector):
            return None
        layers = None
        if "learned" in lineup:
            from clubsuite.bots.learned import policy_for

            policy = policy_for(self.info.name, self.options)
            if policy is None:
                lineup = [stand_in(self.info.name) if name == "learned" else name for name in lineup]
            elif policy.net is None:  # the policy's arithmetic is not compiled here (or too wide for it)
                return None
            else:
                layers = policy.layers
        made = self.info.parts.vector()(self.options, self.n, lineup, seat, reward, max_hands, layers)
        if made is not None and not isinstance(made, VectorTables):
            raise TypeError(f"the vector part of {self.info.name} gave no tables: {made!r}")
        return made

    def reset(self, bases: Sequence[int]) -> None:
        """Start episode 0 at every table from its base seed."""
        if self.kernel is not None:
            self.kernel.reset(bases, self.obs, self.mask, self.seats)
            return
        for i, table in enumerate(self.engine):
            table.base, table.episode, table.done = bases[i], 0, False
            table.begin()
            self.seats[i] = table.shown()
            self.obs[i], self.mask[i] = table.observe(int(self.seats[i]))

    def step(
        self, ids: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """One id per table (of the seat to act there): each seat's reward (tables by seats), and each table's
        terminated, truncated and illegal flags."""
        rewards = np.zeros((self.n, self.seat_count), np.float64)
        terminated = np.zeros(self.n, np.uint8)
        truncated = np.zeros(self.n, np.uint8)
        illegal = np.zeros(self.n, np.uint8)
        if self.kernel is not None:
            self.kernel.step(ids, self.obs, self.mask, rewards, terminated, truncated, illegal, self.seats)
            return rewards, terminated, truncated, illegal
        for i, table in enumerate(self.engine):
            if table.done:
                table.episode += 1
                table.done = False
                table.begin()
            else:
                terminated[i], truncated[i], illegal[i] = table.step(int(ids[i]))
                rewards[i] = table.gained
                table.gained = [0.0] * table.seats
                table.done = bool(terminated[i] or truncated[i])
            self.seats[i] = table.shown()
            self.obs[i], self.mask[i] = table.observe(int(self.seats[i]))
        return rewards, terminated, truncated, illegal
