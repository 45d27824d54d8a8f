"""What a page is shown of a puzzle: its record replayed to its point by the rules engine (some milliseconds to tens of
them), in two parts that are handed out at different times:

* the **position**: the seat's own view as its table shows it (with what the game shows beside the cards), the
  legal actions with their labels and what the seat is asked, the names at the table, the other side's mistake the
  puzzle starts after, the goal's measure and count, and, for an exact puzzle only, every seat's cards (a
  single-dummy puzzle shows only what its seat could know);
* the **line**: the answer and the play that follows to the hand's end, each step with what the table says and
  the seat's view after it (an exact puzzle), or how the worlds the answer was measured on came out (a
  single-dummy one). It is given only once the puzzle is answered right or its solution asked for.

The position holds neither the record (which holds every deal), the solution nor any action's value; the line holds
the solution but no value, and is given only after the answer. Whoever judges the answers keeps the rest: a server
(:mod:`clubsuite.server.puzzles.positions` works the parts out in a worker process) or the offline app's worker
(:mod:`clubsuite.offline.puzzles`). Standard library only: the page's core runs this.
"""

from __future__ import annotations

from clubsuite.bots.personas import persona_names
from clubsuite.engine import find_game
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.naming import name_words
from clubsuite.present import all_hands, asked, contained, labels, offered, wire_form, with_said, with_shown
from clubsuite.puzzles.model import Puzzle, match_point
from clubsuite.view_base import HasSpectator


def seat_names(puzzle: Puzzle, seats: int) -> list[JsonValue]:
    """The names at a puzzle's table: the puzzle's seat is the player's own (None: the page says "you"), every
    other seat a persona's name, the same for a puzzle every time (as ``clubs puzzle`` names them)."""
    others = [s for s in range(seats) if s != puzzle.seat]
    names = persona_names(f"puzzle {puzzle.id}", others, ["You"])
    return [None if s == puzzle.seat else names[s] for s in range(seats)]


def position_and_line(puzzle: Puzzle) -> JsonObject:
    """Both parts of a puzzle (see the module docstring): ``{"position": ..., "line": ...}``."""
    match = match_point(puzzle)
    info, options = find_game(puzzle.game)[0], match.options
    seat = puzzle.seat
    view = match.view(seat).to_dict()
    view.pop("legal", None)
    with_shown(info, view, options)
    offers = offered(info, match)
    legal = [o.text for o in offers]
    position: JsonObject = {
        "id": puzzle.id,
        "game": puzzle.game,
        "variant": puzzle.variant,
        "title": info.title,
        "name_words": name_words(info, options, None),
        "kind": puzzle.kind,
        "measure": puzzle.measure,
        "goal": puzzle.goal,
        "seat": seat,
        "seats": seat_names(puzzle, match.n_seats),
        "view": view,
        "legal": legal,
        "asked": contained(lambda: asked(info, view, options, legal), info, "asked"),
        "labels": contained(lambda: labels(info, view, legal), info, "label") or {},
        "notes": {o.text: o.note.to_json() for o in offers if o.note is not None},
        "hands": all_hands(match) if puzzle.exact else None,
        "mistake": None
        if puzzle.mistake is None or puzzle.mistake.seat == seat
        else {"seat": puzzle.mistake.seat, "action": puzzle.mistake.action},
    }
    return {"position": position, "line": _line(puzzle)}


def _line(puzzle: Puzzle) -> JsonObject:
    """The line part (see the module docstring)."""
    out: JsonObject = {"solution": puzzle.solution, "themes": list(puzzle.themes)}
    if not puzzle.exact:
        worlds = puzzle.worlds or {}
        out["worlds"] = {k: worlds[k] for k in ("worlds", "better", "worse") if k in worlds}
        out["steps"] = []
        return out
    match = match_point(puzzle)
    info = find_game(puzzle.game)[0]
    public = info.parts.spectator() if isinstance(info.parts, HasSpectator) else None
    steps: list[JsonValue] = []
    for text in puzzle.line:
        by = match.to_act
        events = match.apply(match.parse_action(text))
        view = match.view(puzzle.seat).to_dict()
        view.pop("legal", None)
        with_shown(info, view, match.options)
        # told as a table tells its seats (from the public view after them: nothing a seat could not know)
        seen = with_shown(info, public(match), match.options) if public is not None else view
        told = with_said(info, [wire_form(e) for e in events], seen)
        steps.append({"seat": by, "action": text, "events": told, "view": view, "hands": all_hands(match)})
    out["steps"] = steps
    return out
