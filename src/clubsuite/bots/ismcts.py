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

Deterministic for a seed and an iteration budget; a time budget (``ms``) may stop it sooner.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from clubsuite.bots.base import register_bot
from clubsuite.bots.objective import objective_for
from clubsuite.bots.searching import Budget, Rollouts, candidates, check_choices, check_settings, worlds_from
from clubsuite.engine import LegalActions
from clubsuite.options import option


@dataclass(frozen=True, kw_only=True)
class IsmctsSettings:
    """The settings of an ``ismcts`` bot, written ``ismcts(iterations=400,ms=200)``."""

    iterations: int = option(400, "tree iterations per decision, at most (a time budget may stop sooner)")
    ms: int = option(0, "time budget per decision in milliseconds; 0: none (one iteration is always run)")
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
        "keep the rollout bot's choice unless the most visited beats it by this many hundredths of a standard error",
    )

    def __post_init__(self) -> None:
        check_choices("ismcts", tree=(self.tree, ("all", "own")), normalize=(self.normalize, ("on", "off")))
        check_settings(
            "ismcts",
            iterations=(self.iterations, 1, 10_000_000),
            ms=(self.ms, 0, 600_000),
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

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """The most visited root action after the search."""
        if len(legal) == 1:
            return legal[0]
        source = worlds_from(view)
        seat = source.seat
        settings = self.settings
        search_rng = random.Random(rng.getrandbits(64))
        first = source.determinize(search_rng)
        objective = objective_for(first.game)
        favourite = self.rollouts.bot(first.game, seat).choose(view, legal, search_rng)
        allowed = candidates(legal, settings.width, favourite, search_rng)
        root = _Node()
        c = settings.exploration / 100
        low, high = math.inf, -math.inf  # the values seen so far, for normalize=on
        budget = Budget(settings.iterations, settings.ms)
        while budget.more():
            world = first if budget.done == 0 else source.determinize(search_rng)
            path: list[tuple[_Node, int]] = []
            node = root
            while world.to_act is not None:
                actor = world.to_act
                if actor != seat and settings.tree == "own":
                    bot = self.rollouts.bot(world.game, actor)
                    world.apply(bot.choose(world.view(actor), world.legal_actions(), search_rng))
                    continue
                moves = allowed if node is root else list(world.legal_actions())
                fresh = []
                for a in moves:
                    child = node.children.get(a)
                    if child is None:
                        fresh.append(a)
                    else:
                        child.available += 1
                if fresh:
                    action = search_rng.choice(fresh)
                    child = node.children[action] = _Node()
                    child.available = 1
                    world.apply(action)
                    path.append((child, actor))
                    break
                scale = high - low if settings.normalize == "on" and high > low else 1.0
                action = _select(node, moves, c * scale)
                node = node.children[action]
                world.apply(action)
                path.append((node, actor))
            self.rollouts.finish_hand(world, search_rng)
            values: dict[int, float] = {}
            for n, actor in path:
                v = values.get(actor)
                if v is None:
                    v = values[actor] = objective.value(world, actor)
                    low, high = min(low, v), max(high, v)
                n.visits += 1
                n.total += v
                n.squares += v * v
            budget.done += 1
        self.iterations_run = budget.done
        return _decision(root, allowed, favourite, settings.caution / 100)


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
