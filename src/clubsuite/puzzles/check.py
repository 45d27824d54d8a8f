"""Checking a puzzle again from its source: replay its record to its point and ask the same judge.

An exact puzzle holds when the judge gives every legal action the value the puzzle states and the answer is still
the only one that keeps the best (its values are the judge's, so nothing is taken on trust); a single-dummy puzzle
holds when the same search, on the worlds its seed draws, finds the same answer by the same margin, and the same
fresh worlds confirm it by the same margin. The line of an exact puzzle must be legal from the point to the end of
the hand.
"""

from __future__ import annotations

import math

from clubsuite.errors import ClubsError
from clubsuite.puzzles.criteria import ENDGAME_MEASURE, exact, single_dummy
from clubsuite.puzzles.model import Puzzle, PuzzleError, match_point
from clubsuite.solver import NodeLimitError, NotSolvableError

CHECK_NODES = 20_000_000
"""The most positions a check may search (a puzzle found within the generator's limit needs far fewer)."""


def check_puzzle(puzzle: Puzzle, nodes: int = CHECK_NODES) -> None:
    """Raise :class:`PuzzleError` saying what does not hold (see the module docstring); return if it all does."""
    match = match_point(puzzle)
    where = f"puzzle {puzzle.id}"
    legal = {match.format_action(a) for a in match.legal_actions()}
    if puzzle.solution not in legal:
        raise PuzzleError(f"{where}: its solution {puzzle.solution} is not legal at its point")
    if puzzle.exact:
        if puzzle.kind == "endgame" and puzzle.measure != ENDGAME_MEASURE:
            raise PuzzleError(f"{where}: an endgame puzzle counts {ENDGAME_MEASURE!r}, not {puzzle.measure!r}")
        try:
            answer = exact(match, puzzle.kind, puzzle.measure, node_limit=nodes)
        except (NodeLimitError, NotSolvableError) as exc:
            raise PuzzleError(f"{where}: the judge could not value it: {exc}") from None
        if answer is None:
            raise PuzzleError(f"{where}: no single action is best at its point")
        if answer.solution != puzzle.solution or dict(answer.values) != dict(puzzle.values):
            raise PuzzleError(f"{where}: the judge finds {answer.solution} best with values {dict(answer.values)}")
        if answer.value != puzzle.goal:
            raise PuzzleError(f"{where}: its goal is {puzzle.goal}, the judge's value {answer.value}")
        _check_line(puzzle)
        return
    if puzzle.worlds is None:
        raise PuzzleError(f"{where}: a single-dummy puzzle states how its worlds were drawn")
    seed = int(puzzle.worlds["seed"])
    if "confirmed" not in puzzle.worlds:
        raise PuzzleError(f"{where}: its margin was never confirmed on fresh worlds")
    found = single_dummy(
        match, seed, worlds=int(puzzle.worlds["worlds"]), confirm_worlds=int(puzzle.worlds["confirm_worlds"])
    )
    if found is None or found.solution != puzzle.solution:
        raise PuzzleError(f"{where}: the search does not find {puzzle.solution} clearly best on its worlds")
    if not math.isclose(found.check.margin, puzzle.worlds["margin"], abs_tol=1e-3):
        raise PuzzleError(
            f"{where}: its margin is {found.check.margin:.4f} on its worlds, not {puzzle.worlds['margin']}"
        )
    if not math.isclose(found.check.confirmed.margin, puzzle.worlds["confirmed"], abs_tol=1e-3):
        raise PuzzleError(
            f"{where}: its confirmed margin is {found.check.confirmed.margin:.4f}, not {puzzle.worlds['confirmed']}"
        )


def _check_line(puzzle: Puzzle) -> None:
    match = match_point(puzzle)
    hands = len(match.hands)
    for k, text in enumerate(puzzle.line):
        if match.to_act is None or len(match.hands) != hands:
            raise PuzzleError(f"puzzle {puzzle.id}: its line goes on past the end of the hand (action {k})")
        try:
            match.apply(match.parse_action(text))
        except ClubsError as exc:
            raise PuzzleError(f"puzzle {puzzle.id}: action {k} of its line, {text}: {exc}") from None
    if match.to_act is not None and len(match.hands) == hands:
        raise PuzzleError(f"puzzle {puzzle.id}: its line stops before the end of the hand")
