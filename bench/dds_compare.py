"""The class to compare the exact solver with: bridge's double-dummy solver DDS (Bo Haglund and Soren Hein), timed
here on the same kind of question, every legal card of the player to lead valued exactly from the first card of a
hand with every hand known.

Run as ``python bench/dds_compare.py [--deals N] [--seed S] [--json]``; needs the DDS shared library (Debian's
``libdds0``, ``apt-get install libdds-dev``), which it loads with :mod:`ctypes`. Random bridge deals (four hands of
13 cards, a seed's shuffle), ``SolveBoard`` with ``target=-1, solutions=3`` (the score of every legal card), one
thread, each deal solved twice: clubs trumps (as in every Clubs game) and no trumps. The figures are for reading:
a bridge deal has four hands and DDS's trick-by-trick table across them, the whist hand three, so the comparison
is of class, not of equal work.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import os
import random
import statistics
import sys
import time
from typing import Any

HANDS, SUITS = 4, 4
CLUBS_TRUMP, NO_TRUMP = 3, 4
"""DDS's strain numbers: spades 0, hearts 1, diamonds 2, clubs 3, no trumps 4."""


class Deal(ctypes.Structure):
    """DDS's ``struct deal``: the strain, the player to lead, the trick in progress, and each hand by suit as rank
    bits (bit r for rank r, 2..14)."""

    _fields_ = [  # ctypes reads the layout from the class
        ("trump", ctypes.c_int),
        ("first", ctypes.c_int),
        ("currentTrickSuit", ctypes.c_int * 3),
        ("currentTrickRank", ctypes.c_int * 3),
        ("remainCards", (ctypes.c_uint * SUITS) * HANDS),
    ]


class FutureTricks(ctypes.Structure):
    """DDS's ``struct futureTricks``: nodes searched and each card's score."""

    _fields_ = [
        ("nodes", ctypes.c_int),
        ("cards", ctypes.c_int),
        ("suit", ctypes.c_int * 13),
        ("rank", ctypes.c_int * 13),
        ("equals", ctypes.c_int * 13),
        ("score", ctypes.c_int * 13),
    ]


def load() -> ctypes.CDLL:
    """The DDS library, one thread; SystemExit with the way to install it when it is missing."""
    name = ctypes.util.find_library("dds")
    if name is None:
        raise SystemExit("the DDS library is not installed here: apt-get install libdds-dev (Debian's libdds0)")
    lib = ctypes.CDLL(name)
    lib.SetMaxThreads(1)
    lib.SolveBoard.argtypes = [
        Deal,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(FutureTricks),
        ctypes.c_int,
    ]
    lib.SolveBoard.restype = ctypes.c_int
    return lib


def random_deal(rng: random.Random, trump: int) -> Deal:
    """Four random hands, North to lead."""
    deck = list(range(52))
    rng.shuffle(deck)
    deal = Deal()
    deal.trump, deal.first = trump, 0
    for k, card in enumerate(deck):
        suit, rank = divmod(card, 13)
        deal.remainCards[k % HANDS][suit] |= 1 << (rank + 2)
    return deal


def figures(deals: int, seed: int) -> dict[str, Any]:
    """Median, quartiles and worst time of a solve, per strain."""
    lib = load()
    out: dict[str, Any] = {}
    for label, trump in (("clubs trumps", CLUBS_TRUMP), ("no trumps", NO_TRUMP)):
        rng = random.Random(seed)
        times, nodes = [], []
        for _ in range(deals):
            deal = random_deal(rng, trump)
            fut = FutureTricks()
            start = time.perf_counter()
            status = lib.SolveBoard(deal, -1, 3, 1, ctypes.byref(fut), 0)
            times.append(time.perf_counter() - start)
            if status != 1:
                raise SystemExit(f"DDS refused a deal: status {status}")
            nodes.append(fut.nodes)
        q = statistics.quantiles(times, n=4)
        out[label] = {
            "deals": deals,
            "median_ms": statistics.median(times) * 1e3,
            "quartiles_ms": [q[0] * 1e3, q[2] * 1e3],
            "max_ms": max(times) * 1e3,
            "median_nodes": statistics.median(nodes),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Time DDS and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=201, help="random deals per strain (default 201)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error(f"--deals {args.deals}: expected at least two")
    result = figures(args.deals, args.seed)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for label, f in result.items():
        print(
            f"DDS, a whole bridge deal, {label:<13} median {f['median_ms']:7.1f} ms  (quartiles "
            f"{f['quartiles_ms'][0]:.1f}..{f['quartiles_ms'][1]:.1f}, worst {f['max_ms']:.0f}; "
            f"{f['median_nodes']:.0f} nodes; {f['deals']} deals)"
        )
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    # Debian's libdds 2.9.0 crashes in its own clean-up when a process that loaded it exits (even one that only
    # loaded it), so this script leaves without running the library's destructors.
    os._exit(code)
