"""What a page is shown of a puzzle, worked out in a worker process (never on the event loop): the puzzle's record
is replayed to its point by the rules engine, which takes some milliseconds to tens of them.

The two parts (the **position**, shown at once, and the **line**, given once the puzzle is answered right or its
solution asked for) are made by :mod:`clubsuite.puzzles.positions`, the same for a server and the offline app; this
module is the server's side of it: one puzzle's work in a worker process, answered as a replay is. The record stays
on the server (:mod:`clubsuite.server.puzzles.library`).
"""

from __future__ import annotations

import json

from clubsuite.errors import ClubsError
from clubsuite.puzzles.model import puzzle_from_json
from clubsuite.puzzles.positions import position_and_line

__all__ = ["position_and_line", "puzzle_parts"]


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
