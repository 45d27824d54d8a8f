"""Speed of the exact solver and the search bots, on one core.

Run as ``python bench/search.py [--deals N] [--seed S] [--json]`` (``make bench`` runs it after ``bench.py``).

* **solver**: the median time to solve a position with every hand known (the value of every legal card of the
  seat to act, exact), over N random deals played at random up to the position: a whole whist hand from its first
  card, the last 8 tricks of a whist hand, the last 6 tricks of a partnership hand, Free Clubs' card play from its
  first card. The node count is reported beside it.
* **play-outs**: whole hands (whist, partnership, Free Clubs) and rounds (North Star's CLUBS for 3 players) played
  out by the heuristic bot from the first card or play (each a copy of the position), per second: the work inside
  every world of ``pimc`` and every iteration of ``ismcts``;
* **pimc**: decisions per second of ``pimc(samples=16)`` from the middle of a whist hand, from the first card of a
  partnership hand and from the first play of a North Star round; **ismcts**: iterations per second of ``ismcts``
  in the whist card play;
* **ladder**: the mean and slowest decision of each search bot of the strength ladder (``docs/bots.md``) over
  three whole hands of its game (seat 0, against heuristic bots).

The figures are for reading, not for asserting: they depend on the machine, its load and the Python build.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from clubsuite import native
from clubsuite.bots import make_bot
from clubsuite.engine import Phase, SomeMatch, resolve
from clubsuite.runner import deal_next
from clubsuite.solver import SolveStats, card_values


def _position(game: str, seed: int, cards_left: int | None) -> SomeMatch:
    """A match of ``game`` played at random into its first hand's card play: at its first card (``cards_left``
    None) or at the first lead with at most ``cards_left`` cards in each hand."""
    info, options = resolve(game)
    rng = random.Random(seed)
    match = info.new_match(options, 0)
    deal_next(match, info, rng.randrange(1 << 30))
    while match.to_act is not None:
        if match.phase == Phase.PLAY:
            hand: Any = match.hands[-1]
            at_lead = not hand.trick_indices if hasattr(hand, "trick_indices") else not hand.trick
            if cards_left is None or (at_lead and max(h.bit_count() for h in hand.hands) <= cards_left):
                return match
        match.apply(rng.choice(list(match.legal_actions())))
    return _position(game, seed + 7919, cards_left)


def solver_figure(name: str, game: str, cards_left: int | None, deals: int, seed: int) -> dict[str, Any]:
    """Median, quartiles and worst time of one solve (all measures' first), with node counts."""
    times, nodes = [], []
    for k in range(deals):
        match = _position(game, seed + k, cards_left)
        stats = SolveStats()
        start = time.perf_counter()
        card_values(match, stats=stats)
        times.append(time.perf_counter() - start)
        nodes.append(stats.nodes)
    q = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
    return {
        "name": name,
        "deals": deals,
        "median_ms": statistics.median(times) * 1e3,
        "quartiles_ms": [q[0] * 1e3, q[2] * 1e3],
        "max_ms": max(times) * 1e3,
        "median_nodes": statistics.median(nodes),
    }


def bot_figure(name: str, game: str, spec: str, cards_left: int | None, decisions: int, seed: int) -> dict[str, Any]:
    """Decisions per second of the bot ``spec`` at positions like :func:`_position`'s."""
    info, _ = resolve(game)
    bot = make_bot(spec, info.name)
    total = 0.0
    units = 0
    for k in range(decisions):
        match = _position(game, seed + k, cards_left)
        seat = match.to_act
        assert seat is not None
        start = time.perf_counter()
        bot.choose(match.view(seat), match.legal_actions(), random.Random(k))
        total += time.perf_counter() - start
        units += getattr(bot, "iterations_run", 1)
    return {
        "name": name,
        "decisions": decisions,
        "ms_per_decision": total / decisions * 1e3,
        "decisions_per_second": decisions / total,
        "iterations_per_second": units / total if hasattr(bot, "iterations_run") else None,
    }


def playout_figure(name: str, game: str, cards_left: int | None, positions: int, seed: int) -> dict[str, Any]:
    """Play-outs per second: the hand played to its end by the heuristic bot in every seat from a copy of each
    position (what ``pimc`` and ``ismcts`` do in every world), 20 from each of ``positions`` positions."""
    from clubsuite.bots.searching import Rollouts

    rollouts = Rollouts("heuristic")
    total = 0.0
    count = 0
    for k in range(positions):
        match = _position(game, seed + k, cards_left)
        for n in range(20):
            start = time.perf_counter()
            world = match.clone()
            rollouts.finish_hand(world, random.Random(n))
            total += time.perf_counter() - start
            count += 1
    return {
        "name": name,
        "decisions": count,
        "ms_per_decision": total / count * 1e3,
        "decisions_per_second": count / total,
        "iterations_per_second": None,
        "unit": "play-out",
    }


def hand_figure(name: str, spec: str, bot_spec: str, hands: int, seed: int) -> dict[str, Any]:
    """Mean and slowest decision of ``bot_spec`` in seat 0 over ``hands`` whole hands against heuristic bots: the
    cost of a decision as a match sees it (every phase, early and late)."""
    info, options = resolve(spec)
    bot = make_bot(bot_spec, info.name)
    other = make_bot("heuristic", info.name)
    times = []
    for k in range(hands):
        match = info.new_match(options, 0)
        deal_next(match, info, seed + k)
        rng = random.Random(k)
        while match.to_act is not None:
            seat = match.to_act
            if seat == 0:
                start = time.perf_counter()
                action = bot.choose(match.view(seat), match.legal_actions(), rng)
                times.append(time.perf_counter() - start)
            else:
                action = other.choose(match.view(seat), match.legal_actions(), rng)
            match.apply(action)
    return {
        "name": name,
        "decisions": len(times),
        "ms_per_decision": statistics.mean(times) * 1e3,
        "max_ms": max(times) * 1e3,
        "decisions_per_second": len(times) / sum(times),
        "iterations_per_second": None,
    }


LADDER_BOTS = (
    ("whist", "pimc(samples=8,ms=200)"),
    ("whist", "ismcts(ms=200)"),
    ("partnership", "pimc(samples=8,ms=200)"),
    ("partnership", "ismcts(ms=200)"),
    ("partnership", "ismcts(ms=200,iterations=5000,root=paired,expand=policy)"),
    ("free", "pimc(samples=8,ms=200)"),
    ("free", "ismcts(ms=200)"),
    ("northstar(players=3)", "pimc(samples=32,ms=200)"),
    ("northstar(players=3)", "ismcts(ms=200)"),
    ("northstar(players=3)", "ismcts(ms=200,iterations=5000,root=paired,expand=policy)"),
    ("northstar(players=3)", "hard"),
    ("northstar(players=3)", "expert"),
)
"""The search bots of the strength ladder in ``docs/bots.md``, each timed over whole hands of its game."""


def main(argv: list[str] | None = None) -> int:
    """Run the figures and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=21, help="positions per solver figure (default 21)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first position (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--only", action="append", metavar="TEXT", help="run only the figures whose name holds TEXT (may repeat)"
    )
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals {args.deals}: expected at least one")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    deals, seed = args.deals, args.seed
    jobs: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("solve whist, whole hand", lambda: solver_figure("solve whist, whole hand", "whist", None, deals, seed)),
        ("solve whist, last 8 tricks", lambda: solver_figure("solve whist, last 8 tricks", "whist", 8, deals, seed)),
        (
            "solve partnership, last 6 tricks",
            lambda: solver_figure("solve partnership, last 6 tricks", "partnership", 6, deals, seed),
        ),
        (
            "solve free, whole card play",
            lambda: solver_figure("solve free, whole card play", "free", None, deals, seed),
        ),
        (
            "play-outs of whist hands, first card",
            lambda: playout_figure("play-outs of whist hands, first card", "whist", None, 10, seed),
        ),
        (
            "play-outs of partnership hands, first card",
            lambda: playout_figure("play-outs of partnership hands, first card", "partnership", None, 10, seed),
        ),
        (
            "play-outs of Free Clubs hands, first card",
            lambda: playout_figure("play-outs of Free Clubs hands, first card", "free", None, 10, seed),
        ),
        (
            "play-outs of North Star rounds (3 players), first play",
            lambda: playout_figure(
                "play-outs of North Star rounds (3 players), first play", "northstar(players=3)", None, 10, seed
            ),
        ),
        (
            "pimc(samples=16), whist, 7 tricks left",
            lambda: bot_figure("pimc(samples=16), whist, 7 tricks left", "whist", "pimc(samples=16)", 7, 10, seed),
        ),
        (
            "pimc(samples=16), partnership, first card",
            lambda: bot_figure(
                "pimc(samples=16), partnership, first card", "partnership", "pimc(samples=16)", None, 5, seed
            ),
        ),
        (
            "pimc(samples=16), North Star (3 players), first play",
            lambda: bot_figure(
                "pimc(samples=16), North Star (3 players), first play",
                "northstar(players=3)",
                "pimc(samples=16)",
                None,
                10,
                seed,
            ),
        ),
        (
            "ismcts(iterations=400), whist, first card",
            lambda: bot_figure("ismcts(iterations=400), whist, first card", "whist", "ismcts", None, 5, seed),
        ),
        *(
            (f"{b}, whole hands of {s}", lambda s=s, b=b: hand_figure(f"{b}, whole hands of {s}", s, b, 3, seed))
            for s, b in LADDER_BOTS
        ),
    ]
    core = native.built()
    where = "the compiled core off (CLUBS_PURE_PYTHON)" if native.pure_python() else "the compiled core built for: "
    where += "" if native.pure_python() else (", ".join(g for g, ok in core.items() if ok) or "nothing")
    if not args.json:
        print(f"Python {platform.python_version()}, one core; {where}", flush=True)
    figures = []
    for name, job in jobs:
        if args.only and not any(text in name for text in args.only):
            continue
        figures.append(job())
        if not args.json:
            f = figures[-1]
            if "median_ms" in f:
                print(
                    f"{f['name']:<62} median {f['median_ms']:8.1f} ms  (quartiles {f['quartiles_ms'][0]:.1f}.."
                    f"{f['quartiles_ms'][1]:.1f}, worst {f['max_ms']:.0f}; {f['median_nodes']:.0f} nodes; "
                    f"{f['deals']} positions)",
                    flush=True,
                )
            else:
                extra = f", {f['iterations_per_second']:.0f} iterations/s" if f["iterations_per_second"] else ""
                if "max_ms" in f:
                    extra += f", slowest {f['max_ms']:.0f} ms over {f['decisions']} decisions"
                unit = f.get("unit", "decision")
                print(
                    f"{f['name']:<62} {f['ms_per_decision']:8.2f} ms per {unit}, "
                    f"{f['decisions_per_second']:.2f} {unit}s/s{extra}",
                    flush=True,
                )
    if args.json:
        print(json.dumps({"python": platform.python_version(), "figures": figures}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
