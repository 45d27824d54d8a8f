"""The browser client's side of the server: its pages and files, the replay frames it steps through, and the HTTP
hardening every answer gets.

The client is plain HTML, CSS and ES modules under ``server/static`` (no build step, nothing from another site);
``/`` is the lobby, ``/table/{id}`` a table (to play or to watch), ``/replay`` the replay viewer. A replay is worked
out here, by the rules engine: the browser holds no rules, it shows what the server computed.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from clubsuite.engine import SomeMatch, load_part
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.records.replay import Replay
from clubsuite.server.protocol import event_json

STATIC = Path(str(resources.files("clubsuite.server") / "static"))
"""The client's files."""

MAX_BODY = 64 * 1024
"""The largest request body the lobby reads (a table's settings or a name are a few hundred bytes) ..."""
MAX_RECORD_BODY = 4 * 1024 * 1024
"""... and the largest record the replay viewer may upload (a long match's record is some tens of kilobytes)."""
MAX_FRAMES = 20_000
"""The most steps a replay is shown with (a record with more is refused, named)."""

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
"""Sent with every answer: scripts, styles and connections from this server only (the pages use no inline script or
style), no framing, no referrer (a table's address holds its id)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Hardening:
    """ASGI middleware: the security headers on every HTTP answer, and a request body larger than the route allows
    refused with 413 before it is read into memory."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD_BODY if scope.get("path") == "/replays" else MAX_BODY
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooLargeError
            return msg

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *SECURITY_HEADERS]
            await send(msg)

        try:
            await self.app(scope, counted, with_headers)
        except _TooLargeError:
            await _too_large(send, limit)


class _TooLargeError(Exception):
    """A chunked body ran past its limit."""


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"code": "too_large", "message": f"a request body may have at most {limit} bytes"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def install(app: FastAPI, record_of: Callable[[str, int | None], Awaitable[str]]) -> None:
    """Serve the client from ``app``: the pages, the static files and the replay frames (``record_of(table, match)``
    gives a finished match's stored record)."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html", headers={"cache-control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page("replay.html")

    @app.post("/replays")
    async def replay_upload(request: Request) -> JsonObject:
        """The replay of an uploaded record: every step with the public table and every hand (the record holds
        them all). The record is checked by the rules engine; a broken one is refused with the rule it breaks."""
        raw = await request.body()
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise HTTPException(400, {"code": "bad_record", "message": "the file is not JSON"}) from None
        return replay_frames(record)

    @app.get("/tables/{table_id}/replay")
    async def table_replay(table_id: str, match: int | None = None) -> JsonObject:
        """The replay of a finished match of a table (the last one by default)."""
        return replay_frames(json.loads(await record_of(table_id, match)))


def replay_frames(record: object) -> JsonObject:
    """Every step of a record, for the replay viewer: for the deal of each hand and each action, what was done, the
    public table (the game's spectator view) and every seat's hand, with the cards of the game's own piles that are
    in no hand (the game's part ``hidden``).

    Raises HTTPException 400 naming the problem when the record is not one the engine accepts."""
    if not isinstance(record, dict):
        raise HTTPException(400, {"code": "bad_record", "message": "a record is a JSON object"})
    try:
        run = Replay(record)
        public = load_part(run.info, "spectator")
        if not callable(public):
            raise ClubsError(f"{run.info.name} has no spectator view")
        hidden = load_part(run.info, "hidden")  # the game's piles in no hand, where it has any
        frames: list[JsonValue] = []
        for step in run.steps():
            if len(frames) >= MAX_FRAMES:
                raise ClubsError(f"the record has more than {MAX_FRAMES} steps: too long to show")
            frames.append(
                {
                    "hand": step.hand,
                    "action": step.action,
                    "seat": step.seat,
                    "events": [event_json(e) for e in step.events],
                    "view": public(run.match),
                    "hands": all_hands(run.match),
                    "hidden": hidden(run.match) if callable(hidden) else {},
                }
            )
        run.check_result()
    except ClubsError as exc:
        raise HTTPException(400, {"code": "bad_record", "message": str(exc)}) from None
    seats: list[JsonValue] = [s.get("name") if isinstance(s, dict) else None for s in run.seats]
    return {
        "game": run.info.name,
        "title": run.info.title,
        "variant": run.variant,
        "seats": seats,
        "frames": frames,
        "result": run.match.summary(),
    }


def all_hands(match: SomeMatch) -> list[JsonValue]:
    """Every seat's cards now, from each seat's own view (what a replay shows: the record holds every deal)."""
    out: list[JsonValue] = []
    for seat in range(match.n_seats):
        view = match.view(seat).to_dict()
        out.append(view.get("hand"))
    return out
