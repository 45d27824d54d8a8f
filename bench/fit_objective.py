"""Fit a game's objective to who actually wins: the table a search reads with ``objective=fitted``.

Run as ``python bench/fit_objective.py GAME [--matches 5000] [--seed 7] [--out FILE]``. It plays ``--matches``
matches of the heuristic bot in every seat (match ``i`` dealt from ``derive_seed(seed, i)``), notes the totals at
the start of every hand and which seats won the match in the end, and fits each seat's share of the chances as a
softmax over the seats of a log-weight per total, ``w(total)`` (cross-entropy; a seat among two winners counts half,
a draw a third each; a small penalty on the table's curvature keeps the rarely seen totals smooth). Every fifth
match is held out: the file records the held-out cross-entropy of the fitted table, of the game's formula and of
even chances, so the fit's gain is measured on matches it never saw. Deterministic for a seed.

Games: ``whist`` (a total is in -(target-1) .. target-1 while the match goes on; the table is written for the
default target, and :mod:`clubsuite.games.whist.objective` reads it by the distance to the nearer target).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.games.whist.match import WhistMatch
from clubsuite.games.whist.objective import share
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed

GAMES = ("whist",)
"""The games this script fits."""
CURVATURE = 0.002
"""The penalty on the squared second differences of the table (in nats per hand start, summed over the table)."""
STEPS = 3000
"""Gradient steps of the fit (plain gradient descent on a convex loss: the step is safe for softmax tables)."""
RATE = 5.0
"""The step size of the fit."""


def hand_starts(game: str, matches: int, seed: int) -> list[dict[str, Any]]:
    """Per match: the totals at each hand's start and the share of the win of each seat."""
    info, options = resolve(game)
    played = []
    for m in range(matches):
        match = info.new_match(options)
        assert isinstance(match, WhistMatch)
        bots = [make_bot("heuristic", match.game) for _ in match.totals]
        starts: list[list[int]] = []
        rng = random.Random(derive_seed(seed, m, 1))
        while not match.is_over:
            starts.append(list(match.totals))
            play_match(match, bots, derive_seed(seed, m), rng, max_hands=1)
        winners = list(range(len(match.totals))) if match.draw else list(match.winners)
        won = [1.0 / len(winners) if s in winners else 0.0 for s in range(len(match.totals))]
        played.append({"starts": starts, "won": won, "target": match.options.target})
    return played


def _arrays(played: list[dict[str, Any]], target: int) -> tuple[np.ndarray, np.ndarray]:
    """Table indices (total + target - 1) per hand start and seat, and the win shares."""
    index = np.array([[t + target - 1 for t in start] for m in played for start in m["starts"]], dtype=np.int64)
    won = np.array([m["won"] for m in played for _ in m["starts"]], dtype=np.float64)
    return index, won


def _shares(table: np.ndarray, index: np.ndarray) -> np.ndarray:
    z = table[index]
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    shares: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return shares


def cross_entropy(shares: np.ndarray, won: np.ndarray) -> float:
    """The mean cross-entropy (nats) of predicted shares against the win shares."""
    return float(-(won * np.log(np.clip(shares, 1e-12, 1.0))).sum(axis=1).mean())


def fit_table(index: np.ndarray, won: np.ndarray, size: int) -> np.ndarray:
    """The log-weight table that minimises the cross-entropy plus the curvature penalty (its middle pinned at 0)."""
    table = np.zeros(size)
    n = len(index)
    for _ in range(STEPS):
        residual = (_shares(table, index) - won) / n
        grad = np.zeros(size)
        np.add.at(grad, index.ravel(), residual.ravel())
        second = table[2:] - 2 * table[1:-1] + table[:-2]
        penalty = np.zeros(size)
        penalty[2:] += second
        penalty[1:-1] -= 2 * second
        penalty[:-2] += second
        table -= RATE * (grad + 2 * CURVATURE * penalty)
        table -= table[size // 2]
    return table


def fit(game: str, matches: int, seed: int) -> dict[str, Any]:
    """Play, fit on four matches in five, measure on the fifth; the table and its record."""
    started = time.process_time()
    played = hand_starts(game, matches, seed)
    target = int(played[0]["target"])
    size = 2 * target - 1
    train = [m for i, m in enumerate(played) if i % 5]
    held = [m for i, m in enumerate(played) if not i % 5]
    table = fit_table(*_arrays(train, target), size)
    index, won = _arrays(held, target)
    formula = np.array([[share([int(t) - target + 1 for t in row], s, target) for s in range(3)] for row in index])
    return {
        "game": game,
        "model": "a seat's share of the chances: softmax over the seats of a log-weight per total (at a hand's start)",
        "target": target,
        "log_weights": {str(i - target + 1): round(float(w), 4) for i, w in enumerate(table)},
        "command": f"python bench/fit_objective.py {game} --matches {matches} --seed {seed}",
        "matches": matches,
        "seed": seed,
        "hand_starts": int(sum(len(m["starts"]) for m in played)),
        "held_out": {
            "matches": len(held),
            "hand_starts": len(index),
            "cross_entropy_fitted": round(cross_entropy(_shares(table, index), won), 4),
            "cross_entropy_formula": round(cross_entropy(formula, won), 4),
            "cross_entropy_even": round(math.log(3), 4),
        },
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, fit, print (and write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES, help="the game whose objective is fitted")
    parser.add_argument("--matches", type=int, default=5000, help="heuristic matches played (default 5000)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default=None, help="write the table here (the package's file to ship it)")
    args = parser.parse_args(argv)
    if args.matches < 5:
        parser.error("--matches must be at least 5 (every fifth match is held out)")
    result = fit(args.game, args.matches, args.seed)
    text = json.dumps(result, indent=1) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
