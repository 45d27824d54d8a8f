"""The web application: the lobby over HTTP (JSON, described by its OpenAPI schema at ``/openapi.json``) and each
table's WebSocket at ``/tables/{id}/ws`` (``docs/protocol.md``).

:func:`create_app` builds it over a store; the hub's tables are rebuilt when the application starts and their
writes finished when it stops.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from clubsuite import __version__
from clubsuite.jsonform import JsonObject
from clubsuite.safetext import quoted
from clubsuite.server.community import clubnight, directing, matchmaking, tournaments, watching
from clubsuite.server.community.hiding import Hiding
from clubsuite.server.http import (
    account_routes,
    catalogs,
    clubnight_routes,
    live_routes,
    lobby_routes,
    matchmaking_routes,
    pages,
    passkey_routes,
    people_routes,
    player_routes,
    puzzle_routes,
    reminder_routes,
    rules_pages,
    tournament_routes,
    turn_routes,
)
from clubsuite.server.http.collector import settle
from clubsuite.server.http.forwarding import Forwarder, Peers
from clubsuite.server.http.guard import Guard
from clubsuite.server.http.lobby import Lobby
from clubsuite.server.http.metrics import InternalApp, Metrics
from clubsuite.server.http.services import Services
from clubsuite.server.http.serving import InternalListener
from clubsuite.server.limits import ServerLimits
from clubsuite.server.people.accounts import AccountRefused, Accounts
from clubsuite.server.people.moderation import Moderation
from clubsuite.server.people.notices import Notices
from clubsuite.server.people.passkeys import Passkeys
from clubsuite.server.people.relations import Relations
from clubsuite.server.puzzles.library import Library
from clubsuite.server.puzzles.own import OwnPuzzles
from clubsuite.server.puzzles.progress import Progress
from clubsuite.server.store.database import Store, StoreError
from clubsuite.server.store.handle import Database
from clubsuite.server.store.ownership import Ownership
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.lobbycast import Lobbycast
from clubsuite.server.table.replaying import Replayer, ReviewStore
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.dbclock import DbClock
from clubsuite.server.turns.keeper import Keeper
from clubsuite.server.turns.players import PlayerRefused
from clubsuite.server.turns.reminders import Reminders

log = logging.getLogger("clubsuite.server")


_ERROR: dict[str, Any] = {"description": "refused: a JSON object with the code and the words"}
ANSWERS: dict[int | str, dict[str, Any]] = dict.fromkeys((400, 401, 403, 404, 409, 413, 429, 431, 503), _ERROR)
"""The refusals every lobby call may answer with (documented in the schema)."""
ROUTERS = (
    lobby_routes.router,
    account_routes.router,
    passkey_routes.router,
    player_routes.router,
    matchmaking_routes.router,
    clubnight_routes.router,
    tournament_routes.router,
    live_routes.router,
    people_routes.router,
    puzzle_routes.router,
    turn_routes.router,
    reminder_routes.router,
)
"""The API's routers, in the order their routes are matched; each route gets its services from the application's
state (:mod:`~clubsuite.server.http.services`), so the same routers serve every application of the process."""


def create_app(
    store: Store,
    limits: ServerLimits | None = None,
    origins: tuple[str, ...] = (),
    hosts: tuple[str, ...] = (),
    bots_after: float = matchmaking.BOTS_AFTER,
    ownership: Ownership | None = None,
    offline_app: Path | None = None,
    turn_config: TurnConfig | None = None,
) -> FastAPI:
    """The application over ``store`` (tables are rebuilt from it when the application starts), under ``limits``
    (the defaults when None); ``origins`` are the other sites whose pages may use it, ``hosts`` the names it answers
    to besides its IP addresses and localhost; ``bots_after`` the seconds a person waits in the rated queue before
    bots fill their table; ``ownership`` this process's leases, where several processes may share the database
    (``clubs serve`` always gives one: docs/server.md, "Several processes"); ``offline_app`` a folder ``clubs app
    build`` made, served at ``/app`` (the lobby then links it: "Play offline"); ``turn_config`` the operator's
    settings of turn-based tables and their reminders (the defaults when None)."""
    limits = limits or ServerLimits()
    database = Database(store)
    """The store and its worker threads: every service below reaches the database through it."""
    relations = Relations(database)
    notices = Notices(database, relations)
    moderation = Moderation(database, relations, notices)
    hub = Hub(database, limits, ownership, relations, moderation)
    accounts = Accounts(database, limits)
    matchmaker = matchmaking.Matchmaker(database, hub, bots_after)
    replayer = Replayer(limits, ReviewStore(database, limits.review_store_bytes))
    peers = Peers()
    metrics = Metrics(hub)
    metrics.watch_reviews(replayer)
    shared = ownership is not None and store.engine.dialect.name == "postgresql"
    lobby = Lobbycast(hub, store.engine.url) if shared else None
    """The other processes' public tables, where several may serve the database."""
    keeper = tournaments.Tournaments(database, hub)
    watchers = watching.Watching(keeper, limits, relations, notices)
    director = directing.Director(keeper, ownership.node if ownership is not None else "local", notices)
    hiding = Hiding(hub, relations) if shared else None
    """Blocks and mutes made at the other processes, brought to this one's table sockets (one process: none)."""
    lobby_of_tables = Lobby(hub, accounts, database, lobby)
    turn_config = turn_config or TurnConfig()
    turn_clock = DbClock(store, turn_config.test_clock)
    """The time turn-based clocks run by: the database's (and a test clock's offset, where asked for)."""
    turns = Keeper(hub, database, turn_config, turn_clock)
    reminders = Reminders(
        database, notices, turn_config, turn_clock, ownership.node if ownership is not None else "local"
    )
    """What reaches players who are away: page notices, Web Push and e-mail digests, through the outbox."""
    turns.your_turn = reminders.your_turn
    turns.turn_over = reminders.turn_over
    turns.match_over = reminders.match_over
    reminders.on_hours_changed = turns.hours_changed
    services = Services(
        database=database,
        hub=hub,
        limits=limits,
        accounts=accounts,
        passkeys=Passkeys(accounts),
        lobby=lobby_of_tables,
        matchmaker=matchmaker,
        nights=clubnight.ClubNights(database, hub),
        tournaments=keeper,
        watching=watchers,
        relations=relations,
        notices=notices,
        moderation=moderation,
        library=Library(replayer.puzzle),
        progress=Progress(database),
        own_puzzles=OwnPuzzles(database),
        replayer=replayer,
        turns=turns,
        reminders=reminders,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        if lobby is not None:
            await lobby.start()
        matchmaker.start()
        director.start()
        watchers.start()
        if hiding is not None:
            hiding.start()
        turns.start()
        reminders.start()
        try:
            yield
        finally:
            await reminders.stop()
            await turns.stop()
            if hiding is not None:
                await hiding.stop()
            await watchers.stop()
            await director.stop()
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
    app.state.services = services
    """What the routes are given (:mod:`~clubsuite.server.http.services`); the rest of the state is for the
    operator's tools and the tests, which reach into a running server."""
    app.state.hub = hub
    app.state.limits = limits
    app.state.replayer = replayer
    app.state.accounts = accounts
    app.state.passkeys = services.passkeys
    app.state.director = director
    app.state.matchmaker = matchmaker
    app.state.watching = watchers
    app.state.moderation = moderation
    app.state.turns = turns
    app.state.reminders = reminders
    app.state.internal = InternalApp(metrics)
    """The operators' application (``GET /metrics``), served apart on its own listener (``--metrics-port``)."""

    def served() -> int:
        """The live tables this process serves: turn-based ones are left out (one woken by any request about it
        would tell a stranger that a private table of that id exists; the operators' figures count them all)."""
        return sum(1 for t in list(hub.tables.values()) if not t.settings.turn_based)

    @app.get("/health")
    async def health() -> JsonObject:
        """Whether the server is up, and how many live tables it serves."""
        return {"status": "stopping" if hub.stopping else "ok", "tables": served()}

    @app.get("/ready", responses={503: {"description": "stopping: send it no new clients"}})
    async def ready() -> JSONResponse:
        """Whether a proxy should send this process new clients: 200 while it serves, 503 once it is stopping (its
        tables are being handed over), so that the proxy takes it out of rotation before it goes."""
        if hub.stopping or hub.loop is None:
            return JSONResponse({"status": "stopping", "tables": served()}, status_code=503)
        return JSONResponse({"status": "ready", "tables": served()})

    app.add_exception_handler(AccountRefused, account_routes.refused)
    app.add_exception_handler(PlayerRefused, reminder_routes.refused)
    for routes in ROUTERS:
        app.include_router(routes)
    pages.mount(app, offline_app)
    app.include_router(pages.router(lobby_of_tables.stored_record, replayer, lobby_of_tables.account_of))
    app.include_router(rules_pages.router())
    app.include_router(catalogs.router())

    @app.exception_handler(StarletteHTTPException)  # FastAPI's and the router's own (no such path, method)
    async def http_error(_: Any, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.detail, dict):
            detail = exc.detail
        else:
            code = {404: "no_path", 405: "bad_method"}.get(exc.status_code, "http")
            detail = {"code": code, "message": str(exc.detail).lower()}
        return JSONResponse(detail, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(StoreError)
    async def store_refused(_: Any, exc: StoreError) -> JSONResponse:
        """The database refused, or kept meeting other writes, where a route does not say more: nothing was kept,
        try again (never a 500; the reason is logged, not sent)."""
        log.warning("a request met a database refusal: %s", exc)
        return JSONResponse(
            {"code": "busy", "message": "the server could not keep this just now: try again"},
            status_code=503,
            headers={"retry-after": "2"},
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Any, exc: RequestValidationError) -> JSONResponse:
        """A request of the wrong shape: the field and the rule, never the value sent (it may not even be JSON that
        can be written back)."""
        return JSONResponse({"code": "bad_request", "message": validation_message(exc)}, status_code=422)

    app.add_middleware(Forwarder, hub=hub, peers=peers, max_ws_bytes=limits.max_ws_bytes, lobby=lobby)  # in the guard
    app.add_middleware(Guard, limits=limits, origins=origins, hosts=hosts)
    return app


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
        the cycle collector's policy for a serving process (:mod:`~clubsuite.server.http.collector`)."""
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
