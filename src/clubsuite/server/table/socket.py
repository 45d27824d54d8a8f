"""One client's WebSocket at a table (``/tables/{id}/ws``, docs/protocol.md): hello, then the client's messages in
and the table's messages out, each direction its own task."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar, cast

from fastapi import WebSocket, WebSocketDisconnect

from clubsuite.jsonform import JsonObject
from clubsuite.safetext import quoted
from clubsuite.server.table.connection import Connection
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.table.protocol import (
    Act,
    Chat,
    Hello,
    Hint,
    Ping,
    ProtocolError,
    RateLimit,
    encode,
    parse_client_message,
)
from clubsuite.tabletalk import error, message

log = logging.getLogger("clubsuite.server")

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to say hello."""


async def serve_socket(hub: Hub, ws: WebSocket, table_id: str, address: str, viewer: str | None = None) -> None:
    """One client's connection from ``address`` (as the guard counts it; ``viewer``: the account its session
    cookie opens, if any): hello, then its messages in, the table's messages out."""
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        hello = parse_client_message(first, hub.limits.max_ws_bytes)
        if not isinstance(hello, Hello):
            raise ProtocolError("bad_message", "the first message must be hello")
    except (TimeoutError, ProtocolError, WebSocketDisconnect, KeyError, RuntimeError) as exc:
        code = exc.code if isinstance(exc, ProtocolError) else "bad_message"
        await _refuse(ws, code, str(exc) if isinstance(exc, ProtocolError) else "say hello first, within 10 seconds")
        return
    # Looked up only after hello: a table that does not exist and a private one asked for without its invite or a
    # seat token are answered alike, at the same moment.
    table = await hub.serving(table_id)  # a parked turn-based table is woken (docs/server.md)
    seat: int | None = None
    if table is None or not hub.may_see(table, hello.invite, hello.token):
        await _refuse(ws, "no_table", f"there is no table {quoted(table_id, 40)}", 4404)
        return
    if hello.token is not None:
        seat = hub.seat_of(table, hello.token)
        if seat is None:
            await _refuse(ws, "bad_token", "that token holds no seat at this table", 4403)
            return
    elif not table.settings.spectators or not table.has_spectator_view:
        await _refuse(ws, "no_spectators", "this table allows no spectators", 4403)
        return
    # a seat's account, else the session's (a signed-in person at a guest's seat, or watching): its blocks hide lines
    # from it, and its mute or ban keeps it from chatting
    user_id = (table.seats[seat].user_id if seat is not None else None) or viewer
    hidden = await hub.relations.hidden(user_id) if hub.relations is not None and user_id is not None else frozenset()
    conn = Connection(seat, address=address, user_id=user_id, hidden=hidden)
    # Registered, welcomed and sent the state under the table's lock: an action being committed is either told in
    # this state or comes after it as the next update, never both nor neither. Nothing is awaited on the socket
    # while the lock is held (the messages are queued; the writer sends them once it is released).
    async with table.lock:
        # Asked again under the lock: the table may have been closed, or the seat given up (its token cleared and
        # perhaps taken by someone else), while this client was waiting for it.
        if table.parked:  # left this process's memory meanwhile: the client comes back and wakes it
            refusal: tuple[str, str] | None = ("moved", "the table is being put away: reconnect")
        elif table.closed or not hub.may_see(table, hello.invite, hello.token):
            refusal = ("no_table", f"there is no table {quoted(table_id, 40)}")
        elif hello.token is not None and hub.seat_of(table, hello.token) != seat:
            refusal = ("bad_token", "that token holds no seat at this table")
        else:
            full = hub.admission.refused(table, seat, address)
            refusal = ("too_many_connections", full) if full is not None else None
        if refusal is None:
            hub.admission.connected(table, conn, address)
            try:
                role = "seat" if seat is not None else "spectator"
                conn.send(message("welcome", table=table.id, seat=seat, role=role))
                caught = table.catchup(hello.last_version) if hello.last_version is not None else None
                if caught is not None:
                    conn.send(caught)
                resync = hello.last_version is not None and caught is None
                conn.send(table.state(seat, resync=resync, hidden=conn.hidden))
                table.broadcast_presence()
                table.reschedule()
            except Exception:
                hub.admission.disconnected(table, conn, address)
                raise
    if refusal is not None:
        await _refuse(ws, *refusal, {"no_table": 4404, "bad_token": 4403, "moved": 1013}.get(refusal[0], 4429))
        return
    writer = asyncio.create_task(_write(ws, conn))
    try:
        await _read(hub, table, ws, conn)
    finally:
        hub.admission.disconnected(table, conn, address)
        conn.send_close()
        with contextlib.suppress(Exception):
            await writer
        if not hub.stopping:
            table.broadcast_presence()
            table.reschedule()


async def _refuse(ws: WebSocket, code: str, text: str, close: int = 4400) -> None:
    """Send one error and close the socket (the client may be gone already)."""
    with contextlib.suppress(Exception):
        await ws.send_json(error(code, text))
        await ws.close(code=close)


async def read_messages(
    ws: WebSocket,
    open_: Callable[[], bool],
    handle: Callable[[str | bytes], Awaitable[None]],
    too_fast: Callable[[], None],
) -> None:
    """Read a client's messages until it leaves (or ``open_()`` turns false: its writer found it gone): each one
    over the per-socket rate is answered by ``too_fast()`` and dropped, every other handed to ``handle``, one at a
    time. The one read loop of the server's sockets: a table's and the pages' ``/live``."""
    limit = RateLimit(time.monotonic())
    while open_():
        try:
            raw = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if raw.get("type") == "websocket.disconnect":
            return
        text = raw.get("text")
        data = text if text is not None else raw.get("bytes") or b""
        if not limit.allow(time.monotonic()):
            too_fast()
            continue
        await handle(data)


class Outbox(Protocol[T_co]):
    """What a socket's writer reads from: a queue's ``get``."""

    async def get(self) -> T_co:
        """The next message, waited for."""
        ...


async def write_messages(
    ws: WebSocket, queue: Outbox[T | None], encoded: Callable[[T], str], gone: Callable[[], None]
) -> None:
    """Send what ``queue`` holds, in order, each as ``encoded`` words it, until None (then close the socket) or a
    send fails (then ``gone()``): the one write loop of the server's sockets."""
    while True:
        msg = await queue.get()
        if msg is None:
            with contextlib.suppress(Exception):
                await ws.close()
            return
        try:
            await ws.send_text(encoded(msg))
        except Exception:
            gone()
            return


async def _read(hub: Hub, table: LiveTable, ws: WebSocket, conn: Connection) -> None:
    async def handle(data: str | bytes) -> None:
        try:
            await _handle(hub, table, conn, data)
        except Exception:  # a fault of the server: said, logged, and the connection and the table go on
            log.exception("table %s: a message could not be handled", table.id)
            conn.send(error("server", "the server could not handle that message; nothing changed"))

    await read_messages(
        ws,
        lambda: not conn.dropped,
        handle,
        lambda: conn.send(error("rate_limited", "too many messages: slow down")),
    )


async def _handle(hub: Hub, table: LiveTable, conn: Connection, data: str | bytes) -> None:
    """One client message after hello."""
    try:
        msg = parse_client_message(data, hub.limits.max_ws_bytes)
    except ProtocolError as exc:
        conn.send(error(exc.code, str(exc)))
        return
    if isinstance(msg, Ping):
        conn.send(message("pong", version=table.version))
    elif isinstance(msg, Hello):
        conn.send(error("bad_message", "hello comes once, first"))
    elif isinstance(msg, Chat):  # seats and spectators alike, each to their own channel
        refused = await _chat_refused(hub, conn)
        if refused is not None:  # a muted or banned account is told what and why
            conn.send(error("chat_refused", refused))
            return
        try:
            table.post_chat(conn, msg.text)
        except ProtocolError as exc:
            conn.send(error(exc.code, str(exc)))
    elif conn.seat is None:
        conn.send(
            error("not_seated", "a spectator cannot act" if isinstance(msg, Act) else "a spectator gets no hints")
        )
    elif isinstance(msg, Act):
        try:
            await table.apply(conn.seat, msg.action, msg.version)
        except Refused as exc:
            conn.send(error(exc.code, exc.reason or str(exc), table.version))
    elif isinstance(msg, Hint):
        try:
            action = await table.hint(conn.seat, msg.version)
        except Refused as exc:
            conn.send(error(exc.code, exc.reason or str(exc), table.version))
            return
        conn.send(message("hint", version=msg.version, action=action))


async def _chat_refused(hub: Hub, conn: Connection) -> str | None:
    """Why the client's account may not chat now (a moderator's mute or ban), or None."""
    if hub.moderation is None or conn.user_id is None:
        return None
    return await hub.moderation.chat_refusal(conn.user_id)


async def _write(ws: WebSocket, conn: Connection) -> None:
    def gone() -> None:
        conn.dropped = True

    def encoded(msg: object) -> str:
        return msg if isinstance(msg, str) else encode(cast(JsonObject, msg))

    await write_messages(ws, conn.queue, encoded, gone)
