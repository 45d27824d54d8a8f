"""`clubs replay`: the readable account, --json, standard input, and bad input. In this process through the console
script's own frame (:func:`cli_helpers.clubs_in_process`), and as a process of the console script where the
locale or the environment it starts with is the subject."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.narration import render_text
from clubsuite.records import loads_record, replay

CLUBS = str(Path(sys.executable).parent / "clubs")
HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
BAD = HERE / "data" / "records"
DOCS = HERE.parent / "docs" / "records.md"


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``clubs`` with the given arguments and standard input (UTF-8), in this process."""
    done = clubs_in_process(args, stdin.encode("utf-8"))
    return subprocess.CompletedProcess(args, done.status, done.stdout, done.stderr)


def run_bytes(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """Run ``clubs`` with standard input given as bytes, in a UTF-8 locale (how Python decodes the input depends
    on the locale); the output is read as UTF-8."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_CTYPE", "LANG", "PYTHONIOENCODING")}
    env["LC_ALL"] = "C.UTF-8"
    out = subprocess.run([CLUBS, *args], input=stdin, capture_output=True, timeout=60, check=False, env=env)
    return subprocess.CompletedProcess(
        out.args, out.returncode, out.stdout.decode("utf-8", "replace"), out.stderr.decode("utf-8", "replace")
    )


def assert_one_line_error(out: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Exit status 2, nothing on standard output, and one ``error:`` line holding every fragment, no traceback."""
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: ")
    assert out.stderr.count("\n") == 1
    for fragment in fragments:
        assert fragment in out.stderr
    assert out.stdout == ""


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


def test_readable_account_of_a_drawn_match_tells_every_event_in_the_games_words_and_the_draw() -> None:
    out = run(["replay", str(GOLDEN / "whist-seeded-draw.record.json")])
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("Clubs (whist group): whist\n")
    assert "seats: 1 random 0 (bot), 2 random 1 (bot), 3 random 2 (bot)" in text  # counted from 1, as players do
    # the events as the game's presenter tells them to anyone watching (the page's replay says the same)
    assert "\nHand 1 is dealt by seat 1 (random 0).\n" in text
    assert re.search(r"^  seat 2 \(random 1\) (keeps their hand|exchanges their hand for the bid hand)\.$", text, re.M)
    assert re.search(r"^  seat \d \(random \d\) plays \S+\.$", text, flags=re.MULTILINE)
    assert re.search(r"^  seat \d \(random \d\) takes trick 1\.$", text, flags=re.MULTILINE)
    assert "\n  The hand is over: seat 1 (random 0) " in text
    assert text.count("takes trick 13.") == len(
        json.loads((GOLDEN / "whist-seeded-draw.expected.json").read_text())["hands"]
    )
    assert "CW-" not in text  # a player's words: no ruling ids
    assert text.rstrip().endswith("result: draw")  # CW-5: all three at a target at once


def test_readable_account_names_the_winners_of_a_finished_match() -> None:
    out = run(["replay", str(GOLDEN / "whist-1997-explicit.record.json")])
    assert out.returncode == 0, out.stderr
    expected = json.loads((GOLDEN / "whist-1997-explicit.expected.json").read_text(encoding="utf-8"))
    names = [f"seat {s + 1} (random {s})" for s in expected["winners"]]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"  # as the language lists
    assert out.stdout.rstrip().endswith(f"{'winner' if len(names) == 1 else 'winners'}: {listed}")


def test_standard_input_is_read_when_file_is_a_dash() -> None:
    text = (GOLDEN / "whist-unfinished.record.json").read_text(encoding="utf-8")
    out = run(["replay", "-"], stdin=text)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^  seat \d \(\w+( \d)?\) plays \S+\.\n\ntotals so far: ", out.stdout, flags=re.MULTILINE)
    assert re.search(r"the match is not over: seat \d \(\w+( \d)?\) to act\nlegal: ", out.stdout)


def test_documented_puzzle_output_is_what_the_command_prints() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    puzzle = next(b for b in re.findall(r"```json\n(.*?)```", docs, re.DOTALL) if '"x-puzzle"' in b)
    shown = re.search(r"For the puzzle above:\n\n```text\n(.*?)```", docs, re.DOTALL)
    assert shown is not None
    assert render_text(replay(loads_record(puzzle))) == shown.group(1)


@pytest.mark.parametrize("name", ["free-unfinished", "partnership-unfinished", "northstar-teams-explicit"])
def test_an_account_in_another_language_words_what_the_record_holds_beyond_the_events_there(name: str) -> None:
    result = replay(loads_record((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8")))
    english, german = render_text(result), render_text(result, "de")
    assert len(english.splitlines()) == len(german.splitlines())  # the same account, line for line
    for words in ("seats: ", "first dealer: ", "totals so far: ", "the match is not over: ", "is dealt", " gives "):
        assert words not in german
    assert "\nPlätze: " in german and "\nerster Geber: Platz " in german
    assert re.search(r"^(Teamstand|Stand) bisher: ", german, flags=re.MULTILINE)
    if name.startswith("free"):  # the hidden cards a record holds (FC-2, FC-3), in German words
        assert "  Die Schatztruhe enthält " in german and " und die Auktionskarten " in german
        assert "Weitergegebene Karten: Platz " in german
        assert re.search(r"^erlaubt: (\S+ spielen, )*\S+ spielen$", german, flags=re.MULTILINE)
    if name.startswith("partnership"):  # the passes (CP-2), and partners' totals only, as a team's
        assert "Weitergegebene Karten: Platz " in german and "\nStand bisher" not in german
    if name.startswith("northstar"):
        assert re.search(r"^  Platz 1 \(random 0\) erhält (\d+[CDHS] )+\d+[CDHS]\.$", german, flags=re.MULTILINE)


def test_the_command_tells_the_account_in_the_language_asked_for_and_refuses_one_it_does_not_speak() -> None:
    path = str(GOLDEN / "free-unfinished.record.json")
    result = replay(loads_record((GOLDEN / "free-unfinished.record.json").read_text(encoding="utf-8")))
    german = run(["replay", path, "--lang", "de"])
    assert german.returncode == 0 and german.stdout == render_text(result, "de"), german.stderr
    from_environment = subprocess.run(
        [CLUBS, "replay", path],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "CLUBS_LANG": "fr"},
    )
    assert from_environment.stdout == render_text(result, "fr"), from_environment.stderr
    refused = run(["replay", path, "--lang", "xx"])
    assert refused.returncode == 2 and "--lang" in refused.stderr and "Traceback" not in refused.stderr
    assert run(["replay", path, "--lang", "de", "--json"]).stdout == run(["replay", path, "--json"]).stdout


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["replay", "no-such-record.json"], ["cannot read the record file 'no-such-record.json': no such file"]),
        (["replay", str(BAD / "not-json.json")], ["is not valid JSON", "line 4, column 3"]),
        (["replay", str(BAD / "unknown-field.json")], ["hnads: unknown field 'hnads'"]),
        (["replay", str(BAD / "illegal-cw1.json")], ["hand 1, action 5 (overall 5), seat 3 plays 3H", "(CW-1)"]),
        (["replay", str(BAD / "illegal-cw2.json"), "--json"], ["seat 2 plays 2C", "(CW-2)"]),
        (["replay", str(BAD / "bad-variant.json")], ["variant: unknown option 'lead'"]),
        (["replay", "-"], ["standard input is empty"]),
        (["replay", str(BAD / "illegal-not-in-hand.json")], ["seat 2 plays AH: AH is not in your hand", "rule"]),
        (["replay", str(BAD / "upper-case-variant.json")], ["variant: the name 'WHIST'", "lower case"]),
        (["replay", str(BAD / "negative-deal-seed.json")], ["hands[0].deal.seed: a deal seed must not be negative"]),
        (["replay", str(HERE)], ["cannot read the record file", "it is a folder"]),
    ],
    ids=[
        "missing file",
        "invalid JSON",
        "unknown field",
        "illegal CW-1",
        "illegal CW-2",
        "bad variant",
        "empty stdin",
        "card not held",
        "upper-case variant",
        "negative deal seed",
        "folder",
    ],
)
def test_bad_input_gives_a_one_line_error_and_exit_status_2(args: list[str], fragments: list[str]) -> None:
    assert_one_line_error(run(args), *fragments)


def _with_seed(text: str) -> str:
    """The unfinished golden record with its match seed (77) written as 5000 nines."""
    assert '"seed": 77,' in text
    return text.replace('"seed": 77,', '"seed": ' + "9" * 5000 + ",")


def test_seed_longer_than_the_digit_limit_gives_an_error_not_a_traceback(tmp_path: Path) -> None:
    text = _with_seed((GOLDEN / "whist-unfinished.record.json").read_text(encoding="utf-8"))
    path = tmp_path / "long-seed.json"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(run(["replay", str(path)]), "a whole number of 5000 digits", "at most 4300 digits")
    assert_one_line_error(run(["replay", "-"], stdin=text), "standard input cannot be read", "5000 digits")


@pytest.mark.parametrize("opening", ["[", '{"a": '])
def test_json_nested_far_too_deep_gives_an_error_not_a_traceback(tmp_path: Path, opening: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(opening * 100_000, encoding="utf-8")
    assert_one_line_error(run(["replay", str(path)]), "deep.json' cannot be read", "nested")
    assert_one_line_error(run(["replay", "-"], stdin=opening * 100_000), "standard input cannot be read", "nested")


def test_record_file_with_a_byte_order_mark_replays_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    data = (GOLDEN / "whist-1997-explicit.record.json").read_bytes()
    expected = json.loads((GOLDEN / "whist-1997-explicit.expected.json").read_text(encoding="utf-8"))
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + data)
    from_file = run(["replay", str(path), "--json"])
    assert from_file.returncode == 0, from_file.stderr
    assert json.loads(from_file.stdout) == expected
    from_stdin = run_bytes(["replay", "-", "--json"], stdin=b"\xef\xbb\xbf" + data)
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert json.loads(from_stdin.stdout) == expected


def test_record_that_is_not_utf8_gives_an_error_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    data = (GOLDEN / "whist-unfinished.record.json").read_bytes().replace(b'"you"', b'"y\xf6u"')
    path = tmp_path / "latin1.json"
    path.write_bytes(data)
    assert_one_line_error(run(["replay", str(path)]), "latin1.json' is not UTF-8 text: the byte 0xf6 at line")
    assert_one_line_error(run_bytes(["replay", "-"], stdin=data), "standard input is not UTF-8 text")


@pytest.mark.parametrize("name", ["whist-unfinished", "northstar-2013-duel", "free-seeded-heuristic"])
def test_the_readable_account_counts_seats_and_hands_from_one_as_players_do(name: str) -> None:
    record = (GOLDEN / f"{name}.record.json").read_text(encoding="utf-8")
    text = render_text(replay(loads_record(record)))
    assert re.search(r"^(Hand|Round) 1 is dealt by seat [1-4]\b", text, flags=re.MULTILINE), text[:400]
    assert not re.search(r"\b(seat|hand) 0\b|^seats: 0\b", text, flags=re.MULTILINE), text[:400]
    n_seats = len(json.loads(record)["seats"])
    assert re.search(rf"^seats: 1\b.*, {n_seats}\b", text, flags=re.MULTILINE)
