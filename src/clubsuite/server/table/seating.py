"""Seating people at the hub's tables: joining (by a name, or as an account), quick play, the guided first hand,
leaving, a rematch, a guest's seats claimed by their new account, an account's seats given up.

:class:`Seating` works on any :class:`TableKeeper` (the :class:`~clubsuite.server.table.hub.Hub` in the server):
the hub keeps the tables and their lifecycle, this module decides who sits where. A seat changes under its table's
lock, written to the store before it counts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, TypeVarTuple

from clubsuite.bots.base import bot_names
from clubsuite.engine import resolve
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.lesson import tutorial_seed
from clubsuite.options import spec_of, split_spec
from clubsuite.server.people.accounts import User
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import SeatKind
from clubsuite.server.table.live import LiveTable, Refused, SeatState, unstoppable
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.tokens import check_name, hash_token, looks_alike, new_token

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
log = logging.getLogger("clubsuite.server")
QUICK_BOT = "normal"
"""The bot in every other seat of a table quick play makes."""
QUICK_TRIES = 3
"""How many times quick play looks again when the seat it chose was taken meanwhile."""
TOKENS_CLAIMED = 20
"""Seat tokens one request may bring to an account."""
TUTORIAL_BOT = "easy"
"""The level of the bots a newcomer meets in the guided first hand."""
TUTORIAL_PACE = 1.5
"""Seconds a bot of the guided first hand waits before it plays, so that a newcomer follows every card."""


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for when a table is made: a person's seat (taken later with a name) or a bot's."""

    kind: SeatKind
    bot: str | None = None
    name: str | None = None
    """A bot's own name (a club night's bot entrant); None: the table names it."""


class TableKeeper(Protocol):
    """What seating needs of the tables' keeper: its tables, its store and database thread, finding a seat by its
    token, and making a table."""

    store: Store
    tables: dict[str, LiveTable]

    async def db(self, call: Callable[[*Ts], T], *args: *Ts) -> T: ...

    def seat_of(self, table: LiveTable, token: str) -> int | None: ...

    async def create_table(
        self,
        game: str,
        seats: Sequence[SeatRequest],
        settings: TableSettings,
        seed: int | None = None,
        creator: str | None = None,
    ) -> LiveTable: ...


class Seating:
    """Who sits where at ``hub``'s tables (see the module's docstring)."""

    def __init__(self, hub: TableKeeper) -> None:
        self.hub = hub
        self.quick: set[str] = set()
        """Tables quick play made (quick play seats people at these first)."""
        self.claimed: set[str] = set()
        """Tables quick play has just made, whose first seat is kept for the person who asked (no other quick play
        request is seated there meanwhile)."""

    def forget(self, table_id: str) -> None:
        """A table is no longer served here (closed, or moved to another process)."""
        self.quick.discard(table_id)

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
            if table.settings.turn_based and user_id is None:
                raise Refused(
                    "account_needed",
                    "a turn-based table seats players with an account (its clocks and reminders are theirs): sign in "
                    "first",
                )
            if table.settings.turn_based and any(s.user_id == user_id for s in table.seats):
                raise Refused("already_seated", "you already hold a seat at this turn-based table")
            if table.settings.rated and any(s.user_id == user_id for s in table.seats):
                raise Refused("already_seated", "you already hold a seat at this rated table")
            if table.settings.rated and not table.waiting and not table.match.is_over:
                raise Refused(
                    "rated_in_play", "a rated match is being played here: its free seat can be taken when it ends"
                )
            free = [s for s in table.seats if s.kind == SeatKind.PERSON and s.token_hash is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise Refused("seat_taken", f"seat {seat} is not a free person's seat at this table")
            if not free:
                raise Refused("table_full", "this table has no free seat")
            chosen = free[0]
            for other in table.seats:
                if other.kind == SeatKind.PERSON and other.name is not None and looks_alike(other.name, tidy):
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
                await self.hub.db(self.hub.store.update_seat, table.id, chosen.row())
            except Exception:
                chosen.name = chosen.token_hash = chosen.user_id = None
                raise
            if was_waiting and not table.waiting:
                table.turn_started = time.time()  # everyone is here: the clock starts now
        log.info("table %s: seat %d taken", table.id, chosen.seat)
        table.broadcast_presence()
        table.reschedule()
        table.turned()  # at a turn-based table: the new player's seat and, play begun, the first clock
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
            seats = [SeatRequest(SeatKind.PERSON), *[SeatRequest(SeatKind.BOT, bot)] * (info.n_seats(options) - 1)]
            table = await self.hub.create_table(wanted, seats, TableSettings(), creator=creator)
            self.quick.add(table.id)
            self.claimed.add(table.id)
            try:
                seat, token = await self.join(table, tidy, 0, user)
            except Refused as exc:
                if exc.code != "seat_taken":  # someone who saw it listed took the seat first: look again
                    raise
                continue
            finally:
                self.claimed.discard(table.id)
            return table, seat, token
        raise Refused("busy", "the tables were all taken while you were being seated: try again")

    async def tutorial(
        self, game: str, name: object, creator: str | None = None, user: User | None = None
    ) -> tuple[LiveTable, int, str]:
        """The guided first hand of ``game`` (a game's name, a variant or a spec): a new private table, without
        spectators, with the coach on, the person in seat 0 and an ``easy`` bot in every other seat (their pace
        slowed to be followed), dealt from the game's lesson's deal (:func:`clubsuite.lesson.tutorial_seed`): the
        same hands every time, so that the scripted first hand is always the same; the seed is the server's, never a
        client's. Counted as a table made by ``creator``, as any table."""
        tidy = user.name if user is not None else check_name(name)
        info, options = resolve(game)
        bot = TUTORIAL_BOT if TUTORIAL_BOT in bot_names(info.name) else None
        seats = [SeatRequest(SeatKind.PERSON), *[SeatRequest(SeatKind.BOT, bot)] * (info.n_seats(options) - 1)]
        settings = TableSettings(public=False, spectators=False, bot_delay=TUTORIAL_PACE, coach=True)
        seed = tutorial_seed(info)
        table = await self.hub.create_table(spec_of(info.name, options), seats, settings, seed=seed, creator=creator)
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
            for t in self.hub.tables.values()
            if t.settings.public
            and t.waiting
            and not t.closed
            and t.info.name == game
            and (spec is None or t.spec == spec)
            and t.id not in self.claimed
            and not t.settings.rated
        ]
        found.sort(key=lambda t: (t.id not in self.quick, t.created_at))
        return found

    async def leave(self, table: LiveTable, token: str) -> int:
        """Give up the seat ``token`` holds; its bot plays it until someone else takes it."""
        return await unstoppable(self._leave(table, token))

    async def _leave(self, table: LiveTable, token: str) -> int:
        async with table.lock:
            if table.closed:
                raise Refused("no_table", "that table was closed")
            seat_no = self.hub.seat_of(table, token)
            if seat_no is None:
                raise Refused("bad_token", "that token holds no seat at this table")
            seat = table.seats[seat_no]
            await self._note_leaver(table, seat)
            seat.name = seat.token_hash = seat.user_id = None
            seat.away_since = None
            await self.hub.db(self.hub.store.update_seat, table.id, seat.row())
            for conn in list(table.connections):
                if conn.seat == seat_no:
                    conn.send({"type": "bye", "protocol": 1, "reason": "you left the seat"})
                    conn.send_close()
        table.broadcast_presence()
        table.reschedule()
        table.turned()  # at a turn-based table: the seat leaves its player's list
        return seat_no

    async def token_for(self, table: LiveTable, user_id: str, wanted: int | None = None) -> tuple[int, str]:
        """The seat the account ``user_id`` holds at ``table`` (``wanted`` where it holds that one, else its lowest)
        with a fresh
        token, which replaces the seat's old one: how an account's seat is reached from any page or process without
        the token that took it (a tournament's director takes its entrants' seats and keeps no token). Sockets
        already open at the seat stay; the old token opens nothing more. :class:`Refused` (``no_seat``) where it
        holds none, alike whether the table is there (a private table's id tells nothing)."""
        return await unstoppable(self._token_for(table, user_id, wanted))

    async def _token_for(self, table: LiveTable, user_id: str, wanted: int | None) -> tuple[int, str]:
        async with table.lock:
            held = [s for s in table.seats if s.kind == SeatKind.PERSON and s.user_id == user_id and s.token_hash]
            if table.closed or not held:
                raise Refused("no_seat", "your account holds no seat at that table")
            seat = next((s for s in held if s.seat == wanted), held[0])
            token, before = new_token(), seat.token_hash
            seat.token_hash = hash_token(token)
            try:
                await self.hub.db(self.hub.store.update_seat, table.id, seat.row())
            except Exception:
                seat.token_hash = before
                raise
        log.info("table %s: seat %d handed to its account again", table.id, seat.seat)
        return seat.seat, token

    async def claim(self, tokens: list[str], user_id: str) -> list[JsonObject]:
        """Make the seats these tokens hold the account's (a guest signing up keeps their tables); a seat another
        account holds, or at a rated table where the account already sits, is left as it is. The seats claimed,
        as ``{"table", "seat"}``."""
        claimed: list[JsonObject] = []
        for token in tokens[:TOKENS_CLAIMED]:
            if not isinstance(token, str) or not 1 <= len(token) <= 200:
                continue
            for table in list(self.hub.tables.values()):
                seat_no = self.hub.seat_of(table, token)
                if seat_no is None:
                    continue
                async with table.lock:
                    seat = table.seats[seat_no]
                    if table.closed or seat.user_id not in (None, user_id) or self.hub.seat_of(table, token) != seat_no:
                        break
                    if table.settings.rated and any(s.user_id == user_id and s.seat != seat_no for s in table.seats):
                        break
                    seat.user_id = user_id
                    await self.hub.db(self.hub.store.update_seat, table.id, seat.row())
                claimed.append({"table": table.id, "seat": seat_no})
                break
        return claimed

    async def _note_leaver(self, table: LiveTable, seat: SeatState) -> None:
        """An account leaving a rated match in play (begun: an action made) finishes it last (under the table's
        lock)."""
        if table.settings.rated and seat.user_id is not None and table.logged and not table.match.is_over:
            await self.hub.db(self.hub.store.add_leaver, table.id, table.match_no, seat.seat, seat.user_id, time.time())

    async def give_up_seats_of(self, user_id: str) -> None:
        """Give up every seat the account holds at an open table (its bot plays on), as when deleting it."""
        for table in list(self.hub.tables.values()):
            async with table.lock:
                held = [s for s in table.seats if s.user_id == user_id and s.token_hash is not None]
                for seat in held:
                    await self._note_leaver(table, seat)
                    seat.name = seat.token_hash = seat.user_id = None
                    seat.away_since = None
                    await self.hub.db(self.hub.store.update_seat, table.id, seat.row())
                    for conn in list(table.connections):
                        if conn.seat == seat.seat:
                            conn.send({"type": "bye", "protocol": 1, "reason": "the account was deleted"})
                            conn.send_close()
            if held:
                table.broadcast_presence()
                table.reschedule()

    async def rematch(self, table: LiveTable, token: str) -> None:
        """Start the next match with the same seats; asked for by a seated player."""
        if self.hub.seat_of(table, token) is None:
            raise Refused("bad_token", "only a seated player may ask for a rematch")
        await table.rematch()


def _public_unrated(settings: object) -> bool:
    """A listed table's settings say it is public and not rated (quick play never seats anyone at a rated table)."""
    return isinstance(settings, dict) and settings.get("public") is True and not settings.get("rated")
