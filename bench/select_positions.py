"""Regression positions from a confirmed mistakes run: the rule that picks them, written down and repeatable.

Run as ``python bench/select_positions.py CONFIRMED [--run-seed N] [--into FILE] [--dry-run]``, where CONFIRMED is
what ``bench/mistakes.py GAME --confirm FOUND --out CONFIRMED`` wrote. A confirmed position becomes a regression
position (``tests/data/positions/<game>.json``, read by ``tests/positions_helpers.py``) when

* its gap, measured again on fresh worlds by the larger reference, is at least :data:`LEAST_GAP` of a win and
  :data:`LEAST_ERRORS` standard errors (clear, not noise), and
* at least one of the bots it was tried with (``--picks``, by default the heuristic bot, ``hard`` and ``expert``)
  played the better action with every random seed tried (0, 1 and 2 by default): those bots are named with the
  position, and its test asserts that each of them still does.

A position already in the file (the same run seed, hand, decision and actions) is not added twice. The run seed is
the ``--seed`` of the mistakes run that found the positions; a position from a run whose seed differs from the file's
own carries it (so two runs' hand numbers never collide). ``--confirm`` records it; ``--run-seed`` gives it for a file
written before it did.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clubsuite.engine import resolve

LEAST_GAP = 0.015
"""The least confirmed gap of a regression position, as a share of a win (1.5 points)."""
LEAST_ERRORS = 4.0
"""The least confirmed gap of a regression position, in standard errors of the paired difference."""
POSITIONS = Path(__file__).resolve().parent.parent / "tests" / "data" / "positions"
"""Where the regression positions of each game live."""
KEPT = ("hand_seed", "actions", "seat", "phase", "worse", "better", "measure", "gap", "error", "worlds", "exact")
"""What a regression position keeps of a confirmed one, besides its bots, its run seed and its record."""


def selected(confirmed: dict[str, Any], run_seed: int, file_seed: int) -> list[dict[str, Any]]:
    """The confirmed positions that pass the rule, in the form the positions file holds, largest gap first."""
    chosen = []
    for p in confirmed["positions"]:
        if p["gap"] < LEAST_GAP or p["gap"] < LEAST_ERRORS * p["error"]:
            continue
        bots = [spec for spec, moves in p["picks"].items() if moves and all(m == p["better"] for m in moves)]
        if not bots:
            continue
        position: dict[str, Any] = {"bots": bots}
        if run_seed != file_seed:
            position["seed"] = run_seed
        position.update({key: p[key] for key in KEPT})
        position["record"] = p["record"]
        chosen.append(position)
    return sorted(chosen, key=lambda q: -float(q["gap"]))


def key(position: dict[str, Any], file_seed: int) -> tuple[int, int, int, str, str]:
    """What makes a position the same position: its run's seed, hand, decision and two actions."""
    return (
        int(position.get("seed", file_seed)),
        int(position["hand_seed"]),
        int(position["actions"]),
        str(position["worse"]),
        str(position["better"]),
    )


def main(argv: list[str] | None = None) -> int:
    """Read the confirmed run, add what passes the rule to the positions file, say what was added."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("confirmed", help="a result written by bench/mistakes.py --confirm ... --out FILE")
    parser.add_argument("--run-seed", type=int, default=None, help="the --seed of the mistakes run (if not recorded)")
    parser.add_argument("--into", default=None, help="the positions file (default tests/data/positions/GAME.json)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be added; write nothing")
    args = parser.parse_args(argv)
    try:
        confirmed = json.loads(Path(args.confirmed).read_text(encoding="utf-8"))
        game = resolve(confirmed["game"])[0].name
        for p in confirmed["positions"]:
            missing = [k for k in (*KEPT, "picks", "record") if k not in p]
            if missing:
                raise KeyError(f"a position without {', '.join(missing)}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"{args.confirmed}: not a result written by bench/mistakes.py --confirm ({e})") from None
    run_seed = args.run_seed if args.run_seed is not None else confirmed.get("run_seed")
    if not isinstance(run_seed, int):
        raise SystemExit(f"{args.confirmed}: it does not record its run's seed: give it with --run-seed")
    into = Path(args.into) if args.into else POSITIONS / f"{game}.json"
    try:
        held = json.loads(into.read_text(encoding="utf-8"))
        file_seed = int(held["seed"])
        if resolve(held["game"])[0].name != game:
            raise ValueError(f"its positions are of {held['game']}, not {confirmed['game']}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"--into {into}: not a positions file of {game} ({e})") from None
    known = {key(p, file_seed) for p in held["positions"]}
    fresh = [p for p in selected(confirmed, run_seed, file_seed) if key(p, file_seed) not in known]
    print(f"{game}: {len(fresh)} new positions of {len(confirmed['positions'])} confirmed (run seed {run_seed})")
    for p in fresh:
        print(
            f"  hand {p['hand_seed']}, action {p['actions']}: {p['worse']} -> {p['better']}, "
            f"+{100 * p['gap']:.1f} points (se {100 * p['error']:.1f}); {', '.join(p['bots'])}"
        )
    if fresh and not args.dry_run:
        held["positions"].extend(fresh)
        into.write_text(json.dumps(held, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
