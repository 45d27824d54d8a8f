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
from typing import Annotated, Any, Literal

import uvicorn
from fastapi import FastAPI, HTTPException, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from clubsuite import __version__
from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import lobby_order
from clubsuite.engine import games, resolve
from clubsuite.errors import ClubsError
from clubsuite.safetext import quoted
from clubsuite.schema.build import game_schemas
from clubsuite.schema.parts import options_schema
from clubsuite.server import (
    account_routes,
    catalogs,
    clubnight,
    matchmaking,
    naming,
    passkey_routes,
    players,
    rules,
    web,
)
from clubsuite.server.accounts import Accounts, User
from clubsuite.server.collector import settle
from clubsuite.server.connection import Connection
from clubsuite.server.forwarding import Forwarder, Peers
from clubsuite.server.guard import Guard, client_address
from clubsuite.server.hub import Hub, SeatRequest
from clubsuite.server.limits import ServerLimits
from clubsuite.server.live import LiveTable, Refused
from clubsuite.server.lobbycast import Lobbycast
from clubsuite.server.metrics import InternalApp, Metrics
from clubsuite.server.ownership import Ownership
from clubsuite.server.passkeys import Passkeys
from clubsuite.server.protocol import (
    Act,
    Chat,
    Hello,
    Hint,
    Ping,
    ProtocolError,
    RateLimit,
    encode,
    error,
    message,
    parse_client_message,
)
from clubsuite.server.replaying import Replayer, ReviewStore
from clubsuite.server.serving import InternalListener
from clubsuite.server.settings import TableSettings
from clubsuite.server.store import Store

log = logging.getLogger("clubsuite.server")

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to say hello."""


class _Strict(BaseModel):
    """A request body read strictly: a field of the wrong type or one that does not belong is refused (422), never
    coerced or ignored; numbers are finite."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class SeatIn(_Strict):
    """One seat of a new table."""

    kind: Literal["person", "bot"] = Field("person", description="person (taken later by someone joining) or bot")
    bot: str | None = Field(
        None, max_length=100, description="the bot that plays the seat (a bot seat, or a person's while away)"
    )


class TableIn(_Strict):
    """A new table: the game with its options, its seats and its house rules."""

    game: str = Field(
        ...,
        max_length=200,
        description="a rules spec: a game or variant name, options in brackets (GET /games lists them)",
    )
    seats: list[SeatIn] | None = Field(None, max_length=12, description="one per seat; default: every seat a person's")
    public: bool = Field(True, description="listed in the lobby; a private table is joined and watched by invite only")
    spectators: bool = True
    clock: float | None = Field(None, description="seconds per decision, or null for no clock")
    grace: float = Field(30.0, description="seconds before a bot plays an absent player's seat")
    bot_delay: float = Field(0.5, description="seconds a bot waits before acting")
    hints: bool = Field(False, description="a seat may ask for a hint: the heuristic bot's choice from its own view")
    rated: bool = Field(
        False, description="the matches count for ratings: accounts only, no hints, leaving a match counts as last"
    )


class JoinIn(_Strict):
    """Taking a seat."""

    name: str | None = Field(
        None,
        max_length=100,
        description="a display name: 1 to 24 letters, digits, spaces and - _ . ' (not needed when signed in: the "
        "account's name is used)",
    )
    seat: int | None = Field(None, ge=0, le=99, description="the seat wanted (default: the lowest free one)")


class QuickIn(_Strict):
    """Quick play: a seat at a table of a game, now."""

    game: str = Field(
        ...,
        max_length=200,
        description="a game's name (a table of that game with any rules), or a variant or rules spec (exactly those "
        "rules); GET /games lists them",
    )
    name: str | None = Field(
        None, max_length=100, description="a display name (not needed when signed in: the account's name is used)"
    )


class TokenIn(_Strict):
    """A request made with a seat token."""

    token: str = Field(..., min_length=1, max_length=200)


STATUS = {
    "no_table": 404,
    "no_match": 404,
    "bad_token": 403,
    "not_over": 409,
    "too_many_tables": 429,
    "server_full": 503,
}
"""The HTTP status of each refusal of the lobby (409 for the others: the table's state does not allow it)."""
_ERROR: dict[str, Any] = {"description": "refused: a JSON object with the code and the words"}
ANSWERS: dict[int | str, dict[str, Any]] = dict.fromkeys((400, 401, 403, 404, 409, 413, 429, 431, 503), _ERROR)
"""The refusals every lobby call may answer with (documented in the schema)."""
LOBBY_LIST = 100
"""The most tables ``GET /tables`` lists (those waiting for players first, then the newest)."""


Invite = Annotated[str | None, Query(max_length=64, description="a private table's invite code")]
"""The invite code a private table's id needs beside it."""


def _refusal(exc: Refused | ClubsError) -> HTTPException:
    if isinstance(exc, Refused):
        return HTTPException(STATUS.get(exc.code, 409), {"code": exc.code, "message": str(exc)})
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


def create_app(
    store: Store,
    limits: ServerLimits | None = None,
    origins: tuple[str, ...] = (),
    hosts: tuple[str, ...] = (),
    bots_after: float = matchmaking.BOTS_AFTER,
    ownership: Ownership | None = None,
) -> FastAPI:
    """The application over ``store`` (tables are rebuilt from it when the application starts), under ``limits``
    (the defaults when None); ``origins`` are the other sites whose pages may use it, ``hosts`` the names it answers
    to besides its IP addresses and localhost; ``bots_after`` the seconds a person waits in the rated queue before
    bots fill their table; ``ownership`` this process's leases, where several processes may share the database
    (``clubs serve`` always gives one: docs/server.md, "Several processes")."""
    limits = limits or ServerLimits()
    hub = Hub(store, limits, ownership)
    accounts = Accounts(store, limits, hub.db)
    matchmaker = matchmaking.Matchmaker(hub, bots_after)
    replayer = Replayer(limits, ReviewStore(store, hub.db, limits.review_store_bytes))
    peers = Peers()
    metrics = Metrics(hub)
    metrics.watch_reviews(replayer)
    shared = ownership is not None and store.engine.dialect.name == "postgresql"
    lobby = Lobbycast(hub, store.engine.url) if shared else None
    """The other processes' public tables, where several may serve the database."""

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        if lobby is not None:
            await lobby.start()
        matchmaker.start()
        try:
            yield
        finally:
            await matchmaker.stop()
            if lobby is not None:
                await lobby.stop()
            await peers.close()
            replayer.close()
            accounts.close()
            await hub.stop()

    # No /docs or /redoc pages: FastAPI builds them from scripts on a third-party CDN, which the server should neither
    # depend on nor hand to its users; the schema itself is at /openapi.json.
    app = FastAPI(
        title="clubsuite",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses=ANSWERS,
    )
    app.state.hub = hub
    app.state.limits = limits
    app.state.replayer = replayer
    app.state.accounts = accounts
    app.state.internal = InternalApp(metrics)
    """The operators' application (``GET /metrics``), served apart on its own listener (``--metrics-port``)."""

    async def who(request: Request) -> User | None:
        """The signed-in account of a request that changes something (its CSRF token checked), or None."""
        found = await account_routes.signed_in(accounts, request, True)
        return found[1] if found is not None else None

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up, and how many tables it serves."""
        return {"status": "stopping" if hub.stopping else "ok", "tables": len(hub.tables)}

    @app.get("/ready", responses={503: {"description": "stopping: send it no new clients"}})
    async def ready() -> JSONResponse:
        """Whether a proxy should send this process new clients: 200 while it serves, 503 once it is stopping (its
        tables are being handed over), so that the proxy takes it out of rotation before it goes."""
        if hub.stopping or hub.loop is None:
            return JSONResponse({"status": "stopping", "tables": len(hub.tables)}, status_code=503)
        return JSONResponse({"status": "ready", "tables": len(hub.tables)})

    @app.get("/games")
    async def list_games() -> list[dict[str, Any]]:
        """The games, their seat counts, named variants (with the options each sets), options (a JSON Schema each:
        type, range or choices, default, description with its ruling) and bots; beside them the words a person
        reads (``naming``): the game's ``label`` and ``summary``, each option's ``label``, ``help``, ``rule`` (the
        ruling id, for a "why?"), ``default_label`` and a choice's ``choices``, each variant's words
        (``variant_choices``) and each bot's (``bot_choices``)."""
        schemas = {info.name: part for info, part in game_schemas()}
        out: list[dict[str, Any]] = []
        for g in games():
            part = schemas.get(g.name)
            options = options_schema(g.options_class, part.option_ranges)["properties"] if part is not None else {}
            bots = lobby_order(bot_names(g.name))
            out.append(
                {
                    "name": g.name,
                    "title": g.title,
                    "label": naming.game_words(g).title,
                    "summary": g.summary,
                    "seats": list(g.seats),
                    "variants": sorted(g.variants),
                    "variant_options": {name: dict(opts) for name, opts in sorted(g.variants.items())},
                    "variant_choices": naming.variants_with_words(g),
                    "options": naming.options_with_words(g, options),
                    "examples": list(g.examples),
                    "bots": bots,
                    "bot_choices": naming.bots_with_words(bots),
                }
            )
        return out

    @app.post("/tables", status_code=201)
    async def create(body: TableIn, request: Request) -> dict[str, Any]:
        """Make a table; the answer holds its id and invite code (take a seat with ``/tables/{id}/join``, or, at a
        private table, ``/invites/{code}/join``)."""
        try:
            settings = TableSettings(
                public=body.public,
                spectators=body.spectators,
                clock=body.clock,
                grace=body.grace,
                bot_delay=body.bot_delay,
                hints=body.hints,
                rated=body.rated,
            )
            info, options = resolve(body.game)
            n = info.n_seats(options)
            given = body.seats
            seats = [SeatRequest(s.kind, s.bot) for s in given] if given is not None else [SeatRequest("person")] * n
            await who(request)  # a signed-in maker's request carries its CSRF token
            table = await hub.create_table(body.game, seats, settings, creator=client_address(request.scope))
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {**table.summary(), "invite": table.invite}

    @app.get("/tables")
    async def list_tables() -> list[dict[str, Any]]:
        """The public tables (at most 100: those waiting for players first, then the newest), this process's and,
        where several processes share the database, the others' as they published them."""
        listed = [(t.created_at, t.summary()) for t in hub.tables.values() if t.settings.public]
        if lobby is not None:
            listed += lobby.entries()
        listed.sort(key=lambda entry: (not entry[1].get("waiting"), -entry[0]))
        return [summary for _, summary in listed[:LOBBY_LIST]]

    def find(table_id: str, invite: str | None = None, token: str | None = None) -> LiveTable:
        """The table ``table_id``, where the asker may know of it: a private table answers as if it did not exist
        unless its invite code or one of its seat tokens comes with the id."""
        table = hub.tables.get(table_id)
        if table is None or not hub.may_see(table, invite, token):
            raise HTTPException(404, {"code": "no_table", "message": f"there is no table {quoted(table_id, 40)}"})
        return table

    @app.get("/tables/{table_id}")
    async def table_info(table_id: str, invite: Invite = None) -> dict[str, Any]:
        """One table, as anyone may see it (a private table: with its invite code)."""
        return find(table_id, invite).summary()

    @app.get("/invites/{code}")
    async def invite_info(code: Annotated[str, Path(max_length=64)]) -> dict[str, Any]:
        """The table an invite code opens, as anyone may see it."""
        try:
            return hub.by_invite(code).summary()
        except Refused as exc:
            raise _refusal(exc) from None

    @app.post("/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        """Take a seat at a public table: the answer holds the seat token (keep it: it is the only way back to the
        seat). A private table is joined by its invite only. Signed in, the seat is the account's, under its name
        (a rated table seats accounts only)."""
        return await _join(find(table_id), body, await who(request))  # a private table is not found by its id alone

    @app.post("/invites/{code}/join")
    async def join_by_invite(
        code: Annotated[str, Path(max_length=64)], body: JoinIn, request: Request
    ) -> dict[str, Any]:
        """Take a seat at the table an invite code opens."""
        user = await who(request)
        try:
            table = hub.by_invite(code)
        except Refused as exc:
            raise _refusal(exc) from None
        return await _join(table, body, user)

    @app.post("/quickplay")
    async def quickplay(body: QuickIn, request: Request) -> dict[str, Any]:
        """Take a seat at once at a table of a game: a public table of it waiting for players, or else a new public
        table with you in seat 0 and normal bots in the others (its match starts at once). The answer is a join's
        (keep the token). Counted as a table made and as a seat taken by the rate limits."""
        try:
            user = await who(request)
            table, seat, token = await hub.quickplay(
                body.game, _name(body.name, user), creator=client_address(request.scope), user=user
            )
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}

    @app.post("/tutorial")
    async def tutorial(body: QuickIn, request: Request) -> dict[str, Any]:
        """The guided first hand of a game: a new private table with the coach on (every step explained), you in
        seat 0 and easy bots in the others, dealt the game's tutorial deal; the answer is a join's (keep the token).
        Counted as a table made and a seat taken by the rate limits."""
        try:
            user = await who(request)
            table, seat, token = await hub.tutorial(
                body.game, _name(body.name, user), creator=client_address(request.scope), user=user
            )
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}

    async def _join(table: LiveTable, body: JoinIn, user: User | None) -> dict[str, Any]:
        try:
            seat, token = await hub.join(table, _name(body.name, user), body.seat, user)
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}

    @app.post("/tables/{table_id}/leave")
    async def leave(table_id: str, body: TokenIn, request: Request) -> dict[str, Any]:
        """Give up a seat (its bot plays it until someone else takes it). At a rated table, leaving a match before
        its end counts as finishing it last."""
        await who(request)
        try:
            seat = await hub.leave(find(table_id, token=body.token), body.token)
        except Refused as exc:
            raise _refusal(exc) from None
        return {"table": table_id, "seat": seat}

    @app.post("/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: TokenIn, request: Request) -> dict[str, Any]:
        """Start the next match with the same seats, once the match is over."""
        await who(request)
        table = find(table_id, token=body.token)
        try:
            await hub.rematch(table, body.token)
        except Refused as exc:
            raise _refusal(exc) from None
        return table.summary()

    async def stored_record(table_id: str, match_no: int | None, invite: str | None) -> str:
        try:
            if table_id not in hub.tables:  # closed: its finished matches' records are kept, and stay reachable
                return await hub.closed_record(table_id, match_no, invite)
            return await hub.record(find(table_id, invite), match_no)
        except Refused as exc:
            raise _refusal(exc) from None

    @app.get("/tables/{table_id}/record.json")
    async def record(
        table_id: str, match: Annotated[int | None, Query(ge=0)] = None, invite: Invite = None
    ) -> Response:
        """The record of a finished match (the last one by default), in the format ``clubs replay`` reads (a
        private table's: with its invite code)."""
        return Response(await stored_record(table_id, match, invite), media_type="application/json")

    @app.websocket("/tables/{table_id}/ws")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await serve_socket(hub, ws, table_id)

    account_routes.install(app, hub, accounts)
    app.state.passkeys = Passkeys(accounts)
    passkey_routes.install(app, hub, accounts, app.state.passkeys)
    players.install(app, hub, accounts)
    matchmaking.install(app, matchmaker, accounts)
    clubnight.install(app, clubnight.ClubNights(hub), accounts)

    async def account_of(request: Request) -> str | None:
        """The signed-in account of a request that only reads (no CSRF token asked), for its review budget."""
        found = await account_routes.signed_in(accounts, request, False)
        return found[1].id if found is not None else None

    web.install(app, stored_record, replayer, account_of)
    rules.install(app)
    catalogs.install(app)

    @app.exception_handler(StarletteHTTPException)  # FastAPI's and the router's own (no such path, method)
    async def http_error(_: Any, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.detail, dict):
            detail = exc.detail
        else:
            code = {404: "no_path", 405: "bad_method"}.get(exc.status_code, "http")
            detail = {"code": code, "message": str(exc.detail).lower()}
        return JSONResponse(detail, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Any, exc: RequestValidationError) -> JSONResponse:
        """A request of the wrong shape: the field and the rule, never the value sent (it may not even be JSON that
        can be written back)."""
        return JSONResponse({"code": "bad_request", "message": validation_message(exc)}, status_code=422)

    app.add_middleware(Forwarder, hub=hub, peers=peers, max_ws_bytes=limits.max_ws_bytes, lobby=lobby)  # in the guard
    app.add_middleware(Guard, limits=limits, origins=origins, hosts=hosts)
    return app


def _name(name: str | None, user: User | None) -> object:
    """The display name a guest gave (a signed-in player's seat takes the account's name instead)."""
    if user is None and name is None:
        raise HTTPException(422, {"code": "bad_request", "message": "'name': a display name is needed (or sign in)"})
    return name


def validation_message(exc: RequestValidationError) -> str:
    """The first problem of a request that does not fit its schema, as ``where: what``."""
    problems = exc.errors()
    if not problems:
        return "the request does not fit its schema"
    first = problems[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    what = str(first.get("msg", "not allowed here"))
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{quoted(where, 60) if where else 'the body'}: {what}{more}"


class ClubsServer(uvicorn.Server):
    """uvicorn's server, which first tells the clients of every table that it is stopping (and finishes the action
    being written) and only then closes their sockets; with ``internal``, the operators' listener (the figures)
    served beside it, from its start to its end."""

    def __init__(self, config: uvicorn.Config, hub: Hub, internal: InternalListener | None = None) -> None:
        super().__init__(config)
        self.hub = hub
        self.internal = internal

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start as uvicorn does (the hub restores its tables first); once up, open the operators' listener and set
        the cycle collector's policy for a serving process (:mod:`~clubsuite.server.collector`)."""
        await super().startup(sockets)
        if not self.should_exit:
            if self.internal is not None:
                await self.internal.start()
            settle()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Say farewell, then shut down as uvicorn does; the operators' listener last (its figures are read to the
        end)."""
        await self.hub.farewell()
        await super().shutdown(sockets)
        if self.internal is not None:
            await self.internal.stop()


async def serve_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    """One client's connection: hello, then its messages in, the table's messages out."""
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
    table = hub.tables.get(table_id)
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
    address = client_address(ws.scope)
    conn = Connection(seat, address=address)
    # Registered, welcomed and sent the state under the table's lock: an action being committed is either told in
    # this state or comes after it as the next update, never both nor neither. Nothing is awaited on the socket
    # while the lock is held (the messages are queued; the writer sends them once it is released).
    async with table.lock:
        # Asked again under the lock: the table may have been closed, or the seat given up (its token cleared and
        # perhaps taken by someone else), while this client was waiting for it.
        if table.closed or not hub.may_see(table, hello.invite, hello.token):
            refusal: tuple[str, str] | None = ("no_table", f"there is no table {quoted(table_id, 40)}")
        elif hello.token is not None and hub.seat_of(table, hello.token) != seat:
            refusal = ("bad_token", "that token holds no seat at this table")
        else:
            full = hub.connection_refused(table, seat, address)
            refusal = ("too_many_connections", full) if full is not None else None
        if refusal is None:
            hub.connected(table, conn, address)
            try:
                role = "seat" if seat is not None else "spectator"
                conn.send(message("welcome", table=table.id, seat=seat, role=role))
                caught = table.catchup(hello.last_version) if hello.last_version is not None else None
                if caught is not None:
                    conn.send(caught)
                conn.send(table.state(seat, resync=hello.last_version is not None and caught is None))
                table.broadcast_presence()
                table.reschedule()
            except Exception:
                hub.disconnected(table, conn, address)
                raise
    if refusal is not None:
        await _refuse(ws, *refusal, {"no_table": 4404, "bad_token": 4403}.get(refusal[0], 4429))
        return
    writer = asyncio.create_task(_write(ws, conn))
    try:
        await _read(table, ws, conn, hub.limits.max_ws_bytes)
    finally:
        hub.disconnected(table, conn, address)
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


async def _read(table: LiveTable, ws: WebSocket, conn: Connection, max_bytes: int) -> None:
    limit = RateLimit(time.monotonic())
    while not conn.dropped:
        try:
            raw = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if raw.get("type") == "websocket.disconnect":
            return
        text = raw.get("text")
        data = text if text is not None else raw.get("bytes") or b""
        if not limit.allow(time.monotonic()):
            conn.send(error("rate_limited", "too many messages: slow down"))
            continue
        try:
            await _handle(table, conn, data, max_bytes)
        except Exception:  # a fault of the server: said, logged, and the connection and the table go on
            log.exception("table %s: a message could not be handled", table.id)
            conn.send(error("server", "the server could not handle that message; nothing changed"))


async def _handle(table: LiveTable, conn: Connection, data: str | bytes, max_bytes: int) -> None:
    """One client message after hello."""
    try:
        msg = parse_client_message(data, max_bytes)
    except ProtocolError as exc:
        conn.send(error(exc.code, str(exc)))
        return
    if isinstance(msg, Ping):
        conn.send(message("pong", version=table.version))
    elif isinstance(msg, Hello):
        conn.send(error("bad_message", "hello comes once, first"))
    elif isinstance(msg, Chat):  # seats and spectators alike, each to their own channel
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


async def _write(ws: WebSocket, conn: Connection) -> None:
    while True:
        msg = await conn.queue.get()
        if msg is None:
            with contextlib.suppress(Exception):
                await ws.close()
            return
        try:
            await ws.send_text(msg if isinstance(msg, str) else encode(msg))
        except Exception:
            conn.dropped = True
            return
