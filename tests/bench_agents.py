"""Agents given to ``clubs evaluate`` as Python entry points (``bench_agents:first_legal``) in the benchmark's
tests: a bot that counts its decisions, and factories that are not bots."""

from __future__ import annotations

import random
from typing import Any

DECISIONS = [0]
"""Every decision a :func:`first_legal` bot has made in this process."""


class FirstLegal:
    """Plays the first legal action, and counts its decisions."""

    name = "first-legal"

    def choose(self, view: Any, legal: Any, rng: random.Random) -> object:
        DECISIONS[0] += 1
        return next(iter(legal))


def first_legal(spec: str) -> FirstLegal:
    """The factory ``clubs evaluate`` calls with the environment's rules spec."""
    return FirstLegal()


def not_a_bot(spec: str) -> str:
    """A factory that returns something that cannot play."""
    return "no bot here"


NOT_CALLABLE = 3


SEATS: list[tuple[int, int]] = []
"""(the bot's id, the seat of the view it was asked to decide from), for every decision of a :func:`recording`."""


class Recording(FirstLegal):
    """Plays the first legal action, and writes down at which seat it played."""

    def choose(self, view: Any, legal: Any, rng: random.Random) -> object:
        SEATS.append((id(self), int(view.seat)))
        return super().choose(view, legal, rng)


def recording(spec: str) -> Recording:
    """The factory of :class:`Recording`."""
    return Recording()


class Crashing(FirstLegal):
    """Fails at its first decision."""

    def choose(self, view: Any, legal: Any, rng: random.Random) -> object:
        raise RuntimeError("out of ideas")


def crashing(spec: str) -> Crashing:
    """The factory of :class:`Crashing`."""
    return Crashing()


class Cheating(FirstLegal):
    """Answers with something no rule allows."""

    def choose(self, view: Any, legal: Any, rng: random.Random) -> object:
        return "a card up my sleeve"


def cheating(spec: str) -> Cheating:
    """The factory of :class:`Cheating`."""
    return Cheating()


MADE = [0]
"""How many :func:`failing_later` bots this process has made."""
FAIL_AT = [40]
"""The :func:`failing_later` bot made this many-th fails at its first decision (a run stopped part way)."""


def failing_later(spec: str) -> FirstLegal:
    """Plays the first legal action, until the ``FAIL_AT``-th bot made: that one fails (the evaluation stops part
    way through, as a stopped machine would stop it)."""
    MADE[0] += 1
    return Crashing() if MADE[0] == FAIL_AT[0] else FirstLegal()


def linear_scores(size: int, actions: int) -> Any:
    """A fixed linear model (observations x action ids, drawn from seed 7): a stand-in for a learned one."""
    import numpy as np

    weights = np.random.default_rng(7).normal(size=(size, actions)).astype(np.float32)
    return lambda batch: batch @ weights


def adapted(spec: str) -> Any:
    """An entry point as docs/benchmark.md shows one: a model read through the observation adapter."""
    from clubsuite.rl.adapter import Adapter

    adapter = Adapter(spec)
    return adapter.bot(linear_scores(adapter.observation_size, adapter.action_count), name="adapted-linear")
