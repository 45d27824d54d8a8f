"""``clubs solve`` and ``clubs review``: the double-dummy table of a stopped record, the review of a finished match,
readable and JSON, and bad input refused with one line and status 2."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import clubs_in_process
from clubsuite.bots import make_bot
from clubsuite.engine import Phase, resolve
from clubsuite.records import replay
from clubsuite.records.writer import record_from_match
from clubsuite.runner import deal_next, play_match
from clubsuite.solver import card_values


def _stopped(game: str, seed: int, plays: int) -> Any:
    """A match of ``game`` played by heuristic bots into the card play of its first hand, ``plays`` cards in."""
    info, options = resolve(game)
    match = info.new_match(options, 0)
    deal_next(match, info, seed)
    bot = make_bot("heuristic", info.name)
    rng = random.Random(seed)
    played = 0
    while match.to_act is not None and (match.phase != Phase.PLAY or played < plays):
        if match.phase == Phase.PLAY:
            played += 1
        match.apply(bot.choose(match.view(match.to_act), match.legal_actions(), rng))
    return match


def _write(tmp_path: Path, record: Any, name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("game", "plays"), [("whist", 24), ("partnership", 36), ("free", 18)])
def test_solve_prints_the_exact_value_of_every_legal_card(tmp_path: Path, game: str, plays: int) -> None:
    """The JSON table holds every legal card of the seat to act with the solver's count per measure, and the best
    cards per measure; the readable table names each card and stars the best."""
    match = _stopped(game, 3, plays)
    path = _write(tmp_path, record_from_match(match))
    out = clubs_in_process(["solve", path, "--json"])
    assert out.status == 0, out.stderr
    table = json.loads(out.stdout)
    assert table["seat"] == match.to_act
    legal = {match.format_action(a) for a in match.legal_actions()}
    assert {c["card"] for c in table["cards"]} == legal
    for measure in table["measures"]:
        expected = {match.format_action(a): v for a, v in card_values(match, measure["name"]).items()}
        assert {c["card"]: c["values"][measure["name"]] for c in table["cards"]} == expected
        pick = max if measure["aim"] == "high" else min
        assert set(table["best"][measure["name"]]) == {c for c, v in expected.items() if v == pick(expected.values())}
    text = clubs_in_process(["solve", path])
    assert text.status == 0
    assert all(card in text.stdout for card in legal) and "*" in text.stdout


def test_solve_stops_at_the_hand_and_action_asked_for(tmp_path: Path) -> None:
    """``--hand`` and ``--actions`` pick an earlier point of the record: the table is that position's."""
    match = _stopped("whist", 5, 20)
    path = _write(tmp_path, record_from_match(match))
    earlier = _stopped("whist", 5, 9)
    n = len(earlier.hands[0].action_log())
    out = clubs_in_process(["solve", path, "--hand", "1", "--actions", str(n), "--json"])
    assert out.status == 0, out.stderr
    expected = {earlier.format_action(a) for a in earlier.legal_actions()}
    assert {c["card"] for c in json.loads(out.stdout)["cards"]} == expected


def test_solve_counts_hands_from_one_as_players_do(tmp_path: Path) -> None:
    """``clubs solve --hand`` counts from 1: hand 1 is the record's first (its JSON ``hand`` 0); 0 and a hand past
    the record are refused naming the option and the hands, and the refusal of ``--actions`` names the hand from 1."""
    path = _write(tmp_path, record_from_match(_stopped("whist", 5, 20)))
    first = clubs_in_process(["solve", path, "--hand", "1", "--json"])
    assert first.status == 0, first.stderr
    assert first.stdout == clubs_in_process(["solve", path, "--json"]).stdout and json.loads(first.stdout)["hand"] == 0
    zero = clubs_in_process(["solve", path, "--hand", "0"])
    assert zero.status == 2 and "--hand" in zero.stderr and "x>=1" in zero.stderr and "Traceback" not in zero.stderr
    past = clubs_in_process(["solve", path, "--hand", "2"])
    assert past.status == 2 and "--hand 2: the record has hands 1 to 1" in past.stderr, past.stderr
    beyond = clubs_in_process(["solve", path, "--hand", "1", "--actions", "999"])
    assert beyond.status == 2 and "--actions 999: hand 1 of the record has" in beyond.stderr, beyond.stderr
    assert "counted from 1" in clubs_in_process(["solve", "--help"]).stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--hand", "4"], "--hand 4: the record has hands 1 to 1"),
        (["--actions", "999"], "--actions 999"),
        (["--actions", "0"], "only during the play of the cards"),
        (["--nodes", "1000", "--actions", "3"], "raise --nodes"),
    ],
)
def test_solve_refuses_a_point_it_cannot_solve(tmp_path: Path, args: list[str], words: str) -> None:
    """A point past the record, a point before the card play, a search past its node limit: one line, status 2."""
    path = _write(tmp_path, record_from_match(_stopped("whist", 5, 20)))
    out = clubs_in_process(["solve", path, *args])
    assert out.status == 2
    assert words in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_solve_refuses_a_climbing_game_and_a_broken_record(tmp_path: Path) -> None:
    """North Star's CLUBS has no exact solver; a record that breaks a rule is refused naming it."""
    info, options = resolve("northstar")
    match = info.new_match(options, 0)
    deal_next(match, info, 1)
    out = clubs_in_process(["solve", _write(tmp_path, record_from_match(match))])
    assert out.status == 2 and "not a trick game" in out.stderr
    record = record_from_match(_stopped("whist", 5, 20))
    record["hands"][0]["actions"][1] = "2C"  # type: ignore[index]  # a card in the exchange round (CW-4)
    out = clubs_in_process(["solve", _write(tmp_path, record, "bad.json")])
    assert out.status == 2 and "hand 1, action 2" in out.stderr and "Traceback" not in out.stderr


def _finished(game: str, seed: int) -> Any:
    info, options = resolve(game)
    match = info.new_match(options, 0)
    bots = [make_bot("heuristic", info.name) for _ in range(match.n_seats)]
    return play_match(match, bots, seed, max_hands=1)


def test_review_values_every_decision_of_the_seat_and_sums_each_hand(tmp_path: Path) -> None:
    """Every decision of the seat with a choice is listed once, in order, with the value of the action taken, the
    best value (never lower), the cost and its mark; card play has the exact all-hands count; the hand sums add up."""
    match = _finished("whist", 8)
    record = record_from_match(match)
    path = _write(tmp_path, record)
    out = clubs_in_process(["review", path, "--seat", "3", "--samples", "3", "--json"])
    assert out.status == 0, out.stderr
    data = json.loads(out.stdout)
    checked = replay(record)
    assert checked.match.hand_scores == match.hand_scores
    assert data["seat"] == 2 and data["decisions"]
    for d in data["decisions"]:
        assert d["view"]["best"] >= d["view"]["taken"] - 1e-9
        assert d["view"]["cost"] == pytest.approx(d["view"]["best"] - d["view"]["taken"], abs=1e-3)
        assert d["mark"] in ("", "?", "??")
        if d["phase"] == "play":
            assert d["double_dummy"]["taken"] <= 13
    total = sum(d["view"]["cost"] for d in data["decisions"])
    assert sum(h["cost"] for h in data["hands"]) == pytest.approx(total, abs=1e-3)
    again = clubs_in_process(["review", path, "--seat", "3", "--samples", "3", "--json"])
    assert again.stdout == out.stdout  # seeded: the same review every time
    text = clubs_in_process(["review", path, "--seat", "3", "--samples", "3"])
    assert text.status == 0 and "Hand 1" in text.stdout and "cost" in text.stdout


@pytest.mark.parametrize("game", ["partnership", "free", "northstar"])
def test_review_works_in_every_game(tmp_path: Path, game: str) -> None:
    """The review reads any game's record (double-dummy counts only where a solver exists, and it says whether one
    does: a climbing game's review is the search's alone)."""
    path = _write(tmp_path, record_from_match(_finished(game, 4)))
    out = clubs_in_process(["review", path, "--seat", "2", "--samples", "2", "--json"])
    assert out.status == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["decisions"]
    assert data["exact"] is (game != "northstar")
    if game == "northstar":
        assert all(d["double_dummy"] is None for d in data["decisions"])


def test_review_refuses_a_seat_the_match_does_not_have(tmp_path: Path) -> None:
    """``--seat 7`` of a three-player match: one line naming the seats, status 2."""
    path = _write(tmp_path, record_from_match(_finished("whist", 8)))
    out = clubs_in_process(["review", path, "--seat", "7"])
    assert out.status == 2 and "--seat 7: the match has seats 1 to 3" in out.stderr


def test_review_and_the_solved_table_count_seats_and_hands_from_one_as_players_do(tmp_path: Path) -> None:
    """``clubs review --seat`` counts from 1 (1 to the number of players; 0 and one past the last refused naming the
    option and the seats), and the readable review and table say seats, hands and actions from 1, while ``--json``
    keeps the record's numbers from 0."""
    path = _write(tmp_path, record_from_match(_finished("whist", 8)))
    data = json.loads(clubs_in_process(["review", path, "--seat", "1", "--samples", "2", "--json"]).stdout)
    assert data["seat"] == 0 and data["decisions"][0]["hand"] == 0
    text = clubs_in_process(["review", path, "--seat", "1", "--samples", "2"])
    assert text.status == 0, text.stderr
    assert text.stdout.startswith("Review of seat 1 (whist")
    assert "\nHand 1\n" in text.stdout and "\n  hand 1: cost" in text.stdout and "Hand 0" not in text.stdout
    first = data["decisions"][0]["action_index"] + 1
    assert f"\nHand 1\n  {first:>3} {data['decisions'][0]['action']}" in text.stdout, text.stdout[:600]
    last = clubs_in_process(["review", path, "--seat", "3", "--samples", "2", "--json"])
    assert last.status == 0 and json.loads(last.stdout)["seat"] == 2
    zero = clubs_in_process(["review", path, "--seat", "0"])
    assert zero.status == 2 and "--seat" in zero.stderr and "x>=1" in zero.stderr and "Traceback" not in zero.stderr
    past = clubs_in_process(["review", path, "--seat", "4"])
    assert past.status == 2 and "--seat 4: the match has seats 1 to 3" in past.stderr
    assert "counted from 1" in clubs_in_process(["review", "--help"]).stdout
    match = _stopped("whist", 5, 20)
    solved = _write(tmp_path, record_from_match(match), "s.json")
    table = json.loads(clubs_in_process(["solve", solved, "--json"]).stdout)
    assert table["hand"] == 0 and table["seat"] == match.to_act
    readable = clubs_in_process(["solve", solved]).stdout
    assert readable.startswith(f"Hand 1, seat {match.to_act + 1} to play;"), readable[:200]
