"""The server's tables: created, found, joined, left and rematched here, rebuilt from the store at start-up.

Every store call runs in a database worker thread (:meth:`Hub.db`), so the event loop never waits on the disk: one
thread over SQLite, which takes one writer at a time; several over PostgreSQL, where the writes of different tables
go on at once (those of one table are made one at a time, under its lock).

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
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import searches
from clubsuite.engine import resolve
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.options import spec_of, split_spec
from clubsuite.safetext import quoted
from clubsuite.seeding import derive_seed
from clubsuite.server.limits import ServerLimits
from clubsuite.server.people.accounts import User
from clubsuite.server.store.commits import GroupCommit
from clubsuite.server.store.database import MatchRow, SeatRow, Store, TableRow
from clubsuite.server.store.ownership import STOPPED, STOPPING, Ownership
from clubsuite.server.table.connection import Connection
from clubsuite.server.table.live import LiveTable, Refused, SeatState, start_match, unstoppable
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.table.thinking import Thinkers
from clubsuite.server.tokens import (
    check_name,
    hash_token,
    looks_alike,
    new_invite,
    new_table_id,
    new_token,
    same_hash,
)

T = TypeVar("T")
log = logging.getLogger("clubsuite.server")
QUICK_BOT = "normal"
"""The bot in every other seat of a table quick play makes."""
QUICK_TRIES = 3
"""How many times quick play looks again when the seat it chose was taken meanwhile."""
TOKENS_CLAIMED = 20
"""Seat tokens one request may bring to an account."""
TUTORIAL_SEED = 2027
"""The first match seed of every guided first hand: its deals are the same every time (and known: a tutorial
table has one person, no spectators, and nothing to win)."""
TUTORIAL_BOT = "easy"
"""The level of the bots a newcomer meets in the guided first hand."""
TUTORIAL_PACE = 1.5
"""Seconds a bot of the guided first hand waits before it plays, so that a newcomer follows every card."""
ADOPT_BATCH = 20
"""Tables nobody owns that one look takes over at most (the rest at the next look, or by another process)."""
MOVED = "the table is moving to another server: reconnect soon"
"""What the clients of a table this process no longer owns are told as it stops serving it."""


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for when a table is made: a person's seat (taken later with a name) or a bot's."""

    kind: str
    bot: str | None = None


class Hub:
    """Every live table of the server, over one store."""

    def __init__(self, store: Store, limits: ServerLimits | None = None, ownership: Ownership | None = None) -> None:
        self.store = store
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
        self._quick: set[str] = set()
        """Tables quick play made (quick play seats people at these first)."""
        self._claimed: set[str] = set()
        """Tables quick play has just made, whose first seat is kept for the person who asked (no other quick play
        request is seated there meanwhile)."""
        self._sockets: Counter[str] = Counter()
        """Open connections by address."""
        self._worker = ThreadPoolExecutor(max_workers=store.writers, thread_name_prefix="clubs-db")
        self.commits = GroupCommit(store, self.db)
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

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call in the database worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, call, *args)

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
            self._quick.discard(table_id)
            for conn in list(table.connections):
                conn.send({"type": "bye", "protocol": 1, "reason": reason})
                conn.send_close()
        self._changed_hands("lost")
        log.info("table %s no longer served here: %s", table_id, reason)

    def _add(self, table: LiveTable) -> None:
        table.on_action = self._acted
        self.tables[table.id] = table
        self._invites[hash_token(table.invite)] = table.id

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
                if table.quiet_since is not None and now - table.quiet_since >= self.limits.table_idle:
                    try:
                        await self.close_table(table)
                    except Exception:  # the database is away: tried again at the next sweep
                        log.exception("table %s could not be closed", table.id)

    async def close_table(self, table: LiveTable) -> None:
        """Close a table nobody is at: no longer served or listed, kept in the database with its records."""
        async with table.lock:
            if table.connections or table.id not in self.tables:
                return
            await self.db(self.store.close_table, table.id)
            if self.ownership is not None:
                await self.db(self.ownership.release, [table.id])
            table.closed = True
            table.stop()
            del self.tables[table.id]
            self._invites.pop(hash_token(table.invite), None)
            self._creators.pop(table.id, None)
            self._quick.discard(table.id)
        log.info("table %s closed: nobody was at it for %g s", table.id, self.limits.table_idle)

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
        await asyncio.get_running_loop().run_in_executor(self._worker, self.store.close)
        self._worker.shutdown(wait=True)

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
            if req.kind not in ("person", "bot"):
                raise InvalidOptionsError(f"seat {i}: kind {req.kind!r} is not person or bot")
            bot = req.bot or ("heuristic" if "heuristic" in known else "random")
            if bot not in known:
                raise InvalidOptionsError(
                    f"seat {i}: unknown bot {bot!r}; the bots for {info.name} are {', '.join(known)}"
                )
            rows.append(SeatRow(i, req.kind, bot, None, None))
        if settings.rated and not any(r.kind == "person" for r in rows):
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

    # -- connections ----------------------------------------------------------------------------------------
    def connection_refused(self, table: LiveTable, seat: int | None, address: str) -> str | None:
        """Why one more connection from ``address`` to ``table`` (for ``seat``; None: watching) is too many, or
        None when it is allowed. Asked under the table's lock."""
        limits = self.limits
        if self._sockets[address] >= limits.sockets_per_address:
            return f"your address has {limits.sockets_per_address} connections open, the most it may have"
        if seat is not None and table.seats[seat].connections >= limits.sockets_per_token:
            return f"this seat has {limits.sockets_per_token} connections open, the most it may have: close one"
        if seat is None and sum(1 for c in table.connections if c.seat is None) >= limits.spectators_per_table:
            return f"this table has {limits.spectators_per_table} spectators, the most it may have"
        return None

    def connected(self, table: LiveTable, conn: Connection, address: str) -> None:
        """Count a new connection of ``table`` (under its lock)."""
        self._sockets[address] += 1
        table.add_connection(conn)

    def disconnected(self, table: LiveTable, conn: Connection, address: str) -> None:
        """Count a connection gone."""
        self._sockets[address] -= 1
        if self._sockets[address] <= 0:
            del self._sockets[address]
        table.remove_connection(conn)

    def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat of ``table`` that ``token`` holds, or None."""
        digest = hash_token(token)
        for seat in table.seats:
            if seat.token_hash is not None and same_hash(seat.token_hash, digest):
                return seat.seat
        return None

    async def join(self, table: LiveTable, name: object, seat: int | None, user: User | None = None) -> tuple[int, str]:
        """Take a free person's seat (the lowest, or the one asked for) with a display name, or as the signed-in
        account ``user`` (its name): (seat, token). A rated table seats accounts only, each once."""
        tidy = user.name if user is not None else check_name(name)
        return await unstoppable(self._join(table, tidy, seat, user.id if user is not None else None))

    async def _join(self, table: LiveTable, tidy: str, seat: int | None, user_id: str | None) -> tuple[int, str]:
        async with table.lock:
            if table.closed:
                raise Refused("no_table", "that table was closed")
            if table.settings.rated and user_id is None:
                raise Refused("account_needed", "a rated table seats players with an account: sign in first")
            if table.settings.rated and any(s.user_id == user_id for s in table.seats):
                raise Refused("already_seated", "you already hold a seat at this rated table")
            if table.settings.rated and not table.waiting and not table.match.is_over:
                raise Refused(
                    "rated_in_play", "a rated match is being played here: its free seat can be taken when it ends"
                )
            free = [s for s in table.seats if s.kind == "person" and s.token_hash is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise Refused("seat_taken", f"seat {seat} is not a free person's seat at this table")
            if not free:
                raise Refused("table_full", "this table has no free seat")
            chosen = free[0]
            for other in table.seats:
                if other.kind == "person" and other.name is not None and looks_alike(other.name, tidy):
                    raise Refused(
                        "name_taken",
                        f"the player at seat {other.seat + 1} is called {other.name!r}, which looks the same: "
                        "choose another name",
                    )
            token = new_token()
            was_waiting = table.waiting
            chosen.name, chosen.token_hash, chosen.user_id = tidy, hash_token(token), user_id
            chosen.away_since = time.monotonic()
            try:
                await self.db(self.store.update_seat, table.id, chosen.row())
            except Exception:
                chosen.name = chosen.token_hash = chosen.user_id = None
                raise
            if was_waiting and not table.waiting:
                table.turn_started = time.time()  # everyone is here: the clock starts now
        log.info("table %s: seat %d taken", table.id, chosen.seat)
        table.broadcast_presence()
        table.reschedule()
        return chosen.seat, token

    async def quickplay(
        self, game: str, name: object, creator: str | None = None, user: User | None = None
    ) -> tuple[LiveTable, int, str]:
        """Quick play: seat ``name`` at once at a table of ``game``: (table, seat, token).

        A public table waiting for players with a free person's seat is joined first (those quick play made before
        the others, then the one waiting longest); ``game`` given as a game's name alone takes a table of that game
        with any options, a variant or a spec with options one with exactly those rules. Otherwise a new public table
        is made for the address ``creator`` (within its share of tables, as any table), with the person in seat 0
        and a ``normal`` bot in every other seat, so its match starts at once. The name is checked before anything
        is made. A signed-in ``user`` sits under the account's name (and never at a rated table by quick play)."""
        tidy = user.name if user is not None else check_name(name)
        info, options = resolve(game)
        wanted = spec_of(info.name, options)
        exact = split_spec(game) != (info.name, {})
        for _ in range(QUICK_TRIES):
            for table in self._quick_tables(info.name, wanted if exact else None):
                try:
                    seat, token = await self.join(table, tidy, None, user)
                except Refused as exc:
                    if exc.code in ("table_full", "name_taken", "no_table"):
                        continue  # taken meanwhile, or a name like this one sits there: the next table
                    raise
                return table, seat, token
            bot = QUICK_BOT if QUICK_BOT in bot_names(info.name) else None
            seats = [SeatRequest("person"), *[SeatRequest("bot", bot)] * (info.n_seats(options) - 1)]
            table = await self.create_table(wanted, seats, TableSettings(), creator=creator)
            self._quick.add(table.id)
            self._claimed.add(table.id)
            try:
                seat, token = await self.join(table, tidy, 0, user)
            except Refused as exc:
                if exc.code != "seat_taken":  # someone who saw it listed took the seat first: look again
                    raise
                continue
            finally:
                self._claimed.discard(table.id)
            return table, seat, token
        raise Refused("busy", "the tables were all taken while you were being seated: try again")

    async def tutorial(
        self, game: str, name: object, creator: str | None = None, user: User | None = None
    ) -> tuple[LiveTable, int, str]:
        """The guided first hand of ``game`` (a game's name, a variant or a spec): a new private table, without
        spectators, with the coach on, the person in seat 0 and an ``easy`` bot in every other seat (their pace
        slowed to be followed), dealt from the game's tutorial deal (:data:`TUTORIAL_SEED`: the same hands every
        time, so the coach's first hand is always the same; the seed is the server's, never a client's). Counted as
        a table made by ``creator``, as any table."""
        tidy = user.name if user is not None else check_name(name)
        info, options = resolve(game)
        bot = TUTORIAL_BOT if TUTORIAL_BOT in bot_names(info.name) else None
        seats = [SeatRequest("person"), *[SeatRequest("bot", bot)] * (info.n_seats(options) - 1)]
        settings = TableSettings(public=False, spectators=False, bot_delay=TUTORIAL_PACE, coach=True)
        table = await self.create_table(
            spec_of(info.name, options), seats, settings, seed=TUTORIAL_SEED, creator=creator
        )
        seat, token = await self.join(table, tidy, 0, user)
        return table, seat, token

    def quick_elsewhere(self, game: object, listed: Iterable[tuple[float, JsonObject]]) -> str | None:
        """Where several processes serve the site: the table another process lists that quick play for ``game``
        should seat the person at (the one waiting longest, with a free person's seat, public and not rated, of the
        game or exactly the rules asked, as :meth:`quickplay` chooses here), or None where this process has such a
        table itself, none is listed, or ``game`` names no game (refused here, in words)."""
        if not isinstance(game, str) or len(game) > 200:
            return None
        try:
            info, options = resolve(game)
        except ClubsError:
            return None
        wanted = spec_of(info.name, options)
        exact = split_spec(game) != (info.name, {})
        if self._quick_tables(info.name, wanted if exact else None):
            return None
        fits = [
            (created, str(entry["id"]))
            for created, entry in listed
            if entry.get("waiting")
            and entry.get("free_seats")
            and not entry.get("over")
            and _public_unrated(entry.get("settings"))
            and isinstance(entry.get("game"), str)
            and (entry["game"] == wanted if exact else split_spec(str(entry["game"]))[0] == info.name)
        ]
        return min(fits)[1] if fits else None

    def _quick_tables(self, game: str, spec: str | None) -> list[LiveTable]:
        """The public tables of ``game`` (with rules ``spec``; None: any) waiting for players, in the order quick
        play tries them."""
        found = [
            t
            for t in self.tables.values()
            if t.settings.public
            and t.waiting
            and not t.closed
            and t.info.name == game
            and (spec is None or t.spec == spec)
            and t.id not in self._claimed
            and not t.settings.rated
        ]
        found.sort(key=lambda t: (t.id not in self._quick, t.created_at))
        return found

    async def leave(self, table: LiveTable, token: str) -> int:
        """Give up the seat ``token`` holds; its bot plays it until someone else takes it."""
        return await unstoppable(self._leave(table, token))

    async def _leave(self, table: LiveTable, token: str) -> int:
        async with table.lock:
            if table.closed:
                raise Refused("no_table", "that table was closed")
            seat_no = self.seat_of(table, token)
            if seat_no is None:
                raise Refused("bad_token", "that token holds no seat at this table")
            seat = table.seats[seat_no]
            await self._note_leaver(table, seat)
            seat.name = seat.token_hash = seat.user_id = None
            seat.away_since = None
            await self.db(self.store.update_seat, table.id, seat.row())
            for conn in list(table.connections):
                if conn.seat == seat_no:
                    conn.send({"type": "bye", "protocol": 1, "reason": "you left the seat"})
                    conn.send_close()
        table.broadcast_presence()
        table.reschedule()
        return seat_no

    async def claim(self, tokens: list[str], user_id: str) -> list[dict[str, Any]]:
        """Make the seats these tokens hold the account's (a guest signing up keeps their tables); a seat another
        account holds, or at a rated table where the account already sits, is left as it is. The seats claimed,
        as ``{"table", "seat"}``."""
        claimed: list[dict[str, Any]] = []
        for token in tokens[:TOKENS_CLAIMED]:
            if not isinstance(token, str) or not 1 <= len(token) <= 200:
                continue
            for table in list(self.tables.values()):
                seat_no = self.seat_of(table, token)
                if seat_no is None:
                    continue
                async with table.lock:
                    seat = table.seats[seat_no]
                    if table.closed or seat.user_id not in (None, user_id) or self.seat_of(table, token) != seat_no:
                        break
                    if table.settings.rated and any(s.user_id == user_id and s.seat != seat_no for s in table.seats):
                        break
                    seat.user_id = user_id
                    await self.db(self.store.update_seat, table.id, seat.row())
                claimed.append({"table": table.id, "seat": seat_no})
                break
        return claimed

    async def _note_leaver(self, table: LiveTable, seat: SeatState) -> None:
        """An account leaving a rated match in play (begun: an action made) finishes it last (under the table's
        lock)."""
        if table.settings.rated and seat.user_id is not None and table.logged and not table.match.is_over:
            await self.db(self.store.add_leaver, table.id, table.match_no, seat.seat, seat.user_id, time.time())

    async def give_up_seats_of(self, user_id: str) -> None:
        """Give up every seat the account holds at an open table (its bot plays on), as when deleting it."""
        for table in list(self.tables.values()):
            async with table.lock:
                held = [s for s in table.seats if s.user_id == user_id and s.token_hash is not None]
                for seat in held:
                    await self._note_leaver(table, seat)
                    seat.name = seat.token_hash = seat.user_id = None
                    seat.away_since = None
                    await self.db(self.store.update_seat, table.id, seat.row())
                    for conn in list(table.connections):
                        if conn.seat == seat.seat:
                            conn.send({"type": "bye", "protocol": 1, "reason": "the account was deleted"})
                            conn.send_close()
            if held:
                table.broadcast_presence()
                table.reschedule()

    async def rematch(self, table: LiveTable, token: str) -> None:
        """Start the next match with the same seats; asked for by a seated player."""
        if self.seat_of(table, token) is None:
            raise Refused("bad_token", "only a seated player may ask for a rematch")
        await table.rematch()

    async def closed_record(self, table_id: str, match_no: int | None, invite: str | None) -> str:
        """The stored record of a finished match of a table no longer served (closed, its records kept), as
        :meth:`record` gives a live table's: a private table's only with its invite code (otherwise it answers as if
        it did not exist), so that a player's history keeps its links after the table has closed."""
        row = await self.db(self.store.table, table_id) if len(table_id) <= 40 else None
        public = row is not None and bool(row.settings.get("public", True))
        known = row is not None and invite is not None and same_hash(hash_token(row.invite), hash_token(invite))
        if row is None or not (public or known):
            raise Refused("no_table", f"there is no table {quoted(table_id, 40)}")
        return await self._stored(table_id, match_no)

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


def _public_unrated(settings: object) -> bool:
    """A listed table's settings say it is public and not rated (quick play never seats anyone at a rated table)."""
    return isinstance(settings, dict) and settings.get("public") is True and not settings.get("rated")
