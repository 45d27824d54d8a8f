"""`clubs play` and `clubs watch` through the command's entry point: whole games with piped input, and bad input of
every kind."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process

CLUBS = str(Path(sys.executable).parent / "clubs")


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``clubs ARGS`` with ``stdin`` piped in, run in this process (:func:`cli_helpers.clubs_in_process`: the same
    entry point and bytes as the console script, without a process start per call), as a finished process."""
    out = clubs_in_process(args, stdin.encode("utf-8"))
    return subprocess.CompletedProcess([CLUBS, *args], out.status, out.stdout, out.stderr)


def cycling_input(rounds: int = 400) -> str:
    """Input that eventually plays a legal card at every prompt: `k`, then every card number, over and over."""
    return "".join("k\n" + "".join(f"{n}\n" for n in range(1, 14)) for _ in range(rounds))


def test_play_whole_match_with_piped_input_reaches_the_end() -> None:
    result = run(["play", "whist", "--seed", "11", "--bots", "random"], cycling_input())
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The match is over:" in out or "The match ends in a draw." in out
    assert "Final totals:" in out
    assert "\x1b[" not in out, "piped output must carry no colour codes"
    assert "Traceback" not in result.stderr


def test_play_saves_a_record_that_replays_to_the_same_totals(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run(["play", "whist-1997", "--seed", "5", "--bots", "random", "--save", str(path)], cycling_input())
    assert result.returncode == 0, result.stderr
    record = json.loads(path.read_text())
    assert record["game"] == "whist"
    replayed = run(["replay", str(path), "--json"])
    assert replayed.returncode == 0, replayed.stderr
    data = json.loads(replayed.stdout)
    final = result.stdout.split("Final totals:")[1].splitlines()[0].rstrip(".")
    assert [int(p.split()[-1]) for p in final.split(",")] == data["totals"]


def test_play_illegal_card_gets_the_reason_and_a_new_prompt() -> None:
    # Cycling through every card number meets illegal cards; each is refused with its rule in a player's words (the
    # ruling's id is behind "why?") and a new prompt.
    result = run(["play", "whist", "--seed", "11", "--bots", "random"], cycling_input())
    lines = result.stdout.splitlines()
    refusals = [i for i, line in enumerate(lines) if line.startswith("You cannot play ")]
    assert refusals, "the cycling input must have met an illegal card"
    for i in refusals:
        assert "must" in lines[i].lower() and "CW-" not in lines[i], lines[i]  # CW-1, CW-2
        assert lines[i + 1].startswith("Your card:")


def test_play_question_mark_lists_legal_cards_and_h_gives_a_hint() -> None:
    result = run(["play", "whist", "--seed", "3", "--bots", "random"], "k\n?\nh\n")
    legal_line = next(line for line in result.stdout.splitlines() if line.startswith("Legal: "))
    hand_line = [line for line in result.stdout.splitlines() if line.startswith("Your hand: ")][-1]
    legal = legal_line.removeprefix("Legal: ").split()
    assert legal
    for c in legal:
        assert f":{c}" in hand_line  # every legal card is one of the numbered cards shown
    hint = next(line for line in result.stdout.splitlines() if line.startswith("Hint: "))
    assert hint.removeprefix("Hint: ") in legal


def test_play_bad_notation_is_named() -> None:
    result = run(["play", "whist", "--seed", "3", "--bots", "random"], "k\nZZ\n")
    assert "'ZZ' is not a whist action" in result.stdout


def test_play_end_of_input_before_the_end_exits_non_zero() -> None:
    result = run(["play", "whist", "--seed", "3", "--bots", "random"], "k\n")
    assert result.returncode == 1
    assert "input ended" in result.stdout
    assert "Traceback" not in result.stderr


def test_play_quit_saves_the_game_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    result = run(["play", "whist", "--seed", "3", "--bots", "random", "--save", str(path)], "k\nq\n")
    assert result.returncode == 0
    replayed = run(["replay", str(path), "--json"])
    data = json.loads(replayed.stdout)
    assert data["over"] is False
    assert data["to_act"] == 0
    assert data["legal"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "whist", "--seat", "5"], "--seat"),
        (["play", "whist", "--variant", "whist(foo=1)"], "foo"),
        (["play", "whist", "--variant", "whist(target=x)"], "target"),
        (["play", "whist", "--bots", "nosuch"], "nosuch"),
        (["play", "poker"], "poker"),
        (["play", "whist", "--seed", "abc"], "abc"),
        (["watch", "whist", "--bots", "random,random"], "--bots"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], needle: str) -> None:
    result = run(args)
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


def test_watch_plays_a_whole_match_between_bots(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    result = run(["watch", "whist", "--seed", "2", "--bots", "random", "--save", str(path)])
    assert result.returncode == 0, result.stderr
    assert "The match is over:" in result.stdout or "The match ends in a draw." in result.stdout
    assert "bid hand:" in result.stdout
    assert run(["replay", str(path)]).returncode == 0


CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(10|[2-9JQKA])([CDHS])(?![A-Z])")


def test_play_screen_never_shows_a_card_the_human_may_not_know() -> None:
    """Hidden information (CW-4): other hands and the bid hand appear only card by card, as they are played."""
    result = run(["play", "whist", "--seed", "19", "--bots", "random"], cycling_input())
    assert result.returncode == 0, result.stderr
    known: set[str] = set()
    for line in result.stdout.splitlines():
        if re.match(r"Hand \d+ is dealt by ", line):
            known = set()  # a new deal: only what is shown from now on is known
        if line.startswith("Enter a card (e.g. QH)") or "such as 10H or QC" in line:
            continue  # input help, with its example cards
        tokens = {a + b for a, b in CARD_TOKEN.findall(line)}
        if line.startswith(("Your hand:", "You play")) or " plays " in line:
            known |= tokens  # the human's own cards, and cards played face up
            continue
        assert tokens <= known, f"the line {line!r} names {sorted(tokens - known)}, which the human cannot know"


def test_why_after_a_refused_card_gives_its_rule_in_plain_words_with_the_rulings_id() -> None:
    """The terminal's only ruling id is behind ``why`` (as the browser's "why?"): CW-1 for a card that does not beat."""
    lines = "k\nwhy\n2C\n3C\n2D\n3D\nw\nq\n"  # 3D does not beat the JD held (seed 5)
    result = run(["play", "whist", "--seed", "5", "--bots", "random"], lines)
    out = result.stdout
    assert "No move has been refused yet: type why after one to read the rule behind it." in out
    refused = out.index("You cannot play 3D: ")
    assert "(CW-" not in out[:refused] and "(CW-1): " in out[refused:], out[refused:][:600]
    assert result.returncode == 0 and "Traceback" not in result.stderr
