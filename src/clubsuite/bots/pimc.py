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

**Settling** (``settle``): the worlds a decision needs differ widely. Where the candidates are equal in every world
(touching cards) or one is clearly best, a few worlds say all there is to say; a close call between two plays needs
many. With ``settle`` the search stops before ``samples`` worlds once no other candidate could beat the best by more
than ``margin`` (thousandths of a win) within ``settle`` hundredths of a standard error of their paired difference,
after ``least`` worlds at least (and three times that for two candidates equal in every world so far, which have no
spread to measure); the action measured against is the one the bot would play, ``caution`` included. The time
saved on easy decisions pays for a larger ``samples`` on hard ones. This is still work, not time: the stop depends
only on the values found, so it is the same on a busy machine.

**Pruning** (``prune``): where the hand is played out, each candidate costs a play-out in every world, though after
a few worlds some are plainly worse. With ``prune``, after ``least`` worlds a candidate stops being valued once the
best of every measure beats it by more than ``prune`` hundredths of a standard error of their paired differences
(never the rollout bot's choice, which ``caution`` measures against, nor the best of a measure), so the worlds left
cost less. Pruned candidates are left out of what :meth:`PimcBot.evaluate` and :meth:`PimcBot.compare` return.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clubsuite.bots.base import register_bot
from clubsuite.bots.learned import has_policy, policy_for
from clubsuite.bots.objective import OBJECTIVE_KINDS, Objective, objective_for
from clubsuite.bots.searching import (
    Budget,
    Compared,
    Determinizable,
    Rollouts,
    candidates,
    check_choices,
    check_settings,
    seeds,
    worlds_from,
)
from clubsuite.engine import LegalActions, Phase, SomeMatch, find_game
from clubsuite.errors import InvalidOptionsError
from clubsuite.options import option
from clubsuite.solver.game import HasSolver, card_values
from clubsuite.solver.search import NodeLimitError

if TYPE_CHECKING:
    from clubsuite.bots.policy import Policy


@dataclass(frozen=True, kw_only=True)
class PimcSettings:
    """The settings of a ``pimc`` bot, written ``pimc(samples=16,ms=200)``."""

    samples: int = option(16, "determinizations per decision, at most (a time budget may stop sooner)")
    opening: int = option(
        0,
        "determinizations for a decision before the card play (an exchange, a pass, an auction), where one decision"
        " shapes the whole hand and its play-outs are the noisiest; 0: as many as `samples`",
    )
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
    settle: int = option(
        0,
        "stop before `samples` once the choice is settled: no other candidate could beat the best by more than"
        " `margin`, counting this many hundredths of a standard error (0: off, always search `samples` worlds)",
    )
    least: int = option(8, "with settle or prune: the fewest worlds searched before the search may stop or prune")
    prune: int = option(
        0,
        "stop valuing a candidate once the best beats it by this many hundredths of a standard error, after `least`"
        " worlds, so that the worlds left go to the close ones (0: off; never the rollout bot's own choice)",
    )
    margin: int = option(5, "with settle: the most a settled choice may lose, in thousandths of a win")
    infer: int = option(
        0,
        "weigh imagined worlds by how likely they make the others' plays: the chance, in hundredths, that a player"
        " makes a play other than the rollout bot's (0: off, every world alike)",
    )
    pool: int = option(4, "with infer: worlds drawn for each one searched, the likeliest searched")
    window: int = option(8, "with infer: the others' most recent decisions of the hand weighed (0: all of them)")
    model: str = option(
        "rollout",
        "with infer: who the others are taken to play like: rollout (the rollout bot) or learned (the game's learned"
        " policy, each play as likely as the policy finds it; at a table no policy reads, the rollout bot)",
    )
    objective: str = option(
        "formula",
        "what a hand's end is worth: formula (the game's race estimate) or fitted (a table fitted to who won matches"
        " from each score, where the game has one)",
    )

    def __post_init__(self) -> None:
        check_choices(
            "pimc",
            solver=(self.solver, ("auto", "on", "off")),
            objective=(self.objective, OBJECTIVE_KINDS),
            model=(self.model, MODELS),
        )
        check_settings(
            "pimc",
            samples=(self.samples, 1, 10_000),
            opening=(self.opening, 0, 10_000),
            ms=(self.ms, 0, 600_000),
            cpu=(self.cpu, 0, 600_000),
            width=(self.width, 2, 10_000),
            tricks=(self.tricks, 0, 13),
            nodes=(self.nodes, 100, 100_000_000),
            caution=(self.caution, 0, 1000),
            settle=(self.settle, 0, 1000),
            prune=(self.prune, 0, 10_000),
            least=(self.least, 2, 10_000),
            margin=(self.margin, 0, 1000),
            infer=(self.infer, 0, 99),
            pool=(self.pool, 1, 64),
            window=(self.window, 0, 1000),
        )
        for name, count in (("samples", self.samples), ("opening", self.opening)):
            if self.settle and count and self.least > count:
                raise InvalidOptionsError(
                    f"pimc setting least={self.least} is more than {name}={count}: the search would never settle"
                )

    def worlds_for(self, phase: object) -> int:
        """The most worlds searched at a decision in ``phase``: ``opening`` before the card play where it is set,
        ``samples`` everywhere else."""
        return self.opening if self.opening and phase != Phase.PLAY else self.samples


MODELS = ("rollout", "learned")
"""The models of the others that ``infer`` may weigh worlds by."""

_UNLIKELY = 30.0
"""A world whose log-likelihood is this far below the likeliest so far is weighed no further: with a weight under
e**-30 of the likeliest's, its chance of being searched ahead of a likelier world is nil for any practical purpose."""

_KEY_SALT = 0x5DEECE66D
"""Mixed into a world's seed for the random number that keys it in the weighted draw (apart from its cards)."""


class PimcBot:
    """The PIMC bot (see the module docstring)."""

    name = "pimc"

    def __init__(self, settings: PimcSettings | None = None) -> None:
        self.settings = settings or PimcSettings()
        self.rollouts = Rollouts(self.settings.rollout)
        self.worlds_searched = 0
        """How many determinizations the last decision searched (for benchmarks and tests)."""
        self.stopped_by = "work"
        """What ended the last decision's search: ``work``, ``cpu`` or ``wall`` (:class:`Budget`), or ``settled``
        (:attr:`PimcSettings.settle`)."""
        self.pruned = 0
        """How many candidates the last decision stopped valuing before its end (:attr:`PimcSettings.prune`)."""

    def check_game(self, game: str) -> None:
        """Refuse a setting ``game`` cannot serve (an objective it has none of, a learned model it has no policy
        for), when the bot is made."""
        objective_for(game, self.settings.objective)
        if self.settings.model == "learned" and not has_policy(game):
            raise InvalidOptionsError(f"pimc setting model=learned: {game} has no learned policy")

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

    def compare(self, view: object, legal: LegalActions[object], rng: random.Random, *include: object) -> Compared:
        """The whole comparison behind a decision: the candidates and, per measure, every world's value of each
        (the actions ``include`` compared even where the candidates are a draw), for tools that judge a decision by
        the paired differences between two actions (``bench/mistakes.py``)."""
        return self._search(view, legal, rng, *include)

    def _search(self, view: object, legal: LegalActions[object], rng: random.Random, *include: object) -> Compared:
        source = worlds_from(view)
        seat = source.seat
        settings = self.settings
        samples = settings.worlds_for(source.phase)
        budget = Budget(samples, settings.ms, settings.cpu)
        if settings.infer:
            worlds = self._likeliest(source, seat, seeds(rng, samples * settings.pool), samples, budget)
            world_seeds = [s for s, _ in worlds]
        else:
            worlds = []
            world_seeds = list(seeds(rng, samples))
        first: SomeMatch = worlds[0][1] if worlds else source.determinize(random.Random(world_seeds[0]))
        objective = objective_for(first.game, settings.objective)
        favourite = self.rollouts.bot(first.game, seat).choose(view, legal, random.Random(world_seeds[0]))
        actions = candidates(legal, settings.width, favourite, rng)
        for extra in include:
            if extra is not None and extra not in actions:
                actions.append(extra)
        wanted = objective.solve_in_search if settings.solver == "auto" else settings.solver == "on"
        solved = wanted and bool(objective.measures) and _solvable(first, settings.tricks)
        measures = tuple(objective.measures) if solved else ("rollout",)
        rows: dict[str, list[list[float]]] = {m: [] for m in measures}
        self.pruned = 0
        while budget.more():
            k = budget.done
            world = worlds[k][1] if worlds else first if k == 0 else source.determinize(random.Random(world_seeds[k]))
            values = self._solve(world, seat, actions, objective) if solved else None
            if values is None:
                values = self._play_out(world, seat, actions, objective, world_seeds[k])
                values = dict.fromkeys(measures, values["rollout"])
            for m in measures:
                rows[m].append(values[m])
            budget.done += 1
            if settings.prune and budget.done >= settings.least and budget.done < budget.count:
                found = Compared(actions, actions.index(favourite), rows)
                dropped = [j for j in found.outclassed(settings.prune / 100) if actions[j] not in include]
                if dropped:
                    self.pruned += len(dropped)
                    found = found.without(dropped)
                    actions, rows = found.actions, found.rows
            if settings.settle and budget.done >= settings.least and budget.done < budget.count:
                found = Compared(actions, actions.index(favourite), rows)
                if found.settled(
                    settings.settle / 100, settings.margin / 1000, settings.caution / 100, 3 * settings.least
                ):
                    budget.stopped_by = "settled"
                    break
        self.worlds_searched = budget.done
        self.stopped_by = budget.stopped_by
        return Compared(actions, actions.index(favourite), rows)

    def _likeliest(
        self, source: Determinizable, seat: int, pool: Sequence[int], samples: int, budget: Budget | None = None
    ) -> list[tuple[int, SomeMatch]]:
        """Of the worlds drawn from ``pool``'s seeds, the ``samples`` likeliest by the plays seen,
        most likely first: each world's likelihood is the chance that the others, playing as the rollout bot does
        (but for a chance ``infer`` in a hundred of any other play), made the plays of the hand so far; the worlds
        are then drawn without replacement in proportion to it (Efraimidis and Spirakis' weighted sampling, keyed by
        each world's seed), so that a likelier world is more often searched and never counted twice. The decision's
        ``budget`` bounds this too: once a time limit is reached no more of the pool is drawn (one world at least)."""
        keyed: list[tuple[float, int, int, SomeMatch]] = []
        logs: list[float] = []
        drawn: list[tuple[int, SomeMatch]] = []
        policy: Policy | None = None
        for s in pool:
            if drawn and budget is not None and budget.out_of_time():
                break
            world: SomeMatch = source.determinize(random.Random(s))
            drawn.append((s, world))
            if len(drawn) == 1:
                policy = self._policy(world)
            if policy is None:
                logs.append(self._log_likelihood(world, seat, max(logs) - _UNLIKELY if logs else -math.inf))
        if policy is not None:
            logs = self._learned_log_likelihoods(policy, [w for _, w in drawn], seat)
        top = max(logs)
        for k, ((s, world), log) in enumerate(zip(drawn, logs, strict=True)):
            u = random.Random(s ^ _KEY_SALT).random() or 1e-300
            key = math.log(u) * math.exp(min(700.0, top - log))  # log(u ** (1 / w)), w relative to the likeliest
            keyed.append((key, -k, s, world))
        keyed.sort(reverse=True)
        return [(s, world) for _, _, s, world in keyed[:samples]]

    def _policy(self, world: SomeMatch) -> Policy | None:
        """The learned policy the others are modelled by (``model=learned``), or None: the rollout bot is (the
        default, or a table of options no policy reads, where the rollout bot stands in)."""
        if self.settings.model != "learned":
            return None
        return policy_for(world.game, world.options)

    def _learned_log_likelihoods(self, policy: Policy, worlds: Sequence[SomeMatch], seat: int) -> list[float]:
        """Each world's log-chance of the others' plays in their last ``window`` turns of the hand under the learned
        policy, floored: a play the policy gives probability p among n legal plays counts (1 - infer/100) p +
        infer/100 / n, so that one surprising play makes a world less likely, never impossible (a turn with one
        legal play counts 1; a play the world's rules would forbid there, where a table allows hidden misplays,
        counts infer/100 / (n + 1)). Whose turn it was is public, so the turns weighed are the same in every world. The
        decisions of every world are scored in one pass of the network, each read as the hand is replayed (a view
        follows the state it reads)."""
        from clubsuite.bots.policy import Decision, log_probabilities, prepared

        deviate = self.settings.infer / 100
        turns = [k for k, (state, _) in enumerate(worlds[0].hand_so_far()) if state.to_act not in (None, seat)]
        weighed = set(turns[-self.settings.window :] if self.settings.window else turns)
        decisions: list[Decision] = []
        played: list[tuple[int, int]] = []
        logs = [0.0] * len(worlds)
        last = max(weighed, default=-1)
        for w, world in enumerate(worlds):
            for k, (state, action) in enumerate(world.hand_so_far()):
                if k > last:  # the rest of the hand weighs nothing: not replayed
                    break
                if k in weighed:
                    actor = state.to_act
                    assert actor is not None  # a turn of the others: someone was to act
                    legal = list(state.legal_actions())
                    if action not in legal:  # a play this world's rules forbid there (a misplay it hides): the floor
                        logs[w] += math.log(deviate / (len(legal) + 1))
                    elif len(legal) > 1:
                        decisions.append(prepared(policy, state.view(actor), legal))
                        played.append((w, legal.index(action)))
        for (w, index), logp in zip(played, log_probabilities(policy, decisions), strict=True):
            chance = (1 - deviate) * math.exp(logp[index]) + deviate / len(logp)
            logs[w] += math.log(chance)
        return logs

    def _log_likelihood(self, world: SomeMatch, seat: int, floor: float = -math.inf) -> float:
        """The log-chance of the others' last ``window`` decisions of the hand in ``world`` under the model: the
        rollout bot's play with probability 1 - infer/100, each other legal play sharing the rest. Once the sum
        falls below ``floor`` the rest is not computed (every term is at most 0, so what is returned is still at
        least the true value and below ``floor``: a world that unlikely all but never comes before a likelier one)."""
        settings = self.settings
        deviate = settings.infer / 100
        theirs = [
            k
            for k, (state, _) in enumerate(world.hand_so_far())
            if state.to_act is not None and state.to_act != seat and len(state.legal_actions()) > 1
        ]
        weighed = set(theirs[-settings.window :] if settings.window else theirs)
        total = 0.0
        for k, (state, action) in enumerate(world.hand_so_far()):
            if k in weighed:  # the state as it stood then, read before the iteration moves it on
                actor = state.to_act
                assert actor is not None  # the weighed states are those where someone was to act
                legal = state.legal_actions()
                model = self.rollouts.bot(world.game, actor).choose(state.view(actor), legal, random.Random(0))
                total += math.log(1 - deviate) if model == action else math.log(deviate / (len(legal) - 1))
                if total < floor:
                    break
        return total

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
    if not isinstance(info.parts, HasSolver) or world.phase != Phase.PLAY:
        return False
    hand = world.hands[-1]
    return max(h.bit_count() for h in hand.hands) <= tricks


register_bot("pimc", PimcBot, settings=PimcSettings)
