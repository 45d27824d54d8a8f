"""A PettingZoo AEC environment for every game and variant: ``clubsuite.rl.env(SPEC)`` for any rules spec, or for a
benchmark environment's id (``clubsuite.rl.env("clubs_free-v1")``: its rules, and by default its episode and what it
scores, :func:`settings`).

One episode is one whole match (unless ``max_hands`` cuts it, as a benchmark id of one-hand deals does). The
environment deals every hand from its own generator (seeded by ``reset(seed=...)``, so a seed replays the episode
exactly), and the agent to act is the seat to act. Actions are the game's fixed action ids
(:mod:`clubsuite.coding`): a decision that chooses several cards takes several steps of the same agent, one id each,
and the mask of each step allows only ids that lead to a legal action.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``, built from the seat's own view
only; the vector is the game's layout followed by ``picked``, the ids already chosen in the decision in progress.
Rewards (``reward="win"``, the default): at the end of the match +1 to every winner (a team wins together), -1 to
every other seat, 0 to all in a draw (in a game that has draws). With ``reward="points"`` each seat gets its score
of each hand when the hand ends instead. A match that reaches ``max_hands`` hands without an end (ties can replay
hands) is truncated with no reward.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from clubsuite.coding import Choice, coding_for, env_layout, observation_of
from clubsuite.engine import SomeMatch, default_game, resolve
from clubsuite.errors import IllegalActionError, InvalidOptionsError

REWARDS = ("win", "points")
"""The reward schemes."""
Observation = dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]
"""An agent's observation: its ``observation`` vector (float32) and its ``action_mask`` (int8)."""

MAX_HANDS = 500
"""The default cap on hands per episode (a whole match rarely passes 30)."""


def settings(name: str | None, reward: str | None, max_hands: int | None) -> tuple[str, str, int]:
    """The rules spec, reward scheme and hand cap of an environment asked for by ``name``, with ``reward`` and
    ``max_hands`` where given (None: the default):

    * a benchmark environment's id (``clubs_<game>-v1``): its rules spec, and by default what its deals score
      (``docs/benchmark.md``): where a deal is one hand, one hand an episode (``max_hands=1``) rewarded with its
      points (``reward="points"``); where a deal is a whole match, the match rewarded by who wins it (``"win"``);
    * a rules spec (a game's name, with options or not), or None for the default game: whole matches, ``"win"``.

    A name that looks like an id but is none is refused, naming the ids."""
    from clubsuite.rl.benchmarks import ENVS

    if name is not None and name in ENVS:
        bench = ENVS[name]
        one_hand = bench.episode == "hand"
        spec = bench.spec
        reward = reward if reward is not None else "points" if one_hand else "win"
        max_hands = max_hands if max_hands is not None else 1 if one_hand else MAX_HANDS
        return spec, reward, max_hands
    if name is not None and name.startswith("clubs_"):
        raise InvalidOptionsError(f"{name}: not a benchmark environment; the ids are: {', '.join(ENVS)}")
    spec = default_game().name if name is None else name
    return spec, reward if reward is not None else "win", max_hands if max_hands is not None else MAX_HANDS


class ClubsEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """The raw AEC environment (:func:`env` adds PettingZoo's usual checking wrappers)."""

    def __init__(
        self,
        spec: str | None = None,
        reward: str | None = None,
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        spec, reward, max_hands = settings(spec, reward, max_hands)
        if reward not in REWARDS:
            raise InvalidOptionsError(f"reward={reward!r}: expected one of {', '.join(REWARDS)}")
        if not isinstance(max_hands, int) or max_hands < 1:
            raise InvalidOptionsError(f"max_hands={max_hands!r}: at least 1 hand")
        if render_mode not in (None, "ansi"):
            raise InvalidOptionsError(f"render_mode={render_mode!r}: only 'ansi' (text) is offered")
        self.info, self.options = resolve(spec)
        self.spec_text = spec
        self.coding = coding_for(self.info, self.options)
        self.layout = env_layout(self.coding)
        self.seats = self.info.n_seats(self.options)
        self.reward_scheme = reward
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"], "is_parallelizable": False, "name": f"clubs_{self.info.name}_v0"}
        self.possible_agents = [f"player_{s}" for s in range(self.seats)]
        low, high = self.layout.bounds()
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.coding.action_count,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(self.coding.action_count) for a in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self.match: SomeMatch | None = None
        self._choice: Choice | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time): a Dict space of :data:`Observation`
        (Gymnasium types a Dict space as one of spaces, not of the arrays it gives, hence Any here)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: the game's action ids."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Start a new match; a seed makes the episode (every deal) the same each time."""
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self.match = self.info.new_match(self.options, self._rng.randrange(self.seats))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.match.deal(self._rng)
        self._next_decision()

    def _live(self) -> SomeMatch:
        if self.match is None:
            raise InvalidOptionsError("the environment must be reset before it is used")
        return self.match

    def _next_decision(self) -> None:
        """Open the decision of the seat to act and select its agent."""
        match = self._live()
        seat = match.to_act
        assert seat is not None
        self._choice = Choice(match.legal_actions(), self.coding.tokens)
        self.agent_selection = self.possible_agents[seat]

    def seat_of(self, agent: str) -> int:
        """The seat of ``agent``."""
        return self.possible_agents.index(agent)

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """1 for every id ``agent`` may pick now (all 0 when it is not its turn)."""
        mask = np.zeros(self.coding.action_count, np.int8)
        if (
            self._choice is not None
            and agent == self.agent_selection
            and not (self.terminations[agent] or self.truncations[agent])
        ):
            mask[self._choice.allowed()] = 1
        return mask

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its own view and, on its turn, the ids it has picked; and its action mask."""
        picked = self._choice.picked if self._choice is not None and agent == self.agent_selection else ()
        vector = observation_of(self.coding, self.layout, self._live().view(self.seat_of(agent)), picked)
        return {"observation": vector, "action_mask": self.action_mask(agent)}

    def step(self, action: int | None) -> None:
        """Pick one action id for the agent to act (None for an agent whose episode is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or self._choice is None:
            raise IllegalActionError(f"{agent} must pick an action id, not {action!r}")
        chosen = self._choice.pick(int(action))  # refuses an id the mask does not allow, changing nothing
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if chosen is not None:
            self._play(chosen)
        self._accumulate_rewards()

    def _play(self, action: object) -> None:
        """Apply a whole game action, then deal the next hand or end the episode as the match says."""
        match = self._live()
        match.apply(action)
        if match.to_act is not None:
            self._next_decision()
            return
        if self.reward_scheme == "points" and match.hand_scores:
            for seat, score in enumerate(match.hand_scores[-1]):
                self.rewards[self.possible_agents[seat]] = float(score)
        if match.is_over:
            if self.reward_scheme == "win":
                winners = set(match.winners)
                for seat, agent in enumerate(self.possible_agents):
                    self.rewards[agent] = 0.0 if match.draw else 1.0 if seat in winners else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._choice = None
        elif len(match.hands) >= self.max_hands:
            self.truncations = dict.fromkeys(self.agents, True)
            self._choice = None
        else:
            match.deal(self._rng)
            self._next_decision()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, one line of public facts: the hand, the phase, the seat to act, totals."""
        if self.render_mode is None or self.match is None:
            return None
        m = self.match
        return (
            f"{self.info.name} hand {len(m.hands)}: {m.phase}, to act: "
            f"{'nobody' if m.to_act is None else self.possible_agents[m.to_act]}, totals {list(m.totals)}"
        )

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    spec: str | None = None,
    *,
    reward: str | None = None,
    max_hands: int | None = None,
    render_mode: str | None = None,
) -> ClubsEnv:
    """The environment of a rules spec or a benchmark id (the default game without one; :func:`settings`), without
    PettingZoo's wrappers."""
    return ClubsEnv(spec, reward=reward, max_hands=max_hands, render_mode=render_mode)


def env(
    spec: str | None = None,
    *,
    reward: str | None = None,
    max_hands: int | None = None,
    render_mode: str | None = None,
) -> AECEnv:
    """The environment of a game or variant spec, or of a benchmark id (:func:`settings`), with PettingZoo's usual
    wrappers: an action id the mask does not
    allow ends the episode with -1 for the agent that chose it, and calls out of order are refused."""
    raw = raw_env(spec, reward=reward, max_hands=max_hands, render_mode=render_mode)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
