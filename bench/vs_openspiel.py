"""This project's bots against OpenSpiel's IS-MCTS: the same CPU time per move, duplicate deals, paired intervals.

Run as ``python bench/vs_openspiel.py [--ms 100] [--deals 20] [--games whist,free] [--matchups ours:ismcts-fair]
[--ours SPEC] [--uct 0.7] [--seed 1] [--workers N] [--json] [--out FILE] [--save FILE]``.

What is measured, and how:

* **The unit is a deal**: the first hand of a fresh match (every total 0), played through the OpenSpiel registration
  of the game (:mod:`clubsuite.rl.spiel`) until that hand is scored. The game keeps its default ``max_hands``, the
  driver stopping at the first hand's end, because OpenSpiel's random rollouts are valued by the match's result: in
  a game cut at one hand (``max_hands=1``) nearly every return would be 0 and ``ismcts-random`` blind. Every deal is
  played in every seating of a cycle: in a game of partnerships one partnership each, both ways round; otherwise one
  seat of one side against the others of the other side, turned through every seat, and the reverse (6 seatings in a
  three-player game). Every seating of a deal gets the same cards: the chance actions of the deal are drawn from a
  generator seeded by the deal's number alone, recorded in the first seating and replayed in the others; the JSON
  gives each play's fingerprint of the dealt cards so that this can be checked. Each bot's own random generators
  are seeded by the deal and its seat, so a deal's result does not depend on which process played it or in what
  order (only on how much search the CPU budget buys).
* **Per play and seat** the script reads the game's objective at the hand's end
  (:func:`clubsuite.bots.objective.objective_for`: the estimated chance of winning the match from the totals, in
  [0, 1], what this project's search bots maximize) and the hand's points (the seat's total, which started at 0).
  A seating's result is the mean over one side's seats minus the mean over the other side's seats (partners have
  equal values, so a partnership counts once); a deal's result is the mean of its seatings' results, in win-chance
  points (the objective times 100) and in points per hand. (In whist, reaching either +target or -target wins, so
  the sign of a hand's points says little there; the win chance is the figure that counts.)
* **The interval** is the mean of the per-deal differences (deals are independent; seatings of one deal are not)
  with a 95% Student-t interval from their spread across deals, ``mean +- t(0.975, n - 1) * sd / sqrt(n)``.
  Each side's mean value (win chance and points) is given too.
* **Equal CPU per move**: every side runs in the same single-threaded process, one move after another, and the
  clock is CPU time (``time.thread_time()``), not wall time, so the machine's load does not change what a side
  gets. This project's bot is a bot spec (default ``pimc(samples=10000,cpu=MS)``: stopped by ``MS`` milliseconds of
  CPU); OpenSpiel's bot is a subclass of ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` that runs simulations
  until ``MS`` milliseconds of CPU have passed since its decision began (at least 2 a search: the library's first
  simulation only reads the root's priors). A move of OpenSpiel's bot is one OpenSpiel action: where the game spells
  one decision over several actions (the three cards of a partnership pass, the cards of a North Star play) it
  searches at each, all within the one budget of the decision (a later action whose budget is spent still runs its
  two simulations). Each side's mean CPU milliseconds per decision (a decision
  with more than one legal action), OpenSpiel actions per decision and simulations (our ``pimc``'s worlds,
  ``ismcts``'s iterations) per decision are reported.
* **OpenSpiel's bot, two variants** (both with UCT child selection, the final policy MAX_VISIT_COUNT, a fresh world
  drawn by the game's exact sampler ``resample_from_infostate`` at every simulation, information-state keys):
  ``ismcts-random``, the library's defaults: ``mcts.RandomRolloutEvaluator(1)`` (one rollout of uniformly random
  actions to the match's end, valued by the game's returns: +1 to the winners, -1 to the others) and UCT constant 2;
  and ``ismcts-fair``: the same search, but a simulation that reaches the end of the hand stops there, and the
  evaluator plays the rest of the hand with this project's ``heuristic`` bot in every seat
  (:class:`clubsuite.bots.searching.Rollouts`) and returns every seat's objective value, in [0, 1]: the playout
  policy and objective of our ``pimc``, with a UCT constant for values in [0, 1] (``--uct``, default 0.7). In a
  decision spelled over several actions, its playout finishes the decision begun in the tree with the heuristic's
  choice when that agrees with the ids picked so far, else with a random action that does.
* **Match-ups** (``--matchups``, ``A:B`` separated by commas): A is ``ours`` (the ``--ours`` spec) or any of this
  project's bot specs (``heuristic``: its instant rule-based bot), B is ``ismcts-random`` or ``ismcts-fair``. By
  default ``ours`` against both variants, and ``heuristic`` against both as a control. B may also be one of this
  project's bot specs: two of its own bots on the same duplicate deals with the same paired intervals (``master`` v
  ``expert``); each then keeps its own budget (``--ms`` is OpenSpiel's and ``ours``' only), and the report gives
  each side's CPU milliseconds a decision, to show that the budgets were equal.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import functools
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from scipy import stats as scipy_stats  # type: ignore[import-untyped]

import clubsuite.rl.spiel  # noqa: F401  # registers the games with OpenSpiel
from clubsuite.bots import SomeBot, make_bot
from clubsuite.bots.levels import LEVELS
from clubsuite.bots.objective import Objective, objective_for
from clubsuite.bots.searching import Rollouts
from clubsuite.engine import SomeMatch, resolve
from clubsuite.options import spec_of
from saved import Saved

GAMES = ("whist", "free", "partnership", "northstar(players=3)")
OPENSPIEL = ("ismcts-random", "ismcts-fair")
"""The OpenSpiel bots a match-up can name."""
MATCHUPS = ("ours:ismcts-random", "ours:ismcts-fair", "heuristic:ismcts-fair", "heuristic:ismcts-random")
RANDOM_UCT = 2.0
"""The UCT constant of ``ismcts-random`` (OpenSpiel's examples use 2 for returns in [-1, 1])."""
CLOCK = "time.thread_time"


# -- OpenSpiel's bot ---------------------------------------------------------------------------------------------


class CpuISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]  # OpenSpiel ships no type information
    """OpenSpiel's IS-MCTS bot, searching until its move has used ``cpu_ms`` milliseconds of CPU time."""

    def __init__(self, *args: Any, cpu_ms: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cpu_ms = cpu_ms
        self.last_simulations = 0
        """How many simulations the last move ran (0 where it had only one legal action)."""
        self.deadline: float | None = None
        """The CPU-time deadline of the decision under way, set by the driver when a decision begins, so that a
        decision the game spells over several OpenSpiel actions (a partnership pass, a North Star play of several
        cards) gets one budget in all, as ours does; None: a budget for this action alone."""

    def run_search(self, state: Any) -> Any:
        """The library's search loop under a CPU-time limit (and at least two simulations)."""
        self.reset()
        self.last_simulations = 0
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = self.deadline if self.deadline is not None else time.thread_time() + self.cpu_ms / 1000
        done = 0
        while done < 2 or time.thread_time() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


class HandPlayout(mcts.Evaluator):  # type: ignore[misc]
    """Plays the rest of the hand with this project's ``heuristic`` bot in every seat and returns every seat's
    objective value at the hand's end (in [0, 1]); uniform priors over the legal actions, as OpenSpiel's rollout
    evaluator gives."""

    def __init__(self, game: str, coding: Any, rng: random.Random) -> None:
        self.objective: Objective = objective_for(game)
        self.coding = coding
        self.rng = rng
        self.rollouts = Rollouts("heuristic")

    def values(self, match: SomeMatch) -> np.ndarray[Any, Any]:
        """Every seat's objective value of a match whose hand has ended."""
        return np.array([self.objective.value(match, s) for s in range(match.n_seats)], dtype=float)

    def evaluate(self, state: Any) -> np.ndarray[Any, Any]:
        """The sampled world is an imagined complete state, so its whole match may be read here."""
        table = state.table
        match: SomeMatch = table.match.clone()
        rng = random.Random(self.rng.getrandbits(64))
        choice = table.choice
        if choice is not None and choice.picked and match.to_act is not None:
            picked = tuple(choice.picked)
            seat = match.to_act
            legal = match.legal_actions()
            agreeing = [a for a in legal if tuple(self.coding.tokens(a))[: len(picked)] == picked]
            pick = self.rollouts.bot(match.game, seat).choose(match.view(seat), legal, rng)
            match.apply(pick if pick in agreeing else agreeing[rng.randrange(len(agreeing))])
        self.rollouts.finish_hand(match, rng)
        return self.values(match)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Chance outcomes at a chance node, else equal priors."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class HandISMCTS(CpuISMCTS):
    """``ismcts-fair``: a simulation that reaches the end of the hand stops there with the objective values."""

    def run_simulation(self, state: Any) -> Any:
        """The library's simulation, cut at the hand's end (the library would deal the next hand)."""
        match = state.table.match
        if match.hands and match.to_act is None:
            return self._evaluator.values(match)
        return super().run_simulation(state)


def openspiel_settings(name: str, uct: float) -> dict[str, Any]:
    """What an OpenSpiel bot of a match-up is, in words and numbers (printed and in the JSON)."""
    common: dict[str, Any] = {
        "bot": "open_spiel.python.algorithms.ismcts.ISMCTSBot, searching until the move's CPU budget is spent",
        "simulations_per_move": "until the CPU budget of the move is used, at least 2",
        "child_selection": "UCT",
        "final_policy": "MAX_VISIT_COUNT",
        "world_samples": "unlimited: a fresh world from resample_from_infostate at every simulation",
        "node_keys": "information-state strings",
    }
    if name == "ismcts-random":
        return {
            **common,
            "uct_c": RANDOM_UCT,
            "evaluator": "mcts.RandomRolloutEvaluator(n_rollouts=1): uniformly random actions to the match's end",
            "values": "the game's returns: +1 to the match's winners, -1 to the others, 0 in a draw",
            "horizon": "the match",
        }
    return {
        **common,
        "uct_c": uct,
        "evaluator": "the rest of the hand played by clubsuite's heuristic bot in every seat",
        "values": "clubsuite's objective at the hand's end: the estimated chance of winning the match, in [0, 1]",
        "horizon": "the hand (a simulation reaching its end stops there)",
    }


# -- one deal ----------------------------------------------------------------------------------------------------


def seed_of(*parts: object) -> int:
    """A 32-bit seed from its parts, the same in every process."""
    return random.Random("/".join(str(p) for p in parts)).getrandbits(32)


def openspiel_name(spec: str, max_hands: int | None) -> str:
    """``clubs_<game>(options)``: the OpenSpiel name of a rules spec (a named variant written out)."""
    info, options = resolve(spec)
    canonical = spec_of(info.name, options)
    extra = [] if max_hands is None else [f"max_hands={max_hands}"]
    if "(" in canonical:
        head, _, inner = canonical.partition("(")
        return f"clubs_{head}({','.join([inner[:-1], *extra])})"
    return f"clubs_{canonical}" + (f"({extra[0]})" if extra else "")


def lineups(seats: int, teams: tuple[tuple[int, ...], ...]) -> list[tuple[str, ...]]:
    """Who holds each seat in each seating of a cycle: ``ours`` or ``theirs``."""
    if teams:
        return [tuple("ours" if s in team else "theirs" for s in range(seats)) for team in teams]
    out = []
    for alone in ("ours", "theirs"):
        other = "theirs" if alone == "ours" else "ours"
        out += [tuple(alone if s == seat else other for s in range(seats)) for seat in range(seats)]
    return out


def fingerprint(match: SomeMatch) -> str:
    """A short digest of the first hand's deal (every seat's cards, and whatever else was dealt)."""
    return hashlib.sha256(repr(match.hands[0].deal).encode()).hexdigest()[:16]


class DealChance:
    """The chance actions of one deal: drawn from a generator seeded by the deal alone, recorded the first time and
    replayed in every later seating."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.RandomState(seed)
        self.drawn: list[int] = []

    def action(self, index: int, outcomes: Sequence[tuple[int, float]]) -> int:
        """The ``index``-th chance action of the deal."""
        if index == len(self.drawn):
            actions, probs = zip(*outcomes, strict=True)
            self.drawn.append(int(self.rng.choice(actions, p=probs)))
        action = self.drawn[index]
        if action not in {a for a, _ in outcomes}:
            raise RuntimeError("a seating met other chance nodes than the first one")
        return action


@dataclass
class Moves:
    """One side's decisions in one play: how many (with more than one legal action), their CPU time, the
    OpenSpiel actions they were spelled in and the simulations searched."""

    count: int = 0
    cpu: float = 0.0
    steps: int = 0
    simulations: int = 0
    counted_simulations: bool = False

    def add(self, other: Moves) -> None:
        """Add another play's moves."""
        self.count += other.count
        self.cpu += other.cpu
        self.steps += other.steps
        self.simulations += other.simulations
        self.counted_simulations = self.counted_simulations or other.counted_simulations

    def to_json(self) -> dict[str, Any]:
        """The means per decision."""
        n = max(self.count, 1)
        return {
            "moves": self.count,
            "cpu_ms_per_move": 1000 * self.cpu / n,
            "openspiel_actions_per_move": self.steps / n,
            "simulations_per_move": self.simulations / n if self.counted_simulations else None,
        }


@dataclass(frozen=True)
class Matchup:
    """``ours_name:theirs_name``: one of this project's bots (by spec) against an OpenSpiel bot."""

    ours_name: str
    ours_spec: str
    theirs: str

    @property
    def label(self) -> str:
        """As written on the command line."""
        return f"{self.ours_name}:{self.theirs}"


@dataclass
class Settings:
    """What every deal is played with."""

    ms: int
    uct: float
    seed: int
    matchup: Matchup


_GAMES: dict[str, Any] = {}


def load(spec: str) -> Any:
    """The OpenSpiel game of a rules spec (default ``max_hands``: the match goes on after the first hand, which is
    what OpenSpiel's random rollouts play out), loaded once per process."""
    if spec not in _GAMES:
        _GAMES[spec] = pyspiel.load_game(openspiel_name(spec, None))
    return _GAMES[spec]


def openspiel_bot(game: Any, name: str, ms: int, uct: float, seeds: Callable[[str], int]) -> CpuISMCTS:
    """An OpenSpiel bot of a match-up, its generators seeded from ``seeds``."""
    if name == "ismcts-random":
        evaluator: Any = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seeds("rollout")))
        cls: type[CpuISMCTS] = CpuISMCTS
        uct_c = RANDOM_UCT
    else:
        state = game.new_initial_state()
        evaluator = HandPlayout(state.table.match.game, state.table.coding, random.Random(seeds("playout")))
        cls = HandISMCTS
        uct_c = uct
    bot = cls(
        game=game,
        evaluator=evaluator,
        uct_c=uct_c,
        max_simulations=10**9,
        random_state=np.random.RandomState(seeds("search")),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
        cpu_ms=ms,
    )
    resampler = np.random.RandomState(seeds("worlds"))
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, resampler.uniform))
    return bot


def play(spec: str, lineup: tuple[str, ...], deal: int, chance: DealChance, settings: Settings) -> dict[str, Any]:
    """One seating of one deal: the first hand of a fresh match, until it is scored."""
    game = load(spec)
    state = game.new_initial_state()
    game_name = state.table.match.game
    matchup = settings.matchup
    ours: dict[int, SomeBot] = {}
    theirs: dict[int, CpuISMCTS] = {}
    rngs: dict[int, random.Random] = {}
    for s, side in enumerate(lineup):
        base = (settings.seed, deal, s, side)
        if side == "ours" or matchup.theirs not in OPENSPIEL:  # ours, or one of this project's bots on their side
            ours[s] = make_bot(matchup.ours_spec if side == "ours" else matchup.theirs, game_name)
            rngs[s] = random.Random(seed_of(*base, "choose"))
        else:
            seeds = functools.partial(seed_of, *base)
            theirs[s] = openspiel_bot(game, matchup.theirs, settings.ms, settings.uct, seeds)
    moves = {"ours": Moves(), "theirs": Moves()}
    queued: list[int] = []
    opened: Moves | None = None
    chance_index = 0
    while not state.is_terminal():
        match = state.table.match
        if state.is_chance_node():
            if match.hands:
                break  # the first hand is scored: the next deal would begin the second
            state.apply_action(chance.action(chance_index, state.chance_outcomes()))
            chance_index += 1
            continue
        seat = state.current_player()
        if seat in theirs:
            bot = theirs[seat]
            table = state.table
            choice = table.choice
            if not choice.picked:  # a decision begins: one CPU budget for all the actions that spell it
                opened = Moves(count=1, counted_simulations=True) if len(match.legal_actions()) > 1 else None
                if isinstance(bot, CpuISMCTS):
                    bot.deadline = time.thread_time() + settings.ms / 1000
            started = time.thread_time()
            action = int(bot.step(state))
            if opened is not None:
                opened.cpu += time.thread_time() - started
                opened.steps += 1
                opened.simulations += bot.last_simulations
            state.apply_action(action)
            if table.choice is not choice:  # the picks spelled an action: the decision is made
                if opened is not None:
                    moves["theirs"].add(opened)
                opened = None
            continue
        if not queued:
            legal = match.legal_actions()
            started = time.thread_time()
            action_obj = ours[seat].choose(match.view(seat), legal, rngs[seat])
            used = time.thread_time() - started
            queued = list(state.table.coding.tokens(action_obj))
            if len(legal) > 1:
                searched = _searched(ours[seat])
                moves[lineup[seat]].add(
                    Moves(1, used, len(queued), searched or 0, counted_simulations=searched is not None)
                )
        state.apply_action(queued.pop(0))
    match = state.table.match
    objective = objective_for(match.game)
    values = [objective.value(match, s) for s in range(match.n_seats)]
    points = [float(t) for t in match.totals]
    return {
        "lineup": list(lineup),
        "fingerprint": fingerprint(match),
        "values": values,
        "points": points,
        "ours_value": _side_mean(values, lineup, "ours"),
        "theirs_value": _side_mean(values, lineup, "theirs"),
        "ours_points": _side_mean(points, lineup, "ours"),
        "theirs_points": _side_mean(points, lineup, "theirs"),
        "moves": {side: dataclasses.asdict(m) for side, m in moves.items()},
    }


def _side_mean(values: Sequence[float], lineup: Sequence[str], side: str) -> float:
    """The mean over one side's seats."""
    own = [v for v, who in zip(values, lineup, strict=True) if who == side]
    return sum(own) / len(own)


def _searched(bot: SomeBot) -> int | None:
    """How many worlds (``pimc``) or iterations (``ismcts``) the bot's last decision searched, if it says."""
    for attribute in ("worlds_searched", "iterations_run"):
        value = getattr(bot, attribute, None)
        if isinstance(value, int):
            return value
    return None


def run_deal(spec: str, settings: Settings, deal: int) -> dict[str, Any]:
    """One deal in every seating of the cycle, the same cards in each; its per-deal result."""
    started, cpu_started = time.perf_counter(), time.process_time()
    info, options = resolve(spec)
    seats = load(spec).num_players()
    cycle = lineups(seats, info.teams_of(options) if info.fixed_teams else ())
    chance = DealChance(seed_of(settings.seed, "deal", deal))
    plays = [play(spec, lineup, deal, chance, settings) for lineup in cycle]
    n = len(plays)
    return {
        "deal": deal,
        "win_chance_difference": 100 * sum(p["ours_value"] - p["theirs_value"] for p in plays) / n,
        "points_difference": sum(p["ours_points"] - p["theirs_points"] for p in plays) / n,
        "ours_value": sum(p["ours_value"] for p in plays) / n,
        "theirs_value": sum(p["theirs_value"] for p in plays) / n,
        "ours_points": sum(p["ours_points"] for p in plays) / n,
        "theirs_points": sum(p["theirs_points"] for p in plays) / n,
        "plays": plays,
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu_started,
    }


# -- the figures -------------------------------------------------------------------------------------------------


INTERVAL = "95% Student t over deals: mean +- t(0.975, n - 1) * sd / sqrt(n)"


def interval(diffs: Sequence[float]) -> dict[str, float | None]:
    """The mean of per-deal differences with its 95% Student-t interval (none below two deals)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return {"mean": mean, "low": None, "high": None}
    half = float(scipy_stats.t.ppf(0.975, n - 1)) * statistics.stdev(diffs) / math.sqrt(n)
    return {"mean": mean, "low": mean - half, "high": mean + half}


def summarize(spec: str, settings: Settings, deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one game and match-up over its deals."""
    matchup = settings.matchup
    n = len(deals)
    result: dict[str, Any] = {
        "game": spec,
        "matchup": matchup.label,
        "ours_bot": matchup.ours_spec,
        "theirs_bot": matchup.theirs,
        "theirs_settings": openspiel_settings(matchup.theirs, settings.uct) if matchup.theirs in OPENSPIEL else None,
        "ms": settings.ms,
        "deals": n,
        "seatings": len(deals[0]["plays"]),
        "plays": sum(len(d["plays"]) for d in deals),
        "difference": {
            "win_chance_points": interval([d["win_chance_difference"] for d in deals]),
            "points_per_hand": interval([d["points_difference"] for d in deals]),
            "interval": INTERVAL,
        },
    }
    for side in ("ours", "theirs"):
        moves = Moves()
        for d in deals:
            for p in d["plays"]:
                moves.add(Moves(**p["moves"][side]))
        result[side] = {
            "win_chance": 100 * sum(d[f"{side}_value"] for d in deals) / n,
            "points_per_hand": sum(d[f"{side}_points"] for d in deals) / n,
            **moves.to_json(),
        }
    result["seconds"] = sum(d["seconds"] for d in deals)
    result["cpu_seconds"] = sum(d["cpu_seconds"] for d in deals)
    result["per_deal"] = [
        {k: d[k] for k in ("deal", "win_chance_difference", "points_difference", "seconds")}
        | {"plays": [{k: p[k] for k in ("lineup", "fingerprint", "values", "points")} for p in d["plays"]]}
        for d in deals
    ]
    return result


# -- running -----------------------------------------------------------------------------------------------------


def group_key(spec: str, settings: Settings) -> str:
    """What a saved deal must have been played with to count for a group: the game and everything in Settings, and
    for a bot named by its level (``expert``) the spec the level stands for, so that a level redefined between two
    sittings starts afresh."""
    m = settings.matchup
    levels = {name: LEVELS[name] for name in (m.ours_spec, m.theirs) if name in LEVELS}
    return json.dumps(
        {
            "game": spec,
            "matchup": m.label,
            "ours": m.ours_spec,
            "theirs": m.theirs,
            "ms": settings.ms,
            "uct": settings.uct,
            "seed": settings.seed,
        }
        | ({"levels": levels} if levels else {}),
        sort_keys=True,
    )


def run_all(
    groups: list[tuple[str, Settings]], deals: int, workers: int, saved: Saved | None = None
) -> Iterator[tuple[str, Settings, list[dict[str, Any]]]]:
    """Every deal of every (game, match-up), in order, group by group; over ``workers`` processes when more than
    one (each deal is seeded by its own number, so the split does not change what is dealt or drawn). Deals found
    in ``saved`` are taken from it, and every deal played is added to it."""
    saved = saved if saved is not None else Saved(None)
    keys = [group_key(spec, settings) for spec, settings in groups]
    if workers <= 1:
        for (spec, settings), key in zip(groups, keys, strict=True):
            done = []
            for k in range(deals):
                deal = saved.get(key, k)
                if deal is None:
                    deal = run_deal(spec, settings, k)
                    saved.add(key, deal)
                done.append(deal)
                _progress(spec, settings, len(done), deals)
            yield spec, settings, done
        return
    script_dir = str(Path(__file__).resolve().parent)
    if script_dir not in sys.path:
        sys.path.insert(0, script_dir)  # a spawned worker imports this module by name
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures: list[list[dict[str, Any] | concurrent.futures.Future[dict[str, Any]]]] = []
        for (spec, settings), key in zip(groups, keys, strict=True):
            group: list[dict[str, Any] | concurrent.futures.Future[dict[str, Any]]] = []
            for k in range(deals):
                found = saved.get(key, k)
                if found is None:
                    future = pool.submit(run_deal, spec, settings, k)
                    future.add_done_callback(functools.partial(_save_done, saved, key))  # saved as it finishes
                    group.append(future)
                else:
                    group.append(found)
            futures.append(group)
        for (spec, settings), group in zip(groups, futures, strict=True):
            done = []
            for item in group:
                done.append(item.result() if isinstance(item, concurrent.futures.Future) else item)
                _progress(spec, settings, len(done), deals)
            yield spec, settings, done


def _save_done(saved: Saved, key: str, future: concurrent.futures.Future[dict[str, Any]]) -> None:
    """Keep a deal a worker has finished (a failed deal is reported when its result is read)."""
    if not future.cancelled() and future.exception() is None:
        saved.add(key, future.result())


def _progress(spec: str, settings: Settings, done: int, total: int) -> None:
    """A line on stderr at every tenth of a group (and at its end)."""
    step = max(1, total // 10)
    if done % step == 0 or done == total:
        print(f"[vs_openspiel] {spec} {settings.matchup.label}: {done}/{total} deals", file=sys.stderr, flush=True)


def parse_matchups(text: str, ours_spec: str) -> list[Matchup]:
    """``A:B,...``: A ``ours`` or one of this project's bot specs, B one of :data:`OPENSPIEL` or, for a match-up of
    two of this project's bots (``master:expert``), one of its bot specs."""
    out = []
    for item in _split(text):
        left, sep, right = _split_matchup(item)
        if not sep or not left or not right:
            raise ValueError(f"match-up {item!r}: expected A:B, B one of {', '.join(OPENSPIEL)} or a bot spec")
        out.append(Matchup(left, ours_spec if left == "ours" else left, ours_spec if right == "ours" else right))
    return out


def _split_matchup(item: str) -> tuple[str, str, str]:
    """``A:B`` split at the colon outside parentheses."""
    depth = 0
    for k, ch in enumerate(item):
        depth += (ch == "(") - (ch == ")")
        if ch == ":" and depth == 0:
            return item[:k].strip(), ":", item[k + 1 :].strip()
    return item, "", ""


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play, print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ms", type=int, default=100, help="CPU milliseconds per move for every side (default 100)")
    parser.add_argument("--deals", type=int, default=20, help="deals per game and match-up (default 20)")
    parser.add_argument("--games", default=",".join(GAMES), help="game specs, separated by commas")
    parser.add_argument(
        "--matchups", default=",".join(MATCHUPS), help=f"A:B pairs separated by commas (default {','.join(MATCHUPS)})"
    )
    parser.add_argument(
        "--ours", default="pimc(samples=10000,cpu={ms})", help="this project's bot; {ms} is replaced by --ms"
    )
    parser.add_argument("--uct", type=float, default=0.7, help="UCT constant of ismcts-fair (default 0.7)")
    parser.add_argument("--seed", type=int, default=1, help="seeds every deal and bot (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes to spread the deals over (default 1)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON to this file")
    parser.add_argument(
        "--save",
        default=None,
        help="append every finished deal to this JSON-lines file, and take the deals already in it instead of "
        "playing them again (to stop and resume a long run)",
    )
    args = parser.parse_args(argv)
    if args.ms < 1 or args.deals < 1 or args.workers < 1 or args.uct < 0:
        parser.error("--ms, --deals and --workers must be at least 1, --uct at least 0")
    ours = args.ours.replace("{ms}", str(args.ms))
    try:
        matchups = parse_matchups(args.matchups, ours)
    except ValueError as e:
        parser.error(str(e))
    specs = _split(args.games)
    for spec in specs:  # refuse a bad spec before hours of play
        try:
            name = load(spec).new_initial_state().table.match.game
            for m in matchups:
                make_bot(m.ours_spec, name)
                if m.theirs not in OPENSPIEL:
                    make_bot(m.theirs, name)
        except (pyspiel.SpielError, ValueError) as e:  # every error of this project is a ValueError
            parser.error(f"--games {spec!r} / --matchups: {e}")
    groups = [(spec, Settings(args.ms, args.uct, args.seed, m)) for spec in specs for m in matchups]
    method = {
        "unit": "a deal: the first hand of a fresh match, in every seating of the cycle, the same cards in each",
        "clock": f"{CLOCK}() (CPU time of the single-threaded process)",
        "ms": args.ms,
        "deals": args.deals,
        "seed": args.seed,
        "ours": ours,
        "uct_fair": args.uct,
        "interval": INTERVAL,
        "openspiel": {name: openspiel_settings(name, args.uct) for name in OPENSPIEL},
    }
    if not args.json:
        _print_method(method)
    try:
        saved = Saved(Path(args.save) if args.save else None, "vs_openspiel")
    except (OSError, ValueError) as e:
        parser.error(f"--save: {e}")
    results = []
    for spec, settings, deals in run_all(groups, args.deals, args.workers, saved):
        results.append(summarize(spec, settings, deals))
        # which code played the deals (several commits: a run resumed over sittings; read the changes between them)
        results[-1]["commits"] = sorted(saved.commits.get(group_key(spec, settings), {saved.commit}))
        if not args.json:
            _print(results[-1])
    report = {"method": method, "results": results}
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


def _split(text: str) -> list[str]:
    """Split specs at commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()] if cur.strip() else out


def _ci(figure: dict[str, float | None], scale: str) -> str:
    low, high = figure["low"], figure["high"]
    mean = figure["mean"]
    assert mean is not None
    span = "n/a" if low is None or high is None else f"{low:+{scale}} .. {high:+{scale}}"
    return f"{mean:+{scale}} (95% CI {span})"


def _print_method(method: dict[str, Any]) -> None:
    print(f"{method['ms']} ms of CPU a move ({method['clock']}), {method['deals']} deals, seed {method['seed']}")
    print(f"  ours: {method['ours']}")
    for name, s in method["openspiel"].items():
        print(
            f"  {name}: uct_c {s['uct_c']}, {s['child_selection']}, final policy {s['final_policy']}, "
            f"evaluator: {s['evaluator']}; values: {s['values']}; horizon: {s['horizon']}; "
            f"simulations: {s['simulations_per_move']}"
        )
    print(f"  per-deal differences (ours - theirs), {method['interval']}")
    sys.stdout.flush()


def _print(r: dict[str, Any]) -> None:
    diff = r["difference"]
    print(
        f"{r['game']}, {r['ours_bot']} v {r['theirs_bot']}: {r['deals']} deals x {r['seatings']} seatings, "
        f"{r['seconds']:.0f} s; played at {', '.join(r.get('commits', []))}"
    )
    print(
        f"  difference a deal: win-chance points {_ci(diff['win_chance_points'], '.1f')}, "
        f"points a hand {_ci(diff['points_per_hand'], '.2f')}"
    )
    for side, name in (("ours", r["ours_bot"]), ("theirs", r["theirs_bot"])):
        s = r[side]
        sims = "" if s["simulations_per_move"] is None else f", {s['simulations_per_move']:.1f} simulations"
        print(
            f"  {side:<6} {name:<32} win chance {s['win_chance']:.1f}%, {s['points_per_hand']:+.2f} points a hand; "
            f"a move: {s['cpu_ms_per_move']:.1f} ms CPU{sims}, {s['openspiel_actions_per_move']:.2f} actions "
            f"({s['moves']} moves)"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
