"""Match records: golden records replayed exactly, the JSON Schema, round trips, and every kind of bad record.

The golden records in ``tests/golden/`` are made by :func:`build_golden` below, which plays uniformly random legal
actions or the game's bots (from a fixed seed) through the engine.
To rebuild them after an intended change of behaviour, run
``.venv/bin/python -c "import sys; sys.path[:0] = ['tests']; import test_records; test_records.regenerate_golden()"``
and review the difference.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import enum
import json
import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite import engine
from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.errors import InvalidRecordError
from clubsuite.games.free.events import AuctionWon, HandicapResolved
from clubsuite.options import option
from clubsuite.records import (
    MAX_DEPTH,
    MAX_DIGITS,
    check_record,
    dumps_json,
    dumps_record,
    load_record,
    loads_record,
    options_json,
    record_from_match,
    record_schema,
    replay,
    result_json,
    save_record,
    validate_record,
)
from clubsuite.runner import deal_next, play_match
from clubsuite.seeding import derive_seed, hand_seed

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
BAD = HERE / "data" / "records"
DOCS = HERE.parent / "docs" / "records.md"
RANDOM_SEATS = [{"name": f"random {i}", "kind": "bot"} for i in range(3)]
HEURISTIC_SEATS = [{"name": f"heuristic {i}", "kind": "bot"} for i in range(3)]
RANDOM4_SEATS = [{"name": f"random {i}", "kind": "bot"} for i in range(4)]
PARTNERSHIP_SEATS = [{"name": n, "kind": "bot"} for n in ("heuristic 0", "random 1", "heuristic 2", "random 3")]


# -- the golden record generator ---------------------------------------------------------------------------


def random_actions(match: Any, rng: random.Random, limit: int | None = None) -> None:
    """Play uniformly random legal actions until the hand is over, or ``limit`` actions."""
    n = 0
    while match.to_act is not None and (limit is None or n < limit):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        n += 1


def play_random(
    spec: str,
    seed: int,
    first_dealer: int = 0,
    hands: int | None = None,
    last_hand_actions: int | None = None,
    deal: Callable[[Any, Any, int], Any] | None = None,
) -> Any:
    """A match of random legal play: to the end, or ``hands`` hands with the last cut after some actions.

    Deals come from ``deal(info, match, index)``, by default from the match seed; actions from a generator
    seeded from ``seed`` alone, so every match here is the same on every run.
    """
    info, options = resolve(spec)
    match = info.new_match(options, first_dealer)
    rng = random.Random(derive_seed(seed, 1))
    while not match.is_over and (hands is None or len(match.hands) < hands):
        index = len(match.hands)
        d = deal(info, match, index) if deal else info.deal_from_seed(hand_seed(seed, index), match.next_dealer)
        match.deal(deal=d)
        last = hands is not None and len(match.hands) == hands
        random_actions(match, rng, last_hand_actions if last else None)
    return match


def _explicit_deal(seed: int) -> Callable[[Any, Any, int], Any]:
    """Deals for :func:`play_random` that come from neither the match seed nor ``hand_seed``."""

    def deal(info: Any, match: Any, index: int) -> Any:
        """A deal from a seed of its own, to be written out explicitly."""
        return info.deal_from_seed(derive_seed(seed, 2, index), match.next_dealer)

    return deal


def play_bots(
    spec: str,
    seed: int,
    bots: list[str],
    first_dealer: int = 0,
    hands: int | None = None,
    last_hand_actions: int = 0,
) -> Any:
    """A match of the named bots, one per seat, dealt from the match seed: to the end, or ``hands`` hands.

    Whole hands are played by :func:`clubsuite.runner.play_match`; with ``hands``, the last one is dealt and cut
    after ``last_hand_actions`` actions. The bots draw from one generator seeded from ``seed`` alone.
    """
    info, options = resolve(spec)
    match = info.new_match(options, first_dealer)
    players = [make_bot(name, info.name) for name in bots]
    rng = random.Random(derive_seed(seed, 1))
    play_match(match, players, seed, bot_rng=rng, max_hands=None if hands is None else hands - 1)
    if hands is not None and not match.is_over:
        deal_next(match, info, seed)
        for _ in range(last_hand_actions):
            seat = match.to_act
            match.apply(players[seat].choose(match.view(seat), match.legal_actions(), rng))
    return match


def build_golden(name: str) -> dict[str, Any]:
    """The golden record called ``name``, rebuilt from scratch."""
    if name == "whist-seeded-draw":
        # Default rules, every hand dealt from the match seed; this seed ends in a draw (CW-5).
        match = play_random("whist", 1392)
        return record_from_match(match, seats=RANDOM_SEATS, seed=1392, seeded_hands=True)
    if name == "whist-1997-explicit":
        # The 1997 rules (CW-3 left_of_last_exchanger), explicit deals, seat 2 deals first; two winners, one of
        # them at -11 (CW-5).
        match = play_random("whist-1997", 246, first_dealer=2, deal=_explicit_deal(246))
        return record_from_match(match, seats=RANDOM_SEATS)
    if name == "whist-unfinished":
        # Two whole hands, then the third stops in the middle of its third trick.
        match = play_random("whist", 77, hands=3, last_hand_actions=3 + 7)
        seats = [{"name": "you", "kind": "human"}, *RANDOM_SEATS[1:]]
        return record_from_match(match, seats=seats, seed=77, seeded_hands=True)
    if name == "whist-awaiting-deal":
        # Three whole hands with the three kinds of deal: explicit, {"seed": n}, and from the match seed.
        own_seed = 5150

        def deal(info: Any, match: Any, index: int) -> Any:
            if index == 0:
                return info.deal_from_seed(derive_seed(9, 2, 0), match.next_dealer)
            if index == 1:
                return info.deal_from_seed(own_seed, match.next_dealer)
            return info.deal_from_seed(hand_seed(9, index), match.next_dealer)

        match = play_random("whist(target=15)", 9, first_dealer=1, hands=3, deal=deal)
        record = record_from_match(match, seats=RANDOM_SEATS, seed=9)
        record["hands"][1]["deal"] = {"seed": own_seed}
        del record["hands"][2]["deal"]
        del record["options"]  # optional on input: the variant spec alone decides
        record["x-note"] = "hand 0 has an explicit deal, hand 1 its own seed, hand 2 the match seed"
        return record
    if name == "free-seeded-heuristic":
        # Default Free Clubs rules, three heuristic bots through the runner, every hand dealt from the match seed.
        match = play_bots("free", 0, ["heuristic"] * 3)
        return record_from_match(match, seats=HEURISTIC_SEATS, seed=0, seeded_hands=True)
    if name == "free-explicit-joker":
        # FC-8's option on, random play, explicit deals, seat 2 deals first; this seed has a Joker team that makes
        # its 10 tricks and one that fails (FC-4).
        match = play_random("free(no_spades_needs_a_trick=true)", 24, first_dealer=2, deal=_explicit_deal(24))
        return record_from_match(match, seats=RANDOM_SEATS)
    if name == "free-unfinished":
        # A random seat and two heuristic ones; two whole hands, then the third stops after its auction (3), the
        # Ten's discard (1), the pass before play (3) and two tricks (6), with two cards of the third trick played.
        match = play_bots(
            "free", 31, ["random", "heuristic", "heuristic"], first_dealer=1, hands=3, last_hand_actions=15
        )
        seats = [{"name": "you", "kind": "human"}, *HEURISTIC_SEATS[1:]]
        return record_from_match(match, seats=seats, seed=31, seeded_hands=True)
    if name == "partnership-seeded-tie":
        # Default rules, random play, every hand dealt from the match seed; after the tenth hand both partnerships
        # stand at 155, an exact tie at the target, so an eleventh hand decides the match (CP-4).
        match = play_random("partnership", 68)
        return record_from_match(match, seats=RANDOM4_SEATS, seed=68, seeded_hands=True)
    if name == "partnership-explicit-heuristic":
        # Heuristic partners (seats 0 and 2) against random ones, seat 3 deals first, every deal written out; the
        # heuristic partnership takes all 13 tricks of hand 3 (CP-3: 36 points).
        match = play_bots("partnership", 0, ["heuristic", "random", "heuristic", "random"], first_dealer=3)
        return record_from_match(match, seats=PARTNERSHIP_SEATS)
    if name == "partnership-unfinished":
        # partnership(target=100), seat 1 deals first; two whole hands, then the third (no pass, CP-2) stops in the
        # middle of its fourth trick.
        match = play_bots(
            "partnership(target=100)",
            5,
            ["random", "heuristic", "heuristic", "heuristic"],
            first_dealer=1,
            hands=3,
            last_hand_actions=14,
        )
        seats = [{"name": "you", "kind": "human"}, *({"name": f"heuristic {i}", "kind": "bot"} for i in (1, 2, 3))]
        return record_from_match(match, seats=seats, seed=5, seeded_hands=True)
    if name == "northstar-seeded-3p":
        # North Star's CLUBS, 3 players, random play, every round dealt from the match seed: round 2 is dealt from
        # the cards left undealt in round 1, round 3 from a full shuffle (NS-6); to the end at 50 (NS-7).
        match = play_random("northstar(players=3)", 50)
        return record_from_match(match, seats=RANDOM_SEATS, seed=50, seeded_hands=True)
    if name == "northstar-teams-explicit":
        # 6 players in two teams of three (NS-10) with double or nothing (NS-8) and wild 15s (NS-9), explicit deals,
        # seat 3 deals first; three whole rounds, then the match waits for the next deal.
        match = play_random(
            "northstar(players=6,teams=2x3,double_or_nothing=true,wild_fifteens=true)",
            61,
            first_dealer=3,
            hands=3,
            deal=_explicit_deal(61),
        )
        return record_from_match(match, seats=[{"name": f"random {i}", "kind": "bot"} for i in range(6)])
    if name == "northstar-crazy-unfinished":
        # Crazy CLUBS (NS-11) for 4 players, seat 2 deals first: two whole rounds (the second dealt from the 20
        # undealt cards and 20 shuffled-in discards, NS-6), the third stopped in the middle of a trick.
        match = play_random("northstar(crazy=true)", 44, first_dealer=2, hands=3, last_hand_actions=9)
        seats = [{"name": "you", "kind": "human"}, *({"name": f"random {i}", "kind": "bot"} for i in range(1, 4))]
        return record_from_match(match, seats=seats, seed=44, seeded_hands=True)
    if name == "northstar-2013-duel":
        # The 2013 edition's full shuffle every round (NS-6) for two players (NS-5), random play to the end.
        match = play_random("northstar-2013(players=2)", 2013)
        return record_from_match(match, seats=RANDOM_SEATS[:2], seed=2013, seeded_hands=True)
    raise KeyError(name)


WHIST_GOLDEN_NAMES = ["whist-seeded-draw", "whist-1997-explicit", "whist-unfinished", "whist-awaiting-deal"]
FREE_GOLDEN_NAMES = ["free-seeded-heuristic", "free-explicit-joker", "free-unfinished"]
PARTNERSHIP_GOLDEN_NAMES = ["partnership-seeded-tie", "partnership-explicit-heuristic", "partnership-unfinished"]
NORTHSTAR_GOLDEN_NAMES = [
    "northstar-seeded-3p",
    "northstar-teams-explicit",
    "northstar-crazy-unfinished",
    "northstar-2013-duel",
]
GOLDEN_NAMES = WHIST_GOLDEN_NAMES + FREE_GOLDEN_NAMES + PARTNERSHIP_GOLDEN_NAMES + NORTHSTAR_GOLDEN_NAMES


def golden_path(name: str) -> Path:
    """The file of a golden record."""
    return GOLDEN / f"{name}.record.json"


def expected_path(name: str) -> Path:
    """The file of a golden record's expected result."""
    return GOLDEN / f"{name}.expected.json"


def regenerate_golden() -> None:
    """Rewrite every golden record and its expected result (see the module docstring); not a test."""
    GOLDEN.mkdir(exist_ok=True)
    for name in GOLDEN_NAMES:
        record = build_golden(name)
        save_record(record, golden_path(name))
        expected_path(name).write_text(dumps_json(result_json(replay(record))), encoding="utf-8")


# -- golden records ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_replays_to_its_expected_result(name: str) -> None:
    result = replay(load_record(golden_path(name)))
    expected = json.loads(expected_path(name).read_text(encoding="utf-8"))
    assert result_json(result) == expected


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_is_what_the_generator_writes(name: str) -> None:
    """Seeded deals (Fisher-Yates on random.Random), the engine and the writer all reproduce the stored file."""
    assert dumps_record(build_golden(name)) == golden_path(name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_validates_against_the_json_schema(name: str) -> None:
    record = json.loads(golden_path(name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(record_schema()).validate(record)


def test_golden_records_cover_cw5_endings_and_unfinished_states() -> None:
    results = {name: json.loads(expected_path(name).read_text(encoding="utf-8")) for name in GOLDEN_NAMES}
    draw = results["whist-seeded-draw"]
    assert draw["over"] and draw["draw"] and draw["winners"] == []
    assert all(abs(t) >= 11 for t in draw["totals"])  # CW-5: all three at a target at once
    explicit = results["whist-1997-explicit"]
    assert explicit["over"] and not explicit["draw"]
    assert len(explicit["winners"]) == 2  # CW-5: everyone at a target wins
    assert any(explicit["totals"][s] <= -11 for s in explicit["winners"])  # CW-5: -11 or less wins too
    unfinished = results["whist-unfinished"]
    assert not unfinished["over"] and unfinished["to_act"] is not None and unfinished["legal"]
    assert "awaiting" not in unfinished and unfinished["hands"][-1]["complete"] is False
    waiting = results["whist-awaiting-deal"]
    assert waiting["awaiting"] == "deal" and waiting["to_act"] is None and waiting["legal"] == []
    assert waiting["options"]["target"] == 15


def test_cw5_hand_totals_rise_by_one_per_hand_in_golden_results() -> None:
    for name in WHIST_GOLDEN_NAMES:
        result = json.loads(expected_path(name).read_text(encoding="utf-8"))
        complete = [h for h in result["hands"] if h["complete"]]
        for i, hand in enumerate(complete, start=1):
            assert sum(hand["scores"]) == 1
            assert sum(hand["totals"]) == i
        assert sum(result["totals"]) == len(complete)


def test_free_golden_records_cover_fc4_joker_teams_fc5_ten_discards_and_unfinished_play() -> None:
    results = {name: json.loads(expected_path(name).read_text(encoding="utf-8")) for name in FREE_GOLDEN_NAMES}
    replays = {name: replay(load_record(golden_path(name))) for name in FREE_GOLDEN_NAMES}
    events = {name: [e for hand in replays[name].events for e in hand] for name in FREE_GOLDEN_NAMES}
    # FC-4: a Joker team, in the events and in the hand summaries; one of them makes its 10 tricks, one fails.
    joker_hands = [h for h in results["free-explicit-joker"]["hands"] if h["partner"] is not None]
    assert any(isinstance(e, AuctionWon) and e.partner is not None for e in events["free-explicit-joker"])
    assert {h["contract"]["made"] for h in joker_hands} == {True, False}
    assert all(h["contract"]["tricks_needed"] == 10 for h in joker_hands)
    # FC-5: a Ten whose suit held a card asked its player which card to discard (one card removed).
    for name in FREE_GOLDEN_NAMES:
        assert any(isinstance(e, HandicapResolved) and e.bid.rank == 10 and e.removed == 1 for e in events[name]), name
    # FC-9: the two whole matches end with one highest total at the target or more, and never a draw.
    for name in ["free-seeded-heuristic", "free-explicit-joker"]:
        result = results[name]
        top = max(result["totals"])
        assert result["over"] and not result["draw"] and top >= 250
        assert result["winners"] == [result["totals"].index(top)] and result["totals"].count(top) == 1
    assert results["free-explicit-joker"]["options"]["no_spades_needs_a_trick"] is True
    assert "seed" not in load_record(golden_path("free-explicit-joker"))
    # Unfinished: stopped in the middle of a trick of the third hand, with the seat to act and its legal cards.
    unfinished = results["free-unfinished"]
    assert not unfinished["over"] and "awaiting" not in unfinished
    assert unfinished["to_act"] is not None and unfinished["legal"]
    assert len(unfinished["hands"]) == 3 and unfinished["hands"][-1]["complete"] is False
    assert replays["free-unfinished"].match.phase == engine.Phase.PLAY


def test_free_golden_hand_totals_are_the_running_sums_of_the_hand_scores() -> None:
    for name in FREE_GOLDEN_NAMES:
        result = json.loads(expected_path(name).read_text(encoding="utf-8"))
        totals = [0, 0, 0]
        for hand in result["hands"]:
            if hand["complete"]:
                totals = [t + s for t, s in zip(totals, hand["scores"], strict=True)]
                assert hand["totals"] == totals
                assert sum(hand["tricks_won"]) <= 10
        assert result["totals"] == totals


# -- the schema ---------------------------------------------------------------------------------------------


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = record_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


SCHEMA_REJECTS = [
    "unknown-field.json",
    "missing-hands.json",
    "wrong-seat-count.json",
    "bad-deal-card.json",
    "no-deal-no-seed.json",
    "seeded-deal-extra-key.json",
    "wrong-version.json",
    "negative-seed.json",
    "negative-deal-seed.json",
    "upper-case-game.json",
    "upper-case-variant.json",
]


@pytest.mark.parametrize("filename", SCHEMA_REJECTS)
def test_schema_and_runtime_validator_agree_on_malformed_records(filename: str) -> None:
    record = json.loads((BAD / filename).read_text(encoding="utf-8"))
    assert not jsonschema.Draft202012Validator(record_schema()).is_valid(record)
    with pytest.raises(InvalidRecordError):
        validate_record(record)


# -- round trips ---------------------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    spec=st.sampled_from(
        ["whist", "whist-1997", "whist(target=3)", "whist(lead_after_exchange=left_of_last_exchanger)"]
    ),
    first_dealer=st.integers(min_value=0, max_value=2),
    seeded=st.booleans(),
    cut=st.one_of(st.none(), st.tuples(st.integers(min_value=1, max_value=4), st.integers(min_value=0, max_value=42))),
)
def test_round_trip_write_save_load_replay_gives_the_same_match(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    spec: str,
    first_dealer: int,
    seeded: bool,
    cut: tuple[int, int] | None,
) -> None:
    hands, last = cut if cut is not None else (None, None)
    match = play_random(spec, seed, first_dealer, hands=hands, last_hand_actions=last)
    record = record_from_match(match, seed=seed, seeded_hands=seeded)
    path = tmp_path_factory.mktemp("records") / "match.json"
    save_record(record, path)
    loaded = load_record(path)
    result = replay(loaded)
    assert result.match.totals == match.totals
    assert result.match.is_over == match.is_over
    assert result.match.to_act == match.to_act
    # Writing the replayed match again gives the very same record: nothing is lost either way.
    assert record_from_match(result.match, seed=seed, seeded_hands=seeded) == loaded
    assert all(("deal" in hand) is not seeded for hand in loaded["hands"])


def test_replayed_unfinished_match_can_be_played_on() -> None:
    record = load_record(golden_path("whist-unfinished"))
    match = replay(record).match
    legal = match.legal_actions()
    match.apply(legal[0])
    again = record_from_match(match, seats=record["seats"], seed=record["seed"], seeded_hands=True)
    assert again["hands"][-1]["actions"] == [*record["hands"][-1]["actions"], match.format_action(legal[0])]


def test_writer_refuses_seeded_hands_not_dealt_from_the_seed() -> None:
    match = play_random("whist", 5, hands=1)
    with pytest.raises(InvalidRecordError, match=r"hand 0 was not dealt from the match seed 6"):
        record_from_match(match, seed=6, seeded_hands=True)
    with pytest.raises(InvalidRecordError, match="need the match seed"):
        record_from_match(match, seeded_hands=True)


def test_load_record_reads_text_as_well_as_files() -> None:
    text = golden_path("whist-unfinished").read_text(encoding="utf-8")
    assert load_record(text) == loads_record(text) == load_record(golden_path("whist-unfinished"))


# -- malformed records ---------------------------------------------------------------------------------------


def base_record() -> dict[str, Any]:
    """A small valid record: one whole hand and the start of a second, from a match seed."""
    return copy.deepcopy(json.loads(golden_path("whist-unfinished").read_text(encoding="utf-8")))


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit that sets the value at a JSON path of a record."""

    def edit(record: dict[str, Any]) -> None:
        obj: Any = record
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value

    return edit


def _drop(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    """An edit that removes the field at a JSON path of a record."""

    def edit(record: dict[str, Any]) -> None:
        obj: Any = record
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]

    return edit


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("unknown top-level field", _set(["hnads"], []), "hnads: unknown field 'hnads'"),
    ("missing format", _drop(["format"]), "format: this required field is missing"),
    ("missing version", _drop(["version"]), "version: this required field is missing"),
    ("missing game", _drop(["game"]), "game: this required field is missing"),
    ("missing variant", _drop(["variant"]), "variant: this required field is missing"),
    ("missing seats", _drop(["seats"]), "seats: this required field is missing"),
    ("missing hands", _drop(["hands"]), "hands: this required field is missing"),
    ("wrong format", _set(["format"], "pbn"), "format: expected 'clubsuite-record'"),
    ("future version", _set(["version"], 2), "version: this clubsuite reads format version 1"),
    ("version as text", _set(["version"], "1"), "version:"),
    ("unknown game", _set(["game"], "bridge"), "game: unknown game or variant 'bridge'"),
    ("variant as game", _set(["game"], "whist-1997"), "game: 'whist-1997' is a variant of 'whist'"),
    ("bad variant spec", _set(["variant"], "whist(lead=left)"), "variant: unknown option 'lead'"),
    ("unreadable variant", _set(["variant"], "whist(("), "variant: cannot read the variant spec"),
    ("variant option out of range", _set(["variant"], "whist(target=0)"), "variant: option target=0 is out of range"),
    ("options not an object", _set(["options"], "whist"), "options: expected an object"),
    ("unknown option", _set(["options", "trumps"], "clubs"), "options.trumps: unknown option 'trumps'"),
    ("option disagrees (CW-5)", _set(["options", "target"], 9), "options.target: the record says 9"),
    ("option flag for number", _set(["options", "target"], True), "options.target: the record says true"),
    (
        "option disagrees (CW-3)",
        _set(["options", "lead_after_exchange"], "left_of_last_exchanger"),
        "options.lead_after_exchange",
    ),
    ("seats not a list", _set(["seats"], "you"), "seats: expected a list of 3 seat objects"),
    ("too few seats", _set(["seats"], [{"name": "a"}, {"name": "b"}]), "seats: the game has 3 seats"),
    ("seat not an object", _set(["seats", 1], "bob"), "seats[1]: expected an object"),
    ("seat without name", _set(["seats", 2], {"kind": "bot"}), "seats[2].name: this required field is missing"),
    ("seat blank name", _set(["seats", 0, "name"], "  "), "seats[0].name: expected a non-empty string"),
    ("seat bad kind", _set(["seats", 0, "kind"], "robot"), "seats[0].kind: expected one of human, bot"),
    ("seat unknown field", _set(["seats", 0, "elo"], 1500), "seats[0].elo: unknown field 'elo'"),
    ("first dealer out of range", _set(["first_dealer"], 3), "first_dealer: expected a seat number 0..2"),
    ("first dealer as flag", _set(["first_dealer"], False), "first_dealer: expected a seat number"),
    ("seed as text", _set(["seed"], "77"), "seed: expected a whole number"),
    ("negative match seed", _set(["seed"], -77), "seed: the match seed must not be negative, got the number -77"),
    ("negative deal seed", _set(["hands", 0, "deal"], {"seed": -1}), "hands[0].deal.seed: a deal seed must not be"),
    ("upper-case game", _set(["game"], "Whist"), "game: 'Whist' has upper case letters; game names are lower case"),
    ("upper-case variant", _set(["variant"], "WHIST"), "variant: the name 'WHIST' has upper case letters"),
    (
        "upper-case option value (CW-3)",
        _set(["variant"], "whist(lead_after_exchange=LAST_EXCHANGER)"),
        "variant: option lead_after_exchange=LAST_EXCHANGER: the value has upper case letters",
    ),
    ("option as an object", _set(["options", "target"], {"n": 11}), "options.target: expected a string, a whole"),
    ("option list of text", _set(["options", "target"], ["11"]), "options.target: expected a string, a whole"),
    ("option list for number", _set(["options", "target"], [11]), "options.target: the record says [11]"),
    ("hands not a list", _set(["hands"], {}), "hands: expected a list of hands"),
    ("hand not an object", _set(["hands", 1], ["keep"]), "hands[1]: expected an object"),
    ("hand without actions", _drop(["hands", 1, "actions"]), "hands[1].actions: this required field is missing"),
    ("hand unknown field", _set(["hands", 0, "dealer"], 1), "hands[0].dealer: unknown field 'dealer'"),
    ("actions not a list", _set(["hands", 0, "actions"], "keep keep"), "hands[0].actions: expected a list"),
    ("action not a string", _set(["hands", 0, "actions", 2], 7), "hands[0].actions[2]: expected an action"),
    ("action empty", _set(["hands", 1, "actions", 0], ""), "hands[1].actions[0]: expected an action"),
    ("seeded deal extra key", _set(["hands", 0, "deal"], {"seed": 1, "dealer": 0}), "hands[0].deal: a seeded deal"),
    ("seeded deal not a number", _set(["hands", 0, "deal"], {"seed": 1.5}), "hands[0].deal.seed: expected a whole"),
    ("explicit deal wrong shape", _set(["hands", 0, "deal"], {"hands": []}), "hands[0].deal: an explicit whist deal"),
    ("no deal and no seed", _drop(["seed"]), "hands[0].deal: this hand has no deal"),
    ("result not an object", _set(["result"], [1]), "result: expected an object"),
    ("result totals differ", _set(["result", "totals"], [9, 9, 9]), "result.totals: the record says [9, 9, 9]"),
    ("result hand differs", _set(["result", "hands", 0, "dealer"], 2), "result.hands[0].dealer: the record says 2"),
    ("result unknown field", _set(["result", "winner"], 1), "result.winner: the replay gives no such field"),
    ("result legal differs", _set(["result", "legal"], ["AS"]), "result.legal: the record says"),
    ("result hand count differs", _drop(["result", "hands", 0]), "result.hands: the record lists 2 entries but"),
]


@pytest.mark.parametrize(("kind", "edit", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_record_is_rejected_naming_the_field(
    kind: str, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    record = base_record()
    replay(record)  # the base is valid
    edit(record)
    before = copy.deepcopy(record)
    with pytest.raises(InvalidRecordError) as info:
        replay(record)
    assert message in str(info.value)
    assert record == before, "replay must not change the record it was given"
    if not kind.startswith("result"):
        with pytest.raises(InvalidRecordError):
            loads_record(json.dumps(record))


def test_loads_record_reports_bad_json_with_line_and_column() -> None:
    with pytest.raises(InvalidRecordError, match=r"not valid JSON: Expecting ':' delimiter at line 2, column 12"):
        loads_record('{\n  "format" "clubsuite-record"\n}')


def test_loads_record_refuses_duplicate_fields_and_non_standard_numbers() -> None:
    with pytest.raises(InvalidRecordError, match="'seed' appears twice"):
        loads_record('{"seed": 1, "seed": 2}')
    with pytest.raises(InvalidRecordError, match="NaN is not a JSON number"):
        loads_record('{"seed": NaN}')
    with pytest.raises(InvalidRecordError, match="a record is a JSON object, got a list"):
        loads_record("[]")


def test_load_record_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidRecordError, match=r"cannot read the record file '.*nope\.json': no such file"):
        load_record(tmp_path / "nope.json")


def test_extension_fields_are_kept_and_ignored() -> None:
    record = base_record()
    record["x-event"] = {"club": "anywhere"}
    record["seats"][0]["x-rating"] = 1500
    record["hands"][0]["x-comment"] = "a quiet hand"
    record["result"]["x-checked-by"] = "hand"
    assert result_json(replay(record))["totals"] == result_json(replay(base_record()))["totals"]


def test_options_and_result_are_optional_and_variant_names_are_accepted() -> None:
    record = json.loads(golden_path("whist-1997-explicit").read_text(encoding="utf-8"))
    del record["options"]
    del record["result"]
    record["variant"] = "whist-1997"
    result = result_json(replay(record))
    assert result["variant"] == "whist(lead_after_exchange=left_of_last_exchanger)"
    assert result["options"]["lead_after_exchange"] == "left_of_last_exchanger"


# -- replay errors: the rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filename", "fragments"),
    [
        ("illegal-cw1.json", ["hand 1, action 5 (overall 5), seat 3 plays 3H: 3H is illegal", "AH", "(CW-1)"]),
        ("illegal-cw2.json", ["hand 1, action 4 (overall 4), seat 2 plays 2C: 2C is illegal", "(CW-2)"]),
        ("illegal-not-in-hand.json", ["hand 1, action 4 (overall 4), seat 2 plays AH: AH is not in your hand"]),
        ("illegal-decision-in-play.json", ["hand 1, action 4 (overall 4), seat 2 chooses keep: keep is not a card"]),
        ("negative-seed.json", ["seed: the match seed must not be negative"]),
        ("negative-deal-seed.json", ["hands[0].deal.seed: a deal seed must not be negative"]),
        ("upper-case-game.json", ["game: 'WHIST' has upper case letters", "write 'whist'"]),
        ("upper-case-variant.json", ["variant: the name 'WHIST' has upper case letters", "write 'whist'"]),
        ("exchange-card.json", ["hand 1, action 2 (overall 2), seat 3 plays 10H", "(CW-4)"]),
        ("bad-notation.json", ["hand 1, action 4, seat 2: 'ZZ' is not a whist action", "(overall action 4)"]),
        ("incomplete-hand.json", ["hand 1 is not complete", "only the last hand may be unfinished"]),
        ("result-mismatch.json", ["result.winners: the record says [0] but the replay gives []"]),
        ("bad-variant.json", ["variant: unknown option 'lead'"]),
        ("unknown-field.json", ["hnads: unknown field 'hnads'"]),
        ("wrong-seat-count.json", ["seats: the game has 3 seats but the record lists 4"]),
        ("bad-deal-card.json", ["hands[0].deal: in the deal: '1H' is not a card"]),
        ("no-deal-no-seed.json", ["hands[0].deal: this hand has no deal"]),
        ("seeded-deal-extra-key.json", ['hands[0].deal: a seeded deal is {"seed": n} alone']),
        ("missing-hands.json", ["hands: this required field is missing"]),
        ("wrong-version.json", ["version: this clubsuite reads format version 1, got the number 2"]),
    ],
)
def test_bad_record_file_is_rejected_with_the_rule_and_place(filename: str, fragments: list[str]) -> None:
    text = (BAD / filename).read_text(encoding="utf-8")
    record = json.loads(text)
    before = copy.deepcopy(record)
    with pytest.raises(InvalidRecordError) as info:
        replay(record)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert record == before


def test_cw1_illegal_action_in_a_later_hand_names_hand_action_overall_and_seat() -> None:
    # Hand 0 is a whole random hand from the match seed (42 actions); hand 1 is the CW-1 position of illegal-cw1.json
    # moved to the seats that hold it when seat 0 deals hand 1 (first dealer 2).
    cw1 = json.loads((BAD / "illegal-cw1.json").read_text(encoding="utf-8"))
    match = play_random("whist", 31, first_dealer=2, hands=1)
    record = record_from_match(match, seed=31, seeded_hands=True)
    del record["result"]
    record["hands"].append({"deal": cw1["hands"][0]["deal"], "actions": cw1["hands"][0]["actions"]})
    assert len(record["hands"][0]["actions"]) == 42
    with pytest.raises(InvalidRecordError) as info:
        replay(record)
    message = str(info.value)
    assert message.startswith("hand 2, action 5 (overall 47), seat 3 plays 3H: 3H is illegal")
    assert "(CW-1)" in message


def test_the_record_checkers_refusals_count_hands_actions_and_seats_from_one_as_players_do() -> None:
    """A refusal names the hand, the action (within the hand and overall) and the seat as a person counts them, from
    1: the record's first hand, its fifth action, the engine's seat 2 are "hand 1, action 5 (overall 5), seat 3"."""
    for filename, wrong in (("illegal-cw1.json", "3H"), ("bad-notation.json", "ZZ")):
        record = json.loads((BAD / filename).read_text(encoding="utf-8"))
        actions = record["hands"][0]["actions"]
        j = actions.index(wrong)  # the record's index, from 0
        before = {k: v for k, v in record.items() if k != "result"}
        before["hands"] = [{**record["hands"][0], "actions": actions[:j]}]
        seat = replay(before).match.to_act  # the engine's seat to play it, from 0
        assert seat is not None
        with pytest.raises(InvalidRecordError) as info:
            replay(record)
        message = str(info.value)
        if wrong == "3H":
            assert message.startswith(f"hand 1, action {j + 1} (overall {j + 1}), seat {seat + 1} plays 3H"), message
        else:
            assert message.startswith(f"hand 1, action {j + 1}, seat {seat + 1}: 'ZZ'"), message
            assert f"(overall action {j + 1})" in message
        assert "hand 0" not in message


def test_cw2_leading_a_club_before_clubs_are_broken_is_refused_but_allowed_after() -> None:
    record = json.loads((BAD / "illegal-cw2.json").read_text(encoding="utf-8"))
    with pytest.raises(InvalidRecordError, match=r"\(CW-2\)"):
        replay(record)
    # Leading one of its spades instead is legal.
    record["hands"][0]["actions"][3] = "KS"
    assert replay(record).match.to_act == 2


def test_cw5_no_hand_may_follow_the_end_of_the_match() -> None:
    record = json.loads(golden_path("whist-seeded-draw").read_text(encoding="utf-8"))
    del record["result"]
    record["hands"].append({"actions": []})
    n = len(record["hands"]) - 1
    with pytest.raises(InvalidRecordError, match=rf"hand {n + 1}: the match ended after hand {n}"):
        replay(record)


def test_no_action_may_follow_the_end_of_a_hand() -> None:
    record = base_record()
    del record["result"]
    record["hands"][0]["actions"].append("AS")
    overall = len(record["hands"][0]["actions"]) - 1
    with pytest.raises(InvalidRecordError, match=rf"hand 1, action 43 \(overall {overall + 1}\): 'AS' comes after"):
        replay(record)


def test_last_hand_may_stop_anywhere_even_before_its_first_action() -> None:
    record = base_record()
    del record["result"]
    record["hands"][-1]["actions"] = []
    data = result_json(replay(record))
    assert data["to_act"] == (data["hands"][-1]["dealer"] + 1) % 3  # CW-4: the dealer's left decides first
    assert data["legal"] == ["keep", "exchange"]
    record["hands"] = []
    data = result_json(replay(record))
    assert data["awaiting"] == "deal" and data["hands"] == [] and data["to_act"] is None


# -- reading any input: a record or an InvalidRecordError, never another exception --------------------------


def _unseeded_base() -> dict[str, Any]:
    """The base record without its result, so that its seeds may be changed and it still checks."""
    record = base_record()
    del record["result"]
    return record


def _nested(levels: int) -> Any:
    """``levels`` lists inside one another, the innermost empty."""
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_whole_number_longer_than_the_digit_limit_is_refused_not_a_crash() -> None:
    # Python refuses to read an integer of more than 4300 digits with a bare ValueError; a record says so itself.
    record = _unseeded_base()
    record["seed"] = int("9" * MAX_DIGITS)
    assert loads_record(json.dumps(record))["seed"] == record["seed"]  # exactly at the limit: read as it is
    text = json.dumps(record).replace(f'"seed": {record["seed"]}', '"seed": ' + "9" * 5000)
    with pytest.raises(InvalidRecordError, match=r"a whole number of 5000 digits .*at most 4300 digits"):
        loads_record(text, "standard input")
    with pytest.raises(InvalidRecordError, match=r"^standard input cannot be read"):
        loads_record(text, "standard input")
    negative = json.dumps(record).replace(f'"seed": {record["seed"]}', '"seed": -' + "1" * 4301)
    with pytest.raises(InvalidRecordError, match="4301 digits"):
        loads_record(negative)


def test_whole_number_longer_than_the_digit_limit_is_refused_in_a_record_built_in_python() -> None:
    record = _unseeded_base()
    record["first_dealer"] = 10**5000
    with pytest.raises(InvalidRecordError, match=r"first_dealer: a whole number of more than 4300 digits"):
        replay(record)
    record["first_dealer"] = 10**25
    with pytest.raises(
        InvalidRecordError, match=r"first_dealer: expected a seat number 0\.\.2, got a whole number of 26"
    ):
        replay(record)


def test_number_in_the_variant_spec_longer_than_the_digit_limit_is_refused() -> None:
    record = _unseeded_base()
    record["variant"] = "whist(target=" + "9" * 5000 + ")"
    with pytest.raises(InvalidRecordError, match=r"variant: the spec holds a number of 5000 digits"):
        replay(record)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' * 100_000, '{"x-a": ' + "[" * 100_000])
def test_json_nested_far_too_deep_is_refused_not_a_recursion_error(text: str) -> None:
    with pytest.raises(InvalidRecordError, match=r"^the record cannot be read: lists and objects are nested"):
        loads_record(text)


def test_nesting_deeper_than_the_limit_is_refused_naming_the_field() -> None:
    record = _unseeded_base()
    # The record object is level 1, so MAX_DEPTH - 1 lists in an extension field is exactly the limit.
    record["x-deep"] = _nested(MAX_DEPTH - 1)
    assert loads_record(json.dumps(record))["x-deep"] == record["x-deep"]
    record["x-deep"] = _nested(MAX_DEPTH)
    with pytest.raises(
        InvalidRecordError, match=rf"x-deep\[0\]\[0\]\.\.\.: lists and objects are nested more than {MAX_DEPTH}"
    ):
        loads_record(json.dumps(record))


def test_deep_extension_field_of_a_seat_is_refused_before_the_result_copies_it() -> None:
    # The result copies the seats; 900 levels would exceed Python's recursion limit there.
    record = _unseeded_base()
    record["seats"][0]["x-history"] = _nested(900)
    with pytest.raises(InvalidRecordError, match=r"seats\[0\]\.x-history\.\.\.: lists and objects are nested"):
        result_json(replay(record))


def test_lone_surrogate_in_a_string_is_refused_naming_the_field() -> None:
    text = json.dumps(_unseeded_base()).replace('"name": "you"', '"name": "y\\udcffu"')
    with pytest.raises(InvalidRecordError, match=r"seats\[0\]\.name: the text holds the lone surrogate \\udcff"):
        loads_record(text)
    record = _unseeded_base()
    record["x-\ud800"] = 1
    with pytest.raises(InvalidRecordError, match=r"x-\\ud800: the text holds the lone surrogate \\ud800"):
        replay(record)


def test_record_built_in_python_with_a_key_that_is_not_a_string_is_refused() -> None:
    record: dict[Any, Any] = _unseeded_base()
    record["options"][1] = 2
    with pytest.raises(InvalidRecordError, match=r"options: the key 1 is not a string"):
        replay(record)


def test_record_file_with_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    plain = golden_path("whist-unfinished").read_bytes()
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + plain)
    expected = load_record(golden_path("whist-unfinished"))
    assert load_record(path) == expected
    assert loads_record(b"\xef\xbb\xbf" + plain) == expected
    assert loads_record("\ufeff" + plain.decode("utf-8")) == expected
    assert load_record("\ufeff" + plain.decode("utf-8")) == expected  # JSON text, not a file name


def test_record_file_that_is_not_utf8_is_refused_with_the_place_of_the_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    text = golden_path("whist-unfinished").read_text(encoding="utf-8").replace('"you"', '"y\u00f6u"')
    path.write_bytes(text.encode("latin-1"))
    line = text[: text.index("y\u00f6u")].count("\n") + 1
    with pytest.raises(InvalidRecordError, match=rf"latin1\.json' is not UTF-8 text: the byte 0xf6 at line {line},"):
        load_record(path)


def test_text_with_bytes_read_as_surrogates_is_refused_as_not_utf8() -> None:
    # What Python's reader of standard input gives for bytes that are not UTF-8 in some locales.
    text = b'{\n  "format": "\xff"\n}'.decode("utf-8", "surrogateescape")
    with pytest.raises(InvalidRecordError, match=r"standard input is not UTF-8 text: at line 2, column 14"):
        loads_record(text, "standard input")


def test_record_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidRecordError, match=r"cannot read the record file '.*': it is a folder"):
        load_record(tmp_path)


def test_record_file_that_may_not_be_read_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Faked, because a test run by the superuser may read any file.
    path = tmp_path / "secret.json"
    path.write_text("{}", encoding="utf-8")

    real_open = os.open

    def refuse(name: Any, flags: int, *args: Any) -> int:
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(InvalidRecordError, match=r"cannot read the record file '.*secret\.json': permission denied"):
        load_record(path)


def test_record_file_name_with_a_nul_character_is_refused() -> None:
    with pytest.raises(InvalidRecordError, match=r"a file name cannot hold a NUL character"):
        load_record("game\0.json")


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from([-1, "WHIST", "\udcff", "keep", "10H", {"seed": -3}, {"seed": 2}])
    | st.just(4400).map(lambda digits: 10**digits),  # built when drawn: such a number has no repr
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
RECORD_PLACES: list[list[Any]] = [
    ["format"],
    ["version"],
    ["game"],
    ["variant"],
    ["options"],
    ["options", "target"],
    ["options", "lead_after_exchange"],
    ["seats"],
    ["seats", 0],
    ["seats", 1, "name"],
    ["seats", 2, "kind"],
    ["first_dealer"],
    ["seed"],
    ["hands"],
    ["hands", 0],
    ["hands", 0, "deal"],
    ["hands", 1, "actions"],
    ["hands", 1, "actions", 0],
    ["result"],
    ["result", "totals"],
    ["x-note"],
]


@settings(max_examples=150, deadline=None)
@given(place=st.sampled_from(RECORD_PLACES), value=JSON_VALUES)
def test_any_value_in_any_field_gives_a_replay_or_an_invalid_record_error(place: list[Any], value: Any) -> None:
    record = base_record()
    _set(place, value)(record)
    with contextlib.suppress(InvalidRecordError):
        result_json(replay(record))


@settings(max_examples=150, deadline=None)
@given(position=st.integers(min_value=0, max_value=10**6), junk=st.binary(min_size=1, max_size=4))
def test_any_corrupted_file_gives_a_record_or_an_invalid_record_error(position: int, junk: bytes) -> None:
    data = golden_path("whist-awaiting-deal").read_bytes()
    at = position % len(data)
    with contextlib.suppress(InvalidRecordError):
        replay(loads_record(data[:at] + junk + data[at + len(junk) :]))


# -- seeds ------------------------------------------------------------------------------------------------------


def test_negative_deal_seed_is_refused_because_it_deals_what_its_positive_value_deals() -> None:
    info, _ = resolve("whist")
    assert info.deal_from_seed(-5, 0) == info.deal_from_seed(5, 0)  # why a negative seed may not be written
    record = _unseeded_base()
    record["hands"] = [{"deal": {"seed": 5}, "actions": []}]
    assert replay(record).match.hands[0].deal == info.deal_from_seed(5, 0)
    record["hands"][0]["deal"] = {"seed": -5}
    with pytest.raises(InvalidRecordError, match=r"hands\[0\]\.deal\.seed: a deal seed must not be negative"):
        replay(record)


def test_negative_match_seed_is_refused_by_the_reader_and_the_writer() -> None:
    record = _unseeded_base()
    record["seed"] = -77
    with pytest.raises(InvalidRecordError, match=r"in the record, seed: the match seed must not be negative"):
        validate_record(record)
    match = play_random("whist", 5, hands=1)
    with pytest.raises(InvalidRecordError, match=r"the match seed must be a whole number from 0 up, got -5"):
        record_from_match(match, seed=-5)
    assert record_from_match(match, seed=0)["seed"] == 0  # zero is a seed like any other


def test_schema_refuses_negative_seeds_as_the_reader_does() -> None:
    validator = jsonschema.Draft202012Validator(record_schema())
    record = _unseeded_base()
    assert validator.is_valid(record)
    record["seed"] = -1
    assert not validator.is_valid(record)
    record["seed"] = 77
    record["hands"][0]["deal"] = {"seed": -1}
    assert not validator.is_valid(record)


# -- names are lower case ---------------------------------------------------------------------------------------


def test_game_and_variant_names_in_upper_case_are_refused_alike() -> None:
    # The spec reader accepts WHIST (it lowers the name); a record does not, for game and variant alike.
    assert resolve("WHIST")[0].name == "whist"
    for field, message in [
        ("game", "game: 'WHIST' has upper case"),
        ("variant", "variant: the name 'WHIST' has upper"),
    ]:
        record = _unseeded_base()
        record[field] = "WHIST"
        with pytest.raises(InvalidRecordError, match=message) as info:
            replay(record)
        assert "lower case" in str(info.value)
    record = _unseeded_base()
    record["variant"] = "Whist-1997"
    with pytest.raises(
        InvalidRecordError, match=r"variant: the name 'Whist-1997' has upper case letters.*'whist-1997'"
    ):
        replay(record)


def test_schema_refuses_upper_case_game_and_variant_names() -> None:
    validator = jsonschema.Draft202012Validator(record_schema())
    record = _unseeded_base()
    for field in ("game", "variant"):
        changed = dict(record, **{field: "WHIST"})
        assert not validator.is_valid(changed)
    assert validator.is_valid(dict(record, variant="whist-1997(target=9)"))


# -- options that are tables of numbers -------------------------------------------------------------------------


class _Mode(enum.StrEnum):
    """An enum option of the made-up game below."""

    PLAIN = "plain"
    DOUBLED = "doubled"


@dataclasses.dataclass(frozen=True, kw_only=True)
class _TableOptions:
    """Made-up rules options with a table of numbers, the form of North Star's club_points (NS-2)."""

    club_points: tuple[int, ...] = option(
        (3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1), "points of clubs 1..15", "NS-2"
    )
    mode: _Mode = option(_Mode.PLAIN, "a named value")
    target: int = option(50, "a number")
    double: bool = option(False, "a flag")


def test_options_json_writes_a_table_option_as_a_list_of_whole_numbers() -> None:
    values = options_json(_TableOptions(club_points=(5, 4, 1)))
    assert values == {"club_points": [5, 4, 1], "mode": "plain", "target": 50, "double": False}
    assert json.loads(json.dumps(values)) == values
    option_value = jsonschema.Draft202012Validator(record_schema()["$defs"]["option_value"])
    for value in values.values():
        assert option_value.is_valid(value)
    for bad in ([1, "2"], [1.5], [True], {"a": 1}, None):
        assert not option_value.is_valid(bad)


@pytest.fixture
def table_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """A made-up game with a table option, registered for one test: whist's play with ``_TableOptions``."""
    whist, _ = resolve("whist")
    info = dataclasses.replace(
        whist,
        name="tablewhist",
        options_class=_TableOptions,
        variants={},
        new_match=lambda options, first_dealer=0: whist.new_match(None, first_dealer),
    )
    monkeypatch.setitem(engine._REGISTRY, info.name, info)
    return info.name


def _table_record(game: str, variant: str, club_points: Any) -> dict[str, Any]:
    """A record of the made-up game with no hands, stating ``club_points`` in ``options``."""
    return {
        "format": "clubsuite-record",
        "version": 1,
        "game": game,
        "variant": variant,
        "options": {"club_points": club_points},
        "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "hands": [],
    }


def test_ns2_table_option_in_options_is_compared_with_the_variant(table_game: str) -> None:
    default = [3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1]
    validate_record(_table_record(table_game, table_game, default))
    for wrong in (default[:-1], [*default[:-1], 2], list(reversed(default))):
        with pytest.raises(InvalidRecordError, match=re.escape(f"options.club_points: the record says {wrong}")):
            validate_record(_table_record(table_game, table_game, wrong))
    for not_numbers in (["3"] * 15, [True, *default[1:]], [3.0, *default[1:]]):
        with pytest.raises(InvalidRecordError, match=r"options\.club_points: expected a string, a whole number"):
            validate_record(_table_record(table_game, table_game, not_numbers))


def test_ns2_table_option_set_in_the_variant_spec_with_slashes(table_game: str) -> None:
    checked = check_record(_table_record(table_game, f"{table_game}(club_points=5/4/1)", [5, 4, 1]))
    assert checked.options.club_points == (5, 4, 1)
    assert checked.options_json["club_points"] == [5, 4, 1]
    with pytest.raises(InvalidRecordError, match=r"options\.club_points: the record says \[5, 4, 2\]"):
        validate_record(_table_record(table_game, f"{table_game}(club_points=5/4/1)", [5, 4, 2]))


# -- every illegal action cites its rule ------------------------------------------------------------------------

ILLEGAL_ACTION = re.compile(r"^hand \d+, action \d+ \(overall \d+\), seat \d+ (plays|chooses) \S+: ")
RULE_REFERENCE = re.compile(r"\((?:[A-Z]{2}-\d+)\)|\brule\b")


def test_every_illegal_action_record_gives_a_message_citing_a_rule() -> None:
    illegal: dict[str, str] = {}
    for path in sorted(BAD.glob("*.json")):
        try:
            replay(json.loads(path.read_text(encoding="utf-8")))
        except (InvalidRecordError, json.JSONDecodeError) as exc:
            if ILLEGAL_ACTION.match(str(exc)):
                illegal[path.name] = str(exc)
    assert {"illegal-cw1.json", "illegal-cw2.json", "exchange-card.json", "illegal-not-in-hand.json"} <= set(illegal)
    assert "illegal-decision-in-play.json" in illegal
    for name, message in illegal.items():
        assert RULE_REFERENCE.search(message), f"{name}: {message}"


# -- the documentation's examples -----------------------------------------------------------------------------


def test_every_record_example_in_the_docs_replays_and_fits_the_schema() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    records = [json.loads(b) for b in blocks if '"clubsuite-record"' in b]
    assert len(records) >= 2
    validator = jsonschema.Draft202012Validator(record_schema())
    for record in records:
        validator.validate(record)
        replay(record)


def test_seed_derivation_matches_the_documented_example() -> None:
    # docs/records.md works through hand 0 of match seed 42 with seat 0 dealing.
    assert hand_seed(42, 0) == 218365657329900077 == 0x060F94D11896345B >> 1
    info, _ = resolve("whist")
    deal = info.deal_from_seed(hand_seed(42, 0), 0)
    assert "JD" in str(deal.hands[1]).split()
    assert "6S" in str(deal.hands[2]).split()
    assert "7H" in str(deal.hands[0]).split()
    assert "3S" in str(deal.bid).split()
