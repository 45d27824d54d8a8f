"""`clubs play partnership`, `watch`, `simulate` and `replay` through the console script: whole matches with piped
input, what the screen may show, and bad input of every kind (exit status 2, a message naming the input and the
rule, never a traceback)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import clubs_in_process, seat_names
from clubsuite.games.partnership import PartnershipDeal, PartnershipMatch
from clubsuite.records import dumps_record, record_from_match

CLUBS = str(Path(sys.executable).parent / "clubs")


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``clubs ARGS`` with ``stdin`` piped in, run in this process (:func:`cli_helpers.clubs_in_process`: the same
    entry point and bytes as the console script, without a process start per call), as a finished process."""
    out = clubs_in_process(args, stdin.encode("utf-8"))
    return subprocess.CompletedProcess([CLUBS, *args], out.status, out.stdout, out.stderr)


def cycling_input(rounds: int = 300) -> str:
    """Input that eventually is legal at every prompt: three cards to pass, then every card number, over and over."""
    return "".join("1 2 3\n" + "".join(f"{n}\n" for n in range(1, 14)) for _ in range(rounds))


def final_totals(out: str) -> list[int]:
    """The two numbers of the match's end's ``Final totals:`` (one per partnership)."""
    final = out.split("Final totals:")[1].splitlines()[0].removesuffix(".")
    return [int(p.split()[-1]) for p in final.split(",")]


def test_cp4_play_whole_match_with_piped_input_reaches_the_end(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run(["play", "partnership", "--seed", "3", "--bots", "random", "--save", str(path)], cycling_input())
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # the match's end in the game's words (the page's): the partnership that won, then both totals (CP-4)
    assert re.search(r"^The match is over: .+ win\. Final totals: ", out, re.MULTILINE)
    totals = final_totals(out)
    assert max(totals) >= 150 and totals[0] != totals[1]
    assert "\x1b[" not in out and "Traceback" not in result.stderr
    for needle in (
        "pass to the left",  # CP-2
        "pass to the right",
        "no pass",
        "  You passed: ",  # the three cards passed and received, as the page titles them
        "  You received: ",
        "Ruby Dame",
    ):
        assert needle in out
    # The saved record replays to the same partnership totals.
    replayed = run(["replay", str(path), "--json"])
    assert replayed.returncode == 0, replayed.stderr
    data = json.loads(replayed.stdout)
    assert data["game"] == "partnership" and data["team_totals"] == totals and data["over"]
    assert data["seats"][0] == {"name": "you", "kind": "human"}


def test_cp2_bad_passes_are_refused_with_the_rule_and_asked_again() -> None:
    result = run(["play", "partnership", "--seed", "3", "--bots", "random"], "1\n1 1 2\npass ZZ 2C 3C\n14 1 2\nq\n")
    out = result.stdout
    assert "pass JC names 1 card: everyone passes exactly three." in out  # CP-2, in a player's words
    assert "'1 1 2' names a card twice: pass three different cards." in out
    assert "'pass ZZ 2C 3C' is not a pass: 'ZZ' is not a card" in out
    assert "There is no card number 14: your hand has 13 cards." in out
    assert out.count("Your three cards to pass to ") == 5
    assert result.returncode == 0 and "Traceback" not in result.stderr


def test_rule7_an_illegal_card_gets_the_reason_and_a_new_prompt() -> None:
    result = run(["play", "partnership", "--seed", "3", "--bots", "random"], cycling_input())
    lines = result.stdout.splitlines()
    refusals = [i for i, line in enumerate(lines) if line.startswith("You cannot play ") and " were led " in line]
    assert refusals, "the cycling input must have met a card that does not follow suit"
    for i in refusals:
        assert lines[i].endswith("so you must follow suit.") and "rule" not in lines[i]
        assert lines[i + 1].startswith("Your card:")


def test_question_mark_and_hint_in_the_pass_and_in_play() -> None:
    result = run(["play", "partnership", "--seed", "3", "--bots", "random"], "?\nh\n1 2 3\n?\nh\nq\n")
    lines = result.stdout.splitlines()
    legal = [line for line in lines if line.startswith("Legal: ")]
    hints = [line.removeprefix("Hint: ") for line in lines if line.startswith("Hint: ")]
    assert legal[0].startswith("Legal: any three of your cards: ")
    assert hints[0].startswith("pass ") and len(hints[0].split()) == 4
    assert hints[1] in legal[1].removeprefix("Legal: ").split()


CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(10|[2-9JQKA])([CDHS])(?![A-Z])")


@pytest.mark.parametrize("seat", [0, 3])
def test_cp2_play_screen_never_shows_a_card_the_human_may_not_know(seat: int) -> None:
    """Other hands appear only card by card as they are played; of the pass, only the human's own side (CP-2)."""
    args = ["play", "partnership", "--seed", "19", "--seat", str(seat + 1), "--bots", "random"]
    result = run(args, cycling_input())
    assert result.returncode == 0, result.stderr
    known: set[str] = set()
    for line in result.stdout.splitlines():
        if re.match(r"Hand \d+ is dealt by ", line):
            known = set()  # a new deal: only what is shown from now on is known
        if line.startswith("Enter a card (e.g. QH)"):
            continue  # input help, with its example cards
        tokens = {a + b for a, b in CARD_TOKEN.findall(line)}
        own = ("Your hand:", "You play", "  You passed: ", "  You received: ", "You passed to ")
        if line.startswith(own) or " plays " in line:
            known |= tokens
            continue
        assert tokens <= known, f"the line {line!r} names {sorted(tokens - known)}, which the human cannot know"


def test_watch_shows_every_hand_and_pass_and_its_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    result = run(["watch", "partnership", "--seed", "2", "--bots", "heuristic,random", "--save", str(path)])
    assert result.returncode == 2 and "--bots needs 4 bot names" in result.stderr
    result = run(
        ["watch", "partnership", "--seed", "2", "--bots", "heuristic,random,heuristic,random", "--save", str(path)]
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    zero, one, two, _ = seat_names(out)
    assert f"The match is over: {zero} and {two} win. Final totals: {zero} and {two} " in out
    assert re.search(rf"^  {one} → {two}: \S+ \S+ \S+$", out, re.MULTILINE)  # every pass, to a spectator
    replay = run(["replay", str(path)])
    assert replay.returncode == 0, replay.stderr
    text = replay.stdout
    assert text.startswith("Clubs (partnership): partnership\n")
    # the replay names the seats as the table did, and says which bot played each
    assert f"seats: 1 {zero} (bot heuristic), 2 {one} (bot random), 3 {two} (bot heuristic)" in text  # from 1
    # the events in the game's words (the page's), and the cards passed, which the record holds (CP-2)
    assert re.search(rf"^Hand 1 is dealt by seat 1 \({zero}\); everyone passes three cards to the left", text, re.M)
    assert f"Hand 3 is dealt by seat 3 ({two}); no cards are passed this hand." in text
    assert re.search(rf"^    Cards passed: (.*, )?seat 2 \({one}\) gives \S+ \S+ \S+ to seat 3 \({two}\)", text, re.M)
    assert re.search(rf"The hand is over. Points: seat 1 \({zero}\) and seat 3 \({two}\) \d+, ", text)
    assert f"winners: seat 1 ({zero}) and seat 3 ({two})" in text


def test_simulate_reports_each_partnership_with_its_interval() -> None:
    result = run(["simulate", "partnership", "--matches", "8", "--seed", "4", "--json"])
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["seating_cycle"] == 8 and len(data["bots"]) == 4
    teams = data["teams"]
    assert [t["label"] for t in teams] == ["heuristic+heuristic", "random+random"]
    assert sum(t["wins"] for t in teams) == data["matches"] == 8 and data["draws"] == 0
    for t in teams:
        low, high = t["win_rate_ci95"]
        assert 0.0 <= low <= t["win_rate"] <= high <= 1.0
    # CP-3: the partnerships' points per hand add up to 31, or 36 in a hand one of them swept.
    total = sum(t["mean_score_per_hand"] for t in teams)
    assert 31 <= total <= 36
    table = run(["simulate", "partnership", "--matches", "8", "--seed", "4"])
    assert table.returncode == 0, table.stderr
    assert "team heuristic+heuristic: heuristic and heuristic#2" in table.stdout
    assert "8 matches = 1 full cycle of 8: seats exactly balanced" in table.stdout
    assert "an exact tie at the target plays another hand, CP-4" in table.stdout


def illegal_pass_record() -> dict[str, Any]:
    """A record whose second pass names a card its seat does not hold."""
    match = PartnershipMatch()
    match.deal(deal=PartnershipDeal.from_seed(8))
    record = record_from_match(match, seats=[{"name": n} for n in ("ann", "bob", "cy", "dee")])
    hand1 = str(match.hands[0].deal.hands[1]).split()
    stranger = str(match.hands[0].deal.hands[2]).split()[0]
    record["hands"][0]["actions"] = [f"pass {' '.join(hand1[:3])}", f"pass {stranger}"]
    del record["result"]
    return record


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["play", "partnership", "--seat", "5", "--bots", "random"], ["--seat 5", "seats 1 to 4"]),  # from 1
        (["play", "partnership", "--first-dealer", "5", "--bots", "random"], ["--first-dealer 5"]),
        (["play", "partnership", "--bots", "random,random"], ["--bots needs 3 bot names"]),
        (["watch", "partnership", "--bots", "random,random,random"], ["--bots needs 4 bot names"]),
        (["play", "partnership", "--variant", "partnership(target=0)"], ["target=0", "CP-4"]),
        (["play", "partnership", "--variant", "whist", "--bots", "random"], ["whist"]),
        (["simulate", "partnership", "--bots", "random,random,random"], ["3 bots given", "one per partnership (2)"]),
        (["simulate", "partnership", "--variant", "partnership(target=x)"], ["target='x'"]),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], needles: list[str]) -> None:
    result = run(args)
    assert result.returncode == 2
    for needle in needles:
        assert needle in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_an_illegal_pass_exits_2_naming_hand_action_seat_and_rule(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(dumps_record(illegal_pass_record()), encoding="utf-8")
    result = run(["replay", str(path)])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    message = result.stderr.strip()
    assert message.startswith("error: hand 1, action 2 (overall 2), seat 3 chooses pass ")
    assert "names 1 card: each player passes exactly three (CP-2)" in message


def test_replay_of_a_record_with_a_wrong_deal_exits_2_naming_the_field(tmp_path: Path) -> None:
    record = illegal_pass_record()
    record["hands"][0]["deal"] = {"hands": record["hands"][0]["deal"]["hands"][:3]}
    path = tmp_path / "bad-deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = run(["replay", str(path)])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "hands[0].deal" in result.stderr and "four strings of cards" in result.stderr


def test_replay_of_a_match_stopped_in_the_pass_says_what_may_be_passed(tmp_path: Path) -> None:
    match = PartnershipMatch()
    match.deal(deal=PartnershipDeal.from_seed(8))
    match.apply(match.legal_actions()[0])
    path = tmp_path / "pass.json"
    path.write_text(dumps_record(record_from_match(match)), encoding="utf-8")
    result = run(["replay", str(path)])
    assert result.returncode == 0, result.stderr
    assert "the match is not over: seat 3 to act" in result.stdout
    assert re.search(r"^legal: pass any three of (\S+ ){12}\S+$", result.stdout, re.M)  # CP-2, no rule id shown
