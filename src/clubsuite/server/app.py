"""The web application: the lobby over HTTP (JSON, described by its OpenAPI schema at ``/openapi.json``) and each
table's WebSocket at ``/tables/{id}/ws`` (``docs/protocol.md``).

:func:`create_app` builds it over a store; the hub's tables are rebuilt when the application starts and their
writes finished when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

import uvicorn
from fastapi import FastAPI, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from clubsuite import __version__
from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import lobby_order
from clubsuite.engine import games
from clubsuite.errors import ClubsError
from clubsuite.schema.build import game_schemas
from clubsuite.schema.parts import options_schema
from clubsuite.server import web
from clubsuite.server.hub import Hub, SeatRequest
from clubsuite.server.live import Connection, LiveTable, Refused
from clubsuite.server.protocol import (
    Act,
    Hello,
    Hint,
    Ping,
    ProtocolError,
    RateLimit,
    error,
    message,
    parse_client_message,
)
from clubsuite.server.settings import TableSettings
from clubsuite.server.store import Store

log = logging.getLogger("clubsuite.server")

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to say hello."""


class SeatIn(BaseModel):
    """One seat of a new table."""

    kind: str = Field("person", description="person (taken later by someone joining) or bot")
    bot: str | None = Field(None, description="the bot that plays the seat (a bot seat, or a person's while away)")


class TableIn(BaseModel):
    """A new table: the game with its options, its seats and its house rules."""

    game: str = Field(
        ..., description="a rules spec: a game or variant name, options in brackets (GET /games lists them)"
    )
    seats: list[SeatIn] | None = Field(None, description="one per seat; default: every seat a person's")
    public: bool = True
    spectators: bool = True
    clock: float | None = Field(None, description="seconds per decision, or null for no clock")
    grace: float = Field(30.0, description="seconds before a bot plays an absent player's seat")
    bot_delay: float = Field(0.5, description="seconds a bot waits before acting")
    hints: bool = Field(False, description="a seat may ask for a hint: the heuristic bot's choice from its own view")


class JoinIn(BaseModel):
    """Taking a seat."""

    name: str = Field(..., description="a display name: 1 to 24 letters, digits, spaces and - _ . '")
    seat: int | None = Field(None, description="the seat wanted (default: the lowest free one)")


class TokenIn(BaseModel):
    """A request made with a seat token."""

    token: str


def _refusal(exc: Refused | ClubsError) -> HTTPException:
    if isinstance(exc, Refused):
        status = {"no_table": 404, "no_match": 404, "bad_token": 403, "not_over": 409}.get(exc.code, 409)
        return HTTPException(status, {"code": exc.code, "message": str(exc)})
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


def create_app(store: Store) -> FastAPI:
    """The application over ``store`` (tables are rebuilt from it when the application starts)."""
    hub = Hub(store)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    # No /docs or /redoc pages: FastAPI builds them from scripts on a third-party CDN, which the server should neither
    # depend on nor hand to its users; the schema itself is at /openapi.json.
    app = FastAPI(title="clubsuite", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up, and how many tables it serves."""
        return {"status": "stopping" if hub.stopping else "ok", "tables": len(hub.tables)}

    @app.get("/games")
    async def list_games() -> list[dict[str, Any]]:
        """The games, their seat counts, named variants (with the options each sets), options (a JSON Schema each:
        type, range or choices, default, description with its ruling) and bots."""
        schemas = {info.name: part for info, part in game_schemas()}
        out: list[dict[str, Any]] = []
        for g in games():
            part = schemas.get(g.name)
            options = options_schema(g.options_class, part.option_ranges)["properties"] if part is not None else {}
            out.append(
                {
                    "name": g.name,
                    "title": g.title,
                    "seats": list(g.seats),
                    "variants": sorted(g.variants),
                    "variant_options": {name: dict(opts) for name, opts in sorted(g.variants.items())},
                    "options": options,
                    "examples": list(g.examples),
                    "bots": lobby_order(bot_names(g.name)),
                }
            )
        return out

    @app.post("/tables", status_code=201)
    async def create(body: TableIn) -> dict[str, Any]:
        """Make a table; the answer holds its id and invite code (take a seat with ``/tables/{id}/join``)."""
        try:
            settings = TableSettings(
                public=body.public,
                spectators=body.spectators,
                clock=body.clock,
                grace=body.grace,
                bot_delay=body.bot_delay,
                hints=body.hints,
            )
            from clubsuite.engine import resolve

            info, options = resolve(body.game)
            n = info.n_seats(options)
            given = body.seats
            seats = [SeatRequest(s.kind, s.bot) for s in given] if given is not None else [SeatRequest("person")] * n
            table = await hub.create_table(body.game, seats, settings)
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {**table.summary(), "invite": table.invite}

    @app.get("/tables")
    async def list_tables() -> list[dict[str, Any]]:
        """The public tables that have a free seat or a match in play."""
        return [t.summary() for t in hub.tables.values() if t.settings.public]

    def find(table_id: str) -> LiveTable:
        try:
            return hub.table(table_id)
        except Refused as exc:
            raise _refusal(exc) from None

    @app.get("/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        """One table, as anyone may see it."""
        return find(table_id).summary()

    @app.post("/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn) -> dict[str, Any]:
        """Take a seat: the answer holds the seat token (keep it: it is the only way back to the seat)."""
        return await _join(find(table_id), body)

    @app.post("/invites/{code}/join")
    async def join_by_invite(code: str, body: JoinIn) -> dict[str, Any]:
        """Take a seat at the table an invite code opens."""
        try:
            table = hub.by_invite(code)
        except Refused as exc:
            raise _refusal(exc) from None
        return await _join(table, body)

    async def _join(table: LiveTable, body: JoinIn) -> dict[str, Any]:
        try:
            seat, token = await hub.join(table, body.name, body.seat)
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}

    @app.post("/tables/{table_id}/leave")
    async def leave(table_id: str, body: TokenIn) -> dict[str, Any]:
        """Give up a seat (its bot plays it until someone else takes it)."""
        try:
            seat = await hub.leave(find(table_id), body.token)
        except Refused as exc:
            raise _refusal(exc) from None
        return {"table": table_id, "seat": seat}

    @app.post("/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: TokenIn) -> dict[str, Any]:
        """Start the next match with the same seats, once the match is over."""
        table = find(table_id)
        try:
            await hub.rematch(table, body.token)
        except Refused as exc:
            raise _refusal(exc) from None
        return table.summary()

    @app.get("/tables/{table_id}/record.json")
    async def record(table_id: str, match: Annotated[int | None, Query(ge=0)] = None) -> Response:
        """The record of a finished match (the last one by default), in the format ``clubs replay`` reads."""
        try:
            text = await hub.record(find(table_id), match)
        except Refused as exc:
            raise _refusal(exc) from None
        return Response(text, media_type="application/json")

    @app.websocket("/tables/{table_id}/ws")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await serve_socket(hub, ws, table_id)

    async def stored_record(table_id: str, match_no: int | None) -> str:
        try:
            return await hub.record(find(table_id), match_no)
        except Refused as exc:
            raise _refusal(exc) from None

    web.install(app, stored_record)
    app.add_middleware(web.Hardening)

    @app.exception_handler(HTTPException)
    async def http_error(_: Any, exc: HTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, dict) else {"code": "http", "message": str(exc.detail)}
        return JSONResponse(detail, status_code=exc.status_code)

    return app


class ClubsServer(uvicorn.Server):
    """uvicorn's server, which first tells the clients of every table that it is stopping (and finishes the action
    being written) and only then closes their sockets."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Say farewell, then shut down as uvicorn does."""
        await self.hub.farewell()
        await super().shutdown(sockets)


async def serve_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    """One client's connection: hello, then its messages in, the table's messages out."""
    await ws.accept()
    table = hub.tables.get(table_id)
    if table is None:
        await ws.send_json(error("no_table", f"there is no table {table_id!r}"))
        await ws.close(code=4404)
        return
    try:
        first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        hello = parse_client_message(first)
        if not isinstance(hello, Hello):
            raise ProtocolError("bad_message", "the first message must be hello")
    except (TimeoutError, ProtocolError, WebSocketDisconnect, KeyError) as exc:
        with contextlib.suppress(Exception):
            code = exc.code if isinstance(exc, ProtocolError) else "bad_message"
            await ws.send_json(error(code, str(exc) or "say hello first, within 10 seconds"))
            await ws.close(code=4400)
        return
    seat: int | None = None
    if hello.token is not None:
        seat = hub.seat_of(table, hello.token)
        if seat is None:
            await ws.send_json(error("bad_token", "that token holds no seat at this table"))
            await ws.close(code=4403)
            return
    elif not table.settings.spectators or not table.has_spectator_view:
        await ws.send_json(error("no_spectators", "this table allows no spectators"))
        await ws.close(code=4403)
        return
    conn = Connection(seat)
    writer = asyncio.create_task(_write(ws, conn))
    table.connections.add(conn)
    if seat is not None:
        state = table.seats[seat]
        state.connections += 1
        state.away_since = None
    try:
        conn.send(message("welcome", table=table.id, seat=seat, role="seat" if seat is not None else "spectator"))
        caught = table.catchup(hello.last_version) if hello.last_version is not None else None
        if caught is not None:
            conn.send(caught)
        conn.send(table.state(seat, resync=hello.last_version is not None and caught is None))
        table.broadcast_presence()
        table.reschedule()
        await _read(table, ws, conn)
    finally:
        table.connections.discard(conn)
        if seat is not None:
            state = table.seats[seat]
            state.connections -= 1
            if state.connections == 0:
                state.away_since = time.monotonic()
        conn.send_close()
        with contextlib.suppress(Exception):
            await writer
        if not hub.stopping:
            table.broadcast_presence()
            table.reschedule()


async def _read(table: LiveTable, ws: WebSocket, conn: Connection) -> None:
    limit = RateLimit(time.monotonic())
    while not conn.dropped:
        try:
            raw = await ws.receive()
        except WebSocketDisconnect:
            return
        if raw.get("type") == "websocket.disconnect":
            return
        text = raw.get("text")
        data = text if text is not None else raw.get("bytes") or b""
        if not limit.allow(time.monotonic()):
            conn.send(error("rate_limited", "too many messages: slow down"))
            continue
        try:
            msg = parse_client_message(data)
        except ProtocolError as exc:
            conn.send(error(exc.code, str(exc)))
            continue
        if isinstance(msg, Ping):
            conn.send(message("pong", version=table.version))
        elif isinstance(msg, Hello):
            conn.send(error("bad_message", "hello comes once, first"))
        elif isinstance(msg, Act):
            if conn.seat is None:
                conn.send(error("not_seated", "a spectator cannot act"))
                continue
            try:
                await table.apply(conn.seat, msg.action, msg.version)
            except Refused as exc:
                conn.send(error(exc.code, str(exc), table.version))
        elif isinstance(msg, Hint):
            if conn.seat is None:
                conn.send(error("not_seated", "a spectator gets no hints"))
                continue
            try:
                action = await table.hint(conn.seat, msg.version)
            except Refused as exc:
                conn.send(error(exc.code, str(exc), table.version))
                continue
            conn.send(message("hint", version=msg.version, action=action))


async def _write(ws: WebSocket, conn: Connection) -> None:
    while True:
        msg = await conn.queue.get()
        if msg is None:
            with contextlib.suppress(Exception):
                await ws.close()
            return
        try:
            await ws.send_json(msg)
        except Exception:
            conn.dropped = True
            return
