"""The rows the players' public pages read (profiles, histories, rating paths, leaderboards, the pools' ratings),
kept here with the schema so that no route builds SQL: each function reads one query through the database handle,
off the event loop, and hands back its rows for the route to shape. Also one subject's skill in a pool, which the
rated queue and the tournaments seat by.

Rows, not answers: what is public (a private table's matches only to the account itself) is decided by the routes
(:mod:`clubsuite.server.http.player_routes`), which read a private table's flag in its settings.
"""

from __future__ import annotations

from sqlalchemy import literal, select

from clubsuite.ratings import START, Skill
from clubsuite.server.store.database import StoredRow
from clubsuite.server.store.dbschema import match_players, rating_history, ratings, tables, users
from clubsuite.server.store.handle import Database


async def matches_page(
    database: Database, user_id: str, before: float | None, limit: int, offset: int
) -> list[StoredRow]:
    """A page of the account's finished matches, newest first (``before``: older than that time), each with its
    table's rules (``spec``), settings and invite code: ``limit`` rows from ``offset``."""
    query = (
        select(match_players, tables.c.game.label("spec"), tables.c.settings, tables.c.invite)
        .join(tables, tables.c.id == match_players.c.table_id)
        .where(match_players.c.user_id == user_id)
        .order_by(match_players.c.finished_at.desc())
    )
    if before is not None:
        query = query.where(match_players.c.finished_at < before)
    return await database.read(query.limit(limit).offset(offset))


async def results_of(database: Database, user_id: str) -> list[StoredRow]:
    """Every finished match of the account: its game, whether it won, its points (for the counts per game)."""
    return await database.read(
        select(match_players.c.game, match_players.c.won, match_players.c.points).where(
            match_players.c.user_id == user_id
        )
    )


async def ratings_of(database: Database, subject: str) -> list[StoredRow]:
    """A subject's rating rows (``user:<id>`` or ``bot:<level>``), one per pool it has played rated in."""
    return await database.read(select(ratings).where(ratings.c.subject == subject))


async def rating_path(database: Database, subject: str, pool: str) -> list[StoredRow]:
    """How a subject's rating in a pool moved, one row per rated match, oldest first."""
    return await database.read(
        select(rating_history)
        .where(rating_history.c.subject == subject, rating_history.c.pool == pool)
        .order_by(rating_history.c.at)
    )


async def board(database: Database, pool: str, least_matches: int) -> list[StoredRow]:
    """The pool's rated accounts (not deleted) with at least ``least_matches`` rated matches, with their names; in
    no order (the route ranks them by a conservative rating, which SQL does not compute)."""
    return await database.read(
        select(ratings, users.c.name)
        .join(users, ratings.c.subject == literal("user:") + users.c.id)
        .where(ratings.c.pool == pool, users.c.deleted_at.is_(None), ratings.c.matches >= least_matches)
    )


async def every_rating(database: Database) -> list[StoredRow]:
    """Every rating row, people's and bots': its pool, subject, skill and matches."""
    return await database.read(
        select(ratings.c.pool, ratings.c.subject, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
    )


async def skill_of(database: Database, subject: str, pool_name: str) -> Skill:
    """A subject's skill in a rating pool (``user:<id>`` or ``bot:<level>``; a newcomer's when it has none): what the
    rated queue and the tournaments seat by."""
    rows = await database.read(
        select(ratings.c.mu, ratings.c.sigma).where(ratings.c.pool == pool_name, ratings.c.subject == subject),
    )
    return Skill(rows[0].mu, rows[0].sigma) if rows else START
