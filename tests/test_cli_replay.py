"""`clubs replay` through the console script: the readable account, --json, standard input, and bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clubsuite.cli.replay import render_text
from clubsuite.records import loads_record, replay

CLUBS = str(Path(sys.executable).parent / "clubs")
HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
BAD = HERE / "data" / "records"
DOCS = HERE.parent / "docs" / "records.md"


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``clubs`` with the given arguments and standard input."""
    return subprocess.run([CLUBS, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_json_output_is_the_expected_result_of_a_finished_match() -> None:
    out = run(["replay", str(GOLDEN / "whist-1997-explicit.record.json"), "--json"])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    expected = json.loads((GOLDEN / "whist-1997-explicit.expected.json").read_text(encoding="utf-8"))
    assert data == expected
    assert {"game", "variant", "options", "seats", "hands", "totals", "winners", "draw", "over"} <= set(data)
    assert data["over"] is True and "to_act" not in data and "legal" not in data
    assert data["variant"] == "whist(lead_after_exchange=left_of_last_exchanger)"  # CW-3, the 1997 text
    for hand in data["hands"]:
        assert {"dealer", "scores", "tricks_won", "exchanged", "totals", "complete"} <= set(hand)


def test_json_output_of_an_unfinished_match_names_the_seat_to_act_and_the_legal_actions() -> None:
    out = run(["replay", str(GOLDEN / "whist-unfinished.record.json"), "--json"])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["over"] is False
    assert data["to_act"] in (0, 1, 2)
    assert data["legal"] and all(re.fullmatch(r"(10|[2-9JQKA])[CDHS]", a) for a in data["legal"])
    assert data["hands"][-1]["complete"] is False and data["hands"][-1]["scores"] is None
    assert "awaiting" not in data


def test_json_output_between_hands_awaits_the_deal() -> None:
    out = run(["replay", str(GOLDEN / "whist-awaiting-deal.record.json"), "--json"])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["to_act"] is None and data["legal"] == [] and data["awaiting"] == "deal"


def test_readable_account_of_a_drawn_match_shows_hands_tricks_scores_and_the_draw() -> None:
    out = run(["replay", str(GOLDEN / "whist-seeded-draw.record.json")])
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("Clubs (whist group): whist\n")
    assert "seats: 0 random 0 (bot), 1 random 1 (bot), 2 random 2 (bot)" in text
    assert "hand 0: dealer seat 0 (random 0)" in text
    assert re.search(r"exchange: seat 1 \(random 1\) (keeps|exchanges), seat 2", text)
    assert re.search(r"trick  1: seat \d \(random \d\) leads; \S+ \S+ \S+ -> won by seat \d", text)
    assert "tricks won:" in text and "scores:" in text and "totals:" in text
    assert text.count("trick 13:") == len(json.loads((GOLDEN / "whist-seeded-draw.expected.json").read_text())["hands"])
    assert text.rstrip().endswith("result: draw")  # CW-5: all three at a target at once


def test_readable_account_names_the_winners_of_a_finished_match() -> None:
    out = run(["replay", str(GOLDEN / "whist-1997-explicit.record.json")])
    assert out.returncode == 0, out.stderr
    expected = json.loads((GOLDEN / "whist-1997-explicit.expected.json").read_text(encoding="utf-8"))
    names = ", ".join(f"seat {s} (random {s})" for s in expected["winners"])
    assert out.stdout.rstrip().endswith(f"winners: {names}")


def test_standard_input_is_read_when_file_is_a_dash() -> None:
    text = (GOLDEN / "whist-unfinished.record.json").read_text(encoding="utf-8")
    out = run(["replay", "-"], stdin=text)
    assert out.returncode == 0, out.stderr
    assert "(in progress)" in out.stdout
    assert re.search(r"the match is not over: seat \d \(\w+( \d)?\) to act\nlegal: ", out.stdout)


def test_documented_puzzle_output_is_what_the_command_prints() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    puzzle = next(b for b in re.findall(r"```json\n(.*?)```", docs, re.DOTALL) if '"x-puzzle"' in b)
    shown = re.search(r"For the puzzle above:\n\n```text\n(.*?)```", docs, re.DOTALL)
    assert shown is not None
    assert render_text(replay(loads_record(puzzle))) == shown.group(1)


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["replay", "no-such-record.json"], ["cannot read the record file 'no-such-record.json': no such file"]),
        (["replay", str(BAD / "not-json.json")], ["is not valid JSON", "line 4, column 3"]),
        (["replay", str(BAD / "unknown-field.json")], ["hnads: unknown field 'hnads'"]),
        (["replay", str(BAD / "illegal-cw1.json")], ["hand 0, action 4 (overall 4), seat 2 plays 3H", "(CW-1)"]),
        (["replay", str(BAD / "illegal-cw2.json"), "--json"], ["seat 1 plays 2C", "(CW-2)"]),
        (["replay", str(BAD / "bad-variant.json")], ["variant: unknown option 'lead'"]),
        (["replay", "-"], ["standard input is empty"]),
    ],
    ids=["missing file", "invalid JSON", "unknown field", "illegal CW-1", "illegal CW-2", "bad variant", "empty stdin"],
)
def test_bad_input_gives_a_one_line_error_and_exit_status_2(args: list[str], fragments: list[str]) -> None:
    out = run(args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: ")
    assert out.stderr.count("\n") == 1
    for fragment in fragments:
        assert fragment in out.stderr
    assert out.stdout == ""
