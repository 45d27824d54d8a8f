"""A Gymnasium environment for one learner: it holds one seat of a game, this project's bots hold the others.

Built on the PettingZoo environment (:mod:`clubsuite.rl.aec`), with the same action ids, observation and action
mask (in the observation dict, as ``action_mask``). Between the learner's steps the other seats' bots play, each
from its own seat's view; a bot's multi-card choice is fed to the environment id by id, as a learner's would be.
The learner's seat is fixed (``seat=0``) or drawn for each episode (``seat=None``). An action id the mask does
not allow ends the episode with reward -1 (Gymnasium's own checker steps with unmasked random actions).
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.aec import ClubsEnv, Observation


class SingleSeatEnv(gymnasium.Env[Observation, np.int64]):
    """One learner's seat against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  # Gymnasium's own attribute, read from the class

    def __init__(
        self,
        spec: str | None = None,
        opponents: str = "heuristic",
        seat: int | None = 0,
        reward: str | None = None,
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.game = ClubsEnv(spec, reward=reward, max_hands=max_hands, render_mode=render_mode)
        self.render_mode = render_mode
        names = [n.strip() for n in opponents.split(",")] if opponents else []
        others = self.game.seats - 1
        if len(names) == 1:
            names *= others
        if len(names) != others:
            raise InvalidOptionsError(
                f"opponents={opponents!r}: give one bot for every other seat ({others}), or one for all of them"
            )
        if seat is not None and not 0 <= seat < self.game.seats:
            raise InvalidOptionsError(f"seat={seat}: {self.game.info.name} has seats 0 to {self.game.seats - 1}")
        for name in names:
            make_bot(name, self.game.info.name)  # refuses an unknown bot now, naming the known ones
        self.opponent_names = tuple(names)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.observation_space = self.game.observation_space(self.game.possible_agents[0])
        self.action_space = gymnasium.spaces.Discrete(self.game.coding.action_count)
        self._bots: dict[int, SomeBot] = {}
        self._bot_rng = random.Random(0)
        self._queued: list[int] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[Observation, dict[str, object]]:
        """A new match: the learner's seat (drawn when not fixed), fresh bots, the others played to its turn."""
        super().reset(seed=seed)
        self.game.reset(seed=int(self.np_random.integers(2**62)))
        self.seat = int(self.np_random.integers(self.game.seats)) if self.fixed_seat is None else self.fixed_seat
        others = [s for s in range(self.game.seats) if s != self.seat]
        self._bots = {
            s: make_bot(name, self.game.info.name) for s, name in zip(others, self.opponent_names, strict=True)
        }
        self._bot_rng = random.Random(int(self.np_random.integers(2**62)))
        self._queued = []
        self._others_play()
        return self._observation(), {"seat": self.seat}

    @property
    def agent(self) -> str:
        """The learner's agent name in the PettingZoo environment."""
        return self.game.possible_agents[self.seat]

    def _observation(self) -> Observation:
        return self.game.observe(self.agent)

    def _others_play(self) -> tuple[float, bool]:
        """Let the bots act until the learner's turn or the end; the learner's reward meanwhile, and whether the
        episode is over."""
        game = self.game
        reward = 0.0
        while not (game.terminations[self.agent] or game.truncations[self.agent]):
            if game.agent_selection == self.agent:
                break
            seat = game.seat_of(game.agent_selection)
            if not self._queued:
                match = game._live()
                action = self._bots[seat].choose(match.view(seat), match.legal_actions(), self._bot_rng)
                self._queued = list(game.coding.tokens(action))
            game.step(self._queued.pop(0))
            reward += game.rewards[self.agent]
        return reward, game.terminations[self.agent] or game.truncations[self.agent]

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, object]]:
        """The learner picks one action id; the bots then play to its next turn or to the end."""
        game = self.game
        if game.terminations[self.agent] or game.truncations[self.agent]:
            raise InvalidOptionsError("the episode is over: reset the environment")
        if not game.action_mask(self.agent)[int(action)]:
            return self._observation(), -1.0, True, False, {"illegal_action": int(action)}
        game.step(int(action))
        reward = game.rewards[self.agent]
        more, _ = self._others_play()
        reward += more
        terminated = bool(game.terminations[self.agent])
        truncated = bool(game.truncations[self.agent])
        return self._observation(), float(reward), terminated, truncated, {}

    def render(self) -> str | None:
        """The public line of the PettingZoo environment (``render_mode="ansi"``)."""
        return self.game.render()

    def close(self) -> None:
        """Nothing to release."""
