"""What a page is shown of a puzzle, worked out in a worker process (never on the event loop): the puzzle's record
is replayed to its point by the rules engine, which takes some milliseconds to tens of them.

Two parts come back, and the server hands them out at different times:

* the **position**: the seat's own view as its table shows it (with what the game shows beside the cards), the
  legal actions with their labels and what the seat is asked, the names at the table, the other side's mistake the
  puzzle starts after, the goal's measure and count, and, for an exact puzzle only, every seat's cards (a
  single-dummy puzzle shows only what its seat could know);
* the **line**: the answer and the play that follows to the hand's end, each step with what the table says and
  the seat's view after it (an exact puzzle), or how the worlds the answer was measured on came out (a
  single-dummy one). It is given only once the puzzle is answered right or its solution asked for.

The position holds neither the record (which holds every deal), the solution nor any action's value; the line holds
the solution but no value, and is given only after the answer. The record stays on the server
(:mod:`clubsuite.server.puzzles.library`).
"""

from __future__ import annotations

import json

from clubsuite.bots.personas import persona_names
from clubsuite.engine import find_game
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.naming import name_words
from clubsuite.present import asked, contained, labels, offered, with_said, with_shown
from clubsuite.puzzles.model import Puzzle, match_point, puzzle_from_json
from clubsuite.server.table.protocol import event_json
from clubsuite.server.table.replaying import all_hands
from clubsuite.view_base import HasSpectator


def seat_names(puzzle: Puzzle, seats: int) -> list[JsonValue]:
    """The names at a puzzle's table: the puzzle's seat is the player's own (None: the page says "you"), every
    other seat a persona's name, the same for a puzzle every time (as ``clubs puzzle`` names them)."""
    others = [s for s in range(seats) if s != puzzle.seat]
    names = persona_names(f"puzzle {puzzle.id}", others, ["You"])
    return [None if s == puzzle.seat else names[s] for s in range(seats)]


def position_and_line(puzzle: Puzzle) -> JsonObject:
    """Both parts of a puzzle (see the module docstring)."""
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
        told = with_said(info, [event_json(e) for e in events], seen)
        steps.append({"seat": by, "action": text, "events": told, "view": view, "hands": all_hands(match)})
    out["steps"] = steps
    return out


def puzzle_parts(text: str) -> tuple[int, bytes, bool]:
    """The work of one puzzle in a worker process: its JSON line read (every field checked) and both parts worked
    out, answered as a replay is (status, JSON, not compressed); a puzzle that no longer replays is a 400 naming
    why (it cannot come from a stranger: the server reads only its own sets and the puzzles it made of its own
    records)."""
    try:
        puzzle = puzzle_from_json(json.loads(text))
        body = json.dumps(position_and_line(puzzle), separators=(",", ":")).encode()
        return 200, body, False
    except (ClubsError, ValueError) as exc:
        return 400, json.dumps({"code": "bad_puzzle", "message": str(exc)}).encode(), False
    except Exception as exc:  # a fault of the rules' presentation: the server logs it, the worker lives on
        return 500, json.dumps({"code": "bad_puzzle", "message": type(exc).__name__}).encode(), False
