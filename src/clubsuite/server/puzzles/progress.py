"""Puzzle ratings and attempts in the database: each account's rating per pool, each puzzle's rating as the
attempts move it, and every attempt.

Every attempt is a rated game between the player and the puzzle (:func:`clubsuite.puzzles.rating.attempt`), as
lichess rates its puzzles, with three exceptions that lichess makes too: only an account's **first** attempt at a
puzzle is rated (a puzzle tried again, on another day, or after seeing its solution, is played unrated: mode
``again``); an attempt in **streak** mode is unrated (a streak counts solved puzzles in a row, and a miss ends it);
an attempt at a player's own puzzle (mode ``own``) is kept unrated; a guest's attempts are judged but neither rated
nor kept. Asking for the solution of a puzzle never attempted counts as a miss.

The rating, the puzzle's rating and the attempt are written in one transaction; the rows read are locked where the
database can (PostgreSQL), so that two attempts at once (two tabs) are rated one after the other.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.puzzles.model import Puzzle
from clubsuite.puzzles.rating import attempt, puzzle_skill
from clubsuite.server.people.ratings import START, Skill, shown
from clubsuite.server.store.database import StaleWriteError, Store
from clubsuite.server.store.dbschema import puzzle_attempts, puzzle_ratings, puzzle_skills

MODES = ("rated", "streak", "own")
"""The modes a puzzle is played in (``again`` is what a rated attempt becomes when the puzzle was tried before)."""


@dataclass(frozen=True)
class Standing:
    """An account's puzzles in one pool: its rating, how many rated attempts it rests on, the streak now and the
    best one."""

    skill: Skill
    attempts: int
    streak: int
    best_streak: int

    def to_json(self) -> dict[str, Any]:
        """As a page reads it."""
        rating, plus_minus = shown(self.skill)
        return {
            "rating": rating,
            "plus_minus": plus_minus,
            "attempts": self.attempts,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


NEWCOMER = Standing(START, 0, 0, 0)


@dataclass(frozen=True)
class Attempted:
    """What an attempt did: whether it was rated, the player's and the puzzle's ratings before and after (as shown;
    the same before and after where it was not rated), and the streak after it."""

    mode: str
    rated: bool
    before: int
    after: int
    puzzle_before: int
    puzzle_after: int
    streak: int
    best_streak: int

    def to_json(self) -> dict[str, Any]:
        """As a page reads it."""
        return {
            "mode": self.mode,
            "rated": self.rated,
            "rating": {"before": self.before, "after": self.after},
            "puzzle_rating": {"before": self.puzzle_before, "after": self.puzzle_after},
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


class Progress:
    """The puzzle tables of the store, read and written through ``db`` (the server's database threads)."""

    def __init__(self, store: Store, db: Callable[..., Awaitable[Any]]) -> None:
        self.store, self.db = store, db

    async def standing(self, user_id: str, pool: str) -> Standing:
        """The account's standing in ``pool`` (a newcomer's where it has none yet)."""
        rows = await self.db(
            self.store.read,
            select(puzzle_ratings).where(puzzle_ratings.c.user_id == user_id, puzzle_ratings.c.pool == pool),
        )
        return _standing(rows[0]) if rows else NEWCOMER

    async def standings(self, user_id: str) -> dict[str, Standing]:
        """The account's standing in every pool it has tried puzzles in."""
        rows = await self.db(self.store.read, select(puzzle_ratings).where(puzzle_ratings.c.user_id == user_id))
        return {str(r.pool): _standing(r) for r in rows}

    async def skills(self, pool: str) -> dict[str, Skill]:
        """The ratings of the puzzles of ``pool`` that attempts have moved."""
        rows = await self.db(
            self.store.read,
            select(puzzle_skills.c.puzzle, puzzle_skills.c.mu, puzzle_skills.c.sigma).where(
                puzzle_skills.c.pool == pool
            ),
        )
        return {str(r.puzzle): Skill(r.mu, r.sigma) for r in rows}

    async def skill(self, puzzle: Puzzle) -> Skill:
        """One puzzle's rating now."""
        rows = await self.db(
            self.store.read,
            select(puzzle_skills.c.mu, puzzle_skills.c.sigma).where(puzzle_skills.c.puzzle == puzzle.id),
        )
        return Skill(rows[0].mu, rows[0].sigma) if rows else puzzle_skill(puzzle.rating)

    async def tried(self, user_id: str, pool: str) -> dict[str, bool]:
        """Each puzzle of ``pool`` the account has tried: whether its last attempt solved it."""
        rows = await self.db(
            self.store.read,
            select(puzzle_attempts.c.puzzle, puzzle_attempts.c.solved)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.pool == pool)
            .order_by(puzzle_attempts.c.at),
        )
        return {str(r.puzzle): bool(r.solved) for r in rows}

    async def history(self, user_id: str, before: float | None, limit: int) -> list[dict[str, Any]]:
        """The account's attempts, newest first (``before``: older than that time, for the next page)."""
        query = (
            select(puzzle_attempts)
            .where(puzzle_attempts.c.user_id == user_id)
            .order_by(puzzle_attempts.c.at.desc())
            .limit(limit)
        )
        if before is not None:
            query = query.where(puzzle_attempts.c.at < before)
        rows = await self.db(self.store.read, query)
        return [
            {
                "puzzle": r.puzzle,
                "pool": r.pool,
                "at": r.at,
                "mode": r.mode,
                "solved": r.solved,
                "rated": r.rated,
                "rating_before": r.rating_before,
                "rating_after": r.rating_after,
            }
            for r in rows
        ]

    async def attempted(self, user_id: str, puzzle: Puzzle) -> bool:
        """Whether the account has attempted ``puzzle`` before (or seen its solution)."""
        rows = await self.db(
            self.store.read,
            select(puzzle_attempts.c.at)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.puzzle == puzzle.id)
            .limit(1),
        )
        return bool(rows)

    async def record(self, user_id: str, puzzle: Puzzle, pool: str, solved: bool, mode: str) -> Attempted:
        """Keep one attempt (``mode``: rated or streak) and rate it as the module docstring says; a write that
        meets another's first row (two first attempts at once) is tried once more."""

        def work(conn: Connection) -> Attempted:
            return self._record(conn, user_id, puzzle, pool, solved, mode)

        try:
            done: Attempted = await self.db(self.store.write, work)
        except StaleWriteError:
            done = await self.db(self.store.write, work)
        return done

    def _record(self, conn: Connection, user_id: str, puzzle: Puzzle, pool: str, solved: bool, mode: str) -> Attempted:
        now = time.time()
        where = (puzzle_ratings.c.user_id == user_id, puzzle_ratings.c.pool == pool)
        row = conn.execute(select(puzzle_ratings).where(*where).with_for_update()).first()
        standing = _standing(row) if row is not None else NEWCOMER
        skill_row = conn.execute(
            select(puzzle_skills).where(puzzle_skills.c.puzzle == puzzle.id).with_for_update()
        ).first()
        puzzle_now = Skill(skill_row.mu, skill_row.sigma) if skill_row is not None else puzzle_skill(puzzle.rating)
        before_attempt = conn.execute(
            select(puzzle_attempts.c.at)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.puzzle == puzzle.id)
            .limit(1)
        ).first()
        if mode == "rated" and before_attempt is not None:
            mode = "again"
        player, puzzle_after = standing.skill, puzzle_now
        attempts, streak, best = standing.attempts, standing.streak, standing.best_streak
        rated = mode == "rated"
        if rated:
            player, puzzle_after = attempt(standing.skill, puzzle_now, solved)
            attempts += 1
            values = {"mu": puzzle_after.mu, "sigma": puzzle_after.sigma}
            if skill_row is None:
                conn.execute(
                    insert(puzzle_skills).values(puzzle=puzzle.id, pool=pool, attempts=1, solved=int(solved), **values)
                )
            else:
                conn.execute(
                    update(puzzle_skills)
                    .where(puzzle_skills.c.puzzle == puzzle.id)
                    .values(attempts=skill_row.attempts + 1, solved=skill_row.solved + int(solved), **values)
                )
        if mode == "streak":
            streak = streak + 1 if solved else 0
            best = max(best, streak)
        values = {
            "mu": player.mu,
            "sigma": player.sigma,
            "attempts": attempts,
            "streak": streak,
            "best_streak": best,
            "updated_at": now,
        }
        if row is None:
            conn.execute(insert(puzzle_ratings).values(user_id=user_id, pool=pool, **values))
        else:
            conn.execute(update(puzzle_ratings).where(*where).values(**values))
        rating_before, rating_after = shown(standing.skill)[0], shown(player)[0]
        conn.execute(
            insert(puzzle_attempts).values(
                user_id=user_id,
                puzzle=puzzle.id,
                pool=pool,
                at=now,
                mode=mode,
                solved=solved,
                rated=rated,
                rating_before=rating_before if rated else None,
                rating_after=rating_after if rated else None,
            )
        )
        return Attempted(
            mode,
            rated,
            rating_before,
            rating_after,
            shown(puzzle_now)[0],
            shown(puzzle_after)[0],
            streak,
            best,
        )


def _standing(row: Any) -> Standing:
    return Standing(Skill(row.mu, row.sigma), int(row.attempts), int(row.streak), int(row.best_streak))
