"""The lobby of every process: the public tables the other processes serve, heard through PostgreSQL's
LISTEN/NOTIFY, so that the list a client reads is the whole site's whichever process answers it.

Each process publishes, on the channel ``clubs_lobby``, the lobby entry of every public table it serves (its
summary, as :meth:`LiveTable.summary` gives it, and when it was made), once a second for those whose entry changed
and every ten seconds for all of them, and a word when a table leaves it (closed, handed over, made private); and,
the same way, how many people are seated at its tables in play (the lobby's "playing now"). Each process listens
and keeps the others' entries and counts; an entry not heard again for three refreshes is dropped (its process
died, and nobody has taken the table over yet). A process that starts asks the others to publish everything at once.
A connection to the database that is lost (the database restarted, the connection was ended by an operator; one that
dies without a word is noticed by TCP keepalives within about 25 s) is made again at the next try, logged, and a
listener that comes back asks for everything again, since what was said while it was away is lost: a process's lobby
never stays deaf or dumb after the database comes back.

Why PostgreSQL's LISTEN/NOTIFY and not Redis pub/sub: several processes need PostgreSQL already, so the broker adds
no server to run, secure and watch; a notification is delivered to every listener of the database, in order, with
nothing to configure; and what the lobby needs is small (an entry of about a kilobyte, a few per second per busy
table at most, coalesced to one a second). Redis carries more a second and is quicker at the tail (both measured
by ``bench/broker.py``, figures in docs/server.md), which a card-game lobby does not need; the load measured over
one, two and three processes is in docs/server.md ("Load"). A player's own table needs no broker: its socket ends
at its owner (``forwarding``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

import psycopg
from sqlalchemy.engine import URL

from clubsuite.jsonform import JsonObject
from clubsuite.server.table.hub import Hub

log = logging.getLogger("clubsuite.server")

CHANNEL = "clubs_lobby"
BEAT = 1.0
"""Seconds between two publications of the entries that changed."""
REFRESH = 10.0
"""Every entry is published again at least this often; one not heard for three times this long is dropped."""
MAX_PAYLOAD = 7900
"""PostgreSQL refuses a notification of 8000 bytes or more: a larger entry is not published (and logged)."""
RETRY = 1.0
"""Seconds between two tries to listen again after the listener's connection was lost."""
KEEPALIVE_IDLE = 10
"""Seconds a lobby connection may be silent before TCP asks whether the other end is there (then every 5 s, three
times): a connection that dies without a word (a fail-over, a firewall forgetting it) is noticed within about 25 s
rather than the system's two hours; a connection that cannot be made gives up after 10 s."""
APPLICATION_NAME = "clubs-lobby"
"""The connections' name as PostgreSQL lists them (``pg_stat_activity``), so an operator can tell them apart."""


def libpq_url(url: URL) -> str:
    """The database URL for psycopg itself (the store's names SQLAlchemy's driver)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class Lobbycast:
    """This process's part of the site-wide lobby (see the module docstring)."""

    def __init__(self, hub: Hub, url: URL) -> None:
        assert hub.ownership is not None, "a lobby across processes needs the processes' leases"
        self.hub = hub
        self.node = hub.ownership.node
        self.url = libpq_url(url)
        self.heard: dict[str, tuple[str, float, JsonObject, float]] = {}
        """The other processes' entries by table id: (node, the table's creation time, summary, when heard)."""
        self.presences: dict[str, tuple[int, int, float]] = {}
        """The other processes' counts by node: (people seated, their tables, when heard); see :meth:`Hub.presence`."""
        self._presence: tuple[tuple[int, int], float] | None = None
        """This process's count as last published, and when."""
        self._published: dict[str, tuple[str, float]] = {}
        """This process's entries as last published: the entry's JSON and when."""
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._sender: psycopg.AsyncConnection[Any] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._everything = False
        """Set when another process asked for every entry (it has just started)."""
        self._sending = asyncio.Lock()
        """One message at a time on the sender: the publisher and a listener that comes back both send."""
        self._stopping = False

    async def start(self) -> None:
        """Listen, ask the others for their entries, and start publishing this process's."""
        self._listener = await self._listening()
        self._sender = await self._connect()
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._publish())]
        await self._send({"node": self.node, "hello": True})

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(
            self.url,
            autocommit=True,
            application_name=f"{APPLICATION_NAME} {self.node}",
            connect_timeout=10,
            keepalives=1,
            keepalives_idle=KEEPALIVE_IDLE,
            keepalives_interval=5,
            keepalives_count=3,
        )

    async def _listening(self) -> psycopg.AsyncConnection[Any]:
        conn = await self._connect()
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def stop(self) -> None:
        """Say this process's tables left it (where the sender's connection is still there: a stop never waits on
        making one), stop, and close the connections."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            for table_id in list(self._published):
                await self._send({"node": self.node, "table": table_id, "gone": True})
        for conn in (self._listener, self._sender):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    def entries(self) -> list[tuple[float, JsonObject]]:
        """The other processes' public tables, as (creation time, summary), without those this process now serves
        (taken over since they were heard) and those heard too long ago."""
        now = time.monotonic()
        return [
            (created, summary)
            for table_id, (_, created, summary, at) in self.heard.items()
            if table_id not in self.hub.tables and now - at < 3 * REFRESH
        ]

    def presence(self) -> tuple[int, int]:
        """The other processes' people seated and their tables, from the counts heard lately."""
        now = time.monotonic()
        fresh = [(people, tables) for people, tables, at in self.presences.values() if now - at < 3 * REFRESH]
        return sum(p for p, _ in fresh), sum(t for _, t in fresh)

    # -- hearing -----------------------------------------------------------------------------------------------
    async def _listen(self) -> None:
        """Hear the others for as long as this process runs, listening again (and asking for everything) after the
        connection is lost."""
        while True:
            try:
                if self._listener is None:
                    self._listener = await self._listening()
                    log.warning("the lobby listens again")
                    with contextlib.suppress(psycopg.Error):  # else the others' refresh brings everything back
                        await self._send({"node": self.node, "hello": True})
                await self._hear_all(self._listener)
            except psycopg.Error:
                log.warning("the lobby's listener lost the database; it listens again in %s s", RETRY)
            except Exception:  # never deaf for good: whatever it was is logged and listening starts again
                log.exception("the lobby's listener stopped; it listens again in %s s", RETRY)
            if self._listener is not None:
                with contextlib.suppress(Exception):
                    await self._listener.close()
                self._listener = None
            await asyncio.sleep(RETRY)

    async def _hear_all(self, listener: psycopg.AsyncConnection[Any]) -> None:
        async for note in listener.notifies():
            try:
                self._hear(json.loads(note.payload))
            except (ValueError, KeyError, TypeError):
                log.warning("a lobby message that is not one was ignored")

    def _hear(self, message: JsonObject) -> None:
        node = str(message["node"])
        if node == self.node:
            return
        if message.get("hello"):
            self._everything = True
            return
        if "presence" in message:
            people, tables = (int(n) for n in message["presence"])
            if min(people, tables) < 0:
                raise ValueError("a count is not negative")
            self.presences[node] = (people, tables, time.monotonic())
            return
        table_id = str(message["table"])
        if message.get("gone"):
            if table_id in self.heard and self.heard[table_id][0] == node:
                del self.heard[table_id]
            return
        summary = message["summary"]
        if not isinstance(summary, dict):
            raise TypeError("a summary is an object")
        self.heard[table_id] = (node, float(message["created_at"]), summary, time.monotonic())

    # -- publishing --------------------------------------------------------------------------------------------
    async def _publish(self) -> None:
        while True:
            await asyncio.sleep(BEAT)
            try:
                await self._publish_once()
            except Exception:  # the database is away: tried again at the next beat
                log.exception("the lobby could not be published")

    async def _publish_once(self) -> None:
        now = time.monotonic()
        everything, self._everything = self._everything, False
        listed = {t.id: t for t in list(self.hub.tables.values()) if t.settings.public and not t.closed}
        for table_id, table in listed.items():
            entry = json.dumps(table.summary(), sort_keys=True, separators=(",", ":"))
            before = self._published.get(table_id)
            if before is not None and before[0] == entry and now - before[1] < REFRESH and not everything:
                continue
            payload = f'{{"node":{json.dumps(self.node)},"table":{json.dumps(table_id)},'
            payload += f'"created_at":{table.created_at!r},"summary":{entry}}}'
            if len(payload.encode()) > MAX_PAYLOAD:
                log.warning("table %s: its lobby entry is too large to publish", table_id)
                continue
            await self._send_text(payload)
            self._published[table_id] = (entry, now)
        for table_id in [t for t in self._published if t not in listed]:
            await self._send({"node": self.node, "table": table_id, "gone": True})
            del self._published[table_id]
        count = self.hub.presence()
        last = self._presence
        if last is None or last[0] != count or now - last[1] >= REFRESH or everything:
            await self._send({"node": self.node, "presence": list(count)})
            self._presence = (count, now)

    async def _send(self, message: JsonObject) -> None:
        await self._send_text(json.dumps(message, separators=(",", ":")))

    async def _send_text(self, payload: str) -> None:
        """Notify the others; a sender whose connection was lost is connected again at the next message (not while
        stopping)."""
        async with self._sending:
            if self._sender is None or self._sender.closed:
                if self._stopping:
                    raise psycopg.OperationalError("the lobby's sender is gone and the process is stopping")
                self._sender = await self._connect()
            try:
                await self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            except psycopg.OperationalError:
                with contextlib.suppress(Exception):
                    await self._sender.close()
                self._sender = None
                raise
