"""How uvicorn serves the application: its own limits set from :class:`~clubsuite.server.limits.ServerLimits`, and
the one it lacks, a time limit on receiving a request.

uvicorn bounds a WebSocket message as its frames arrive (``ws_max_size``: a larger frame closes the socket with
1009 before its payload is read) and a request head that arrives in pieces (h11's incomplete-event limit), and
closes an idle keep-alive connection; but a connection that sends its head or body slowly, or nothing at all, is
kept forever. :class:`TimedH11Protocol` gives each request ``request_timeout`` seconds from its first byte (or from
the connection, for the first) to arrive whole, and closes the connection otherwise. ``clubs serve`` and the test
servers build their configuration with :func:`uvicorn_config`, so the tests run under the limits a public server
has.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from clubsuite.server.limits import ServerLimits

WS_QUEUE = 16
"""WebSocket messages a connection may have received and the application not yet read (each at most
``max_ws_bytes``)."""


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a time limit on receiving each request (head and body)."""

    request_timeout = 20.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request must arrive within the time."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request: the first of a new request starts its time."""
        if self._request_timer is None and self.conn.their_state is h11.IDLE:
            self._arm()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the request is whole (or the connection is closing)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed: no timer outlives it."""
        self._disarm()
        super().connection_lost(exc)

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


def uvicorn_config(app: Any, limits: ServerLimits, host: str, port: int, **more: Any) -> uvicorn.Config:
    """The configuration ``clubs serve`` (and every test server) runs ``app`` with."""
    protocol = type("Timed", (TimedH11Protocol,), {"request_timeout": limits.request_timeout})
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
        **more,
    )
