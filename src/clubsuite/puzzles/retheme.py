"""A puzzle's themes found again from its record, without judging it again.

A theme reads the puzzle's point, its answer and, for an exact puzzle, the hand played to its end along the answer's
line and along the next best action's line (:class:`clubsuite.puzzles.themes.Scene`). All of it can be had from
what a puzzle keeps: the point by replaying its record, the answer's line is stored in the puzzle, the next best
action is the best of the other values it states, and only that action's line is searched again (an ending's
exact line, far cheaper than the judgement that made the puzzle). So when a game's theme rules change, a set is
tagged again in seconds to minutes rather than made again.
"""

from __future__ import annotations

from dataclasses import replace

from clubsuite.engine import SomeMatch
from clubsuite.puzzles.criteria import ENDGAME_MEASURE
from clubsuite.puzzles.line import exact_line
from clubsuite.puzzles.model import Puzzle, PuzzleError, match_point
from clubsuite.puzzles.themes import Scene, themes_of
from clubsuite.solver import solving_for
from clubsuite.solver.game import measure_named


def next_best(values: dict[str, float], solution: str, maximize: bool) -> str:
    """The best action other than ``solution`` by ``values`` (the first listed among equals), as the generator picks
    the line a theme compares the answer's with."""
    ranked = sorted((a for a in values if a != solution), key=lambda a: values[a], reverse=maximize)
    return ranked[0]


def _replayed(match: SomeMatch, line: tuple[str, ...]) -> SomeMatch:
    end = match.clone()
    for text in line:
        end.apply(end.parse_action(text))
    return end


def scene_of(puzzle: Puzzle) -> Scene:
    """The scene the puzzle's themes are read from, rebuilt from the puzzle (see the module docstring)."""
    before = match_point(puzzle)
    seat = before.to_act
    if seat is None or seat != puzzle.seat:
        raise PuzzleError(f"puzzle {puzzle.id}: its record does not come to its seat's turn")
    solution = before.parse_action(puzzle.solution)
    after_mistake = puzzle.mistake is not None
    if not puzzle.exact:
        return Scene(puzzle.kind, puzzle.measure, seat, before, solution, None, None, None, after_mistake)
    if puzzle.kind == "endgame":
        maximize = True
        measure = ENDGAME_MEASURE
    else:
        chosen = measure_named(solving_for(before.game), puzzle.measure)
        maximize, measure = chosen.maximize, chosen.name
    line_end = _replayed(before, puzzle.line)
    other = before.parse_action(next_best(dict(puzzle.values), puzzle.solution, maximize))
    _, other_end = exact_line(before, puzzle.kind, measure, other)
    return Scene(puzzle.kind, measure, seat, before, solution, line_end, other, other_end, after_mistake)


def retheme(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with its themes found again by its game's rules as they are now."""
    return replace(puzzle, themes=tuple(themes_of(scene_of(puzzle))))
