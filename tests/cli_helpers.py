"""Running the ``clubs`` command in tests: in this process (fast enough for Hypothesis) or as a real process (for
what only a process shows: signals, terminal encodings, file descriptors), and checking that its output is safe.

``clubs_in_process`` goes through :func:`clubsuite.cli.main.run`, the same frame as the console script, with
standard input, output and error replaced by byte buffers, so a test sees exactly the bytes a terminal would get.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from clubsuite.cli.main import run

CLUBS = str(Path(sys.executable).parent / "clubs")


@dataclass(frozen=True)
class Outcome:
    """What a run of ``clubs`` gave: its exit status and its standard output and error, decoded as UTF-8."""

    status: int
    stdout: str
    stderr: str


def clubs_in_process(args: Sequence[str], stdin: bytes = b"") -> Outcome:
    """Run ``clubs ARGS`` in this process with ``stdin`` as its standard input (not a terminal)."""
    old = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        # in a thread of its own: a command that runs an event loop (``clubs admin``) must not meet one already
        # running in this thread (a browser test's, earlier in the same test process)
        done: dict[str, Any] = {}

        def command() -> None:
            try:
                done["status"] = run(list(args))
            except BaseException as exc:
                done["error"] = exc

        worker = threading.Thread(target=command)
        worker.start()
        worker.join()
        if "error" in done:
            raise done["error"]
        status = done["status"]
        sys.stdout.flush()
        sys.stderr.flush()
        return Outcome(status, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8"))
    finally:
        sys.stdin, sys.stdout, sys.stderr = old


def clubs_process(
    args: Sequence[str],
    stdin: bytes | BinaryIO = b"",
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[bytes]:
    """Run the console script as a process, its standard input ``stdin`` (bytes, or an open file); ``env`` is added
    to this process's environment."""
    full_env = {**os.environ, **(env or {})}
    if isinstance(stdin, bytes):
        return subprocess.run(
            [CLUBS, *args], input=stdin, capture_output=True, timeout=timeout, check=False, env=full_env
        )
    return subprocess.run([CLUBS, *args], stdin=stdin, capture_output=True, timeout=timeout, check=False, env=full_env)


def unsafe_characters(text: str) -> list[str]:
    """The characters of ``text`` that a terminal might act on: every character that is not printable (control and
    format characters, such as ESC, BEL, CSI or U+202E), except the line break. Output must have none."""
    return [c for c in text if c != "\n" and not c.isprintable()]


def assert_safe_output(outcome: Outcome, line_limit: int = 2200) -> None:
    """No traceback, no report of a bug, no character a terminal acts on, no line longer than ``line_limit``."""
    for stream in (outcome.stdout, outcome.stderr):
        assert "Traceback" not in stream, stream[-3000:]
        assert "internal error" not in stream, stream[-3000:]
        bad = unsafe_characters(stream)
        assert not bad, f"unsafe characters {sorted(set(bad))[:10]!r} in {stream[-2000:]!r}"
        longest = max((len(line) for line in stream.splitlines()), default=0)
        assert longest <= line_limit, f"a line of {longest} characters"


AT_THE_TABLE = "At the table, in turn order: "
"""The line ``clubs play`` and ``clubs watch`` open with, after the title: every seat's name, a bot's level beside."""


def seated(stdout: str) -> list[tuple[str, str | None]]:
    """Every seat's (name, level in words) in seat order, read from the English ``At the table`` line (the level is
    None for the person playing)."""
    line = next(line for line in stdout.splitlines() if line.startswith(AT_THE_TABLE))
    seats: list[tuple[str, str | None]] = []
    for part in line.removeprefix(AT_THE_TABLE).split(", "):
        name, _, level = part.partition(" (")
        seats.append((name, level.removesuffix(")") if level else None))
    return seats


def seat_names(stdout: str) -> list[str]:
    """Every seat's name in seat order (see :func:`seated`)."""
    return [name for name, _ in seated(stdout)]
