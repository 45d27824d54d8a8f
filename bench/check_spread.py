"""Check a race objective against who actually wins: is its spread too narrow, too wide, or right?

Run as ``python bench/check_spread.py GAME [--matches 300] [--seed 9]``. The games whose objective is a race of
totals (:func:`clubsuite.bots.objective.race_share`: Free Clubs, the partnership game, North Star's CLUBS) set how
much a lead is worth by one measured number, the spread of a hand's points. This script plays ``--matches`` matches
of the heuristic bot in every seat (match ``i`` dealt from ``derive_seed(seed, i)``), keeps the state at the start
of every hand and who won in the end, and measures how well the objective predicts the winners (mean
cross-entropy, in nats, over the hand starts) with its spread multiplied by each of :data:`FACTORS`. A best factor
near 1 says the formula is calibrated and a fitted objective (``bench/fit_objective.py``, as whist has) would gain
little; whist's formula, measured the same way, was 0.036 nats worse than its fitted table.

Each seat's predicted share is its objective value over the sum of all seats' values, and its actual share is 1 over
the number of winners (0 for a loser), so in a game of partnerships both partners carry their team's share: the
cross-entropy of even chances, printed beside, is measured the same way. One parameter is chosen on the same
matches it is measured on, so nothing is held out; a best factor is read as a direction, not a fit.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import math
import random
import sys
import time
from typing import Any
from unittest import mock

from clubsuite.bots import make_bot
from clubsuite.bots.objective import objective_for
from clubsuite.engine import SomeMatch, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed

SPREADS = {
    "free": ("clubsuite.games.free.objective", "SPREAD"),
    "partnership": ("clubsuite.games.partnership.objective", "SPREAD"),
    "northstar": ("clubsuite.games.northstar.objective", "SPREAD_PER_PLAYER"),
}
"""Per game (registry name): the module and name of its objective's spread."""
FACTORS = (0.5, 0.7, 0.85, 1.0, 1.2, 1.5, 2.0)
"""The multiples of the spread that are measured."""


def hand_starts(spec: str, matches: int, seed: int) -> list[tuple[SomeMatch, list[float]]]:
    """Every hand's starting state of ``matches`` heuristic matches, each with the seats' actual shares of the win."""
    info, options = resolve(spec)
    rows: list[tuple[SomeMatch, list[float]]] = []
    for m in range(matches):
        match = info.new_match(options)
        bots = [make_bot("heuristic", match.game) for _ in range(match.n_seats)]
        rng = random.Random(derive_seed(seed, m, 1))
        starts = []
        while not match.is_over:
            starts.append(copy.deepcopy(match))
            play_match(match, bots, derive_seed(seed, m), rng, max_hands=1)
        seats = range(match.n_seats)
        winners = list(seats) if match.draw else list(match.winners)
        won = [1.0 / len(winners) if s in winners else 0.0 for s in seats]
        rows.extend((start, won) for start in starts)
    return rows


def cross_entropy(spec: str, rows: list[tuple[SomeMatch, list[float]]]) -> float:
    """The mean cross-entropy (nats) of the game's objective, as it is now, against the actual shares."""
    objective = objective_for(resolve(spec)[0].name)
    total = 0.0
    for start, won in rows:
        values = [objective.value(start, s) for s in range(len(won))]
        whole = sum(values)
        total -= sum(w * math.log(max(v / whole, 1e-12)) for w, v in zip(won, values, strict=True) if w)
    return total / len(rows)


def check(spec: str, matches: int, seed: int) -> dict[str, Any]:
    """Play, then measure the objective with each multiple of its spread."""
    started = time.process_time()
    info, _ = resolve(spec)
    module_name, constant = SPREADS[info.name]
    module = importlib.import_module(module_name)
    spread = float(getattr(module, constant))
    rows = hand_starts(spec, matches, seed)
    measured = {}
    for factor in FACTORS:
        with mock.patch.object(module, constant, spread * factor):
            measured[str(factor)] = round(cross_entropy(spec, rows), 4)
    even = sum(-sum(w * math.log(1 / len(won)) for w in won if w) for _, won in rows) / len(rows)
    best = min(measured, key=lambda f: measured[f])
    return {
        "game": spec,
        "command": f"python bench/check_spread.py {spec} --matches {matches} --seed {seed}",
        "matches": matches,
        "seed": seed,
        "hand_starts": len(rows),
        "spread": {"name": constant, "value": spread},
        "cross_entropy_by_factor": measured,
        "best_factor": float(best),
        "gain_at_best": round(measured["1.0"] - measured[best], 4),
        "cross_entropy_even": round(even, 4),
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, check, print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a rules spec of a race game: free, partnership, northstar(players=3), ...")
    parser.add_argument("--matches", type=int, default=300, help="heuristic matches played (default 300)")
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    try:
        info, _ = resolve(args.game)
    except InvalidOptionsError as exc:
        parser.error(f"game {args.game!r}: {exc}")
    if info.name not in SPREADS:
        parser.error(f"{info.title} is not a race of totals; its objective is checked by bench/fit_objective.py")
    print(json.dumps(check(args.game, args.matches, args.seed), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
