"""Worker processes for the commands' long runs: one helper for every command that spreads work over cores.

``clubs simulate``, ``clubs calibrate``, ``clubs evaluate``, ``clubs learn positions`` and ``clubs puzzles make``
hand tasks to a pool of processes and read the results back. They share what is easy to get wrong:

* **Stopping.** Ctrl-C, SIGTERM or SIGHUP reach the command, never a worker: a worker ignores Ctrl-C (the command
  reports the stop once) and ends at once on the others. Leaving the pool, by a stop, a failure or a caller that
  reads no further, ends every worker at once (:meth:`multiprocessing.pool.Pool.terminate`, a public call): the
  tasks not begun never run and a worker's task dies with it, so nothing outlives the command on a core.
* **The signal mask while the pool starts.** A stop signal's handler raises in the main thread at whatever line it
  has reached; while the pool starts, that line may be inside a fork's own callbacks (where Python prints the
  exception and goes on, the signal lost) or between the workers' start and the pool's clean-up (workers left
  running). The stop signals are held back while the pool starts and let through once it is whole; the workers
  begin with the same mask and let them through once their own handlers are set.
* **Waking up.** A stop signal may be delivered to one of the pool's own threads, and Python runs its handler only
  in the main thread when that thread next runs: results are waited for a moment at a time, so that a stop is
  heeded at once even while one long task runs.

``start`` is the start method: ``"spawn"`` (a fresh interpreter per worker, which imports what a task needs; the
default, safe with threads and NumPy), or ``None`` for the platform's default (``"fork"`` on Linux up to Python
3.13, where workers inherit bots a calling script registered at run time).

* **A lost worker.** A worker that ends in the middle of the run (killed, out of memory) stops the run with
  :class:`WorkerLostError` instead of leaving it waiting for ever for the task it held.

The server's pool (``clubsuite.server.workers``) is of another kind: futures awaited on an event loop, renewed
after so many tasks.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Self, TypeVar

from clubsuite.errors import ClubsError

T = TypeVar("T")
R = TypeVar("R")

STOPS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a command."""
WAKE = 0.2
"""Seconds a wait for a result lasts before the main thread looks again for a stop signal."""


class WorkerLostError(ClubsError):
    """A worker process ended in the middle of the run (killed, out of memory, a crash): its task's result will
    never come, so the run stops and says so rather than wait for ever."""


def worker_start() -> None:
    """A worker's start: Ctrl-C is left to the command, which stops the pool and reports it once; SIGTERM or SIGHUP
    end the worker (the command's own handlers, inherited by a fork, are undone; SIGTERM is how the pool ends its
    workers, so it is never left ignored), but a hangup the command ignores (``nohup``) the worker ignores too. The
    worker began with the stop signals held back (:class:`Workers`): they are let through only once its handlers
    are in place."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # how the pool ends its workers: never ignored
    if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)


class Workers:
    """A pool of ``workers`` processes for one run, as a ``with`` block; with one worker (or none) no process is
    started and :meth:`map` calls the function in this process, so a caller has one path for both."""

    def __init__(self, workers: int, start: str | None = "spawn") -> None:
        self.workers = max(1, workers)
        self.start = start
        self._pool: multiprocessing.pool.Pool | None = None
        self._started: list[multiprocessing.process.BaseProcess] = []

    def __enter__(self) -> Self:
        if self.workers > 1:
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS) if hasattr(signal, "pthread_sigmask") else None
            try:
                try:
                    context = multiprocessing.get_context(self.start)
                    before = set(multiprocessing.active_children())
                    self._pool = context.Pool(self.workers, initializer=worker_start)
                    self._started = [p for p in multiprocessing.active_children() if p not in before]
                finally:
                    if mask is not None:  # a stop that came meanwhile is handled here, once the pool is whole
                        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            except BaseException:  # a stop or a failure before the block began: its clean-up would not run
                self.close()
                raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @property
    def processes(self) -> list[multiprocessing.process.BaseProcess]:
        """The worker processes the pool started (none with one worker)."""
        return list(self._started)

    def close(self) -> None:
        """End every worker now (a task running dies with it); the pool's results are no longer read."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()

    def map(self, fn: Callable[[T], R], tasks: Iterable[T], ordered: bool = True) -> Iterator[R]:
        """``fn`` of each task, in the tasks' order (``ordered``) or as they finish; the workers begin at once.
        ``fn`` must be a module-level function (or a :func:`functools.partial` of one) and the tasks picklable: they
        travel to the workers. The tasks are read only as fast as the pipe to the workers drains, so a long run is
        not built up front."""
        if self._pool is None:
            return map(fn, tasks)
        return self._awake(self._pool.imap(fn, tasks) if ordered else self._pool.imap_unordered(fn, tasks))

    def _awake(self, results: multiprocessing.pool.IMapIterator[R]) -> Iterator[R]:
        """The pool's results, waited for a moment at a time (a stop signal is handled between waits), a lost
        worker refused (:meth:`_check_workers`)."""
        while True:
            try:
                yield results.next(timeout=WAKE)
            except multiprocessing.TimeoutError:
                self._check_workers()
            except StopIteration:
                return

    def _check_workers(self) -> None:
        """Refuse to wait on (:class:`WorkerLostError`) once a worker the pool started has ended: the pool puts
        another in its place, but the task it held is lost and its result would never come."""
        for process in self._started:
            if process.exitcode is not None:
                raise WorkerLostError(
                    f"a worker process ended in the middle of the run (exit code {process.exitcode}): the run is "
                    "stopped; what was finished is kept where the command keeps it"
                )
