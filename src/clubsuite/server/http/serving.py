"""How uvicorn serves the application: its own limits set from :class:`~clubsuite.server.limits.ServerLimits`, and
the one it lacks, a time limit on receiving a request.

uvicorn bounds a WebSocket message as its frames arrive (``ws_max_size``: a larger frame closes the socket with
1009 before its payload is read) and a request head that arrives in pieces (h11's incomplete-event limit), and
closes an idle keep-alive connection; but a connection that sends its head or body slowly, or nothing at all, is
kept forever, and nothing bounds how many connections are open (a server out of file handles answers no one).
:class:`TimedH11Protocol` gives each request ``request_timeout`` seconds from its first byte (or from the connection,
for the first) to arrive whole, and closes the connection otherwise; it counts every open connection, HTTP or
WebSocket, in all and by address, and closes one too many as it is accepted. ``clubs serve`` and the test
servers build their configuration with :func:`uvicorn_config`, so the tests run under the limits a public server
has.

:class:`InternalListener` is the operators' own listener (``--metrics-port``): the internal application
(:class:`~clubsuite.server.http.metrics.InternalApp`) served beside the public one, in the same process and event loop,
on another socket, under the same limits, started once the public server is up and stopped after it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections import Counter
from collections.abc import Sequence
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from clubsuite.server.limits import ServerLimits, address_key

WS_QUEUE = 16
"""WebSocket messages a connection may have received and the application not yet read (each at most
``max_ws_bytes``)."""


class Door:
    """The open connections of one server, in all and by address (counted as the limits count them)."""

    def __init__(self, limits: ServerLimits, trusted: Sequence[str] = ()) -> None:
        self.most, self.per_address = limits.max_connections, limits.connections_per_address
        self.total = 0
        self.by_address: Counter[str] = Counter()
        self.trusted = [ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"]
        self.trust_all = "*" in trusted

    def proxy(self, address: str) -> bool:
        """Whether ``address`` is a trusted proxy: its connections carry many clients, each counted by the guard and
        the hub by the address the proxy names, so the door counts them in the total only."""
        if self.trust_all:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address``; False (and not counted) when it is one too many."""
        if self.total >= self.most or (self.by_address[address] >= self.per_address and not self.proxy(address)):
            return False
        self.total += 1
        self.by_address[address] += 1
        return True

    def release(self, address: str) -> None:
        """A counted connection closed."""
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a time limit on receiving each request (head and body), a count of open
    connections in all and by address (one too many is closed at once, before a byte is read), and its own refusal of
    a request the HTTP parser cannot read as JSON like every other."""

    request_timeout = 20.0
    door: Door

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: counted (or closed at once), and its first request must arrive within the time."""
        super().connection_made(transport)
        address = address_key(self.client[0]) if self.client else "unknown"
        if not self.door.admit(address):
            transport.abort()
            return
        self._counted = address
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request: the first of a new request starts its time."""
        if self._request_timer is None and self.conn.their_state is h11.IDLE:
            self._arm()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the request is whole (or the connection is closing)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed: counted out, and no timer outlives it."""
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """The connection becomes a WebSocket: it stays counted until the WebSocket's own end."""
        self._disarm()
        super().handle_websocket_upgrade(event)
        upgraded = self.transport.get_protocol()
        if upgraded is not self:
            lost = upgraded.connection_lost

            def counted_out(exc: Exception | None) -> None:
                self._uncount()
                lost(exc)

            upgraded.connection_lost = counted_out  # type: ignore[method-assign]

    def send_400_response(self, msg: str) -> None:
        """A request the HTTP parser cannot read: refused as JSON, like every refusal, and the connection closed."""
        body = json.dumps({"code": "bad_http", "message": f"the request is not HTTP/1.1 this server can read ({msg})"})
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers), h11.Data(data=body.encode()), h11.EndOfMessage()):
            try:
                self.transport.write(self.conn.send(event))
            except h11.LocalProtocolError:  # an answer was under way already: nothing more can be said
                break
        self.transport.close()

    def _uncount(self) -> None:
        if self._counted is not None:
            self.door.release(self._counted)
            self._counted = None

    def _arm(self) -> None:
        self._disarm()
        self._request_timer = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _too_slow(self) -> None:
        self._request_timer = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed already, or upgraded to a WebSocket (which has its own hello time)
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self.transport.close()  # a body being read is told the client went (uvicorn's own disconnect)


def uvicorn_config(
    app: Any, limits: ServerLimits, host: str, port: int, trusted: Sequence[str] = (), **more: Any
) -> uvicorn.Config:
    """The configuration ``clubs serve`` (and every test server) runs ``app`` with; ``trusted``: the reverse
    proxies whose ``X-Forwarded-For`` names the client (uvicorn's proxy headers)."""
    door = Door(limits, trusted)
    protocol = type("Timed", (TimedH11Protocol,), {"request_timeout": limits.request_timeout, "door": door})
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        lifespan="on",
        ws_max_size=limits.max_ws_bytes,
        ws_max_queue=WS_QUEUE,
        ws_per_message_deflate=False,  # messages are small; compressing each costs more CPU than it saves
        h11_max_incomplete_event_size=limits.max_header_bytes,
        timeout_keep_alive=5,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=list(trusted) or None,
        **more,
    )


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host`` and ``port`` (0: any free one), ready to serve (uvicorn listens on it).

    Bound before the server starts, so that an address already taken (or one the host does not have) is said at once,
    plainly, rather than once the public listener is up. Raises :class:`OSError`."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


class InternalListener:
    """The operators' listener: ``app`` (the internal application) served on ``sock`` by a uvicorn server of its own,
    under ``limits`` like the public one (request times, connection counts), without proxy headers (nobody stands in
    front of it). :meth:`start` and :meth:`stop` are called by the public server as it starts and stops, in its
    event loop."""

    def __init__(self, app: Any, limits: ServerLimits, sock: socket.socket, **more: Any) -> None:
        host, port = sock.getsockname()[:2]
        self.socket = sock
        self.config = uvicorn_config(app, limits, str(host), int(port), **more)
        self.server = uvicorn.Server(self.config)

    @property
    def address(self) -> str:
        """Where the figures are read, as a URL."""
        host, port = self.socket.getsockname()[:2]
        shown = f"[{host}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}/metrics"

    async def start(self) -> None:
        """Start serving (the public server is up)."""
        if not self.config.loaded:
            self.config.load()
        self.server.lifespan = self.config.lifespan_class(self.config)
        await self.server.startup(sockets=[self.socket])

    async def stop(self) -> None:
        """Stop serving: no new connection, those open closed once their answer is sent."""
        if self.server.started:
            await self.server.shutdown(sockets=[self.socket])
