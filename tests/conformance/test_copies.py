"""Copies for search, in every game: ``clone()`` and ``determinize(seat, rng)``.

A clone is equal to its match (summary and every view) and independent of it (play on either leaves the other as
it was), with live views of its own, and it shares no mutable object with the match except the settled hands
(those before the last, which never change again). A determinized state shows the seat exactly what the match
shows it, draws the other hands again (they vary from draw to draw), and depends only on what the seat knows: two
states the seat cannot tell apart (the match and a determinization of it, "twin deals") give the same state, seen
from every seat, for the same RNG.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from conformance.harness import (
    CASES,
    IDS,
    Case,
    hidden_hands,
    random_play,
    settled_hands,
    shared_mutables,
    snapshot,
)

RATE = 0.08
"""The share of decisions checked (each check copies the match and plays on the copy)."""
DRAWS = 8
"""Determinizations compared for variety."""


def _play_one(match: Any, rng: random.Random) -> None:
    legal = match.legal_actions()
    match.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_clone_is_equal_and_each_plays_on_without_changing_the_other(case: Case) -> None:
    rng = random.Random(4)
    pending: list[tuple[Any, Any]] = []  # clones played on, with what they showed then
    checked = 0
    for match in random_play(case, seed=21):
        for copy, shown in pending:
            assert snapshot(copy) == shown, "play on the match changed its clone"
        pending.clear()
        if rng.random() > RATE:
            continue
        before = snapshot(match)
        copy = match.clone()
        assert type(copy) is type(match)
        assert snapshot(copy) == before
        assert copy.hands is not match.hands and len(copy.hands) == len(match.hands)
        assert all(copy.view(s) is not match.view(s) for s in range(match.n_seats))
        _play_one(copy, rng)
        assert snapshot(match) == before, "play on the clone changed the match"
        after = snapshot(copy)
        assert after != before, "the clone's views did not follow play on the clone"
        pending.append((copy, after))
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_clone_shares_no_mutable_object_with_its_match_but_the_settled_hands(case: Case) -> None:
    """The walk looks inside everything (frozen dataclasses and tuples too), so a mutable field added to a hand, a
    match or a view and not copied makes this fail."""
    rng = random.Random(5)
    checked = 0
    for match in random_play(case, seed=22):
        if rng.random() > RATE:
            continue
        settled = settled_hands(match)
        copy = match.clone()
        assert shared_mutables(match, copy, settled) == []
        assert all(a is b for a, b in zip(match.hands[:-1], copy.hands[:-1], strict=True))
        hand = match.current
        assert shared_mutables(hand, hand.clone()) == []
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_hands_before_the_last_never_change_so_clones_may_share_them(case: Case) -> None:
    """What a clone relies on to share the settled hands: once the next hand is dealt, nothing reaches the earlier
    ones (play goes to the hand in progress; a call of a misplay, FC-10, only to the last hand)."""
    settled: dict[int, tuple[Any, ...]] = {}
    match = None
    for match in random_play(case, seed=23, hands=4):
        for index, hand in enumerate(match.hands[:-1]):
            seen = (hand.summary(), [match.format_action(a) for a in hand.action_log()], hand.deal)
            assert settled.setdefault(index, seen) == seen, f"hand {index} changed after the next was dealt"
    assert match is not None and settled


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_determinize_keeps_the_seats_view_and_draws_the_other_hands_again(case: Case) -> None:
    rng = random.Random(6)
    varied = checked = 0
    for match in random_play(case, seed=24):
        # At the first decision of the match every game has many hidden cards; later the play may leave none in
        # doubt (two players of North Star's CLUBS keeping leftovers, NS-6, can pin the other hand down exactly).
        first_decision = len(match.hands) == 1 and len(match.current.action_log()) == 0
        if not first_decision and rng.random() > RATE:
            continue
        before = snapshot(match)
        seat = rng.randrange(match.n_seats)
        mine = match.view(seat).to_dict()
        draws = []
        for k in range(DRAWS if first_decision else 2):
            state = match.determinize(seat, random.Random(k))
            assert type(state) is type(match)
            assert state.view(seat).to_dict() == mine
            assert shared_mutables(match, state, settled_hands(match)) == []
            draws.append(hidden_hands(state, seat))
            if k == 0:
                _play_one(state, rng)  # a determinized state is a legal position: it plays on
        assert snapshot(match) == before, "determinize changed the match"
        checked += 1
        if first_decision:
            assert len(set(draws)) > 1, f"the other hands came out the same in {DRAWS} draws for seat {seat}"
            varied += 1
    assert checked > 0 and varied > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_twin_deals_determinize_alike_for_the_same_rng(case: Case) -> None:
    """A state ``twin`` that seat ``s`` cannot tell from the match (a determinization of it for ``s``) gives, for the
    same RNG, a determinized state identical to the match's, as every seat sees it: the draw reads nothing ``s``
    does not know."""
    rng = random.Random(7)
    checked = 0
    for match in random_play(case, seed=25):
        if rng.random() > RATE:
            continue
        seat = rng.randrange(match.n_seats)
        twin = match.determinize(seat, random.Random(99))
        assert twin.view(seat).to_dict() == match.view(seat).to_dict()
        for k in range(2):
            ours = match.determinize(seat, random.Random(k))
            theirs = twin.determinize(seat, random.Random(k))
            assert snapshot(ours) == snapshot(theirs)
            assert hidden_hands(ours, seat) == hidden_hands(theirs, seat)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_between_hands_determinize_is_a_clone(case: Case) -> None:
    match = case.new_match()
    match.deal(random.Random(8))
    rng = random.Random(9)
    while match.current is not None:
        _play_one(match, rng)
    for seat in range(match.n_seats):
        state = match.determinize(seat, random.Random(seat))
        assert snapshot(state) == snapshot(match)
        assert shared_mutables(match, state, settled_hands(match)) == []
