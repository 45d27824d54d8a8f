"""`clubs replay` of North Star CLUBS records: the readable account (NS-1..NS-11) and malformed records."""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import clubs_in_process
from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.games.northstar import NorthstarMatch
from clubsuite.records import FORMAT, VERSION, record_from_match, replay, result_json
from clubsuite.runner import play_match

CLUBS = str(Path(sys.executable).parent / "clubs")


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``clubs ARGS`` with ``stdin`` piped in, run in this process (:func:`cli_helpers.clubs_in_process`: the same
    entry point and bytes as the console script, without a process start per call), as a finished process."""
    out = clubs_in_process(args, stdin.encode("utf-8"))
    return subprocess.CompletedProcess([CLUBS, *args], out.status, out.stdout, out.stderr)


def played_match(spec: str, seed: int, max_hands: int | None = None) -> NorthstarMatch:
    """A match of ``spec`` between random bots, dealt from ``seed``."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    assert isinstance(match, NorthstarMatch)
    bot = make_bot("random", "northstar")
    play_match(match, [bot] * match.n_seats, seed, bot_rng=random.Random(seed), max_hands=max_hands)
    return match


def write(tmp_path: Path, record: dict[str, Any], name: str = "record.json") -> Path:
    """Write a record to a file and return its path."""
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def account(tmp_path: Path, record: dict[str, Any]) -> str:
    """The readable account ``clubs replay`` prints for ``record``."""
    out = run(["replay", str(write(tmp_path, record))])
    assert out.returncode == 0, out.stderr
    return out.stdout


def seat_totals(values: list[int] | tuple[int, ...]) -> str:
    """``seat 1 +1, seat 2 0, seat 3 +7``, as the account writes each seat's score."""
    return ", ".join(f"seat {s + 1} {v:+d}" if v else f"seat {s + 1} 0" for s, v in enumerate(values))


def listed(names: list[str]) -> str:
    """Names as the account lists them: ``seat 1, seat 2 and seat 3``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# -- the account -------------------------------------------------------------------------------------------------
def test_account_of_a_team_match_tells_deals_tricks_round_ends_points_and_winners(tmp_path: Path) -> None:
    match = played_match("northstar-teams", 2)
    record = record_from_match(match, seed=2, seeded_hands=True)
    text = account(tmp_path, record)
    assert text.startswith("CLUBS (North Star): northstar(teams=2x2)\n")
    assert "seats: 1, 2, 3, 4" in text  # counted from 1, as players do; a record's "seat 0" names no one
    hands = re.split(r"^Round \d+ is dealt by ", text, flags=re.MULTILINE)[1:]
    assert len(hands) == len(match.hands)
    for part, hand in zip(hands, match.hands, strict=True):
        assert part.startswith(f"seat {hand.dealer + 1}.\n")
        assert len(re.findall(r"^  seat \d is dealt (\d+[CDHS] )*\d+[CDHS]\.$", part, flags=re.MULTILINE)) == 4
        winners = re.findall(r"^  seat (\d) wins the trick", part, flags=re.MULTILINE)
        assert [int(w) for w in winners] == [w + 1 for w, _ in hand.tricks]
        assert "The round is over" in part
        assert "Points this round: " in part and "Team totals: " in part
    assert f"final totals: {seat_totals(match.totals)}" in text
    teams = [f"seat {t + 1} and seat {t + 3} {match.team_totals[t]:+d}" for t in (0, 1)]  # NS-10: seats s % 2 == t
    assert f"final team totals: {', '.join(teams)}" in text
    assert text.rstrip().endswith("winners: " + listed([f"seat {s + 1}" for s in match.winners]))
    for raw in ("Played", "Passed", "TrickWon", "WentOut", "HandScored", "RoundEnded"):
        assert raw not in text  # no raw event names


def test_ns5_ns8_account_tells_who_went_out_with_which_bonus_and_who_doubled(tmp_path: Path) -> None:
    spec = "northstar(players=3,double_or_nothing=true)"
    seed = next(s for s in range(50) if any(any(h.doubled) for h in played_match(spec, s, max_hands=1).hands))
    match = played_match(spec, seed, max_hands=1)
    text = account(tmp_path, record_from_match(match))
    hand = match.hands[0]
    for s in range(3):
        if hand.doubled[s]:
            assert f"seat {s + 1} calls double or nothing." in text
    for s in hand.out_order:
        assert f"seat {s + 1} goes out and takes the {hand.bonus[s]} bonus card." in text
    last = hand.ended.last if hand.ended else None
    assert last is not None
    assert f"The round is over: seat {last + 1} takes the 0 card and scores nothing this round." in text
    assert "the match is not over: awaiting the deal of hand 2" in text


def test_ns4_account_marks_a_trick_won_at_once_by_a_15(tmp_path: Path) -> None:
    match = played_match("northstar(players=3)", 5, max_hands=1)
    text = account(tmp_path, record_from_match(match))
    at_once = sum(1 for ev in match.hands[0].history if type(ev).__name__ == "TrickWon" and ev.at_once)
    assert at_once and text.count("wins the trick at once with a 15.") == at_once


def test_account_of_an_unfinished_round_shows_the_trick_in_progress_and_the_legal_plays(tmp_path: Path) -> None:
    spec = "northstar(wild_fifteens=true)"
    match = played_match(spec, 3, max_hands=1)
    record = record_from_match(match)
    # Stop just after the second trick's lead: its plays are told as in progress.
    again = NorthstarMatch(match.options, 0)
    again.deal(deal=match.hands[0].deal)
    stop = 0
    while not (len(again.hands[0].tricks) == 1 and len(again.hands[0].trick) == 1):
        again.apply(match.hands[0].action_log()[stop])
        stop += 1
    actions = record["hands"][0]["actions"]
    record["hands"][0]["actions"] = actions[:stop]
    del record["result"]
    text = account(tmp_path, record)
    # the first trick won, then the second's lead, and the account ends there
    assert re.search(
        r"^  seat \d wins the trick[^\n]*\n  seat \d plays [^\n]+\.\n\ntotals so far", text, flags=re.MULTILINE
    )
    legal = result_json(replay(record))["legal"]
    line = next(line for line in text.splitlines() if line.startswith("legal: "))
    items = line.removeprefix("legal: ").split(", ")  # each play as its button says it
    if len(legal) > 40:
        assert line.endswith(f", ... ({len(legal)} in all)")
        assert len(items) == 41
        items = items[:40]
    else:
        assert len(items) == len(legal)
    for item, action in zip(items, legal, strict=False):
        assert item == "Pass" if action == "pass" else item.startswith("Play ")


# -- malformed records ---------------------------------------------------------------------------------------------
SUITED = {
    0: "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S",
    1: "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D",
    2: "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
}
"""A 3-player deal: seat 0 spades, seat 1 diamonds, seat 2 hearts, 1 to 10 each; seat 1 leads (dealer 0)."""


def base_record(actions: list[str], variant: str = "northstar(players=3)") -> dict[str, Any]:
    """A record of one round of the SUITED deal with these actions."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "northstar",
        "variant": variant,
        "seats": [{"name": f"seat {s}"} for s in range(3)],
        "first_dealer": 0,
        "hands": [{"deal": {"hands": [SUITED[0], SUITED[1], SUITED[2]]}, "actions": actions}],
    }


def test_the_base_record_is_valid(tmp_path: Path) -> None:
    text = account(tmp_path, base_record(["5D", "6H", "pass"]))
    assert "\n  seat 2 plays 5D.\n  seat 3 plays 6H.\n  seat 1 passes.\n" in text


def two_round_record() -> dict[str, Any]:
    """A whole first round of 3 players with explicit deals, then a second round dealt as the first one (NS-6)."""
    match = played_match("northstar(players=3)", 4, max_hands=1)
    record = record_from_match(match)
    del record["result"]
    record["hands"].append({"deal": copy.deepcopy(record["hands"][0]["deal"]), "actions": []})
    return record


@pytest.mark.parametrize(
    ("record", "fragments"),
    [
        (base_record(["pass"]), ["hand 1, action 1 (overall 1), seat 2 chooses pass", "nothing to pass on (NS-4)"]),
        (base_record(["5D", "3H"]), ["hand 1, action 2 (overall 2), seat 3", "3H does not beat 5D", "(NS-3)"]),
        (base_record(["4D 5D", "6H 7H 8H"]), ["seat 3", "6H 7H 8H has 3 cards, but 4D 5D has 2", "(NS-3)"]),
        (base_record(["5D 7D"]), ["hand 1, action 1, seat 2", "'5D 7D' is not a single, set or run", "(NS-3)"]),
        (base_record(["5H"]), ["seat 2 chooses 5H", "you do not hold 5H"]),
        (base_record(["7X"]), ["hand 1, action 1, seat 2", "'7X'", "is not a card"]),
        (base_record(["double"]), ["seat 2 chooses double", "needs the option double_or_nothing (NS-8)"]),
        (base_record(["5D", "15H=6"]), ["15H=6", "only with the option wild_fifteens (NS-9)"]),
        (base_record([], "northstar(players=7)"), ["variant", "players=7", "(NS-1)"]),
        (base_record([], "northstar(players=3,teams=2x2)"), ["variant", "teams=2x2 needs players=4", "(NS-10)"]),
        (base_record([], "northstar-duel"), ["seats", "3"]),
        (
            {**base_record([]), "hands": [{"deal": {"hands": [SUITED[0], SUITED[1]]}, "actions": []}]},
            ["hand 1: the deal cannot be used", "2 hands but 3 players play (NS-1)"],
        ),
        (
            {**base_record([]), "hands": [{"deal": {"hands": [SUITED[0], SUITED[0], SUITED[2]]}, "actions": []}]},
            ["hands[0].deal", "dealt twice"],
        ),
        (two_round_record(), ["hand 2: the deal cannot be used", "already in play (NS-6)"]),
    ],
    ids=[
        "pass on a lead",
        "lower single",
        "wrong size",
        "neither set nor run",
        "card not held",
        "bad notation",
        "double without the option",
        "stand-in without wild 15s",
        "seven players",
        "teams need four",
        "duel has two seats",
        "two hands for three",
        "a card dealt twice",
        "leftover dealt again",
    ],
)
def test_malformed_northstar_records_exit_2_naming_the_problem(
    tmp_path: Path, record: dict[str, Any], fragments: list[str]
) -> None:
    out = run(["replay", str(write(tmp_path, record))])
    assert out.returncode == 2, out.stdout
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
    for fragment in fragments:
        assert fragment in out.stderr
    assert out.stdout == ""
