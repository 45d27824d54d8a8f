"""Standard streams that are closed or cannot be written: every command ends with one line and a documented status
(3 for output that cannot be written), never a traceback or a report of a bug."""

from __future__ import annotations

import resource
import subprocess
from pathlib import Path

import pytest

from cli_helpers import CLUBS

GOLDEN = Path(__file__).parent / "golden" / "whist-seeded-draw.record.json"
COMMANDS = [
    ["replay", str(GOLDEN)],
    ["replay", str(GOLDEN), "--json"],
    ["watch", "whist", "--seed", "1"],
    ["simulate", "whist", "--matches", "2"],
    ["puzzles", "export", "northstar(players=3)"],
    ["puzzles", "themes", "free"],
    ["--help"],
]


def _shell(command: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        command, shell=True, executable="/bin/bash", capture_output=True, timeout=timeout, check=False
    )


def _quoted(args: list[str]) -> str:
    return " ".join(f"'{a}'" for a in [CLUBS, *args])


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_output_to_a_full_device_is_status_3_with_one_line(args: list[str]) -> None:
    proc = _shell(f"{_quoted(args)} > /dev/full")
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr == b"clubs: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_closed_standard_output_is_status_3_with_one_line(args: list[str]) -> None:
    proc = _shell(f"{_quoted(args)} >&-")
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr == b"clubs: standard output is closed: there is nowhere to write\n"


def test_a_file_size_limit_on_standard_output_is_status_3(tmp_path: Path) -> None:
    out = tmp_path / "account.txt"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    with out.open("wb") as sink:
        proc = subprocess.run(
            [CLUBS, "replay", str(GOLDEN)],
            stdout=sink,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
            preexec_fn=limit,
        )
    assert proc.returncode == 3
    assert proc.stderr == b"clubs: cannot write the output: File too large\n"


def test_a_closed_standard_input_reads_as_empty() -> None:
    played = _shell(f"{_quoted(['play', 'whist', '--seed', '1'])} <&-")
    assert played.returncode == 1
    assert played.stderr == b"clubs: standard input ended before the match was over\n"
    replayed = _shell(f"{_quoted(['replay', '-'])} <&-")
    assert replayed.returncode == 2
    assert replayed.stderr == b"error: standard input is empty: expected a record (a JSON object)\n"


def test_a_closed_standard_error_still_gives_the_status() -> None:
    proc = _shell(f"{_quoted(['replay', 'missing.json'])} 2>&-")
    assert proc.returncode == 2
