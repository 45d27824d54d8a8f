"""``ismcts``: Information-Set Monte Carlo Tree Search (single observer), for every game.

One tree, over the actions taken from the decision on (the bot's own and everyone else's); every iteration draws a
new determinization from the bot's view and walks the tree down *in that world*: at each node only the actions
legal in that world are considered, each child counts how often it was available, and the choice among them is
UCB1 with those availability counts (Cowling, Powley and Whitehouse, 2012). The first action not yet in the tree is
added, the hand is played out by the rollout bot, and every node on the path gets the objective value (see
:mod:`clubsuite.bots.objective`) of the seat that chose it. The decision is the most visited action at the root,
unless its mean beats the rollout bot's own choice by too little to be trusted (``caution``: that many standard
errors of the difference of the two means), as in ``pimc``: with a few dozen iterations in a fifth of a second the
most visited action is otherwise often one whose first rollouts were merely lucky.

Why single-observer: in these games almost every action is public (every card played, every bid, every exchange
decision); only the cards of a pass, a discard or an exchange are hidden, once a hand. Multiple-observer ISMCTS
keeps a tree per player to stop a player's tree from branching on what it cannot see; here that happens at most
once a hand, and one tree spends the whole budget on the bot's own information. A tree node is keyed by the
actions taken, so a hidden choice of another seat (which three cards it passed) branches where that seat could
tell the worlds apart: the bot then averages over the passes its worlds drew, which is what it may know.

UCB1's exploration constant assumes values spread over about [0, 1]. Where one hand moves the chance of winning the
match only a little (a long race to a target), the exploration term can swamp the differences between actions and
spread the iterations evenly; ``normalize=on`` multiplies the constant by the range of the values seen
so far in the search, so the iterations go to the actions that look best.

With ``tree=own`` the tree holds only the bot's own decisions: the other seats' actions inside an iteration are the
rollout bot's, drawn afresh each time (an open-loop tree). Where the others choose among many plays, the full tree
splits its few iterations over their replies and its statistics stay thin; the open-loop tree keeps them on the
bot's own choices.

Two settings address what a small budget does to the plain search. A node adds untried actions in random order, so
with a few dozen iterations the first reply of another seat inside the tree is often a random one, not a sensible
one; ``expand=policy`` adds the rollout bot's choice first. And the root compares means of different worlds: two
plays whose values differ by much less than the spread between deals need many iterations to tell apart.
``root=paired`` spends each iteration on one world and values *every* root candidate in it, below each the tree as
usual, the same random numbers for each (common random numbers, as ``pimc`` does), and decides by the best mean
with ``caution`` applied to the world-by-world differences; an iteration then costs one walk per candidate.

Deterministic for a seed and an iteration budget; a time budget (``ms`` of wall time, ``cpu`` of CPU time) may stop it
sooner.
"""

from __future__ import annotations

import math
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
    worlds_from,
)
from clubsuite.engine import LegalActions, SomeMatch
from clubsuite.options import option


@dataclass(frozen=True, kw_only=True)
class IsmctsSettings:
    """The settings of an ``ismcts`` bot, written ``ismcts(iterations=400,ms=200)``."""

    iterations: int = option(400, "tree iterations per decision, at most (a time budget may stop sooner)")
    ms: int = option(0, "wall-time budget per decision in milliseconds; 0: none (one iteration is always run)")
    cpu: int = option(0, "CPU-time budget per decision in milliseconds (the thinking thread's); 0: none")
    rollout: str = option("heuristic", "the bot that plays the hand out from each new node")
    exploration: int = option(70, "the UCB1 exploration constant, in hundredths (70: 0.70)")
    width: int = option(12, "the most actions compared at the root; past it, the rollout bot's choice and a draw")
    tree: str = option(
        "all",
        "all: the tree holds every seat's actions; own: only the bot's own, the others played by the rollout bot"
        " inside each iteration (an open-loop tree, for games where the others have many plays)",
    )
    normalize: str = option(
        "off",
        "on: scale the exploration term by the range of the values seen so far in the search (for a game whose"
        " hand outcomes move the objective only a little), off: the constant as set",
    )
    caution: int = option(
        100,
        "keep the rollout bot's choice unless the chosen action beats it by this many hundredths of a standard error",
    )
    expand: str = option(
        "random",
        "which untried action a node adds: random, or policy (the rollout bot's choice first, then random ones)",
    )
    root: str = option(
        "ucb",
        "ucb: the root's actions chosen by UCB1, the most visited wins; paired: every iteration values every root"
        " candidate in the same world with the same random numbers, the best mean wins",
    )

    def __post_init__(self) -> None:
        check_choices(
            "ismcts",
            tree=(self.tree, ("all", "own")),
            normalize=(self.normalize, ("on", "off")),
            expand=(self.expand, ("random", "policy")),
            root=(self.root, ("ucb", "paired")),
        )
        check_settings(
            "ismcts",
            iterations=(self.iterations, 1, 10_000_000),
            ms=(self.ms, 0, 600_000),
            cpu=(self.cpu, 0, 600_000),
            exploration=(self.exploration, 0, 10_000),
            width=(self.width, 2, 10_000),
            caution=(self.caution, 0, 1000),
        )


class _Node:
    """A tree node: visits, the times it was available to choose, the summed value (and squared value) for the seat
    that chose it."""

    __slots__ = ("available", "children", "squares", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.squares = 0.0
        self.children: dict[object, _Node] = {}

    def spread(self) -> float:
        """The squared standard error of the mean value (infinite below two visits)."""
        if self.visits < 2:
            return math.inf
        mean = self.total / self.visits
        return max(0.0, self.squares / self.visits - mean * mean) / (self.visits - 1)


class IsmctsBot:
    """The ISMCTS bot (see the module docstring)."""

    name = "ismcts"

    def __init__(self, settings: IsmctsSettings | None = None) -> None:
        self.settings = settings or IsmctsSettings()
        self.rollouts = Rollouts(self.settings.rollout)
        self.iterations_run = 0
        """How many iterations the last decision ran (for benchmarks and tests)."""
        self.stopped_by = "work"
        """What ended the last decision's search: ``work``, ``cpu`` or ``wall`` (:class:`Budget`)."""
        self.root_visits: dict[object, int] = {}
        """How often the last decision's search visited each root action (for tests and analysis)."""

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """The root action the search settles on (see the module docstring)."""
        if len(legal) == 1:
            return legal[0]
        source = worlds_from(view)
        seat = source.seat
        settings = self.settings
        search_rng = random.Random(rng.getrandbits(64))
        first = source.determinize(search_rng)
        favourite = self.rollouts.bot(first.game, seat).choose(view, legal, search_rng)
        allowed = candidates(legal, settings.width, favourite, search_rng)
        tree = _Tree(self, seat, objective_for(first.game))
        rows: list[list[float]] = []
        budget = Budget(settings.iterations, settings.ms, settings.cpu)
        while budget.more():
            world = first if budget.done == 0 else source.determinize(search_rng)
            if settings.root == "paired":
                rows.append(tree.sweep(world, allowed, search_rng.getrandbits(64)))
            else:
                tree.iterate(tree.root, world, [], search_rng, allowed)
            budget.done += 1
        self.iterations_run = budget.done
        self.stopped_by = budget.stopped_by
        self.root_visits = {a: n.visits for a, n in tree.root.children.items()}
        if settings.root == "paired":
            return Compared(allowed, allowed.index(favourite), {"rollout": rows}).decision(settings.caution / 100)
        return _decision(tree.root, allowed, favourite, settings.caution / 100)


class _Tree:
    """One decision's search tree, with what an iteration needs: the seat searching, the objective, the rollout bots
    and the range of values seen (for ``normalize=on``)."""

    def __init__(self, bot: IsmctsBot, seat: int, objective: Objective) -> None:
        self.root = _Node()
        self.seat = seat
        self.objective = objective
        self.settings = bot.settings
        self.rollouts = bot.rollouts
        self.c = bot.settings.exploration / 100
        self.low, self.high = math.inf, -math.inf

    def sweep(self, world: SomeMatch, allowed: list[object], seed: int) -> list[float]:
        """``root=paired``: one iteration below every root candidate in ``world``, each with the same random
        numbers; the seat's value after each, in the order of ``allowed``."""
        row = []
        for action in allowed:
            child = self.root.children.get(action)
            if child is None:
                child = self.root.children[action] = _Node()
            child.available += 1
            after = world.clone()
            after.apply(action)
            row.append(self.iterate(child, after, [(child, self.seat)], random.Random(seed))[self.seat])
        return row

    def iterate(
        self,
        start: _Node,
        world: SomeMatch,
        path: list[tuple[_Node, int]],
        rng: random.Random,
        first_moves: list[object] | None = None,
    ) -> dict[int, float]:
        """Walk the tree down from ``start`` in ``world``, add one node, play the hand out, and add the outcome to
        every node on the path; the value for each seat that chose on the path. ``first_moves``: the actions
        compared at ``start`` (the root's candidates), else every legal action."""
        settings = self.settings
        node = start
        while world.to_act is not None:
            actor = world.to_act
            if actor != self.seat and settings.tree == "own":
                bot = self.rollouts.bot(world.game, actor)
                world.apply(bot.choose(world.view(actor), world.legal_actions(), rng))
                continue
            moves = first_moves if node is start and first_moves is not None else list(world.legal_actions())
            fresh = []
            for a in moves:
                child = node.children.get(a)
                if child is None:
                    fresh.append(a)
                else:
                    child.available += 1
            if fresh:
                action = self._expansion(world, actor, fresh, rng)
                child = node.children[action] = _Node()
                child.available = 1
                world.apply(action)
                path.append((child, actor))
                break
            scale = self.high - self.low if settings.normalize == "on" and self.high > self.low else 1.0
            action = _select(node, moves, self.c * scale)
            node = node.children[action]
            world.apply(action)
            path.append((node, actor))
        self.rollouts.finish_hand(world, rng)
        values: dict[int, float] = {}
        for n, actor in path:
            v = values.get(actor)
            if v is None:
                v = values[actor] = self.objective.value(world, actor)
                self.low, self.high = min(self.low, v), max(self.high, v)
            n.visits += 1
            n.total += v
            n.squares += v * v
        return values

    def _expansion(self, world: SomeMatch, actor: int, fresh: list[object], rng: random.Random) -> object:
        """The action a node adds: a random untried one, or (``expand=policy``) the rollout bot's choice while it
        is untried."""
        if self.settings.expand == "policy":
            pick = self.rollouts.bot(world.game, actor).choose(world.view(actor), world.legal_actions(), rng)
            if pick in fresh:
                return pick
        return rng.choice(fresh)


def _decision(root: _Node, allowed: list[object], favourite: object, caution: float) -> object:
    """The most visited root action; but the rollout bot's ``favourite`` where the most visited action's mean beats
    the favourite's by no more than ``caution`` standard errors of the difference (or either has fewer than two
    visits)."""
    best = max(allowed, key=lambda a: root.children[a].visits if a in root.children else -1)
    if best == favourite or caution <= 0:
        return best
    fav, top = root.children.get(favourite), root.children[best]
    if fav is None or fav.visits == 0:
        return favourite
    gap = top.total / top.visits - fav.total / fav.visits
    return best if gap > caution * math.sqrt(top.spread() + fav.spread()) else favourite


def _select(node: _Node, moves: list[object], c: float) -> object:
    """UCB1 over the children available in this world, with availability counts in place of the parent's visits."""
    best, best_score = moves[0], float("-inf")
    for a in moves:
        child = node.children[a]
        score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best, best_score = a, score
    return best


register_bot("ismcts", IsmctsBot, settings=IsmctsSettings)
