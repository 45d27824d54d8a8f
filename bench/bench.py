"""Speed figures: random-bot play through the public engine API on one core, with OpenSpiel's Hearts for scale.

Run as ``python bench/bench.py [--seconds S] [--repeat R] [--json] [--only NAME]``. Each benchmark plays for about
S seconds, R times, in this one process, the benchmarks taking turns (round robin) so that a change in the machine's
load reaches all of them alike; the fastest of a benchmark's R runs is reported (as ``timeit`` reports the best of
its repeats: what other work on the machine adds is noise, never a property of the code), with every run's rate
beside it. The figures are for reading, not for asserting: they depend on the machine, its load and the Python
build.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Figure:
    """What one benchmark measured."""

    name: str
    """The benchmark's name in :data:`BENCHMARKS`."""
    unit: str
    """What one counted unit is (``hand``, ``deal``)."""
    units: int
    """Units completed (hands dealt and played to the end)."""
    actions: int
    """Player decisions made (chance steps such as dealing not counted)."""
    seconds: float
    """Time spent, measured with ``time.perf_counter``."""
    note: str
    """What exactly was timed, so that figures are compared for what they are."""

    @property
    def units_per_second(self) -> float:
        """Hands (or deals) per second."""
        return self.units / self.seconds

    @property
    def actions_per_second(self) -> float:
        """Player decisions per second."""
        return self.actions / self.seconds

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form with the rates included."""
        data = asdict(self)
        data[f"{self.unit}s_per_second"] = self.units_per_second
        data["actions_per_second"] = self.actions_per_second
        return data


Benchmark = Callable[[float, int], Figure]


class UnavailableError(Exception):
    """A benchmark cannot run here (an optional package is missing); the message says why."""


def _engine(game: str) -> str:
    """What plays the public API's benchmarks of ``game``: the compiled hand behind the engine's interface where the
    game has one and it is built, else the Python engine; in either case the card sets indexed, the deals shuffled
    and the random bot's draw made in C where that part of the compiled core is built (``native/_cards``)."""
    from clubsuite.cards import CardSet

    helpers = getattr(CardSet.__getitem__, "__module__", "") == "clubsuite.native._cards"
    match_module = importlib.import_module(f"clubsuite.games.{game}.match")
    match_type = getattr(match_module, "match_type", None)
    compiled_hand = match_type is not None and match_type().hand_class.__name__ == "CompiledHand"
    if compiled_hand:
        return "the compiled hand (state in C) behind the engine's API, cards, shuffle and random draw in C"
    if helpers:
        return "the Python engine, card sets, shuffle and random draw in C"
    return "pure Python"


def _random_bot_loop(new_match: Callable[[], Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """Play hands with a random bot in every seat through the public match API for ``seconds``: (hands, actions,
    time).

    Every decision asks for the seat's view (``match.view(seat)``), asks ``RandomBot.choose`` and applies the
    action; hands are dealt with ``match.deal(rng=...)``, and a new match starts when one ends.
    """
    from clubsuite.bots import RandomBot

    rng = random.Random(seed)
    bot = RandomBot()
    match = new_match()
    hands = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if match.is_over:
            match = new_match()
        match.deal(rng=rng)
        while (seat := match.to_act) is not None:
            match.apply(bot.choose(match.view(seat), match.legal_actions(), rng))
            actions += 1
        hands += 1
        # Checked once per hand: a clock read per action would be a noticeable share of what is measured.
        if time.perf_counter() >= deadline:
            break
    return hands, actions, time.perf_counter() - start


def bench_clubsuite_whist(seconds: float, seed: int) -> Figure:
    """Clubs (whist group) with three random bots, through the public match API (CW-5 ends each match)."""
    from clubsuite.games.whist.match import match_type

    hands, actions, elapsed = _random_bot_loop(match_type(), seconds, seed)
    return Figure(
        name="clubsuite-whist",
        unit="hand",
        units=hands,
        actions=actions,
        seconds=elapsed,
        note=(
            f"3 players, {_engine('whist')}; per hand a shuffled deal, 3 keep/exchange decisions and 39 card plays "
            "(13 tricks), with the seat's view handed to the bot at every decision"
        ),
    )


def bench_clubsuite_free(seconds: float, seed: int) -> Figure:
    """Free Clubs with three random bots, through the public match API (FC-9 ends each match)."""
    from clubsuite.games.free import FreeMatch

    hands, actions, elapsed = _random_bot_loop(FreeMatch, seconds, seed)
    return Figure(
        name="clubsuite-free",
        unit="hand",
        units=hands,
        actions=actions,
        seconds=elapsed,
        note=(
            f"3 players, {_engine('free')}; per hand a shuffled deal, the auction, any Ten discards, the one-card pass "
            "and up to 10 tricks, with the seat's view handed to the bot at every decision"
        ),
    )


def bench_clubsuite_partnership(seconds: float, seed: int) -> Figure:
    """Clubs (partnership) with four random bots, through the public match API (CP-4 ends each match)."""
    from clubsuite.games.partnership.match import match_type

    hands, actions, elapsed = _random_bot_loop(match_type(), seconds, seed)
    return Figure(
        name="clubsuite-partnership",
        unit="hand",
        units=hands,
        actions=actions,
        seconds=elapsed,
        note=(
            f"4 players in two partnerships, {_engine('partnership')}; per hand a shuffled deal, 4 three-card pass "
            "decisions in two hands out of three (CP-2) and 52 card plays (13 tricks), with the seat's view handed to "
            "the bot at every decision"
        ),
    )


def _openspiel_loop(game_name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play deals of an OpenSpiel game from Python for ``seconds``: random legal actions, chance outcomes sampled.

    Each deal is a new initial state; chance nodes are resolved by sampling ``state.chance_outcomes()``; player
    nodes take a uniformly random ``state.legal_actions()`` entry. Returns (deals, decisions, time).
    """
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as exc:
        raise UnavailableError(f"open_spiel is not installed ({exc}); to compare: pip install open_spiel") from None

    rng = random.Random(seed)
    game = pyspiel.load_game(game_name)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                cumulative = 0.0
                chosen = outcomes[-1][0]
                for action, probability in outcomes:
                    cumulative += probability
                    if r < cumulative:
                        chosen = action
                        break
                state.apply_action(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        deals += 1
        if time.perf_counter() >= deadline:
            break
    return deals, actions, time.perf_counter() - start


def bench_openspiel_hearts(seconds: float, seed: int) -> Figure:
    """OpenSpiel's Hearts driven from Python: random legal actions, chance outcomes sampled."""
    deals, actions, elapsed = _openspiel_loop("hearts", seconds, seed)
    return Figure(
        name="openspiel-hearts",
        unit="deal",
        units=deals,
        actions=actions,
        seconds=elapsed,
        note=(
            "4 players, C++ engine called from Python; per deal 53 chance steps (pass direction and 52 cards) "
            "sampled in Python, 12 pass decisions (none when the sampled direction is no pass: 61 on average) and 52 "
            "card plays (13 tricks); no per-decision view is built"
        ),
    )


def _northstar(players: int, wild: bool = False) -> Benchmark:
    """The benchmark of North Star's CLUBS for ``players`` random bots, in the basic game or with wild 15s."""

    def run(seconds: float, seed: int) -> Figure:
        from clubsuite.games.northstar import NorthstarOptions
        from clubsuite.games.northstar.match import match_type

        options = NorthstarOptions(players=players, wild_fifteens=wild)
        made = match_type()  # the compiled match where built, as the game's factory chooses
        rounds, actions, elapsed = _random_bot_loop(lambda: made(options), seconds, seed)
        rules = "wild 15s (every 15 may stand for any value: a lead may have 2,400 plays)" if wild else "basic game"
        return Figure(
            name=f"clubsuite-northstar-{players}p{'-wild' if wild else ''}",
            unit="round",
            units=rounds,
            actions=actions,
            seconds=elapsed,
            note=(
                f"North Star's CLUBS, {players} players, {rules}, {_engine('northstar')}; per round a deal from the "
                "kept pack and every play and pass (the legal actions listed when counted, from plays shared by every "
                "hand; apply takes the action read from that list by its index unchecked), with the seat's view "
                "handed to the bot"
            ),
        )

    run.__doc__ = f"North Star's CLUBS with {players} random bots{' and wild 15s' if wild else ''}, through the API."
    return run


def bench_openspiel_dou_dizhu(seconds: float, seed: int) -> Figure:
    """OpenSpiel's Dou Dizhu (a climbing game with singles, sets and runs) driven from Python the same way."""
    deals, actions, elapsed = _openspiel_loop("dou_dizhu", seconds, seed)
    return Figure(
        name="openspiel-dou_dizhu",
        unit="deal",
        units=deals,
        actions=actions,
        seconds=elapsed,
        note=(
            "3 players, C++ engine called from Python; per deal the chance steps of the deal sampled in Python, "
            "the bidding and the play (combinations and passes) with random legal actions; no view is built"
        ),
    )


BULK_ACTIONS: dict[str, Callable[[int], int]] = {
    "whist": lambda hands: 42 * hands,
    "partnership": lambda hands: 52 * hands + 4 * (hands - hands // 3),
}
"""Decisions in a match of so many hands, where that number is fixed: in whist three keep/exchange decisions and 39
cards a hand; in the partnership game 52 cards a hand and four passes in two hands of three (CP-2: left, right,
none). A game whose hands vary has its kernel count them (``random_decisions``)."""


def _bulk_matches(
    play: Callable[[list[int]], list[int]],
    count: Callable[[list[int], list[int]], int],
    seconds: float,
    seed: int,
    batch: int,
) -> tuple[int, int, float]:
    """Play batches of whole random matches (seeds ``derive_seed(seed, k)``) with ``play(seeds) -> hands of each``
    until ``seconds`` have passed: (hands, actions, time). ``count(seeds, hands)`` gives the decisions of a batch,
    outside the time measured."""
    from clubsuite.seeding import derive_seed

    hands = actions = done = 0
    elapsed = 0.0
    while elapsed < seconds:
        seeds = [derive_seed(seed, k) for k in range(done, done + batch)]
        start = time.perf_counter()
        played = play(seeds)
        elapsed += time.perf_counter() - start
        hands += sum(played)
        actions += count(seeds, played)
        done += batch
    return hands, actions, elapsed


def _bulk(game: str, compiled: bool, bot: str = "random", spec: str | None = None, label: str = "") -> Benchmark:
    """The bulk path of ``game`` (its ``bulk`` part: whole matches with ``bot`` in every seat; ``spec``: a variant,
    ``label`` its part of the name), in the compiled core or, with ``compiled`` false, through the engine as its
    fallback does."""

    def run(seconds: float, seed: int) -> Figure:
        from clubsuite.bots import make_bot
        from clubsuite.engine import resolve
        from clubsuite.native import compiled as built
        from clubsuite.runner import play_match
        from clubsuite.sim.bulk import compiled_matches, engine_random_match

        info, options = resolve(spec or game)
        n = info.new_match(options, 0).n_seats

        def kernel(seeds: list[int]) -> list[int]:
            played = compiled_matches(info, options, [bot] * n, seeds)
            if played is None:
                raise UnavailableError("the compiled core is not built here, or CLUBS_PURE_PYTHON is set")
            return [r.hands for r in played]

        def engine(seeds: list[int]) -> list[int]:
            if bot == "random":
                return [engine_random_match(info, options, s).hands for s in seeds]
            return [
                len(play_match(info.new_match(options, 0), [make_bot(bot, game)] * n, s).hand_scores) for s in seeds
            ]

        def count(seeds: list[int], hands: list[int]) -> int:
            if game in BULK_ACTIONS:
                return sum(BULK_ACTIONS[game](h) for h in hands)
            core = built(f"clubsuite.games.{game}._core")
            if core is None:
                raise UnavailableError(f"the decisions of a {game} match are counted by its kernel, not built here")
            if bot == "heuristic":
                return int(sum(core.bot_decisions(seeds, *HEURISTIC_DECISIONS_ARGS[game](options))))
            return int(sum(core.random_decisions(seeds, *RANDOM_DECISIONS_ARGS[game](options))))

        batch = 1000 if bot == "random" else 50
        hands, actions, elapsed = _bulk_matches(kernel if compiled else engine, count, seconds, seed, batch)
        how = (
            f"the compiled core (games/{game}/bulk.py): whole matches with the {bot} bot in every seat, each hand "
            "dealt and played exactly as the engine would from the same seed; no view, no Python object per decision"
        )
        fallback = "the same matches through the pure-Python engine (the bulk path's fallback): no view per decision"
        return Figure(
            name=f"clubsuite-{game}{label}-bulk{'' if bot == 'random' else '-' + bot}{'' if compiled else '-python'}",
            unit="round" if game == "northstar" else "hand",
            units=hands,
            actions=actions,
            seconds=elapsed,
            note=how if compiled else fallback,
        )

    run.__doc__ = f"The bulk path of {game} ({bot} bots), {'compiled' if compiled else 'through the engine'}."
    return run


def _northstar_kernel_options(options: Any) -> object:
    from clubsuite.games.northstar.bulk import kernel_options

    return kernel_options(options)


RANDOM_DECISIONS_ARGS: dict[str, Callable[[Any], tuple[object, ...]]] = {
    "free": lambda options: (options.target, options.no_spades_needs_a_trick),
    "northstar": lambda options: (_northstar_kernel_options(options),),
}
"""The arguments after the seeds of a kernel's ``random_decisions``, from the game's options."""


def _northstar_heuristic_args(options: Any) -> tuple[object, ...]:
    from clubsuite.games.northstar.bot import CRAZY_WEIGHTS, PLAIN_WEIGHTS

    weights = CRAZY_WEIGHTS if options.crazy else PLAIN_WEIGHTS  # the registered bot's choice
    return (_northstar_kernel_options(options), (1 << options.players) - 1, weights)


def _free_heuristic_args(options: Any) -> tuple[object, ...]:
    from clubsuite.games.free.bot import heuristic_constants

    return (options.target, options.no_spades_needs_a_trick, 0b111, heuristic_constants())


HEURISTIC_DECISIONS_ARGS: dict[str, Callable[[Any], tuple[object, ...]]] = {
    "free": _free_heuristic_args,
    "northstar": _northstar_heuristic_args,
}
"""The arguments after the seeds of a kernel's ``bot_decisions`` with the heuristic bot in every seat."""


def _vector(
    game: str, compiled: bool, opponents: str = "random", spec: str = "", label: str = "", selfplay: bool = False
) -> Benchmark:
    """The vector environment of ``game`` (or of the rules ``spec``, named with ``label``): many tables of a learner
    against ``opponents`` (``clubsuite.rl.vector``), or with ``selfplay`` every seat a learner
    (``clubsuite.rl.selfplay``), stepped as one batch, in the compiled kernel or, with ``compiled`` false, on the
    engine's path."""

    def run(seconds: float, seed: int) -> Figure:
        import numpy as np

        from clubsuite.rl.selfplay import SelfPlayVectorEnv
        from clubsuite.rl.vector import ClubsVectorEnv

        tables = 256 if compiled else 16
        env: ClubsVectorEnv | SelfPlayVectorEnv = (
            SelfPlayVectorEnv(spec or game, tables, engine=not compiled)
            if selfplay
            else ClubsVectorEnv(spec or game, tables, opponents, None, engine=not compiled)
        )
        if compiled and not env.compiled:
            raise UnavailableError("the compiled core is not built here, or CLUBS_PURE_PYTHON is set")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        resetting = np.zeros(tables, bool)
        steps = episodes = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            mask = obs["action_mask"]
            ids = (rng.random(mask.shape) * mask).argmax(axis=1)  # a uniformly random allowed id per table
            obs, _, terminated, truncated, _ = env.step(ids)
            steps += int((~resetting).sum())  # a table being reset makes no decision at this step
            resetting = terminated | truncated
            episodes += int(resetting.sum())
        elapsed = time.perf_counter() - start
        how = f"the compiled tables (games/{game}/vector.h)" if compiled else "the engine's path (the fallback)"
        who = (
            "every seat a learner (self-play)"
            if selfplay
            else f"one learner (a drawn seat) against {opponents} bots"
            + (" (the network evaluated in the kernel, the learned bot's choices)" if opponents == "learned" else "")
        )
        kind = "selfplay" if selfplay else "vector" + ("" if opponents == "random" else "-" + opponents)
        return Figure(
            name=f"clubsuite-{game}{label}-{kind}{'' if compiled else '-python'}",
            unit="episode",
            units=episodes,
            actions=steps,
            seconds=elapsed,
            note=(
                f"{how}: {tables} tables of {who}, stepped as one batch; per step one id per table drawn by NumPy from "
                f"its mask, the bots' play to a learner's next turn and each table's observation ({env.layout.size} "
                "values) and mask; actions count the learners' ids (a partnership pass takes three, a North Star "
                "play one per card and one more), units its episodes"
            ),
        )

    kind = "every seat a learner" if selfplay else f"against {opponents} bots"
    run.__doc__ = f"The vector environment of {spec or game}, {kind}, {'compiled' if compiled else 'engine'}."
    return run


NORTHSTAR_4P = "northstar(players=4)"
"""North Star's four-player rules (the benchmark's clubs_northstar-4p-v1)."""

BENCHMARKS: dict[str, Benchmark] = {
    "clubsuite-whist": bench_clubsuite_whist,
    "clubsuite-free": bench_clubsuite_free,
    "clubsuite-partnership": bench_clubsuite_partnership,
    "clubsuite-whist-bulk": _bulk("whist", compiled=True),
    "clubsuite-whist-bulk-python": _bulk("whist", compiled=False),
    "clubsuite-whist-bulk-heuristic": _bulk("whist", compiled=True, bot="heuristic"),
    "clubsuite-whist-bulk-heuristic-python": _bulk("whist", compiled=False, bot="heuristic"),
    "clubsuite-free-bulk": _bulk("free", compiled=True),
    "clubsuite-free-bulk-python": _bulk("free", compiled=False),
    "clubsuite-free-bulk-heuristic": _bulk("free", compiled=True, bot="heuristic"),
    "clubsuite-free-bulk-heuristic-python": _bulk("free", compiled=False, bot="heuristic"),
    "clubsuite-northstar-3p-bulk": _bulk("northstar", compiled=True, spec="northstar(players=3)", label="-3p"),
    "clubsuite-northstar-3p-bulk-python": _bulk("northstar", compiled=False, spec="northstar(players=3)", label="-3p"),
    "clubsuite-northstar-6p-wild-bulk": _bulk(
        "northstar", compiled=True, spec="northstar(players=6,wild_fifteens=true)", label="-6p-wild"
    ),
    "clubsuite-northstar-6p-wild-bulk-python": _bulk(
        "northstar", compiled=False, spec="northstar(players=6,wild_fifteens=true)", label="-6p-wild"
    ),
    "clubsuite-northstar-3p-bulk-heuristic": _bulk(
        "northstar", compiled=True, bot="heuristic", spec="northstar(players=3)", label="-3p"
    ),
    "clubsuite-northstar-3p-bulk-heuristic-python": _bulk(
        "northstar", compiled=False, bot="heuristic", spec="northstar(players=3)", label="-3p"
    ),
    "clubsuite-partnership-bulk": _bulk("partnership", compiled=True),
    "clubsuite-partnership-bulk-python": _bulk("partnership", compiled=False),
    "clubsuite-partnership-bulk-heuristic": _bulk("partnership", compiled=True, bot="heuristic"),
    "clubsuite-partnership-bulk-heuristic-python": _bulk("partnership", compiled=False, bot="heuristic"),
    "clubsuite-whist-vector": _vector("whist", compiled=True),
    "clubsuite-whist-vector-python": _vector("whist", compiled=False),
    "clubsuite-whist-vector-heuristic": _vector("whist", compiled=True, opponents="heuristic"),
    "clubsuite-whist-vector-heuristic-python": _vector("whist", compiled=False, opponents="heuristic"),
    "clubsuite-partnership-vector-heuristic": _vector("partnership", compiled=True, opponents="heuristic"),
    "clubsuite-partnership-vector-heuristic-python": _vector("partnership", compiled=False, opponents="heuristic"),
    "clubsuite-free-vector-heuristic": _vector("free", compiled=True, opponents="heuristic"),
    "clubsuite-free-vector-heuristic-python": _vector("free", compiled=False, opponents="heuristic"),
    "clubsuite-northstar-vector-heuristic": _vector("northstar", compiled=True, opponents="heuristic"),
    "clubsuite-northstar-vector-heuristic-python": _vector("northstar", compiled=False, opponents="heuristic"),
    "clubsuite-whist-vector-learned": _vector("whist", compiled=True, opponents="learned"),
    "clubsuite-whist-vector-learned-python": _vector("whist", compiled=False, opponents="learned"),
    "clubsuite-northstar-4p-vector-learned": _vector(
        "northstar", compiled=True, opponents="learned", spec=NORTHSTAR_4P, label="-4p"
    ),
    "clubsuite-northstar-4p-vector-learned-python": _vector(
        "northstar", compiled=False, opponents="learned", spec=NORTHSTAR_4P, label="-4p"
    ),
    "clubsuite-whist-selfplay": _vector("whist", compiled=True, selfplay=True),
    "clubsuite-whist-selfplay-python": _vector("whist", compiled=False, selfplay=True),
    "clubsuite-northstar-4p-selfplay": _vector(
        "northstar", compiled=True, spec=NORTHSTAR_4P, label="-4p", selfplay=True
    ),
    "clubsuite-northstar-4p-selfplay-python": _vector(
        "northstar", compiled=False, spec=NORTHSTAR_4P, label="-4p", selfplay=True
    ),
    "clubsuite-northstar-3p": _northstar(3),
    "clubsuite-northstar-6p": _northstar(6),
    "clubsuite-northstar-4p-wild": _northstar(4, wild=True),
    "openspiel-hearts": bench_openspiel_hearts,
    "openspiel-dou_dizhu": bench_openspiel_dou_dizhu,
}
"""Every benchmark by name; add a game by adding a function ``(seconds, seed) -> Figure`` here."""

COMPARISONS: list[tuple[str, str]] = [
    ("clubsuite-whist", "openspiel-hearts"),
    ("clubsuite-partnership", "openspiel-hearts"),
    ("clubsuite-northstar-3p", "openspiel-dou_dizhu"),
    ("clubsuite-whist-bulk", "clubsuite-whist-bulk-python"),
    ("clubsuite-whist-bulk", "openspiel-hearts"),
    ("clubsuite-whist-bulk-heuristic", "clubsuite-whist-bulk-heuristic-python"),
    ("clubsuite-partnership-bulk", "clubsuite-partnership-bulk-python"),
    ("clubsuite-partnership-bulk", "openspiel-hearts"),
    ("clubsuite-partnership-bulk-heuristic", "clubsuite-partnership-bulk-heuristic-python"),
    ("clubsuite-northstar-3p-bulk-heuristic", "clubsuite-northstar-3p-bulk-heuristic-python"),
    ("clubsuite-free-bulk", "clubsuite-free-bulk-python"),
    ("clubsuite-free-bulk-heuristic", "clubsuite-free-bulk-heuristic-python"),
    ("clubsuite-northstar-3p-bulk", "clubsuite-northstar-3p-bulk-python"),
    ("clubsuite-northstar-3p-bulk", "openspiel-dou_dizhu"),
    ("clubsuite-northstar-6p-wild-bulk", "clubsuite-northstar-6p-wild-bulk-python"),
    ("clubsuite-whist-vector", "clubsuite-whist-vector-python"),
    ("clubsuite-whist-vector-heuristic", "clubsuite-whist-vector-heuristic-python"),
    ("clubsuite-partnership-vector-heuristic", "clubsuite-partnership-vector-heuristic-python"),
    ("clubsuite-free-vector-heuristic", "clubsuite-free-vector-heuristic-python"),
    ("clubsuite-northstar-vector-heuristic", "clubsuite-northstar-vector-heuristic-python"),
    ("clubsuite-whist-vector-learned", "clubsuite-whist-vector-learned-python"),
    ("clubsuite-northstar-4p-vector-learned", "clubsuite-northstar-4p-vector-learned-python"),
    ("clubsuite-whist-selfplay", "clubsuite-whist-selfplay-python"),
    ("clubsuite-northstar-4p-selfplay", "clubsuite-northstar-4p-selfplay-python"),
]
"""Pairs reported as a ratio (first / second) when both ran."""


MEMORY_SPECS = ("whist", "free", "partnership", "northstar", "northstar(players=6)")
"""The games whose match size :func:`match_memory` reports."""


def match_memory(count: int = 200) -> dict[str, int]:
    """Bytes per match at its first decision (``tracemalloc``, the mean over ``count`` matches held at once), per
    game through the engine, and the compiled kernels' state of a hand where built (a C struct)."""
    import tracemalloc

    from clubsuite.engine import resolve
    from clubsuite.native import compiled

    sizes: dict[str, int] = {}
    for spec in MEMORY_SPECS:
        info, options = resolve(spec)
        rng = random.Random(0)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        held = []
        for _ in range(count):
            match = info.new_match(options, 0)
            match.deal(rng=rng)
            held.append(match)
        sizes[f"engine {spec}"] = (tracemalloc.get_traced_memory()[0] - before) // count
        tracemalloc.stop()
        core = compiled(f"clubsuite.games.{info.name}._core") if spec == info.name else None
        if core is not None and hasattr(core, "state_bytes"):
            sizes[f"kernel {spec}"] = core.state_bytes()
        if core is not None and hasattr(core, "vector_table_bytes"):
            sizes[f"kernel {spec} table of the vector environment"] = core.vector_table_bytes()
    return sizes


def pin_to_one_core() -> str:
    """Keep this process on a single core where the platform allows it, so figures do not mix cores."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform)"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def _core_state() -> str:
    """Which compiled kernels this run may use."""
    from clubsuite import native

    if native.pure_python():
        return "the compiled core turned off (CLUBS_PURE_PYTHON)"
    return "the compiled core built for: " + (", ".join(g for g, ok in native.built().items() if ok) or "nothing")


def _ratio(a: float, b: float) -> float | None:
    """``a / b``, or None where ``b`` is 0 (a run too short to finish one unit)."""
    return a / b if b else None


def _shown(ratio: float | None) -> str:
    """A ratio for the text report."""
    return "n/a" if ratio is None else f"{ratio:.2f}"


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks and print their figures (text or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per run of a benchmark (default 2)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each benchmark, in turns; the fastest is reported (default 3)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random play of the first run; run k plays seed + k (default 0)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--only", action="append", choices=sorted(BENCHMARKS), help="run only this benchmark (may repeat)"
    )
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error(f"--seconds {args.seconds}: expected a positive number of seconds")
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat}: expected at least one run")

    pinning = pin_to_one_core()
    names = list(dict.fromkeys(args.only or BENCHMARKS))
    runs: dict[str, list[Figure]] = {name: [] for name in names}
    skipped: dict[str, str] = {}
    for turn in range(args.repeat):
        for name in names:
            if name in skipped:
                continue
            if not args.json:
                print(f"run {turn + 1}/{args.repeat}: {name} for {args.seconds:g} s ...", file=sys.stderr, flush=True)
            try:
                # Each run plays other deals (seed + turn): a later run must not find the caches of the engines
                # filled with exactly its own positions by the one before.
                runs[name].append(BENCHMARKS[name](args.seconds, args.seed + turn))
            except UnavailableError as exc:
                skipped[name] = str(exc)
    figures = {name: max(done, key=lambda f: f.actions_per_second) for name, done in runs.items() if done}

    memory = match_memory()
    pairs = [(figures[a], figures[b]) for a, b in COMPARISONS if a in figures and b in figures]
    ratios = [
        {
            "of": a.name,
            "to": b.name,
            f"{a.unit}s_per_{b.unit}": _ratio(a.units_per_second, b.units_per_second),
            "actions_per_action": _ratio(a.actions_per_second, b.actions_per_second),
        }
        for a, b in pairs
    ]

    if args.json:
        report = {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "process": pinning,
            "compiled_core": _core_state(),
            "seconds_per_run": args.seconds,
            "runs_per_benchmark": args.repeat,
            "figures": {
                name: {**f.to_json(), "actions_per_second_of_each_run": [r.actions_per_second for r in runs[name]]}
                for name, f in figures.items()
            },
            "skipped": skipped,
            "ratios": ratios,
            "bytes_per_match": memory,
        }
        print(json.dumps(report, indent=2))
        return 0

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), one process, {pinning}; "
        + _core_state()
    )
    for f in figures.values():
        print(
            f"{f.name:38} {f.units_per_second:10.1f} {f.unit}s/s  {f.actions_per_second:10.0f} actions/s"
            f"  ({f.units} {f.unit}s, {f.actions} actions in {f.seconds:.2f} s; the best of "
            f"{'/'.join(f'{r.actions_per_second:.0f}' for r in runs[f.name])})"
        )
        print(f"{'':38} {f.note}")
    for name, why in skipped.items():
        print(f"{name:38} skipped: {why}")
    for a, b in pairs:
        print(
            f"ratio {a.name} / {b.name}: {_shown(_ratio(a.units_per_second, b.units_per_second))} "
            f"({a.unit}s/s over {b.unit}s/s), {_shown(_ratio(a.actions_per_second, b.actions_per_second))} (actions/s)"
        )
    print(
        "memory per match at its first decision: "
        + "; ".join(f"{name} {size:,} bytes" for name, size in memory.items())
    )
    if ratios:
        print(
            "Read the ratios with care: a whist hand has 42 decisions among 3 players, a partnership hand 52 or 56 "
            "among 4 (about 54.7 on average), a Hearts deal 61 on average among 4 plus 53 sampled chance steps; a "
            "CLUBS round and a Dou Dizhu deal differ in length too (see actions/s); the clubsuite loop also hands the "
            "bot its seat's view at every decision."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
