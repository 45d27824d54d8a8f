"""Tests of the Free Clubs balance report: the hand facts, the counts against a hand tally, and determinism."""

from __future__ import annotations

import pickle
import random
from collections import Counter, defaultdict
from typing import Any

import pytest

from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.free import FreeDeal, FreeHand, FreeMatch
from clubsuite.games.free.report import FreeHandFacts, free_report, hand_facts, tally
from clubsuite.runner import play_match
from clubsuite.sim import simulate, wilson_interval
from clubsuite.sim.report import Points, Rate

RANDOMS = ["random", "random", "random"]
TIER_OF_RANK = {"10": "10", "J": "J", "Q": "Q", "K": "K"}


def played_matches(spec: str, n: int, seed: int) -> list[FreeMatch]:
    """Match 0..n-1 of a simulation of random bots, played here again from their match seeds."""
    result = simulate(spec, RANDOMS, n, seed=seed)
    info, options = resolve(spec)
    matches = []
    for outcome in result.outcomes:
        match = info.new_match(options, 0)
        play_match(match, [make_bot("random", "free") for _ in range(3)], outcome.match_seed)
        matches.append(match)
    return matches


def tier_of(card: str) -> str:
    """The auction tier of a bid card in notation: ``10``, ``J``, ``Q``, ``K`` or ``Joker`` (FC-3)."""
    return "Joker" if card.startswith("JK") else TIER_OF_RANK[card[:-1]]


@pytest.mark.parametrize("spec", ["free", "free(no_spades_needs_a_trick=true)"])
def test_fc4_fc8_summary_contract_and_bonus_seats_add_up_to_the_scores(spec: str) -> None:
    # Every point of a hand is explained by the summary: 10 per trick, -50 for each team member of a broken
    # contract (FC-4), and the bonuses at the seats the summary names (FC-8).
    seen: Counter[str] = Counter()
    for match in played_matches(spec, 6, seed=4):
        for hand in match.hands:
            s = hand.summary()
            team = [s["winner"]] if s["partner"] is None else [s["winner"], s["partner"]]
            contract, bonuses = s["contract"], s["bonuses"]
            assert contract["team"] == team
            assert contract["tricks_needed"] == (7 if len(team) == 1 else 10)
            assert contract["tricks_taken"] == sum(s["tricks_won"][t] for t in team)
            assert contract["made"] == (contract["tricks_taken"] >= contract["tricks_needed"])
            assert s["top_tier"] == tier_of(s["bids"][-1]["card"])
            assert [b["card"] for b in s["bids"]] == [a for a in s["auction"] if a != "pass"]
            assert s["bids"][0] == {"seat": s["bids"][0]["seat"], "card": "10S"}
            diamonds = bonuses["diamonds_taken"]
            top = max(diamonds)
            tied = [seat for seat in range(3) if top > 0 and diamonds[seat] == top]
            for seat in range(3):
                expected = 10 * s["tricks_won"][seat]
                expected -= 50 if seat in team and not contract["made"] else 0
                expected += 20 if bonuses["most_diamonds"] == seat else 0
                expected += 10 if seat in bonuses["diamonds_tie"] else 0
                expected += 10 if bonuses["ace_of_hearts"] == seat else 0
                expected += 5 if seat in bonuses["no_spades"] else 0
                assert s["scores"][seat] == expected
            assert (bonuses["most_diamonds"] is not None) == (len(tied) == 1)
            assert bonuses["diamonds_tie"] == (tied if len(tied) > 1 else [])
            seen["tie"] += len(tied) > 1
            seen["joker"] += len(team) == 2
            seen["broken"] += not contract["made"]
    # The sample exercises the cases that matter.
    assert seen["tie"] and seen["joker"] and seen["broken"]


def test_summary_before_the_auction_ends_has_no_contract_or_bonuses() -> None:
    hand = FreeHand(FreeDeal.random(random.Random(1), 0), 0)
    s = hand.summary()
    assert s["bids"] == [] and s["top_tier"] is None and s["contract"] is None and s["bonuses"] is None
    hand.apply(hand.legal_actions()[0])  # type: ignore[index]
    assert hand.summary()["bids"][0]["card"] == "10S"
    assert hand.summary()["top_tier"] == "10"
    with pytest.raises(InvalidOptionsError, match="only once it is scored"):
        hand_facts(hand)


def expected_tally(matches: list[FreeMatch]) -> dict[str, Any]:
    """The report's counts computed directly from the hands' summaries, without the report module."""
    by_tier: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_cards: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    points: dict[str, list[int]] = defaultdict(list)
    bonus: Counter[str] = Counter()
    hands = 0
    for match in matches:
        for hand in match.hands:
            s = hand.summary()
            hands += 1
            w, p, sc = s["winner"], s["partner"], s["scores"]
            team = {w} if p is None else {w, p}
            made = s["contract"]["made"]
            tier = tier_of(s["bids"][-1]["card"])
            n_bid = sum(1 for b in s["bids"] if b["seat"] in team)
            for key, table in ((tier, by_tier), (str(n_bid), by_cards)):
                table[key][0] += made
                table[key][1] += 1
            others = [seat for seat in range(3) if seat not in team]
            if p is None:
                points["lone_winner"].append(sc[w])
                points["lone_defender"] += [sc[o] for o in others]
            else:
                points["joker_bidder"].append(sc[w])
                points["joker_partner"].append(sc[p])
                points["joker_outsider"] += [sc[o] for o in others]
            diamonds = s["bonuses"]["diamonds_taken"]
            leaders = [seat for seat in range(3) if diamonds[seat] == max(diamonds)]
            if max(diamonds) == 0:
                bonus["no_diamonds"] += 1
            elif len(leaders) == 1:
                bonus["most_diamonds"] += 1
            else:
                bonus["diamonds_tie"] += 1
            bonus["ace_of_hearts"] += s["bonuses"]["ace_of_hearts"] is not None
            bonus["no_spades"] += bool(s["bonuses"]["no_spades"])
            bonus["no_spades_players"] += len(s["bonuses"]["no_spades"])
    return {
        "hands": hands,
        "by_tier": dict(by_tier),
        "by_cards": dict(by_cards),
        "points": dict(points),
        "bonus": bonus,
    }


def test_report_counts_equal_a_tally_made_by_hand_from_the_hand_summaries() -> None:
    result = simulate("free", RANDOMS, 6, seed=21, hand_facts=True)
    report = free_report(result).to_json()
    want = expected_tally(played_matches("free", 6, seed=21))
    assert report["hands"] == want["hands"] == result.hands
    for tier in ("10", "J", "Q", "K", "Joker"):
        got = report["contract_by_top_tier"][tier]
        assert [got["count"], got["trials"]] == want["by_tier"].get(tier, [0, 0])
    assert {k: [v["count"], v["trials"]] for k, v in report["contract_by_cards_bid"].items()} == want["by_cards"]
    joker = want["by_tier"].get("Joker", [0, 0])
    assert [report["joker_team_took_all_10"]["count"], report["joker_team_took_all_10"]["trials"]] == joker
    lone = [sum(want["by_tier"].get(t, [0, 0])[i] for t in ("10", "J", "Q", "K")) for i in (0, 1)]
    assert [report["lone_winner_made_7"]["count"], report["lone_winner_made_7"]["trials"]] == lone
    for role, samples in want["points"].items():
        got = report["points_per_hand_by_role"][role]
        assert got["samples"] == len(samples)
        assert got["total"] == sum(samples)
        assert got["mean"] == pytest.approx(sum(samples) / len(samples))
    assert sum(r["samples"] for r in report["points_per_hand_by_role"].values()) == 3 * want["hands"]
    for key in ("most_diamonds", "diamonds_tie", "no_diamonds", "ace_of_hearts", "no_spades"):
        assert report["bonuses"][key]["count"] == want["bonus"][key]
        assert report["bonuses"][key]["trials"] == want["hands"]
    assert report["no_spades_players"]["count"] == want["bonus"]["no_spades_players"]
    assert report["no_spades_players"]["trials"] == 3 * want["hands"]
    # The three diamond outcomes split the hands between them (FC-8).
    split = ("most_diamonds", "diamonds_tie", "no_diamonds")
    assert sum(report["bonuses"][k]["count"] for k in split) == want["hands"]


def test_report_is_identical_with_one_or_two_workers() -> None:
    one = free_report(simulate("free", RANDOMS, 8, seed=3, hand_facts=True, workers=1))
    two = free_report(simulate("free", RANDOMS, 8, seed=3, hand_facts=True, workers=2))
    assert one == two
    assert one.to_json() == two.to_json()
    assert one.format_text() == two.format_text()


def test_hand_facts_travel_small_and_picklable_with_the_outcome() -> None:
    result = simulate("free", RANDOMS, 2, seed=0, hand_facts=True)
    for outcome in result.outcomes:
        assert len(outcome.hand_facts) == outcome.hands
        assert all(isinstance(f, FreeHandFacts) for f in outcome.hand_facts)
        assert pickle.loads(pickle.dumps(outcome)) == outcome
    plain = simulate("free", RANDOMS, 2, seed=0)
    assert all(o.hand_facts == () for o in plain.outcomes)
    assert [o.seat_scores for o in plain.outcomes] == [o.seat_scores for o in result.outcomes]


def test_report_needs_the_hand_facts_and_is_for_free_simulations_only() -> None:
    with pytest.raises(InvalidOptionsError, match="hand_facts=True"):
        free_report(simulate("free", RANDOMS, 1, seed=0))
    with pytest.raises(InvalidOptionsError, match="is for Free Clubs simulations here, not whist"):
        free_report(simulate("whist", RANDOMS, 1, seed=0, hand_facts=True))


def test_rates_and_points_without_samples_have_no_share_and_print_a_dash() -> None:
    assert Rate(0, 0).rate is None and Rate(0, 0).ci95 is None
    assert Rate(0, 0).cells() == ("0", "0", "-", "-")
    assert Rate(3, 4).to_json() == {"count": 3, "trials": 4, "rate": 0.75, "ci95": list(wilson_interval(3, 4))}
    assert Points(0, 0, 0).mean is None and Points(1, 5, 25).sd is None
    # Points 10 and 30: mean 20, sample standard deviation 14.142...
    assert Points(2, 40, 1000).sd == pytest.approx(14.1421356)
    empty = tally([])
    assert empty.hands == 0
    assert "-" in empty.format_text()


def test_text_report_names_every_tier_role_and_bonus() -> None:
    text = free_report(simulate("free", RANDOMS, 3, seed=2, hand_facts=True)).format_text()
    for words in (
        "highest bid's tier",
        "number of cards the contract side bid",
        "Joker team took all 10",
        "lone auction winner",
        "Joker partner",
        "defender against a lone winner",
        "outsider against a Joker team",
        "nobody took a diamond",
        "ace of hearts",
        "no spades",
        "Wilson",
    ):
        assert words in text
    for tier in ("10", "J", "Q", "K", "Joker"):
        assert any(line.split()[:1] == [tier] for line in text.splitlines())
