"""What the site pushes to open pages over their one socket (``/live``): the lobby's list of tournaments, a
tournament's standings, and what is meant for one account alone (its notices: a tournament table ready for it,
invitations, a moderator's word). An account with a page open here is *online*: the process writes so every
:data:`~clubsuite.server.people.relations.PRESENCE_EVERY` seconds (``people.relations``).

A page opens the socket once and *watches* topics: ``tournaments`` (the lobby's list) or ``tournament:<id>`` (one
tournament: its settings, status and the first page of its standings, and, for a signed-in entrant, their own line).
Nothing is polled per client: every :data:`PUSH_EVERY` seconds this process reads, in one query per kind, whether
anything watched has changed (the tournaments' versions); what changed is worked out and encoded **once** and the
same text queued for every watcher of it, so that changes in between are coalesced into one message and the cost of
a change does not grow with its watchers beyond queuing a string. The versions are the database's, so a change made
by another process reaches this process's watchers as surely as one made here.

Bounds: sockets per address (the server's limit, counted apart from the tables'), :data:`TOPICS_MAX` topics per
socket, each message's size and rate (the table protocol's), and a watcher that does not read its messages
(:data:`QUEUE_MAX` queued) is dropped rather than kept in memory.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from sqlalchemy import func, select

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.records.files import parse_record
from clubsuite.server.community.ticking import Ticker
from clubsuite.server.community.tournaments import Tournaments
from clubsuite.server.limits import ServerLimits
from clubsuite.server.people.notices import Notices
from clubsuite.server.people.relations import PRESENCE_EVERY, Relations
from clubsuite.server.store.dbschema import tournaments
from clubsuite.server.table.live import Refused

log = logging.getLogger("clubsuite.server")

PUSH_EVERY = 1.0
"""Seconds between two looks at what the watchers watch (changes in between go out as one message)."""
TOPICS_MAX = 8
"""Topics one socket may watch at once."""
QUEUE_MAX = 64
"""Messages queued for a socket that is not reading them before it is dropped."""
NOTICE_WINDOW = 30.0
"""How far back each look for new notices reads (seconds, by the clocks of the processes that added them): a notice is
sent once (by its id), and this bounds the look's cost however long a page has been open; a look stalled longer than
this may miss one, which the page still reads over HTTP when it next opens."""
TOPIC = re.compile(r"^(tournaments|tournament:[A-Za-z0-9_-]{1,40})$")
"""The topics there are."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Watch(_In):
    """Watch a topic: ``tournaments`` (the lobby's list) or ``tournament:<id>``."""

    type: Literal["watch"]
    topic: str = Field(..., max_length=60, description="tournaments, or tournament:<id>")


class Unwatch(_In):
    """Stop watching a topic."""

    type: Literal["unwatch"]
    topic: str = Field(..., max_length=60, description="a topic being watched")


class LivePing(_In):
    """Keep-alive: answered with pong."""

    type: Literal["ping"]


LiveMessage = Watch | Unwatch | LivePing
READER: TypeAdapter[LiveMessage] = TypeAdapter(Annotated[LiveMessage, Field(discriminator="type")])


class LiveError(Exception):
    """A message refused: its code and words."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def parse(data: str | bytes, max_bytes: int) -> LiveMessage:
    """One message of a page's socket (:class:`LiveError` naming the problem: size, JSON, type, field)."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > max_bytes:
        raise LiveError("too_large", f"a message may have at most {max_bytes} bytes (this one had {size})")
    try:
        raw = parse_record(data, "the message")
    except ClubsError as exc:
        raise LiveError("bad_json", f"a message must be one JSON object: {exc}") from None
    if not isinstance(raw, dict):
        raise LiveError("bad_json", "a message must be one JSON object")
    try:
        return READER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_context=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "type"
        if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
            raise LiveError("bad_message", "'type': expected watch, unwatch or ping") from None
        raise LiveError("bad_message", f"{where!r}: {first['msg']}") from None


def encode(message: JsonObject) -> str:
    """A message as sent."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass(eq=False)
class Watcher:
    """One open page's socket: whose it is, what it watches, its queue of messages."""

    user_id: str | None
    address: str
    topics: set[str] = field(default_factory=set)
    seen: JsonObject = field(default_factory=dict)
    """The version of each topic last sent to it."""
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dropped: bool = False

    def send(self, text: str) -> None:
        """Queue a message; a socket that has left :data:`QUEUE_MAX` unread is dropped."""
        if self.dropped:
            return
        if self.queue.qsize() >= QUEUE_MAX:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


class Watching(Ticker):
    """The open pages' sockets of this process and what they watch (see the module), looked at every
    :data:`PUSH_EVERY` seconds."""

    every = PUSH_EVERY
    what = "pushing to the watchers"

    def __init__(
        self,
        keeper: Tournaments,
        limits: ServerLimits,
        relations: Relations | None = None,
        notices: Notices | None = None,
    ) -> None:
        self.keeper = keeper
        self.limits = limits
        self.relations = relations
        self.notices = notices
        if notices is not None:
            notices.told = self.tell_notice
        self._told: dict[str, float] = {}
        """The notices of the look's window (:data:`NOTICE_WINDOW`) already sent to their account's pages, with the
        time each was added: each goes once, whichever process added it, however its clock differs from this one's,
        and also when no page of its account was open when it was added (a page opened since reads it over HTTP)."""
        self._presence_at = 0.0
        self._list_key: tuple[Any, ...] | None = None
        """What the lobby's list was last made at (the tournaments' count and versions)."""
        self.watchers: set[Watcher] = set()
        self.by_user: dict[str, set[Watcher]] = {}
        self.by_topic: dict[str, set[Watcher]] = {}
        self.by_address: Counter[str] = Counter()
        self._made: dict[str, tuple[Any, str]] = {}
        """Each watched topic's latest message: (its version, the text), made once for all its watchers."""
        self.pushes = 0
        """Messages made for topics (each sent to all of the topic's watchers): a figure for the measurements."""

    def open(self, user_id: str | None, address: str) -> Watcher:
        """A new page's socket (:class:`Refused` when its address holds as many as it may)."""
        if self.by_address[address] >= self.limits.sockets_per_address:
            raise Refused(
                "too_many_connections",
                f"your address has {self.limits.sockets_per_address} connections open, the most it may have",
            )
        w = Watcher(user_id, address)
        self.watchers.add(w)
        self.by_address[address] += 1
        if user_id is not None:
            if user_id not in self.by_user:
                self._presence_at = 0.0  # written at the next look: a friend sees it online at once
            self.by_user.setdefault(user_id, set()).add(w)
        return w

    def close(self, w: Watcher) -> None:
        """A page's socket gone."""
        self.watchers.discard(w)
        self.by_address[w.address] -= 1
        if self.by_address[w.address] <= 0:
            del self.by_address[w.address]
        if w.user_id is not None:
            mine = self.by_user.get(w.user_id, set())
            mine.discard(w)
            if not mine:
                self.by_user.pop(w.user_id, None)
        for topic in list(w.topics):
            self.unwatch(w, topic)

    def watch(self, w: Watcher, topic: str) -> None:
        """Watch ``topic`` (its latest message is sent at the next push)."""
        if not TOPIC.match(topic):
            raise LiveError("bad_topic", "'topic': expected tournaments or tournament:<id>")
        if topic not in w.topics and len(w.topics) >= TOPICS_MAX:
            raise LiveError("too_many_topics", f"a socket watches at most {TOPICS_MAX} topics: unwatch one first")
        w.topics.add(topic)
        w.seen.pop(topic, None)
        self.by_topic.setdefault(topic, set()).add(w)

    def unwatch(self, w: Watcher, topic: str) -> None:
        """Stop watching ``topic``."""
        w.topics.discard(topic)
        w.seen.pop(topic, None)
        watching = self.by_topic.get(topic)
        if watching is not None:
            watching.discard(w)
            if not watching:
                del self.by_topic[topic]
                self._made.pop(topic, None)
                if topic == "tournaments":
                    self._list_key = None

    def tell_notice(self, user_id: str, notice: JsonObject) -> None:
        """A notice added in this process: sent to the account's open pages at once (and not again by the look for
        new notices)."""
        self._told[str(notice["id"])] = float(notice["at"])
        self.tell(user_id, {"type": "notice", "notice": notice})

    def tell(self, user_id: str, message: JsonObject) -> None:
        """Send ``message`` to every open page of one account (now)."""
        mine = self.by_user.get(user_id)
        if mine:
            text = encode(message)
            for w in mine:
                w.send(text)

    async def round(self) -> None:
        """One look at what is watched (:meth:`push`)."""
        await self.push()

    async def stop(self) -> None:
        """Stop pushing and close every socket."""
        await super().stop()
        for w in list(self.watchers):
            w.queue.put_nowait(None)

    async def look_around(self, now: float | None = None) -> None:
        """Write who has a page open here (every :data:`~clubsuite.server.people.relations.PRESENCE_EVERY`
        seconds), and send the accounts with a page open the notices added for them since the last look (by any
        process)."""
        now = time.time() if now is None else now
        users = list(self.by_user)
        if self.relations is not None and users and now - self._presence_at >= PRESENCE_EVERY:
            self._presence_at = now
            await self.relations.seen(users, now)
        if self.notices is not None:
            # the last half-minute only (by the adding processes' clocks): a page open for hours is not sent its
            # hours of notices again at every look; each notice of the window goes once, by its id (a page that
            # opened within it may be sent one it also read over HTTP: the page shows a notice once, by its id, and
            # takes one added before it opened as a kept one)
            since = now - NOTICE_WINDOW
            found = await self.notices.since(users, since) if users else []
            for user_id, notice in found:
                if notice["id"] not in self._told:
                    self._told[str(notice["id"])] = float(notice["at"])
                    self.tell(user_id, {"type": "notice", "notice": notice})
            # what left the window (by the same clock the reading above goes by) is never read again
            self._told = {k: at for k, at in self._told.items() if at > since}

    async def push(self) -> None:
        """One look at what is watched: make each changed topic's message once, and send every watcher the
        topics' messages it has not seen."""
        await self.look_around()
        database = self.keeper.database
        topics = list(self.by_topic)
        if "tournaments" in topics:
            counted = select(func.count(), func.coalesce(func.sum(tournaments.c.version), 0))
            key = tuple((await database.read(counted))[0])
            if key != self._list_key:
                self._list_key = key
                listing = [{k: v for k, v in x.items() if k != "version"} for x in await self.keeper.listing()]
                text = encode({"type": "tournaments", "tournaments": listing})
                # sent again only when what the list shows changed, not at every standings change of a tournament
                if text != self._made.get("tournaments", (None, ""))[1]:
                    self._made["tournaments"] = (hashlib.sha256(text.encode()).hexdigest(), text)
                    self.pushes += 1
        ids = [t.split(":", 1)[1] for t in topics if t.startswith("tournament:")]
        if ids:
            rows = await database.read(select(tournaments.c.id, tournaments.c.version).where(tournaments.c.id.in_(ids)))
            versions = {r.id: r.version for r in rows}
            for tid in ids:
                topic = f"tournament:{tid}"
                version = versions.get(tid)
                if self._made.get(topic, (None, ""))[0] == version and topic in self._made:
                    continue
                try:
                    if version is None:
                        raise Refused("no_tournament", "there is no such tournament")
                    view = await self.keeper.view(tid)
                    version = view["version"]  # the version the view was made at (it may have grown since the read)
                    made = encode({"type": "tournament", "topic": topic, "tournament": view})
                except Refused as exc:  # gone, or not a tournament of these formats (a club night)
                    made = encode({"type": "error", "code": exc.code, "topic": topic, "message": str(exc)})
                except Exception:  # one topic's fault never stops the others: its last message stands
                    log.exception("tournament %s could not be pushed", tid)
                    continue
                self._made[topic] = (version, made)
                self.pushes += 1
        for topic, watching in list(self.by_topic.items()):
            version, text = self._made.get(topic, (None, ""))
            if not text:
                continue
            personal = topic.startswith("tournament:")
            for w in list(watching):
                if w.seen.get(topic, ()) == version:
                    continue
                w.seen[topic] = version
                w.send(text)
                if personal and w.user_id is not None and version is not None:
                    me = await self.keeper.line_of(topic.split(":", 1)[1], version, w.user_id)
                    if me is not None:
                        w.send(encode({"type": "tournament_me", "topic": topic, "version": version, "me": me}))
