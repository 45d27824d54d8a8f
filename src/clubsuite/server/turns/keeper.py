"""The clocks of turn-based tables, at every process: each move's deadline worked out and kept in the database, a
clock that ran out acted on once, quiet tables parked, who saw what written down.

A turn-based table is a live table (:class:`~clubsuite.server.table.live.LiveTable`: the same protocol, seats, log
and page) whose settings carry a pace. While anyone is at it, a process holds it in memory and this keeper gives it
its clock (``turn`` in its messages) and writes the clock to ``turn_tables`` after every change: the seat whose
clock runs, its account, when the turn began and the deadline (:func:`~clubsuite.server.turns.clock.deadline`: the
pace counted in that player's playing hours, vacations left out), all on the database's clock
(:class:`~clubsuite.server.turns.dbclock.DbClock`). Once nobody has been at it for ``park_after`` seconds and no bot
is to move, the table is parked: it leaves the process's memory and its lease, and is kept in the database only.

Every beat (``sweep_every``), each process reads the clocks that ran out. A table another live process holds is that
process's to act on; a parked one is woken (taken, where several processes share the database, by one of them
only: the lease's claim is atomic), and the clock is acted on under the table's lock, only if the table is still at
the version the clock was set at: so a restart or a second process never loses a timeout nor acts on one twice.
What a clock running out does is the table maker's choice, said when the table is made: ``bot`` (the seat's bot
plays that move, logged as ``timeout``), ``adjourn`` (no clock runs until the player to act moves or any player
resumes), ``lose`` (the match ends there, the late player last: :meth:`LiveTable.forfeit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.server.store.database import StoredRow
from clubsuite.server.store.dbschema import SeatKind, turn_chat, turn_seats, turn_tables
from clubsuite.server.store.handle import Database
from clubsuite.server.table.chat import HISTORY
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.turns.clock import ALWAYS, PlayingHours, Span, deadline, paused
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.dbclock import DbClock
from clubsuite.server.turns.listing import in_play, standings_at, unstarted
from clubsuite.server.turns.players import hours_of, vacations_of
from clubsuite.tabletalk import named

log = logging.getLogger("clubsuite.server")
DUE_BATCH = 20
"""Clocks that ran out one beat acts on at most (the rest at the next beat, or by another process)."""
STUCK_SECONDS = 600.0
"""How long a table whose clock ran out but which could not be woken here is left aside (so that it holds up no
other clock; another process, or this one later, takes it)."""
WAIT_SECONDS = 7 * 24 * 3600.0
"""How long a turn-based table may wait for its players before it is closed."""
EXPIRED = "nobody took this turn-based table's free seats within a week: it is closed"

Key = tuple[int, bool, bool, bool]
"""What a table's clock depends on besides its players' hours: its version, whether it waits for players, whether
it is adjourned, whether its match is over."""
Hours = tuple[PlayingHours, tuple[Span, ...]]
"""An account's playing hours and vacations, as its clocks are worked out from them."""


@dataclass(frozen=True)
class MatchEnd:
    """A turn-based match ended: what each person seated is told (:attr:`Keeper.match_over`)."""

    user_id: str
    table_id: str
    title: str
    """The table's name in English words (``words``: its parts, for a page to word it in its reader's language)."""
    words: JsonObject | None
    match_no: int
    saw: bool
    """Whether the player had the table open when the match ended (and so saw the end)."""
    standing: JsonObject
    """How the seat finished (:func:`~clubsuite.server.turns.listing.standings_at`)."""


class YourTurn(Protocol):
    """Told that a person's turn began: the account, the table, its name in English words, the version, whether they
    are at the table, and the name's parts (for a page to word it in its reader's language)."""

    def __call__(
        self, user_id: str, table_id: str, title: str, version: int, connected: bool, words: JsonObject | None = None
    ) -> Awaitable[None]: ...


@dataclass(frozen=True)
class Clock:
    """A turn-based table's clock at one version: whose it is, since when, until when."""

    version: int
    seat: int | None
    """The seat whose clock runs (None: a bot's turn, the table waiting for players, adjourned, the end)."""
    user_id: str | None
    since: float | None
    deadline: float | None
    exact: bool = True
    """False where the player's hours were not known yet when it was worked out (worked out again once they are)."""


class Keeper:
    """The turn-based tables' clocks of one process (see the module's words)."""

    def __init__(self, hub: Hub, database: Database, config: TurnConfig, clock: DbClock) -> None:
        self.hub = hub
        self.database = database
        self.config = config
        self.clock = clock
        self.your_turn: YourTurn | None = None
        """The reminders' hook (``server.turns.reminders``)."""
        self.turn_over: Callable[[str, str], Awaitable[None]] | None = None
        """Told (account, table) when a person's turn there ended: their "your turn" notice goes."""
        self.match_over: Callable[[MatchEnd], Awaitable[None]] | None = None
        """Told when a table's match ended, for each of its people (the reminders' hook)."""
        self._turn_of: dict[str, str] = {}
        """The account whose clock ran at each table, last written."""
        self.beats = 0
        """How many looks at the clocks this process has made (the tests wait on it)."""
        self.skew = 0.0
        """The database's clock (the test clock's offset included) minus this machine's, at the last beat."""
        self._clocks: dict[str, tuple[Key, Clock]] = {}
        """Each table's clock, for the state of the table it was worked out at (:func:`_key`)."""
        self._hours: dict[str, Hours] = {}
        self._written: dict[tuple[str, int], int] = {}
        """The ``seen`` version written for each (table, seat)."""
        self._reminded: dict[str, int] = {}
        """The version each table's player to act was last reminded at (here: ``turn_seats.reminded`` across)."""
        self._told_end: dict[str, int] = {}
        """The match whose end each table's people were last told of (here: ``turn_seats.told_end`` across)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None
        self._stuck: dict[str, float] = {}
        """Tables whose clock ran out but which could not be woken here, until when they are left aside."""
        self._pending: set[asyncio.Task[None]] = set()
        """The clocks being written (the tests wait until none is)."""
        hub.prepare = self.prepare

    # -- time -----------------------------------------------------------------------------------------------------
    def now(self) -> float:
        """The turn clocks' time now, from this machine's clock and the skew measured at the last beat."""
        return time.time() + self.skew

    async def measure(self) -> float:
        """Read the database's time (the test clock's offset included) and keep the skew; the time."""
        now = await self.database.run(self.clock.now)
        self.skew = now - time.time()
        return now

    # -- a table's clock ------------------------------------------------------------------------------------------
    def watch(self, table: LiveTable) -> None:
        """Give a turn-based table its clock's hooks."""
        table.turn_part = self.part
        table.on_turn = self.changed
        table.on_chat = self.said

    async def made(self, table: LiveTable, host_id: str) -> None:
        """A turn-based table was just made by ``host_id``: its row written, its hooks set."""
        now = await self.measure()
        table_id, pace, on_timeout, version = table.id, table.settings.pace, table.settings.on_timeout, table.version

        def work(conn: Connection) -> None:
            conn.execute(
                insert(turn_tables).values(
                    table_id=table_id, host_id=host_id, pace=pace, on_timeout=on_timeout, parked=False,
                    adjourned=False, ended=None, version=version, seat=None, user_id=None, since=None,
                    deadline=None, created_at=now,
                )
            )  # fmt: skip

        await self.database.write(work)
        self.watch(table)

    async def prepare(self, table: LiveTable) -> None:
        """A turn-based table rebuilt from the store: its clock, auto-play, who saw what and how its match ended read
        back; a clock written at an earlier version (the process stopped between a move and its clock) set again."""
        await self.measure()
        table_id = table.id

        def work(conn: Connection) -> tuple[StoredRow | None, list[StoredRow], list[StoredRow]]:
            row = conn.execute(select(turn_tables).where(turn_tables.c.table_id == table_id)).first()
            seen = list(conn.execute(select(turn_seats).where(turn_seats.c.table_id == table_id)))
            kept = select(turn_chat).where(turn_chat.c.table_id == table_id).order_by(turn_chat.c.id)
            said = list(conn.execute(kept))
            return row, seen, said

        row, seen, said = await self.database.reading(work)
        table.chat.restore(
            [
                (
                    {"id": r.id, "channel": "players", "seat": r.seat, "name": r.name, "text": r.text, "at": r.at},
                    r.user_id,
                    frozenset(json.loads(r.present)),
                )
                for r in said
            ]
        )
        await self._load_hours([s.user_id for s in table.seats if s.user_id is not None])
        for s in seen:
            table.seen[s.seat] = s.seen
            self._written[(table_id, s.seat)] = s.seen
            if s.autoplay:
                table.autoplay.add(s.seat)
        if row is None:  # made, then the process stopped before its row was written
            await self.made(table, next((s.user_id for s in table.seats if s.user_id), None) or "")
            return
        table.adjourned = bool(row.adjourned)
        if row.user_id is not None:  # whose "your turn" notice goes when their turn ends
            self._turn_of[table_id] = row.user_id
        if row.ended is not None and table.ended is not None and row.ended.startswith("lost:"):
            table.ended = {"lost": int(row.ended.split(":", 1)[1])}
        if row.version == table.version and (row.seat is None or row.deadline is not None or table.adjourned):
            self._clocks[table_id] = (_key(table), Clock(row.version, row.seat, row.user_id, row.since, row.deadline))
        self.watch(table)
        if row.version != table.version:
            self.changed(table)

    def _work_out(self, table: LiveTable, since: float | None = None) -> Clock:
        """The clock of ``table`` as it is now: the player to act's, from ``since`` (now by default)."""
        seat_no = table.match.to_act
        if table.over or table.adjourned or seat_no is None or table.waiting:
            return Clock(table.version, None, None, None, None)
        seat = table.seats[seat_no]
        if seat.kind != SeatKind.PERSON or seat.user_id is None or seat.token_hash is None:
            return Clock(table.version, None, None, None, None)  # a bot moves at once
        pace = table.settings.pace
        assert pace is not None
        start = self.now() if since is None else since
        hours = self._hours.get(seat.user_id)
        plays, away = hours if hours is not None else (ALWAYS, ())
        return Clock(
            table.version,
            seat_no,
            seat.user_id,
            start,
            deadline(start, pace, plays, away),
            hours is not None,
        )

    def clock_of(self, table: LiveTable) -> Clock:
        """The table's clock at its version (worked out once per version)."""
        key = _key(table)
        kept = self._clocks.get(table.id)
        if kept is not None and kept[0] == key:
            return kept[1]
        found = self._work_out(table)
        self._clocks[table.id] = (key, found)
        return found

    def _set(self, table: LiveTable, found: Clock) -> Clock:
        self._clocks[table.id] = (_key(table), found)
        return found

    def part(self, table: LiveTable) -> JsonObject:
        """The ``turn`` of the table's messages (docs/protocol.md)."""
        found = self.clock_of(table)
        now = self.now()
        stopped = None
        if found.user_id is not None:
            plays, away = self._hours.get(found.user_id, (ALWAYS, ()))
            stopped = paused(now, plays, away)
        return {
            "pace": table.settings.pace,
            "on_timeout": table.settings.on_timeout,
            "seat": found.seat if found.seat is not None else (table.match.to_act if table.adjourned else None),
            "deadline": found.deadline,
            "seconds_left": round(max(0.0, found.deadline - now), 1) if found.deadline is not None else None,
            "paused": stopped,
            "adjourned": table.adjourned,
            "ended": dict(table.ended) if table.ended is not None else None,
        }

    def changed(self, table: LiveTable) -> None:
        """A turn-based table changed (``LiveTable.on_turn``): its clock written, its player to act reminded, in a
        task of its own (the table's change is already told). A match that is over is noted now (a rematch may
        begin before the task runs), for its players away to be told."""
        self._later(self._changed(table, table.match_no if table.over else None))

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task of its own, counted until it ends (:attr:`settled`)."""
        task = asyncio.create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _changed(self, table: LiveTable, ended: int | None) -> None:
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            try:
                await self._load_hours([s.user_id for s in table.seats if s.user_id is not None])
                found = self.clock_of(table)
                if not found.exact:  # worked out before the player's hours were read: again, from the same start
                    found = self._set(table, self._work_out(table, found.since))
                    table.tell_state()
                found = await self._write(table, found)
                await self._flush_seen([table])
                await self._remind(table, found)
                if ended is not None:
                    await self._tell_end(table, ended)
            except Exception:  # written again at the next change, or when the table is next loaded
                log.exception("table %s: its clock could not be written", table.id)

    async def _write(self, table: LiveTable, found: Clock) -> Clock:
        """Write the clock, the seats' accounts and how the match ended; never over a later version's clock. The
        deadline is worked out again in the same transaction from the player's hours and vacations as stored now
        (another process may have changed them since this one read them): the clock as written."""
        ended = (
            f"lost:{table.ended['lost']}" if table.ended is not None and table.ended.get("lost") is not None else None
        )
        values = {
            "version": found.version, "seat": found.seat, "user_id": found.user_id, "since": found.since,
            "deadline": found.deadline, "adjourned": table.adjourned, "ended": ended,
        }  # fmt: skip
        people = [(s.seat, s.user_id) for s in table.seats if s.user_id is not None]
        table_id, version = table.id, table.version
        over = table.match_no if table.over else None
        seen = dict(table.seen)

        pace = table.settings.pace
        assert pace is not None

        def work(conn: Connection) -> tuple[Hours, float] | None:
            stored: tuple[Hours, float] | None = None
            if found.user_id is not None and found.since is not None:
                hours = (hours_of(conn, found.user_id), tuple(vacations_of(conn, found.user_id)))
                stored = (hours, deadline(found.since, pace, *hours))
                values["deadline"] = stored[1]
            conn.execute(
                update(turn_tables)
                .where(turn_tables.c.table_id == table_id, turn_tables.c.version <= found.version)
                .values(**values)
            )
            _seats(conn, table_id, people, seen, version, over)
            return stored

        stored = await self.database.write(work)
        if stored is None or found.user_id is None:
            return found
        self._hours[found.user_id], due = stored
        if due == found.deadline:
            return found
        # the player's hours or vacations changed at another process: the clock as written, told again
        kept = self._clocks.get(table.id)
        written = replace(found, deadline=due)
        if kept is not None and kept[1] is found:
            self._set(table, written)
            table.tell_state()
        return written

    async def _remind(self, table: LiveTable, found: Clock) -> None:
        """Remind the player whose clock began (once a turn); the last one's notice goes."""
        was = self._turn_of.pop(table.id, None)
        if found.user_id is not None:
            self._turn_of[table.id] = found.user_id
        if was is not None and was != found.user_id and self.turn_over is not None:
            await self.turn_over(was, table.id)
        if found.seat is None or found.user_id is None or self.your_turn is None:
            return
        if self._reminded.get(table.id) == found.version:
            return
        connected = table.seats[found.seat].connections > 0
        if not connected:  # at the table: told there; reminded once they leave it with the move to make
            self._reminded[table.id] = found.version
        title, words = _title(table)
        await self.your_turn(found.user_id, table.id, title, found.version, connected, words)

    async def _tell_end(self, table: LiveTable, match_no: int) -> None:
        """Tell each person seated that the match ``match_no`` ended, and their place as its results have it (written
        with its last action, before this is told): a notice and a push to those who were away, nothing but a note
        to those who had the table open then (the table keeps who did); once a match here and, by the reminders'
        note on each seat, across processes and after the table is next woken."""
        if self.match_over is None or self._told_end.get(table.id) == match_no:
            return
        present = table.present_at_end.get(match_no, frozenset())
        table_id = table.id
        standing = await self.database.reading(lambda conn: standings_at(conn, table_id, match_no))
        title, words = _title(table)
        for s in table.seats:
            if s.kind == SeatKind.PERSON and s.user_id is not None and s.seat in standing:
                saw = s.connections > 0 or s.seat in present
                await self.match_over(MatchEnd(s.user_id, table_id, title, words, match_no, saw, standing[s.seat]))
        self._told_end[table_id] = match_no

    async def _load_hours(self, user_ids: list[str], again: bool = False) -> None:
        """Read the playing hours and vacations of the accounts not known yet (``again``: all of them)."""
        wanted = [u for u in dict.fromkeys(user_ids) if again or u not in self._hours]
        if not wanted:
            return

        def work(conn: Connection) -> dict[str, Hours]:
            return {u: (hours_of(conn, u), tuple(vacations_of(conn, u))) for u in wanted}

        self._hours.update(await self.database.reading(work))

    async def hours_changed(self, user_id: str) -> None:
        """An account's time zone, playing hours or vacations changed: every clock of theirs that runs is worked out
        again from the start of its turn, in memory and in the database (parked tables too)."""
        await self._load_hours([user_id], again=True)
        plays, away = self._hours[user_id]
        for table in list(self.hub.tables.values()):
            kept = self._clocks.get(table.id)
            if kept is not None and kept[1].user_id == user_id and kept[0] == _key(table):
                self._set(table, self._work_out(table, kept[1].since))
                table.tell_state()

        def work(conn: Connection) -> None:
            rows = conn.execute(
                select(turn_tables.c.table_id, turn_tables.c.version, turn_tables.c.since, turn_tables.c.pace).where(
                    turn_tables.c.user_id == user_id, turn_tables.c.deadline.is_not(None)
                )
            ).all()
            for r in rows:
                conn.execute(
                    update(turn_tables)
                    .where(turn_tables.c.table_id == r.table_id, turn_tables.c.version == r.version)
                    .values(deadline=deadline(r.since, r.pace, plays, away))
                )

        await self.database.write(work)

    async def room_for(self, user_id: str, besides: str | None = None) -> None:
        """Refuse (``too_many_turn_tables``) an account that sits at (or made and waits at) as many turn-based tables
        as it may, ``besides`` the one it is taking a seat at."""
        count = await self.database.reading(lambda conn: in_play(conn, user_id, besides))
        if count >= self.config.tables_per_account:
            raise Refused(
                "too_many_turn_tables",
                f"you already have {count} turn-based {'table' if count == 1 else 'tables'} in play or waiting for "
                "players, the most you may: finish or leave one first",
            )

    @property
    def settled(self) -> bool:
        """Whether every clock worked out here has been written."""
        return not self._pending

    def said(self, table: LiveTable, line: JsonObject, user_id: str | None, present: frozenset[str]) -> None:
        """A line said on a turn-based table's players' channel: kept in the database (its last :data:`HISTORY`
        lines), in a task of its own."""
        self._later(self._keep_line(table.id, line, user_id, present))

    async def _keep_line(self, table_id: str, line: JsonObject, user_id: str | None, present: frozenset[str]) -> None:
        line_id = line["id"]
        assert isinstance(line_id, int)

        def work(conn: Connection) -> None:
            conn.execute(
                insert(turn_chat).values(
                    table_id=table_id, id=line_id, seat=line["seat"], name=line["name"], text=line["text"],
                    at=line["at"], user_id=user_id, present=json.dumps(sorted(present)),
                )
            )  # fmt: skip
            conn.execute(delete(turn_chat).where(turn_chat.c.table_id == table_id, turn_chat.c.id <= line_id - HISTORY))

        try:
            await self.database.write(work)
        except Exception:  # the line was said and shown; only its keeping for later visits is lost
            log.exception("table %s: a chat line could not be kept", table_id)

    # -- the players' own switches -------------------------------------------------------------------------------
    async def resume(self, table: LiveTable) -> None:
        """An adjourned table goes on: the player to act's clock starts again, whole."""
        async with table.lock:
            if table.closed:
                raise Refused("moved", "the table was put away meanwhile: try again")
            if not table.adjourned:
                return
            table.adjourned = False
            self._set(table, self._work_out(table))
            table.tell_state()
        table.reschedule()
        await self._changed(table, None)  # written before the answer: the player's list shows it at once

    async def autoplay(self, table: LiveTable, seat: int, on: bool) -> None:
        """Switch ``seat``'s auto-play of forced moves; a forced move waiting now is played."""
        table_id = table.id
        if table.closed:
            raise Refused("moved", "the table was put away meanwhile: try again")

        def work(conn: Connection) -> None:
            conn.execute(
                update(turn_seats)
                .where(turn_seats.c.table_id == table_id, turn_seats.c.seat == seat)
                .values(autoplay=on)
            )

        await self.database.write(work)
        (table.autoplay.add if on else table.autoplay.discard)(seat)
        table.reschedule()

    # -- the beat -------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the beat."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop the beat; the seen versions of the tables held here written."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self._flush_seen(list(self.hub.tables.values()))

    async def _run(self) -> None:
        while not self.hub.stopping:
            await asyncio.sleep(self.config.sweep_every)
            try:
                await self.beat()
            except Exception:  # the database is away: tried again at the next beat
                log.exception("the turn-based clocks could not be looked at")

    async def beat(self) -> None:
        """One look: clocks that ran out acted on, seen versions written, quiet tables parked."""
        now = await self.measure()
        later = time.monotonic()
        self._stuck = {t: until for t, until in self._stuck.items() if until > later}
        due = await self.database.read(
            select(turn_tables.c.table_id, turn_tables.c.version, turn_tables.c.seat)
            .where(
                turn_tables.c.deadline <= now,
                turn_tables.c.adjourned.is_(False),
                turn_tables.c.ended.is_(None),
                turn_tables.c.table_id.not_in(list(self._stuck)),
            )
            .order_by(turn_tables.c.deadline)
            .limit(DUE_BATCH)
        )
        for row in due:
            if self.hub.stopping:
                return
            found = await self.hub.wake(row.table_id)
            if isinstance(found, LiveTable):
                await self.timeout(found, row.version, row.seat, now)
            elif found is None:  # closed meanwhile, unreadable, or this process is full: looked at again later
                log.warning("table %s: its clock ran out but the table could not be woken here", row.table_id)
                self._stuck[row.table_id] = later + STUCK_SECONDS
        await self._expire(now)
        tables = [t for t in list(self.hub.tables.values()) if t.settings.turn_based]
        await self._refresh(tables)
        await self._flush_seen(tables)
        quiet = time.monotonic() - self.config.park_after
        for table in tables:
            if table.waiting and table.settings.public:
                continue  # listed in the lobby until its seats are taken
            if not table.connections and table.quiet_since is not None and table.quiet_since <= quiet:
                await self._park(table)
        self.beats += 1

    async def timeout(self, table: LiveTable, version: int, seat: int, now: float) -> None:
        """A clock ran out at ``table`` (set at ``version``, for ``seat``): acted on as its maker chose, if the
        table is still where the clock was set."""
        found = self.clock_of(table)
        if table.version != version or found.seat != seat or found.deadline is None or found.deadline > now:
            self.changed(table)  # the stored clock is behind the table (or was moved by new hours): written again
            return
        log.info("table %s: seat %d's clock ran out (%s)", table.id, seat, table.settings.on_timeout)
        if table.settings.on_timeout == "bot":
            await table.bot_moves(seat, version, "timeout")
        elif table.settings.on_timeout == "lose":
            await table.forfeit(seat, version)
        else:
            async with table.lock:
                if table.version != version or table.adjourned or table.over:
                    return
                table.adjourned = True
                self._set(table, self._work_out(table))
                table.tell_state()
            self.changed(table)

    async def _expire(self, now: float) -> None:
        """Close the turn-based tables that waited for their players longer than :data:`WAIT_SECONDS`: nothing was
        played at them (an account's unstarted tables count against its share until then)."""
        old = await self.database.reading(lambda conn: unstarted(conn, now - WAIT_SECONDS, DUE_BATCH))
        for table_id in old:
            if table_id in self._stuck:
                continue
            found = await self.hub.wake(table_id)
            if isinstance(found, LiveTable) and found.waiting:
                await self.hub.close_table(found, telling=EXPIRED)
                self._forget(table_id)
            elif found is None:
                self._stuck[table_id] = time.monotonic() + STUCK_SECONDS

    async def _refresh(self, tables: list[LiveTable]) -> None:
        """Read again the hours and vacations of the players whose clocks run at the tables held here: changed at
        another process, their clocks are worked out again (and written, and told)."""
        running = {t.id: self._clocks[t.id][1] for t in tables if t.id in self._clocks}
        users = [c.user_id for c in running.values() if c.user_id is not None]
        before = {u: self._hours.get(u) for u in users}
        await self._load_hours(users, again=True)
        for table in tables:
            found = running.get(table.id)
            if (
                found is not None
                and found.user_id is not None
                and self._hours.get(found.user_id) != before[found.user_id]
            ):
                self.changed(table)  # written again from the same start, with the hours as stored

    async def _flush_seen(self, tables: list[LiveTable]) -> None:
        """Write the versions the tables' players saw that changed since last written."""
        changes = [
            (t.id, seat, version)
            for t in tables
            for seat, version in t.seen.items()
            if self._written.get((t.id, seat)) != version
        ]
        if not changes:
            return

        def work(conn: Connection) -> None:
            for table_id, seat, version in changes:
                conn.execute(
                    update(turn_seats)
                    .where(turn_seats.c.table_id == table_id, turn_seats.c.seat == seat)
                    .values(seen=version)
                )

        await self.database.write(work)
        for table_id, seat, version in changes:
            self._written[(table_id, seat)] = version

    async def _park(self, table: LiveTable) -> None:
        """Park a quiet table (its pending clock write done first)."""
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            await self._flush_seen([table])
            if await self.hub.park(table):
                self._forget(table.id)

    def _forget(self, table_id: str) -> None:
        self._clocks.pop(table_id, None)
        self._reminded.pop(table_id, None)
        self._told_end.pop(table_id, None)
        self._turn_of.pop(table_id, None)
        self._locks.pop(table_id, None)
        for key in [k for k in self._written if k[0] == table_id]:
            del self._written[key]


def _key(table: LiveTable) -> Key:
    return (table.version, table.waiting, table.adjourned, table.over)


def _title(table: LiveTable) -> tuple[str, JsonObject | None]:
    """A table's name in English words, and its parts (for a page to word it in its reader's language)."""
    host = next((s.name for s in table.seats if s.kind == SeatKind.PERSON and s.token_hash is not None), None)
    name = named(table.info, table.options, host)
    return str(name["name"]), name["name_words"] if isinstance(name["name_words"], dict) else None


def _seats(
    conn: Connection, table_id: str, people: list[tuple[int, str]], seen: dict[int, int], version: int, over: int | None
) -> None:
    """Make the ``turn_seats`` rows of the accounts seated at a table that have none (a seat taken by another
    account starts anew; a seat its player left loses its row: the table leaves their list). ``over``: the match
    over at the table, if it is: an account seated after its end is never told of it."""
    rows = {r.seat: r.user_id for r in conn.execute(select(turn_seats).where(turn_seats.c.table_id == table_id))}
    held = dict(people)
    for seat in rows:
        if seat not in held:
            conn.execute(delete(turn_seats).where(turn_seats.c.table_id == table_id, turn_seats.c.seat == seat))
    for seat, user_id in people:
        if rows.get(seat) == user_id:
            continue
        if seat in rows:
            conn.execute(
                update(turn_seats)
                .where(and_(turn_seats.c.table_id == table_id, turn_seats.c.seat == seat))
                .values(user_id=user_id, seen=seen.get(seat, version), autoplay=False, reminded=None, told_end=over)
            )
        else:
            conn.execute(
                insert(turn_seats).values(
                    table_id=table_id, seat=seat, user_id=user_id, seen=seen.get(seat, version), autoplay=False,
                    reminded=None, told_end=over,
                )
            )  # fmt: skip
