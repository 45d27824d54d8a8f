"""The line of play an exact puzzle's answer is shown with: from the puzzle's point to the end of the hand, every
player choosing by the same exact judge that made the puzzle, the defence the puzzle's value assumes: the seat and
its side play their best for it, every other player the action that holds it lowest (for a double-dummy puzzle the
solver values the others' cards for the seat, :func:`clubsuite.solver.card_values` with ``seat``; for an endgame
the game's exact search of the round's end does). So the line ends with the seat at the puzzle's value exactly, and
the line of the next best action at that action's value: what a theme reads from the two is what the answer
guarantees, not what a kind defence happens to give.

Among equal choices the first the engine lists is taken, so a line is the same every time.
"""

from __future__ import annotations

from clubsuite.engine import Phase, SomeMatch
from clubsuite.puzzles.criteria import endgame_part
from clubsuite.solver import card_values, solving_for
from clubsuite.solver.game import measure_named

LINE_NODES = 5_000_000
"""The most positions one choice of a line may search (a line's solves are of endings, far smaller)."""


def _best(match: SomeMatch, values: dict[object, int], maximize: bool) -> object:
    legal = list(match.legal_actions())
    top = max(values.values()) if maximize else min(values.values())
    return next(a for a in legal if values.get(a) == top)


def exact_line(match: SomeMatch, kind: str, measure: str, first: object) -> tuple[list[str], SomeMatch]:
    """The actions from ``match``'s point (``first`` played by the seat to act) to the end of the hand, in
    notation, and the match at that end (a copy: ``match`` is left as it was)."""
    seat = match.to_act
    assert seat is not None
    line = match.clone()
    hands = len(line.hands)
    played = [line.format_action(first)]
    line.apply(first)
    if kind == "endgame":
        part = endgame_part(match.game)
        assert part is not None
        reply = part.best_reply
        while line.to_act is not None and len(line.hands) == hands:
            action = reply(line, seat, LINE_NODES)
            if action is None:
                break
            played.append(line.format_action(action))
            line.apply(action)
        return played, line
    solving = solving_for(match.game)
    ours = measure_named(solving, measure)
    start = solving.solvable(match, ours.name)
    assert start is not None
    side = start.position.side
    while line.to_act is not None and len(line.hands) == hands and line.phase == Phase.PLAY:
        values = card_values(line, ours.name, node_limit=LINE_NODES, seat=seat)
        best_for_seat = ours.maximize if side[line.to_act] else not ours.maximize
        action = _best(line, values, best_for_seat)
        played.append(line.format_action(action))
        line.apply(action)
    return played, line
