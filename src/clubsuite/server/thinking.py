"""The searching bots' decisions, in a bounded pool of worker processes.

A searching bot (``hard``, ``expert``, ``pimc``, ``ismcts``) is pure Python for a tenth of a second to seconds a
decision. In threads of the server's process, searches would share one interpreter lock with each other and with the
event loop: with several tables thinking at once each search would get a slice of one core. Here each decision goes
to one of ``bot_workers`` processes (``clubs serve --bot-workers``), one core each at most; when more tables want a
decision than there are workers, the others wait their turn. A level's budget is work (worlds searched, solver
nodes), not time (``docs/bots.md``, "Levels"), so a busy server makes its bots slower to answer, never weaker.

What a worker is sent: the bot's spec, the game, the seat's *view* (never the match: the worker cannot read a card
the seat does not see), the legal actions and the decision's seed. It answers with the action. The pool starts
when the first decision is asked for; a worker that dies (killed for memory, say) is replaced and the decision asked
again once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.engine import LegalActions

log = logging.getLogger("clubsuite.server")

DECISIONS_PER_WORKER = 2000
"""A worker is renewed after this many decisions, so that what a large search took is given back to the system."""

_bots: dict[tuple[str, str], SomeBot] = {}
"""The bots a worker has built, by spec and game (a bot decides from the view it is given and keeps nothing of one
decision for the next, so one bot serves every seat and table)."""


def decide(spec: str, game: str, view: object, legal: LegalActions[object], seed: int) -> object:
    """The decision of the bot ``spec`` of ``game`` for ``view`` (in a worker process): the same as the bot would
    make in the server's own process with ``random.Random(seed)``."""
    key = (spec, game)
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_bot(spec, game)
    return bot.choose(view, legal, random.Random(seed))


class Thinkers:
    """The worker processes of one server for searching bots' decisions."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self.waiting = 0
        """Decisions asked for and not yet answered (being worked out or waiting for a worker)."""

    def pool(self) -> ProcessPoolExecutor:
        """The pool, started when first needed (spawned: a fresh interpreter, not a fork of a process with an event
        loop and threads)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                max_tasks_per_child=DECISIONS_PER_WORKER,
            )
        return self._pool

    async def choose(self, spec: str, game: str, view: object, legal: LegalActions[object], seed: int) -> object:
        """The bot's decision, worked out in a worker process (see :func:`decide`)."""
        self.waiting += 1
        try:
            for attempt in (1, 2):
                pool = self.pool()
                try:
                    return await asyncio.get_running_loop().run_in_executor(pool, decide, spec, game, view, legal, seed)
                except BrokenProcessPool:
                    if self._pool is pool:  # the first to see it renews the pool for everyone
                        self._pool = None
                        pool.shutdown(wait=False, cancel_futures=True)
                    log.warning("a bot worker process died (attempt %d of 2)", attempt)
            raise BrokenProcessPool("the bot's decision could not be worked out: its worker died twice")
        finally:
            self.waiting -= 1

    def close(self) -> None:
        """Stop the workers (the server is stopping): decisions still waiting are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
