"""Puzzle ratings and attempts in the database: each account's rating per pool, each puzzle's rating as the
attempts move it, and one row per puzzle an account was shown (``puzzle_attempts``).

Every attempt is a rated game between the player and the puzzle, rated as lichess rates its puzzles: Glicko-2 with
lichess's parameters (:func:`clubsuite.puzzles.glicko.attempt`); and as lichess, only an account's **first** answer to
a puzzle counts: a puzzle answered
before (on another day, after a miss, after its solution) is played again unrated (``again``), and asking for the
solution of a puzzle never answered is its first answer, a miss. How the first answer counts is the puzzle's
**mode**, fixed by the server when the puzzle is first shown to the account, never by the page when it answers:

* ``rated``: the next puzzle near the player's rating, or one asked for by its id;
* ``streak``: a puzzle of a streak (harder and harder until a miss), unrated: solved, the streak grows by one; missed,
  it ends;
* ``practice``: a puzzle chosen by theme, unrated (a theme may say much of the answer: "wait", "take the bid hand");
* ``own``: one of the player's own puzzles, unrated.

A mode is kept while the puzzle is unanswered, whichever route asks for it again: a puzzle shown rated stays rated
until it is answered (asked for again by its id, it still counts, and the themes and streaks pass it by: a player
never decides after seeing a puzzle whether it is rated), and one shown in another mode never becomes rated (what a
player saw under a theme stays practice). Between the unrated modes it may change (a practice puzzle shown in a
streak). A guest's answers are judged but neither rated nor kept. The rows are one per account and puzzle, so what
an account keeps is bounded by the puzzles there are.

The rating, the puzzle's rating and the row are written in one transaction; the rows read are locked where the
database can (PostgreSQL), so that two answers at once (two tabs) are rated one after the other. A standing and what
an attempt did are shown as the offline app shows its player's (:mod:`clubsuite.puzzles.standing`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.glicko import Glicko, attempt, new_puzzle
from clubsuite.puzzles.model import Puzzle
from clubsuite.puzzles.standing import NEWCOMER, Attempted, Standing
from clubsuite.server.store.database import StaleWriteError, StoredRow
from clubsuite.server.store.dbschema import puzzle_attempts, puzzle_ratings, puzzle_skills
from clubsuite.server.store.handle import Database

T = TypeVar("T")


class PuzzleMode(StrEnum):
    """The modes a puzzle is played in, as ``puzzle_attempts.mode`` keeps them (equal to their text); ``again`` is
    what an answer is once the puzzle was answered before."""

    RATED = "rated"
    STREAK = "streak"
    PRACTICE = "practice"
    OWN = "own"
    AGAIN = "again"


MODES = (PuzzleMode.RATED, PuzzleMode.STREAK, PuzzleMode.PRACTICE, PuzzleMode.OWN)
"""The modes a puzzle is shown in."""
RECORD_TRIES = 3
"""Writes of one answer tried when another write meets it (two first answers at once create the same rows)."""


class Progress:
    """The puzzle tables of the store, read and written through ``db`` (the server's database threads)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def standing(self, user_id: str, pool: str) -> Standing:
        """The account's standing in ``pool`` (a newcomer's where it has none yet)."""
        rows = await self.database.read(
            select(puzzle_ratings).where(puzzle_ratings.c.user_id == user_id, puzzle_ratings.c.pool == pool),
        )
        return _standing(rows[0]) if rows else NEWCOMER

    async def standings(self, user_id: str) -> dict[str, Standing]:
        """The account's standing in every pool it has tried puzzles in."""
        rows = await self.database.read(select(puzzle_ratings).where(puzzle_ratings.c.user_id == user_id))
        return {str(r.pool): _standing(r) for r in rows}

    async def ratings(self, pool: str) -> dict[str, int]:
        """The ratings now (as shown) of the puzzles of ``pool`` that attempts have moved."""
        rows = await self.database.read(
            select(puzzle_skills.c.puzzle, puzzle_skills.c.rating).where(puzzle_skills.c.pool == pool),
        )
        return {str(r.puzzle): round(r.rating) for r in rows}

    async def skill(self, puzzle: Puzzle) -> Glicko:
        """One puzzle's rating now."""
        rows = await self.database.read(select(puzzle_skills).where(puzzle_skills.c.puzzle == puzzle.id))
        return _glicko(rows[0]) if rows else new_puzzle(puzzle.rating)

    async def tried(self, user_id: str, pool: str) -> dict[str, bool]:
        """Each puzzle of ``pool`` the account has answered: whether its last answer solved it."""
        rows = await self.database.read(
            select(puzzle_attempts.c.puzzle, puzzle_attempts.c.solved).where(
                puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.pool == pool, puzzle_attempts.c.tries > 0
            ),
        )
        return {str(r.puzzle): bool(r.solved) for r in rows}

    async def pending_rated(self, user_id: str, pool: str) -> set[str]:
        """The puzzles of ``pool`` shown to the account rated and not answered yet (they stay rated: the unrated
        modes do not offer them)."""
        rows = await self.database.read(
            select(puzzle_attempts.c.puzzle).where(
                puzzle_attempts.c.user_id == user_id,
                puzzle_attempts.c.pool == pool,
                puzzle_attempts.c.tries == 0,
                puzzle_attempts.c.mode == PuzzleMode.RATED,
            ),
        )
        return {str(r.puzzle) for r in rows}

    async def history(self, user_id: str, before: float | None, limit: int) -> list[JsonObject]:
        """The puzzles the account has answered, the last answered first (``before``: answered before that time, for
        the next page)."""
        query = (
            select(puzzle_attempts)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.tries > 0)
            .order_by(puzzle_attempts.c.at.desc())
            .limit(limit)
        )
        if before is not None:
            query = query.where(puzzle_attempts.c.at < before)
        rows = await self.database.read(query)
        return [
            {
                "puzzle": r.puzzle,
                "pool": r.pool,
                "at": r.at,
                "mode": r.mode,
                "solved": r.first_solved,
                "solved_last": r.solved,
                "tries": r.tries,
                "rated": r.rated,
                "rating_before": r.rating_before,
                "rating_after": r.rating_after,
                "provisional_before": bool(r.provisional_before),  # unknown (kept before revision 0018): not shown
                "provisional_after": bool(r.provisional_after),
            }
            for r in rows
        ]

    async def shown(self, user_id: str, puzzle: Puzzle, pool: str, mode: str) -> tuple[str, bool]:
        """Note that ``puzzle`` is shown to the account in ``mode`` (see the module docstring for when a mode
        changes): the mode it is played in now, and whether it was answered before."""

        def work(conn: Connection) -> tuple[str, bool]:
            where = (puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.puzzle == puzzle.id)
            row = conn.execute(select(puzzle_attempts).where(*where).with_for_update()).first()
            now = time.time()
            if row is None:
                conn.execute(
                    insert(puzzle_attempts).values(
                        user_id=user_id, puzzle=puzzle.id, pool=pool, mode=mode, served_at=now, tries=0, rated=False
                    )
                )
                return mode, False
            kept = str(row.mode)
            if row.tries == 0 and kept not in (mode, PuzzleMode.RATED) and mode != PuzzleMode.RATED:
                kept = mode  # between unrated modes only: never to rated, never from it until answered
            conn.execute(update(puzzle_attempts).where(*where).values(mode=kept, served_at=now))
            return kept, row.tries > 0

        return await self._write(work)

    async def answered(self, user_id: str, puzzle: Puzzle) -> bool:
        """Whether the account has answered ``puzzle`` before (or seen its solution)."""
        rows = await self.database.read(
            select(puzzle_attempts.c.tries).where(
                puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.puzzle == puzzle.id
            ),
        )
        return bool(rows) and int(rows[0].tries) > 0

    async def record(
        self, user_id: str, puzzle: Puzzle, pool: str, solved: bool, mode: str = PuzzleMode.RATED
    ) -> Attempted:
        """Keep one answer and rate it as the module docstring says: ``mode`` is the puzzle's where it was never
        shown to the account (an answer sent without asking for the puzzle first; an own puzzle's is ``own``)."""
        return await self._write(lambda conn: self._record(conn, user_id, puzzle, pool, solved, mode))

    async def _write(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one transaction, tried again where another write met it (:data:`RECORD_TRIES` in all)."""
        for _ in range(RECORD_TRIES - 1):
            try:
                done: T = await self.database.write(work)
                return done
            except StaleWriteError:
                continue
        last: T = await self.database.write(work)
        return last

    def _record(self, conn: Connection, user_id: str, puzzle: Puzzle, pool: str, solved: bool, mode: str) -> Attempted:
        now = time.time()
        where = (puzzle_ratings.c.user_id == user_id, puzzle_ratings.c.pool == pool)
        row = conn.execute(select(puzzle_ratings).where(*where).with_for_update()).first()
        standing = _standing(row) if row is not None else NEWCOMER
        mine = (puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.puzzle == puzzle.id)
        round_row = conn.execute(select(puzzle_attempts).where(*mine).with_for_update()).first()
        skill_row = conn.execute(
            select(puzzle_skills).where(puzzle_skills.c.puzzle == puzzle.id).with_for_update()
        ).first()
        puzzle_now = _glicko(skill_row) if skill_row is not None else new_puzzle(puzzle.rating)
        if round_row is not None:
            mode = str(round_row.mode)
        if round_row is not None and round_row.tries > 0:  # answered before: kept, and nothing else moves
            conn.execute(update(puzzle_attempts).where(*mine).values(at=now, tries=round_row.tries + 1, solved=solved))
            g = standing.glicko
            return Attempted(
                PuzzleMode.AGAIN, False, g, g, puzzle_now, puzzle_now, standing.streak, standing.best_streak
            )
        player, puzzle_after = standing.glicko, puzzle_now
        attempts, streak, best = standing.attempts, standing.streak, standing.best_streak
        rated = mode == PuzzleMode.RATED
        if rated:
            player, puzzle_after = attempt(standing.glicko, puzzle_now, solved)
            attempts += 1
            moved = _columns(puzzle_after)
            if skill_row is None:
                conn.execute(
                    insert(puzzle_skills).values(puzzle=puzzle.id, pool=pool, attempts=1, solved=int(solved), **moved)
                )
            else:
                conn.execute(
                    update(puzzle_skills)
                    .where(puzzle_skills.c.puzzle == puzzle.id)
                    .values(attempts=skill_row.attempts + 1, solved=skill_row.solved + int(solved), **moved)
                )
        if mode == PuzzleMode.STREAK:
            streak = streak + 1 if solved else 0
            best = max(best, streak)
        values = {
            **_columns(player),
            "attempts": attempts,
            "streak": streak,
            "best_streak": best,
            "updated_at": now,
        }
        if row is None:
            conn.execute(insert(puzzle_ratings).values(user_id=user_id, pool=pool, **values))
        else:
            conn.execute(update(puzzle_ratings).where(*where).values(**values))
        rating_before, rating_after = standing.glicko.shown()[0], player.shown()[0]
        answer = {
            "at": now,
            "tries": 1,
            "first_solved": solved,
            "solved": solved,
            "rated": rated,
            "rating_before": rating_before if rated else None,
            "rating_after": rating_after if rated else None,
            "provisional_before": standing.glicko.provisional if rated else None,
            "provisional_after": player.provisional if rated else None,
        }
        if round_row is None:
            conn.execute(
                insert(puzzle_attempts).values(
                    user_id=user_id, puzzle=puzzle.id, pool=pool, mode=mode, served_at=now, **answer
                )
            )
        else:
            conn.execute(update(puzzle_attempts).where(*mine).values(**answer))
        return Attempted(mode, rated, standing.glicko, player, puzzle_now, puzzle_after, streak, best)


def _glicko(row: StoredRow) -> Glicko:
    return Glicko(float(row.rating), float(row.deviation), float(row.volatility))


def _columns(g: Glicko) -> dict[str, float]:
    return {"rating": g.rating, "deviation": g.deviation, "volatility": g.volatility}


def _standing(row: StoredRow) -> Standing:
    return Standing(_glicko(row), int(row.attempts), int(row.streak), int(row.best_streak))
