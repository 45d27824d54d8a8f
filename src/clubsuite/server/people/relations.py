"""People together: following, blocking and muting, each account's privacy, and who is online and where.

* **Follow** another account to see when it is online and at which table (where its privacy lets you), and to
  invite it easily. Following is one-way and the other is not told.
* **Block** an account: its chat is hidden from you everywhere, its invitations never reach you, and matchmaking and
  arenas never seat you together (:meth:`Relations.apart`). The blocked person is not told and cannot tell: their
  chat is still shown to themselves and to everyone else, their invitations are answered as if sent, their own
  lists do not change. A block ends your following of them (the page says so as you block), and while it lasts
  neither sees the other online: the blocked person's following of you stays, and shows you to them as offline
  where your privacy lets them see whether you are online, and as not showing it where it does not (your following
  of them ended with the block): what they would see had you gone offline or stopped following them, never
  something only a block shows.
* **Mute** an account: its chat is hidden from you, nothing else.
* **Privacy**: who may invite you (everyone, the people you follow, nobody) and who sees you online (the same three;
  by default the people you follow).
* **Presence**: an account is online while one of its pages is open (its page socket, ``/live``): every process
  writes the accounts whose pages it holds every :data:`PRESENCE_EVERY` seconds, so that any process can tell.

What others may learn of an account through here is what its privacy allows; whom it blocked or muted only it sees.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from sqlalchemy import Table, and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.server.store.database import lock_account
from clubsuite.server.store.dbschema import blocks, follows, matches, mutes, presence, privacy, seats, tables, users
from clubsuite.server.store.handle import Database
from clubsuite.server.tokens import name_key

T = TypeVar("T")

Audience = Literal["everyone", "following", "nobody"]
"""Who may do something with an account: everyone, the people it follows, nobody."""
AUDIENCES: tuple[Audience, ...] = get_args(Audience)
DEFAULT_INVITES: Audience = "everyone"
DEFAULT_PRESENCE: Audience = "following"
PRESENCE_EVERY = 20.0
"""Seconds between two writes of the accounts whose pages a process holds open."""
ONLINE_SECONDS = 2.5 * PRESENCE_EVERY
"""An account seen this recently is online."""
LIST_MAX = 1000
"""Accounts one account may follow, block or mute (each)."""
HIDDEN_SECONDS = 10.0
"""How long an account's hidden set (blocked and muted) is kept in memory before it is read again (changes made in
this process take effect at once)."""

RelationKind = Literal["follow", "block", "mute"]
"""What one account may do to another: follow it, block it, mute it."""
KINDS: dict[RelationKind, Table] = {"follow": follows, "block": blocks, "mute": mutes}
"""Each kind's table of who did it to whom."""


class RelationRefused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """A change refused: its code and words."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


@dataclass(frozen=True)
class Privacy:
    """Who may invite an account, and who sees it online."""

    invites: Audience = DEFAULT_INVITES
    presence: Audience = DEFAULT_PRESENCE


class Relations:
    """The relations between accounts, over the store (through the database handle, off the event loop)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._hidden: dict[str, tuple[float, frozenset[str]]] = {}

    async def account(self, name: object) -> tuple[str, str]:
        """The live account a name reaches: (id, name), or :class:`RelationRefused` ``no_player``."""
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise RelationRefused("no_player", "there is no player of that name")
        rows = await self.database.read(
            select(users.c.id, users.c.name).where(users.c.name_key == name_key(name), users.c.deleted_at.is_(None)),
        )
        if not rows:
            raise RelationRefused("no_player", "there is no player of that name")
        return rows[0].id, rows[0].name

    async def change(self, kind: RelationKind, user_id: str, other_id: str, on: bool) -> None:
        """Follow, block or mute (``on``) another account, or stop (see the module: a block ends following both
        ways). Refused: oneself, and more than :data:`LIST_MAX` of a kind."""
        table = KINDS[kind]
        if other_id == user_id:
            if not on:
                return  # nothing to undo
            raise RelationRefused("yourself", f"you cannot {kind} yourself")

        def work(conn: Connection) -> None:
            mine = and_(table.c.user_id == user_id, table.c.other_id == other_id)
            if not on:
                conn.execute(delete(table).where(mine))
                return
            lock_account(conn, user_id)  # one change of the account's lists at a time: LIST_MAX holds
            if conn.execute(select(table.c.user_id).where(mine)).first() is not None:
                return
            count = conn.execute(select(func.count()).select_from(table).where(table.c.user_id == user_id)).scalar_one()
            if count >= LIST_MAX:
                raise RelationRefused("too_many", f"you may {kind} at most {LIST_MAX} players")
            conn.execute(insert(table).values(user_id=user_id, other_id=other_id, created_at=time.time()))
            if kind == "block":  # your following of them ends; theirs of you stays (it shows them nothing now)
                conn.execute(delete(follows).where(follows.c.user_id == user_id, follows.c.other_id == other_id))

        await self.database.write(work)
        self._hidden.pop(user_id, None)

    async def lists(self, user_id: str) -> dict[str, list[str]]:
        """The names the account follows, blocked and muted (only it sees these)."""

        def work(conn: Connection) -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            for kind, table in KINDS.items():
                rows = conn.execute(
                    select(users.c.name)
                    .join(table, table.c.other_id == users.c.id)
                    .where(table.c.user_id == user_id, users.c.deleted_at.is_(None))
                    .order_by(users.c.name)
                ).all()
                out[kind] = [r.name for r in rows]
            return out

        found: dict[str, list[str]] = await self.database.reading(work)
        return found

    async def privacy(self, user_id: str) -> Privacy:
        """The account's privacy (the defaults where it chose none)."""
        rows = await self.database.read(
            select(privacy.c.invites, privacy.c.presence).where(privacy.c.user_id == user_id)
        )
        if not rows:
            return Privacy()
        return Privacy(_audience(rows[0].invites, DEFAULT_INVITES), _audience(rows[0].presence, DEFAULT_PRESENCE))

    async def set_privacy(self, user_id: str, chosen: Privacy) -> None:
        """Set the account's privacy (each of :data:`AUDIENCES`)."""
        for field, value in (("invites", chosen.invites), ("presence", chosen.presence)):
            if value not in AUDIENCES:
                raise RelationRefused("bad_privacy", f"{field}={value!r}: expected one of {', '.join(AUDIENCES)}")

        def work(conn: Connection) -> None:
            values = {"invites": chosen.invites, "presence": chosen.presence}
            if conn.execute(update(privacy).where(privacy.c.user_id == user_id).values(**values)).rowcount == 0:
                conn.execute(insert(privacy).values(user_id=user_id, **values))

        await self.database.write(work)

    async def hidden(self, user_id: str, fresh: bool = False) -> frozenset[str]:
        """The accounts whose chat ``user_id`` does not see: those it blocked or muted (kept a few seconds, unless
        ``fresh``)."""
        kept = self._hidden.get(user_id)
        now = time.monotonic()
        if kept is not None and not fresh and now - kept[0] < HIDDEN_SECONDS:
            return kept[1]

        def work(conn: Connection) -> frozenset[str]:
            found = {r.other_id for r in conn.execute(select(blocks.c.other_id).where(blocks.c.user_id == user_id))}
            found |= {r.other_id for r in conn.execute(select(mutes.c.other_id).where(mutes.c.user_id == user_id))}
            return frozenset(found)

        hidden: frozenset[str] = await self.database.reading(work)
        self._hidden[user_id] = (now, hidden)
        if len(self._hidden) > 10_000:  # a bound on the memory: the oldest half forgotten
            for key in sorted(self._hidden, key=lambda k: self._hidden[k][0])[:5000]:
                del self._hidden[key]
        return hidden

    def forget(self, user_id: str) -> None:
        """Drop the account's hidden set kept in memory (it changed at another process)."""
        self._hidden.pop(user_id, None)

    async def hidings_since(self, after: float) -> set[tuple[str, str, float]]:
        """The blocks and mutes made at or after ``after`` (by the clocks of the processes that made them), at any
        process: (account, the account it hides, when)."""

        def work(conn: Connection) -> set[tuple[str, str, float]]:
            found: set[tuple[str, str, float]] = set()
            for kind in (blocks, mutes):
                query = select(kind.c.user_id, kind.c.other_id, kind.c.created_at).where(kind.c.created_at >= after)
                found.update((r.user_id, r.other_id, r.created_at) for r in conn.execute(query))
            return found

        made: set[tuple[str, str, float]] = await self.database.reading(work)
        return made

    async def blocked_either(self, a: str, b: str) -> bool:
        """Whether either account blocked the other."""
        return bool(await self.database.reading(lambda conn: _blocked(conn, a, b)))

    async def apart(self, user_ids: Iterable[str]) -> set[frozenset[str]]:
        """The pairs among ``user_ids`` of which one blocked the other (never seated together)."""
        ids = list(set(user_ids))
        if len(ids) < 2:
            return set()
        rows = await self.database.read(
            select(blocks.c.user_id, blocks.c.other_id).where(blocks.c.user_id.in_(ids), blocks.c.other_id.in_(ids)),
        )
        return {frozenset((r.user_id, r.other_id)) for r in rows}

    async def may_invite(self, from_id: str, to_id: str) -> bool:
        """Whether ``from_id`` may invite ``to_id``: neither blocked the other, and the invited account's privacy lets
        it (everyone; the people it follows; nobody)."""

        def work(conn: Connection) -> bool:
            if _blocked(conn, from_id, to_id):
                return False
            row = conn.execute(select(privacy.c.invites).where(privacy.c.user_id == to_id)).first()
            audience = _audience(row.invites if row is not None else None, DEFAULT_INVITES)
            return _reaches(conn, audience, to_id, from_id)

        return bool(await self.database.reading(work))

    async def friends(self, user_id: str, now: float | None = None) -> list[JsonObject]:
        """The accounts ``user_id`` follows, each with whether it is online and at which table, as far as its
        presence privacy lets ``user_id`` see (else ``online`` is null): a public table's id, or ``"private"``."""
        now = time.time() if now is None else now

        def work(conn: Connection) -> list[JsonObject]:
            rows = conn.execute(
                select(users.c.id, users.c.name, presence.c.seen_at, privacy.c.presence)
                .join(follows, follows.c.other_id == users.c.id)
                .outerjoin(presence, presence.c.user_id == users.c.id)
                .outerjoin(privacy, privacy.c.user_id == users.c.id)
                .where(follows.c.user_id == user_id, users.c.deleted_at.is_(None))
                .order_by(users.c.name)
            ).all()
            ids = [r.id for r in rows]
            # three queries for the whole list, however long (up to LIST_MAX), never one per friend
            they = blocks.c.user_id.in_(ids) & (blocks.c.other_id == user_id)
            me = (blocks.c.user_id == user_id) & blocks.c.other_id.in_(ids)
            blocked = set(conn.execute(select(blocks.c.user_id).where(they)).scalars())
            blocked |= set(conn.execute(select(blocks.c.other_id).where(me)).scalars())
            back = follows.c.user_id.in_(ids) & (follows.c.other_id == user_id)
            following_me = set(conn.execute(select(follows.c.user_id).where(back)).scalars())
            out = []
            for r in rows:
                # a blocked pair is shown as never online, as anyone offline is shown, and only where the privacy
                # shows online or offline at all: a blocked person whose view was "does not show" sees just that
                audience = _audience(r.presence, DEFAULT_PRESENCE)
                visible = audience == "everyone" or (audience == "following" and r.id in following_me)
                online = r.id not in blocked and visible and r.seen_at is not None and now - r.seen_at <= ONLINE_SECONDS
                out.append({"id": r.id, "name": r.name, "online": online if visible else None})
            at = _tables_of(conn, [x["id"] for x in out if x["online"]])
            return [{"name": x["name"], "online": x["online"], "table": at.get(x["id"])} for x in out]

        found: list[JsonObject] = await self.database.reading(work)
        return found

    async def seen(self, user_ids: Iterable[str], now: float | None = None) -> None:
        """Write that the pages of ``user_ids`` are open now (presence)."""
        ids = sorted(set(user_ids))
        if not ids:
            return
        at = time.time() if now is None else now

        def work(conn: Connection) -> None:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            stmt = dialect.insert(presence).values([{"user_id": i, "seen_at": at} for i in ids])
            conn.execute(stmt.on_conflict_do_update(index_elements=["user_id"], set_={"seen_at": at}))

        await self.database.write(work)


def _blocked(conn: Connection, a: str, b: str) -> bool:
    return (
        conn.execute(
            select(blocks.c.user_id).where(
                or_(
                    and_(blocks.c.user_id == a, blocks.c.other_id == b),
                    and_(blocks.c.user_id == b, blocks.c.other_id == a),
                )
            )
        ).first()
        is not None
    )


def _audience(kept: object, default: Audience) -> Audience:
    """A privacy column's audience as read (``default`` where the account chose none)."""
    for audience in AUDIENCES:
        if kept == audience:
            return audience
    return default


def _reaches(conn: Connection, audience: Audience, owner: str, other: str) -> bool:
    """Whether ``audience`` (of ``owner``'s privacy) takes in ``other``."""
    if audience == "everyone":
        return True
    if audience == "following":
        found = select(follows.c.user_id).where(follows.c.user_id == owner, follows.c.other_id == other)
        return conn.execute(found).first() is not None
    return False


def _tables_of(conn: Connection, user_ids: list[str]) -> dict[str, str]:
    """For each of the accounts that holds a seat at a table whose match is in play: a public such table's id, or
    ``"private"`` where all of them are private (one query for all)."""
    if not user_ids:
        return {}
    rows = conn.execute(
        select(seats.c.user_id, tables.c.id, tables.c.settings)
        .join(tables, seats.c.table_id == tables.c.id)
        .join(matches, and_(matches.c.table_id == tables.c.id, matches.c.match_no == tables.c.match_no))
        .where(seats.c.user_id.in_(user_ids), tables.c.closed.is_(False), matches.c.finished_at.is_(None))
        .order_by(seats.c.user_id, tables.c.id)
    ).all()
    found: dict[str, str] = {}
    for r in rows:
        if json.loads(r.settings).get("public", True):
            if found.get(r.user_id, "private") == "private":
                found[r.user_id] = str(r.id)
        else:
            found.setdefault(r.user_id, "private")
    return found
