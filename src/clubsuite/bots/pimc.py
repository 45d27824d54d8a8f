"""``pimc``: Perfect-Information Monte Carlo search, for every game.

For each of K determinizations (complete states the seat cannot tell from the real one, drawn from its view), the
bot values every candidate action and plays the one with the best mean value, unless that action beats the rollout
bot's own choice by too little to be trusted (``caution``: the mean of the paired differences, world by world,
must exceed that many standard errors; with few worlds and many candidates, the best-looking action is otherwise
often one that was merely lucky). How an action is valued in one determinization:

* **during the card play of a trick game**, once at most ``tricks`` tricks are left, by the exact solver: one
  solve gives the value of every legal card with all hands known (the seat's side maximizing, everyone else
  minimizing), read through the game's objective (:mod:`clubsuite.bots.objective`). A game may name several
  measures (most and fewest tricks, where both can win): the bot takes the best of their means, so it commits to
  aiming high or low for the whole decision, not per imagined world;
* **everywhere else** (before the card play, in a game without a solver, a solve past its node limit), by
  playing the hand out with the rollout bot in every seat, the same random numbers for every action of one world
  (common random numbers cut the noise of the comparison), and reading the objective at the hand's end.

Deterministic for a seed and a sample budget: the seeds of all K worlds are drawn from the decision's RNG before
the search starts; a time budget (``ms`` of wall time, ``cpu`` of CPU time) may stop it after fewer worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clubsuite.bots.base import register_bot
from clubsuite.bots.objective import Objective, objective_for
from clubsuite.bots.searching import (
    Budget,
    Compared,
    Rollouts,
    candidates,
    check_choices,
    check_settings,
    seeds,
    worlds_from,
)
from clubsuite.engine import LegalActions, Phase, SomeMatch, find_game
from clubsuite.options import option
from clubsuite.solver.game import card_values
from clubsuite.solver.search import NodeLimitError


@dataclass(frozen=True, kw_only=True)
class PimcSettings:
    """The settings of a ``pimc`` bot, written ``pimc(samples=16,ms=200)``."""

    samples: int = option(16, "determinizations per decision, at most (a time budget may stop sooner)")
    ms: int = option(0, "wall-time budget per decision in milliseconds; 0: none (one world is always searched)")
    cpu: int = option(0, "CPU-time budget per decision in milliseconds (the thinking thread's); 0: none")
    rollout: str = option("heuristic", "the bot that plays hands out where the exact solver is not used")
    width: int = option(12, "the most actions compared; past it, the rollout bot's choice and a random draw")
    solver: str = option(
        "auto", "value card play with the exact solver: on, off, or auto (where the game's objective says it helps)"
    )
    tricks: int = option(7, "solve exactly once at most this many tricks are left; before, play the hand out")
    nodes: int = option(50_000, "the most solver nodes per solve; past it, that world is played out instead")
    caution: int = option(
        100, "keep the rollout bot's choice unless another beats it by this many hundredths of a standard error"
    )

    def __post_init__(self) -> None:
        check_choices("pimc", solver=(self.solver, ("auto", "on", "off")))
        check_settings(
            "pimc",
            samples=(self.samples, 1, 10_000),
            ms=(self.ms, 0, 600_000),
            cpu=(self.cpu, 0, 600_000),
            width=(self.width, 2, 10_000),
            tricks=(self.tricks, 0, 13),
            nodes=(self.nodes, 100, 100_000_000),
            caution=(self.caution, 0, 1000),
        )


class PimcBot:
    """The PIMC bot (see the module docstring)."""

    name = "pimc"

    def __init__(self, settings: PimcSettings | None = None) -> None:
        self.settings = settings or PimcSettings()
        self.rollouts = Rollouts(self.settings.rollout)
        self.worlds_searched = 0
        """How many determinizations the last decision searched (for benchmarks and tests)."""
        self.stopped_by = "work"
        """What ended the last decision's search: ``work``, ``cpu`` or ``wall`` (:class:`Budget`)."""

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """The candidate with the best mean value, unless that is no clear improvement on the rollout bot's own
        choice (see :attr:`PimcSettings.caution`)."""
        if len(legal) == 1:
            return legal[0]
        found = self._search(view, legal, rng, None)
        return found.decision(self.settings.caution / 100)

    def evaluate(
        self, view: object, legal: LegalActions[object], rng: random.Random, include: object | None = None
    ) -> list[tuple[object, float]]:
        """Each candidate action with its mean objective value over the determinizations (the best of the game's
        measures for it), in the order of ``legal``; ``include`` is compared even where the candidates are a draw."""
        return self._search(view, legal, rng, include).means()

    def compare(
        self, view: object, legal: LegalActions[object], rng: random.Random, include: object | None = None
    ) -> Compared:
        """The whole comparison behind a decision: the candidates and, per measure, every world's value of each
        (``include`` compared even where the candidates are a draw), for tools that judge a decision by the paired
        differences between two actions (``bench/mistakes.py``)."""
        return self._search(view, legal, rng, include)

    def _search(
        self, view: object, legal: LegalActions[object], rng: random.Random, include: object | None
    ) -> Compared:
        source = worlds_from(view)
        seat = source.seat
        settings = self.settings
        world_seeds = seeds(rng, settings.samples)
        first: SomeMatch = source.determinize(random.Random(world_seeds[0]))
        objective = objective_for(first.game)
        favourite = self.rollouts.bot(first.game, seat).choose(view, legal, random.Random(world_seeds[0]))
        actions = candidates(legal, settings.width, favourite, rng)
        if include is not None and include not in actions:
            actions.append(include)
        wanted = objective.solve_in_search if settings.solver == "auto" else settings.solver == "on"
        solved = wanted and bool(objective.measures) and _solvable(first, settings.tricks)
        measures = tuple(objective.measures) if solved else ("rollout",)
        rows: dict[str, list[list[float]]] = {m: [] for m in measures}
        budget = Budget(settings.samples, settings.ms, settings.cpu)
        while budget.more():
            k = budget.done
            world = first if k == 0 else source.determinize(random.Random(world_seeds[k]))
            values = self._solve(world, seat, actions, objective) if solved else None
            if values is None:
                values = self._play_out(world, seat, actions, objective, world_seeds[k])
                values = dict.fromkeys(measures, values["rollout"])
            for m in measures:
                rows[m].append(values[m])
            budget.done += 1
        self.worlds_searched = budget.done
        self.stopped_by = budget.stopped_by
        return Compared(actions, actions.index(favourite), rows)

    def _solve(
        self, world: SomeMatch, seat: int, actions: list[object], objective: Objective
    ) -> dict[str, list[float]] | None:
        """Each action's objective value in one world by the exact solver, per measure; None past the node limit."""
        out: dict[str, list[float]] = {}
        for m in objective.measures:
            try:
                counts = card_values(world, m, node_limit=self.settings.nodes)
            except NodeLimitError:
                return None
            out[m] = [objective.value_of_count(world, seat, m, counts[a]) for a in actions]
        return out

    def _play_out(
        self, world: SomeMatch, seat: int, actions: list[object], objective: Objective, seed: int
    ) -> dict[str, list[float]]:
        """Each action's objective value in one world, the hand played out by the rollout bots."""
        row = []
        for a in actions:
            child = world.clone()
            child.apply(a)
            self.rollouts.finish_hand(child, random.Random(seed))
            row.append(objective.value(child, seat))
        return {"rollout": row}


def _solvable(world: SomeMatch, tricks: int) -> bool:
    """Whether the world is at a card to play in a game with an exact solver, with at most ``tricks`` tricks left
    (the most cards in one hand, counting the card the seat to act is about to play)."""
    info, _ = find_game(world.game)
    if "solver" not in info.parts or world.phase != Phase.PLAY:
        return False
    hand = world.hands[-1]
    held: list[int] = hand.hands  # type: ignore[attr-defined]
    return max(h.bit_count() for h in held) <= tricks


register_bot("pimc", PimcBot, settings=PimcSettings)
