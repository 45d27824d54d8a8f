"""The themes of a CLUBS puzzle (the registry part ``themes``; see :mod:`clubsuite.puzzles.themes`).

What the answer changes, read from the round played to its end along the answer's line and the next best action's
(each seat's choice by the exact search of the round's end, see :mod:`clubsuite.games.northstar.endgame`): going out
first and the bonus card it brings (NS-5), the 0 card avoided (NS-5), more clubs won (NS-2), double or nothing made
good (NS-8), the match won (NS-7); and what the answer is (a pass that waits, a 15 that wins at once, NS-4, a set or
a run, NS-3), and whether it is the last player's final turn (NS-5).
"""

from __future__ import annotations

from clubsuite.engine import SomeMatch
from clubsuite.games.northstar.combos import Call, Kind, Play
from clubsuite.games.northstar.hand import ScoreLine
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.puzzles.themes import Scene

THEMES = {
    "out_first": (
        "out first",
        "with the answer the seat goes out first (the highest bonus card); with the next best action it does not",
    ),
    "bonus": ("bonus card", "the answer brings the seat a higher bonus card than the next best action"),
    "zero_card": (
        "the 0 card",
        "the answer keeps the seat from being left with cards and the 0 card, which scores nothing",
    ),
    "clubs": ("clubs", "the answer wins more club points for the seat than the next best action"),
    "double": ("double or nothing", "the seat has called double or nothing and the answer makes it good"),
    "match": ("match won", "the answer wins the match; the next best action does not"),
    "last_turn": ("last turn", "the seat is the last holding cards and has one turn left on the trick"),
    "wait": ("wait", "the answer passes: holding back wins more than playing now"),
    "fifteen": ("the 15", "the answer plays a 15, which wins the trick at once"),
    "set": ("set", "the answer is a set of two or more cards of one value"),
    "run": ("run", "the answer is a run of consecutive values"),
}


def _northstar(match: SomeMatch) -> NorthstarMatch:
    """``match`` as the CLUBS match a CLUBS scene holds (the compiled match class is a subclass)."""
    if not isinstance(match, NorthstarMatch):
        raise TypeError(f"not a CLUBS match: {match!r}")
    return match


def _line(end: SomeMatch | None, hand: int, seat: int) -> ScoreLine | None:
    if end is None:
        return None
    lines = _northstar(end).hands[hand].score_lines
    return lines[seat] if lines else None


def _out_first(end: SomeMatch | None, hand: int) -> int | None:
    order = _northstar(end).hands[hand].out_order if end is not None else []
    return order[0] if order else None


def _won_match(end: SomeMatch | None, seat: int) -> bool:
    return end is not None and end.is_over and seat in end.winners


def themes(scene: Scene) -> set[str]:
    """The CLUBS themes of ``scene`` (see the module docstring)."""
    before, seat, answer = _northstar(scene.before), scene.seat, scene.solution
    h = len(before.hands) - 1
    hand = before.hands[h]
    found: set[str] = set()
    if hand.last_turn == seat:
        found.add("last_turn")
    if answer == Call.PASS:
        found.add("wait")
    elif isinstance(answer, Play):
        if answer.high == 15 and not before.options.crazy:
            found.add("fifteen")
        if answer.kind == Kind.SET:
            found.add("set")
        elif answer.kind == Kind.RUN:
            found.add("run")
    mine, other = _line(scene.line_end, h, seat), _line(scene.other_end, h, seat)
    if mine is None:
        return found
    first = _out_first(scene.line_end, h) == seat
    other_first = _out_first(scene.other_end, h) == seat
    if first and not other_first:
        found.add("out_first")
    if other is not None:
        if (mine.bonus or 0) > (other.bonus or 0):
            found.add("bonus")
        if other.zero_card and not mine.zero_card:
            found.add("zero_card")
        if mine.clubs > other.clubs:
            found.add("clubs")
        if mine.double and not other.double:
            found.add("double")
    if _won_match(scene.line_end, seat) and not _won_match(scene.other_end, seat):
        found.add("match")
    return found
