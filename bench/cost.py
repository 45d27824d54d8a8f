"""What a decision costs each bot, asked at the very same decisions: CPU time and worlds searched.

Run as ``python bench/cost.py GAME BOT [BOT ...] [--hands 3] [--seed 5] [--reference SPEC] [--phase PHASE]
[--json]``, for
example ``python bench/cost.py whist expert "pimc(samples=128,settle=200,margin=12,ms=30000)"``.

The heuristic bot plays ``--hands`` first hands of fresh matches (hand k dealt from the seed and k); at every
decision with more than one legal action, every bot is asked for its choice (and the heuristic's is played), with
the random numbers seeded by the decision's number in its hand, and the thinking thread's CPU time
(``time.thread_time``) and the worlds (``pimc``) or iterations (``ismcts``) it searched are added up, and how often
it chose what the first bot chose. So every bot
is measured on the same positions, and the machine's load changes nothing but the wall time. This is how a new
level's budget is set to cost what ``expert`` costs before the two are compared in play (``docs/bots.md``,
"Towards master").

With ``--reference SPEC`` (a ``pimc`` bot, for example ``pimc(samples=256,caution=0)``) every decision is also
judged: the reference values every candidate and every bot's choice in the same worlds, drawn with random numbers of
its own (never the bots' worlds), and a bot's **loss** at a decision is the reference's best mean less the mean of
the action the bot chose, in thousandths of a win (0 where it chose the best). The mean loss of each bot and the
paired difference of each from the first bot (decision by decision, with its standard error over decisions) say
which plays better on these positions. The reference's noise is shared by all the bots it judges, so the differences
are fair between them; the reference is a search of the same family, so this is a quick guide for choosing what to
measure in play, not a measure of strength in itself.

With ``--phase PHASE`` (repeatable) only the decisions of that phase are asked (``exchange``: whist's exchange), and
each hand is left once it is past them, so a few costly decisions can be judged over many hands.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

from clubsuite.bots import make_bot
from clubsuite.bots.pimc import PimcBot
from clubsuite.engine import resolve
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

REFERENCE_SALT = 0x7E1F
"""Mixed into the reference's seeds, so that it never searches the very worlds a bot searched."""


def measure(
    spec: str,
    bots: list[str],
    hands: int,
    seed: int,
    reference: str | None = None,
    phases: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Each bot's mean CPU milliseconds and worlds a decision over the decisions of ``hands`` heuristic hands, and
    with a ``reference``, each bot's losses against it (see the module docstring). With ``phases``, only the
    decisions in those phases are asked (the hand is left once it is past them)."""
    info, options = resolve(spec)
    totals = {b: {"cpu": 0.0, "searched": 0, "counted": False} for b in bots}
    losses: dict[str, list[float]] = {b: [] for b in bots}
    agree = dict.fromkeys(bots, 0)
    decisions = 0
    for hand in range(hands):
        match = info.new_match(options, 0)
        deal_next(match, info, derive_seed(seed, hand))
        players = {b: make_bot(b, match.game) for b in bots}
        heuristic = make_bot("heuristic", match.game)
        judge = make_bot(reference, match.game) if reference else None
        index = 0
        seen = False
        while match.to_act is not None:
            seat = match.to_act
            legal = match.legal_actions()
            view = match.view(seat)
            wanted = not phases or str(match.phase) in phases
            if phases and seen and not wanted:
                break  # past the phases asked for: the rest of the hand is not measured
            seen = seen or wanted
            if len(legal) > 1 and wanted:
                decisions += 1
                chosen: dict[str, object] = {}
                for name, bot in players.items():
                    started = time.thread_time()
                    chosen[name] = bot.choose(view, legal, random.Random(index))
                    totals[name]["cpu"] += time.thread_time() - started
                    for attribute in ("worlds_searched", "iterations_run"):
                        value = getattr(bot, attribute, None)
                        if isinstance(value, int):
                            totals[name]["searched"] += value
                            totals[name]["counted"] = True
                for name, action in chosen.items():
                    agree[name] += action == chosen[bots[0]]
                if isinstance(judge, PimcBot):
                    rng = random.Random(derive_seed(seed ^ REFERENCE_SALT, hand * 1000 + index))
                    means = dict(judge.compare(view, legal, rng, *chosen.values()).means())
                    top = max(means.values())
                    for name, action in chosen.items():
                        losses[name].append(1000 * (top - means[action]))
            match.apply(heuristic.choose(view, legal, random.Random(index)))
            index += 1
    figures: dict[str, dict[str, Any]] = {
        name: {
            "cpu_ms_per_decision": 1000 * t["cpu"] / decisions if decisions else None,
            "searched_per_decision": t["searched"] / decisions if decisions and t["counted"] else None,
            "agrees_with_first": agree[name] / decisions if decisions else None,
        }
        for name, t in totals.items()
    }
    if reference:
        first = losses[bots[0]]
        for name in bots:
            figures[name]["loss"] = sum(losses[name]) / len(first) if first else None
            figures[name]["loss_vs_first"] = _paired([a - b for a, b in zip(losses[name], first, strict=True)])
    return {
        "game": spec,
        "hands": hands,
        "seed": seed,
        "reference": reference,
        "phases": sorted(phases),
        "decisions": decisions,
        "bots": figures,
    }


def _paired(diffs: list[float]) -> dict[str, float] | None:
    """The mean of paired differences and its standard error (None with fewer than two)."""
    if len(diffs) < 2:
        return None
    return {"mean": statistics.fmean(diffs), "se": statistics.stdev(diffs) / math.sqrt(len(diffs))}


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", help="a rules spec: whist, free, partnership, northstar(players=3), ...")
    parser.add_argument("bots", nargs="+", help="bot specs or levels, each asked at every decision")
    parser.add_argument("--hands", type=int, default=3, help="heuristic hands whose decisions are asked (default 3)")
    parser.add_argument("--seed", type=int, default=5, help="deals the hands and seeds the bots (default 5)")
    parser.add_argument(
        "--reference", metavar="SPEC", help="a pimc bot that judges every decision: each bot's loss against it"
    )
    parser.add_argument(
        "--phase",
        action="append",
        default=[],
        metavar="PHASE",
        help="ask only the decisions of this phase (exchange, pass, auction, play, ...; may be repeated)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    try:
        name = resolve(args.game)[0].name
        for b in args.bots:
            make_bot(b, name)
        if args.reference and not isinstance(make_bot(args.reference, name), PimcBot):
            parser.error(f"--reference {args.reference}: the judge must be a pimc bot, for example pimc(samples=256)")
    except ValueError as e:  # every error of this project is a ValueError
        parser.error(str(e))
    result = measure(args.game, args.bots, args.hands, args.seed, args.reference, frozenset(args.phase))
    if not result["decisions"]:
        phases = ", ".join(args.phase) if args.phase else "any phase"
        print(f"cost.py: no decision with a choice in {phases} of {args.game} in {args.hands} hands", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    only = f", {' and '.join(result['phases'])} only" if result["phases"] else ""
    print(f"{result['game']}: {result['decisions']} decisions of {result['hands']} hands (seed {result['seed']}{only})")
    for b, figures in result["bots"].items():
        searched = figures["searched_per_decision"]
        extra = "" if searched is None else f", {searched:.1f} worlds or iterations"
        loss = ""
        if result["reference"]:
            paired = figures["loss_vs_first"]
            versus = f", {paired['mean']:+.1f} +- {paired['se']:.1f} against the first" if paired else ""
            loss = f"; loses {figures['loss']:.1f} thousandths of a win a decision{versus}"
        agrees = figures["agrees_with_first"]
        same = "" if b == args.bots[0] else f"; the first bot's choice at {agrees:.0%} of decisions"
        print(f"  {b}: {figures['cpu_ms_per_decision']:.1f} ms CPU a decision{extra}{loss}{same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
