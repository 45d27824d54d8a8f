"""Which puzzle comes next for a player: one not tried yet, as near the player's rating as there is (lichess picks
a puzzle near the player's rating, a little below or above where the player asks for easier or harder ones), of the
theme and kind asked for; once every such puzzle was tried, the ones missed come back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clubsuite.puzzles.model import Puzzle

DIFFICULTY = {"easiest": -600, "easier": -300, "normal": 0, "harder": 300, "hardest": 600}
"""How far from the player's rating the next puzzle is sought, by the difficulty asked for."""


def matching(puzzles: Sequence[Puzzle], theme: str | None = None, kind: str | None = None) -> list[Puzzle]:
    """The puzzles of ``theme`` and ``kind`` (either may be None: any)."""
    return [p for p in puzzles if (theme is None or theme in p.themes) and (kind is None or p.kind == kind)]


def next_puzzle(
    puzzles: Sequence[Puzzle],
    rating: int | Mapping[str, int],
    moved: Mapping[str, int],
    tried: Mapping[str, bool],
    difficulty: str = "normal",
) -> Puzzle | None:
    """The next puzzle (see the module docstring): ``rating`` is the player's (or, for puzzles of several variants,
    the player's in each variant's rating pool, by variant), ``moved`` the puzzles' ratings as attempts moved them,
    ``tried`` whether each puzzle tried was solved at its last attempt. None when every puzzle was solved."""
    shift = DIFFICULTY[difficulty]

    def target(p: Puzzle) -> int:
        return (rating if isinstance(rating, int) else rating[p.variant]) + shift

    fresh = [p for p in puzzles if p.id not in tried]
    pool = fresh or [p for p in puzzles if not tried.get(p.id, False)]
    if not pool:
        return None

    def now(p: Puzzle) -> int:
        return moved.get(p.id, p.rating)

    return min(pool, key=lambda p: (abs(now(p) - target(p)), p.id))
