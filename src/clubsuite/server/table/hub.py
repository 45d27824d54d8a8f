"""The server's tables: made, found, closed, handed over and rebuilt from the store at start-up here; who sits where
is :mod:`~clubsuite.server.table.seating`'s, how many sockets :mod:`~clubsuite.server.table.admission`'s.

Every store call runs in a database worker thread (:meth:`~clubsuite.server.store.handle.Database.run`, the hub's
:attr:`Hub.db`), so the event loop never waits on the disk: one thread over SQLite, which takes one writer at a time;
several over PostgreSQL, where the writes of different tables go on at once (those of one table are made one at a
time, under its lock). The hub is given that handle, shared with the server's other services, and closes it last
when it stops (its tables' writes are the last).

With an :class:`~clubsuite.server.store.ownership.Ownership` (as ``clubs serve`` runs it), the hub serves only the
tables
this process owns: at start-up those it can take, then every table it makes, and every little while the tables
nobody owns any more (their owner stopped or died: :meth:`Hub.adopt` rebuilds them from the log). It renews its
leases at the same beat, and stops serving a table whose lease it lost (a pause longer than the lease): its clients
are told to reconnect, and find it at its new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence

from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import searches
from clubsuite.engine import resolve
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.options import spec_of
from clubsuite.safetext import quoted
from clubsuite.seeding import derive_seed
from clubsuite.server.limits import ServerLimits
from clubsuite.server.people.moderation import Moderation
from clubsuite.server.people.relations import Relations
from clubsuite.server.store.commits import GroupCommit
from clubsuite.server.store.database import MatchRow, SeatRow, TableRow
from clubsuite.server.store.dbschema import SeatKind
from clubsuite.server.store.handle import Database
from clubsuite.server.store.ownership import STOPPED, STOPPING, Ownership
from clubsuite.server.table.admission import Admission
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.table.seating import Seating, SeatRequest
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.table.thinking import Thinkers
from clubsuite.server.tokens import (
    hash_token,
    new_invite,
    new_table_id,
    same_hash,
)
from clubsuite.tabletalk import start_match

log = logging.getLogger("clubsuite.server")
ADOPT_BATCH = 20
"""Tables nobody owns that one look takes over at most (the rest at the next look, or by another process)."""
MOVED = "the table is moving to another server: reconnect soon"
"""What the clients of a table this process no longer owns are told as it stops serving it."""


class Hub:
    """Every live table of the server, over one store."""

    def __init__(
        self,
        database: Database,
        limits: ServerLimits | None = None,
        ownership: Ownership | None = None,
        relations: Relations | None = None,
        moderation: Moderation | None = None,
    ) -> None:
        store = database.store
        self.database = database
        """The store and its worker threads, shared with the server's other services."""
        self.store = store
        self.db = database.run
        """Run a store call in a database worker thread (the tables' own calls: :meth:`Database.run`)."""
        self.ownership = ownership
        """This process's leases, or None: it serves every open table (one process, no fencing)."""
        if ownership is not None:
            store.ownership = ownership
        self.limits = limits or ServerLimits()
        self.tables: dict[str, LiveTable] = {}
        self._invites: dict[str, str] = {}
        """Table ids by the hash of their invite code."""
        self._creators: dict[str, tuple[str, bool]] = {}
        """The address that made each open table, and whether a searching bot sits at it (since this process started:
        addresses are never stored)."""
        self._pending: set[str] = set()
        """Tables being written, counted against the limits already."""
        self.seating = Seating(self)
        """Who sits where: joining, quick play, the guided hand, leaving (:mod:`~clubsuite.server.table.seating`)."""
        self.admission = Admission(self.limits)
        """The open sockets, counted against the limits (:mod:`~clubsuite.server.table.admission`)."""
        self.commits = GroupCommit(store, self.db, at_once=store.writes_at_once)
        """The tables' ordinary actions, written in groups (``commits``)."""
        self.thinkers = Thinkers(self.limits.bot_workers)
        """The worker processes of the searching bots."""
        self._sweeper: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._adopting: dict[str, asyncio.Future[LiveTable | tuple[str, str] | None]] = {}
        """Tables being taken over now, so that two callers wait on one take-over."""
        self.stopping = False
        self.on_action: Callable[[str, float], None] | None = None
        """Told of every action a table accepts: its source and its latency (``metrics``)."""
        self.on_lease: Callable[[str, int], None] | None = None
        """Told of tables changing hands: ``taken``, ``adopted``, ``lost``, ``handed_over``, and how many."""
        self.on_forward: Callable[[str], None] | None = None
        """Told of every request passed on to another process: ``http`` or ``ws``."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop the hub runs in, once started."""
        self.relations = relations
        """Who blocked or muted whom (the server's; None: no one hides anyone's chat)."""
        self.moderation = moderation
        """Who may not chat now (the server's; None: everyone may)."""
        self._pins: dict[str, int] = {}
        """Requests being answered about each table (a table with one is not parked under it)."""
        self.prepare: Callable[[LiveTable], Awaitable[None]] | None = None
        """Readies a turn-based table just rebuilt from the store before it is served: its clock, who saw what,
        auto-play (``server.turns``)."""

    def hide_for(self, user_id: str, hidden: frozenset[str]) -> None:
        """An account's blocks or mutes changed: its open sockets at this process's tables hide the new set's chat
        from the next line on."""
        for table in self.tables.values():
            for conn in table.connections:
                if conn.user_id == user_id:
                    conn.hidden = hidden

    # -- start and stop -----------------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every open table this process may own from the store (seats, tokens, the match from its log) and
        start its timers; with leases, start renewing them and looking for tables to take over."""
        self.loop = asyncio.get_running_loop()
        if self.ownership is not None:
            await self.db(self.ownership.register)
        for row in await self.db(self.store.tables):
            if self.ownership is not None and not await self.db(self.ownership.acquire, row.id):
                continue  # another live process serves it
            if await self._serve(row) is not None:
                self._changed_hands("taken")
        self._sweeper = asyncio.create_task(self._sweep())
        if self.ownership is not None:
            self._keeper = asyncio.create_task(self._keep(self.ownership))
        log.info("serving %d tables", len(self.tables))

    async def _serve(self, row: TableRow) -> LiveTable | None:
        """Rebuild a table from the store and serve it (None: the engine can no longer read it: kept, not served)."""
        try:
            table = await self._load(row)
            if table.settings.turn_based and self.prepare is not None:
                await self.prepare(table)
        except (ClubsError, ValueError) as exc:
            log.error("table %s could not be restored: %s", row.id, exc)
            return None
        self._add(table)
        table.reschedule()
        return table

    async def _keep(self, ownership: Ownership) -> None:
        """Every quarter of a lease: renew this process's leases (and stop serving a table whose lease was lost),
        then take over the tables nobody owns."""
        every = ownership.ttl / 4
        while not self.stopping:
            await asyncio.sleep(every)
            if self.stopping:
                break
            try:
                for table_id in await self.db(ownership.renew):
                    await self.drop(table_id, MOVED)
                for table_id in await self.db(ownership.orphans, ADOPT_BATCH):
                    await self.adopt(table_id)
            except Exception:  # the database is away: tried again at the next beat
                log.exception("the leases could not be renewed")

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Take over a table nobody owns (its owner stopped or died) and serve it, rebuilt from its log: the table,
        or None where another process has it, it is closed, or this process is full or stopping."""
        found = await self.take_over(table_id)
        return found if isinstance(found, LiveTable) else None

    async def take_over(self, table_id: str) -> LiveTable | tuple[str, str] | None:
        """:meth:`adopt`, saying where the table is when it could not be taken: the live owner (node, address) that
        holds it, as read in the same transaction that tried to take it. A caller that found no live owner a moment
        before (the owner's heartbeat came late) then reaches the owner rather than answering that the table does not
        exist. None where the table is closed or unknown, or this process is full or stopping."""
        if table_id in self.tables:
            return self.tables[table_id]
        if self.ownership is None or self.stopping or len(self.tables) >= self.limits.max_tables:
            return None
        waiting = self._adopting.get(table_id)
        if waiting is not None:
            return await waiting
        done: asyncio.Future[LiveTable | tuple[str, str] | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = done
        found: LiveTable | tuple[str, str] | None = None
        try:
            claim = await self.db(self.ownership.claim, table_id)
            found = claim.owner
            if claim.epoch is not None:
                row = await self.db(self.store.table, table_id)
                table = await self._serve(row) if row is not None and not self.stopping else None
                if table is not None:
                    log.info("table %s taken over", table_id)
                    self._changed_hands("adopted")
                    found = table
                else:
                    await self.db(self.ownership.release, [table_id])
        finally:
            del self._adopting[table_id]
            done.set_result(found)
        return found

    async def drop(self, table_id: str, reason: str) -> None:
        """Stop serving a table this process no longer owns: its timers stop, its clients are told ``reason`` and
        their sockets closed (they reconnect and find it at its new owner)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            table.stop()
            table.closed = True  # not served here any more: a change waiting for the lock is refused
            self.tables.pop(table_id, None)
            self._invites.pop(hash_token(table.invite), None)
            self._creators.pop(table_id, None)
            self.seating.forget(table_id)
            for conn in list(table.connections):
                conn.send({"type": "bye", "protocol": 1, "reason": reason})
                conn.send_close()
        self._changed_hands("lost")
        log.info("table %s no longer served here: %s", table_id, reason)

    async def park(self, table: LiveTable) -> bool:
        """Let a turn-based table nobody is at leave this process's memory: kept in the database only (parked),
        its lease given up, woken by the next request about it or by its clock (:meth:`wake`). False where someone
        came meanwhile or a bot is to move."""
        async with table.lock:
            if table.connections or table.closed or table.id not in self.tables or table.moving():
                return False
            if self._pins.get(table.id):
                return False  # a request about it is being answered
            await self.db(self.store.park, table.id, True)
            if self._pins.get(table.id) or table.connections:  # a request came meanwhile: the table stays
                await self.db(self.store.park, table.id, False)
                return False
            if self.ownership is not None:
                await self.db(self.ownership.release, [table.id])
            table.stop()
            table.closed = table.parked = True  # a change waiting for the lock is refused: asked again, it wakes it
            self.tables.pop(table.id, None)
            self._invites.pop(hash_token(table.invite), None)
            self._creators.pop(table.id, None)
            self.seating.forget(table.id)
        log.info("table %s parked", table.id)
        return True

    def pin(self, table_id: str) -> None:
        """A request about ``table_id`` is being answered here: the table is not parked meanwhile."""
        self._pins[table_id] = self._pins.get(table_id, 0) + 1

    def unpin(self, table_id: str) -> None:
        """That request was answered."""
        left = self._pins.get(table_id, 0) - 1
        if left > 0:
            self._pins[table_id] = left
        else:
            self._pins.pop(table_id, None)

    def invited(self, code: str) -> str | None:
        """The id of the table served here that an invite code opens, or None."""
        return self._invites.get(hash_token(code))

    async def serving(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` as served here now: the one in memory, or a parked turn-based table woken (one
        being parked is waited for, then woken); None where there is none here."""
        table = self.tables.get(table_id)
        if table is not None and table.closed:
            async with table.lock:  # a park under way ends
                pass
            table = None
        if table is None:
            found = await self.wake(table_id)
            table = found if isinstance(found, LiveTable) else None
        return table

    async def wake(self, table_id: str) -> LiveTable | tuple[str, str] | None:
        """A parked turn-based table (or one served nowhere), rebuilt from the store and served here: the table, the
        live owner (node, address) where another process serves it, or None where it is closed or unknown. Two
        callers at once wait on one rebuild."""
        if table_id in self.tables:
            return self.tables[table_id]
        if self.ownership is not None:
            found = await self.take_over(table_id)
        else:
            found = await self._wake_alone(table_id)
        if isinstance(found, LiveTable) and found.settings.turn_based:
            await self.db(self.store.park, table_id, False)
        return found

    async def _wake_alone(self, table_id: str) -> LiveTable | None:
        """:meth:`wake` where this process is the only one (no leases)."""
        if self.stopping or len(self.tables) >= self.limits.max_tables or len(table_id) > 40:
            return None
        waiting = self._adopting.get(table_id)
        if waiting is not None:
            found = await waiting
            return found if isinstance(found, LiveTable) else None
        done: asyncio.Future[LiveTable | tuple[str, str] | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = done
        table: LiveTable | None = None
        try:
            row = await self.db(self.store.table, table_id)
            if row is not None and not row.closed and TableSettings.from_json(row.settings).turn_based:
                table = await self._serve(row)
        finally:
            del self._adopting[table_id]
            done.set_result(table)
        return table

    def _add(self, table: LiveTable) -> None:
        table.on_action = self._acted
        self.tables[table.id] = table
        self._invites[hash_token(table.invite)] = table.id

    def presence(self) -> tuple[int, int]:
        """How many people hold a seat at a table of this process whose match is not over, and at how many tables
        (private ones too: a count says nothing about a table). What the lobby shows as "playing now"."""
        people = tables = 0
        for table in list(self.tables.values()):
            if table.closed or table.match.is_over:
                continue
            seated = sum(1 for s in table.seats if s.kind == SeatKind.PERSON and s.token_hash is not None)
            people += seated
            tables += seated > 0
        return people, tables

    def _acted(self, source: str, seconds: float) -> None:
        if self.on_action is not None:
            self.on_action(source, seconds)

    def _changed_hands(self, change: str, count: int = 1) -> None:
        if self.on_lease is not None and count:
            self.on_lease(change, count)

    async def _sweep(self) -> None:
        """Close, every little while, the tables nobody has been at for ``table_idle`` seconds."""
        every = min(60.0, self.limits.table_idle / 4)
        while not self.stopping:
            await asyncio.sleep(every)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.settings.turn_based:
                    continue  # parked when quiet, never closed for it (server.turns)
                if table.quiet_since is not None and now - table.quiet_since >= self.limits.table_idle:
                    try:
                        await self.close_table(table)
                    except Exception:  # the database is away: tried again at the next sweep
                        log.exception("table %s could not be closed", table.id)

    async def close_table(self, table: LiveTable, telling: str | None = None) -> None:
        """Close a table nobody is at: no longer served or listed, kept in the database with its records. With
        ``telling``, close it even while people are at it: each connection is told ``telling`` (``bye``) and its
        socket closed."""
        async with table.lock:
            if (table.connections and telling is None) or table.id not in self.tables:
                return
            for conn in list(table.connections):
                conn.send({"type": "bye", "protocol": 1, "reason": telling})
                conn.send_close()
            await self.db(self.store.close_table, table.id)
            if self.ownership is not None:
                await self.db(self.ownership.release, [table.id])
            table.closed = True
            table.stop()
            del self.tables[table.id]
            self._invites.pop(hash_token(table.invite), None)
            self._creators.pop(table.id, None)
            self.seating.forget(table.id)
        if telling is None:
            log.info("table %s closed: nobody was at it for %g s", table.id, self.limits.table_idle)
        else:
            log.info("table %s closed: %s", table.id, telling)

    async def _load(self, row: TableRow) -> LiveTable:
        seats = await self.db(self.store.seats, row.id)
        matches = await self.db(self.store.matches, row.id)
        earlier = 0
        for m in matches[:-1]:
            earlier += len(await self.db(self.store.actions, row.id, m.match_no))
        actions = await self.db(self.store.actions, row.id, matches[-1].match_no)
        table = LiveTable(row, seats, self.store, self.db, self.thinkers, self.commits)
        table.restore(matches, actions, earlier)
        return table

    async def farewell(self, wait: float = 2.0) -> None:
        """The first step of stopping: no timer fires any more, an action being written finishes, and every client
        is told (``bye``) and has its socket closed once its queue has gone out (up to ``wait`` seconds)."""
        if self.stopping:
            return
        self.stopping = True
        for task in (self._sweeper, self._keeper):
            if task is not None:
                task.cancel()
        for table in self.tables.values():
            table.stop()
        if self.ownership is not None:
            try:  # the leases end now, before the clients are told: when they reconnect, another process takes over
                await self.db(self.ownership.stop, STOPPING)
                self._changed_hands("handed_over", len(self.tables))
            except Exception:  # the database is away: the leases run out by themselves
                log.exception("the tables could not be handed over")
        conns = []
        for table in self.tables.values():
            async with table.lock:  # an action in flight is written and told before the server goes
                for conn in table.connections:
                    conn.send({"type": "bye", "protocol": 1, "reason": "the server is stopping: reconnect soon"})
                    conn.send_close()
                    conns.append(conn)
        deadline = time.monotonic() + wait
        while any(not c.queue.empty() for c in conns) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Stop: say farewell (when not yet said: the tables are handed over, their leases ended, and every client
        told), say this process is gone, then close the store once its last write is done."""
        await self.farewell()
        if self.ownership is not None:
            with contextlib.suppress(Exception):  # the database is away: the node's heartbeat runs out by itself
                await self.db(self.ownership.stop, STOPPED)
        self.thinkers.close()
        await self.commits.close()
        await self.database.close()

    # -- the lobby ----------------------------------------------------------------------------------------
    async def create_table(
        self,
        game: str,
        seats: Sequence[SeatRequest],
        settings: TableSettings,
        seed: int | None = None,
        creator: str | None = None,
    ) -> LiveTable:
        """Make a table: the rules spec (with its options), one request per seat, the house rules, for the address
        ``creator`` (within its share of tables, and the server's). The first match's seed is drawn from the
        system's randomness; ``seed`` sets it (for tests and tools: never taken from a client, who could then know
        every deal)."""
        info, options = resolve(game)
        n = info.n_seats(options)
        if len(seats) != n:
            raise InvalidOptionsError(f"{info.name} with these options has {n} seats; {len(seats)} were given")
        rows: list[SeatRow] = []
        known = bot_names(info.name)
        for i, req in enumerate(seats):
            if req.kind not in tuple(SeatKind):
                raise InvalidOptionsError(f"seat {i}: kind {req.kind!r} is not person or bot")
            bot = req.bot or ("heuristic" if "heuristic" in known else "random")
            if bot not in known:
                raise InvalidOptionsError(
                    f"seat {i}: unknown bot {bot!r}; the bots for {info.name} are {', '.join(known)}"
                )
            rows.append(SeatRow(i, req.kind, bot, req.name if req.kind == SeatKind.BOT else None, None))
        if settings.rated and not any(r.kind == SeatKind.PERSON for r in rows):
            raise InvalidOptionsError(
                "table setting rated=true: a rated table needs a person's seat (bots alone would only rate one another)"
            )
        now = time.time()
        row = TableRow(new_table_id(), spec_of(info.name, options), settings.to_json(), new_invite(), now, 0, False)
        if seed is None:
            seed = derive_seed(int.from_bytes(random.SystemRandom().randbytes(8), "big"), 0)
        start_match(info, options, 0, seed)  # the deal must work before anything is stored
        first = MatchRow(0, seed, now, None, None)
        self._reserve(row.id, creator, any(searches(r.bot or "") for r in rows))
        try:
            await self.db(self.store.create_table, row, rows, first)
        except BaseException:
            self._creators.pop(row.id, None)
            raise
        finally:
            self._pending.discard(row.id)
        table = LiveTable(row, rows, self.store, self.db, self.thinkers, self.commits)
        table.restore([first], [], 0)
        self._add(table)
        self._changed_hands("taken")
        table.reschedule()
        log.info("table %s created: %s", row.id, row.game)
        return table

    def _reserve(self, table_id: str, creator: str | None, searching: bool) -> None:
        """Count a table being made against the server's share and its creator's, before it is written: requests
        made at once are counted one after another (nothing is awaited between the count and the place taken)."""
        if len(self.tables) + len(self._pending) >= self.limits.max_tables:
            raise Refused("server_full", "the server has as many tables as it can hold: try again later")
        if creator is not None:
            mine = [s for who, s in self._creators.values() if who == creator]
            if len(mine) >= self.limits.tables_per_address:
                raise Refused(
                    "too_many_tables",
                    f"your address already has {len(mine)} open tables, the most it may have: play at one of them, "
                    "or wait until one closes (a table nobody is at closes after a while)",
                )
            if searching and sum(mine) >= self.limits.search_tables_per_address:
                raise Refused(
                    "too_many_tables",
                    f"your address already has {sum(mine)} open tables with searching bots (hard, expert, pimc, "
                    "ismcts), the most it may have: give this table instant bots, or wait until one of those closes",
                )
            self._creators[table_id] = (creator, searching)
        self._pending.add(table_id)

    def searching_tables(self, creator: str) -> int:
        """How many open tables with a searching bot the address ``creator`` made (in this process)."""
        return sum(1 for who, searching in self._creators.values() if who == creator and searching)

    def by_invite(self, code: str) -> LiveTable:
        """The table an invite code opens (found by the code's hash: the look-up tells nothing of other codes)."""
        table = self.tables.get(self._invites.get(hash_token(code), ""))
        if table is None:
            raise Refused("no_table", "that invite code opens no table")
        return table

    def serves_invite(self, code: str) -> bool:
        """Whether the table an invite code opens is served by this process."""
        return self._invites.get(hash_token(code)) in self.tables

    def may_see(self, table: LiveTable, invite: str | None, token: str | None) -> bool:
        """Whether a request may know of ``table``: a public table, or a private one with its invite code or one of
        its seat tokens (a private table's id alone tells nothing, not even that it exists)."""
        if table.settings.public:
            return True
        if invite is not None and same_hash(hash_token(table.invite), hash_token(invite)):
            return True
        return token is not None and self.seat_of(table, token) is not None

    def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat of ``table`` that ``token`` holds, or None."""
        digest = hash_token(token)
        for seat in table.seats:
            if seat.token_hash is not None and same_hash(seat.token_hash, digest):
                return seat.seat
        return None

    async def closed_record(self, table_id: str, match_no: int | None, invite: str | None) -> str:
        """The stored record of a finished match of a table no longer served (closed, its records kept), as
        :meth:`record` gives a live table's: a private table's only with its invite code (otherwise it answers as if
        it did not exist), so that a player's history keeps its links after the table has closed."""
        await self.closed_access(table_id, invite)
        return await self._stored(table_id, match_no)

    async def closed_access(self, table_id: str, invite: str | None) -> None:
        """Refuse (as if it did not exist) a table no longer served that the asker may not know of: a private one
        without its invite code, or none at all."""
        row = await self.db(self.store.table, table_id) if len(table_id) <= 40 else None
        public = row is not None and bool(row.settings.get("public", True))
        known = row is not None and invite is not None and same_hash(hash_token(row.invite), hash_token(invite))
        if row is None or not (public or known):
            raise Refused("no_table", f"there is no table {quoted(table_id, 40)}")

    async def record(self, table: LiveTable, match_no: int | None) -> str:
        """The stored record of a finished match (the last one by default); refused while it is being played,
        since a record holds every hidden card."""
        return await self._stored(table.id, match_no)

    async def _stored(self, table_id: str, match_no: int | None) -> str:
        matches = await self.db(self.store.matches, table_id)
        wanted = matches[-1].match_no if match_no is None else match_no
        for m in matches:
            if m.match_no == wanted:
                if m.record is None:
                    raise Refused("not_over", "the match is still being played: its record holds hidden cards")
                return m.record
        raise Refused("no_match", f"this table has no match {wanted}")
