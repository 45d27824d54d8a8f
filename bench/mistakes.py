"""Where a bot level and a much stronger reference disagree beyond noise: positions to study, and to fix.

Run as ``python bench/mistakes.py GAME [--level hard] [--reference SPEC] [--hands 20] [--seed 1] [--z 2]
[--min-gap 0.01] [--workers N] [--every N] [--json] [--out FILE] [--save FILE]``; ``python bench/mistakes.py GAME
--confirm FILE [--reference SPEC] [--top 20] [--picks heuristic,hard,expert]`` measures the positions of an
earlier result again (recording the earlier run's seed as ``run_seed``), and ``bench/select_positions.py`` turns the
clear ones into regression positions.

Every hand is the first hand of a fresh match (every total 0), dealt from the seed and the hand's number, and played
by the level in every seat, as a table of that level plays it. At each decision with a choice the reference (by
default ``pimc(samples=64,caution=0)``: eight times ``hard``'s worlds, the best mean always taken) searches the
position from the deciding seat's own view, never the real deal, valuing every candidate and the level's choice in
the same worlds (:meth:`clubsuite.bots.pimc.PimcBot.compare`). A decision is **flagged** when the reference's best
beats the level's choice by more than ``--z`` standard errors of their paired differences, world by world, and by at
least ``--min-gap`` of the objective (the estimated chance of winning the match, 0 to 1;
:mod:`clubsuite.bots.objective`), and again on worlds drawn afresh: the best of a dozen candidates, picked on some
worlds, looks better on those very worlds than it is, so the gap reported is the second, unbiased one (the two
actions only, the same number of worlds, at least two).

Each flagged decision is written with the record of the hand up to it (read it back with
``clubsuite.analysis.positions.position_at(record, 0, actions)``, or ``clubs analyse``), the seat, the phase, the
level's action, the reference's best, the gap and its standard error, and during a trick game's card play the exact
solver's counts with every hand known (:func:`clubsuite.analysis.review.exact_counts`: a hint, not the judge, since
it knows cards the seat could not). The positions come sorted by gap, largest first.

What it is for: the flagged positions are candidates for regression positions (``tests/<game>/test_bot_*.py``), each
asserting the better choice once a fix makes the level find it. A flag may still be the reference's noise: ``--z``
bounds that per decision, so among many decisions where both actions are worth the same about 2.3% pass the second
measurement at z = 2 (and fewer both); a regression position needs its gap confirmed again by a larger reference
(``--reference "pimc(samples=256,caution=0)"`` on the one position). Deterministic for a seed: the level's and the
reference's random numbers are derived from the seed, the hand and the decision (the level's wall-time cap, far above
its work, never stops a search unless the machine is loaded several times over).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from clubsuite.analysis.positions import Decision, position_at
from clubsuite.analysis.review import exact_counts
from clubsuite.bots import make_bot
from clubsuite.bots.levels import LEVELS
from clubsuite.bots.pimc import PimcBot
from clubsuite.engine import resolve
from clubsuite.records.writer import record_from_match
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed
from saved import Saved

REFERENCE = "pimc(samples=64,caution=0)"
"""The judge of the decisions of a level as it plays."""
CONFIRM_REFERENCE = "pimc(samples=256,caution=0)"
"""The judge that measures flagged positions again (``--confirm``)."""
EXACT_NODES = 300_000
"""The most solver nodes for the exact hint of one flagged card (past it the hint is left out)."""


def play_hand(
    spec: str, level: str, reference: str, seed: int, hand: int, z: float, min_gap: float, every: int = 1
) -> dict[str, Any]:
    """One hand played by ``level`` in every seat, every ``every``-th decision with a choice judged by ``reference``
    (which ones turns with the hand, so that over many hands every stage of a hand is judged alike): the count of
    decisions judged, and the flagged ones."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    deal_next(match, info, derive_seed(seed, hand))
    bot = make_bot(level, match.game)
    judge = make_bot(reference, match.game)
    if not isinstance(judge, PimcBot):
        raise SystemExit(f"--reference {reference!r}: the reference must be a pimc bot (it compares in paired worlds)")
    judged = choices = 0
    flagged: list[dict[str, Any]] = []
    index = 0
    while match.to_act is not None:
        seat = match.to_act
        legal = match.legal_actions()
        view = match.view(seat)
        action = bot.choose(view, legal, random.Random(derive_seed(seed, hand, index, 1)))
        if len(legal) > 1 and (choices + hand) % every == 0:
            judged += 1
            compared = judge.compare(view, legal, random.Random(derive_seed(seed, hand, index, 2)), action)
            taken = compared.actions.index(action)
            best, measure, gap, error = compared.gap(taken)
            worlds = len(compared.rows[measure])
            if best != taken and worlds >= 2 and gap >= min_gap and gap > z * error:
                # The best of many candidates, picked on these worlds, looks better on them than it is: the gap is
                # measured again, the paired difference of these two actions, on worlds drawn afresh.
                better = compared.actions[best]
                again = judge.compare(view, legal, random.Random(derive_seed(seed, hand, index, 3)), action, better)
                gap, error = again.difference(again.actions.index(better), again.actions.index(action), measure)
                worlds = len(again.rows[measure])
            if best != taken and worlds >= 2 and gap >= min_gap and gap > z * error:
                before = match.clone()
                decision = Decision(0, index, seat, before, action, before.format_action(action))
                flagged.append(
                    {
                        "hand_seed": hand,
                        "seat": seat,
                        "phase": str(match.phase),
                        "actions": index,
                        "level_action": before.format_action(action),
                        "best_action": before.format_action(compared.actions[best]),
                        "measure": measure,
                        "gap": round(gap, 4),
                        "error": round(error, 4),
                        "worlds": worlds,
                        "exact": exact_counts(decision, EXACT_NODES),
                        "record": record_from_match(before),
                    }
                )
        choices += len(legal) > 1
        match.apply(action)
        index += 1
    return {"judged": judged, "flagged": flagged}


def saved_key(spec: str, level: str, reference: str, seed: int, z: float, min_gap: float, every: int) -> str:
    """What a saved hand must have been judged with to count for a run (``--save``): every setting but the number of
    hands and of workers, and for a level (``hard``) the spec it stands for, so that a level redefined between two
    sittings starts afresh."""
    settings = {"game": spec, "level": level, "reference": reference, "seed": seed, "z": z, "min_gap": min_gap}
    levels = {"levels": {level: LEVELS[level]}} if level in LEVELS else {}
    return json.dumps(settings | {"every": every} | levels, sort_keys=True)


def _hand(spec: str, level: str, reference: str, seed: int, hand: int, z: float, min_gap: float, every: int) -> Any:
    """:func:`play_hand` numbered for ``--save`` (the number under ``"deal"``, as :class:`saved.Saved` keeps it)."""
    return {"deal": hand} | play_hand(spec, level, reference, seed, hand, z, min_gap, every)


def run(
    spec: str,
    level: str,
    reference: str,
    hands: int,
    seed: int,
    z: float,
    min_gap: float,
    workers: int,
    every: int = 1,
    saved: Saved | None = None,
) -> dict[str, Any]:
    """Every hand, over ``workers`` processes (the result is the same for any number); the hands already in
    ``saved`` are taken from it, and every hand played is added to it as soon as it is finished."""
    started = time.perf_counter()
    saved = saved if saved is not None else Saved(None)
    key = saved_key(spec, level, reference, seed, z, min_gap, every)
    missing = [k for k in range(hands) if saved.get(key, k) is None]
    args = [(spec, level, reference, seed, k, z, min_gap, every) for k in missing]
    if workers > 1 and len(args) > 1:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [pool.submit(_hand, *a) for a in args]
            for future in concurrent.futures.as_completed(futures):
                saved.add(key, future.result())
    else:
        for a in args:
            saved.add(key, _hand(*a))
    results = [saved.get(key, k) or {} for k in range(hands)]
    flagged = sorted(
        (f for r in results for f in r["flagged"]), key=lambda f: (-f["gap"], f["hand_seed"], f["actions"])
    )
    judged = sum(r["judged"] for r in results)
    return {
        "game": spec,
        "level": level,
        "reference": reference,
        "hands": hands,
        "seed": seed,
        "z": z,
        "min_gap": min_gap,
        "every": every,
        "decisions_judged": judged,
        "flagged": len(flagged),
        "flagged_by_phase": dict(Counter(f["phase"] for f in flagged)),
        "seconds": round(time.perf_counter() - started, 1),
        "hands_saved_before": hands - len(missing),
        "commits": sorted(saved.commits.get(key, {saved.commit})),
        "positions": flagged,
    }


FOUND = ("record", "actions", "hand_seed", "phase", "level_action", "best_action", "measure", "exact")
"""What each position of a result written by ``--out`` holds, and ``--confirm`` reads."""


def confirm(position: dict[str, Any], judge: PimcBot, seed: int, picks: dict[str, Any], tries: int) -> dict[str, Any]:
    """One flagged position measured again by ``judge`` (a larger pimc): the paired difference of its two actions,
    world by world, on worlds drawn afresh (the judge values its own candidates beside them); and what each bot of
    ``picks`` (spec to bot) plays there with the random numbers 0 .. ``tries`` - 1."""
    match, _ = position_at(position["record"], 0, position["actions"])
    seat = match.to_act
    assert seat is not None
    legal = match.legal_actions()
    view = match.view(seat)
    worse, better = match.parse_action(position["level_action"]), match.parse_action(position["best_action"])
    rng = random.Random(derive_seed(seed, position["hand_seed"], position["actions"], 4))
    again = judge.compare(view, legal, rng, worse, better)
    if position["measure"] not in again.rows:
        raise SystemExit(
            f"--reference: it measures {', '.join(again.rows)} at hand {position['hand_seed']}, action "
            f"{position['actions']}, where the position was judged by {position['measure']}: use a reference like the "
            "one that found it"
        )
    gap, error = again.difference(again.actions.index(better), again.actions.index(worse), position["measure"])
    chosen = {
        spec: [match.format_action(bot.choose(view, legal, random.Random(k))) for k in range(tries)]
        for spec, bot in picks.items()
    }
    return {
        "hand_seed": position["hand_seed"],
        "actions": position["actions"],
        "seat": seat,
        "phase": position["phase"],
        "worse": position["level_action"],
        "better": position["best_action"],
        "measure": position["measure"],
        "gap": round(gap, 4),
        "error": round(error, 4),
        "worlds": len(again.rows[position["measure"]]),
        "picks": chosen,
        "exact": position["exact"],
        "record": position["record"],
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, judge, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a rules spec: whist, free, partnership, northstar(players=3), ...")
    parser.add_argument("--level", default="hard", help="the bot judged (a level or a bot spec; default hard)")
    parser.add_argument(
        "--reference",
        default=None,
        help=f"the judge, a pimc spec (default {REFERENCE}; with --confirm {CONFIRM_REFERENCE})",
    )
    parser.add_argument("--hands", type=int, default=20, help="hands played (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--z", type=float, default=2.0, help="standard errors a gap must exceed (default 2)")
    parser.add_argument("--min-gap", type=float, default=0.01, help="the least gap flagged, 0 to 1 (default 0.01)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--every", type=int, default=1, help="judge every N-th decision with a choice, to cover more hands (default 1)"
    )
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument("--out", default=None, help="also write the whole result as JSON to this file")
    parser.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help="append every judged hand to this JSON-lines file, and take the hands already in it (judged with the "
        "same settings) instead of playing them again: a long run stopped and resumed, or done in parts",
    )
    parser.add_argument(
        "--confirm",
        default=None,
        metavar="FILE",
        help="instead of playing: measure again the positions of a result FILE (--out) with the reference, the "
        "paired difference of their two actions on fresh worlds, and show what the --picks bots play there "
        "(--hands, --level, --z, --min-gap and --workers are not used)",
    )
    parser.add_argument("--top", type=int, default=20, help="with --confirm: the largest gaps confirmed (default 20)")
    parser.add_argument("--picks", default="heuristic,hard,expert", help="with --confirm: bots, comma-separated")
    parser.add_argument("--tries", type=int, default=3, help="with --confirm: random seeds per pick (default 3)")
    args = parser.parse_args(argv)
    if args.confirm:
        return _confirm_main(args)
    if args.hands < 1 or args.workers < 1 or args.every < 1 or args.z < 0 or not 0 <= args.min_gap <= 1:
        parser.error("--hands, --workers and --every must be at least 1, --z at least 0, --min-gap from 0 to 1")
    try:
        saved = Saved(Path(args.save) if args.save else None, "mistakes")
    except (OSError, ValueError) as e:
        parser.error(f"--save: {e}")
    result = run(
        args.game,
        args.level,
        args.reference or REFERENCE,
        args.hands,
        args.seed,
        args.z,
        args.min_gap,
        args.workers,
        args.every,
        saved,
    )
    if _written(result, args.out, args.json):
        return 0
    print(
        f"{result['game']}: {result['level']} judged by {result['reference']} over {result['hands']} hands: "
        f"{result['flagged']} of {result['decisions_judged']} decisions flagged ({result['seconds']} s)"
    )
    for f in result["positions"][:20]:
        exact = f["exact"]
        hint = f"; every hand known: {exact['taken']} v {exact['best']} {exact['measure']}" if exact else ""
        print(
            f"  hand {f['hand_seed']}, action {f['actions']}, seat {f['seat']} ({f['phase']}): {f['level_action']} "
            f"-> {f['best_action']}, +{100 * f['gap']:.1f} points of a win (se {100 * f['error']:.1f}){hint}"
        )
    sys.stdout.flush()
    return 0


def _written(result: dict[str, Any], out: str | None, as_json: bool) -> bool:
    """Write the result to ``out`` (``--out``) and print it as JSON (``--json``): whether it was printed."""
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    if as_json:
        print(json.dumps(result, indent=1))
    return as_json


def _confirm_main(args: argparse.Namespace) -> int:
    """``--confirm FILE``: the positions of an earlier result measured again, printed or written as JSON."""
    try:
        with open(args.confirm, encoding="utf-8") as f:
            earlier = json.load(f)
        positions = earlier["positions"][: max(0, args.top)]
        game = resolve(earlier["game"])[0].name
        for p in positions:
            missing = [k for k in FOUND if k not in p]
            if missing:
                raise KeyError(f"a position without {', '.join(missing)}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"--confirm {args.confirm}: not a result written by --out ({e})") from None
    if resolve(args.game)[0].name != game:
        raise SystemExit(f"--confirm {args.confirm}: its positions are of {earlier['game']}, not {args.game}")
    reference = args.reference or CONFIRM_REFERENCE
    picks = {}
    try:
        judge = make_bot(reference, game)
        for spec in (p.strip() for p in args.picks.split(",") if p.strip()):
            picks[spec] = make_bot(spec, game)
    except ValueError as e:  # every error of this project is a ValueError
        raise SystemExit(f"--reference or --picks: {e}") from None
    if not isinstance(judge, PimcBot):
        raise SystemExit(f"--reference {reference!r}: the reference must be a pimc bot (it compares in paired worlds)")
    started = time.perf_counter()
    confirmed = [confirm(p, judge, args.seed, picks, args.tries) for p in positions]
    result = {
        "game": earlier["game"],
        "level": earlier["level"],
        "reference": reference,
        "seed": args.seed,
        "run_seed": earlier.get("seed"),
        "seconds": round(time.perf_counter() - started, 1),
        "positions": confirmed,
    }
    if _written(result, args.out, args.json):
        return 0
    print(f"{result['game']}: {len(confirmed)} positions measured again by {reference} ({result['seconds']} s)")
    for c in confirmed:
        picked = "; ".join(f"{spec} {' '.join(moves)}" for spec, moves in c["picks"].items())
        print(
            f"  hand {c['hand_seed']}, action {c['actions']} ({c['phase']}): {c['worse']} -> {c['better']}, "
            f"{100 * c['gap']:+.1f} points of a win (se {100 * c['error']:.1f}, {c['worlds']} worlds); {picked}"
        )
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
