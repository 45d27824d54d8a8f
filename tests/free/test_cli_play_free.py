"""`clubs play free`, `clubs watch free` and `clubs replay` of Free Clubs records, through the console script."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process, seat_names, seated
from clubsuite.bots import make_bot
from clubsuite.cards import CardSet
from clubsuite.games.free import FreeMatch
from clubsuite.games.free.screen import score_rows
from clubsuite.records import load_record, replay
from clubsuite.runner import play_match

CLUBS = str(Path(sys.executable).parent / "clubs")


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``clubs ARGS`` with ``stdin`` piped in, run in this process (:func:`cli_helpers.clubs_in_process`: the same
    entry point and bytes as the console script, without a process start per call), as a finished process."""
    out = clubs_in_process(args, stdin.encode("utf-8"))
    return subprocess.CompletedProcess([CLUBS, *args], out.status, out.stdout, out.stderr)


def cycling_input(rounds: int = 400) -> str:
    """Input that eventually is legal at every prompt: `pass`, then every card number, over and over."""
    return "".join("pass\n" + "".join(f"{n}\n" for n in range(1, 17)) for _ in range(rounds))


def final_totals(out: str) -> list[int]:
    """The numbers of the ``Final totals:`` line."""
    final = out.split("Final totals:")[1].splitlines()[0].rstrip(".")
    return [int(p.split()[-1]) for p in final.split(",")]


def test_fc9_play_whole_match_with_piped_input_reaches_the_end_and_names_the_winner() -> None:
    result = run(["play", "free", "--seed", "3", "--bots", "random"], cycling_input())
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The match is over:" in out and "(target 250)" in out
    totals = final_totals(out)
    assert max(totals) >= 250  # FC-9: the match ends only once a total reaches the target
    assert "\x1b[" not in out, "piped output must carry no colour codes"
    assert "Traceback" not in result.stderr
    # The screen shows the auction, what is asked, the contract, the handicaps, the pass and the bonus table.
    for needle in ("Auction: ", "The last bid is ", "Contract: ", "Handicaps: ", "to pass to ", "most diamonds"):
        assert needle in out
    # The seed is not shown before the end when it was not chosen... here it was chosen, so it is in the header.
    assert out.splitlines()[0].startswith("Free Clubs · variant free · seed 3")


def test_fc4_contract_is_seven_tricks_alone_or_ten_for_a_joker_team() -> None:
    result = run(["play", "free", "--seed", "3", "--bots", "random"], cycling_input())
    contracts = [line for line in result.stdout.splitlines() if line.startswith("Contract: ")]
    assert contracts
    for line in contracts:
        assert line.endswith(": 7 tricks") or ("(Joker team)" in line and "all 10 tricks together" in line), line


def test_random_seed_is_shown_only_at_the_end() -> None:
    result = run(["play", "free", "--bots", "random", "--variant", "free(target=60)"], cycling_input())
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    seed_lines = [i for i, line in enumerate(lines) if "seed" in line]
    assert seed_lines == [len(lines) - 1]
    assert lines[-1].startswith("The deals came from seed ")


def test_fc3_illegal_actions_get_the_reason_and_a_new_prompt() -> None:
    result = run(["play", "free", "--seed", "3", "--bots", "random"], cycling_input())
    lines = result.stdout.splitlines()
    refusals = [i for i, line in enumerate(lines) if line.startswith(("You cannot play ", "pass is not a card"))]
    assert refusals, "the cycling input must have met an illegal action"
    assert any("the auction is over" in lines[i] for i in refusals), "a bid after the auction is told why (FC-3)"
    for i in refusals:  # in a player's words: the ruling's id is behind "why?"
        assert "must" in lines[i] and "FC-" not in lines[i], lines[i]
        assert lines[i + 1].startswith("Your ")  # asked again


def test_fc3_opener_cannot_pass_and_is_told_why() -> None:
    # Seat 2 holds 10S in the first deal of seed 4 (see `clubs watch free --seed 4`): it must open with it.
    result = run(["play", "free", "--seed", "4", "--seat", "3", "--bots", "random"], "pass\n?\nq\n")
    out = result.stdout
    assert "You cannot pass: you hold 10S and must open the auction with it." in out  # FC-3
    assert "Legal: 10S" in out
    assert result.returncode == 0


CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(JK[12]|(?:10|[2-9JQKA])[CDHS])(?![A-Z0-9])")


def test_fc5_fc2_play_screen_never_shows_a_card_the_human_may_not_know(tmp_path: Path) -> None:
    """Hidden information (FC-2, FC-5): the chest only to its taker, others' cards and discards never, passed cards
    only to giver and receiver. Checked against the record: per hand, every card named on screen must be one the
    human held, took from the chest, received, or saw bid or played."""
    path = tmp_path / "game.json"
    seat = 1
    args = ["play", "free", "--seed", "19", "--seat", str(seat + 1), "--bots", "random", "--save", str(path)]
    result = run(args, cycling_input())
    assert result.returncode == 0, result.stderr
    match = replay(load_record(path)).match
    sections = re.split(r"^Hand \d+ is dealt by .*$", result.stdout, flags=re.MULTILINE)[1:]
    assert len(sections) == len(match.hands)
    took_chest = False
    for section, hand in zip(sections, match.hands, strict=True):
        known = int(hand.deal.primary[seat]) | int(hand.deal.auction[seat])
        if hand.winner == seat:
            known |= int(hand.deal.chest)
            took_chest = True
        for _, receiver, c in hand.passed:
            if receiver == seat:
                known |= 1 << c
        for _, c in hand.calls:
            if c >= 0:
                known |= 1 << c
        for plays, _ in hand.tricks:
            for _, c in plays:
                known |= 1 << c
        names = {str(c) for c in CardSet(known)}
        for line in section.splitlines():
            shown = set(CARD_TOKEN.findall(line))
            assert shown <= names, f"{line!r} names {sorted(shown - names)}, which seat {seat} cannot know"
        if hand.winner != seat:
            assert "The chest you took:" not in section
    assert took_chest or "The chest you took:" not in result.stdout


def test_play_save_then_replay_gives_the_same_totals_and_a_readable_account(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run(["play", "free", "--seed", "5", "--bots", "random", "--save", str(path)], cycling_input())
    assert result.returncode == 0, result.stderr
    assert json.loads(path.read_text())["game"] == "free"
    replayed = run(["replay", str(path), "--json"])
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["totals"] == final_totals(result.stdout)
    text = run(["replay", str(path)])
    assert text.returncode == 0, text.stderr
    account = text.stdout
    for needle in (" bids ", "wins the auction with", "takes the treasure chest", "The chosen cards go to the right"):
        assert needle in account  # the events in the game's words
    assert "  The treasure chest holds " in account and "Cards passed: seat " in account  # and the hidden cards
    assert " handicap: " in account and "takes trick 1." in account and "The hand is over. Points: " in account
    assert "BidMade" not in account and "HandicapResolved" not in account  # no raw event names
    final = re.search(r"^final totals: (.*)$", account, flags=re.MULTILINE)
    assert final and [int(p.split()[-1]) for p in final.group(1).split(",")] == final_totals(result.stdout)


def test_play_quit_saves_the_hand_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    result = run(["play", "free", "--seed", "4", "--seat", "3", "--bots", "random", "--save", str(path)], "1\nq\n")
    assert result.returncode == 0
    data = json.loads(run(["replay", str(path), "--json"]).stdout)
    assert data["over"] is False


def test_play_hint_is_the_heuristic_bots_legal_choice() -> None:
    result = run(["play", "free", "--seed", "4", "--seat", "3", "--bots", "random"], "h\nq\n")
    assert "Hint: 10S" in result.stdout  # the opener's only legal bid (FC-3)


def test_play_default_bots_are_the_heuristic_bot(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    result = run(["play", "free", "--seed", "4", "--save", str(path)], "q\n")
    assert "Traceback" not in result.stderr
    assert result.returncode == 0
    seats = json.loads(path.read_text())["seats"]
    assert [seat.get("bot") for seat in seats] == [None, "heuristic", "heuristic"]
    assert [seat["name"] for seat in seats] == ["you", *seat_names(result.stdout)[1:]]  # as the screen named them
    assert seated(result.stdout)[1:] == [(name, "normal bot") for name in seat_names(result.stdout)[1:]]


def test_watch_free_shows_every_hand_and_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    result = run(["watch", "free", "--seed", "4", "--bots", "random", "--save", str(path)])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The match is over:" in out and "Final totals:" in out
    assert "  chest: " in out and ": auction " in out  # the spectator sees every card
    assert re.search(r"^  \w+ \u2192 \w+ \S+$", out, flags=re.MULTILINE)  # and every card passed
    assert "\x1b[" not in out
    assert json.loads(run(["replay", str(path), "--json"]).stdout)["totals"] == final_totals(out)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "free", "--seat", "4", "--bots", "random"], "--seat"),
        (["play", "free", "--variant", "free(foo=1)", "--bots", "random"], "foo"),
        (["play", "free", "--variant", "free(target=x)", "--bots", "random"], "target"),
        (["play", "free", "--variant", "whist-1997", "--bots", "random"], "whist"),
        (["play", "free", "--bots", "nosuch"], "nosuch"),
        (["play", "free", "--bots", "random,random,random"], "--bots"),
        (["watch", "free", "--bots", "random,random"], "--bots"),
        (["watch", "free", "--seed", "-1", "--bots", "random"], "-1"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], needle: str) -> None:
    result = run(args)
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


def test_fc4_fc8_score_rows_add_up_to_the_hand_scores() -> None:
    """The bonus table shown after each hand is the engine's score split by source (FC-4, FC-8)."""
    for seed in range(6):
        match = FreeMatch()
        bot = make_bot("random", "free")
        play_match(match, [bot, bot, bot], seed, bot_rng=random.Random(seed))
        for hand in match.hands:
            rows = score_rows(hand)
            assert tuple(sum(col) for col in zip(*(r for _, r in rows), strict=True)) == hand.scores


def test_fc10_a_player_at_the_keyboard_cannot_call_in_another_seats_name() -> None:
    """FC-10 table mode: a call typed at the terminal is made by the human's own seat, never another one."""
    result = run(
        ["play", "free", "--variant", "free(misplays=true)", "--seed", "3", "--bots", "random"],
        "call 7H by 2\n",
    )
    assert "You cannot call 7H in Dario's name: you can only make a call yourself." in result.stdout
    assert "Traceback" not in result.stderr
