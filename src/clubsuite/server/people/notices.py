"""Notices: what an account is shown on any page until it deals with them: an invitation to a table or a
tournament, an invitation declined, a moderator's word (a warning, a mute and why), a tournament table ready (a
``seat`` notice: the tournament, the table and the seat, never its token: the page asks the table for one,
``POST /tables/{id}/seat``; an account holds one a tournament, and it goes when its table ends).

A notice is kept in the store, so that it waits for an account that has no page open and reaches it on whichever
process serves its pages (the page's socket looks for new ones every second: ``community.watching``). Invitations
expire after :data:`INVITE_SECONDS`. An account holds at most :data:`KEPT` notices of the other kinds (the oldest
go first) and, apart from them, at most :data:`KEPT` seat notices: invitations, however many, never push a seat at a
tournament's table out. One account sends at most :data:`INVITES_PER_MINUTE` invitations a minute, counted in the
store (``invitations_sent``), so that the rate holds for a site served by several processes behind one address.

An invitation that its receiver's blocks or privacy do not let through is answered like any other and kept
nowhere: the sender cannot tell (``Relations.may_invite``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Literal, get_args

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.server.people.relations import RelationRefused, Relations
from clubsuite.server.store.database import StoredRow, lock_account
from clubsuite.server.store.dbschema import invitations_sent, notices
from clubsuite.server.store.handle import Database
from clubsuite.server.tokens import new_id

NoticeKind = Literal["invite", "declined", "warn", "mute", "chat_ban", "reported", "seat", "turn", "match_over"]
"""What a notice tells: an invitation, one declined, a moderator's warning, mute or ban from chat, a report
received, a seat a tournament gave, a turn-based table waiting for the account's move (``turn``: the table and its
name, one per table, in place of that table's last: ``server.turns.reminders``), a turn-based match ended while the
account was away (``match_over``: the table, its name, the account's place)."""
KINDS: tuple[NoticeKind, ...] = get_args(NoticeKind)
INVITE_SECONDS = 600.0
"""An invitation is open this long."""
KEPT = 50
"""Notices one account holds (the oldest go first), seat notices and the others each apart."""
INVITES_PER_MINUTE = 10
INVITE_WINDOW = 60.0
"""The minute :data:`INVITES_PER_MINUTE` counts over (seconds)."""
PRUNE_BATCH = 1000
"""Rows older than the minute one invitation removes at most (each adds one: the old rows never pile up)."""


class Notices:
    """The notices of every account, over the store."""

    def __init__(self, database: Database, relations: Relations) -> None:
        self.database = database
        self.relations = relations
        self.told: Callable[[str, JsonObject], None] | None = None
        """Called with (account, notice) when a notice is added here (the page's socket sends it at once)."""

    async def add(
        self,
        user_id: str,
        kind: NoticeKind,
        body: JsonObject,
        expires: float | None = None,
        replacing: dict[str, str] | None = None,
    ) -> JsonObject:
        """Keep a notice for ``user_id`` (``replacing``: in place of the account's notices of that kind whose body
        has those values, in the same transaction); the notice as pages get it."""
        now = time.time()
        notice = {"id": new_id(), "kind": kind, "body": body, "at": now, "expires_at": expires}

        def work(conn: Connection) -> None:
            if replacing is not None:
                _drop(conn, [user_id], kind, replacing)
            row = {"id": notice["id"], "user_id": user_id, "kind": kind, "body": json.dumps(body)}
            conn.execute(insert(notices).values(**row, created_at=now, expires_at=expires))
            # the oldest of the notice's own sort go: a seat notice is never pushed out by invitations
            same = notices.c.kind == "seat" if kind == "seat" else notices.c.kind != "seat"
            kept = conn.execute(
                select(notices.c.id).where(notices.c.user_id == user_id, same).order_by(notices.c.created_at.desc())
            ).all()
            old = [r.id for r in kept[KEPT:]]
            if old:
                conn.execute(delete(notices).where(notices.c.id.in_(old)))

        await self.database.write(work)
        if self.told is not None:
            self.told(user_id, notice)
        return notice

    async def of(self, user_id: str, now: float | None = None) -> list[JsonObject]:
        """The account's notices not expired, newest first (seat notices and the others: each at most
        :data:`KEPT`)."""
        now = time.time() if now is None else now
        rows = await self.database.read(
            select(notices).where(notices.c.user_id == user_id).order_by(notices.c.created_at.desc()).limit(2 * KEPT),
        )
        return [shown(r) for r in rows if r.expires_at is None or r.expires_at > now]

    async def since(self, user_ids: list[str], after: float) -> list[tuple[str, JsonObject]]:
        """The notices added after ``after`` for any of ``user_ids``: (account, notice), oldest first."""
        if not user_ids:
            return []
        rows = await self.database.read(
            select(notices)
            .where(notices.c.user_id.in_(user_ids), notices.c.created_at > after)
            .order_by(notices.c.created_at),
        )
        return [(r.user_id, shown(r)) for r in rows]

    async def drop_seats(self, user_ids: list[str], where: dict[str, str]) -> None:
        """Remove the ``seat`` notices of ``user_ids`` whose body has the values of ``where`` (a table that ended:
        ``{"table": id}``; a tournament over: ``{"tournament": id}``)."""
        if not user_ids:
            return

        await self.database.write(lambda conn: _drop(conn, user_ids, "seat", where))

    async def drop(self, user_ids: list[str], kind: NoticeKind, where: dict[str, str]) -> None:
        """Remove the notices of ``kind`` of ``user_ids`` whose body has the values of ``where`` (a turn over:
        ``"turn"``, ``{"table": id}``)."""
        if user_ids:
            await self.database.write(lambda conn: _drop(conn, user_ids, kind, where))

    async def take(self, user_id: str, notice_id: str) -> JsonObject | None:
        """Remove one of the account's notices (dealt with); the notice, or None when there is none."""

        def work(conn: Connection) -> StoredRow | None:
            row = conn.execute(select(notices).where(notices.c.id == notice_id, notices.c.user_id == user_id)).first()
            if row is not None:
                conn.execute(delete(notices).where(notices.c.id == notice_id))
            return row

        row = await self.database.write(work)
        return shown(row) if row is not None else None

    async def invite(self, sender: tuple[str, str], to_id: str, target: JsonObject) -> None:
        """Invite ``to_id`` from ``sender`` (id, name) to ``target`` (a table or a tournament, as the routes checked
        it). Refused: too many a minute. Not kept (and nothing said) where the invited account's blocks or privacy
        do not let it through."""
        if to_id == sender[0]:
            raise RelationRefused("yourself", "you cannot invite yourself")
        await self.database.write(lambda conn: _count_invitation(conn, sender[0], time.time()))
        if not await self.relations.may_invite(sender[0], to_id):
            return
        await self.add(to_id, "invite", {"from": sender[1], **target}, time.time() + INVITE_SECONDS)

    async def decline(self, user_id: str, user_name: str, notice_id: str) -> bool:
        """Decline an invitation: it goes, and its sender is told (where the sender may still hear from this
        account); whether there was such an invitation."""
        notice = await self.take(user_id, notice_id)
        if notice is None or notice["kind"] != "invite":
            return False
        try:
            sender, _ = await self.relations.account(notice["body"]["from"])
        except RelationRefused:
            return True
        if not await self.relations.blocked_either(sender, user_id):
            what = {k: v for k, v in notice["body"].items() if k in ("kind", "table", "tournament", "name")}
            await self.add(sender, "declined", {"by": user_name, **what}, time.time() + INVITE_SECONDS)
        return True


def _count_invitation(conn: Connection, sender: str, now: float) -> None:
    """Count one invitation of ``sender``'s in the store, or :class:`RelationRefused` ``rate_limited`` where it would
    be more than :data:`INVITES_PER_MINUTE` in the last minute (whichever processes took them). The sender's row is
    held while it counts and adds (two invitations at once count one after the other). Each invitation also removes
    up to :data:`PRUNE_BATCH` rows older than the minute, whoever sent them (oldest first, by the time index; rows
    another invitation is removing at that moment are left to it rather than waited for), so that the table holds
    about the last minute's invitations, never those of every account that once invited."""
    lock_account(conn, sender)
    window = invitations_sent.c.sent_at > now - INVITE_WINDOW
    old = (
        select(invitations_sent.c.id)
        .where(~window)
        .order_by(invitations_sent.c.sent_at)
        .limit(PRUNE_BATCH)
        .with_for_update(skip_locked=True)
    )
    conn.execute(delete(invitations_sent).where(invitations_sent.c.id.in_(old)))
    mine = invitations_sent.c.sender_id == sender
    sent = conn.execute(select(func.count()).select_from(invitations_sent).where(mine, window)).scalar_one()
    if sent >= INVITES_PER_MINUTE:
        raise RelationRefused("rate_limited", f"at most {INVITES_PER_MINUTE} invitations a minute: wait a little")
    conn.execute(insert(invitations_sent).values(id=new_id(), sender_id=sender, sent_at=now))


def shown(row: StoredRow) -> JsonObject:
    """A stored notice as pages get it."""
    return {
        "id": row.id,
        "kind": row.kind,
        "body": json.loads(row.body),
        "at": row.created_at,
        "expires_at": row.expires_at,
    }


def _drop(conn: Connection, user_ids: list[str], kind: NoticeKind, where: dict[str, str]) -> None:
    """Remove the notices of ``kind`` of ``user_ids`` whose body has the values of ``where``."""
    rows = conn.execute(
        select(notices.c.id, notices.c.body).where(notices.c.user_id.in_(user_ids), notices.c.kind == kind)
    ).all()
    gone = [r.id for r in rows if all(json.loads(r.body).get(k) == v for k, v in where.items())]
    if gone:
        conn.execute(delete(notices).where(notices.c.id.in_(gone)))
