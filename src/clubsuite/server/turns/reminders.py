"""What reaches a player who is away from a turn-based table (docs/server.md, "Reminders"): a "your turn" notice on
the site's pages, a Web Push to each of the account's browsers (at most ``push_per_day`` in 24 hours, held back
through the player's night and vacations), and a daily e-mail digest of the tables waiting for them. Every push and
mail goes through the outbox (:mod:`~clubsuite.server.turns.outbox`): kept in the database until delivered,
retried with back-off, delivered by one process.

:class:`Reminders` is the one service: the keeper of the tables' clocks calls :meth:`Reminders.your_turn` when a
person's turn begins, the routes (:mod:`~clubsuite.server.http.reminder_routes`) its settings' methods, and its
loop (:meth:`Reminders.start`) makes the digests due and delivers the outbox every ``sweep_every`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from typing import TypeVar

from py_vapid import Vapid02
from sqlalchemy import Column, and_, exists, select, update
from sqlalchemy.engine import Connection

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.server.people.notices import NoticeKind, Notices
from clubsuite.server.store.dbschema import push_subscriptions, tables, turn_prefs, turn_seats, turn_tables, users
from clubsuite.server.store.handle import Database
from clubsuite.server.turns import mail, push
from clubsuite.server.turns.clock import paused, resumes
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.dbclock import DbClock
from clubsuite.server.turns.keeper import MatchEnd
from clubsuite.server.turns.outbox import AT_ONCE, BATCH, Letter, Outbox, Outcome, enqueue
from clubsuite.server.turns.players import (
    DAY,
    HOUR,
    PlayerRefused,
    Players,
    TurnPrefs,
    Vacation,
    check_changes,
    days_left,
    ensure_prefs,
    prefs_in,
    vacations_of,
)

log = logging.getLogger("clubsuite.server.turns")
T = TypeVar("T")

TITLE_MAX = 200
"""The longest table name a reminder carries."""
CONFIRMS_PER_DAY = 3
"""Confirming mails one account may have sent in 24 hours."""
DIGEST_AFTER = HOUR
"""A table is in a digest once the player's turn there is this old."""
DIGEST_SCAN = 200
"""Accounts one sweep looks at for a digest (the next sweep goes on from the last one)."""
ROUNDS = 4
"""Outbox batches one sweep delivers at most."""


def title_of(game: str, host: str | None) -> str:
    """A table's name in words from its game and its host: ``Ann's CLUBS``."""
    from clubsuite.engine import find_game
    from clubsuite.naming import game_words

    try:
        title = game_words(find_game(game)[0]).title
    except ClubsError:
        title = game
    return f"{host}'s {title}" if host else title


def waiting_for(conn: Connection, user_id: str, now: float) -> list[mail.Waiting]:
    """The tables whose clock runs for the account (the one to move there), soonest deadline first."""
    host = users.alias("host")
    rows = conn.execute(
        select(turn_tables.c.deadline, tables.c.game, host.c.name)
        .join(tables, tables.c.id == turn_tables.c.table_id)
        .outerjoin(host, host.c.id == turn_tables.c.host_id)
        .where(
            turn_tables.c.user_id == user_id,
            turn_tables.c.deadline.is_not(None),
            turn_tables.c.adjourned.is_(False),
            turn_tables.c.ended.is_(None),
        )
        .order_by(turn_tables.c.deadline)
        .limit(mail.LINES_MAX + 1000)
    ).all()
    return [mail.Waiting(title_of(r.game, r.name), float(r.deadline) - now) for r in rows]


class Reminders:
    """The reminders of every account, over the store, delivered by this process's node."""

    def __init__(self, database: Database, notices: Notices, config: TurnConfig, clock: DbClock, node: str) -> None:
        self.database = database
        self.notices = notices
        self.config = config
        self.clock = clock
        self.node = node
        self.players = Players(database, config, clock)
        self.outbox = Outbox(database, clock, node, self._deliver, self._gone)
        self.on_hours_changed: Callable[[str], Awaitable[None]] | None = None
        """Called with an account's id after its zone, playing hours or vacations changed (its clocks change)."""
        self._key: Vapid02 | None = None
        self._threads = ThreadPoolExecutor(max_workers=AT_ONCE, thread_name_prefix="clubs-remind")
        """Where pushes and mails are sent: never the event loop, never the database's threads."""
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._stopping = False
        self._cursor = ""
        """The last account the digests' scan looked at."""

    # -- the loop -------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Begin the loop: a sweep every ``sweep_every`` seconds, or soon after a reminder is queued."""
        self._stopping = False
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="clubs-reminders")

    async def stop(self) -> None:
        """End the loop (a delivery under way is finished first: its row is settled, not left claimed)."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def _loop(self) -> None:
        while not self._stopping:
            try:
                await self.sweep()
            except Exception:
                log.exception("the reminders' sweep failed; trying again at the next")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.config.sweep_every)

    async def sweep(self) -> None:
        """One round: the digests due queued, then the outbox delivered (a few batches at most)."""
        if self.config.mail_on:
            await self.database.write(self._digests_due)
        for _ in range(ROUNDS):
            if self._stopping or await self.outbox.round() < BATCH:
                break

    async def _off_loop(self, call: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._threads, call)

    # -- a turn begins, a match ends -------------------------------------------------------------------------------
    async def your_turn(
        self,
        user_id: str,
        table_id: str,
        title: str,
        version: int,
        connected: bool,
        words: JsonObject | None = None,
    ) -> None:
        """A person's turn began at a turn-based table (``version``: the table's then). At most one reminder per
        (table, version), recorded in ``turn_seats.reminded`` where the seat's row is; nothing when ``connected``
        (the player has the table open). Otherwise, by the account's switches: a page notice (kind ``turn``, in
        place of the table's last one), and a push to each subscription unless ``push_per_day`` were sent in the
        last 24 hours, held until the player's playing hours resume (and any vacation ends)."""
        if connected:
            return
        title = title[:TITLE_MAX]
        payload: JsonObject = {"kind": "your_turn", "table": table_id, "title": title, "url": self._url(table_id)}
        body: JsonObject = {"table": table_id, "title": title}
        await self._remind(user_id, table_id, (turn_seats.c.reminded, version), "turn", body, payload, words)

    async def match_over(self, end: MatchEnd) -> None:
        """A match at a turn-based table ended (by its rules, or by a clock run out where its maker chose so): a
        player away then is told once per match (recorded in ``turn_seats.told_end``), by a page notice (kind
        ``match_over``) and a push, by the account's switches as :meth:`your_turn`, with their ``standing``
        (``place``, 1 the best, among the ``of`` sides that played, and whether they ``won``); nothing to one who
        saw the end at the table (but the note that they know, so that they are not told when the table is next
        woken). No turn waits at the table now: its ``turn`` notice goes in any case."""
        await self.turn_over(end.user_id, end.table_id)
        said: JsonObject = {"table": end.table_id, "title": end.title[:TITLE_MAX], **end.standing}
        payload: JsonObject = {"kind": "match_over", **said, "url": self._url(end.table_id)}
        once = (turn_seats.c.told_end, end.match_no)
        await self._remind(end.user_id, end.table_id, once, "match_over", said, payload, end.words, quiet=end.saw)

    def _url(self, table_id: str) -> str:
        return f"{self.config.site_url.rstrip('/')}/tables/{table_id}"

    async def _remind(
        self,
        user_id: str,
        table_id: str,
        once: tuple[Column[int], int],
        kind: NoticeKind,
        body: JsonObject,
        payload: JsonObject,
        words: JsonObject | None,
        quiet: bool = False,
    ) -> None:
        """Tell an account something of a table once, across processes: ``once`` is the column of its seat's row
        that records what it was last told and the value it is told of now. By its switches: a page notice of
        ``kind`` with ``body``, and a push of ``payload`` (a ``your_turn`` one names the player). ``quiet``: it
        knows already (only the record is written)."""
        told, value = once

        def work(conn: Connection) -> bool:
            now = self.clock.now_in(conn)
            mine = and_(turn_seats.c.table_id == table_id, turn_seats.c.user_id == user_id)
            seat = conn.execute(select(told).where(mine)).first()
            if seat is not None:
                done = conn.execute(
                    update(turn_seats).where(mine, told.is_(None) | (told != value)).values({told.name: value})
                )
                if not done.rowcount:
                    return False
            if quiet:
                return False
            prefs = prefs_in(conn, user_id)
            if prefs.push and self.config.push_on:
                self._queue_push(conn, user_id, table_id, payload, prefs, now)
            return prefs.page

        if await self.database.write(work):
            if words is not None:  # the name's parts, for a page to word it in its reader's language
                body = {**body, "name_words": words}
            await self.notices.add(user_id, kind, body, replacing={"table": table_id})
        self._wake.set()

    def _queue_push(
        self, conn: Connection, user_id: str, table_id: str, payload: JsonObject, prefs: TurnPrefs, now: float
    ) -> None:
        subs = conn.execute(
            select(push_subscriptions.c.id).where(push_subscriptions.c.user_id == user_id).order_by("created_at")
        ).all()
        if not subs:
            return
        ensure_prefs(conn, user_id)
        row = conn.execute(
            select(turn_prefs.c.push_count, turn_prefs.c.push_window).where(turn_prefs.c.user_id == user_id)
        ).one()
        count, window = _this_day(int(row.push_count), row.push_window, now)
        if count >= prefs.push_per_day:
            return
        conn.execute(
            update(turn_prefs).where(turn_prefs.c.user_id == user_id).values(push_count=count + 1, push_window=window)
        )
        if payload["kind"] == "your_turn":
            name = conn.execute(select(users.c.name).where(users.c.id == user_id)).scalar() or ""
            payload = {**payload, "turn_of": str(name)}
        at = resumes(now, prefs.hours, vacations_of(conn, user_id, now))
        for sub in subs:
            enqueue(conn, "push", user_id, sub.id, {"payload": payload, "table": table_id}, now, at)

    async def turn_over(self, user_id: str, table_id: str) -> None:
        """The account's turn at the table is over: its ``turn`` notice of that table goes."""
        await self.notices.drop([user_id], "turn", {"table": table_id})

    # -- delivery ---------------------------------------------------------------------------------------------------
    async def _vapid(self) -> Vapid02:
        if self._key is None:
            self._key = await self.database.write(push.server_key)
        return self._key

    async def push_key(self) -> str | None:
        """The application server key browsers subscribe with, or None where push is not offered."""
        if not self.config.push_on:
            return None
        return push.application_server_key(await self._vapid())

    async def _deliver(self, letter: Letter) -> Outcome:
        if letter.kind == "push":
            return await self._deliver_push(letter)
        return await self._deliver_mail(letter)

    async def _deliver_push(self, letter: Letter) -> Outcome:
        contact = self.config.push_contact
        if contact is None:
            return Outcome("drop")

        def check(conn: Connection) -> push.Subscription | Outcome:
            row = conn.execute(select(push_subscriptions).where(push_subscriptions.c.id == letter.target)).first()
            prefs = prefs_in(conn, letter.user_id)
            if row is None or row.user_id != letter.user_id or not prefs.push:
                return Outcome("drop")
            turn = conn.execute(
                select(turn_tables.c.user_id, turn_tables.c.ended).where(
                    turn_tables.c.table_id == letter.body.get("table")
                )
            ).first()
            stale = turn is not None and (turn.user_id != letter.user_id or turn.ended is not None)
            if stale and _kind(letter) == "your_turn":
                return Outcome("drop")  # the player moved meanwhile (or the match ended): no stale reminder
            now = self.clock.now_in(conn)
            spans = vacations_of(conn, letter.user_id, now)
            if paused(now, prefs.hours, spans) is not None:
                return Outcome("later", resumes(now, prefs.hours, spans))
            return push.Subscription(row.endpoint, row.p256dh, row.auth)

        found = await self.database.reading(check)
        if isinstance(found, Outcome):
            return found
        key = await self._vapid()
        payload = letter.body["payload"]
        result = await self._off_loop(lambda: push.send(found, payload, key, contact, self.config))
        return Outcome(result)

    async def _deliver_mail(self, letter: Letter) -> Outcome:
        if not self.config.mail_on:
            return Outcome("drop")
        what = letter.body.get("what")

        def prepare(conn: Connection) -> EmailMessage | None:
            prefs = prefs_in(conn, letter.user_id)
            if prefs.email != letter.target:
                return None
            if what == "confirm":
                if prefs.email_confirmed:
                    return None
                return mail.confirming(self.config, letter.target, prefs.lang, mail.new_key(conn, letter.user_id, "c"))
            if what != "digest" or not (prefs.mail and prefs.email_confirmed):
                return None
            waiting = waiting_for(conn, letter.user_id, self.clock.now_in(conn))
            if not waiting:
                return None
            k = mail.new_key(conn, letter.user_id, "u")
            return mail.digest(self.config, letter.target, prefs.lang, waiting, k)

        message = await self.database.write(prepare)
        if message is None:
            return Outcome("drop")
        return Outcome(await self._off_loop(lambda: mail.send(self.config, message)))

    def _gone(self, conn: Connection, letter: Letter) -> None:
        """A push service said the subscription is gone, or the mail server that the address is: forget it."""
        if letter.kind == "push":
            conn.execute(push_subscriptions.delete().where(push_subscriptions.c.id == letter.target))
            log.info("a push subscription is gone: forgotten")
            return
        conn.execute(
            update(turn_prefs)
            .where(turn_prefs.c.user_id == letter.user_id, turn_prefs.c.email == letter.target)
            .values(email=None, email_confirmed=False, mail=False, mail_key=None)
        )
        log.info("an e-mail address was refused for good: forgotten, e-mail switched off")

    def _digests_due(self, conn: Connection) -> int:
        """Queue the digests due (each once: ``digest_at`` set in the same transaction, only where no other process
        set it first); how many."""
        now = self.clock.now_in(conn)
        waits = exists().where(
            turn_tables.c.user_id == turn_prefs.c.user_id,
            turn_tables.c.deadline.is_not(None),
            turn_tables.c.adjourned.is_(False),
            turn_tables.c.ended.is_(None),
            turn_tables.c.since <= now - DIGEST_AFTER,
        )
        due = (turn_prefs.c.digest_at.is_(None)) | (turn_prefs.c.digest_at <= now - DAY)
        ready = and_(
            turn_prefs.c.mail.is_(True), turn_prefs.c.email_confirmed.is_(True), turn_prefs.c.email.is_not(None)
        )
        rows = conn.execute(
            select(turn_prefs)
            .where(ready, due, waits, turn_prefs.c.user_id > self._cursor)
            .order_by(turn_prefs.c.user_id)
            .limit(DIGEST_SCAN)
        ).all()
        self._cursor = rows[-1].user_id if len(rows) == DIGEST_SCAN else ""
        made = 0
        for row in rows:
            prefs = prefs_in(conn, row.user_id)
            if paused(now, prefs.hours, vacations_of(conn, row.user_id, now)) is not None:
                continue
            taken = conn.execute(
                update(turn_prefs).where(turn_prefs.c.user_id == row.user_id, due, ready).values(digest_at=now)
            )
            if taken.rowcount:
                enqueue(conn, "mail", row.user_id, str(row.email), {"what": "digest"}, now, now)
                made += 1
        return made

    # -- the account's settings -------------------------------------------------------------------------------------
    async def settings(self, user_id: str) -> JsonObject:
        """What ``GET /account/turns`` answers."""
        prefs, spans, now = await self.players.prefs(user_id)
        return {
            "zone": prefs.zone,
            "day_start": prefs.day_start,
            "day_end": prefs.day_end,
            "page": prefs.page,
            "push": prefs.push,
            "push_per_day": prefs.push_per_day,
            "mail": prefs.mail,
            "email": prefs.email,
            "email_confirmed": prefs.email_confirmed,
            "lang": prefs.lang,
            "vacations": [_vacation(v) for v in spans if v.ends > now],
            "vacation_days_left": days_left([(v.starts, v.ends) for v in spans], now, self.config.vacation_days),
            "push_available": self.config.push_on,
            "mail_available": self.config.mail_on,
            "push_key": await self.push_key(),
            "now": now,
        }

    async def update_settings(self, user_id: str, changes: dict[str, object], lang: str = "en") -> JsonObject:
        """Change some of the account's settings (each checked, :class:`PlayerRefused` naming the first wrong one);
        a new address is sent a confirming mail (at most :data:`CONFIRMS_PER_DAY` a day), as is the same address
        given again while it is not confirmed. The settings as they are now."""

        def work(conn: Connection) -> bool:
            ensure_prefs(conn, user_id, lang)
            current = prefs_in(conn, user_id)
            made = check_changes(current, changes)
            address = made.get("email", current.email)
            resend = "email" in changes and address is not None and address == current.email
            if ("email" in made and made["email"] is not None) or (resend and not current.email_confirmed):
                if not self.config.mail_on:
                    raise PlayerRefused(409, "mail_unavailable", "email: this server sends no e-mail")
                now = self.clock.now_in(conn)
                self._count_confirm(conn, user_id, now)
                enqueue(conn, "mail", user_id, str(address), {"what": "confirm"}, now, now)
            if made:
                conn.execute(update(turn_prefs).where(turn_prefs.c.user_id == user_id).values(**made))
            return any(
                made.get(k, getattr(current, k)) != getattr(current, k) for k in ("zone", "day_start", "day_end")
            )

        if await self.database.write(work):
            await self._hours_changed(user_id)
        self._wake.set()
        return await self.settings(user_id)

    def _count_confirm(self, conn: Connection, user_id: str, now: float) -> None:
        row = conn.execute(
            select(turn_prefs.c.confirms_sent, turn_prefs.c.confirms_window).where(turn_prefs.c.user_id == user_id)
        ).one()
        sent, window = _this_day(int(row.confirms_sent), row.confirms_window, now)
        if sent >= CONFIRMS_PER_DAY:
            raise PlayerRefused(
                429, "rate_limited", f"email: at most {CONFIRMS_PER_DAY} confirming mails a day; try again tomorrow"
            )
        conn.execute(
            update(turn_prefs)
            .where(turn_prefs.c.user_id == user_id)
            .values(confirms_sent=sent + 1, confirms_window=window)
        )

    async def _hours_changed(self, user_id: str) -> None:
        if self.on_hours_changed is not None:
            await self.on_hours_changed(user_id)

    async def take_vacation(self, user_id: str, days: float, starts: float | None = None) -> JsonObject:
        """Take a vacation (:meth:`Players.vacation`'s rules); the vacation."""

        def work(conn: Connection) -> Vacation:
            ensure_prefs(conn, user_id)
            return self.players.vacation(conn, user_id, days, starts)

        made = await self.database.write(work)
        await self._hours_changed(user_id)
        return _vacation(made)

    async def end_vacation(self, user_id: str, vacation_id: str) -> JsonObject:
        """End a vacation now (one not begun is cancelled); the vacation as it is now."""

        def work(conn: Connection) -> Vacation:
            ensure_prefs(conn, user_id)
            return self.players.end_vacation(conn, user_id, vacation_id)

        ended = await self.database.write(work)
        await self._hours_changed(user_id)
        return _vacation(ended)

    async def subscribe(self, user_id: str, endpoint: object, p256dh: object, auth: object, label: str) -> None:
        """Keep a browser's push subscription (checked: :func:`push.check_subscription`)."""
        if not self.config.push_on:
            raise PlayerRefused(409, "push_unavailable", "this server sends no push notifications")
        checked = push.check_subscription(endpoint, p256dh, auth, self.config)

        def work(conn: Connection) -> str:
            return push.subscribe(conn, user_id, *checked, label, self.clock.now_in(conn))

        await self.database.write(work)

    async def unsubscribe(self, user_id: str, endpoint: str) -> bool:
        """Forget a browser's subscription; whether there was one."""
        return await self.database.write(lambda conn: push.unsubscribe(conn, user_id, endpoint))

    async def confirm_mail(self, k: str) -> bool:
        """Follow a confirming link: whether it confirmed an address."""

        def work(conn: Connection) -> bool:
            user_id = mail.key_owner(conn, k, "c")
            if user_id is None:
                return False
            conn.execute(
                update(turn_prefs)
                .where(turn_prefs.c.user_id == user_id, turn_prefs.c.email.is_not(None))
                .values(email_confirmed=True)
            )
            return True

        return await self.database.write(work)

    async def link_key(self, k: str, kind: mail.KeyKind) -> bool:
        """Whether ``k`` is a good key of a mail's link of ``kind`` (``c`` confirming, ``u`` unsubscribing): its page
        asks for the click that acts."""
        return await self.database.reading(lambda conn: mail.key_owner(conn, k, kind) is not None)

    async def unsubscribe_mail(self, k: str) -> bool:
        """Follow a one-click unsubscribe: the account's digests stop; whether ``k`` was good."""

        def work(conn: Connection) -> bool:
            user_id = mail.key_owner(conn, k, "u")
            if user_id is None:
                return False
            conn.execute(update(turn_prefs).where(turn_prefs.c.user_id == user_id).values(mail=False))
            return True

        return await self.database.write(work)


def _this_day(count: int, window: float | None, now: float) -> tuple[int, float]:
    """A count kept over 24 hours from its window's start (the pushes sent, the confirming mails): begun again at 0
    from ``now`` once that day has passed."""
    if window is None or now - float(window) >= DAY:
        return 0, now
    return count, float(window)


def _kind(letter: Letter) -> object:
    """What a push letter tells (``your_turn``, ``match_over``)."""
    payload = letter.body.get("payload")
    return payload.get("kind") if isinstance(payload, dict) else None


def _vacation(v: Vacation) -> JsonObject:
    return {"id": v.id, "starts": v.starts, "ends": v.ends}
