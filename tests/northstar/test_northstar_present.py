"""What a North Star seat to act is offered (clubsuite.present): the readings of the same cards strongest first, each
saying what it does (NS-3, NS-4, NS-9, NS-11), every legal action offered exactly once."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.engine import resolve
from clubsuite.games.northstar import NorthstarDeal, NorthstarMatch, NorthstarOptions
from clubsuite.games.northstar.combos import NORTHSTAR
from clubsuite.present import offered
from clubsuite.server.table.live import start_match

INFO, _ = resolve("northstar")


def after_a_pair_of_13s(wild_fifteens: bool = False, crazy: bool = False) -> NorthstarMatch:
    """Two players: seat 0 leads 13♦ 13♥, seat 1 holds 15♥ 15♠ (the case of the wild-15 picker)."""
    match = NorthstarMatch(NorthstarOptions(players=2, wild_fifteens=wild_fifteens, crazy=crazy), 1)
    hands = ("13D 13H 1C 2C 3C 4C 5C 6C 7C 8C", "15H 15S 1D 2D 3D 4D 5D 6D 7D 9D")
    match.deal(deal=NorthstarDeal(tuple(NORTHSTAR.parse_set(h) for h in hands)))
    match.apply("13D 13H")
    return match


def test_two_wild_fifteens_are_offered_as_themselves_first_since_only_that_takes_the_trick_at_once() -> None:
    # NS-4, NS-9: a pair of 15s played as 15s takes the trick at once; as 14s it only beats the 13s
    match = after_a_pair_of_13s(wild_fifteens=True)
    assert match.legal_notation() == ["pass", "15H=14 15S=14", "15H 15S"]  # the engine's order: weakest first
    offers = offered(INFO, match)
    assert [o.text for o in offers] == ["pass", "15H 15S", "15H=14 15S=14"]
    assert offers[0].note is None
    assert offers[1].note is not None and offers[2].note is not None
    assert offers[1].note.code == "northstar.offer_takes_at_once" and offers[1].note.rule == "NS-4"
    assert str(offers[1].note) == "2 cards of 15, takes the trick at once"
    assert offers[2].note.code == "northstar.offer_not_at_once" and offers[2].note.rule == "NS-9"
    assert str(offers[2].note) == "2 cards of 14, does not take the trick at once"
    assert offers[2].note.to_json()["params"]["reason"] == {
        "code": "northstar.offer_set",
        "rule": "NS-3",
        "params": {"count": 2, "value": 14},
    }


def test_in_crazy_clubs_no_reading_takes_the_trick_at_once_so_the_notes_say_only_what_each_is() -> None:
    # NS-11: a 15 does not win at once; the higher reading is still offered first
    match = after_a_pair_of_13s(wild_fifteens=True, crazy=True)
    offers = {o.text: o.note for o in offered(INFO, match)}
    texts = [t for t in offers if sorted(c.split("=")[0] for c in t.split()) == ["15H", "15S"]]
    assert texts[:2] == ["15H 15S", "15H=14 15S=14"]
    assert [str(offers[t]) for t in texts[:2]] == ["2 cards of 15", "2 cards of 14"]


def test_without_wild_fifteens_the_legal_actions_are_offered_in_the_engines_order_without_notes() -> None:
    match = after_a_pair_of_13s()
    offers = offered(INFO, match)
    assert [o.text for o in offers] == match.legal_notation()
    assert all(o.note is None for o in offers)


def test_a_run_and_a_set_of_the_same_cards_say_which_each_is_the_higher_first() -> None:
    # 1♣ with a wild 15 leads as a run 1-2 or a pair of 1s (NS-3, NS-9)
    match = NorthstarMatch(NorthstarOptions(players=2, wild_fifteens=True), 1)
    hands = ("1C 15S 3D 5D 7D 9D 11D 13D 4H 6H", "2C 4C 6C 8C 10C 12C 14C 3H 5H 7H")
    match.deal(deal=NorthstarDeal(tuple(NORTHSTAR.parse_set(h) for h in hands)))
    offers = [o for o in offered(INFO, match) if sorted(t.split("=")[0] for t in o.text.split()) == ["15S", "1C"]]
    assert [(o.text, str(o.note)) for o in offers] == [("1C 15S=2", "a run from 1 to 2"), ("1C 15S=1", "2 cards of 1")]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), crazy=st.booleans(), moves=st.integers(0, 30))
def test_every_legal_action_is_offered_exactly_once_and_notes_only_where_the_same_cards_read_several_ways(
    seed: int, players: int, crazy: bool, moves: int
) -> None:
    # at the lead and following, after any number of moves of the round
    info, options = resolve(f"northstar(players={players}, wild_fifteens=true, crazy={str(crazy).lower()})")
    match, _ = start_match(info, options, 0, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over or match.to_act is None:
            break
        match.apply(rng.choice(list(match.legal_actions())))
    if match.is_over or match.to_act is None:
        return
    offers = offered(info, match)
    assert Counter(o.text for o in offers) == Counter(match.format_action(a) for a in match.legal_actions())
    readings = Counter(" ".join(sorted(t.split("=")[0] for t in o.text.split())) for o in offers)
    for o in offers:
        several = readings[" ".join(sorted(t.split("=")[0] for t in o.text.split()))] > 1
        if not several:
            assert o.note is None, o.text
        elif len(o.text.split()) > 1:  # a set or a run always says which it is
            assert o.note is not None, o.text
        else:  # a lone wild 15 says only whether it takes the trick at once, which never happens in Crazy CLUBS
            assert (o.note is not None) == (not crazy), o.text


def test_a_lone_wild_fifteen_says_only_whether_it_takes_the_trick_at_once_its_value_beside_it() -> None:
    match = NorthstarMatch(NorthstarOptions(players=2, wild_fifteens=True), 1)
    hands = ("15S 1C 3D 5D 7D 9D 11D 13D 4H 6H", "2C 4C 6C 8C 10C 12C 14C 3H 5H 7H")
    match.deal(deal=NorthstarDeal(tuple(NORTHSTAR.parse_set(h) for h in hands)))
    singles = [(o.text, o.note) for o in offered(INFO, match) if " " not in o.text and o.text.startswith("15S")]
    assert [t for t, _ in singles] == ["15S", *(f"15S={v}" for v in range(14, 0, -1))]
    assert [str(n) for _, n in singles[:2]] == ["takes the trick at once", "does not take the trick at once"]
    assert {n.code for _, n in singles[1:] if n is not None} == {"northstar.offer_one_not_at_once"}
