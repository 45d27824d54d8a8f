"""The starter puzzle sets shipped in the package (``src/clubsuite/puzzles/data``): ``make puzzle-sets``.

For each set, a pool of puzzles is made from seeded matches of ``heuristic`` bots (``clubs puzzles make`` with the
seed below), then the set is chosen from the pool spread over kinds, themes and rating bands, the harder first,
with one-note and easy puzzles held to their share (:func:`clubsuite.puzzles.make.balanced`, seeded too; a pool
too short of other puzzles for a full set, or of one kind of puzzle for a tenth of it, grows by half its size, up to
three times), written compressed, and
listed in ``index.json`` with how it was made. The pools are kept in the work folder (``--work``), so a run
stopped part way goes on where it stopped.

    python tools/make_puzzle_sets.py --workers 2            # every set (an hour or more on two cores)
    python tools/make_puzzle_sets.py --only whist --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from clubsuite.puzzles.make import MakeSettings, balanced, can_have, run
from clubsuite.puzzles.model import read_set, write_set
from clubsuite.puzzles.sets import DATA, INDEX

SEED = 2026
"""The seed of every set's matches and of its choice from the pool."""
COMMON_EVERY = 3
"""A puzzle of two actions or one the heuristic bot solves is kept one time in this many (``MakeSettings
.common_every``): a set holds them to a share, so a pool spends its matches on the others."""
MOST_POOL = 3
"""A pool grows to at most this many times its size while the set chosen from it is short (see below)."""
KIND_SHARE = 0.1
"""The least share of a set each kind of puzzle its game can have must fill (a set of double-dummy puzzles with a
few single-dummy ones teaches one way of thinking): a pool short of one grows, as for a set short of puzzles."""
SETS = [
    # (file stem, rules spec, puzzles shipped, puzzles in the pool it is chosen from)
    ("whist", "whist", 500, 800),
    ("free", "free", 500, 800),
    ("partnership", "partnership", 500, 800),
    ("northstar-3", "northstar(players=3)", 300, 480),
    ("northstar-4", "northstar(players=4)", 300, 480),
    ("northstar-5", "northstar(players=5)", 300, 480),
]


def main(argv: list[str] | None = None) -> int:
    """Make the sets asked for and rewrite the index (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path("build/puzzle-pools"))
    parser.add_argument("--only", action="append", default=None, help="a set's file stem (repeatable)")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    DATA.mkdir(parents=True, exist_ok=True)
    index = json.loads(INDEX.read_text(encoding="utf-8")) if INDEX.exists() else {"sets": []}
    listed = {s["file"]: s for s in index["sets"]}
    for stem, spec, count, wanted in SETS:
        if args.only and stem not in args.only:
            continue
        pool_file = args.work / f"{stem}.jsonl"
        settings = MakeSettings(spec, seed=SEED, common_every=COMMON_EVERY)

        def progress(matches: int, written: int, stem: str = stem, wanted: int = wanted) -> None:
            if matches % 20 == 0:
                print(f"{stem}: {matches} matches, {written} of {wanted} puzzles", file=sys.stderr, flush=True)

        size = wanted
        kinds = [k for k in settings.kinds if can_have(spec.split("(")[0], k)]
        while True:
            run(settings, size, pool_file, args.workers, resume=pool_file.exists(), progress=progress)
            pool = read_set(pool_file)[:size]  # the first ones in match order, however far a run went
            chosen = balanced(pool, count, SEED)
            # one-note and easy puzzles fill only their share (make.SHARES), and every kind the game can have needs
            # its share of the set (KIND_SHARE): a pool short of either grows by half
            held = Counter(p.kind for p in chosen)
            short = len(chosen) < count or any(held[k] < KIND_SHARE * len(chosen) for k in kinds)
            if not short or size >= MOST_POOL * wanted:
                break
            size = min(MOST_POOL * wanted, size + wanted // 2)
        chosen.sort(key=lambda p: p.id)
        name = f"{stem}.jsonl.gz"
        write_set(chosen, DATA / name)
        listed[name] = {
            "file": name,
            "game": chosen[0].game,
            "variant": chosen[0].variant,
            "count": len(chosen),
            "pool": len(pool),
            "seed": SEED,
            "command": f"python tools/make_puzzle_sets.py --only {stem}",
        }
        print(f"{stem}: {len(chosen)} of {len(pool)} puzzles in {DATA / name}", file=sys.stderr, flush=True)
    order = [f"{stem}.jsonl.gz" for stem, _, _, _ in SETS]
    index = {"sets": [listed[n] for n in order if n in listed]}
    INDEX.write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
