"""Stop signals (Ctrl-C, SIGTERM, SIGHUP) turned into an exception the command line can act on.

Every ``clubs`` run installs :class:`StopSignals` before it imports its commands, so a signal at any moment ends
the run with one line and status 128 + N, never a traceback from the middle of an import. ``play`` and ``watch``
install their own on top, to save the game so far first; while they change the match (:meth:`StopSignals.changing`)
a signal waits until the change is complete, so the saved record is always of a whole state, and once the first
signal is being handled (:meth:`StopSignals.hold`) further ones are ignored, so a save is never cut short.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType, TracebackType

Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None
"""A signal's handler as ``signal.signal`` gives and takes it: a function, SIG_DFL or SIG_IGN, or None (one set
outside Python)."""

STOP_SIGNALS = tuple(
    s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if isinstance(s, signal.Signals)
)
"""The signals that stop a run: Ctrl-C, a polite kill, a closed terminal."""


class Stopped(BaseException):
    """A stop signal arrived; ``signum`` is its number. A BaseException, like KeyboardInterrupt, so that no
    ``except Exception`` on the way (a bot, a screen) swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name, such as ``SIGTERM``."""
        return signal.Signals(self.signum).name


class StopSignals:
    """A context in which the stop signals raise :class:`Stopped` (the handlers found are put back on exit).

    A signal that was ignored when the context began stays ignored (``nohup`` ignores SIGHUP, a shell's background
    job SIGINT). Outside the main thread, where Python cannot set handlers, it does nothing.
    """

    def __init__(self, keep_when_held: bool = False) -> None:
        """``keep_when_held``: on exit after :meth:`hold`, leave the (now ignoring) handlers in place, so that a second
        signal during the exit that follows is ignored rather than reported again by an outer context."""
        self._keep = keep_when_held
        self._busy = False
        self._held = False
        self._pending: int | None = None
        self._old: dict[int, Handler] = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self._held:
            return
        if self._busy:
            self._pending = signum
            return
        self._held = True
        raise Stopped(signum)

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                if signal.getsignal(sig) is signal.SIG_IGN:
                    continue  # ignored by whoever started us (nohup, a background job): it stays ignored
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if not (self._keep and self._held):
            for sig, old in self._old.items():
                signal.signal(sig, old)
        self._old.clear()

    def hold(self) -> None:
        """Ignore any further stop signal: what follows (saving, then exiting) is short and must not be cut."""
        self._held = True

    def changing(self) -> _Change:
        """A context in which the match changes: a signal waits until the change is done."""
        return _Change(self)


class _Change:
    """See :meth:`StopSignals.changing`."""

    def __init__(self, signals: StopSignals) -> None:
        self._signals = signals

    def __enter__(self) -> None:
        self._signals._busy = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        signals = self._signals
        signals._busy = False
        if signals._pending is not None and not signals._held:
            signum, signals._pending = signals._pending, None
            signals._held = True
            raise Stopped(signum)
