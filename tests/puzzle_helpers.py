"""What the puzzle tests of the server and of the offline app both read: every key of an answer (for the leak checks:
no solution, value or record in a position) and the worst legal answer of a puzzle."""

from __future__ import annotations

from typing import Any

from clubsuite.puzzles.model import Puzzle


def keys(value: Any) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def wrong_action(p: Puzzle) -> str:
    """The legal action that does worst (the first such in notation order)."""
    sign = -1 if p.measure == "fewest" else 1
    return min(sorted(a for a in p.values if a != p.solution), key=lambda a: sign * p.values[a])
