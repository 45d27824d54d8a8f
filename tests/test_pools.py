"""The commands' worker processes (``clubsuite.pools``): a worker lost in the middle of a run stops it with a clear
error instead of a wait for ever, a command run under ``nohup`` keeps its workers deaf to hangups too, and leaving
the pool ends every worker at once."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from clubsuite.pools import WorkerLostError, Workers


def _wait_for(path: Path) -> int:
    """A task that marks its start in ``path`` and waits until the file is removed (at most a minute).

    The mark is written beside ``path`` and renamed onto it, so whoever sees the file sees the whole process id, never
    the empty file between its creation and its write."""
    written = path.with_name(path.name + ".part")
    written.write_text(str(os.getpid()), encoding="utf-8")
    os.replace(written, path)
    deadline = time.monotonic() + 60
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


def _hangup_ignored(_: int) -> bool:
    return signal.getsignal(signal.SIGHUP) is signal.SIG_IGN


def _until(check: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.01)


@pytest.mark.parametrize("start", ["spawn", None])
def test_a_worker_lost_in_the_middle_of_a_run_stops_it_with_a_clear_error(start: str | None, tmp_path: Path) -> None:
    marker = tmp_path / "started"
    with pytest.raises(WorkerLostError, match="ended in the middle of the run"), Workers(2, start) as pool:
        results = pool.map(_wait_for, [marker])

        def kill_the_worker() -> None:
            _until(marker.exists)
            pid = int(marker.read_text(encoding="utf-8"))
            assert pid in {p.pid for p in pool.processes}
            os.kill(pid, signal.SIGKILL)

        threading.Thread(target=kill_the_worker, daemon=True).start()
        list(results)


@pytest.mark.parametrize("start", ["spawn", None])
def test_under_nohup_the_workers_ignore_a_hangup_as_the_command_does(start: str | None) -> None:
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with Workers(2, start) as pool:
            assert list(pool.map(_hangup_ignored, range(4))) == [True] * 4
        # without nohup: a hangup ends a worker (at its default here, as a command runs, even where the suite itself was
        # started under nohup)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        with Workers(2, start) as pool:
            assert list(pool.map(_hangup_ignored, range(4))) == [False] * 4
    finally:
        signal.signal(signal.SIGHUP, before)


def test_leaving_the_pool_ends_every_worker_at_once(tmp_path: Path) -> None:
    # As a command runs: SIGTERM at its default (a test runner's worker process may ignore it).
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        _left_early(tmp_path)
    finally:
        signal.signal(signal.SIGTERM, before)


def _left_early(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    with Workers(2) as pool:
        results = pool.map(_wait_for, [marker])
        started = pool.processes
        _until(marker.exists)
        del results  # the caller reads no further
    for process in started:
        process.join(60)
        assert not process.is_alive()
    assert marker.exists()  # the task never finished: its worker was ended, not waited for


def test_one_worker_runs_the_tasks_here() -> None:
    with Workers(1) as pool:
        assert list(pool.map(_hangup_ignored, range(2))) == [_hangup_ignored(0)] * 2
        assert pool.processes == []
