"""Random-play invariants of Clubs (whist group), checked with Hypothesis over seeds.

Cards are conserved, tricks have three cards, the winner leads, the score identities of CW-5 hold, legal actions
are accepted and the others refused without a trace, and no seat's view names a card it may not know.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsuite.cards import STANDARD, CardSet, card_at
from clubsuite.errors import IllegalActionError, InvalidNotationError
from clubsuite.games.whist import (
    CardPlayed,
    Decided,
    Decision,
    HandScored,
    LeadAfterExchange,
    PlayStarted,
    TrickTaken,
    WhistMatch,
    WhistOptions,
)
from clubsuite.games.whist.hand import WhistPhase
from whist_helpers import FULL_DECK, match_snapshot, random_legal, trick_winner

SEEDS = st.integers(0, 2**32)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHECKED_HANDS = settings(SETTINGS, max_examples=30)
"""30 whole hands a run, every invariant checked at every decision: Hypothesis draws new seeds in every run, so many
runs cover more hands than one long one."""


def view_cards(match: WhistMatch, seat: int) -> set[int]:
    """The indices of every card named anywhere in the seat's ``to_dict()`` snapshot."""
    found: set[int] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            for token in value.split():
                with contextlib.suppress(InvalidNotationError):
                    found.add(STANDARD.parse(token).index)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(match.view(seat).to_dict())
    return found


def play_checked_hand(match: WhistMatch, rng: random.Random) -> None:
    """Deal and play one hand with random legal actions, checking every invariant on the way."""
    events = list(match.deal(rng=rng))
    hand = match.hands[-1]
    dealer = hand.dealer
    dealt = [int(h) for h in (*hand.deal.hands, hand.deal.bid)]
    assert sorted(x.bit_count() for x in dealt) == [13, 13, 13, 13]
    assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == FULL_DECK
    played_by = [0, 0, 0]
    seen_by = [dealt[s] for s in range(3)]  # cards each seat may know the place of (CW-4 exchanges add more)
    while match.current is not None:
        seat = match.to_act
        assert seat is not None
        legal = match.legal_actions()
        assert len(legal) > 0, "a seat to act always has a legal action"
        if match.phase is WhistPhase.EXCHANGE:
            # The four piles stay a partition of the deck during the exchange round (CW-4).
            piles = [*hand.hands, hand.bid]
            assert all(p.bit_count() == 13 for p in piles)
            assert piles[0] | piles[1] | piles[2] | piles[3] == FULL_DECK
        else:
            # Every card of the hand that is not legal is refused and changes nothing (a few per hand).
            illegal = [c for c in CardSet(hand.hands[seat]) if c not in legal]
            for c in rng.sample(illegal, min(2, len(illegal))):
                before = match_snapshot(match)
                try:
                    match.apply(c)
                except IllegalActionError as exc:
                    assert str(c) in str(exc)
                    assert match.explain(c) == str(exc)  # the reason given and the refusal never disagree
                else:
                    raise AssertionError(f"{c} was accepted although not legal")
                assert match_snapshot(match) == before
            assert CardSet(legal).issubset(hand.hands[seat])
        # Hidden information: no seat's snapshot names a card it may not know.
        played = 0
        for _, cs, _ in hand.tricks:
            for i in cs:
                played |= 1 << i
        for i in hand.trick_indices:
            played |= 1 << i
        for s in range(3):
            allowed = hand.hands[s] | played | seen_by[s] | hand.given_up.get(s, 0)
            for index in view_cards(match, s):
                assert allowed >> index & 1, f"seat {s}'s view names {card_at(index)}"
        action = random_legal(legal, rng)
        assert match.explain(action) is None
        if isinstance(action, Decision) and action is Decision.EXCHANGE:
            seen_by[seat] |= hand.bid
        new_events = match.apply(action)
        events.extend(new_events)
        if not isinstance(action, Decision):
            played_by[seat] |= action.bit
    # Every card played exactly once, each seat playing exactly the 13 cards it held after the exchange.
    assert [h.bit_count() for h in hand.hands] == [0, 0, 0]
    assert list(hand.play_start_hands) == played_by
    all_played = [c for _, cs, _ in hand.tricks for c in cs]
    assert len(all_played) == 39 and len(set(all_played)) == 39
    assert set(all_played) | {c.index for c in CardSet(hand.bid)} == set(range(52))
    # Events tell the same story: three decisions, the lead, 39 cards, 13 tricks and one score.
    assert [type(e) for e in events].count(Decided) == 3
    assert [e.seat for e in events if isinstance(e, Decided)] == [(dealer + k) % 3 for k in (1, 2, 3)]
    assert [type(e) for e in events].count(CardPlayed) == 39
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert [t.number for t in taken] == list(range(1, 14))
    assert len(hand.tricks) == 13
    # Three cards per trick, the winner (highest club, else highest of the led suit) leads the next trick.
    (started,) = [e for e in events if isinstance(e, PlayStarted)]
    expected_leader = started.leader
    for (leader, cs, winner), event in zip(hand.tricks, taken, strict=True):
        assert len(cs) == 3
        assert leader == expected_leader
        assert winner == trick_winner(leader, [card_at(i) for i in cs])
        assert event.seat == winner and [c.index for c in event.cards] == list(cs)
        expected_leader = winner
    won = [sum(1 for *_, w in hand.tricks if w == s) for s in range(3)]
    assert hand.tricks_won == won
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    assert scored.tricks == tuple(won)
    assert scored.scores == tuple(t - 4 for t in won)
    assert sum(scored.scores) == 1  # 13 tricks against quotas adding up to 12 (CW-5)


@pytest.mark.long
@CHECKED_HANDS
@given(SEEDS)
def test_random_hands_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    options = WhistOptions(lead_after_exchange=rng.choice(list(LeadAfterExchange)), target=1000)
    match = WhistMatch(options, first_dealer=rng.randrange(3))
    play_checked_hand(match, rng)
    assert sum(match.totals) == 1


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_random_matches_keep_the_score_identities_and_end_by_cw5(seed: int) -> None:
    rng = random.Random(seed)
    target = rng.choice([3, 5, 8, 11, 11, 11])
    match = WhistMatch(WhistOptions(target=target), first_dealer=rng.randrange(3))
    running = [0, 0, 0]
    while not match.is_over:
        assert all(abs(t) < target for t in match.totals)
        match.deal(rng=rng)
        while match.current is not None:
            match.apply(random_legal(match.legal_actions(), rng))
        scores = match.hand_scores[-1]
        assert sum(scores) == 1
        running = [r + s for r, s in zip(running, scores, strict=True)]
        assert match.totals == running
        assert sum(match.totals) == len(match.hands)
    at_target = tuple(s for s in range(3) if abs(match.totals[s]) >= target)
    assert at_target
    if len(at_target) == 3:
        assert match.draw and match.winners == ()
    else:
        assert not match.draw and match.winners == at_target
    summary = match.summary()
    assert summary["totals"] == match.totals
    assert [h["totals"] for h in summary["hands"]][-1] == match.totals
    assert [h["dealer"] for h in summary["hands"]] == [(match.first_dealer + i) % 3 for i in range(len(match.hands))]


@SETTINGS
@given(SEEDS)
def test_every_legal_action_is_accepted(seed: int) -> None:
    rng = random.Random(seed)
    match = WhistMatch()
    match.deal(rng=rng)
    while match.current is not None:
        legal = list(match.legal_actions())
        # Try every legal action on a copy of the hand; each must be accepted.
        hand = match.hands[-1]
        for action in legal:
            copy = hand.clone()
            copy.apply(action)
            assert copy.version == hand.version + 1
        match.apply(rng.choice(legal))
