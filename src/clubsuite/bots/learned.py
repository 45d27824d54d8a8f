"""The ``learned`` bot: a policy network trained by imitation of the ``expert`` level (``docs/learning.md``),
played alone: no search, one small network's scores a decision, its best allowed action taken.

The policies ship in the package (``bots/policies/<environment id>.npz``, one per benchmark environment trained so
far, each a weights file of :mod:`clubsuite.bots.policy`: data, never code). At a table the bot plays the policy of
the benchmark environment whose rules the table plays; at a table of other options, the policy of an environment of
the same game whose observation and actions are the same (the same number of players: a different target score,
for instance, is still the same board); where the game has no such policy (a number of players none was trained
for), it plays as the heuristic bot does and says so in :attr:`LearnedBot.stand_in`.

It chooses the same action every time in the same position: the legal action the policy finds likeliest
(:class:`clubsuite.bots.policy.PolicyBot`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from clubsuite.bots.base import SomeBot, bot_names, make_bot, register_bot
from clubsuite.coding import HasBenchmark, RlCoding, coding_for, env_layout
from clubsuite.engine import LegalActions, View, find_game, games

if TYPE_CHECKING:
    from clubsuite.bots.policy import Policy

POLICIES = Path(__file__).resolve().parent / "policies"
"""Where the shipped policies are."""


def _signature(coding: RlCoding) -> tuple[object, ...]:
    """What a policy's inputs and outputs are: the observation's slots (name, size, bounds), the deck its card slots
    index, and the action catalogue."""
    layout = env_layout(coding)
    slots = tuple((s.name, s.size, s.low, s.high) for s in layout.slots)
    return slots, tuple(c.index for c in layout.deck.cards), coding.action_names


@cache
def shipped(game: str) -> tuple[tuple[str, str], ...]:
    """The (environment id, rules spec) of every benchmark environment of ``game`` that has a shipped policy."""
    info, _ = find_game(game)
    declared = info.parts.benchmark() if isinstance(info.parts, HasBenchmark) else ()
    return tuple((e["id"], e["spec"]) for e in declared if (POLICIES / f"{e['id']}.npz").is_file())


@cache
def _policy(env_id: str, spec: str) -> Policy:
    """The shipped policy of ``env_id``, read and checked once (its weights shared by every table that plays it)."""
    from clubsuite.bots.policy import Policy

    return Policy(POLICIES / f"{env_id}.npz", env_id, spec)


@lru_cache(maxsize=256)
def policy_for(game: str, options: object) -> Policy | None:
    """The shipped policy a table of ``game`` with ``options`` plays (see the module docstring), reading the table's
    own coding; None where there is none. Another environment's policy fits only a table of as many seats, the same
    teams, and the same observation and actions (each slot's name, size and bounds, the deck, the action names)."""
    from clubsuite.engine import resolve

    info, _ = find_game(game)
    table = _signature(coding_for(info, options))
    fits = None
    for env_id, spec in shipped(game):
        _, env_options = resolve(spec)
        if env_options == options:
            return _policy(env_id, spec)
        if (
            fits is None
            and info.n_seats(env_options) == info.n_seats(options)
            and info.teams_of(env_options) == info.teams_of(options)
            and _signature(coding_for(info, env_options)) == table
        ):
            fits = (env_id, spec)
    return _policy(*fits).at_table(options) if fits is not None else None


class TableView(View, Protocol):
    """A seat's view as the learned bot reads it: the table's options choose the policy."""

    @property
    def options(self) -> object:
        """The rules options of the table."""
        ...


class LearnedBot:
    """The learned bot of one game (see the module docstring)."""

    name = "learned"

    def __init__(self, game: str) -> None:
        self.game = game
        self.fallback: SomeBot = make_bot("heuristic" if "heuristic" in bot_names(game) else "random", game)
        self.stand_in = False
        """Whether the last decision was the heuristic bot's, for want of a policy for the table."""

    def choose(self, view: TableView, legal: LegalActions[object], rng: random.Random) -> object:
        """The policy's choice, or the heuristic bot's where the table has no policy."""
        from clubsuite.bots.policy import PolicyBot

        policy = policy_for(self.game, view.options)
        self.stand_in = policy is None
        if policy is None:
            return self.fallback.choose(view, legal, rng)
        return PolicyBot(policy, self.name).choose(view, legal, rng)


def has_policy(game: str) -> bool:
    """Whether ``game`` has a shipped policy for at least one of its environments."""
    return bool(shipped(game))


def _factory(game: str) -> Callable[[], LearnedBot]:
    return lambda: LearnedBot(game)


for _info in games():
    if has_policy(_info.name):
        register_bot("learned", _factory(_info.name), _info.name)
