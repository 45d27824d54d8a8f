"""A round of work every so often on the event loop: the rated queue's matching, the tournaments' director, the
pushes to the pages' sockets. A round that fails is logged and the next one goes on; stopping cancels the task and
waits for it."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger("clubsuite.server")


class Ticker:
    """Calls :meth:`round` every :attr:`every` seconds once started (a subclass says what a round is)."""

    every: float = 1.0
    """Seconds between two rounds."""
    what: str = "a round of work"
    """What a round is, for the log when one fails."""

    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the rounds."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the rounds (the one in progress is cancelled)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.round()
            except Exception:  # a round that fails is logged; the next one goes on
                log.exception("%s failed", self.what)

    async def round(self) -> None:
        """One round of work."""
        raise NotImplementedError
