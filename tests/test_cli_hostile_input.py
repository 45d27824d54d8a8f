"""``clubs play`` and ``clubs watch`` against hostile input and hostile terminals: bytes that are not UTF-8, lines
of any length or none at all, escape sequences typed in, terminals that cannot show the suit symbols, and random
input of every kind (Hypothesis) for all four games.
"""

from __future__ import annotations

import os
import pty
import random
import select
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_helpers import CLUBS, Outcome, assert_safe_output, clubs_in_process, clubs_process

GAMES = ("whist", "free", "northstar", "partnership")


def play(game: str, stdin: bytes, *extra: str) -> Outcome:
    return clubs_in_process(["play", game, "--seed", "4", "--bots", "random", *extra], stdin)


@pytest.mark.parametrize("game", GAMES)
def test_a_line_that_is_not_utf8_is_refused_and_the_game_goes_on(game: str) -> None:
    outcome = clubs_in_process(["play", game, "--seed", "4", "--bots", "random"], b"\xff\xfe\n?\nq\n")
    assert outcome.status == 0  # the game went on to the `q`
    assert "the line is not UTF-8 text (the byte 0xff at byte 1)" in outcome.stdout
    assert "Legal: " in outcome.stdout  # the `?` after it was read
    assert_safe_output(outcome)


@pytest.mark.parametrize("game", GAMES)
def test_bytes_that_are_not_utf8_give_no_traceback_with_strict_decoding(game: str) -> None:
    # PYTHONIOENCODING=utf-8 makes Python's own standard input strict: reading it as text raised before.
    proc = clubs_process(["play", game, "--seed", "4"], b"\xff\xfe\n\x80abc\n", env={"PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 1, proc.stderr
    assert b"Traceback" not in proc.stderr
    assert proc.stdout.count(b"is not UTF-8 text") == 2
    assert proc.stderr == b"clubs: standard input ended before the match was over\n"


def test_a_last_line_without_a_line_break_is_read_like_any_other() -> None:
    outcome = clubs_in_process(["play", "whist", "--seed", "4", "--bots", "random"], b"k\nq")
    assert outcome.status == 0
    assert "Game stopped before the end (you quit)." in outcome.stdout


def test_the_end_of_input_in_a_match_is_status_1_with_one_line_naming_the_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "so-far.json"
    outcome = clubs_in_process(["play", "whist", "--seed", "4", "--bots", "random", "--save", str(path)], b"k\n")
    assert outcome.status == 1
    assert outcome.stderr == (
        f"clubs: standard input ended before the match was over; the game so far is saved in '{path}'\n"
    )
    replayed = clubs_in_process(["replay", str(path), "--json"])
    assert replayed.status == 0
    assert '"over": false' in replayed.stdout


def test_a_line_of_a_million_characters_is_refused_without_being_echoed() -> None:
    outcome = clubs_in_process(["play", "whist", "--seed", "4", "--bots", "random"], b"Z" * 1_000_000 + b"\nq\n")
    assert outcome.status == 0
    assert "the line is 1,000,001 bytes long, more than the 1,024 a move may have" in outcome.stdout
    assert len(outcome.stdout) < 10_000
    assert_safe_output(outcome)


def test_a_long_line_within_the_limit_is_named_briefly_in_the_refusal() -> None:
    outcome = clubs_in_process(["play", "whist", "--seed", "4", "--bots", "random"], b"k\n" + b"Z" * 1000 + b"\nq\n")
    refusal = next(line for line in outcome.stdout.splitlines() if "is not a whist action" in line)
    assert "... (1,000 characters)" in refusal
    assert len(refusal) < 200


def test_input_from_dev_zero_ends_the_command_with_status_2() -> None:
    with open("/dev/zero", "rb") as zero:
        proc = clubs_process(["play", "whist", "--seed", "4"], zero, timeout=60)
    assert proc.returncode == 2
    assert b"more than 1,048,576 bytes without a line break" in proc.stderr
    assert len(proc.stdout) < 10_000


def test_escape_sequences_typed_in_are_echoed_and_refused_escaped() -> None:
    outcome = clubs_in_process(
        ["play", "whist", "--seed", "4", "--bots", "random"], "k\n10S\x1b]0;owned\x07\x9b2J\u202e\nq\n".encode()
    )
    assert outcome.status == 0
    assert "10S\\x1b]0;owned\\x07\\x9b2J\\u202e" in outcome.stdout
    assert_safe_output(outcome)


# -- terminals that cannot show the suit symbols -------------------------------------------------------------


def _on_a_terminal(args: list[str], keys: bytes, env: dict[str, str]) -> tuple[int, bytes]:
    """Run ``clubs`` on a pseudo-terminal (standard input and output are terminals), typing ``keys``."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [CLUBS, *args], stdin=follower, stdout=follower, stderr=follower, env={**os.environ, **env}, close_fds=True
    )
    os.close(follower)
    os.write(leader, keys)
    out = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            proc.kill()
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process ended
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    return proc.wait(timeout=60), out


@pytest.mark.parametrize("game", GAMES)
def test_a_terminal_that_cannot_encode_the_suits_gets_letters(game: str) -> None:
    status, out = _on_a_terminal(
        ["play", game, "--seed", "4", "--bots", "random"], b"q\n", {"PYTHONIOENCODING": "ascii"}
    )
    assert status == 0, out[-2000:]
    assert b"Traceback" not in out
    assert b"Game stopped before the end (you quit)." in out
    assert not any(b > 0x7F for b in out)  # nothing the ascii terminal could not show
    assert b"\\u2663" not in out  # symbols fall back to letters, not escapes


LOCALES = ({"LC_ALL": "C"}, {"PYTHONIOENCODING": "ascii"})
"""The locales piped play and watch are tried in (the C locale stands for POSIX too: the C library and Python
(PEP 538) take the one as the other's name)."""


@pytest.mark.parametrize("game", GAMES)
def test_piped_play_and_watch_work_in_any_locale(game: str, fresh_seed: int) -> None:
    """Each game in one of :data:`LOCALES`, half the games in each: which game in which is drawn from the run's seed
    (``fresh_seed``), so every run tries both locales and many runs every game in each."""
    order = random.Random(fresh_seed).sample(GAMES, len(GAMES))
    env = LOCALES[order.index(game) * len(LOCALES) // len(GAMES)]
    played = clubs_process(["play", game, "--seed", "4", "--bots", "random"], b"?\nq\n", env=env)
    assert played.returncode == 0, (env, played.stderr)
    watched = clubs_process(["watch", game, "--seed", "4", "--bots", "random"], env=env)
    assert watched.returncode == 0, (env, watched.stderr)
    for out in (played.stdout, watched.stdout, played.stderr, watched.stderr):
        assert b"Traceback" not in out, env


# -- fuzzing ---------------------------------------------------------------------------------------------------

WORDS = st.sampled_from(
    ["k", "x", "?", "h", "s", "pass", "p", "double", "1", "7", "13", "10H", "QC", "JK1", "7H 7C", "4-5-6", "15S=7",
     "call 2C", "call 7H by 2", "pass 2C 7H QS", "1 2 3", "²", "٣", "0x10", "-1", "9" * 40, ""]
)  # fmt: skip
LINES = st.one_of(WORDS.map(lambda w: w.encode()), st.binary(max_size=40), st.text(max_size=30).map(str.encode))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), lines=st.lists(LINES, max_size=25), newline_at_end=st.booleans())
def test_fuzz_any_input_ends_in_status_0_or_1_with_safe_bounded_output(
    game: str, lines: list[bytes], newline_at_end: bool
) -> None:
    data = b"\n".join(lines) + (b"\n" if newline_at_end else b"")
    outcome = play(game, data)
    assert outcome.status in (0, 1), outcome.stderr  # 0: a `q` was read; 1: the input ended first
    assert_safe_output(outcome)
    if outcome.status == 1:
        assert outcome.stderr == "clubs: standard input ended before the match was over\n"
