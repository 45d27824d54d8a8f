"""The page's socket (``/live``): any page opens it once to be sent what it watches and what is meant for its
account (:mod:`clubsuite.server.community.watching`; the messages in docs/protocol.md, "The page's socket")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fastapi import APIRouter, WebSocket

from clubsuite.server.community.watching import LiveError, LivePing, Watch, Watcher, Watching, encode, parse
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.services import AccountsDep, LimitsDep, WatchingDep
from clubsuite.server.http.sessions import COOKIE
from clubsuite.server.table.live import Refused
from clubsuite.server.table.socket import read_messages, write_messages

log = logging.getLogger("clubsuite.server")


router = APIRouter()
"""The page's socket's route."""


@router.websocket("/live")
async def live(ws: WebSocket, accounts: AccountsDep, watching: WatchingDep, limits: LimitsDep) -> None:
    """A page's socket: welcomed with the server's clock, then sent what it watches until it goes."""
    await ws.accept()
    secret = ws.cookies.get(COOKIE)
    found = await accounts.session(secret) if secret else None
    user = found[1] if found is not None else None
    try:
        w = watching.open(user.id if user is not None else None, client_address(ws.scope))
    except Refused as exc:
        with contextlib.suppress(Exception):
            await ws.send_text(encode({"type": "error", "code": exc.code, "message": str(exc)}))
            await ws.close(code=4429)
        return
    # the server's clock: a page counts the time to a tournament's start or end with it, not its own
    w.send(encode({"type": "welcome", "name": user.name if user is not None else None, "now": time.time()}))
    writer = asyncio.create_task(_write(ws, w))
    try:
        await _read(ws, w, watching, limits.max_ws_bytes)
    finally:
        watching.close(w)
        w.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


async def _read(ws: WebSocket, w: Watcher, watching: Watching, max_bytes: int) -> None:
    async def handle(data: str | bytes) -> None:
        try:
            msg = parse(data, max_bytes)
            if isinstance(msg, LivePing):
                w.send(encode({"type": "pong"}))
            elif isinstance(msg, Watch):
                watching.watch(w, msg.topic)
            else:
                watching.unwatch(w, msg.topic)
        except LiveError as exc:
            w.send(encode({"type": "error", "code": exc.code, "message": str(exc)}))

    def too_fast() -> None:
        w.send(encode({"type": "error", "code": "rate_limited", "message": "too many messages: slow down"}))

    await read_messages(ws, lambda: not w.dropped, handle, too_fast)


async def _write(ws: WebSocket, w: Watcher) -> None:
    def gone() -> None:
        w.dropped = True

    await write_messages(ws, w.queue, str, gone)
