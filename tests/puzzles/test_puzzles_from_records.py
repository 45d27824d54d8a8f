"""Puzzles from finished matches (``clubs puzzles from``): a record's decisions looked at as the generator looks at
a bot match's, each puzzle checked again from the record cut at its hand; a player's own puzzles are the positions
where that seat missed the answer; a broken record is refused with the hand and action named."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.bots.base import make_bot
from clubsuite.engine import resolve
from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.check import check_puzzle
from clubsuite.puzzles.fromrecords import record_puzzles
from clubsuite.puzzles.make import MakeSettings
from clubsuite.puzzles.model import read_set
from clubsuite.records import record_from_match
from clubsuite.runner import play_match

SETTINGS = MakeSettings("", kinds=("double_dummy", "endgame", "single_dummy"), single_every=4)
NARROW = replace(SETTINGS, single_legal=4)
"""Single dummy looked at only where a decision has at most 4 legal actions (16 in :data:`SETTINGS`): the search,
and the check of a puzzle it finds, grow with them."""


def finished(spec: str, seed: int, hands: int | None = None, careless: int | None = None) -> JsonObject:
    """A match of heuristic bots (the seat ``careless`` played by the random bot: a player who errs)."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    bots = [make_bot("random" if s == careless else "heuristic", info.name) for s in range(match.n_seats)]
    play_match(match, bots, seed, max_hands=hands)
    return record_from_match(match, seed=seed, seeded_hands=True)


@pytest.mark.long
@pytest.mark.parametrize("spec", ["whist", "northstar(players=4)"])  # one test a game: two workers share them
def test_a_records_puzzles_hold_and_keep_the_record_up_to_their_hand(spec: str) -> None:
    record = finished(spec, 12, hands=2)  # two hands: a puzzle of the first keeps the record up to it only
    puzzles = record_puzzles(record, NARROW)
    assert puzzles, spec
    for p in puzzles:
        check_puzzle(p)
        hands = p.record["hands"]
        assert isinstance(hands, list) and len(hands) == p.hand + 1 and "result" not in p.record
        assert p.source == "a match record"
    assert record_puzzles(record, NARROW) == puzzles  # the same record, the same puzzles


def test_a_players_own_puzzles_are_where_that_seat_missed_the_answer() -> None:
    record = finished("whist", 5, hands=4, careless=1)
    mine = record_puzzles(record, replace(NARROW, per_hand=3), seats={1}, missed_only=True)
    assert mine
    for p in mine:
        assert p.seat == 1
        hands = record["hands"]
        assert isinstance(hands, list)
        taken = hands[p.hand]["actions"][p.actions]  # type: ignore[index]
        assert taken != p.solution and taken in p.values  # what the seat played, and what it got instead
        check_puzzle(p)


def test_the_command_writes_a_set_and_refuses_a_broken_record(tmp_path: Path) -> None:
    record = finished("whist", 5, hands=4, careless=0)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "mine.jsonl"
    # single dummy at one decision of the seat's in 4, not at each (the search is costly): the set is what is checked
    made = clubs_in_process(
        ["puzzles", "from", str(path), "--seat", "1", "--missed", "--every", "4", "--out", str(out)]
    )
    assert made.status == 0, made.stderr
    mine = read_set(out)
    assert mine and all(p.seat == 0 for p in mine)
    again = clubs_in_process(["puzzles", "from", str(path), "--out", str(out)])
    assert again.status == 2 and "exists" in again.stderr
    record["hands"][0]["actions"][1] = "2C"  # type: ignore[index]  # a card in the exchange round (CW-4)
    path.write_text(json.dumps(record), encoding="utf-8")
    bad = clubs_in_process(["puzzles", "from", str(path), "--out", str(tmp_path / "bad.jsonl")])
    assert bad.status == 2 and "hand 1, action 2" in bad.stderr and "Traceback" not in bad.stderr


def test_puzzles_from_counts_seats_from_one_as_players_do(tmp_path: Path) -> None:
    """``clubs puzzles from --seat`` counts from 1: ``--seat 2`` is the record's seat 1 (the puzzles keep the
    record's numbers, from 0); 0 and a seat past the last are refused naming the option and the seats."""
    record = finished("whist", 7, hands=2)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "second.jsonl"
    args = ["--kinds", "double_dummy", "--per-hand", "3"]
    made = clubs_in_process(["puzzles", "from", str(path), "--seat", "2", *args, "--out", str(out)])
    assert made.status == 0, made.stderr
    second = read_set(out)
    assert second and {p.seat for p in second} == {1}
    zero = clubs_in_process(["puzzles", "from", str(path), "--seat", "0", "--out", str(tmp_path / "zero.jsonl")])
    assert zero.status == 2 and "--seat" in zero.stderr and "x>=1" in zero.stderr and "Traceback" not in zero.stderr
    past = clubs_in_process(["puzzles", "from", str(path), "--seat", "4", "--out", str(tmp_path / "past.jsonl")])
    assert past.status == 2 and "--seat 4: the record match.json has seats 1 to 3" in past.stderr, past.stderr
    assert not (tmp_path / "past.jsonl").exists()
    assert "counted from 1" in clubs_in_process(["puzzles", "from", "--help"]).stdout
