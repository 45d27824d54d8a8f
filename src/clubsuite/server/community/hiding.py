"""A block or a mute made at another process reaches this process's open table sockets.

A block or mute hides the other account's chat from the next line on, at once at the process that took it
(``Hub.hide_for``); a socket of the same account at another process's table (where several processes serve one
database) learns of it here: every :data:`LOOK_EVERY` seconds the blocks and mutes of the last :data:`WINDOW`
seconds are read (one query, by the times their processes wrote, so that clocks that differ by less than the window
lose none), and the accounts among them with a socket open at this process's tables have their hidden set read
again. An unblock reaches other processes' sockets when they connect again. A single process needs none of this.
"""

from __future__ import annotations

import time

from clubsuite.server.community.ticking import Ticker
from clubsuite.server.people.relations import Relations
from clubsuite.server.table.hub import Hub

LOOK_EVERY = 2.0
"""Seconds between two looks for new blocks and mutes."""
WINDOW = 30.0
"""How far back each look reads (a block is acted on once; the overlap covers clocks that differ)."""


class Hiding(Ticker):
    """This process's look for blocks and mutes made elsewhere (see the module)."""

    every = LOOK_EVERY
    what = "looking for blocks and mutes made at other processes"

    def __init__(self, hub: Hub, relations: Relations) -> None:
        self.hub = hub
        self.relations = relations
        self._seen: set[tuple[str, str, float]] = set()
        """The blocks and mutes of the last look's window (acted on once)."""

    async def round(self) -> None:
        """One look (see the module)."""
        made = await self.relations.hidings_since(time.time() - WINDOW)
        changed = {who for who, _, _ in made - self._seen}
        for user_id in changed:  # a socket that opens here next reads the new set, not one kept from before
            self.relations.forget(user_id)
        here = {c.user_id for t in self.hub.tables.values() for c in t.connections if c.user_id is not None}
        for user_id in changed & here:
            self.hub.hide_for(user_id, await self.relations.hidden(user_id, fresh=True))
        self._seen = made  # only once all is done: a look that failed half way is made again
