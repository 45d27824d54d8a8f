"""A pool of worker processes that is renewed whole after so many tasks, for the server's costly work (replays, the
searching bots' decisions).

Why not ``ProcessPoolExecutor(max_tasks_per_child=N)``: in Python 3.11 to 3.13 a pool that retires a worker can
fail to start its replacement (CPython issue gh-115634), and once every worker is gone the tasks waiting never run and
nothing is raised. Here the executor itself is replaced after ``renew_after`` tasks: the old one finishes the tasks
it was given and its processes then end (what a large task took is given back to the system), while new tasks go
to the new one. A pool broken by a dying worker is replaced at once.

The workers are started by multiprocessing's fork server, never by a fork of the server itself (whose event loop
and threads a fork would copy in the middle of their work): the fork server is a fresh interpreter, started once
per server process, that imports the workers' modules (:data:`PRELOAD`) and then forks a worker for each one asked
for. A worker so starts in a few milliseconds with what its tasks need already imported, where a fresh interpreter
each (``spawn``) took about half a second of a core to import them again, for every renewed pool. A worker takes
the server's environment as it is when its pool starts (:func:`take_environment`), as a fresh interpreter would,
not the fork server's, which is the server's as it was at the first pool.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar, TypeVarTuple

PRELOAD = ["clubsuite.server.table.thinking", "clubsuite.server.table.replaying"]
"""The modules the fork server imports before it forks workers: those of the tasks the server gives them."""

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class RenewingPool:
    """``workers`` processes forked by the fork server (module docstring), started when first needed and renewed
    after ``renew_after`` tasks."""

    def __init__(self, workers: int, renew_after: int) -> None:
        self.workers = workers
        self.renew_after = renew_after
        self._executor: ProcessPoolExecutor | None = None
        self._given = 0
        self.closed = False

    def executor(self) -> ProcessPoolExecutor:
        """The executor new tasks go to (a new one once the current one has been given ``renew_after`` tasks)."""
        if self.closed:
            raise RuntimeError("the worker pool is closed: the server is stopping")
        if self._executor is not None and self._given >= self.renew_after:
            self._executor.shutdown(wait=False)  # its tasks still run to their end; its processes then exit
            self._executor = None
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=worker_context(), initializer=take_environment, initargs=(dict(os.environ),)
            )
            self._given = 0
        return self._executor

    def submit(self, fn: Callable[[*Ts], T], *args: *Ts) -> tuple[Future[T], ProcessPoolExecutor]:
        """Give a task to the pool: its future, and the executor it went to (for :meth:`broken`)."""
        executor = self.executor()
        self._given += 1
        return executor.submit(fn, *args), executor

    def broken(self, executor: ProcessPoolExecutor | None = None) -> None:
        """The pool ``executor`` (the current one when None) lost a worker: the next task goes to a new pool."""
        if executor is None or executor is self._executor:
            old, self._executor = self._executor, None
            if old is not None:
                old.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (the server is stopping): tasks not yet started are dropped, and no more are taken."""
        self.closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def worker_context() -> multiprocessing.context.ForkServerContext:
    """The fork server's context, its modules to preload set (:data:`PRELOAD`; they take effect when the fork server
    starts, at the first pool of the process)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def take_environment(environment: dict[str, str]) -> None:
    """A worker's start: its environment made ``environment`` (the server's when the pool started)."""
    os.environ.clear()
    os.environ.update(environment)
