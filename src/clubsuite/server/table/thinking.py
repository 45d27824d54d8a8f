"""The searching bots' decisions, in a bounded pool of worker processes.

A searching bot (``hard``, ``expert``, ``pimc``, ``ismcts``) is pure Python for a tenth of a second to seconds a
decision. In threads of the server's process, searches would share one interpreter lock with each other and with the
event loop: with several tables thinking at once each search would get a slice of one core. Here each decision goes
to one of ``bot_workers`` processes (``clubs serve --bot-workers``), one core each at most; when more tables want a
decision than there are workers, the others wait their turn. A level's budget is work (worlds searched, solver
nodes), not time (``docs/bots.md``, "Levels"), so a busy server makes its bots slower to answer, never weaker.

What a worker is sent: the bot's spec, the game, the decision's seed, and a seat's view of an *imagined* match, one
the seat cannot tell from the real one (:func:`imagined`: every card it cannot see drawn again), never the real
match; a view holds its whole match, so a view of the real one would carry every hidden card to the worker. Search
bots decide from what their seat can tell apart only (``tests/test_search_bots.py``), so the decision is the one
the bot makes on the real match. One decision is worked out once: a table that asks again for the same decision (its
timer rescheduled as people come and go) waits for the one under way. A worker that dies is replaced and the
decision asked again once; the pool is renewed after :data:`DECISIONS_PER_POOL` decisions.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Hashable
from concurrent.futures.process import BrokenProcessPool

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.engine import LegalActions, SomeMatch
from clubsuite.seeding import derive_seed
from clubsuite.server.workers import RenewingPool

log = logging.getLogger("clubsuite.server")

DECISIONS_PER_POOL = 2000
"""The pool is renewed after this many decisions, so that what large searches took is given back to the system."""
DECISION_LIMIT = 600.0
"""Seconds a decision may take in a worker before the table gives up on it (far beyond the levels' own caps: only
a worker stuck for good reaches it)."""

_bots: dict[tuple[str, str], SomeBot] = {}
"""The bots a worker has built, by spec and game (a bot decides from the view it is given and keeps nothing of one
decision for the next, so one bot serves every seat and table)."""


def imagined(match: SomeMatch, seat: int, seed: int) -> tuple[object, LegalActions[object]]:
    """What a worker is sent for ``seat``'s decision: its view of a match it cannot tell from ``match`` (every card
    it cannot see drawn again from ``seed``), and its legal actions there, which are its legal actions in ``match``."""
    world: SomeMatch = match.view(seat).determinize(random.Random(derive_seed(seed, 1)))  # type: ignore[attr-defined]
    return world.view(seat), world.legal_actions()


def decide(spec: str, game: str, view: object, legal: LegalActions[object], seed: int) -> object:
    """The decision of the bot ``spec`` of ``game`` for ``view`` (in a worker process), with ``random.Random(seed)``."""
    key = (spec, game)
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_bot(spec, game)
    return bot.choose(view, legal, random.Random(seed))


class Thinkers:
    """The worker processes of one server for searching bots' decisions."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = RenewingPool(workers, DECISIONS_PER_POOL)
        self._under_way: dict[Hashable, asyncio.Future[object]] = {}
        """The decisions being worked out, by the key their table gave (one table, version and seat each)."""

    @property
    def under_way(self) -> int:
        """Decisions being worked out or waiting for a worker."""
        return len(self._under_way)

    async def choose(
        self, key: Hashable, spec: str, game: str, view: object, legal: LegalActions[object], seed: int
    ) -> object:
        """The bot's decision, worked out in a worker process (see :func:`decide`); the same decision asked for
        again under ``key`` while it is under way waits for it rather than starting it again. Raises when the
        pool is closed, when a worker died twice, or after :data:`DECISION_LIMIT` seconds."""
        shared = self._under_way.get(key)
        if shared is None:
            shared = asyncio.ensure_future(self._work(spec, game, view, legal, seed))
            self._under_way[key] = shared
            shared.add_done_callback(lambda done: self._settled(key, done))
        # shielded: a table that stops waiting (its timer rescheduled) does not cancel the work for the next ask
        return await asyncio.wait_for(asyncio.shield(shared), DECISION_LIMIT)

    def _settled(self, key: Hashable, done: asyncio.Future[object]) -> None:
        """A decision is done: no longer under way (its failure, if any, is read here, so that it is never left
        unread when nobody waits for it any more)."""
        self._under_way.pop(key, None)
        if not done.cancelled():
            done.exception()

    async def _work(self, spec: str, game: str, view: object, legal: LegalActions[object], seed: int) -> object:
        for attempt in (1, 2):
            future, executor = self.pool.submit(decide, spec, game, view, legal, seed)
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self.pool.broken(executor)
                log.warning("a bot worker process died (attempt %d of 2)", attempt)
        raise BrokenProcessPool("the bot's decision could not be worked out: its worker died twice")

    def close(self) -> None:
        """Stop the workers (the server is stopping): decisions not yet started are dropped, no more are taken."""
        self.pool.close()
