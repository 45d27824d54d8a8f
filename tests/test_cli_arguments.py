"""Every argument checked: numbers that are not finite, out of range or absurd, arguments holding escape sequences
or megabytes, usage errors shown escaped and short, and a bug reported in one line with status 70."""

from __future__ import annotations

import subprocess

import pytest

from cli_helpers import CLUBS, assert_safe_output, clubs_in_process
from clubsuite.cli import main as cli_main
from clubsuite.cli.common import EXIT_INTERNAL

ESCAPE = "\x1b]0;owned\x07\x1b[2J\u202e"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["watch", "whist", "--delay", "nan"], "--delay"),
        (["watch", "whist", "--delay", "NaN"], "--delay"),
        (["watch", "whist", "--delay", "inf"], "--delay"),
        (["watch", "whist", "--delay", "-inf"], "--delay"),
        (["watch", "whist", "--delay", "-1"], "--delay"),
        (["watch", "whist", "--delay", "11"], "--delay"),
        (["play", "whist", "--seed", "-1"], "--seed"),
        (["play", "whist", "--seed", str(2**64)], "--seed"),
        (["watch", "whist", "--seed", "9" * 5000], "--seed"),
        (["simulate", "whist", "--seed", str(2**64)], "--seed"),
        (["simulate", "whist", "--matches", str(10**12)], "--matches"),
        (["simulate", "whist", "--matches", "-5"], "--matches"),
        (["simulate", "whist", "--workers", str(10**9)], "--workers"),
        (["replay", "-", "--max-size", "0"], "--max-size"),
        (["play", "whist", "--seat", "-1"], "--seat"),
    ],
)
def test_a_number_out_of_range_is_a_usage_error_naming_the_option(args: list[str], option: str) -> None:
    outcome = clubs_in_process(args)
    assert outcome.status == 2
    assert f"Invalid value for '{option}'" in outcome.stderr
    assert outcome.stdout == ""
    assert_safe_output(outcome, line_limit=500)


def test_the_largest_seed_is_accepted() -> None:
    outcome = clubs_in_process(["watch", "whist", "--seed", str(2**64 - 1), "--bots", "random"])
    assert outcome.status == 0, outcome.stderr
    assert f"seed {2**64 - 1}" in outcome.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["play", f"whist{ESCAPE}"],
        ["watch", "whist", "--variant", f"whist(target={ESCAPE})"],
        ["watch", "whist", "--bots", f"random,{ESCAPE},random"],
        ["simulate", "whist", "--bots", f"random,{ESCAPE},random"],
        ["play", "whist", "--seat", ESCAPE],
        ["play", "whist", f"--{ESCAPE}"],
        [f"{ESCAPE}"],
        ["replay", f"game{ESCAPE}.json"],
        ["watch", "whist", "--save", f"/nonexistent/{ESCAPE}.json"],
        ["play", "x" * 1_000_000],
        ["watch", "whist", "--bots", "r" * 1_000_000],
        ["play", "whist", "--seat", "9" * 1_000_000],
    ],
    ids=[
        "game",
        "variant",
        "bots",
        "simulate bots",
        "seat",
        "unknown option",
        "unknown command",
        "record file name",
        "save path",
        "a megabyte of game",
        "a megabyte of bots",
        "a megabyte of digits",
    ],
)
def test_arguments_are_shown_escaped_and_cut_in_messages(args: list[str]) -> None:
    outcome = clubs_in_process(args)
    assert outcome.status == 2
    assert outcome.stdout == ""
    assert_safe_output(outcome, line_limit=500)
    assert len(outcome.stderr) < 2000


def test_a_bug_is_one_line_and_status_70_never_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the table collapsed\x1b[2J")

    monkeypatch.setattr(cli_main.cli, "main", broken)
    outcome = clubs_in_process(["watch", "whist"])
    assert outcome.status == EXIT_INTERNAL == 70
    assert outcome.stderr.startswith("clubs: internal error (RuntimeError: the table collapsed\\x1b[2J)")
    assert outcome.stderr.count("\n") == 1
    assert "Traceback" not in outcome.stderr


def test_clubs_debug_shows_the_traceback_of_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the table collapsed")

    monkeypatch.setattr(cli_main.cli, "main", broken)
    monkeypatch.setenv("CLUBS_DEBUG", "1")
    outcome = clubs_in_process(["watch", "whist"])
    assert outcome.status == 70
    assert "Traceback" in outcome.stderr


def test_a_closed_output_pipe_ends_quietly_with_status_0() -> None:
    # `clubs watch ... | head -1`: the reader goes away after one line; the writer ends quietly.
    shell = subprocess.run(
        f"'{CLUBS}' watch whist --seed 1 | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert shell.returncode == 0
    assert shell.stdout.count(b"\n") == 1
    assert shell.stderr == b""


def test_play_counts_seats_from_one_as_players_do() -> None:
    """``--seat`` and ``--first-dealer`` count from 1: seat 1 is the first, the last is the number of players; 0 and
    one past the last are refused naming the seats."""
    first = clubs_in_process(["play", "whist", "--seed", "5", "--seat", "1", "--first-dealer", "1"], b"q\n")
    assert first.status == 0 and "Hand 1 is dealt by you." in first.stdout, first.stdout[:600]
    last = clubs_in_process(["play", "whist", "--seed", "5", "--seat", "3", "--first-dealer", "3"], b"q\n")
    assert last.status == 0 and "Hand 1 is dealt by you." in last.stdout, last.stdout[:600]
    other = clubs_in_process(["play", "whist", "--seed", "5", "--seat", "3", "--first-dealer", "1"], b"q\n")
    assert other.status == 0 and "Hand 1 is dealt by you." not in other.stdout
    for option in ("--seat", "--first-dealer"):
        zero = clubs_in_process(["play", "whist", option, "0"], b"q\n")
        assert zero.status == 2 and option in zero.stderr and "Traceback" not in zero.stderr
        past = clubs_in_process(["play", "whist", option, "4"], b"q\n")
        assert past.status == 2 and f"{option} 4" in past.stderr and "seats 1 to 3" in past.stderr, past.stderr
    assert "counted from 1" in clubs_in_process(["play", "--help"]).stdout
