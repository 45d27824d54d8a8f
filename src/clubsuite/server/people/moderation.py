"""Reports and what the moderators do about them.

**Reporting.** Anyone signed in reports a message, a name or a player from where they meet it. A reported message
is kept as the server saw it, with the lines around it (the reporter names the message; the server, not the
reporter, supplies its words: ``context``), so that a moderator reads what was said and not what someone claims
was. Reporting someone also blocks them for the reporter (``block``, the default), as people who report want.
One account sends at most :data:`REPORTS_PER_HOUR` reports an hour and one open report per person reported.

**Several reports.** When :data:`AUTO_REPORTERS` distinct accounts that count have reported messages of the same
person within :data:`AUTO_WINDOW`, that person may not chat for :data:`AUTO_HOURS` hours or until a moderator
dismisses the reports, and is told so. A report counts (``reports.counts``) when it is of a message the server kept,
made by an account that was at that table when the message was said (seated, or watching signed in: the table's
chat notes who was there at each line, ``ChatRoom.witnessed``, in the process that serves the table, which is where
a report of its message is answered) and that has some standing: made at least :data:`STANDING_DAYS` days before
(rated matches are no standing: a throwaway account plays ten against bots in minutes). Every other report (of a
name, of a player, of a line its reporter only read later, or by a new account) is kept for the moderators alike
and counts for nothing: otherwise three accounts made a minute before, never at the table, could silence anyone.

**The queue and the actions.** The operator (``clubs admin reports``) and the accounts the operator makes
moderators (the page ``/moderation``) read the open reports and take one action on each (a report about a moderator
is the operator's alone: the moderators neither see it nor act on it, so that no moderator judges a report about
themselves or another moderator, nor learns who reported them): *warn* (the person is
told), *mute* for some hours (no chat), *ban from chat* (for good, until lifted), *close the account* (every
session ends, its passkeys go, it can no longer sign in; its name stays taken), or *dismiss* (nothing was wrong;
a mute the reports brought on by themselves is lifted). Each action is kept (``sanctions``), logged, and the person
is told what and why (a notice on their pages, and again when they try to chat).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Literal, TypeGuard, get_args

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.server.people.notices import Notices
from clubsuite.server.people.relations import RelationRefused, Relations
from clubsuite.server.store.database import StoredRow, lock_account
from clubsuite.server.store.dbschema import ReportStatus, moderators, passkeys, reports, sanctions, sessions, users
from clubsuite.server.store.handle import Database
from clubsuite.server.tokens import new_id

log = logging.getLogger("clubsuite.server")

ReportKind = Literal["message", "name", "player"]
"""What a report is about: a message said at a table, an account's name, or the player."""
REPORT_KINDS: tuple[ReportKind, ...] = get_args(ReportKind)
OPERATOR = "operator"
"""Who took an action taken with ``clubs admin act`` (a sanction with no taker was the server's own: the automatic
mute, which dismissing the reports lifts)."""
SanctionKind = Literal["warn", "mute", "chat_ban", "close"]
"""A sanction kept of an account (table ``sanctions``): a warning, a mute, a ban from chat, the account closed."""
ModerationAction = Literal["warn", "mute", "chat_ban", "close", "dismiss"]
"""What a moderator does about a report (its outcome): a sanction, or the report dismissed. One flat Literal, so that
a request's schema lists the five."""
ACTIONS: tuple[ModerationAction, ...] = get_args(ModerationAction)
ACTION_REASONS: dict[ModerationAction, str] = {
    "warn": "your behaviour towards other players",
    "mute": "your messages to other players",
    "chat_ban": "your messages to other players",
    "close": "your behaviour on this site",
    "dismiss": "",
}
"""The reason a player is told when the moderator gave none."""
REASON_MAX = 500
"""Characters of a report's or an action's reason."""
REPORTS_PER_HOUR = 10
AUTO_REPORTERS = 3
"""Distinct accounts whose reports of one person mute that person's chat until a moderator looks."""
AUTO_WINDOW = 24 * 3600.0
AUTO_HOURS = 24.0
STANDING_DAYS = 3.0
"""An account this old counts toward an automatic mute (a throwaway made for the purpose must wait this long)."""
MUTE_HOURS_MAX = 24 * 90.0
CHAT_CHECK_SECONDS = 10.0
"""How long an account's chat standing is kept in memory before it is read again (an action taken in this process
takes effect at once)."""


class Moderation:
    """Reports, sanctions and moderators, over the store."""

    def __init__(self, database: Database, relations: Relations, notices_: Notices) -> None:
        self.database = database
        self.relations = relations
        self.notices = notices_
        self._chat: dict[str, tuple[float, str | None]] = {}

    # -- reporting ------------------------------------------------------------------------------------------------
    async def report(
        self,
        reporter: str,
        subject: str,
        kind: str,
        reason: str,
        context: JsonObject,
        block: bool = True,
        witness: bool = False,
    ) -> str:
        """Keep a report of ``subject`` (an account id) by ``reporter``; its id. ``context`` is what the server saw
        (the message and the lines around it, the table, the name); ``witness``: the reporter was at the table when
        the reported message was said (the table's process knows). Refused: oneself, an unknown kind, a reason too
        long, too many reports, a second open report of the same person."""
        if not is_report_kind(kind):
            raise RelationRefused("bad_report", f"kind={kind!r}: a report is of a {', '.join(REPORT_KINDS)}")
        if subject == reporter:
            raise RelationRefused("yourself", "you cannot report yourself")
        reason = " ".join(reason.split())
        if len(reason) > REASON_MAX:
            raise RelationRefused("bad_report", f"reason: at most {REASON_MAX} characters")
        now = time.time()
        report_id = new_id()

        def work(conn: Connection) -> int:
            lock_account(conn, reporter)  # one report of the account's at a time: the limits hold
            recent = conn.execute(
                select(func.count())
                .select_from(reports)
                .where(reports.c.reporter_id == reporter, reports.c.created_at > now - 3600)
            ).scalar_one()
            if recent >= REPORTS_PER_HOUR:
                raise RelationRefused("rate_limited", f"at most {REPORTS_PER_HOUR} reports an hour: wait a little")
            open_one = conn.execute(
                select(reports.c.id).where(
                    reports.c.reporter_id == reporter,
                    reports.c.subject_id == subject,
                    reports.c.status == ReportStatus.OPEN,
                )
            ).first()
            if open_one is not None:
                raise RelationRefused("already_reported", "you reported this player already: a moderator will look")
            counts = kind == "message" and witness and _standing(conn, reporter, now)
            conn.execute(
                insert(reports).values(
                    id=report_id,
                    reporter_id=reporter,
                    subject_id=subject,
                    kind=kind,
                    reason=reason,
                    context=json.dumps(context),
                    created_at=now,
                    status=ReportStatus.OPEN,
                    counts=counts,
                )
            )
            reporters = conn.execute(  # the reports that count: see the module
                select(func.count(func.distinct(reports.c.reporter_id))).where(
                    reports.c.subject_id == subject,
                    reports.c.status == ReportStatus.OPEN,
                    reports.c.counts.is_(True),
                    reports.c.created_at > now - AUTO_WINDOW,
                )
            ).scalar_one()
            return int(reporters)

        reporters = await self.database.write(work)
        log.info("report %s: %s of an account", report_id, kind)
        if block:
            await self.relations.change("block", reporter, subject, True)
        if reporters >= AUTO_REPORTERS and await self.chat_refusal(subject) is None:
            await self._sanction(subject, "mute", "several players reported your messages", now + AUTO_HOURS * 3600)
        return report_id

    # -- the queue ------------------------------------------------------------------------------------------------
    async def queue(
        self, status: ReportStatus = ReportStatus.OPEN, limit: int = 100, moderators_view: bool = False
    ) -> list[JsonObject]:
        """The reports of ``status`` (open or closed), oldest open first (newest closed first), with the names of
        who reported whom, how many open reports the person has, and whether the report counts toward the automatic
        mute (see the module). ``moderators_view``: without the reports about a moderator (the operator's alone)."""

        def work(conn: Connection) -> list[JsonObject]:
            order = reports.c.created_at if status == ReportStatus.OPEN else reports.c.created_at.desc()
            shown = reports.c.status == status
            if moderators_view:
                shown &= reports.c.subject_id.not_in(select(moderators.c.user_id))
            rows = conn.execute(select(reports).where(shown).order_by(order).limit(limit)).all()
            ids = {r.reporter_id for r in rows} | {r.subject_id for r in rows} | {r.handled_by for r in rows}
            names = {
                r.id: r.name for r in conn.execute(select(users.c.id, users.c.name).where(users.c.id.in_(ids - {None})))
            }
            counts = {
                r.subject_id: r.n
                for r in conn.execute(
                    select(reports.c.subject_id, func.count().label("n"))
                    .where(reports.c.status == ReportStatus.OPEN)
                    .group_by(reports.c.subject_id)
                )
            }
            return [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "reporter": names.get(r.reporter_id, "?"),
                    "subject": names.get(r.subject_id, "?"),
                    "reason": r.reason,
                    "context": json.loads(r.context),
                    "at": r.created_at,
                    "status": r.status,
                    "open_reports": counts.get(r.subject_id, 0),
                    "handled_by": names.get(r.handled_by) if r.handled_by else None,
                    "outcome": r.outcome,
                    "counts": bool(r.counts),
                }
                for r in rows
            ]

        found: list[JsonObject] = await self.database.reading(work)
        return found

    async def act(
        self, report_id: str, action: str, by: str | None, reason: str = "", hours: float | None = None
    ) -> JsonObject:
        """Take ``action`` on an open report as moderator ``by`` (None: the operator): see the module. The report is
        closed with the outcome; the person is told what and why. Refused: an unknown action or report, one already
        closed, a mute without its hours (or beyond :data:`MUTE_HOURS_MAX`), and a moderator's action on a report
        about themselves or another moderator (``operator_only``: the operator's, ``clubs admin act``)."""
        if not is_action(action):
            raise RelationRefused("bad_action", f"action={action!r}: expected one of {', '.join(ACTIONS)}")
        if action == "mute" and (hours is None or not 0 < hours <= MUTE_HOURS_MAX):
            raise RelationRefused("bad_action", f"hours: a mute lasts more than 0 and at most {MUTE_HOURS_MAX:g} hours")
        reason = " ".join(reason.split())[:REASON_MAX] or ACTION_REASONS[action]
        now = time.time()

        def work(conn: Connection) -> StoredRow:
            row = conn.execute(select(reports).where(reports.c.id == report_id).with_for_update()).first()
            if row is None:
                raise RelationRefused("no_report", "there is no such report")
            if row.status != ReportStatus.OPEN:
                raise RelationRefused("closed", "this report has been dealt with already")
            if by is not None and (
                row.subject_id == by
                or conn.execute(select(moderators.c.user_id).where(moderators.c.user_id == row.subject_id)).first()
            ):
                raise RelationRefused(
                    "operator_only", "a report about a moderator, you included, is for the site's operator to act on"
                )
            # every open report of the same person is dealt with by one action
            conn.execute(
                update(reports)
                .where(reports.c.subject_id == row.subject_id, reports.c.status == ReportStatus.OPEN)
                .values(status=ReportStatus.CLOSED, handled_by=by, handled_at=now, outcome=action)
            )
            if action == "dismiss":  # a mute the reports brought on by themselves is lifted
                conn.execute(
                    update(sanctions)
                    .where(
                        sanctions.c.user_id == row.subject_id,
                        sanctions.c.by_id.is_(None),
                        or_(sanctions.c.until.is_(None), sanctions.c.until > now),
                    )
                    .values(until=now)
                )
            else:  # kept with the closing, in one transaction: the action is taken whole or not at all
                until = now + hours * 3600 if action == "mute" and hours is not None else None
                _keep_sanction(conn, row.subject_id, action, reason, until, by or OPERATOR, report_id, now)
            if action == "close":
                conn.execute(delete(sessions).where(sessions.c.user_id == row.subject_id))
                conn.execute(delete(passkeys).where(passkeys.c.user_id == row.subject_id))
                conn.execute(update(users).where(users.c.id == row.subject_id).values(password_hash=None))
            return row

        row = await self.database.write(work)
        log.info("moderation: report %s, %s by %s", report_id, action, "the operator" if by is None else by)
        self._chat.pop(row.subject_id, None)
        if action != "dismiss" and action != "close":
            until = now + hours * 3600 if action == "mute" and hours is not None else None
            await self.notices.add(row.subject_id, action, {"reason": reason, "until": until})
        return {"report": report_id, "action": action, "subject": row.subject_id}

    async def _sanction(
        self,
        user_id: str,
        kind: SanctionKind,
        reason: str,
        until: float | None,
        by: str | None = None,
        report_id: str | None = None,
    ) -> None:
        """Keep a sanction and tell the person (a notice on their pages)."""
        now = time.time()
        await self.database.write(lambda conn: _keep_sanction(conn, user_id, kind, reason, until, by, report_id, now))
        self._chat.pop(user_id, None)
        if kind != "close":
            await self.notices.add(user_id, kind, {"reason": reason, "until": until})

    async def chat_refusal(self, user_id: str) -> str | None:
        """Why ``user_id`` may not chat now (a mute or a ban: what and why, and until when), or None."""
        kept = self._chat.get(user_id)
        now = time.time()
        if kept is not None and time.monotonic() - kept[0] < CHAT_CHECK_SECONDS:
            return kept[1]
        rows = await self.database.read(
            select(sanctions.c.kind, sanctions.c.reason, sanctions.c.until)
            .where(
                sanctions.c.user_id == user_id,
                sanctions.c.kind.in_(("mute", "chat_ban", "close")),
                or_(sanctions.c.until.is_(None), sanctions.c.until > now),
            )
            .order_by(sanctions.c.created_at.desc()),
        )
        why: str | None = None
        for r in rows:
            if r.kind in ("chat_ban", "close") and r.until is None:
                why = f"you may not chat on this site: {r.reason}"
                break
        if why is None and rows:  # the mute that ends last
            last = max(rows, key=lambda r: r.until or 0.0)
            why = f"you may not chat until {_when(last.until)}: {last.reason}"
        self._chat[user_id] = (time.monotonic(), why)
        if len(self._chat) > 10_000:
            self._chat.clear()
        return why

    # -- moderators -----------------------------------------------------------------------------------------------
    async def is_moderator(self, user_id: str) -> bool:
        """Whether the account is a moderator."""
        rows = await self.database.read(select(moderators.c.user_id).where(moderators.c.user_id == user_id))
        return bool(rows)

    async def set_moderator(self, user_id: str, on: bool) -> None:
        """Make the account a moderator, or no longer one."""

        def work(conn: Connection) -> None:
            conn.execute(delete(moderators).where(moderators.c.user_id == user_id))
            if on:
                conn.execute(insert(moderators).values(user_id=user_id, added_at=time.time()))

        await self.database.write(work)

    async def sanctions_of(self, user_id: str) -> list[JsonObject]:
        """The sanctions an account has had, newest first (for the moderators)."""
        rows = await self.database.read(
            select(sanctions).where(sanctions.c.user_id == user_id).order_by(sanctions.c.created_at.desc()).limit(50),
        )
        return [
            {"kind": r.kind, "reason": r.reason, "until": r.until, "at": r.created_at, "automatic": r.by_id is None}
            for r in rows
        ]


def _standing(conn: Connection, user_id: str, now: float) -> bool:
    """Whether the account has the standing for its reports to count toward an automatic mute: made at least
    :data:`STANDING_DAYS` days ago. Its age alone: rated matches played are no standing, since ten of them take
    minutes (one-hand tables against ``random`` bots that play at once, or against another account of one's own,
    as cheap to make), and waiting is the one thing a throwaway account cannot hurry."""
    made = conn.execute(select(users.c.created_at).where(users.c.id == user_id)).scalar_one_or_none()
    return made is not None and made <= now - STANDING_DAYS * 86400


def is_report_kind(kind: str) -> TypeGuard[ReportKind]:
    """Whether ``kind`` is one of :data:`REPORT_KINDS`."""
    return kind in REPORT_KINDS


def is_action(action: str) -> TypeGuard[ModerationAction]:
    """Whether ``action`` is one of :data:`ACTIONS`."""
    return action in ACTIONS


def _keep_sanction(
    conn: Connection,
    user_id: str,
    kind: SanctionKind,
    reason: str,
    until: float | None,
    by: str | None,
    report_id: str | None,
    now: float,
) -> None:
    """Keep one sanction (in the caller's transaction)."""
    conn.execute(
        insert(sanctions).values(
            id=new_id(),
            user_id=user_id,
            kind=kind,
            reason=reason,
            until=until,
            by_id=by,
            report_id=report_id,
            created_at=now,
        )
    )


def _when(at: float | None) -> str:
    """A moment in UTC, as a refusal says it."""
    if at is None:
        return "further notice"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
