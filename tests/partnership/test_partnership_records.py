"""Match records of Clubs (partnership): what the golden records cover, round trips, the deal form and the
seeded deal as documented, and records that break a rule."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from clubsuite.bots import make_bot
from clubsuite.cards import card_at
from clubsuite.errors import InvalidRecordError
from clubsuite.games.partnership import PartnershipDeal, PartnershipMatch
from clubsuite.games.partnership.match import CORE as _CORE
from clubsuite.games.partnership.match import CompiledPartnershipMatch as _Compiled
from clubsuite.records import (
    check_record,
    load_record,
    loads_record,
    record_from_match,
    record_schema,
    replay,
    result_json,
    save_record,
)
from clubsuite.runner import play_match
from compiled_match_helpers import on_each_match_class

_each_match_class = on_each_match_class(globals(), "PartnershipMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

GOLDEN = Path(__file__).parent.parent / "golden"
NAMES = ["partnership-seeded-tie", "partnership-explicit-heuristic", "partnership-unfinished"]


def expected(name: str) -> dict[str, Any]:
    """The expected result of a golden record."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    return data


def test_cp4_golden_tie_at_150_plays_an_eleventh_hand() -> None:
    result = expected("partnership-seeded-tie")
    totals = [h["totals"] for h in result["hands"]]
    assert totals[9][0] == totals[9][1] >= 150  # CP-4: an exact tie at the target, so no winner yet
    assert len(totals) == 11 and result["over"] and not result["draw"]
    top = max(result["team_totals"])
    assert result["winners"] == ([0, 2] if result["team_totals"][0] == top else [1, 3])
    assert "seed" in load_record(GOLDEN / "partnership-seeded-tie.record.json")


def test_cp2_cp3_golden_records_show_the_pass_cycle_the_ruby_dame_and_a_sweep() -> None:
    for name in NAMES:
        result = expected(name)
        cycle = ["left", "right", "none"]
        assert [h["pass"] for h in result["hands"]] == [cycle[i % 3] for i in range(len(result["hands"]))]
        running = [0, 0]
        for hand in result["hands"]:
            if not hand["complete"]:
                continue
            team = hand["team_scores"]
            assert sum(team) in (31, 36)  # CP-3
            assert sum(line["ruby_dame"] for line in hand["team_points"]) == 5
            assert hand["scores"] == team * 2
            running = [running[0] + team[0], running[1] + team[1]]
            assert hand["totals"] == running * 2
        assert result["team_totals"] == running
    heuristic = expected("partnership-explicit-heuristic")
    assert [36, 0] in [h["team_scores"] for h in heuristic["hands"]]  # CP-3: all 13 tricks, 31 + 5
    assert heuristic["winners"] == [0, 2]
    assert "seed" not in load_record(GOLDEN / "partnership-explicit-heuristic.record.json")


def test_golden_unfinished_record_stops_in_play_with_the_seat_to_act_and_its_legal_cards() -> None:
    result = expected("partnership-unfinished")
    assert not result["over"] and "awaiting" not in result
    assert result["to_act"] is not None and result["legal"]
    assert result["hands"][-1]["complete"] is False and result["hands"][-1]["pass"] == "none"
    match = replay(load_record(GOLDEN / "partnership-unfinished.record.json")).match
    while match.current is not None:  # the replayed match can be played on
        match.apply(match.legal_actions()[0])
    assert match.hands[-1].is_over


def test_round_trip_write_save_load_replay_gives_the_same_match(tmp_path: Path) -> None:
    match = PartnershipMatch(first_dealer=2)
    bots = [make_bot(name, "partnership") for name in ("heuristic", "random", "heuristic", "random")]
    play_match(match, bots, 12, bot_rng=random.Random(3), max_hands=4)
    for seeded in (False, True):
        record = record_from_match(match, seed=12, seeded_hands=seeded)
        path = tmp_path / f"game-{seeded}.json"
        save_record(record, path)
        again = replay(load_record(path))
        assert result_json(again) == record["result"]
        assert again.match.team_totals == match.team_totals
        jsonschema.Draft202012Validator(record_schema()).validate(json.loads(path.read_text(encoding="utf-8")))


def test_deal_from_a_seed_is_the_documented_fisher_yates_deal_from_the_dealers_left() -> None:
    # docs/records.md: hand 0 of match seed 42 has the hand seed 218365657329900077, whose shuffled list begins
    # 22, 43, 31, 40 (JD, 6S, 7H, 3S); card k goes to seat (dealer + 1 + k % 4) % 4.
    seed = 218365657329900077
    for dealer in range(4):
        deal = PartnershipDeal.from_seed(seed, dealer)
        for k, index in enumerate((22, 43, 31, 40)):
            assert card_at(index) in deal.hands[(dealer + 1 + k) % 4]
    deal = PartnershipDeal.from_seed(seed, 0)
    assert PartnershipDeal.from_json(deal.to_json()) == deal
    assert [len(h) for h in deal.hands] == [13] * 4


@pytest.mark.parametrize(
    ("deal", "fragment"),
    [
        ({"hands": ["AC"] * 4}, "seat 0's hand has 1 cards"),
        ({"hands": ["2C 3C"]}, "four strings of cards"),
        ({"hands": [], "bid": ""}, 'an explicit partnership deal is {"hands"'),
        ({"hands": ["ZZ"] * 4}, "'ZZ' is not a card"),
    ],
)
def test_a_malformed_explicit_deal_is_refused_naming_the_field(deal: Any, fragment: str) -> None:
    record = record_from_match(PartnershipMatch())
    record["hands"] = [{"deal": deal, "actions": []}]
    del record["result"]
    with pytest.raises(InvalidRecordError) as info:
        check_record(record)
    assert "hands[0].deal" in str(info.value) and fragment in str(info.value)


def test_a_record_with_three_seats_is_refused_by_the_reader_and_the_schema() -> None:
    record = record_from_match(PartnershipMatch())
    record["seats"] = record["seats"][:3]
    del record["result"]
    with pytest.raises(InvalidRecordError, match="the game has 4 seats but the record lists 3"):
        check_record(record)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(record_schema()).validate(record)


def test_cp1_an_off_suit_card_in_a_record_is_refused_with_the_rule() -> None:
    match = PartnershipMatch(first_dealer=1)
    for _ in range(2):
        match.deal(rng=random.Random(len(match.hands)))
        while match.current is not None:
            match.apply(match.legal_actions()[0])
    match.deal(rng=random.Random(9))  # hand 2: no pass
    match.apply(match.legal_actions()[0])
    follower = match.hands[-1].hands[match.to_act]  # type: ignore[index]
    legal = int(match.legal_actions())
    off_suit = [card_at(i) for i in range(52) if follower >> i & 1 and not legal >> i & 1]
    record = record_from_match(match)
    del record["result"]
    assert off_suit, "the follower of this deal holds cards of other suits than the one led"
    record["hands"][2]["actions"].append(str(off_suit[0]))
    with pytest.raises(InvalidRecordError) as info:
        replay(loads_record(json.dumps(record)))
    message = str(info.value)
    assert message.startswith("hand 3, action 2 (overall 114)")
    assert "(rule: a player must follow the suit led if able)" in message
