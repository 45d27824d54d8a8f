"""What a search bot maximizes: an estimate of its chance of winning the match, per game.

Every search ends its lines at the end of the hand in progress (playing whole matches out would cost a hundred
times more), so each game says, in its registry part ``objective``, how much a hand's outcome is worth towards
winning the match: 1 when the hand ends the match and the seat (or its team) is among the winners, 0 when it is
not, and in between an estimate from the totals. The estimates share one shape, :func:`race_share`: each side's
weight grows exponentially with its total, at a rate set by how far the leader still is from the target (a lead
of 10 points matters more with one hand left than with ten). The per-game parameters and readings are in
``docs/bots.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from clubsuite.engine import SomeMatch, find_game
from clubsuite.errors import InvalidOptionsError


class Objective(Protocol):
    """A game's objective for search bots (its registry part ``objective``)."""

    @property
    def measures(self) -> Sequence[str]:
        """The exact solver's measures the bot reads during card play (empty: the game is not solved)."""
        ...

    @property
    def solve_in_search(self) -> bool:
        """Whether ``pimc`` should value card play with the exact solver by default: its reading (the seat's side
        against everyone else) fits a game of two sides; where three players each play for themselves, playing the
        hand out with the rollout bots measured stronger."""
        ...

    def value(self, match: SomeMatch, seat: int) -> float:
        """What the state is worth to ``seat`` once the hand in progress has ended (scored, maybe the match over)."""
        ...

    def value_of_count(self, match: SomeMatch, seat: int, measure: str, count: int) -> float:
        """What ending the hand in progress with ``count`` of ``measure`` (as the solver counts it for ``seat``) is
        worth to ``seat``; ``match`` is the state before the rest of the hand is played."""
        ...


@runtime_checkable
class HasObjective(Protocol):
    """A game's parts that give the search bots its objective."""

    def objective(self) -> Objective:
        """The game's race estimate."""
        ...


@runtime_checkable
class HasFittedObjective(Protocol):
    """A game's parts that also give a fitted objective."""

    def fitted_objective(self) -> Objective:
        """A table fitted to who won matches from each score."""
        ...


OBJECTIVE_KINDS = ("formula", "fitted")
"""The kinds of objective a search may read: ``formula``, the game's race estimate (its part ``objective``), or
``fitted``, a table fitted to who won matches from each score (its part ``fitted_objective``, where it has one)."""


def objective_for(game: str, kind: str = "formula") -> Objective:
    """The objective of ``game`` of the kind ``kind`` (one of :data:`OBJECTIVE_KINDS`)."""
    info, _ = find_game(game)
    parts = info.parts
    if kind == "formula" and isinstance(parts, HasObjective):
        return parts.objective()
    if kind != "formula" and isinstance(parts, HasFittedObjective):
        return parts.fitted_objective()
    if kind != "formula":
        raise InvalidOptionsError(f"objective={kind}: {info.title} has no fitted objective yet; use objective=formula")
    raise InvalidOptionsError(f"{info.title} declares no objective, so search bots cannot play it")


def race_share(totals: Sequence[float], me: int, target: float, gain: float, spread: float) -> float:
    """The share of the winning chances of side ``me`` in a race of ``totals`` to ``target``.

    ``gain`` is the mean points a side scores in a hand and ``spread`` the standard deviation of a hand's points:
    with ``h`` hands left (about ``(target - leader) / gain``, at least one) a gap in totals is measured in units of
    ``spread * sqrt(h)``, and each side's weight is ``exp(total / unit)`` (for two sides, a logistic of the gap).
    """
    lead = max(totals)
    hands_left = max(1.0, (target - lead) / gain)
    unit = spread * math.sqrt(hands_left)
    weights = [math.exp((t - lead) / unit) for t in totals]
    return weights[me] / sum(weights)


def match_result(match: SomeMatch, seat: int, draw_value: float) -> float | None:
    """1 if the match is over and ``seat`` is among its winners, ``draw_value`` for a draw, 0 for a loss; None
    while the match goes on."""
    if not match.is_over:
        return None
    if match.draw:
        return draw_value
    return 1.0 if seat in match.winners else 0.0
