"""The puzzle sets shipped in the package (``puzzles/data``): one compressed JSON-lines file per game and seat
count, listed in ``index.json`` with the variant each holds and how it was made (``tools/make_puzzle_sets.py``
writes both; ``docs/puzzles.md`` gives the command and the counts).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clubsuite.engine import find_game, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.puzzles.model import Puzzle, read_set

DATA = Path(__file__).resolve().parent / "data"
INDEX = DATA / "index.json"


@dataclass(frozen=True)
class ShippedSet:
    """One shipped set: its file, the game and variant its puzzles are from, and how many it holds."""

    file: Path
    game: str
    variant: str
    count: int


def shipped_sets() -> list[ShippedSet]:
    """Every shipped set, as the index lists them (none where the package ships none)."""
    if not INDEX.exists():
        return []
    index = json.loads(INDEX.read_text(encoding="utf-8"))
    return [ShippedSet(DATA / s["file"], s["game"], s["variant"], int(s["count"])) for s in index["sets"]]


def sets_for(spec: str) -> list[ShippedSet]:
    """The shipped sets of the game or variant ``spec``: every set of the game for a bare game name (all its seat
    counts), the set of that variant for a spec with options (a seat count named); refused naming what is
    shipped where there is none."""
    info, _ = find_game(spec.split("(")[0])
    every = [s for s in shipped_sets() if s.game == info.name]
    if "(" in spec or spec != info.name:
        _, options = resolve(spec)
        every = [s for s in every if resolve(s.variant)[1] == options]
    if not every:
        have = ", ".join(s.variant for s in shipped_sets()) or "none"
        raise InvalidOptionsError(f"no puzzles are shipped for {spec}; the shipped sets are: {have}")
    return every


def shipped(spec: str) -> list[Puzzle]:
    """Every shipped puzzle of ``spec`` (see :func:`sets_for`)."""
    return [p for s in sets_for(spec) for p in read_set(s.file)]


BEGIN, END = "<!-- puzzle-sets:begin -->", "<!-- puzzle-sets:end -->"


def docs_block(read: Callable[[Path], Sequence[Puzzle]] = read_set) -> str:
    """The shipped sets as ``docs/puzzles.md`` shows them: per set its size, kinds, rating bands (under 1400: the
    heuristic bot finds the answer), the puzzles after a mistake, the one-note ones (two actions to choose from, the
    answer most shared); per game each theme's count. Each set file is read by ``read`` (a caller that has read the
    sets already passes what gives them back, rather than reading them all again)."""
    from collections import Counter

    from clubsuite.puzzles.themes import theme_names

    rows = [
        BEGIN,
        "",
        "| set | rules | puzzles | double dummy | endgame | single dummy | after a mistake | under 1400 | 1400-1799 "
        "| 1800 and over | two actions | most shared answer | pool |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    by_game: dict[str, Counter[str]] = {}
    index = json.loads(INDEX.read_text(encoding="utf-8")) if INDEX.exists() else {"sets": []}
    for entry, s in zip(index["sets"], shipped_sets(), strict=True):
        puzzles = read(s.file)
        kinds = Counter(p.kind for p in puzzles)
        bands = Counter(0 if p.rating < 1400 else 2 if p.rating >= 1800 else 1 for p in puzzles)
        two = sum(1 for p in puzzles if len(p.values) == 2)
        answer, shared = Counter(p.solution for p in puzzles).most_common(1)[0]
        rows.append(
            f"| `{s.file.name}` | `{s.variant}` | {len(puzzles)} | {kinds['double_dummy']} | {kinds['endgame']} "
            f"| {kinds['single_dummy']} | {sum(1 for p in puzzles if p.mistake is not None)} | {bands[0]} "
            f"| {bands[1]} | {bands[2]} | {two} | {answer} ({shared}) | {entry['pool']} |"
        )
        by_game.setdefault(s.game, Counter()).update(t for p in puzzles for t in p.themes)
    for game, counts in by_game.items():
        names = theme_names(game)
        rows += ["", f"Themes of `{game}`:", ""]
        rows.append(", ".join(f"{names[t][0]} ({counts[t]})" for t in names if counts[t]) + ".")
    rows += ["", END]
    return "\n".join(rows)


def write_docs(path: Path) -> bool:
    """Put :func:`docs_block` into the page between the markers; whether the page changed."""
    from clubsuite.docblock import write_block

    return write_block(path, docs_block(), BEGIN, END)


if __name__ == "__main__":
    import sys

    from clubsuite.docblock import main

    main(sys.argv[1:], "clubsuite.puzzles.sets", "docs/puzzles.md", write_docs)
