"""A player's turn-based tables as the "your turn" page and every page's bar read them from the database (parked
tables too: nothing is woken to be listed)."""

from __future__ import annotations

import time

from sqlalchemy import and_, func, select, union
from sqlalchemy.engine import Connection
from sqlalchemy.sql import ColumnElement

from clubsuite.engine import SomeGame, resolve
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.ratings import match_sides
from clubsuite.server.store.dbschema import (
    SeatKind,
    match_players,
    matches,
    seats,
    tables,
    turn_seats,
    turn_tables,
)
from clubsuite.server.table.live import bot_names_at
from clubsuite.server.turns.clock import paused
from clubsuite.server.turns.players import hours_of, vacations_of
from clubsuite.tabletalk import named

KEPT_OVER = 7 * 24 * 3600.0
"""How long a turn-based table whose match is over stays in its players' list (seconds)."""


def _waiting(user_id: str) -> list[object]:
    """The conditions of a clock of ``user_id``'s that runs (or waits for their hours) at an open table."""
    return [
        turn_tables.c.user_id == user_id,
        turn_tables.c.deadline.is_not(None),
        turn_tables.c.adjourned.is_(False),
        turn_tables.c.ended.is_(None),
        tables.c.closed.is_(False),
    ]


def turn_count(conn: Connection, user_id: str) -> int:
    """How many open turn-based tables wait for ``user_id``'s move."""
    query = (
        select(func.count())
        .select_from(turn_tables.join(tables, tables.c.id == turn_tables.c.table_id))
        .where(*_waiting(user_id))  # type: ignore[arg-type]
    )
    return int(conn.execute(query).scalar_one())


def in_play(conn: Connection, user_id: str, besides: str | None = None) -> int:
    """How many open turn-based tables count against ``user_id``'s share: those it sits at whose match is not over,
    and those it made that have not begun (sitting at them or not); ``besides``: a table not counted (the one it is
    taking a seat at)."""
    seated = (
        select(turn_seats.c.table_id)
        .select_from(
            turn_seats.join(turn_tables, turn_tables.c.table_id == turn_seats.c.table_id)
            .join(tables, tables.c.id == turn_seats.c.table_id)
            .join(matches, and_(matches.c.table_id == tables.c.id, matches.c.match_no == tables.c.match_no))
        )
        .where(
            turn_seats.c.user_id == user_id,
            tables.c.closed.is_(False),
            turn_tables.c.ended.is_(None),
            matches.c.finished_at.is_(None),
        )
    )
    made = (
        select(turn_tables.c.table_id)
        .select_from(turn_tables.join(tables, tables.c.id == turn_tables.c.table_id))
        .where(
            turn_tables.c.host_id == user_id,
            tables.c.closed.is_(False),
            *_waiting_for_players(),
        )
    )
    both = union(seated, made).subquery()
    query = select(func.count()).select_from(both)
    if besides is not None:
        query = query.where(both.c.table_id != besides)
    return int(conn.execute(query).scalar_one())


def _waiting_for_players() -> list[ColumnElement[bool]]:
    """A turn-based table still waiting for its players: nothing played, no clock running, not adjourned."""
    return [
        tables.c.match_no == 0,
        turn_tables.c.version == 0,
        turn_tables.c.seat.is_(None),
        turn_tables.c.adjourned.is_(False),
    ]


def unstarted(conn: Connection, before: float, limit: int) -> list[str]:
    """Open turn-based tables made before ``before`` (the turn clocks' time) where nothing has been played yet:
    those that waited too long for their players are closed (``keeper``)."""
    query = (
        select(turn_tables.c.table_id)
        .select_from(turn_tables.join(tables, tables.c.id == turn_tables.c.table_id))
        .where(
            tables.c.closed.is_(False),
            *_waiting_for_players(),
            turn_tables.c.created_at < before,
        )
        .limit(limit)
    )
    return [str(r.table_id) for r in conn.execute(query)]


def turn_list(conn: Connection, user_id: str, now: float) -> JsonObject:
    """``GET /turns``: the account's open turn-based tables, those waiting for its move first (the soonest deadline
    first), then the others (the latest turn first), with how many wait for it (docs/server.md)."""
    rows = conn.execute(
        select(
            turn_seats.c.seat.label("my_seat"),
            turn_seats.c.seen,
            turn_seats.c.autoplay,
            turn_tables,
            tables.c.game,
            matches.c.finished_at,
            match_players.c.place,
            match_players.c.won,
        )
        .select_from(
            turn_seats.join(turn_tables, turn_tables.c.table_id == turn_seats.c.table_id)
            .join(tables, tables.c.id == turn_seats.c.table_id)
            .join(matches, and_(matches.c.table_id == tables.c.id, matches.c.match_no == tables.c.match_no))
            .outerjoin(
                match_players,
                and_(
                    match_players.c.table_id == tables.c.id,
                    match_players.c.match_no == tables.c.match_no,
                    match_players.c.seat == turn_seats.c.seat,
                ),
            )
        )
        .where(turn_seats.c.user_id == user_id, tables.c.closed.is_(False))
    ).all()
    ids = [r.table_id for r in rows]
    sat: dict[str, list[tuple[int, str, str | None]]] = {}
    for s in conn.execute(
        select(seats.c.table_id, seats.c.seat, seats.c.kind, seats.c.name).where(seats.c.table_id.in_(ids))
    ):
        sat.setdefault(s.table_id, []).append((s.seat, s.kind, s.name))
    out: list[JsonObject] = []
    for r in rows:
        if r.finished_at is not None and r.finished_at < time.time() - KEPT_OVER:
            continue  # over for a week (the match's time is the server's, as every match's): no longer listed
        info, options = resolve(r.game)
        names = _names(r.table_id, sorted(sat.get(r.table_id, [])))
        people = [n for seat, kind, n in sorted(sat.get(r.table_id, [])) if kind == SeatKind.PERSON]
        host = next((n for n in people if n), None)
        mine = r.seat == r.my_seat and r.deadline is not None and not r.adjourned and r.ended is None
        stopped = None
        if r.user_id is not None and r.deadline is not None:
            stopped = paused(now, hours_of(conn, r.user_id), vacations_of(conn, r.user_id))
        ended: JsonValue = {"lost": int(r.ended.split(":", 1)[1])} if r.ended and r.ended.startswith("lost:") else None
        title = named(info, options, host)
        out.append(
            {
                "id": r.table_id,
                "name": title["name"],
                "name_words": title["name_words"],
                "game": r.game,
                "base": info.name,
                "seats": [{"seat": seat, "name": name, "kind": kind} for seat, name, kind in names],
                "my_seat": r.my_seat,
                "to_act": r.seat,
                "mine": mine,
                "deadline": r.deadline,
                "seconds_left": round(max(0.0, r.deadline - now), 1) if r.deadline is not None else None,
                "paused": stopped,
                "adjourned": bool(r.adjourned),
                "over": r.ended is not None or r.finished_at is not None,
                "ended": ended,
                **_standing(r.place, r.won, info, options),
                "pace": r.pace,
                "on_timeout": r.on_timeout,
                "unseen": max(0, r.version - r.seen),
                "autoplay": bool(r.autoplay),
                "since": r.since,
            }
        )
    out.sort(key=lambda e: (not e["mine"], _number(e["deadline"]) if e["mine"] else -_number(e["since"])))
    return {"waiting": sum(1 for e in out if e["mine"]), "tables": list(out)}


def standings_at(conn: Connection, table_id: str, match_no: int) -> dict[int, JsonObject]:
    """How each seat finished the match ``match_no`` at a table, as its results were written with its last action
    (the results page's places): ``place`` (1 the best, ties sharing one, a seat that lost on time or left a rated
    match last), ``of`` (how many sides played: partners are one) and whether it ``won``; empty while not over."""
    game = conn.execute(select(tables.c.game).where(tables.c.id == table_id)).scalar()
    if game is None:
        return {}
    info, options = resolve(str(game))
    rows = conn.execute(
        select(match_players.c.seat, match_players.c.place, match_players.c.won).where(
            match_players.c.table_id == table_id, match_players.c.match_no == match_no
        )
    )
    return {int(r.seat): _standing(r.place, r.won, info, options) for r in rows}


def _standing(place: int | None, won: bool | None, info: SomeGame, options: object) -> JsonObject:
    """A seat's ``place``, ``of`` and ``won`` (None before its match is over)."""
    if place is None:
        return {"place": None, "of": None, "won": None}
    return {"place": place, "of": len(match_sides(info.n_seats(options), info.teams_of(options))), "won": bool(won)}


def _number(value: JsonValue) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _names(table_id: str, sat: list[tuple[int, str, str | None]]) -> list[tuple[int, str, str]]:
    """Each seat's name as the table shows it: a person's, a bot's persona (as the table names it), or the seat's
    number where nobody took it yet."""
    bots = bot_names_at(table_id, sat)
    return [(seat, (n or f"seat {seat + 1}") if kind == SeatKind.PERSON else bots[seat], kind) for seat, kind, n in sat]
