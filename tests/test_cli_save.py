"""``--save``: every problem with the file found before the game starts, a write that leaves the old file or the
whole new record and nothing in between (faults injected: a file-size limit, a failed flush, a kill), no writing
through a symbolic link, and the game so far saved when Ctrl-C, SIGTERM or SIGHUP stops a game.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import CLUBS, clubs_in_process, clubs_process
from clubsuite.cli.main import _add_commands
from clubsuite.engine import games
from clubsuite.records import files as record_files
from clubsuite.records import write_atomically

WATCH = ["watch", "whist", "--seed", "3", "--bots", "random"]
OLD = b'{"old": "record"}\n'


def _watch_saving(path: Path | str) -> subprocess.CompletedProcess[bytes]:
    """``clubs watch`` saving to ``path``, in this process (a refused path is refused before a card is dealt)."""
    done = clubs_in_process([*WATCH, "--save", str(path)])
    return subprocess.CompletedProcess(WATCH, done.status, done.stdout.encode(), done.stderr.encode())


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda d: d / ("n" * 300 + ".json"), "the file name is 305 bytes long; this file system allows at most 255"),
        (lambda d: d, "it is a folder; a record is written to a regular file"),
        (lambda d: d / "..", "it names a folder, not a file"),
        (lambda d: d / "missing" / "game.json", "the folder"),
        (lambda d: Path("/dev/null"), "it is a character device; a record is written to a regular file"),
    ],
    ids=["name too long", "a folder", "a parent folder", "missing folder", "a device"],
)
def test_an_unusable_save_path_is_refused_before_the_game_starts(tmp_path: Path, make: object, problem: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    proc = _watch_saving(path)
    assert proc.returncode == 2
    assert problem in proc.stderr.decode()
    assert proc.stdout == b""  # not a card was dealt


def test_a_named_pipe_at_the_save_path_is_refused_and_never_blocks(tmp_path: Path) -> None:
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    proc = clubs_process([*WATCH, "--save", str(fifo)])  # a process with a timeout: a pipe nobody reads could block
    assert proc.returncode == 2
    assert b"it is a named pipe (FIFO)" in proc.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_symbolic_link_at_the_save_path_is_refused_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_bytes(OLD)
    link = tmp_path / "game.json"
    link.symlink_to(target)
    proc = _watch_saving(link)
    assert proc.returncode == 2
    assert b"it is a symbolic link; a record is never written through a link" in proc.stderr
    assert target.read_bytes() == OLD
    with pytest.raises(OSError, match="symbolic link"):
        write_atomically(link, b"{}")
    assert target.read_bytes() == OLD and link.is_symlink()


def _as_nobody(args: list[str]) -> tuple[int, str, str]:
    """Run ``clubs ARGS`` in this process's code, in a child process that is the unprivileged user ``nobody`` when
    the tests run as the superuser (who may write into any folder); its status, output and error."""
    # Import everything first, the games' registry included: the unprivileged child may not read the interpreter's
    # own files.
    _add_commands()
    games()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop privileges, run, report, and leave without running the parent's clean-ups
        code = 1
        try:
            os.close(reader)
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            outcome = clubs_in_process(args)
            os.write(writer, json.dumps([outcome.status, outcome.stdout, outcome.stderr]).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    _, wait_status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(wait_status) == 0
    status, out, err = json.loads(data)
    return status, out, err


def test_a_folder_where_no_file_may_be_created_is_refused_before_the_game() -> None:
    folder = Path(tempfile.mkdtemp(prefix="clubs-readonly-"))
    try:
        folder.chmod(0o555)
        status, out, err = _as_nobody([*WATCH, "--save", str(folder / "game.json")])
        assert status == 2, err
        assert "no file can be created in the folder" in err
        assert "Permission denied" in err
        assert out == ""
    finally:
        folder.chmod(0o755)
        folder.rmdir()


# -- atomic writing -----------------------------------------------------------------------------------------


def _no_temporary_files(folder: Path) -> bool:
    return not list(folder.glob(".clubs-*.tmp"))


def test_a_file_size_limit_during_the_save_leaves_the_old_file_whole(tmp_path: Path) -> None:
    # RLIMIT_FSIZE makes the write fail with EFBIG part way, as a full disk would; the old record must survive.
    path = tmp_path / "game.json"
    path.write_bytes(OLD)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (500, 500))

    proc = subprocess.run(
        [CLUBS, *WATCH, "--save", str(path)],
        capture_output=True,
        timeout=120,
        check=False,
        preexec_fn=limit,
    )
    assert proc.returncode == 3, proc.stderr
    assert b"cannot save the record to" in proc.stderr
    assert b"File too large; the file is as it was before" in proc.stderr
    assert path.read_bytes() == OLD
    assert _no_temporary_files(tmp_path)


@pytest.mark.parametrize(
    ("step", "fault"),
    [
        ("fsync", OSError(errno.ENOSPC, "No space left on device")),
        ("fsync", OSError(errno.EIO, "Input/output error")),
        ("replace", OSError(errno.EXDEV, "Invalid cross-device link")),
        ("replace", KeyboardInterrupt()),
    ],
    ids=["disk full at flush", "I/O error at flush", "rename fails", "interrupted before the rename"],
)
def test_a_fault_during_the_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, fault: BaseException
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(OLD)

    def broken(*args: object, **kwargs: object) -> None:
        raise fault

    monkeypatch.setattr(record_files.os, step, broken)
    with pytest.raises(type(fault)):
        write_atomically(path, b'{"new": "record"}\n' * 1000)
    monkeypatch.undo()
    assert path.read_bytes() == OLD
    assert _no_temporary_files(tmp_path)


def test_an_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(OLD)
    path.chmod(0o640)
    write_atomically(path, b"{}\n")
    assert path.read_bytes() == b"{}\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    fresh = tmp_path / "new.json"
    write_atomically(fresh, b"{}\n")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


# -- stopped games -----------------------------------------------------------------------------------------


def _stop_signals_as_default() -> None:
    """In the child before ``clubs`` starts: the stop signals at their default, whatever the test run inherited
    (a suite started under ``nohup`` ignores SIGHUP, and an ignored signal rightly stays ignored in ``clubs``)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@contextlib.contextmanager
def _playing(path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``clubs play`` saving to ``path``, with one move made and waiting at its prompt for more input."""
    proc = subprocess.Popen(
        [CLUBS, "play", "whist", "--seed", "3", "--bots", "random", "--save", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_stop_signals_as_default,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"k\n")
    proc.stdin.flush()
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=60)


def _wait_for_prompt(proc: subprocess.Popen[bytes], seen: bytes = b"Your card: ") -> None:
    """Read the game's output until the prompt for the second move appears (it waits for input there)."""
    assert proc.stdout is not None
    out = b""
    deadline = time.monotonic() + 60
    while seen not in out and time.monotonic() < deadline:
        out += os.read(proc.stdout.fileno(), 65536)
    assert seen in out, out[-2000:]


@pytest.mark.long
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_during_a_game_saves_the_game_so_far_and_exits_128_plus_n(tmp_path: Path, sig: signal.Signals) -> None:
    path = tmp_path / "stopped.json"
    with _playing(path) as proc:
        _wait_for_prompt(proc)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 128 + sig
    assert f"clubs: stopped by {sig.name}; the game so far is saved in '{path}'".encode() in err
    assert b"Traceback" not in err
    replayed = clubs_in_process(["replay", str(path), "--json"])
    assert replayed.status == 0, replayed.stderr
    assert json.loads(replayed.stdout)["over"] is False
    assert json.loads(path.read_text(encoding="utf-8"))["hands"][0]["actions"]  # the moves made are in it


def test_a_signal_while_bots_play_saves_a_whole_state(tmp_path: Path) -> None:
    # watch never waits for input: the signal lands while moves are applied, and the record must still replay.
    path = tmp_path / "watched.json"
    proc = subprocess.Popen(
        [CLUBS, "watch", "whist", "--seed", "3", "--delay", "0.05", "--save", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_stop_signals_as_default,
    )
    _wait_for_prompt(proc, b"takes trick 2.")  # the second trick told: the bots are playing
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, err
    replayed = clubs_in_process(["replay", str(path)])
    assert replayed.status == 0, replayed.stderr
    assert "the match is not over" in replayed.stdout


@pytest.mark.long
def test_a_second_signal_during_the_save_is_ignored_and_the_record_is_whole(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    with _playing(path) as proc:
        _wait_for_prompt(proc)
        for sig in (signal.SIGTERM, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    # Signals pending together are handled in the order of their numbers: whichever came first is the one told.
    first = signal.Signals(proc.returncode - 128)
    assert first in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    assert err == f"clubs: stopped by {first.name}; the game so far is saved in '{path}'\n".encode()
    assert clubs_in_process(["replay", str(path)]).status == 0


def test_a_signal_ignored_by_whoever_started_the_run_stays_ignored(tmp_path: Path) -> None:
    # `nohup clubs ...` ignores SIGHUP; the run must not take that back.
    proc = subprocess.Popen(
        ["nohup", CLUBS, "watch", "whist", "--seed", "3", "--delay", "0.05"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        preexec_fn=_stop_signals_as_default,
    )
    _wait_for_prompt(proc, b"takes trick 2.")  # the second trick told: the bots are playing
    proc.send_signal(signal.SIGHUP)
    time.sleep(0.5)
    assert proc.poll() is None  # still playing
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"clubs: stopped by SIGTERM" in err


def test_a_signal_during_a_simulation_with_workers_ends_it_in_one_line() -> None:
    proc = subprocess.Popen(
        [CLUBS, "simulate", "whist", "--matches", "100000", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_stop_signals_as_default,
    )
    # Its workers are running (so the run is under way, its stop signals long set up), however slow the machine.
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    deadline = time.monotonic() + 120
    while not children.read_text().split():
        assert time.monotonic() < deadline and proc.poll() is None, "the simulation's workers did not start"
        time.sleep(0.05)
    workers = children.read_text().split()
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        # A run that did not stop is not left behind, nor its workers (which hold its output pipes open).
        for pid in [*map(int, workers), proc.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.communicate()
        raise
    assert proc.returncode == 128 + signal.SIGTERM
    assert err == b"clubs: stopped by SIGTERM\n"
    assert out == b""


def test_a_saved_record_names_each_bot_as_the_table_did_and_keeps_which_bot_it_was(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    run = clubs_in_process([*WATCH, "--save", str(path)])
    assert run.status == 0, run.stderr
    seats = json.loads(path.read_text())["seats"]
    assert [s["bot"] for s in seats] == ["random"] * 3 and all(s["kind"] == "bot" for s in seats)
    names = [s["name"] for s in seats]
    assert len(set(names)) == 3 and all(n.isalpha() and n[0].isupper() for n in names)  # "Cleo", not "random"
    assert all(n in run.stdout for n in names)  # the names the screen used
    replayed = clubs_in_process(["replay", str(path)])
    assert replayed.status == 0, replayed.stderr
    assert f"seats: 1 {names[0]} (bot random), 2 {names[1]} (bot random), 3 {names[2]} (bot random)" in replayed.stdout
