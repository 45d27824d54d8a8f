"""The browser client's side of the server: its pages and files, and the replay frames it steps through.

The client is plain HTML, CSS and ES modules under ``server/http/static`` (no build step, nothing from another site);
``/`` is the lobby, ``/table/{id}`` a table (to play or to watch), ``/replay`` the replay viewer, ``/player/{name}``
a player's profile (their own: with their sessions, password and deletion), ``/leaderboard`` the leaderboards,
``/puzzle`` the puzzles (``/puzzle/{pool}`` one pool's),
``/clubnight/{id}`` a club night, ``/tournament`` the tournaments (``/tournament/{id}`` one), ``/moderation`` the
moderators' queue, ``/your-turn`` the player's turn-based tables ("Your turn"; ``GET /turns`` is their list's JSON), and
``/push-sw.js`` the service worker that shows their pushes. A replay is worked out by the rules engine in a worker
process (``replaying``): the browser holds no rules, it shows what the server computed. The limits and security headers
every answer gets are the guard's (``guard``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from clubsuite.server.http.guard import client_address
from clubsuite.server.table.replaying import Replayer, ReplayRefused

STATIC = Path(str(resources.files("clubsuite.server.http") / "static"))
"""The client's files."""

RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"type": "object", "description": "a match record (docs/records.md)"}}
        },
    }
}
"""The body of ``POST /replays`` as the schema shows it: a record, read by the route itself."""


def mount(app: FastAPI, offline_app: Path | None = None) -> None:
    """Serve the static files (``/static/...``: scripts, styles, pictures) from ``app``, and the offline app's
    folder (``clubs app build``) at ``/app`` where there is one (its ``index.html`` at ``/app/``; ``/app`` itself
    leads there); a mount belongs to the application, not to a router."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/offline-app")
    async def offline_app_here() -> dict[str, str | None]:
        """Where this server serves the offline app (``/app/``), or null: the lobby shows "Play offline" only where
        there is one (asked always with a 200, so that a page never logs a missing file)."""
        return {"app": "/app/" if offline_app is not None else None}

    if offline_app is not None:

        @app.get("/app", include_in_schema=False)
        async def offline_home() -> RedirectResponse:
            return RedirectResponse("/app/", status_code=308)

        app.mount("/app", StaticFiles(directory=offline_app, html=True), name="app")


def router(
    record_of: Callable[[str, int | None, str | None], Awaitable[str]],
    replayer: Replayer,
    account_of: Callable[[Request], Awaitable[str | None]] | None = None,
) -> APIRouter:
    """The pages and the replay frames (``record_of(table, match,
    invite)`` gives a finished match's stored record; ``replayer`` works replays out; ``account_of(request)`` names
    the signed-in account, whose reviews count against its own hourly budget)."""
    routes = APIRouter()

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html", headers={"cache-control": "no-cache"})

    @routes.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @routes.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @routes.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page("replay.html")

    @routes.get("/review", include_in_schema=False)
    async def review_page() -> FileResponse:
        return page("review.html")

    @routes.get("/tables/{table_id}/review")
    async def table_review(
        table_id: str,
        request: Request,
        seat: Annotated[int, Query(ge=0, le=11)],
        match: Annotated[int | None, Query(ge=0)] = None,
        invite: Annotated[str | None, Query(max_length=64)] = None,
    ) -> Response:
        """The review of one seat's decisions in a finished match (the last by default; a private table's needs its
        invite code): each decision's value and the best one's, by search from the seat's own view, and with every
        hand known in the trick games' card play; costly ones marked. Worked out once in a review worker and kept
        (asked again, by anyone, it is answered free); the reviews an address or an account has worked out are
        bounded by the hour (429 past that)."""
        account = await account_of(request) if account_of is not None else None
        return await replayed(await record_of(table_id, match, invite), request, seat, account)

    @routes.get("/player/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        return page("player.html")

    @routes.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return page("leaderboard.html")

    @routes.get("/puzzle", include_in_schema=False)
    async def puzzles_page() -> FileResponse:
        return page("puzzle.html")

    @routes.get("/puzzle/{pool}", include_in_schema=False)
    async def puzzle_page(pool: str) -> FileResponse:
        return page("puzzle.html")

    @routes.get("/clubnight", include_in_schema=False)
    async def new_clubnight_page() -> FileResponse:
        return page("clubnight.html")

    @routes.get("/clubnight/{night_id}", include_in_schema=False)
    async def clubnight_page(night_id: str) -> FileResponse:
        return page("clubnight.html")

    @routes.get("/tournament", include_in_schema=False)
    async def tournaments_page() -> FileResponse:
        return page("tournament.html")

    @routes.get("/tournament/{tournament_id}", include_in_schema=False)
    async def tournament_page(tournament_id: str) -> FileResponse:
        return page("tournament.html")

    @routes.get("/moderation", include_in_schema=False)
    async def moderation_page() -> FileResponse:
        return page("moderation.html")

    @routes.get("/your-turn", include_in_schema=False)
    async def turns_page() -> FileResponse:
        return page("turns.html")

    @routes.get("/push-sw.js", include_in_schema=False)
    async def push_worker() -> FileResponse:
        """The service worker that shows a turn-based table's "your turn" push (served from the root: its scope is
        the whole site, so that a click on its notification may open any table)."""
        return FileResponse(STATIC / "push-sw.js", media_type="text/javascript", headers={"cache-control": "no-cache"})

    async def replayed(
        raw: bytes | str, request: Request, review_seat: int | None = None, account: str | None = None
    ) -> Response:
        gzipped = "gzip" in request.headers.get("accept-encoding", "").lower()
        try:
            status, body, compressed = await replayer.answer(
                raw, gzipped, client_address(request.scope), review_seat, account
            )
        except ReplayRefused as exc:
            wait = {"retry-after": str(exc.retry_after)} if exc.retry_after is not None else None
            raise HTTPException(exc.status, {"code": exc.code, "message": str(exc)}, wait) from None
        headers = {"content-encoding": "gzip", "vary": "accept-encoding"} if compressed else {}
        return Response(body, status_code=status, media_type="application/json", headers=headers)

    @routes.post("/replays", openapi_extra=RECORD_BODY)
    async def replay_upload(request: Request) -> Response:
        """The replay of an uploaded record (the body: a record's JSON, at most ``--max-record-bytes``): every step
        with the public table and every hand (the record holds them all). The record is checked by the rules
        engine; a broken one is refused with the rule it breaks. Worked out in a worker process."""
        return await replayed(await request.body(), request)

    @routes.get("/tables/{table_id}/replay")
    async def table_replay(
        table_id: str,
        request: Request,
        match: Annotated[int | None, Query(ge=0)] = None,
        invite: Annotated[str | None, Query(max_length=64)] = None,
    ) -> Response:
        """The replay of a finished match of a table (the last one by default; a private table's needs its
        invite code)."""
        return await replayed(await record_of(table_id, match, invite), request)

    return routes
