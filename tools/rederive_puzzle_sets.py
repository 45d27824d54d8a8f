"""The shipped puzzle sets brought up to the generator's present rules from their own data, without playing a match:
``python tools/rederive_puzzle_sets.py`` (run it under ``nice``; it goes on where it stopped).

Each shipped puzzle keeps its source record, so what the rules add since it was made can be worked out from it:

* its themes are found again (:func:`clubsuite.puzzles.retheme.retheme`: only the next best action's line of an
  exact puzzle is searched again);
* a single-dummy puzzle's margin is confirmed on fresh worlds drawn after its choice
  (:func:`clubsuite.puzzles.criteria.confirm`, ``derive_seed(seed, 3)``, as the generator now does): one that the
  fresh worlds do not confirm is dropped, one that they do keeps the confirmed margin and its interval. Each
  verdict is kept in the work folder as it comes, and ``--cpu`` bounds the CPU seconds one run spends on it (a run
  that stops short leaves the sets as they are; the next goes on);
* its first rating is worked out again (:mod:`clubsuite.puzzles.rating`): the bots' verdicts are read back from the
  rating it was given (which of them missed is asked again of the heuristic only where one did);
* the set is chosen again from what is left (:func:`clubsuite.puzzles.make.balanced`, with the shares of one-note
  puzzles and easy ones bounded) and written with the index as ``tools/make_puzzle_sets.py`` writes them. Only the
  single-dummy puzzles the choice would take are confirmed (a failed one leaves the pool and the choice is made
  again).

The sets then hold fewer puzzles than a full remake would give (nothing new is found); ``make puzzle-sets`` makes
them whole again. The sets as they were are kept in the work folder (``*.base.jsonl``, with the present themes and
ratings), so a second run chooses from them again; without it, a set already brought up to date is refused (its
ratings are not the old rules').
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from make_puzzle_sets import SETS

from clubsuite.engine import SomeMatch
from clubsuite.puzzles.criteria import CONFIRM_WORLDS, confirm
from clubsuite.puzzles.make import balanced, confirmation_fields
from clubsuite.puzzles.model import Puzzle, match_point, read_set, write_set
from clubsuite.puzzles.rating import HABIT, finds, rating_from
from clubsuite.puzzles.retheme import retheme
from clubsuite.puzzles.sets import INDEX, shipped_sets
from clubsuite.seeding import derive_seed


def confirmations(todo: list[Puzzle], cache: Path, cpu: float) -> dict[str, dict[str, float | int] | None]:
    """The single-dummy puzzles' confirmations by id, the fields a puzzle's ``worlds`` gains (with ``dropped`` where
    the fresh worlds do not confirm its margin): every one the cache holds, and those of ``todo`` worked out (and
    kept in the cache as they come) until ``cpu`` seconds are spent; a puzzle of ``todo`` missing was not reached."""
    done: dict[str, dict[str, float | int] | None] = {}
    if cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[row["id"]] = row["confirmed"]
    start = time.process_time()
    with cache.open("a", encoding="utf-8") as out:
        for p in todo:
            if p.id in done:
                continue
            if time.process_time() - start > cpu:
                break
            assert p.worlds is not None
            match = match_point(p)
            got = confirm(match, int(p.worlds["seed"]), match.parse_action(p.solution), p.measure, CONFIRM_WORLDS)
            fields = confirmation_fields(got) if got is not None else {}
            if got is None or got.low < MIN_MARGIN:
                fields = {**fields, "dropped": 1}
            done[p.id] = fields
            out.write(json.dumps({"id": p.id, "confirmed": fields}) + "\n")
            out.flush()
    return done


def _dropped(verdict: dict[str, float | int] | None) -> bool:
    return verdict is None or "dropped" in verdict


MIN_MARGIN = 0.02
"""The margin a single-dummy answer must keep on the fresh worlds (the generator's ``min_margin``)."""

OLD_BASE, OLD_MISS = 1000, 300
"""The first rating the shipped sets were made with: 1000, 300 for each of the heuristic and ``pimc(samples=16)``
that missed the answer, plus the length's extras (20 an action past two up to 200; an exact puzzle 20 a card past
one up to 160, a single-dummy one 100)."""


def _old_extra(match: SomeMatch, kind: str) -> int:
    seat = match.to_act
    assert seat is not None
    extra = min(200, 20 * max(0, len(match.legal_actions()) - 2))
    if kind == "single_dummy":
        return extra + 100
    held: list[int] = match.hands[-1].hands  # type: ignore[attr-defined]
    return extra + min(160, 20 * max(0, int(held[seat]).bit_count() - 1))


def rerated(p: Puzzle, seed: int) -> int:
    """``p``'s first rating by the present rules: how many bots missed it read back from its old rating, and which
    one asked again of the heuristic where one did (its seed: ``derive_seed(seed, hand, actions)``, as the
    generator gives it)."""
    match = match_point(p)
    misses, rest = divmod(p.rating - OLD_BASE - _old_extra(match, p.kind), OLD_MISS)
    if rest or misses not in (0, 1, 2):
        raise ValueError(f"puzzle {p.id}: its rating {p.rating} is not one the old rules give")
    solution = match.parse_action(p.solution)
    if misses == 1:
        habit = finds(HABIT, match, solution, derive_seed(seed, p.hand, p.actions))
        return rating_from(match, p.kind, habit, not habit)
    return rating_from(match, p.kind, misses == 0, misses == 0)


def rederived(puzzles: list[Puzzle], seed: int) -> list[Puzzle]:
    """The puzzles with their themes and first ratings by the present rules."""
    return [replace(retheme(p), rating=rerated(p, seed)) for p in puzzles]


def choose(
    base: list[Puzzle], count: int, seed: int, cache: Path, cpu: float
) -> tuple[list[Puzzle] | None, dict[str, dict[str, float | int] | None]]:
    """The set chosen from ``base`` (:func:`~clubsuite.puzzles.make.balanced`) with every single-dummy puzzle in it
    confirmed: the choice is made, the single-dummy puzzles it takes that are not confirmed yet are confirmed, the
    ones that fail leave the pool, and the choice is made again until it takes only confirmed ones (so only those a
    set may take are worked out). None where ``cpu`` seconds ran out first."""
    verdicts = confirmations([], cache, 0.0)
    spent = 0.0
    while True:
        pool = [p for p in base if p.kind != "single_dummy" or p.id not in verdicts or not _dropped(verdicts[p.id])]
        chosen = balanced(pool, count, seed)
        todo = [p for p in chosen if p.kind == "single_dummy" and p.id not in verdicts]
        if not todo:
            break
        t = time.process_time()
        verdicts = confirmations(todo, cache, cpu - spent)
        spent += time.process_time() - t
        if any(p.id not in verdicts for p in todo):
            return None, verdicts
    out = []
    for p in chosen:
        verdict = verdicts.get(p.id)
        out.append(replace(p, worlds={**(p.worlds or {}), **verdict}) if verdict is not None else p)
    return out, verdicts


def main(argv: list[str] | None = None) -> int:
    """Bring the shipped sets up to date (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("build/puzzle-rederive"))
    parser.add_argument("--cpu", type=float, default=3600.0, help="CPU seconds this run may spend confirming")
    parser.add_argument("--only", action="append", default=None, help="a set's file stem (repeatable)")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    spent = 0.0
    complete = True
    index = json.loads(INDEX.read_text(encoding="utf-8"))
    listed = {e["file"]: e for e in index["sets"]}
    targets = {f"{stem}.jsonl.gz": count for stem, _, count, _ in SETS}
    for s in shipped_sets():
        stem = s.file.name.split(".")[0]
        if args.only and stem not in args.only:
            continue
        entry = listed[s.file.name]
        seed = int(entry["seed"])
        # the set as shipped before, with themes and ratings by the present rules (kept: the set is rewritten)
        base_file = args.work / f"{stem}.base.jsonl"
        if not base_file.exists():
            try:
                write_set(rederived(read_set(s.file), seed), base_file)
            except ValueError as exc:
                print(f"{stem}: {exc}: brought up to date already? (no {base_file} to choose from)", file=sys.stderr)
                return 2
        base = read_set(base_file)
        t = time.process_time()
        cache = args.work / f"{stem}.confirm.jsonl"
        chosen, verdicts = choose(base, targets[s.file.name], seed, cache, max(0.0, args.cpu - spent))
        spent += time.process_time() - t
        dropped = sum(1 for v in verdicts.values() if _dropped(v))
        print(f"{stem}: {len(verdicts)} single-dummy margins confirmed or not, {dropped} not", file=sys.stderr)
        if chosen is None:
            print(f"{stem}: out of CPU time (--cpu); run again to go on", file=sys.stderr)
            complete = False
            continue
        chosen.sort(key=lambda p: p.id)
        write_set(chosen, s.file)
        entry["count"] = len(chosen)
        print(f"{stem}: {len(chosen)} of {len(base)} kept, written to {s.file}", file=sys.stderr)
        INDEX.write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    return 0 if complete else 3


if __name__ == "__main__":
    sys.exit(main())
