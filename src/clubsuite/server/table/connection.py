"""One client's socket as a table sees it: its seat (None: watching) and the queue of messages going out to it.

Kept apart from the live table (``live``) so that what serves a connection (the chat, the table) can name it
without importing each other.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from clubsuite.jsonform import JsonObject

QUEUE = 512
"""Messages waiting for one client before it is dropped as too slow (it reconnects and resyncs)."""


@dataclass(eq=False)
class Connection:
    """One client's socket, as the table sees it: its seat (None: watching) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[JsonObject | str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    """Messages going out: as objects, or as text already encoded (one update encoded once for every connection of
    a seat); None closes the socket."""
    dropped: bool = False
    user_id: str | None = None
    """The account the client is signed in as (a seat's account, or a spectator's session), or None: whose chat it
    hides, and whose chat a line it says is."""
    hidden: frozenset[str] = frozenset()
    """The accounts whose chat this client does not see (those its account blocked or muted)."""
    address: str | None = None
    """The client's address as the server counts it (an IPv6 address by its /64): a spectator's chat rate and label
    go by it, so that reconnecting gives neither a fresh allowance nor a new label to escape a mute."""

    def send(self, msg: JsonObject | str) -> None:
        """Queue ``msg`` (an object, or its encoded text); a client too slow to take its messages is dropped (it comes
        back and resyncs)."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.dropped = True
            self.send_close()

    closing: bool = False
    """Whether the close is queued already: it is queued once, so that the socket's writer, which ends on it, leaves
    nothing behind in the queue (a stopping server waits for every queue to empty)."""

    def send_close(self) -> None:
        """Close the socket once what is queued has gone (a slow client's queue is cut short); once only."""
        self.dropped = True
        if self.closing:
            return
        self.closing = True
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()
