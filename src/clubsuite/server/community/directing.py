"""Directing tournaments: starting them on time, reading their tables' results, pairing and seating, ending them.

Every :data:`TICK` seconds the director of each server process claims the tournaments that are due (running, or
set to start by now) and that no other process directs: a claim is the tournament row's ``director`` and
``director_until`` (on the database's clock), renewed at each round of work, and taken over by another process only
once it has lapsed (a process that stopped, or was cut off). Every write the director makes about a tournament is
fenced by its claim (``WHERE director = <this process>``), so two processes never pair one tournament.

A round of work on one tournament, in order:

1. started, if it was due (an arena's end set from its length);
2. its tables' results read (a table ends for the tournament when its first match ends: each seat's place, as the
   ratings read them, ``server/people/results``, and who won it, as the table said); every table counts, one that
   ends after the arena's time too (as on lichess), and an entrant who was not at their table when it ended (a bot
   played their seat) is paused until they join again;
3. an arena past its end seats nobody more and is over once its last tables have ended (its standings are final
   then), or :data:`LAST_TABLES_SECONDS` after its end at the latest (a table still in play then is closed
   uncounted by the process that serves it, :meth:`Director._close_late`); otherwise its free entrants are seated
   (:func:`.pairing.arena_tables`);
4. a Swiss tournament whose round has ended at every table pairs the next round (:func:`.pairing.swiss_round`)
   after a short pause, or is over after its last.

The seats of the tables it makes are taken for the entrants' accounts, and no token is kept: each entrant is sent
a ``seat`` notice (the tournament, table and seat; kept in the store, so that it reaches their pages at whichever
process serves them, ``people.notices``), ``GET /tournaments/{id}/seat`` answers from the tournament's tables, and
the entrant's page asks the table for a token of the seat their account holds (``POST /tables/{id}/seat``, passed on
to the table's owner like every request about a table). So any process may serve an entrant's pages, and a seat
survives a restart or a take-over of the director or of the table. A notice goes when its table ends.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import searches
from clubsuite.engine import resolve
from clubsuite.jsonform import JsonObject
from clubsuite.server.community.pairing import Ranked, Waiting, arena_tables, swiss_round
from clubsuite.server.community.ticking import Ticker
from clubsuite.server.community.tournaments import FORMATS, Entrant, TableRow, Tournament, Tournaments
from clubsuite.server.people.accounts import User
from clubsuite.server.people.notices import Notices
from clubsuite.server.store.dbschema import (
    SeatKind,
    TournamentFormat,
    TournamentStatus,
    actions,
    match_players,
    seats,
    tournament_entrants,
    tournament_tables,
    tournaments,
)
from clubsuite.server.store.ownership import database_now
from clubsuite.server.table.live import LiveTable, Refused, unstoppable
from clubsuite.server.table.seating import SeatRequest

log = logging.getLogger("clubsuite.server")

TICK = 1.0
"""Seconds between two rounds of work."""
CLAIM_SECONDS = 15.0
"""How long a claim on a tournament lasts unless renewed (another process takes it over after that)."""
BOTS_AFTER = 20.0
"""Seconds an arena entrant waits for people before bots fill the table (where the arena allows bots)."""
KEPT_APART = 1000
"""How many meetings a pair of whom one blocked the other counts as in a Swiss pairing: the search never puts them
together, and the greedy pairing only where nothing else is left."""
CLOSE_AFTER = 60.0
"""Seconds a tournament table stays open once its match has ended (its people see how it ended and go on to their
next table), before the director closes it: a tournament's ended tables never pile up against the server's limit."""
ROUND_PAUSE = 10.0
"""Seconds between the end of a Swiss round's last table and the next round (to read the standings)."""
UNSTARTED_SECONDS = 24 * 3600.0
"""How long a tournament without a start time waits for its host to start it before it is over, cancelled (so that
none is listed, nor counts against its host's limit, for ever)."""
SEATING_GRACE = 60.0
"""Seconds after which a tournament table with a seat still free (and no action played) is unmade."""
LAST_TABLES_SECONDS = 30 * 60.0
"""How long an arena past its time waits for its last tables to end (a table's unit is short: one hand, or a short
match; this bounds a table that never ends): one still playing then is not counted, and is closed."""
TOURNAMENT_OVER = "the tournament is over: this table was closed and its result not counted"
"""What the seats of a table still playing :data:`LAST_TABLES_SECONDS` after an arena's end are told as it closes
(``bye``; the table page words it in the reader's language)."""
SEAT_NOTICE_SECONDS = 6 * 3600.0
"""How long a ``seat`` notice is kept at most (it goes when its table ends; this bounds one whose end was missed)."""


INSTANT_BEST = ("normal", "learned", "heuristic", "easy")
"""The instant bots, strongest first, that fill a tournament's short tables past its share of searching bots."""


class LostClaimError(Exception):
    """Another process directs the tournament now."""


class Director(Ticker):
    """The tournaments this process directs (see the module), a round of work every :data:`TICK` seconds."""

    every = TICK
    what = "tournament round"

    def __init__(
        self,
        keeper: Tournaments,
        node: str,
        notices: Notices | None = None,
        bots_after: float = BOTS_AFTER,
        round_pause: float = ROUND_PAUSE,
    ) -> None:
        self.tournaments = keeper
        self.database = keeper.database
        self.hub = keeper.hub
        self.node = node
        self.notices = notices
        self.bots_after = bots_after
        self.round_pause = round_pause
        self._free: dict[tuple[str, str], tuple[float, frozenset[str]]] = {}
        """(tournament, entrant) -> when the entrant's last table ended here, and who sat at it."""
        self._repaired: dict[str, float] = {}
        """When each tournament's tables were last looked at for a seating left half way."""
        self._swept_at = 0.0
        """When the tournaments left unstarted were last looked for."""
        self._late_swept_at = 0.0
        """When this process's tables were last looked at for one an arena closed uncounted (:meth:`_close_late`)."""
        self._closing: dict[str, float] = {}
        """Ended tables of this process's tournaments and when to close them (:data:`CLOSE_AFTER`)."""

    async def round(self) -> None:
        """One round of work on the tournaments (:meth:`tick` now)."""
        await self.tick(time.time())

    async def tick(self, now: float) -> None:
        """One round of work on every tournament this process directs, and the ended tables closed when due."""
        for table_id, due in list(self._closing.items()):
            if due <= now:
                del self._closing[table_id]
                live = self.hub.tables.get(table_id)
                if live is not None:
                    await self.hub.close_table(live)
        if now - self._swept_at >= 60.0:
            self._swept_at = now
            await self.database.write(lambda conn: _cancel_unstarted(conn, now))
        if now - self._late_swept_at >= 60.0:
            self._late_swept_at = now
            try:
                await self._close_late(now)
            except Exception:  # the tournaments are directed all the same; the next look tries again
                log.exception("closing the tables arenas left uncounted failed")
        for tournament_id in await self.database.write(lambda conn: self._claim(conn, now)):
            try:
                await self._direct(tournament_id, now)
            except LostClaimError:
                log.info("tournament %s: directed by another process now", tournament_id)
            except Exception:
                log.exception("tournament %s: round of work failed", tournament_id)

    async def _close_late(self, now: float) -> None:
        """Close the tables this process serves that an arena over for :data:`LAST_TABLES_SECONDS` left uncounted,
        their seats told why (:data:`TOURNAMENT_OVER`). The arena's director closes its own when it ends it; a table
        another process serves (the one it was made at, or one that took it over) is closed here, at its next look,
        since only the process serving a table can close it."""
        here = list(self.hub.tables)
        if not here:
            return

        def work(conn: Connection) -> list[str]:
            late: list[str] = []
            for i in range(0, len(here), 500):
                late.extend(
                    conn.execute(
                        select(tournament_tables.c.table_id)
                        .join(tournaments, tournaments.c.id == tournament_tables.c.tournament_id)
                        .where(
                            tournament_tables.c.table_id.in_(here[i : i + 500]),
                            tournament_tables.c.finished_at.is_(None),
                            tournaments.c.format == TournamentFormat.ARENA,
                            tournaments.c.status == TournamentStatus.OVER,
                            tournaments.c.ends_at <= now - LAST_TABLES_SECONDS,
                        )
                    ).scalars()
                )
            return late

        for table_id in await self.database.reading(work):
            live = self.hub.tables.get(table_id)
            if live is None:
                continue
            try:
                await self.hub.close_table(live, TOURNAMENT_OVER)
            except Exception:  # one table's failure (another process took it over) leaves the others to close
                log.exception("table %s: closing it, its arena over, failed", table_id)

    def _claim(self, conn: Connection, now: float) -> list[str]:
        """Claim (or renew) the due tournaments nobody else directs; the ids this process directs now."""
        clock = database_now(conn.dialect.name)
        due = and_(
            tournaments.c.format.in_(FORMATS),
            tournaments.c.status != TournamentStatus.OVER,
            or_(tournaments.c.status == TournamentStatus.RUNNING, tournaments.c.starts_at <= now),
        )
        free = or_(
            tournaments.c.director.is_(None),
            tournaments.c.director == self.node,
            tournaments.c.director_until < clock,
        )
        conn.execute(
            update(tournaments).where(due, free).values(director=self.node, director_until=clock + CLAIM_SECONDS)
        )
        return list(conn.execute(select(tournaments.c.id).where(due, tournaments.c.director == self.node)).scalars())

    async def _write(self, tournament_id: str, work: Callable[[Connection], Any]) -> Any:
        """Run ``work`` in one transaction fenced by this process's claim on the tournament (:class:`LostClaimError`
        when another process holds it), growing the tournament's version."""

        def fenced(conn: Connection) -> Any:
            held = conn.execute(
                select(tournaments.c.id)
                .where(tournaments.c.id == tournament_id, tournaments.c.director == self.node)
                .with_for_update()
            ).first()
            if held is None:
                raise LostClaimError(tournament_id)
            out = work(conn)
            conn.execute(
                update(tournaments).where(tournaments.c.id == tournament_id).values(version=tournaments.c.version + 1)
            )
            return out

        return await self.database.write(fenced)

    async def _direct(self, tournament_id: str, now: float) -> None:
        """One round of work on one tournament (see the module)."""
        t = await self.tournaments.load(tournament_id)
        if t.status == TournamentStatus.OPEN:
            t = await self._begin(t, now)
        arena = t.settings.format == TournamentFormat.ARENA
        tables = await self.tournaments.tables(t.id, playing=arena)  # an arena reads only the tables in play
        if await self._read_results(t, tables):
            tables = await self.tournaments.tables(t.id, playing=arena)
        if await self._repair(t, tables, now):
            tables = await self.tournaments.tables(t.id, playing=arena)
        entrants = await self.tournaments.entrants(t.id)
        if t.settings.format == TournamentFormat.ARENA:
            await self._arena(t, tables, entrants, now)
        else:
            await self._swiss(t, tables, entrants, now)

    async def _begin(self, t: Tournament, now: float) -> Tournament:
        ends = now + t.settings.minutes * 60.0 if t.settings.format == TournamentFormat.ARENA else None

        def work(conn: Connection) -> None:
            started = {"status": TournamentStatus.RUNNING, "starts_at": now, "ends_at": ends}
            conn.execute(update(tournaments).where(tournaments.c.id == t.id).values(**started))

        await self._write(t.id, work)
        log.info("tournament %s started", t.id)
        return await self.tournaments.load(t.id)

    async def _read_results(self, t: Tournament, tables: list[TableRow]) -> bool:
        """Write the places of the tournament's tables whose match has ended; whether any had."""
        playing = [x for x in tables if x.finished_at is None]
        if not playing:
            return False
        rows = await self.database.read(
            select(match_players.c.table_id, match_players.c.seat, match_players.c.place, match_players.c.finished_at)
            .where(match_players.c.table_id.in_([x.table_id for x in playing]), match_players.c.match_no == 0)
            .order_by(match_players.c.table_id, match_players.c.seat),
        )
        ended: dict[str, tuple[list[int], float]] = {}
        for r in rows:
            places, _ = ended.setdefault(r.table_id, ([], r.finished_at))
            places.append(r.place)
        if not ended:
            return False
        by_id = {x.table_id: x for x in playing}

        def work(conn: Connection) -> None:
            for table_id, (places, at) in ended.items():  # counted whenever it ends (an arena waits for it)
                conn.execute(
                    update(tournament_tables)
                    .where(tournament_tables.c.tournament_id == t.id, tournament_tables.c.table_id == table_id)
                    .values(finished_at=at, places=json.dumps(places), counted=True)
                )

        absent = self._absent(ended, by_id)

        def both(conn: Connection) -> None:
            work(conn)
            for e in absent:
                conn.execute(
                    update(tournament_entrants)
                    .where(tournament_entrants.c.tournament_id == t.id, tournament_entrants.c.entrant == e)
                    .values(active=False)
                )

        await self._write(t.id, both)
        if absent:
            log.info("tournament %s: %d entrants away from their tables paused", t.id, len(absent))
        now = time.time()
        for table_id in ended:
            self._closing[table_id] = now + CLOSE_AFTER
            seats = by_id[table_id].seats
            people = frozenset(e for e in seats if e is not None)
            for e in people:
                self._free[(t.id, e)] = (now, people)
            if self.notices is not None:
                await self.notices.drop_seats(await self._accounts(t.id, people), {"table": table_id})
        return True

    def _absent(self, ended: JsonObject, by_id: dict[str, TableRow]) -> set[str]:
        """The entrants who were not at their table (no socket open at their seat) when its match ended, of the tables
        this process served then: they are paused (withdrawn from a Swiss tournament), so that nobody collects points,
        or a rating, while a bot plays their seats; they come back by joining again."""
        away: set[str] = set()
        for table_id in ended:
            live = self.hub.tables.get(table_id)
            present = live.present_at_end.get(0) if live is not None else None
            if live is None or present is None:
                continue  # served elsewhere, or rebuilt since: nobody is paused on a guess
            for seat, entrant in zip(live.seats, by_id[table_id].seats, strict=False):
                if entrant is not None and seat.kind == SeatKind.PERSON and seat.seat not in present:
                    away.add(entrant)
        return away

    async def _arena(self, t: Tournament, tables: list[TableRow], entrants: list[Entrant], now: float) -> None:
        if t.ends_at is not None and now >= t.ends_at:
            playing = [x for x in tables if x.finished_at is None]
            if playing and now < t.ends_at + LAST_TABLES_SECONDS:
                if not t.state.get("finishing"):  # its page says the time is up and the last tables are finishing

                    def finishing(conn: Connection) -> None:
                        state = json.dumps({**t.state, "finishing": True})
                        conn.execute(update(tournaments).where(tournaments.c.id == t.id).values(state=state))

                    await self._write(t.id, finishing)
                return
            await self._end(t)
            for x in playing:  # past the last wait: not counted, and closed, its seats told so even while they play
                live = self.hub.tables.get(x.table_id)
                if live is not None:
                    await self.hub.close_table(live, TOURNAMENT_OVER)
            return
        busy = {e for x in tables if x.finished_at is None for e in x.seats if e is not None}
        waiting = []
        for e in entrants:
            if not e.active or e.id in busy:
                continue
            since, last = self._free.get((t.id, e.id), (e.joined_at, frozenset()))
            waiting.append(Waiting(e.id, e.rating, max(since, e.joined_at), last))
        seats = t.settings.seats()
        by_id = {e.id: e for e in entrants}
        apart = await self._apart([by_id[w.id] for w in waiting])
        bots_after = self.bots_after if t.settings.bots else None
        pairing = await asyncio.to_thread(arena_tables, waiting, seats, now, bots_after, apart)
        for group in pairing.tables:
            await self._seat(t, group, 0, by_id)

    async def _swiss(self, t: Tournament, tables: list[TableRow], entrants: list[Entrant], now: float) -> None:
        if any(x.finished_at is None for x in tables):
            return  # the round is still being played
        played = int(t.state.get("round", 0))
        if played:
            ended = max((x.finished_at or 0.0 for x in tables if x.round == played), default=0.0)
            if now - max(ended, float(t.state.get("paired_at", 0.0))) < self.round_pause:
                return
        if played >= t.settings.rounds:
            await self._end(t)
            return
        seats = t.settings.seats()
        active = [e for e in entrants if e.active]
        if len(active) < (1 if t.settings.bots else seats):
            await self._end(t, cancelled=played == 0)
            return
        rows = {r.entrant: r for r in await self.tournaments.standings(t)}
        met: dict[str, dict[str, int]] = {}
        before: set[frozenset[str]] = set()
        for x in tables:
            people = [e for e in x.seats if e is not None]
            before.add(frozenset(people))
            for a in people:
                for b in people:
                    if a != b:
                        met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
        for pair in await self._apart(active):  # never together where another pairing exists
            a, b = tuple(pair)
            met.setdefault(a, {})[b] = met.setdefault(b, {})[a] = KEPT_APART
        field = [Ranked(e.id, e.rating, rows[e.id].score) for e in active]
        byes = {e.id: e.byes for e in entrants}
        pairing = await asyncio.to_thread(swiss_round, field, seats, met, byes, frozenset(before), t.settings.bots)
        number = played + 1

        def work(conn: Connection) -> None:
            state = {**t.state, "round": number, "paired_at": time.time()}
            conn.execute(update(tournaments).where(tournaments.c.id == t.id).values(state=json.dumps(state)))
            for e in pairing.left:
                conn.execute(
                    update(tournament_entrants)
                    .where(tournament_entrants.c.tournament_id == t.id, tournament_entrants.c.entrant == e)
                    .values(byes=tournament_entrants.c.byes + 1)
                )

        await self._write(t.id, work)
        t = await self.tournaments.load(t.id)
        by_id = {e.id: e for e in entrants}
        for group in pairing.tables:
            await self._seat(t, group, number, by_id)
        log.info("tournament %s: round %d, %d tables", t.id, number, len(pairing.tables))

    async def _accounts(self, tournament_id: str, entrant_ids: frozenset[str]) -> list[str]:
        """The accounts of some of a tournament's entrants."""
        rows = await self.database.read(
            select(tournament_entrants.c.user_id).where(
                tournament_entrants.c.tournament_id == tournament_id,
                tournament_entrants.c.entrant.in_(list(entrant_ids)),
                tournament_entrants.c.user_id.is_not(None),
            ),
        )
        return [r.user_id for r in rows]

    async def _apart(self, entrants: list[Entrant]) -> frozenset[frozenset[str]]:
        """The pairs of ``entrants`` of whom one blocked the other (as entrant ids)."""
        relations = self.hub.relations
        if relations is None:
            return frozenset()
        by_user = {e.user_id: e.id for e in entrants if e.user_id is not None}
        pairs = await relations.apart(by_user)
        return frozenset(frozenset(by_user[u] for u in pair) for pair in pairs)

    async def _end(self, t: Tournament, cancelled: bool = False) -> None:
        def work(conn: Connection) -> None:
            state = {**t.state, "cancelled": cancelled}
            values: dict[str, object] = {"status": TournamentStatus.OVER, "state": json.dumps(state), "director": None}
            if t.ends_at is None:
                values["ends_at"] = time.time()
            conn.execute(update(tournaments).where(tournaments.c.id == t.id).values(**values))

        await self._write(t.id, work)
        if self.notices is not None:
            entrants = await self.tournaments.entrants(t.id)
            users = [e.user_id for e in entrants if e.user_id is not None]
            await self.notices.drop_seats(users, {"tournament": t.id})
        for key in [k for k in self._free if k[0] == t.id]:
            del self._free[key]
        self._repaired.pop(t.id, None)
        log.info("tournament %s over", t.id)

    async def _seat(
        self, t: Tournament, group: tuple[str | None, ...], number: int, entrants: dict[str, Entrant]
    ) -> None:
        """Make a table for ``group`` (in random seats), record it for the tournament and take its people's seats
        for their accounts. A table the server refuses (it is full) is logged; its people wait for the next round
        of work."""
        order = list(group)
        random.SystemRandom().shuffle(order)
        bot = await self._bot_for(t) if None in order else t.settings.bot
        # A table with a searching bot counts against its host's address, with the address's own tables: counted and
        # recorded by the hub at once (nothing awaited between); past the share, the strongest instant bot plays.
        host = self.tournaments.searching_address(t.id) if searches(bot) else None
        try:
            try:
                table = await self.hub.create_table(
                    t.settings.table_spec(), self._requests(order, bot), t.settings.table_settings(), creator=host
                )
            except Refused as exc:
                if host is None or exc.code != "too_many_tables":
                    raise
                table = await self.hub.create_table(
                    t.settings.table_spec(), self._requests(order, self._instant(t)), t.settings.table_settings()
                )
        except Refused as exc:
            log.warning("tournament %s: no table for %d entrants: %s", t.id, len(order), exc)
            return
        started = time.time()

        def work(conn: Connection) -> None:
            conn.execute(
                insert(tournament_tables).values(
                    tournament_id=t.id,
                    table_id=table.id,
                    round=number,
                    seats=json.dumps(order),
                    started_at=started,
                    finished_at=None,
                    places=None,
                    counted=False,
                )
            )

        try:
            await self._write(t.id, work)
        except BaseException:
            await self.hub.close_table(table)
            raise
        try:  # whatever stops the round of work (a stop, a failed write), the seats are taken or the table unmade
            taken, refused = await unstoppable(self._take_seats(t, table, order, entrants))
        except Exception:
            log.exception("tournament %s: the seats of table %s could not be taken", t.id, table.id)
            await self._unmake(t, table.id, [])
            return
        if refused:
            await self._unmake(t, table.id, refused)
            return
        if self.notices is not None:
            for user_id, got in taken:
                place = {"tournament": t.id, "name": t.settings.name, "table": table.id, "seat": got, "round": number}
                expires = time.time() + SEAT_NOTICE_SECONDS
                await self.notices.add(user_id, "seat", place, expires, replacing={"tournament": t.id})

    async def _bot_for(self, t: Tournament) -> str:
        """The bot that fills a short table: the tournament's, except that a tournament (the operator's too) has no
        more tables with searching bots playing at once than one address may open
        (``ServerLimits.search_tables_per_address``); past that, the game's strongest instant bot. The tables also
        count against the host's address where this process knows it (:meth:`_seat`)."""
        if not searches(t.settings.bot):
            return t.settings.bot
        playing = await self.tournaments.tables(t.id, playing=True)
        searching = sum(
            1
            for x in playing
            if None in x.seats
            and (live := self.hub.tables.get(x.table_id)) is not None
            and any(searches(s.bot) for s in live.seats if s.kind == SeatKind.BOT)
        )
        if searching < self.hub.limits.search_tables_per_address:
            return t.settings.bot
        return self._instant(t)

    @staticmethod
    def _instant(t: Tournament) -> str:
        """The game's strongest instant bot: the one that fills a short table past the share of searching ones."""
        known = bot_names(resolve(t.settings.spec)[0].name)
        return next((b for b in INSTANT_BEST if b in known), known[0])

    @staticmethod
    def _requests(order: list[str | None], bot: str) -> list[SeatRequest]:
        return [SeatRequest(SeatKind.PERSON) if e is not None else SeatRequest(SeatKind.BOT, bot) for e in order]

    async def _take_seats(
        self, t: Tournament, table: LiveTable, order: list[str | None], entrants: dict[str, Entrant]
    ) -> tuple[list[tuple[str, int]], list[str]]:
        """Take each entrant's seat at ``table`` for their account: (account, seat) of those taken, and the entrants
        whose seats were refused."""
        taken: list[tuple[str, int]] = []
        refused: list[str] = []
        for seat, entrant_id in enumerate(order):
            if entrant_id is None:
                continue
            entrant = entrants[entrant_id]
            try:
                if entrant.user_id is None:
                    raise Refused("no_account", "the entrant's account is gone")
                user = User(entrant.user_id, entrant.name, 0.0, False)
                got, _ = await self.hub.seating.join(table, None, seat, user)  # no token kept: see the module
            except Refused as exc:
                log.warning("tournament %s: seat %d of table %s not taken: %s", t.id, seat, table.id, exc)
                refused.append(entrant_id)
                continue
            taken.append((entrant.user_id, got))
        return taken, refused

    async def _unmake(self, t: Tournament, table_id: str, refused: list[str]) -> None:
        """A table some of whose seats could not be taken for their entrants (it would wait for them for ever):
        closed and struck from the tournament, and those entrants paused (they come back by joining again). The
        others are seated again at the next round of work (in a Swiss tournament, at the next round: this one is
        lost to them, without a bye)."""

        def work(conn: Connection) -> None:
            conn.execute(
                delete(tournament_tables).where(
                    tournament_tables.c.tournament_id == t.id, tournament_tables.c.table_id == table_id
                )
            )
            conn.execute(
                update(tournament_entrants)
                .where(tournament_entrants.c.tournament_id == t.id, tournament_entrants.c.entrant.in_(refused))
                .values(active=False)
            )

        try:
            await self._write(t.id, work)
        finally:  # closed even where the tournament is another process's now: nobody would sit at it
            live = self.hub.tables.get(table_id)
            if live is not None:
                await self.hub.close_table(live)
        log.warning("tournament %s: table %s unmade, %d entrants paused", t.id, table_id, len(refused))

    async def _repair(self, t: Tournament, tables: list[TableRow], now: float) -> bool:
        """Unmake the tournament's tables that are still waiting for a seat to be taken :data:`SEATING_GRACE`
        seconds after they were made (the process that seated them stopped half way): no action played yet and a
        person's seat with nobody in it. Looked for every :data:`SEATING_GRACE` seconds; whether any was."""
        if now - self._repaired.get(t.id, 0.0) < SEATING_GRACE:
            return False
        self._repaired[t.id] = now
        old = [x.table_id for x in tables if x.finished_at is None and x.started_at < now - SEATING_GRACE]
        if not old:
            return False
        played = select(actions.c.table_id).where(actions.c.table_id == seats.c.table_id)
        stuck = await self.database.read(
            select(seats.c.table_id)
            .where(
                seats.c.table_id.in_(old),
                seats.c.kind == SeatKind.PERSON,
                seats.c.token_hash.is_(None),
                ~played.exists(),
            )
            .distinct(),
        )
        for row in stuck:
            await self._unmake(t, row.table_id, [])
        return bool(stuck)


def _cancel_unstarted(conn: Connection, now: float) -> None:
    """End, as cancelled, the tournaments without a start time that their hosts left unstarted for
    :data:`UNSTARTED_SECONDS` (no director holds them: they are not due; a host's start sets the start time, so the
    two never both happen)."""
    unstarted = and_(
        tournaments.c.format.in_(FORMATS),
        tournaments.c.status == TournamentStatus.OPEN,
        tournaments.c.starts_at.is_(None),
        tournaments.c.created_at < now - UNSTARTED_SECONDS,
    )
    for row in conn.execute(select(tournaments.c.id, tournaments.c.state).where(unstarted).limit(100)).all():
        state = {**json.loads(row.state or "{}"), "cancelled": True}
        done = conn.execute(
            update(tournaments)
            .where(tournaments.c.id == row.id, unstarted)
            .values(
                status=TournamentStatus.OVER, ends_at=now, state=json.dumps(state), version=tournaments.c.version + 1
            )
        )
        if done.rowcount == 1:  # by this process (every process looks)
            log.info("tournament %s: never started by its host, cancelled", row.id)
