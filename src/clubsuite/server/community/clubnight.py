"""Club nights: a host runs a duplicate tournament for a room.

Every round, N tables play the same deals in the same seats (one seed for the round's tables: the same cards come to
seat 1 of every table, and so on). A seat's points in each deal are compared with the same seat's at the other
tables, as duplicate bridge compares boards: a seat scores one match point for each table whose same seat did worse
on that deal and half a point for each that did as well. Luck of the cards cancels out; what is left is how the
same cards were played. Only deals every table of the round played are compared (the tables' matches may end after
different numbers of hands). The standings are the entrants' match points as a share of the most they could have
had, after each round; the final table can be downloaded as CSV or JSON.

Seating: entrants fill the same seat of every table first (the first N at seat 1 of tables 1..N, the next N at seat
2, ...), so that people are compared with people; seats left over go to one bot level, the same in every table.
Pairing: ``random`` (a fresh draw each round) or ``swiss`` (from the second round, entrants in order of the standings,
so that those of like results are compared with one another).

Where a night is kept: a club night is a tournament of the format ``clubnight`` (:mod:`.tournaments`), kept and
listed with the arenas and Swiss tournaments. Its ``tournaments`` row holds the host's settings and the rounds seated,
and its status: ``open`` until its first round is seated, ``running`` then, ``over`` once its last round has ended at
every table (written when the night is next looked at: nothing watches its tables meanwhile). Its entrants are its
``tournament_entrants`` rows (a guest's token hashed, a bot entrant's level), in the order they entered, and each
round's tables its ``tournament_tables`` rows (the entrant at each seat), in the order they were made. It has no
director (:mod:`.directing` pairs the other formats): its host seats each round, and its results are read from each
seat's points per deal (``match_players``), so its tables keep no places. Every change its watchers should see (an
entry, a round seated, its end) grows the row's ``version`` by one.

What stays private: a club night's tables are private and have no spectators (one table's cards are every table's),
their invite codes are never shown, and each entrant's seat token is handed to that entrant only (by the entrant's
own token). The tokens of a round's seats live in the server's memory: after a restart an entrant's seat is played
by its bot until the round ends.

Requests at once: every change of a night (an entry, a round seated) reads the night, checks and writes in one
transaction that holds the night's ``tournaments`` row (:meth:`ClubNights._change`): ``SELECT ... FOR UPDATE`` on
PostgreSQL, where several server processes may share the database, and on SQLite the store's one writer at a time
(a second process on a SQLite database is refused). So two entries at once are both kept, or one is refused and told
why (the night is full, a look-alike name came first). Seating a round makes tables between its read and its write, so
its write checks that nothing changed meanwhile: a round seated at once by another process refuses this one (its
tables are closed again), and an entry that came in meanwhile has the round seated again with it. Within a process
a lock per night keeps such requests in turn, so that they wait on the event loop and not in the database's threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import random
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.bots.base import bot_names
from clubsuite.bots.personas import persona_names
from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.options import spec_of
from clubsuite.seeding import derive_seed
from clubsuite.server.people.accounts import User
from clubsuite.server.store.dbschema import (
    SeatKind,
    TournamentFormat,
    TournamentStatus,
    match_players,
    tournament_entrants,
    tournament_tables,
    tournaments,
)
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.tokens import check_name, hash_token, looks_alike, new_id, new_token, same_hash

FORMAT = TournamentFormat.CLUBNIGHT
"""A club night's format among the tournaments."""
TITLE = "Club night"
"""A club night's name in the tournaments' list."""
TABLES_RANGE = (2, 20)
"""A club night's tables: at least two (one table has nothing to compare with)."""
ROUNDS_RANGE = (1, 10)
Pairing = Literal["swiss", "random"]
"""How a club night's rounds after the first are seated: by the standings, or at random."""
PAIRINGS: tuple[Pairing, ...] = get_args(Pairing)
SEATING_TRIES = 3
"""Times a round is seated afresh when entries came in while it was being seated (each try makes its tables)."""
STEP = 1e-6
"""Seconds between the times written for entrants (or tables) one after the other, so that their order is kept even
where the clock has not moved."""

T = TypeVar("T")


LEAST_ENTRANTS = 2
"""A club night compares each seat with the same seat at another table: it needs two entrants at least (people, or
bots the host adds)."""


class _EntrantsChangedError(Exception):
    """The entrants changed while a round was being seated (an entry at another process): seat it again."""


@dataclass(frozen=True)
class NightSettings:
    """What a host chooses."""

    spec: str
    tables: int
    rounds: int
    pairing: Pairing
    bot: str
    bot_delay: float = 0.5

    @classmethod
    def read(cls, game: str, tables: int, rounds: int, pairing: str, bot: str, bot_delay: float = 0.5) -> NightSettings:
        """Checked settings (:class:`InvalidOptionsError` naming the one out of bounds)."""
        info, options = resolve(game)
        if not TABLES_RANGE[0] <= tables <= TABLES_RANGE[1]:
            raise InvalidOptionsError(
                f"tables={tables}: a club night has {TABLES_RANGE[0]} to {TABLES_RANGE[1]} tables"
            )
        if not ROUNDS_RANGE[0] <= rounds <= ROUNDS_RANGE[1]:
            raise InvalidOptionsError(
                f"rounds={rounds}: a club night has {ROUNDS_RANGE[0]} to {ROUNDS_RANGE[1]} rounds"
            )
        chosen = next((p for p in PAIRINGS if p == pairing), None)
        if chosen is None:
            raise InvalidOptionsError(f"pairing={pairing!r}: expected one of {', '.join(PAIRINGS)}")
        known = bot_names(info.name)
        if bot not in known:
            raise InvalidOptionsError(f"bot={bot!r}: the bots of {info.name} are {', '.join(known)}")
        TableSettings(bot_delay=bot_delay)  # checked as any table's
        return cls(spec_of(info.name, options), tables, rounds, chosen, bot, bot_delay)

    def seats(self) -> int:
        """Seats at each of the night's tables."""
        info, options = resolve(self.spec)
        return info.n_seats(options)


@dataclass(frozen=True)
class NightEntrant:
    """An entrant of a club night (a ``tournament_entrants`` row)."""

    id: str
    name: str
    user_id: str | None
    token_hash: str
    bot: str | None = None
    """A bot entrant's level (None: a person)."""
    joined_at: float = 0.0


@dataclass(frozen=True)
class NightTable:
    """A table of a round (a ``tournament_tables`` row): its id and the entrant at each seat (None: the night's
    bot)."""

    table: str
    seats: tuple[str | None, ...]


@dataclass(frozen=True)
class Round:
    """A round seated: its number (from 1) and its tables, in the order they were made."""

    number: int
    tables: tuple[NightTable, ...]


@dataclass(frozen=True)
class Night:
    """A club night as read from the store."""

    id: str
    host_id: str | None
    host: str
    """The host's name when the night was made."""
    settings: NightSettings
    status: str
    entrants: tuple[NightEntrant, ...]
    played: tuple[Round, ...]


class ClubNights:
    """The club nights of one server (their state in the store, the round's seat tokens in memory)."""

    def __init__(self, database: Database, hub: Hub) -> None:
        self.database = database
        """The nights' rows."""
        self.hub = hub
        """The tables a night's rounds are played at."""
        self._seats: dict[tuple[str, str], JsonObject] = {}
        """(night, entrant) -> the seat of the round in play: table, seat and its token."""
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock per night being changed in this process (gone with its last user)."""

    @contextlib.asynccontextmanager
    async def _turn(self, night_id: str) -> AsyncIterator[None]:
        """This process's changes of one night, one at a time: those waiting wait here, on the event loop, not in
        the database (where the row lock keeps processes apart: :meth:`_change`)."""
        lock = self._locks.get(night_id)
        if lock is None:
            lock = self._locks[night_id] = asyncio.Lock()
        async with lock:
            yield

    async def _load(self, night_id: str) -> Night:
        """The night as stored now (read without holding it: for a look, or a change that checks again)."""
        return await self.database.reading(lambda conn: _read(conn, night_id, lock=False))

    async def _change(self, night_id: str, change: Callable[[Connection, Night], T]) -> T:
        """Read the night, have ``change`` check it and write what changes, and grow the night's version, in one
        transaction that holds the night's row from the read to the write (``FOR UPDATE`` on PostgreSQL; SQLite's
        one writer at a time): no other change, from this process or another, comes between, so none is lost.
        ``change`` runs in the database thread and must not wait on anything; a :class:`Refused` it raises writes
        nothing and reaches the caller."""

        def work(conn: Connection) -> T:
            night = _read(conn, night_id, lock=True)
            result = change(conn, night)
            _bump(conn, night_id)
            return result

        return await self.database.write(work)

    async def create(self, host: User, settings: NightSettings) -> str:
        """A new club night hosted by ``host``; its id."""
        night_id = new_id()
        kept = {
            "host": host.name,
            "tables": settings.tables,
            "rounds": settings.rounds,
            "pairing": settings.pairing,
            "bot": settings.bot,
            "bot_delay": settings.bot_delay,
        }
        now = time.time()
        await self.database.write(
            lambda conn: conn.execute(
                insert(tournaments).values(
                    id=night_id,
                    format=FORMAT,
                    host_id=host.id,
                    name=TITLE,
                    spec=settings.spec,
                    settings=json.dumps(kept),
                    state=json.dumps({"round": 0}),
                    status=TournamentStatus.OPEN,
                    starts_at=None,
                    ends_at=None,
                    created_at=now,
                    version=1,
                )
            ),
        )
        return night_id

    async def enter(self, night_id: str, name: object, user: User | None) -> tuple[str, str]:
        """Enter a club night before its first round (signed in: under the account's name): (entrant id, the
        entrant's token, which finds its seat each round). The checks and the entry are one change of the night
        (:meth:`_change`), so entries at once are each listed or refused with the reason."""
        tidy = user.name if user is not None else check_name(name)
        token = new_token()
        entrant = new_id(6)

        def add(conn: Connection, night: Night) -> None:
            _check_open(night)
            for e in night.entrants:
                if user is not None and e.user_id == user.id:
                    raise Refused("already_entered", "you have entered this club night already")
                if looks_alike(e.name, tidy):
                    raise Refused(
                        "name_taken", f"an entrant is called {e.name!r}, which looks the same: choose another"
                    )
            _add_entrant(conn, night, entrant, tidy, user.id if user else None, hash_token(token), None)

        async with self._turn(night_id):
            await self._change(night_id, add)
        return entrant, token

    async def add_bot(self, night_id: str, host: User) -> str:
        """The host fills a seat with a bot entrant before the first round (a lone player can hold a night against
        bots; a bot entrant plays its seat at every table of the round and is placed in the standings like anyone):
        its name (``Cleo``). The night's bot level plays it."""
        night = await self._load(night_id)
        if host.id != night.host_id:
            raise Refused("not_host", "only the club night's host adds bots")
        made: list[str] = []

        def add(conn: Connection, night: Night) -> None:
            _check_open(night)
            name = _bot_entrant_name(night_id, [e.name for e in night.entrants])
            # a bot holds no token: the hash of one never given out
            bot = night.settings.bot
            _add_entrant(conn, night, new_id(6), name, None, hash_token(new_token()), bot)
            made.append(name)

        async with self._turn(night_id):
            await self._change(night_id, add)
        return made[0]

    async def start_round(self, night_id: str, host: User, creator: str | None = None) -> None:
        """Seat the next round (the host only, once the last round is over); its tables count against the host's
        address ``creator`` as any tables it makes (its share of tables, and of tables with searching bots).

        The tables are made between reading the night and writing the round, so the write checks that the night is
        as it was read: a round another process seated meanwhile refuses this one (``round_in_play``), and entries
        that came in meanwhile have the round seated again with them; either way the tables made are closed."""
        async with self._turn(night_id):
            for _ in range(SEATING_TRIES):
                if await self._try_round(night_id, host, creator):
                    return
        raise Refused("entries_changing", "people were still entering while the round was seated: start it again")

    async def _try_round(self, night_id: str, host: User, creator: str | None) -> bool:
        """Seat the next round once (:meth:`start_round`): whether it was seated (False: entries came in meanwhile,
        and its tables are closed again)."""
        night = await self._load(night_id)
        if host.id != night.host_id:
            raise Refused("not_host", "only the club night's host starts its rounds")
        seated, round_tables = await self._seat_round(night, creator)
        played, entrants = len(night.played), night.entrants

        def commit(conn: Connection, now: Night) -> None:
            if len(now.played) != played:
                raise Refused("round_in_play", "another request of the host has just started this round")
            if now.entrants != entrants:
                raise _EntrantsChangedError
            number, at = played + 1, time.time()
            conn.execute(
                insert(tournament_tables),
                [
                    {
                        "tournament_id": night_id,
                        "table_id": t.table,
                        "round": number,
                        "seats": json.dumps(list(t.seats)),
                        "started_at": at + k * STEP,  # the tables' order, kept
                        "finished_at": None,
                        "places": None,
                        "counted": False,
                    }
                    for k, t in enumerate(round_tables)
                ],
            )
            values: dict[str, object] = {"state": json.dumps({"round": number}), "status": TournamentStatus.RUNNING}
            if number == 1:
                values["starts_at"] = at
            conn.execute(update(tournaments).where(tournaments.c.id == night_id).values(**values))

        try:
            await self._change(night_id, commit)
        except _EntrantsChangedError:
            await self._close(round_tables)
            return False
        except BaseException:
            await self._close(round_tables)
            raise
        for entrant, place in seated.items():
            self._seats[(night_id, entrant)] = place
        return True

    async def _seat_round(self, night: Night, creator: str | None) -> tuple[dict[str, JsonObject], list[NightTable]]:
        """Make the tables of the next round of the night as it was read and seat its entrants: (each entrant's
        table, seat and token; the round's tables). Nothing is written to the night; should a table be refused, the
        tables made for the round are closed again."""
        played, s = night.played, night.settings
        if len(played) >= s.rounds:
            raise Refused("over", "every round of this club night has been played")
        if played and not await self._round_done(played[-1]):
            raise Refused("round_in_play", "the round in play has not ended at every table")
        if len(night.entrants) < LEAST_ENTRANTS:
            raise Refused("too_few", "a club night needs at least two entrants (the host may add bots)")
        n, tables = s.seats(), s.tables
        order = [e.id for e in night.entrants]
        if s.pairing == "swiss" and played:
            standing = {row["entrant"]: row["share"] for row in await self.standings(night.entrants, played)}
            order.sort(key=lambda e: -standing.get(e, 0.0))
        else:
            random.SystemRandom().shuffle(order)
        layout: list[list[str | None]] = [[None] * n for _ in range(tables)]
        for k, placed in enumerate(order):  # the same seat of every table first
            layout[k % tables][k // tables] = placed
        seed = derive_seed(int.from_bytes(random.SystemRandom().randbytes(8), "big"), len(played))
        round_tables: list[NightTable] = []
        settings = TableSettings(public=False, spectators=False, grace=60.0, bot_delay=s.bot_delay)
        by_id = {e.id: e for e in night.entrants}
        seated: dict[str, JsonObject] = {}
        try:
            for seats in layout:
                requests = [_request(e, by_id, s.bot) for e in seats]
                table = await self.hub.create_table(s.spec, requests, settings, seed=seed, creator=creator)
                round_tables.append(NightTable(table.id, tuple(seats)))
                for seat_no, entrant in enumerate(seats):
                    if entrant is None or by_id[entrant].bot:
                        continue  # a bot's seat, an entrant's or a free one
                    e = by_id[entrant]
                    user = User(e.user_id, e.name, 0.0, False) if e.user_id else None
                    taken, token = await self.hub.seating.join(table, e.name, seat_no, user)
                    seated[entrant] = {"table": table.id, "seat": taken, "token": token}
        except BaseException:
            # a table refused (the host's share of tables is used up): the round is not seated, and the tables made
            # for it are closed again, so that the night is as it was
            await self._close(round_tables)
            raise
        return seated, round_tables

    async def _close(self, round_tables: list[NightTable]) -> None:
        """Close the tables made for a round that was not seated after all."""
        for made in round_tables:
            live = self.hub.tables.get(made.table)
            if live is not None:
                await self.hub.close_table(live)

    async def seat_of(self, night_id: str, token: str) -> JsonObject | None:
        """The seat of the round in play of the entrant whose token this is (None: not an entrant, or no seat)."""
        night = await self._load(night_id)
        digest = hash_token(token)
        for e in night.entrants:
            if same_hash(e.token_hash, digest):
                found = self._seats.get((night_id, e.id))
                return {"entrant": e.id, "name": e.name, **(found or {})}
        return None

    async def _finished(self, table_ids: list[str]) -> dict[tuple[str, int], list[float]]:
        rows = await self.database.read(
            select(match_players.c.table_id, match_players.c.seat, match_players.c.hand_points).where(
                match_players.c.table_id.in_(table_ids), match_players.c.match_no == 0
            ),
        )
        return {(r.table_id, r.seat): json.loads(r.hand_points) for r in rows}

    async def _round_done(self, played: Round) -> bool:
        ids = [t.table for t in played.tables]
        points = await self._finished(ids)
        return {t for t, _ in points} == set(ids)

    async def standings(self, entrants: Sequence[NightEntrant], played: Sequence[Round]) -> list[JsonObject]:
        """Every entrant's match points over the rounds every table has finished, best first (see the module)."""
        totals: dict[str, list[float]] = {e.id: [0.0, 0.0, 0.0] for e in entrants}  # mp, most, points
        for round_ in played:
            ids = [t.table for t in round_.tables]
            points = await self._finished(ids)
            if {t for t, _ in points} != set(ids):
                continue  # a round counts once every table has finished it
            n_seats = len(round_.tables[0].seats)
            deals = min(len(points[(t, s)]) for t in ids for s in range(n_seats))
            for s in range(n_seats):
                for t_index, table in enumerate(round_.tables):
                    entrant = table.seats[s]
                    if entrant is None:
                        continue
                    mine = points[(table.table, s)]
                    for d in range(deals):
                        for o_index, other in enumerate(round_.tables):
                            if o_index == t_index:
                                continue
                            theirs = points[(other.table, s)][d]
                            totals[entrant][0] += 1.0 if mine[d] > theirs else 0.5 if mine[d] == theirs else 0.0
                            totals[entrant][1] += 1.0
                    totals[entrant][2] += sum(mine[:deals])
        names = {e.id: e.name for e in entrants}
        rows: list[JsonObject] = [
            {
                "entrant": e,
                "name": names[e],
                "match_points": mp,
                "most": most,
                "share": round(mp / most, 4) if most else 0.0,
                "points": pts,
            }
            for e, (mp, most, pts) in totals.items()
        ]
        rows.sort(key=lambda r: (-r["share"], -r["points"], r["name"]))
        for i, r in enumerate(rows):
            same = i > 0 and r["share"] == rows[i - 1]["share"]  # equal shares share a place; points only order them
            r["place"] = rows[i - 1]["place"] if same else i + 1
        return rows

    async def view(self, night_id: str) -> JsonObject:
        """What anyone with the club night's id sees: its settings, entrants, rounds (tables by number, entrants by
        seat: no table ids or invites) and standings. A night seen over for the first time is written over."""
        night = await self._load(night_id)
        s = night.settings
        names = {e.id: e.name for e in night.entrants}
        rounds = []
        for played in night.played:
            rounds.append(
                {
                    "number": played.number,
                    "done": await self._round_done(played),
                    "tables": [[names.get(e) if e else None for e in t.seats] for t in played.tables],
                }
            )
        standings = await self.standings(night.entrants, night.played)
        over = len(rounds) == s.rounds and bool(rounds) and rounds[-1]["done"]
        if over and night.status != TournamentStatus.OVER:
            await self._end(night)
        return {
            "id": night_id,
            "host": night.host,
            "game": s.spec,
            "tables": s.tables,
            "rounds": s.rounds,
            "pairing": s.pairing,
            "bot": s.bot,
            "entrants": [e.name for e in night.entrants],
            "bots": [e.name for e in night.entrants if e.bot],
            "least_entrants": LEAST_ENTRANTS,
            "seats_per_table": s.seats(),
            "played": rounds,
            "over": over,
            "standings": [{k: v for k, v in r.items() if k != "entrant"} for r in standings],
        }

    async def _end(self, night: Night) -> None:
        """Write the night over (its end: when the last of its last round's tables ended), once: a night another
        request wrote over meanwhile is left as it is."""
        last = [t.table for t in night.played[-1].tables]

        def work(conn: Connection) -> None:
            status = conn.execute(
                select(tournaments.c.status).where(tournaments.c.id == night.id).with_for_update()
            ).scalar_one_or_none()
            if status is None or status == TournamentStatus.OVER:
                return
            ended = conn.execute(
                select(func.max(match_players.c.finished_at)).where(
                    match_players.c.table_id.in_(last), match_players.c.match_no == 0
                )
            ).scalar_one_or_none()
            _bump(conn, night.id, status=TournamentStatus.OVER, ends_at=ended if ended is not None else time.time())

        await self.database.write(work)

    async def csv(self, night_id: str) -> str:
        """The standings as CSV (place, name, match points, most, share, points)."""
        view = await self.view(night_id)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["place", "name", "match_points", "most", "share", "points"])
        for r in view["standings"]:
            name = r["name"]
            if name[:1] in ("=", "+", "-", "@"):  # never a formula in a spreadsheet
                name = "'" + name
            writer.writerow([r["place"], name, r["match_points"], r["most"], r["share"], r["points"]])
        return out.getvalue()


def _read(conn: Connection, night_id: str, lock: bool) -> Night:
    """The club night ``night_id`` (:class:`Refused` ``no_clubnight`` when there is none); ``lock``: its row held
    until the transaction ends. Its tables are read before its entrants: entrants only come before the first round,
    so every entrant a table seats is among those read, even while an entry and a round are written meanwhile."""
    query = select(tournaments).where(tournaments.c.id == night_id, tournaments.c.format == FORMAT)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise Refused("no_clubnight", "there is no such club night")
    kept = json.loads(row.settings)
    settings = NightSettings(
        row.spec, kept["tables"], kept["rounds"], kept["pairing"], kept["bot"], kept.get("bot_delay", 0.5)
    )
    rounds: dict[int, list[NightTable]] = {}
    for t in conn.execute(
        select(tournament_tables.c.round, tournament_tables.c.table_id, tournament_tables.c.seats)
        .where(tournament_tables.c.tournament_id == night_id)
        .order_by(tournament_tables.c.round, tournament_tables.c.started_at, tournament_tables.c.table_id)
    ):
        rounds.setdefault(t.round, []).append(NightTable(t.table_id, tuple(json.loads(t.seats))))
    entrants = tuple(
        NightEntrant(e.entrant, e.name, e.user_id, e.token_hash, e.bot, e.joined_at)
        for e in conn.execute(
            select(tournament_entrants)
            .where(tournament_entrants.c.tournament_id == night_id)
            .order_by(tournament_entrants.c.joined_at, tournament_entrants.c.entrant)
        )
    )
    played = tuple(Round(number, tuple(tables)) for number, tables in sorted(rounds.items()))
    return Night(row.id, row.host_id, kept.get("host", ""), settings, row.status, entrants, played)


def _add_entrant(
    conn: Connection,
    night: Night,
    entrant: str,
    name: str,
    user_id: str | None,
    token_hash: str,
    bot: str | None,
) -> None:
    """Write a new entrant of ``night`` (held by the transaction), after every entrant before it."""
    last = max((e.joined_at for e in night.entrants), default=0.0)
    conn.execute(
        insert(tournament_entrants).values(
            tournament_id=night.id,
            entrant=entrant,
            user_id=user_id,
            name=name,
            token_hash=token_hash,
            bot=bot,
            rating=0,
            joined_at=max(time.time(), last + STEP),
            active=True,
            byes=0,
        )
    )


def _bump(conn: Connection, night_id: str, **values: object) -> None:
    """Grow the night's version (its watchers see a change), with ``values`` written beside."""
    conn.execute(
        update(tournaments).where(tournaments.c.id == night_id).values(version=tournaments.c.version + 1, **values)
    )


def _bot_entrant_name(night_id: str, taken: list[str]) -> str:
    """A name for a bot entrant like a table's bots' (``Cleo``), that looks like no entrant's (as entries are
    compared: :func:`looks_alike`)."""
    for k in range(len(taken), len(taken) + 64):
        name = persona_names(f"night {night_id}", [k], taken)[k]
        if not any(looks_alike(name, other) for other in taken):
            return name
    return f"Bot {secrets.token_hex(2)}"  # every name tried looks like an entrant's: one no person can type alike


def _request(entrant: str | None, by_id: dict[str, NightEntrant], level: str) -> SeatRequest:
    """The seat a round's table is made with for ``entrant``: a person's to be taken, a bot entrant's (its level and
    its name), or, free, the night's bot."""
    if entrant is None:
        return SeatRequest(SeatKind.BOT, level)
    found = by_id[entrant]
    return SeatRequest(SeatKind.BOT, found.bot, found.name) if found.bot else SeatRequest(SeatKind.PERSON)


def _check_open(night: Night) -> None:
    """Refuse a new entrant (a person or a bot) once the night has begun or every seat of its tables is taken."""
    if night.played:
        raise Refused("started", "this club night has begun: entries are closed")
    if len(night.entrants) >= night.settings.tables * night.settings.seats():
        raise Refused("full", "every seat of this club night's tables is taken")
