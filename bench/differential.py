"""The compiled kernels held to the engine on many random matches: every legal set, event, hand and score compared
at every decision (each game's ``differential`` module), for every game and reading of the rules with a kernel.

Run as ``python bench/differential.py [--matches N] [--seed S] [--workers W] [--only SPEC ...] [--json]`` (default
100,000 matches a variant; the tests run the same check on 2,000). Match ``k`` of a variant is played from
``derive_seed(S, k)``, so a mismatch names a seed that replays it alone. Exits 1 on the first mismatch, with the
seed and what differed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from typing import Any

from clubsuite.engine import resolve
from clubsuite.native import KernelMismatchError
from clubsuite.seeding import derive_seed

VARIANTS = (
    "whist",
    "whist-1997",
    "partnership",
    "free",
    "free(no_spades_needs_a_trick=true)",
    "northstar(players=3)",
    "northstar-duel",
    "northstar",
    "northstar(players=6)",
    "northstar-2013",
    "northstar-double",
    "northstar-teams",
    "northstar-wild",
    "northstar-crazy",
    "northstar(players=6,teams=2x3,double_or_nothing=true,wild_fifteens=true,crazy=true)",
)
"""The rules specs with a kernel: both readings of CW-3, the partnership game, both readings of Free Clubs' no-spades
bonus (FC-8), and North Star's CLUBS with 2, 3, 4 and 6 players, each of its rulebook's variants and every option at
once."""

CHUNK = 500
"""Matches per task."""


def _check(task: tuple[str, int, int, int]) -> tuple[int, int, str | None]:
    """Check matches ``start`` to ``stop - 1`` of ``spec``: (matches, decisions, the mismatch or None)."""
    spec, seed, start, stop = task
    info, options = resolve(spec)
    module = __import__(f"clubsuite.games.{info.name}.differential", fromlist=["check_random_matches"])
    seeds = [derive_seed(seed, k) for k in range(start, stop)]
    try:
        return stop - start, module.check_random_matches(options, seeds), None
    except KernelMismatchError as exc:
        return stop - start, 0, f"{spec}: {exc}"


def _line(f: dict[str, Any]) -> str:
    verdict = f["mismatch"] or "the kernel and the engine agree at every decision"
    return (
        f"{f['spec']:<36} {f['matches']:>8,} matches, {f['decisions']:>11,} decisions in "
        f"{f['seconds']:7.1f} s: {verdict}"
    )


def run(
    matches: int, seed: int, workers: int, show: bool = False, only: tuple[str, ...] = VARIANTS
) -> list[dict[str, Any]]:
    """The figures of every variant (of ``only``): matches, decisions compared, seconds, and the first mismatch
    (None: none); with ``show``, each variant's line printed as soon as it is done."""
    out = []
    with multiprocessing.Pool(workers) as pool:
        for spec in only:
            start = time.perf_counter()
            tasks = [(spec, seed, a, min(a + CHUNK, matches)) for a in range(0, matches, CHUNK)]
            done = decisions = 0
            mismatch = None
            for n, d, wrong in pool.imap_unordered(_check, tasks):
                done += n
                decisions += d
                mismatch = mismatch or wrong
            out.append(
                {
                    "spec": spec,
                    "matches": done,
                    "decisions": decisions,
                    "seconds": time.perf_counter() - start,
                    "mismatch": mismatch,
                }
            )
            if show:
                print(_line(out[-1]), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    """Check every variant and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=100_000, help="random matches a variant (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="the seed the matches' seeds derive from (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--only", action="append", choices=VARIANTS, metavar="SPEC", help="check only this variant (may repeat)"
    )
    args = parser.parse_args(argv)
    if args.matches < 1 or args.workers < 1:
        parser.error("--matches and --workers: at least 1")
    only = tuple(args.only) if args.only else VARIANTS
    figures = run(args.matches, args.seed, args.workers, show=not args.json, only=only)
    if args.json:
        print(json.dumps(figures, indent=2))
    return 1 if any(f["mismatch"] for f in figures) else 0


if __name__ == "__main__":
    sys.exit(main())
