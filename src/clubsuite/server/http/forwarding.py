"""Requests about a table that another server process owns, passed on to it: any process answers any client.

When several processes share one database (``ownership``), a table lives in one of them, its owner, while the proxy
in front may send a client to any. This ASGI middleware, inside the guard (so a request is priced, sized and its
origin checked once, where it arrives), looks at every request about one table: its page's API
(``/tables/{id}...``), its WebSocket (``/tables/{id}/ws``) and its invite (``/invites/{code}...``). A table served
here goes on to the application; a table nobody owns (its owner just died) is taken over here at once
(:meth:`Hub.adopt`); a table another process owns is passed to that process: an HTTP request forwarded and its
answer returned, a WebSocket relayed frame by frame both ways until either side closes. The socket of a table's
players therefore always ends at its owner, where the table's order of actions and "committed before told" hold.
Quick play (``POST /quickplay``) is passed on too where this process has no table waiting for the game asked and
another process lists one (:meth:`Hub.quick_elsewhere`): that table's owner seats the person.

Why forwarding rather than a redirect or the proxy's hash of the table id: the proxy needs no knowledge of where
tables live (a plain balancer with health checks serves), a client needs no address of any single process (a
redirect would hand out internal addresses), and the owner of a table can change at any moment (a take-over after
a crash, a hand-over at a stop) without the proxy's table of servers changing: the next request simply finds the
new owner. The cost is one more hop on loopback or the local network for the requests that arrive elsewhere.

The path passed on is the one the client sent, byte for byte (its raw path), and only after a check
(:func:`path_problem`): a request about a table whose path holds a control character, a dot segment (``.`` or
``..``, plain or percent-encoded), an encoded slash or backslash or a byte that is not printable ASCII is refused
with 400 ``bad_path``, at every process alike (the owner too, so that an odd path tells nothing of where a table
lives), and never passed on. An HTTP client would otherwise resolve the dot segments itself (``/tables/x/%2e%2e/
%2e%2e/metrics`` would reach ``/metrics`` at the owner, ``.../account/login`` a sign-in outside this process's rate)
or fail to build the URL at all (``%00``), which was answered with a 500. The URL is built from the raw path without
letting the client normalise it, and checked to say what was checked.

The forwarded request carries the client's address (``X-Forwarded-For``: the other processes must name this one
with ``--trusted-proxy``, as they name the proxy) and ``X-Clubs-Forwarded``, the processes it has passed through.
A process it reaches that no longer serves the table (it lost it a moment ago to a third, whose take-over came
between the first process's look and the request's arrival) looks again, as the first did, and passes it on to
the owner it finds, never to a process the request has been through and at most :data:`MAX_HOPS` times in all;
beyond that, and where this process can take no table now (stopping or full), it answers 503 ``moved`` with
``Retry-After`` (a WebSocket: closed with 1013), never "no such table" for a table that exists. The proxy must drop
a client's own ``X-Clubs-Forwarded`` (the shipped configuration does): a client naming processes in it could learn
which one holds a table from the answer. It carries no ``Origin``: the origin was checked where the request
arrived. An owner that cannot be reached (it died a moment ago, before its lease ran out) is answered 503 with
``Retry-After``, or a WebSocket closed with 1013 (try again later), which clients take as a reason to reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import quote, unquote_to_bytes

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from clubsuite.server.http.guard import SECURITY_HEADERS, Refusal, answer, client_address, replaying
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.lobbycast import Lobbycast

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TABLE_PATH = re.compile(r"^/tables/([A-Za-z0-9_-]{1,40})(?:/.*)?$")
INVITE_PATH = re.compile(r"^/invites/([^/]{1,64})(?:/join)?$")
FORWARDED = b"x-clubs-forwarded"
"""Set on a request one process passes to another: the names of the processes it has been through, in order."""
MAX_HOPS = 3
"""The most times a request is passed on (so at most four processes see it): a table changes hands rarely, and
twice within one request's way only under a storm of take-overs; a request that would go further is answered 503
``moved`` (try again)."""
HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-authenticate",
        b"proxy-authorization",
        b"te",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
        b"host",
        b"origin",
        b"content-length",
        b"x-forwarded-for",
        b"sec-websocket-key",
        b"sec-websocket-version",
        b"sec-websocket-extensions",
        b"sec-websocket-protocol",
        b"sec-websocket-accept",
    }
)
"""Headers of one connection, or set anew on the next hop: not passed on."""
ANSWER_DROPPED = HOP_BY_HOP | {name for name, _ in SECURITY_HEADERS} | {b"date", b"server"}
"""Headers of the owner's answer not passed back: this process's guard adds its own."""
FORWARD_TIMEOUT = 60.0
"""Seconds a forwarded request may take at the owner (a loaded machine is slow, not broken)."""
RETRY = "the table's server is changing hands: try again in a moment"


def moved() -> Refusal:
    """The answer to a request whose table's server is changing hands or cannot be reached now: 503 ``moved``,
    try again in a second."""
    return Refusal(503, "moved", RETRY, [(b"retry-after", b"1")])


NO_STATUS = frozenset({1005, 1006, 1015})
"""Close codes that say no close frame came: never sent in one."""
CHECKED = ("/tables/", "/invites/")
"""The paths that may be passed on to another process (besides ``/quickplay``, whose path is fixed): their path is
checked wherever they arrive."""
_PRINTABLE = re.compile(rb"[!-~]*")
"""Printable ASCII, without the space: what a raw path or query may hold."""
UNPRINTABLE = "a control character, a space, # or a byte beyond ASCII"
_ENCODED_CONTROL = re.compile(rb"%(?:[01][0-9A-Fa-f]|7[Ff]|[Cc]2%[89][0-9A-Fa-f])")
"""A percent-encoded control character: C0 (``%00`` to ``%1F``), DEL (``%7F``), C1 (``%C2%80`` to ``%C2%9F``)."""
_ENCODED_SLASH = re.compile(rb"%(?:2[Ff]|5[Cc])")
"""A percent-encoded slash or backslash."""


def path_problem(path: str, raw_path: bytes, query: bytes = b"") -> str | None:
    """What is wrong with a request's path (``path``: decoded, ``raw_path``: as sent) and query for passing it on to
    another process, in words for the client; None where nothing is.

    Refused: a byte of the raw path or query that is not printable ASCII (a control character, a space, a byte
    beyond ASCII) or a ``#``; a control character, encoded or decoded; an encoded slash or backslash (``%2F``,
    ``%5C``) or a backslash; a dot segment (``.`` or ``..``, plain or percent-encoded, in the raw path or the
    decoded one). Each would mean one thing here and another at the owner, or to the HTTP client between (which
    resolves dot segments, and cannot build a URL with a control character)."""
    if not raw_path.startswith(b"/") or not path.startswith("/"):
        return "the path must begin with /"
    if not _PRINTABLE.fullmatch(raw_path) or b"#" in raw_path:
        return f"the path holds a character that must be percent-encoded ({UNPRINTABLE})"
    if not _PRINTABLE.fullmatch(query) or b"#" in query:
        return f"the query holds a character that must be percent-encoded ({UNPRINTABLE})"
    if _ENCODED_CONTROL.search(raw_path) or any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in path):
        return "the path holds a control character (%00 to %1F, %7F or %80 to %9F)"
    if _ENCODED_SLASH.search(raw_path) or "\\" in path or b"\\" in raw_path:
        return "the path holds an encoded slash or a backslash (%2F, %5C or \\): each part of a path is spelt as itself"
    segments = [*path.split("/"), *(unquote_to_bytes(part).decode("latin-1") for part in raw_path.split(b"/"))]
    if any(segment in (".", "..") for segment in segments):
        return "the path holds a dot segment (. or .., plain or percent-encoded): a path names its place directly"
    return None


def _raw_target(scope: Scope) -> tuple[bytes, bytes]:
    """A request's path as the client sent it, and its query (the path encoded again from the decoded one where
    the server gave no raw path)."""
    raw = scope.get("raw_path")
    path = bytes(raw) if raw else quote(str(scope.get("path", "")), safe="/:@!$&'()*+,;=-._~").encode("ascii")
    return path, bytes(scope.get("query_string") or b"")


class Peers:
    """The HTTP connections this process keeps to the others (made at the first forwarded request)."""

    def __init__(self) -> None:
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        """The client, made when first needed."""
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=FORWARD_TIMEOUT)
        return self._client

    async def close(self) -> None:
        """Close them (when the server stops)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None


class Forwarder:
    """ASGI middleware: a request about a table another process owns goes to that process (module docstring)."""

    def __init__(self, app: ASGIApp, hub: Hub, peers: Peers, max_ws_bytes: int, lobby: Lobbycast | None = None) -> None:
        self.app = app
        self.hub = hub
        self.peers = peers
        self.max_ws_bytes = max_ws_bytes
        self.lobby = lobby

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._is_quickplay(scope):
            await self._quickplay(scope, receive, send)
            return
        problem = self._path_problem(scope)
        if problem is not None:
            await _refuse(scope, receive, send, Refusal(400, "bad_path", problem))
            return
        try:
            address = await self._owner_elsewhere(scope) if scope["type"] in ("http", "websocket") else None
        except Refusal as refused:
            await self._moved(scope, receive, send, refused)
            return
        if address is None:
            await self._here(scope, receive, send)
            return
        kind = "http" if scope["type"] == "http" else "ws"
        if self.hub.on_forward is not None:
            self.hub.on_forward(kind)
        if kind == "http":
            await self._forward(scope, receive, send, address)
        else:
            await self._relay(scope, receive, send, address)

    async def _here(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a request here. One about a table served here holds the table in memory while it is answered (a
        turn-based table is not parked under it: ``Hub.pin``), and wakes it first if it was being parked as the
        request arrived."""
        table_id = self._table_here(scope) if scope["type"] in ("http", "websocket") else None
        if table_id is None:
            await self.app(scope, receive, send)
            return
        self.hub.pin(table_id)
        try:
            table = self.hub.tables.get(table_id)
            if table is None or table.closed:  # parked between the look above and now: woken again
                await self.hub.serving(table_id)
            await self.app(scope, receive, send)
        finally:
            self.hub.unpin(table_id)

    def _table_here(self, scope: Scope) -> str | None:
        """The id of the table a request is about (its path's, or the table served here that its invite opens)."""
        path = str(scope.get("path", ""))
        found = TABLE_PATH.match(path)
        if found is not None:
            return found.group(1)
        invite = INVITE_PATH.match(path)
        return self.hub.invited(invite.group(1)) if invite is not None else None

    def _path_problem(self, scope: Scope) -> str | None:
        """What is wrong with the path of a request that may be passed on to another process (one about a table or
        an invite, where several processes serve), checked wherever it arrives, whoever owns the table; None where
        nothing is, or where nothing is ever passed on."""
        path = str(scope.get("path", ""))
        if self.hub.ownership is None or scope["type"] not in ("http", "websocket") or not path.startswith(CHECKED):
            return None
        return path_problem(path, *_raw_target(scope))

    async def _owner_elsewhere(self, scope: Scope) -> str | None:
        """The address of the process that owns the table this request is about, when that is another process;
        None where this process answers it (no table named, a table served here or taken over now, or no such
        table). Raises :class:`Refusal` (503 ``moved``) where the owner found is a process the request has already
        been through, or it has been through :data:`MAX_HOPS` (the table is changing hands: the client tries
        again)."""
        hub = self.hub
        ownership = hub.ownership
        path = str(scope.get("path", ""))
        found = TABLE_PATH.match(path)
        if found is not None:
            table_id: str | None = found.group(1)
        else:
            invite = INVITE_PATH.match(path)
            if invite is None or hub.serves_invite(invite.group(1)):
                return None
            row = await hub.db(hub.store.table_by_invite, invite.group(1))
            table_id = row.id if row is not None else None
        if table_id is None or table_id in hub.tables:
            return None
        if ownership is None:  # one process: a parked turn-based table is woken here, and the request served
            await hub.wake(table_id)
            return None
        owner = await hub.db(ownership.owner, table_id)
        if owner is None or owner[0] == ownership.node:
            # Nobody owns it (its owner died): taken over here, now. Or this process owns it and is rebuilding it
            # (a take-over under way): the request waits for it. Or its owner's heartbeat came late, between the
            # read above and the take-over's transaction: that transaction names the owner, and the request goes
            # there (a table whose making was acknowledged is never answered as unknown).
            if hub.stopping or len(hub.tables) >= hub.limits.max_tables:
                # This process takes no table now (stopping, or full): another will, so the client tries again
                # rather than hearing that a table whose owner just died does not exist.
                raise moved()
            where = await hub.take_over(table_id)
            owner = where if isinstance(where, tuple) and where[0] != ownership.node else None
        if owner is None:
            return None
        been = _hops(scope)
        if owner[0] in been or len(been) >= MAX_HOPS:
            raise moved()
        return owner[1]

    async def _moved(self, scope: Scope, receive: Receive, send: Send, moved: Refusal) -> None:
        """Answer a request whose table is changing hands faster than it can follow: 503 with ``Retry-After``, or a
        WebSocket closed with 1013 (try again later), which clients take as a reason to reconnect."""
        if scope["type"] == "http":
            await _refuse(scope, receive, send, moved)
        elif (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})  # a close before the accept would be a bare 403 handshake
            await send({"type": "websocket.close", "code": 1013, "reason": moved.code})

    # -- quick play -----------------------------------------------------------------------------------------------
    def _is_quickplay(self, scope: Scope) -> bool:
        """A quick play that may be answered by another process: several processes, a first hop."""
        return (
            self.lobby is not None
            and scope["type"] == "http"
            and scope.get("method") == "POST"
            and scope.get("path") == "/quickplay"
            and not _hops(scope)
        )

    async def _quickplay(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Quick play across processes: where this process has no table waiting for the game asked but another
        process lists one, the request is passed to that table's owner, whose quick play seats the person there
        (or, if the table filled meanwhile, makes one there). Otherwise, or if the owner cannot be reached, it is
        answered here, as with one process."""
        body = await _body(receive)
        if body is None:
            return  # the client went
        assert self.lobby is not None and self.hub.ownership is not None
        target = self.hub.seating.quick_elsewhere(_field(body, "game"), self.lobby.entries())
        owner = await self.hub.db(self.hub.ownership.owner, target) if target is not None else None
        if owner is not None and owner[0] != self.hub.ownership.node:
            if self.hub.on_forward is not None:
                self.hub.on_forward("quickplay")
            try:
                passed = await self._pass_on(scope, body, owner[1])
            except Refusal as refused:
                await _refuse(scope, receive, send, refused)
                return
            if passed is not None:
                await _answer(passed, send)
                return
        await self.app(scope, replaying(body, receive), send)

    # -- HTTP ----------------------------------------------------------------------------------------------------
    async def _forward(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        """Pass an HTTP request to the owner and its answer back."""
        body = await _body(receive)
        if body is None:
            return  # the client went
        try:
            passed = await self._pass_on(scope, body, address)
        except Refusal as refused:
            await _refuse(scope, receive, send, refused)
            return
        if passed is None:
            await _refuse(scope, receive, send, moved())
            return
        await _answer(passed, send)

    async def _pass_on(self, scope: Scope, body: bytes, address: str) -> httpx.Response | None:
        """The request sent to the process at ``address``: its answer, or None when it could not be reached.

        Raises :class:`Refusal` (400 ``bad_path``) for a path or query the HTTP client cannot send as it came:
        whatever it raises for a URL it will not build is the client's request at fault, never a 500."""
        try:
            base = httpx.URL(address)
        except (httpx.InvalidURL, ValueError):
            return None  # an owner's address that is no URL: that process cannot be reached
        url = _forwarded_url(base, scope)
        try:
            return await self.peers.client.request(
                str(scope["method"]), url, content=body, headers=self._headers(scope)
            )
        except httpx.HTTPError:
            return None
        except (httpx.InvalidURL, ValueError) as exc:
            raise Refusal(400, "bad_path", f"this request cannot be passed on to the table's server ({exc})") from None

    def _headers(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        """The request's headers for the next hop: the client's address named, this process added to the hops."""
        kept = [(k, v) for k, v in scope.get("headers") or [] if k.lower() not in HOP_BY_HOP and k.lower() != FORWARDED]
        assert self.hub.ownership is not None
        hops = ",".join([*_hops(scope), self.hub.ownership.node])
        return [
            *kept,
            (b"x-forwarded-for", client_address(scope).encode("latin-1")),
            (FORWARDED, hops.encode("latin-1")),
        ]

    # -- WebSocket -----------------------------------------------------------------------------------------------
    async def _relay(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        """Relay a WebSocket to the owner: accepted once the owner has accepted, then every frame passed on both
        ways, and either side's close passed to the other."""
        if (await receive())["type"] != "websocket.connect":
            return
        path, query = _raw_target(scope)
        url = "ws" + address[len("http") :] + path.decode("ascii") + (f"?{query.decode('ascii')}" if query else "")
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in self._headers(scope)]
        try:
            upstream = await connect(
                url,
                additional_headers=headers,
                max_size=self.max_ws_bytes * 4,
                ping_interval=None,
                open_timeout=FORWARD_TIMEOUT,
                compression=None,
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidStatus):
            await send({"type": "websocket.close", "code": 1013, "reason": "moved"})
            return
        except (InvalidURI, ValueError):  # a path the check let through but the client will not send: the client's
            await send({"type": "websocket.close", "code": 4400, "reason": "bad_path"})
            return
        await send({"type": "websocket.accept"})
        async with upstream:
            inward = asyncio.create_task(self._to_owner(receive, upstream))
            try:
                await self._to_client(upstream, send)
            finally:
                inward.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await inward

    async def _to_owner(self, receive: Receive, upstream: ClientConnection) -> None:
        """The client's frames, on to the owner; the client's close closes the owner's side."""
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                await upstream.close()
                return
            if message["type"] == "websocket.receive":
                text = message.get("text")
                await upstream.send(text if text is not None else message.get("bytes") or b"")

    async def _to_client(self, upstream: ClientConnection, send: Send) -> None:
        """The owner's frames, on to the client; the owner's close closes the client's side with its code."""
        try:
            async for frame in upstream:
                if isinstance(frame, str):
                    await send({"type": "websocket.send", "text": frame})
                else:
                    await send({"type": "websocket.send", "bytes": frame})
        except ConnectionClosed:
            pass
        code = upstream.close_code
        if code is None or code in NO_STATUS:
            code = 1012  # the owner went without a word (killed): the client reconnects
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": code, "reason": upstream.close_reason or ""})


def _hops(scope: Scope) -> list[str]:
    """The processes a request has been passed through (``X-Clubs-Forwarded``, every such header, in order): empty
    for a request straight from a client. A client may send the header too: it can only shorten its own request's
    way (a request that claims :data:`MAX_HOPS` is answered where it arrives or told to try again)."""
    names: list[str] = []
    for key, value in scope.get("headers") or []:
        if key.lower() == FORWARDED:
            names += [name.strip() for name in value.decode("latin-1").split(",") if name.strip()]
    return names


def _forwarded_url(base: httpx.URL, scope: Scope) -> httpx.URL:
    """The URL a request is passed on to: the owner's address with the request's raw path and query, as checked.

    Built with ``raw_path``, which the HTTP client takes as given (a URL string would have its dot segments resolved);
    checked to name the same path once built (the client may percent-encode a character more, never change what
    the path says). Raises :class:`Refusal` where it cannot be built or would say something else."""
    path, query = _raw_target(scope)
    problem = path_problem(str(scope.get("path", "")), path, query)
    if problem is not None:
        raise Refusal(400, "bad_path", problem)
    try:
        url = base.copy_with(raw_path=path + (b"?" + query if query else b""))
    except (httpx.InvalidURL, ValueError) as exc:
        raise Refusal(400, "bad_path", f"this request cannot be passed on to the table's server ({exc})") from None
    built = url.raw_path.partition(b"?")[0]
    if unquote_to_bytes(built) != unquote_to_bytes(path):
        raise Refusal(400, "bad_path", "the path would change on its way to the table's server")
    return url


async def _refuse(scope: Scope, receive: Receive, send: Send, refused: Refusal) -> None:
    """Refuse a request here, as the guard refuses: a JSON answer with the code and the words (the guard adds the
    security headers to an HTTP answer); a WebSocket refused in its handshake where the server allows it, or else
    closed with 4000 plus the status."""
    if scope["type"] == "http":
        payload = json.dumps({"code": refused.code, "message": str(refused)}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": refused.status,
                "headers": [(b"content-type", b"application/json"), *refused.headers],
            }
        )
        await send({"type": "http.response.body", "body": payload})
        return
    if (await receive())["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await answer(send, refused, "websocket.http")
    else:
        await send({"type": "websocket.close", "code": 4000 + refused.status, "reason": refused.code})


async def _body(receive: Receive) -> bytes | None:
    """A request's whole body (its size already bounded by the guard), or None when the client went."""
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += bytes(message.get("body", b""))
        if not message.get("more_body"):
            return body


def _field(body: bytes, name: str) -> object:
    """A field of a JSON object body, or None (a body that is not one is the application's to refuse)."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data.get(name) if isinstance(data, dict) else None


async def _answer(answer: httpx.Response, send: Send) -> None:
    """Another process's answer, passed back (less the headers this process's guard sets itself)."""
    headers = [(k, v) for k, v in answer.headers.raw if k.lower() not in ANSWER_DROPPED]
    await send({"type": "http.response.start", "status": answer.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": answer.content})
