"""A player's puzzle rating in one pool, and what one answer did to it, as a page reads them: one shape for a
server's accounts (``clubsuite.server.puzzles.progress``, kept in the database) and for the offline app's player
(``clubsuite.offline.puzzles``, kept in the browser). The ratings are Glicko-2 (:mod:`~clubsuite.puzzles.glicko`).
Standard library only: the page's core runs this.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.glicko import NEWCOMER as NEW_RATING
from clubsuite.puzzles.glicko import Glicko


@dataclass(frozen=True)
class Standing:
    """A player's puzzles in one pool: the rating, how many rated attempts it rests on, the streak now and the best
    one."""

    glicko: Glicko
    attempts: int = 0
    streak: int = 0
    best_streak: int = 0

    def to_json(self) -> JsonObject:
        """As a page reads it (``provisional``: shown with "?", as lichess shows a rating still unsure)."""
        rating, plus_minus = self.glicko.shown()
        return {
            "rating": rating,
            "plus_minus": plus_minus,
            "provisional": self.glicko.provisional,
            "attempts": self.attempts,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


NEWCOMER = Standing(NEW_RATING)
"""A pool's standing before any answer in it: 1500, provisional."""


@dataclass(frozen=True)
class Attempted:
    """What an attempt did: its mode, whether it was rated, the player's and the puzzle's ratings before and after
    (the same before and after where it was not rated), and the streak after it."""

    mode: str
    rated: bool
    before: Glicko
    after: Glicko
    puzzle_before: Glicko
    puzzle_after: Glicko
    streak: int
    best_streak: int

    def to_json(self) -> JsonObject:
        """As a page reads it: each rating as shown, and whether the player's is provisional ("?") before and
        after."""
        return {
            "mode": self.mode,
            "rated": self.rated,
            "rating": {
                "before": self.before.shown()[0],
                "after": self.after.shown()[0],
                "provisional_before": self.before.provisional,
                "provisional_after": self.after.provisional,
            },
            "puzzle_rating": {"before": self.puzzle_before.shown()[0], "after": self.puzzle_after.shown()[0]},
            "streak": self.streak,
            "best_streak": self.best_streak,
        }
