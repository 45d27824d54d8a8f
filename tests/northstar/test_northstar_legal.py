"""Asking whether one action is legal in North Star's CLUBS: the direct check agrees with the list and with explain.

``action in match.legal_actions()`` is answered from the action itself (its cards are in the hand, it is a single,
set or run, it beats the play on the table: NS-3, NS-4, NS-9, NS-11), without listing the plays; ``apply`` checks a
play the same way. These tests play seeded random matches in every variant and player count and hold the direct
check to the full list and to ``explain`` for the listed actions and for many that are not legal: plays of cards not
held, of the wrong kind or top, of another hand, and calls.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from clubsuite.cards import CardSet
from clubsuite.errors import IllegalActionError
from clubsuite.games.northstar import (
    Call,
    Kind,
    NorthstarLegal,
    NorthstarMatch,
    NorthstarOptions,
    Play,
    Teams,
    generate,
)
from clubsuite.games.northstar import hand as hand_module
from clubsuite.games.northstar import match as match_module
from clubsuite.games.northstar.combos import DECK_MASK, TOP, VALUE_MASKS, play_fits
from clubsuite.games.northstar.hand import NorthstarHand
from clubsuite.games.northstar.match import CORE as _CORE
from clubsuite.games.northstar.match import CompiledNorthstarMatch as _Compiled
from clubsuite.games.northstar.match import NorthstarMatch as _Engine
from compiled_match_helpers import on_each_match_class
from native_helpers import kernel_or_skip

_each_match_class = on_each_match_class(globals(), "NorthstarMatch", _Compiled, _CORE)
"""Every test here that makes a match runs on the engine's match and on the compiled one (the one that makes none
runs once)."""

DECK = [i for i in range(DECK_MASK.bit_length()) if DECK_MASK >> i & 1]
TEAMS_FOR = {2: [Teams.NONE], 3: [Teams.NONE], 4: [Teams.NONE, Teams.TWO_BY_TWO], 5: [Teams.NONE]}
TEAMS_FOR[6] = [Teams.NONE, Teams.THREE_BY_TWO, Teams.TWO_BY_THREE]


def variants(rng: random.Random, count: int) -> Iterator[NorthstarOptions]:
    """``count`` option sets: every player count, with and without wild 15s, Crazy CLUBS, double or nothing, teams."""
    for i in range(count):
        players = 2 + i % 5
        yield NorthstarOptions(
            players=players,
            teams=rng.choice(TEAMS_FOR[players]),
            wild_fifteens=i % 2 == 0,
            crazy=i % 3 == 0,
            double_or_nothing=rng.random() < 0.5,
        )


def decisions(options: NorthstarOptions, seed: int, rounds: int = 2) -> Iterator[NorthstarMatch]:
    """The match at every decision of ``rounds`` rounds of seeded random play."""
    rng = random.Random(seed)
    match = NorthstarMatch(options)
    for _ in range(rounds):
        if match.is_over:
            return
        match.deal(rng=rng)
        while match.to_act is not None:
            yield match
            legal = tuple(match.legal_actions())
            match.apply(legal[rng.randrange(len(legal))])


def candidates(match: NorthstarMatch, rng: random.Random) -> list[Any]:
    """Actions to ask about: some listed ones, the calls, and plays that are mostly not legal here (cards of the
    hand and a few others, every kind, tops around the right one, plays another hand could make)."""
    cur = match.current
    assert cur is not None and match.to_act is not None
    hand = cur.hands[match.to_act]
    listed = list(match.legal_actions())
    out: list[Any] = [*rng.sample(listed, min(8, len(listed))), Call.PASS, Call.DOUBLE]
    for _ in range(25):
        mask = 0
        for i in rng.sample(DECK, rng.randint(1, 6)):
            mask |= 1 << i
        if rng.random() < 0.8:
            mask &= hand | 1 << rng.choice(DECK)
        if rng.random() < 0.3 and mask:
            mask = hand & VALUE_MASKS[rng.randint(1, TOP)] | mask & VALUE_MASKS[TOP]
        if mask:
            out.append(Play(CardSet.from_mask(mask), rng.choice(list(Kind)), rng.randint(0, TOP + 1)))
    other = 0
    for i in rng.sample(DECK, 10):
        other |= 1 << i
    plays = generate(other, None, match.options.wild_fifteens, match.options.crazy)
    out += rng.sample(plays, min(8, len(plays)))
    return out


@pytest.mark.long
def test_ns3_ns4_ns9_ns11_membership_agrees_with_the_list_and_with_explain(fresh_seed: int) -> None:
    """The three ways of asking whether an action is legal, compared at every decision of a round of random play in
    each of ten option sets (every player count, with and without wild 15s) from the run's seed (``fresh_seed``):
    many runs cover more positions than one long one."""
    rng = random.Random(fresh_seed)
    for options in variants(rng, 10):
        for match in decisions(options, rng.getrandbits(32), rounds=1):
            legal = match.legal_actions()
            listed = tuple(legal)
            for action in candidates(match, rng):
                direct = action in legal
                assert direct == (action in listed), f"{action}: the direct check and the list disagree"
                assert direct == (match.explain(action) is None), f"{action}: the direct check and explain disagree"


@pytest.mark.long
def test_ns3_apply_refuses_what_explain_refuses_with_its_words_and_changes_nothing(fresh_seed: int) -> None:
    """Every decision of a round of random play in each of ten option sets (every player count, with and without
    wild 15s) from the run's seed (``fresh_seed``): many runs cover more positions than one long one."""
    rng = random.Random(fresh_seed + 100)
    for options in variants(rng, 10):
        for match in decisions(options, rng.getrandbits(32), rounds=1):
            # the state at this decision, which every refusal must leave as it is (so the same for each)
            before = match.summary(), match.current and match.current.action_log(), match.to_act
            for action in candidates(match, rng):
                reason = match.explain(action)
                if reason is None:
                    continue
                with pytest.raises(IllegalActionError) as refused:
                    match.apply(action)
                assert str(refused.value) == reason
                assert (match.summary(), match.current and match.current.action_log(), match.to_act) == before


@pytest.mark.parametrize("compiled", [False, True], ids=["python-round", "compiled-round"])
def test_ns9_membership_of_one_play_does_not_list_the_plays(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """With wild 15s a lead has hundreds of plays; asking about one (or applying it) lists none of them. Counting
    them lists them once on the engine's round; the compiled round counts the kernel's listing and builds no play
    (iterating builds the engine's list)."""
    listed: list[int] = []

    def counting(hand: int, prev: Play | None, wild: bool, crazy: bool) -> list[Play]:
        listed.append(hand)
        return generate(hand, prev, wild, crazy)

    monkeypatch.setattr(hand_module, "generate", counting)
    made = _Engine  # this test chooses its round itself
    if compiled:
        kernel_or_skip(match_module.CORE)
        assert match_module.CompiledNorthstarMatch is not None
        made = match_module.CompiledNorthstarMatch
    match = made(NorthstarOptions(players=4, wild_fifteens=True))
    match.deal(rng=random.Random(26))  # the leader holds 15s: some 700 leads
    cur = match.current
    assert cur is not None and match.to_act is not None
    assert (type(cur) is NorthstarHand) is not compiled
    hand = cur.hands[match.to_act]
    plays = generate(hand, None, True, False)
    assert len(plays) > 500
    legal = match.legal_actions()
    assert all(p in legal for p in plays[::7])
    assert Call.PASS not in legal  # NS-4: the leader must play
    match.apply(plays[-1])
    assert listed == []
    legal = match.legal_actions()
    assert len(legal) > 0 and len(listed) == (0 if compiled else 1)  # counting lists the plays at most once
    assert list(legal) == generate(cur.hands[match.to_act], cur.top, True, False)
    assert len(listed) == (0 if compiled else 1)  # the engine's round iterates the list it counted


def test_ns3_ns4_the_legal_actions_read_like_the_tuple_of_them() -> None:
    match = NorthstarMatch(NorthstarOptions(players=3, double_or_nothing=True))
    match.deal(rng=random.Random(3))
    legal = match.legal_actions()
    assert isinstance(legal, NorthstarLegal) and isinstance(legal, Sequence)
    listed = tuple(legal)
    assert listed[0] is Call.DOUBLE and Call.PASS not in listed  # NS-8 first, and the leader cannot pass (NS-4)
    assert legal == listed and listed == legal and hash(legal) == hash(listed)
    assert legal == match.legal_actions() and legal != listed[1:]
    assert len(legal) == len(listed) and list(legal) == list(listed)
    assert legal[0] == listed[0] and legal[-1] == listed[-1] and legal[1:3] == listed[1:3]
    assert legal.index(listed[2]) == 2 and legal.count(listed[2]) == 1
    assert "pass" not in legal and "double" in legal  # a call's name answers as it would in the tuple


def test_ns4_the_legal_actions_stay_those_of_their_decision_after_the_round_moves_on() -> None:
    match = NorthstarMatch(NorthstarOptions(players=3))
    match.deal(rng=random.Random(11))
    legal = match.legal_actions()
    first = legal[0]
    assert isinstance(first, Play)
    match.apply(first)
    assert first in legal and Call.PASS not in legal  # still the leader's choice, as a tuple taken then would be
    assert first not in match.legal_actions()  # the cards are gone from the hand now


def test_ns3_a_play_written_with_plain_values_is_judged_as_the_tuple_would() -> None:
    """A play whose cards are a plain mask or whose kind is the kind's name equals the listed play: it is in the
    legal actions, and applying it keeps the canonical form in the state."""
    match = NorthstarMatch(NorthstarOptions(players=3))
    match.deal(rng=random.Random(5))
    listed = [a for a in match.legal_actions() if isinstance(a, Play)]
    play = listed[0]
    plain = Play(int(play.cards), play.kind.value, play.high)  # type: ignore[arg-type]
    assert plain in match.legal_actions() and match.explain(plain) is None
    match.apply(plain)
    cur = match.current
    assert cur is not None
    logged = cur.action_log()[-1]
    assert isinstance(logged, Play) and logged == play and type(logged.cards) is CardSet and type(logged.kind) is Kind


GENERATED_HANDS = 30
"""Random hands (with a random play to beat, or a lead) per setting of wild 15s and Crazy CLUBS, drawn from the
run's seed (``fresh_seed``): many runs cover more hands than one long one."""


@pytest.mark.parametrize("_each_match_class", ["engine"], indirect=True)  # makes no match: once is enough
@pytest.mark.parametrize("wild", [False, True])
@pytest.mark.parametrize("crazy", [False, True])
def test_ns3_ns9_ns11_every_generated_play_fits_and_nothing_else_of_the_hand_does(
    wild: bool, crazy: bool, fresh_seed: int
) -> None:
    """For hands and plays to beat drawn at random, the plays listed are exactly the subsets of the hand that the
    direct check accepts (for every kind and top), each listed once. ``generate`` and ``play_fits`` are the same
    whichever match class the module's other tests run on, so this one runs once."""
    rng = random.Random(fresh_seed + int(wild) * 2 + int(crazy))
    for _ in range(GENERATED_HANDS):
        hand = 0
        for i in rng.sample(DECK, 7):
            hand |= 1 << i
        prev = None
        if rng.random() < 0.7:
            other = 0
            for i in rng.sample(DECK, 10):
                other |= 1 << i
            prev = rng.choice(generate(other & ~hand, None, wild, crazy) or [None])
        listed = generate(hand, prev, wild, crazy)
        assert len(set(listed)) == len(listed)
        bits = [1 << i for i in DECK if hand >> i & 1]
        fitting = set()
        for pick in range(1, 1 << len(bits)):
            mask = 0
            for j, bit in enumerate(bits):
                if pick >> j & 1:
                    mask |= bit
            for kind in Kind:
                for high in range(1, TOP + 1):
                    play = Play(CardSet.from_mask(mask), kind, high)
                    if play_fits(play, hand, prev, wild, crazy):
                        fitting.add(play)
        assert set(listed) == fitting


def test_ns4_an_action_read_by_its_index_is_trusted_only_at_its_own_decision() -> None:
    """``apply`` takes an action read from the current list by its index without checking it again; the same
    action brought back at a later decision, or a slice of the list, is judged like any other."""
    match = NorthstarMatch(NorthstarOptions(players=3))
    match.deal(rng=random.Random(11))
    legal = match.legal_actions()
    first = legal[0]
    assert isinstance(first, Play)
    match.apply(first)  # read by its index at this decision: applied
    before = match.summary(), match.to_act
    with pytest.raises(IllegalActionError) as refused:
        match.apply(first)  # its cards are gone: the trust ended with its decision
    assert str(refused.value) == match.explain(first)
    assert (match.summary(), match.to_act) == before
    follow = match.legal_actions()
    with pytest.raises(IllegalActionError):
        match.apply(follow[0:2])  # a slice is a tuple of actions, not an action
    assert (match.summary(), match.to_act) == before
    match.apply(follow[0])  # pass comes first when following (NS-4)
    assert match.current is not None and match.current.action_log()[-1] is Call.PASS


@pytest.mark.parametrize("seed", range(3))
def test_ns3_ns4_ns8_play_by_index_and_play_by_value_give_the_same_rounds(seed: int) -> None:
    """Twin matches in every variant: one applies the action read by its index (applied unchecked), the other an
    equal copy of it (checked directly or through explain); every event and every score agree."""
    rng = random.Random(500 + seed)
    for options in variants(rng, 10):
        picks = random.Random(rng.getrandbits(32))
        deals = rng.getrandbits(32)
        trusted, checked = NorthstarMatch(options), NorthstarMatch(options)
        trusted.deal(rng=random.Random(deals))
        checked.deal(rng=random.Random(deals))
        while trusted.to_act is not None:
            legal = trusted.legal_actions()
            k = picks.randrange(len(legal))
            action = legal[k]
            copy = Play(*action) if isinstance(action, Play) else action
            assert copy is not action or not isinstance(action, Play)
            assert trusted.apply(action) == checked.apply(copy)
        assert trusted.summary() == checked.summary()


def test_ns4_a_copy_keeps_the_trust_of_its_decision_and_the_original_its_own() -> None:
    match = NorthstarMatch(NorthstarOptions(players=4, double_or_nothing=True))
    match.deal(rng=random.Random(8))
    legal = match.legal_actions()
    double = legal[0]
    assert double is Call.DOUBLE  # NS-8: called before the first card
    twin = match.clone()
    twin.apply(double)
    assert twin.to_act == match.to_act and match.legal_actions()[0] is Call.DOUBLE
    match.apply(legal[1])  # the original plays instead: its own decision still stands
    with pytest.raises(IllegalActionError):
        twin.apply(double)  # NS-8: called once
