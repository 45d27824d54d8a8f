"""A player's own puzzles: after a finished match, the decisions of their seat where they missed the best play become
puzzles of theirs (:func:`clubsuite.puzzles.fromrecords.record_puzzles`, ``missed_only``), private to them unless
they share one (anyone with its link may then play it).

Only the account that played the seat may ask (the match's history row names it): a player's own games are theirs
to turn into puzzles, and nobody else's are. The looking costs as much as a review (the same judges at every
decision of the seat), so it runs in the review workers under the review budgets of the address and the account,
once per match and seat: what it found (perhaps nothing) is kept, and asked again, answered from the database. The
record a puzzle carries holds every hand and the real names of the players; it never leaves the server (the page is
sent the position only, its seats named as in every puzzle).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.engine import resolve
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.fromrecords import record_puzzles
from clubsuite.puzzles.make import MakeSettings
from clubsuite.puzzles.model import Puzzle, dumps_line, puzzle_from_json
from clubsuite.ratings import pool as rating_pool
from clubsuite.records.files import parse_record
from clubsuite.server.store.database import StaleWriteError, StoredRow
from clubsuite.server.store.dbschema import match_players, own_puzzle_sources, own_puzzles
from clubsuite.server.store.handle import Database

MOST_OWN = 30
"""The most puzzles one match's seat gives (one a hand at most)."""
MOST_LISTED = 200
"""The most own puzzles listed at once."""


def own_puzzles_answer(raw: bytes | str, seat: int) -> tuple[int, bytes, bool]:
    """The work of making one seat's puzzles, in a worker process: the record read as every record is, its seat's
    missed decisions judged; answered as a review is (status, JSON: the puzzles' lines, not compressed)."""
    try:
        record = parse_record(raw, "the record")
        if not isinstance(record, dict):
            raise ClubsError("a record is a JSON object")
        found = record_puzzles(record, MakeSettings(variant=""), seats={seat}, missed_only=True, source="your match")
        body = json.dumps({"puzzles": [dumps_line(p) for p in found[:MOST_OWN]]}).encode()
        return 200, body, False
    except ClubsError as exc:
        return 400, json.dumps({"code": "bad_record", "message": str(exc)}).encode(), False


def _made(answer: bytes) -> tuple[list[str], list[Puzzle]]:
    lines = [str(line) for line in json.loads(answer)["puzzles"]][:MOST_OWN]
    return lines, [_read(line) for line in lines]


def _read(body: str) -> Puzzle:
    return puzzle_from_json(json.loads(body))


def pool_of(puzzle: Puzzle) -> str:
    """The rating pool of a puzzle's game and seat count."""
    info, options = resolve(puzzle.variant)
    return rating_pool(info, options)


def listed(row: StoredRow) -> JsonObject:
    """An own puzzle as the list of them shows it."""
    return {
        "id": row.id,
        "pool": row.pool,
        "kind": row.kind,
        "shared": row.shared,
        "table": row.table_id,
        "match": row.match_no,
        "seat": row.seat,
        "created_at": row.created_at,
    }


class OwnPuzzles:
    """The own puzzles in the store, read and written through ``db`` (the server's database threads)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def player_of(self, table_id: str, match_no: int, seat: int) -> str | None:
        """The account that played ``seat`` of a finished match (None: a guest, a bot, or no such match)."""
        rows = await self.database.read(
            select(match_players.c.user_id).where(
                match_players.c.table_id == table_id,
                match_players.c.match_no == match_no,
                match_players.c.seat == seat,
            ),
        )
        return str(rows[0].user_id) if rows and rows[0].user_id is not None else None

    async def made(self, user_id: str, table_id: str, match_no: int, seat: int) -> list[JsonObject] | None:
        """The puzzles already made of that match's seat for the account (None: not looked at yet)."""

        def work(conn: Connection) -> list[JsonObject] | None:
            source = conn.execute(
                select(own_puzzle_sources.c.count).where(
                    own_puzzle_sources.c.user_id == user_id,
                    own_puzzle_sources.c.table_id == table_id,
                    own_puzzle_sources.c.match_no == match_no,
                    own_puzzle_sources.c.seat == seat,
                )
            ).first()
            if source is None:
                return None
            rows = conn.execute(
                select(own_puzzles)
                .where(
                    own_puzzles.c.user_id == user_id,
                    own_puzzles.c.table_id == table_id,
                    own_puzzles.c.match_no == match_no,
                    own_puzzles.c.seat == seat,
                )
                .order_by(own_puzzles.c.created_at, own_puzzles.c.id)
            ).all()
            return [listed(r) for r in rows]

        found: list[JsonObject] | None = await self.database.reading(work)
        return found

    async def keep(self, user_id: str, table_id: str, match_no: int, seat: int, answer: bytes) -> None:
        """Keep what the looking found (the worker's answer: its puzzles' lines, perhaps none; read in a thread, each
        checked as every puzzle is); a second looking at the same seat that finished first is kept instead."""
        lines, puzzles = await asyncio.to_thread(_made, answer)
        now = time.time()

        def work(conn: Connection) -> None:
            conn.execute(
                insert(own_puzzle_sources).values(
                    user_id=user_id, table_id=table_id, match_no=match_no, seat=seat, made_at=now, count=len(puzzles)
                )
            )
            have = {r.id for r in conn.execute(select(own_puzzles.c.id).where(own_puzzles.c.user_id == user_id)).all()}
            for p, line in zip(puzzles, lines, strict=True):
                if p.id in have:
                    continue
                have.add(p.id)
                conn.execute(
                    insert(own_puzzles).values(
                        id=p.id,
                        user_id=user_id,
                        pool=pool_of(p),
                        kind=p.kind,
                        body=line,
                        shared=False,
                        table_id=table_id,
                        match_no=match_no,
                        seat=seat,
                        created_at=now,
                    )
                )

        with contextlib.suppress(StaleWriteError):  # looked at at once twice: the first kept stands
            await self.database.write(work)

    async def puzzle(self, puzzle_id: str, user_id: str | None) -> Puzzle | None:
        """The own puzzle ``puzzle_id`` as the asker may play it: theirs, or one its maker shared (None otherwise)."""
        rows = await self.database.read(
            select(own_puzzles.c.body, own_puzzles.c.user_id, own_puzzles.c.shared).where(
                own_puzzles.c.id == puzzle_id
            ),
        )
        for row in rows:
            if row.user_id == user_id or row.shared:
                return await asyncio.to_thread(_read, str(row.body))
        return None

    async def mine(self, user_id: str) -> list[JsonObject]:
        """The account's own puzzles, newest first."""
        rows = await self.database.read(
            select(own_puzzles)
            .where(own_puzzles.c.user_id == user_id)
            .order_by(own_puzzles.c.created_at.desc(), own_puzzles.c.id)
            .limit(MOST_LISTED),
        )
        return [listed(r) for r in rows]

    async def share(self, user_id: str, puzzle_id: str, shared: bool) -> bool:
        """Share one of the account's own puzzles, or make it private again; whether it is the account's."""
        done = await self.database.write(
            lambda conn: (
                conn.execute(
                    update(own_puzzles)
                    .where(own_puzzles.c.user_id == user_id, own_puzzles.c.id == puzzle_id)
                    .values(shared=shared)
                ).rowcount
            ),
        )
        return bool(done)
