"""The server's front door: ASGI middleware that prices a stranger's request before the application reads it.

Every HTTP request and WebSocket handshake passes here first, and is refused with a JSON error (``code`` and
``message``, a 4xx status) before any route sees it when:

* its head is too large (more than ``max_header_bytes`` or ``max_headers`` lines): 431;
* it names a host the server does not answer to (not an IP address, ``localhost`` or a name given with
  ``--allow-host``): 400 ``bad_host``, which defeats DNS rebinding;
* it comes from a page of another site (an ``Origin`` that is not this server's, nor one allowed with
  ``--allow-origin``) and could change something (a POST, a WebSocket): 403 ``bad_origin``;
* its address has used up its rate (every request; making tables, taking seats and replays have their own): 429
  ``rate_limited`` with ``Retry-After``;
* its body is larger than the route allows, declared or not (chunked): 413 ``too_large``, read no further;
* a lobby body is not standard JSON (NaN, Infinity, a number too large, a repeated key, nesting beyond reason):
  400 ``bad_json``, read by the same reader as a record.

A body within its limit is read whole here (it is small) and handed to the application as one piece. Every HTTP
answer gets the security headers.

Two paths are let through without the origin and JSON checks (:data:`ONE_CLICK`): ``POST /mail/unsubscribe``, RFC
8058's one-click unsubscribe, which a mail client or its provider sends form-encoded or as multipart with no Origin,
and ``POST /mail/confirm``, the confirming page's button; this site's own pages send them with ``Origin: null`` (a
form under ``Referrer-Policy: no-referrer``). They take no session and change nothing but the e-mails of the account
whose secret the link carries, so another site's page gains nothing by sending them; their size and rates are
counted as every request's.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from clubsuite.errors import ClubsError
from clubsuite.records.files import parse_record
from clubsuite.server.limits import RateLimits, ServerLimits, address_key

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

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
APP_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
        b"connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    *SECURITY_HEADERS[1:],
]
"""Sent with the offline app's files (``/app/...``): the same, but that a script may compile WebAssembly
(``'wasm-unsafe-eval'``: the app's worker runs Python as WebAssembly, Pyodide, served from here; no ``eval`` of text
is allowed) and a saved record is a ``blob:`` link. Still nothing from another site."""

_KINDS = [
    ("POST", re.compile(r"^/tables$"), "create"),
    ("POST", re.compile(r"^/tables/[^/]+/join$"), "join"),
    ("POST", re.compile(r"^/invites/[^/]+/join$"), "join"),
    ("GET", re.compile(r"^/invites/[^/]+$"), "join"),  # looking a code up is guessing it too
    ("POST", re.compile(r"^/quickplay$"), "create"),  # quick play may make a table and takes a seat: both rates
    ("POST", re.compile(r"^/quickplay$"), "join"),
    ("POST", re.compile(r"^/tutorial$"), "create"),  # a guided first hand makes a table and takes its seat
    ("POST", re.compile(r"^/tutorial$"), "join"),
    ("POST", re.compile(r"^/replays$"), "replay"),
    ("GET", re.compile(r"^/tables/[^/]+/replay$"), "replay"),
    ("GET", re.compile(r"^/tables/[^/]+/review$"), "replay"),  # a review costs more than a replay
    ("POST", re.compile(r"^/tables/[^/]+/puzzles$"), "replay"),  # a player's own puzzles cost what a review does
    ("POST", re.compile(r"^/rated/queue$"), "create"),  # the queue makes the table its players are seated at
    ("POST", re.compile(r"^/clubnights$"), "create"),
    ("POST", re.compile(r"^/clubnights/[^/]+/rounds$"), "create"),
    ("POST", re.compile(r"^/clubnights/[^/]+/(enter|seat)$"), "join"),  # an entrant's token is guessed here
    ("POST", re.compile(r"^/tournaments$"), "create"),
    ("POST", re.compile(r"^/tournaments/[^/]+/join$"), "join"),
    ("POST", re.compile(r"^/account/signup$"), "account"),
    ("POST", re.compile(r"^/account/(signup|login|password|delete|passkeys/options)$"), "login"),  # a password hashed
    ("POST", re.compile(r"^/account/passkey-login(/options)?$"), "login"),  # a sign-in, tried with a passkey
    ("GET", re.compile(r"^/puzzles/[^/]+/[^/]+$"), "puzzle"),  # a puzzle shown (the next, or one by its id)
    ("GET", re.compile(r"^/daily-puzzle$"), "puzzle"),
    ("POST", re.compile(r"^/puzzles/[^/]+/[^/]+/(attempt|solution)$"), "puzzle"),
]
"""The requests with a rate of their own (besides the rate every request counts in)."""
_WHAT = {
    "create": "new tables",
    "join": "seats taken and invite codes tried",
    "replay": "replays",
    "request": "requests",
    "account": "new accounts",
    "login": "sign-ins and password checks",
    "puzzle": "puzzles",
}
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ONE_CLICK = frozenset({"/mail/unsubscribe", "/mail/confirm"})
"""The paths whose POST is form-encoded and needs no origin of this site (RFC 8058, and the confirming page's
button: see above)."""


class Refusal(Exception):  # noqa: N818 - a refusal, not an error of the server
    """A request refused at the door: the status, the code and the words (and headers to add)."""

    def __init__(self, status: int, code: str, message: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.headers = status, code, headers or []


def client_address(scope: Scope) -> str:
    """The address a request is counted by (the peer's, or the one a trusted proxy named, which uvicorn sets; an
    IPv6 address by its /64)."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


class Guard:
    """ASGI middleware: the limits of :class:`ServerLimits` on every request, and the security headers."""

    def __init__(
        self, app: ASGIApp, limits: ServerLimits, origins: tuple[str, ...] = (), hosts: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.limits = limits
        self.rates = RateLimits(limits)
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        self.hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            try:
                self._check_head(scope)
            except Refusal:
                if scope["type"] == "http":
                    await self._drain(scope, receive)
                raise
            if scope["type"] == "websocket":
                await self.app(scope, receive, send)
                return
            body = await self._read_body(scope, receive)
        except Refusal as refused:
            if scope["type"] == "websocket" and "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": 4000 + refused.status, "reason": refused.code})
            else:
                await answer(send, refused, "websocket.http" if scope["type"] == "websocket" else "http")
            return
        except _ClientGoneError:
            return  # the client went before its body was whole: nothing to answer, nothing to do

        own = APP_SECURITY_HEADERS if str(scope.get("path", "")).startswith("/app/") else SECURITY_HEADERS

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *own]
            await send(msg)

        await self.app(scope, replaying(body, receive), with_headers)

    # -- the head ------------------------------------------------------------------------------------------------
    def _check_head(self, scope: Scope) -> None:
        headers: list[tuple[bytes, bytes]] = list(scope.get("headers") or [])
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        size += sum(len(k) + len(v) + 4 for k, v in headers)
        if len(headers) > self.limits.max_headers or size > self.limits.max_header_bytes:
            raise Refusal(
                431,
                "headers_too_large",
                f"a request may have at most {self.limits.max_headers} header lines and "
                f"{self.limits.max_header_bytes} bytes of head",
            )
        if "\x00" in str(scope.get("path", "")) or b"%00" in (scope.get("query_string") or b""):
            raise Refusal(400, "bad_path", "an address may not hold the character U+0000 (nothing can keep it)")
        values = dict(headers)  # read once for the host and the origin
        self._check_host(values)
        method = scope.get("method", "GET") if scope["type"] == "http" else "WEBSOCKET"
        path = str(scope.get("path", ""))
        if (method in UNSAFE or scope["type"] == "websocket") and not (method == "POST" and path in ONE_CLICK):
            self._check_origin(values)
        address = client_address(scope)
        for kind in ["request", *(k for m, pattern, k in _KINDS if m == method and pattern.match(path))]:
            wait = self.rates.allow(kind, address)
            if wait is not None:
                seconds = int(wait + 0.999)
                raise Refusal(
                    429,
                    "rate_limited",
                    f"too many {_WHAT[kind]} from your address: at most {self.rates.describe(kind)}; "
                    f"try again in {seconds} s",
                    [(b"retry-after", str(seconds).encode())],
                )

    def _check_host(self, values: dict[bytes, bytes]) -> None:
        """The name the request was sent to must be one this server answers to: an IP address, ``localhost``, or a
        name given with ``--allow-host``. A page whose own name was pointed at this server's address (DNS
        rebinding) is refused, so that its Origin, its own name, cannot pass for this server's."""
        host = values.get(b"host", b"").decode("latin-1").lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name.startswith("[") and name.endswith("]"):
            name = name[1:-1]
        if (
            name == "localhost"
            or name in self.hosts
            or any(h.startswith("*.") and name.endswith(h[1:]) for h in self.hosts)
        ):
            return
        try:
            ipaddress.ip_address(name)
        except ValueError:
            raise Refusal(
                400,
                "bad_host",
                "this server answers to its IP addresses and localhost; to serve it by a name, start it with "
                "--allow-host NAME",
            ) from None

    def _check_origin(self, values: dict[bytes, bytes]) -> None:
        """A page of another site may not act here: its ``Origin`` must be this server's own (or allowed).

        Clients that are not browsers send no ``Origin`` and are not asked for one."""
        origin = values.get(b"origin")
        if origin is None:
            return
        text = origin.decode("latin-1").rstrip("/").lower()
        host = values.get(b"host", b"").decode("latin-1").lower()
        same = text in (f"http://{host}", f"https://{host}")
        if not (same or text in self.origins):
            raise Refusal(
                403,
                "bad_origin",
                "a page of another site may not use this server (its address is not this server's, and the server "
                "was not told to allow it with --allow-origin)",
            )

    # -- the body ------------------------------------------------------------------------------------------------
    async def _drain(self, scope: Scope, receive: Receive) -> None:
        """Read a refused request's body, when it is declared and small, before answering: a connection closed with
        bytes of the request still unread is reset by the system, and the client would see the reset instead of
        the refusal (a 429 with its Retry-After). A body too large or of unknown size is left unread (the answer
        says the connection closes)."""
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if scope.get("method") not in UNSAFE or declared is None or not declared.isdigit():
            return
        left = int(declared)
        if left > self.limits.max_body_bytes:
            return
        while left > 0:
            msg = await receive()
            if msg["type"] != "http.request":
                return
            left -= len(msg.get("body", b""))
            if not msg.get("more_body"):
                return

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        """The whole body, within the route's limit; a lobby body is checked to be standard JSON."""
        path = str(scope.get("path", ""))
        limit = self.limits.max_record_bytes if path == "/replays" else self.limits.max_body_bytes
        too_large = Refusal(413, "too_large", f"a request body here may have at most {limit} bytes")
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            raise too_large
        chunks: list[bytes] = []
        seen = 0
        more = scope.get("method") in UNSAFE
        while more:
            msg = await receive()
            if msg["type"] != "http.request":
                raise _ClientGoneError
            chunk = msg.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                raise too_large
            chunks.append(chunk)
            more = bool(msg.get("more_body"))
        body = b"".join(chunks)
        if body and path != "/replays" and not (scope.get("method") == "POST" and path in ONE_CLICK):
            try:
                parsed = parse_record(body, "the request body")
            except ClubsError as exc:
                raise Refusal(400, "bad_json", str(exc)) from None
            if _holds_nul(parsed):  # no database keeps it (PostgreSQL refuses it in text): refused before any work
                raise Refusal(400, "bad_json", "a request body may not hold the character U+0000")
        return body


def _holds_nul(value: object) -> bool:
    """Whether a JSON value holds the character U+0000 in a string or a key."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    if isinstance(value, dict):
        return any("\x00" in k or _holds_nul(v) for k, v in value.items())
    return False


class _ClientGoneError(Exception):
    """The client disconnected while its body was being read."""


async def answer(send: Send, refused: Refusal, kind: str = "http") -> None:
    """Send a refusal as a JSON answer with the security headers (``kind``: ``http``, or ``websocket.http`` for a
    WebSocket handshake refused with an HTTP answer), and close the connection: whatever else the client sends
    with it is not read."""
    body = json.dumps({"code": refused.code, "message": str(refused)}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *refused.headers,
        *SECURITY_HEADERS,
    ]
    await send({"type": f"{kind}.response.start", "status": refused.status, "headers": headers})
    await send({"type": f"{kind}.response.body", "body": body})


def replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the application a body already read whole, then what the client sends next (its
    going away)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
