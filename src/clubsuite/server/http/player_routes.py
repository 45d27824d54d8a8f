"""Players as others see them: public profiles, match history, rating histories, leaderboards and the bots' ratings
(``/players/...``, ``/leaderboard/...``, ``/ratings``).

What is public: an account's name, since when it exists, its ratings per pool, its matches at public tables (with
their record, replay links), its counts per game. A match at a private table is listed only to the account itself
(with the invite code its links need): a private table's id is never shown to anyone else. A deleted account has no
profile; its matches read "deleted player" in everyone's history.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from clubsuite.bots.calibrated import all_pools
from clubsuite.jsonform import JsonObject
from clubsuite.ratings import PROVISIONAL_MATCHES, START, Skill, conservative
from clubsuite.server.http.services import AccountsDep, DatabaseDep
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import AccountRefused, Accounts, User
from clubsuite.server.people.results import rating_json
from clubsuite.server.store import players as rows_of
from clubsuite.server.store.database import StoredRow
from clubsuite.server.store.handle import Database

HISTORY_MAX = 50
"""The most matches one page of history lists."""
BOARD_MAX = 100
"""The most players a leaderboard lists."""
Name = Annotated[str, Path(max_length=100)]
PoolName = Annotated[str, Path(max_length=100, pattern=r"^[a-z0-9_-]+$")]


router = APIRouter()
"""The routes of profiles, histories, leaderboards and ratings."""


async def player(accounts: Accounts, name: str) -> User:
    """The live account of that name (404 ``no_player``)."""
    user = await accounts.user_by_name(name)
    if user is None:
        raise AccountRefused(404, "no_player", "there is no player by that name")
    return user


async def viewer(accounts: Accounts, request: Request) -> User | None:
    """The signed-in account asking, or None."""
    found = await signed_in(accounts, request, False)
    return found[1] if found is not None else None


async def history(database: Database, user: User, own: bool, before: float | None, limit: int) -> list[JsonObject]:
    """A page of the account's finished matches, newest first (its private ones only where ``own``)."""
    out: list[JsonObject] = []
    # Private tables are filtered here, in Python (their flag lives in the settings' JSON): read in pages until
    # enough public ones are found, so that a player with many private matches still shows their public ones.
    offset = 0
    while len(out) < limit:
        rows = await rows_of.matches_page(database, user.id, before, 4 * limit, offset)
        if not rows:
            break
        offset += len(rows)
        for r in rows:
            public = bool(json.loads(r.settings).get("public", True))
            if not public and not own:
                continue
            out.append(_entry(r, None if public else r.invite))
            if len(out) == limit:
                break
    return out


@router.get("/players/{name}")
async def profile(name: Name, request: Request, accounts: AccountsDep, database: DatabaseDep) -> JsonObject:
    """A player's public profile: ratings per pool, counts per game (matches, wins, average points) and the
    latest matches (the player's own private ones only to themselves)."""
    user = await player(accounts, name)
    me = await viewer(accounts, request)
    own = me is not None and me.id == user.id
    rows = await rows_of.results_of(database, user.id)
    per_game: dict[str, list[StoredRow]] = defaultdict(list)
    for r in rows:
        per_game[r.game].append(r)
    games = [
        {
            "game": game,
            "matches": len(played),
            "wins": sum(1 for r in played if r.won),
            "average_points": round(sum(r.points for r in played) / len(played), 2),
        }
        for game, played in sorted(per_game.items())
    ]
    rated = await rows_of.ratings_of(database, f"user:{user.id}")
    return {
        "name": user.name,
        "since": user.created_at,
        "own": own,
        "games": games,
        "ratings": [{"pool": r.pool, **rating_json(r.mu, r.sigma, r.matches)} for r in sorted(rated, key=_pool)],
        "history": await history(database, user, own, None, 20),
    }


@router.get("/players/{name}/history")
async def player_history(
    name: Name,
    request: Request,
    accounts: AccountsDep,
    database: DatabaseDep,
    before: Annotated[float | None, Query(ge=0, le=1e11)] = None,
    limit: Annotated[int, Query(ge=1, le=HISTORY_MAX)] = 20,
) -> list[JsonObject]:
    """A player's finished matches, newest first (``before``: older than that time, for the next page)."""
    user = await player(accounts, name)
    me = await viewer(accounts, request)
    return await history(database, user, me is not None and me.id == user.id, before, limit)


@router.get("/players/{name}/ratings/{pool}")
async def rating_path(name: Name, pool: PoolName, accounts: AccountsDep, database: DatabaseDep) -> list[JsonObject]:
    """How a player's rating in a pool moved, match by match (oldest first), starting from a newcomer's."""
    user = await player(accounts, name)
    rows = await rows_of.rating_path(database, f"user:{user.id}", pool)
    start = {"at": user.created_at, **rating_json(START.mu, START.sigma, 0)}
    return [start, *({"at": r.at, **rating_json(r.mu, r.sigma, n + 1)} for n, r in enumerate(rows))]


@router.get("/leaderboard/{pool}")
async def leaderboard(
    pool: PoolName, database: DatabaseDep, limit: Annotated[int, Query(ge=1, le=BOARD_MAX)] = 50
) -> list[JsonObject]:
    """The pool's best players, by their rating less three times its uncertainty (a player needs matches, not
    one lucky win, to climb); a provisional rating (fewer than ``PROVISIONAL_MATCHES`` rated matches) is not
    listed yet."""
    rows = await rows_of.board(database, pool, PROVISIONAL_MATCHES)
    rows.sort(key=lambda r: -conservative(Skill(r.mu, r.sigma)))
    return [
        {"place": i + 1, "name": r.name, **rating_json(r.mu, r.sigma, r.matches)} for i, r in enumerate(rows[:limit])
    ]


@router.get("/ratings")
async def rating_pools(database: DatabaseDep) -> JsonObject:
    """The pools that have ratings (with how many players each), and every bot level's rating per pool (from
    its rated matches; before any, its calibration's)."""
    rows = await rows_of.every_rating(database)
    players: dict[str, int] = defaultdict(int)
    bots: dict[str, JsonObject] = defaultdict(dict)
    for r in rows:
        if r.subject.startswith("user:"):
            players[r.pool] += 1
        elif r.subject.startswith("bot:"):
            bots[r.pool][r.subject[4:]] = rating_json(r.mu, r.sigma, r.matches, person=False)
    for pool, levels in all_pools().items():
        for level, (mu, sigma) in levels.items():
            bots[pool].setdefault(level, rating_json(mu, sigma, 0, person=False))
    return {
        "provisional_matches": PROVISIONAL_MATCHES,
        "players": dict(sorted(players.items())),
        "bots": {p: dict(sorted(b.items())) for p, b in sorted(bots.items())},
    }


def _pool(row: StoredRow) -> str:
    return str(row.pool)


def _entry(r: StoredRow, invite: str | None) -> JsonObject:
    """One match of a player's history, with its links (a private table's carry its invite code: only its own
    players are shown those)."""
    extra = f"&invite={invite}" if invite else ""
    return {
        "table": r.table_id,
        "match": r.match_no,
        "game": r.game,
        "rules": r.spec,
        "pool": r.pool,
        "finished_at": r.finished_at,
        "place": r.place,
        "points": r.points,
        "won": r.won,
        "rated": r.rated,
        "left": r.left,
        "private": invite is not None,
        "record": f"/tables/{r.table_id}/record.json?match={r.match_no}{extra}",
        "replay": f"/replay?table={r.table_id}&match={r.match_no}{extra}",
        "seat": r.seat,
        "review": f"/review?table={r.table_id}&match={r.match_no}&seat={r.seat}{extra}",
    }
