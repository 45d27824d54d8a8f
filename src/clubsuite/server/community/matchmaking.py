"""Matchmaking: "Play rated" puts an account in a queue per game and seat count; people of close rating are seated
together at a new rated table, within a window that widens while they wait; after a set time the rest of the seats
go to the bot levels whose ratings are nearest.

The queue lives in the server's memory (a restart empties it: the page asks again). A ticket is the account's own:
one per account, found again by the session, and the seat token of the table it was seated at is handed to that
account only, once. Matching runs every second on the event loop; it is a sort and a scan of a few hundred entries
at most (the queue is bounded), and the tables it makes are made as any other. Two people of whom one blocked the
other are never seated together (``people.relations``).

Requests at once: the queue is changed only on the event loop, and every check and the change it guards are made
with no wait between them (a rating is read from the database before, never between), so two joins at once by one
account make one ticket and the queue never holds more than :data:`QUEUE_MAX`. A ticket being seated (its table is
being made) is marked so first: leaving then is refused, since the seat is already the account's, and the seat is
handed over as any other; a ticket that left before its group was seated is not seated.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from clubsuite.bots.base import bot_names
from clubsuite.bots.calibrated import calibrated
from clubsuite.bots.levels import LEVELS
from clubsuite.engine import resolve
from clubsuite.jsonform import JsonObject
from clubsuite.options import spec_of
from clubsuite.ratings import START, Skill, pool, shown
from clubsuite.server.community.ticking import Ticker
from clubsuite.server.people.accounts import User
from clubsuite.server.store import players
from clubsuite.server.store.dbschema import SeatKind
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings

log = logging.getLogger("clubsuite.server")

WINDOW_START = 100
"""The widest gap of shown ratings between two people seated together, at first."""
WINDOW_GROWTH = 25
"""How much the window widens for every second of waiting (after 20 s: 600)."""
WINDOW_MAX = 1000
"""The window stops widening here."""
BOTS_AFTER = 30.0
"""Seconds a person waits for people before the table is filled with bots."""
QUEUE_MAX = 500
"""Tickets the queue holds at once."""
TICK = 1.0
"""Seconds between two matching rounds."""


@dataclass
class Ticket:
    """One account waiting to be seated."""

    user: User
    spec: str
    game: str
    seats: int
    rating: int
    since: float
    address: str
    seated: JsonObject | None = None
    """Once seated: the table, seat and token (handed over once)."""
    seating: bool = False
    """Its table is being made: it can no longer leave, nor be put in another group."""
    failed: str | None = None
    """Why seating failed (told once), if it did."""

    def window(self, now: float) -> float:
        """The widest rating gap this ticket accepts now."""
        return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * (now - self.since))


class Matchmaker(Ticker):
    """The rated queue of one server (matching every :data:`TICK` seconds once started)."""

    every = TICK
    what = "matchmaking round"

    def __init__(self, database: Database, hub: Hub, bots_after: float = BOTS_AFTER) -> None:
        self.database = database
        """The ratings the queue pairs people by."""
        self.hub = hub
        """The tables the queue seats people at."""
        self.bots_after = bots_after
        self.tickets: dict[str, Ticket] = {}

    async def round(self) -> None:
        """One round of matching (:meth:`match` now)."""
        await self.match(time.time())

    async def join(self, user: User, game: str, address: str) -> Ticket:
        """Queue ``user`` for a rated table of ``game`` (a game, variant or spec; its seat count from its options)."""
        info, options = resolve(game)
        spec = spec_of(info.name, options)
        self._may_join(user)
        skill = await players.skill_of(self.database, f"user:{user.id}", pool(info, options))
        self._may_join(user)  # again, with no wait before the ticket is added: another join may have come meanwhile
        ticket = Ticket(user, spec, info.name, info.n_seats(options), shown(skill)[0], time.time(), address)
        self.tickets[user.id] = ticket
        return ticket

    def _may_join(self, user: User) -> None:
        """Refuse a join by an account already waiting (or being seated), or when the queue is full."""
        if user.id in self.tickets and self.tickets[user.id].seated is None:
            raise Refused("already_queued", "you are already waiting for a rated table: leave that queue first")
        if len(self.tickets) >= QUEUE_MAX:
            raise Refused("busy", "the rated queue is full just now: try again in a minute")

    def leave(self, user: User) -> bool:
        """Take ``user`` out of the queue; whether they were in it (False too while their table is being made: the
        seat is theirs, and ``GET /rated/queue`` hands it over)."""
        ticket = self.tickets.get(user.id)
        if ticket is None or ticket.seating:
            return False
        del self.tickets[user.id]
        return True

    def status(self, user: User) -> JsonObject:
        """Where ``user`` stands: not queued, waiting (since when, the window, how many wait for the same table),
        seated (the table, seat and token: handed over once, then the ticket is gone) or failed (why)."""
        ticket = self.tickets.get(user.id)
        if ticket is None:
            return {"status": "none"}
        if ticket.seated is not None:
            del self.tickets[user.id]
            return {"status": "seated", **ticket.seated}
        if ticket.failed is not None:
            del self.tickets[user.id]
            return {"status": "failed", "message": ticket.failed}
        now = time.time()
        alike = sum(1 for t in self.tickets.values() if t.spec == ticket.spec and t.seated is None)
        return {
            "status": "waiting",
            "game": ticket.spec,
            "rating": ticket.rating,
            "since": ticket.since,
            "window": round(ticket.window(now)),
            "waiting": alike,
            "bots_in": max(0.0, round(self.bots_after - (now - ticket.since), 1)),
        }

    async def match(self, now: float) -> None:
        """One round: seat every group of close ratings that fills a table, then fill with bots the tables of those
        who have waited long enough."""
        by_spec: dict[str, list[Ticket]] = {}
        for t in self.tickets.values():
            if t.seated is None and t.failed is None:
                by_spec.setdefault(t.spec, []).append(t)
        relations = self.hub.relations
        waiting_ids = [t.user.id for ts in by_spec.values() for t in ts]
        apart = await relations.apart(waiting_ids) if relations is not None else set()

        def clear(group: list[Ticket]) -> bool:
            """No one of the group blocked another of it."""
            ids = [t.user.id for t in group]
            return not any(frozenset((a, b)) in apart for k, a in enumerate(ids) for b in ids[k + 1 :])

        for waiting in by_spec.values():
            waiting.sort(key=lambda t: t.rating)
            by_age = sorted(waiting, key=lambda t: t.since)
            n = waiting[0].seats
            i = 0
            while i + n <= len(waiting):
                group = waiting[i : i + n]
                gap = group[-1].rating - group[0].rating
                if all(gap <= t.window(now) for t in group) and clear(group):
                    await self._seat(group, [])
                    del waiting[i : i + n]
                else:
                    i += 1
            for t in by_age:  # the longest waiting first: they are served first
                if t not in waiting or now - t.since < self.bots_after:
                    continue
                close = [u for u in waiting if u is not t and abs(u.rating - t.rating) <= t.window(now)]
                close.sort(key=lambda u: abs(u.rating - t.rating))
                people = [t]
                for u in close:
                    if len(people) < n and clear([*people, u]):
                        people.append(u)
                await self._seat(people, await self._nearest_bots(t, n - len(people)))
                for u in people:
                    waiting.remove(u)

    async def _nearest_bots(self, ticket: Ticket, count: int) -> list[str]:
        """The bot levels whose ratings are nearest the ticket's (each may come several times)."""
        info, options = resolve(ticket.spec)
        known = set(bot_names(info.name))
        levels = [level for level in LEVELS if level in known]
        if not levels:
            return ["random"] * count
        pool_name = pool(info, options)
        start = calibrated(pool_name)
        gaps = []
        for level in levels:
            skill = await players.skill_of(self.database, f"bot:{level}", pool_name)
            if skill == START and level in start:  # no rated match yet: where its calibration put it
                skill = Skill(*start[level])
            gaps.append((abs(shown(skill)[0] - ticket.rating), level))
        best = min(gaps)[1]
        return [best] * count

    async def _seat(self, people: list[Ticket], bots: list[str]) -> None:
        """Make a rated table for ``people`` (seats in the order of their waiting) and ``bots``, and seat them.

        The group was chosen from the tickets as they were when the round began, and the round may have waited
        since (another table being made, a rating read): a ticket that has left the queue meanwhile is not seated,
        and the group waits for the next round. The group's tickets are marked as being seated before the first
        wait, so that none leaves, or joins another group, while its seat is being made."""
        if any(self.tickets.get(t.user.id) is not t or t.seating for t in people):
            return
        for t in people:
            t.seating = True
        try:
            await self._make(people, bots)
        finally:
            for t in people:
                t.seating = False

    async def _make(self, people: list[Ticket], bots: list[str]) -> None:
        """The table of :meth:`_seat`, its seats taken for ``people``."""
        first = people[0]
        seats = [SeatRequest(SeatKind.PERSON)] * len(people) + [SeatRequest(SeatKind.BOT, b) for b in bots]
        try:
            table = await self.hub.create_table(
                first.spec, seats, TableSettings(rated=True, bot_delay=0.5), creator=first.address
            )
            for i, t in enumerate(people):
                seat, token = await self.hub.seating.join(table, None, i, t.user)
                t.seated = {"table": table.id, "seat": seat, "token": token}
        except Refused as exc:
            for t in people:
                if t.seated is None:
                    t.failed = str(exc)
            return
        log.info("matchmaking: table %s for %d people and %d bots", table.id, len(people), len(bots))
