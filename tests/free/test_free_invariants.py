"""Random-play invariants of Free Clubs: cards are conserved through the chest, handicaps and the pass (FC-2, FC-5),
no hand has more than ten tricks (FC-7), the contracts are scored as FC-4 says, and views hide other seats' cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.cards import CardSet
from clubsuite.games.free import FreeDeal, FreeHand, FreeOptions, Stage, score_hand
from clubsuite.games.free.deal import PRIMARY_MASK


def located(hand: FreeHand) -> int:
    """Every primary card somewhere: held, discarded, in a taken trick, in the trick in progress, or in the chest."""
    mask = 0
    for s in range(3):
        mask |= hand.hands[s] | hand.discards[s] | hand.taken[s]
    for _, c in hand.trick:
        mask |= 1 << c
    if hand.winner < 0:
        mask |= int(hand.deal.chest)
    return mask


def count(hand: FreeHand) -> int:
    """The number of primary cards located (each must be in exactly one place)."""
    n = sum(
        h.bit_count() + d.bit_count() + t.bit_count()
        for h, d, t in zip(hand.hands, hand.discards, hand.taken, strict=True)
    )
    return n + len(hand.trick) + (len(hand.deal.chest) if hand.winner < 0 else 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_fc2_fc5_fc7_cards_conserved_at_most_ten_tricks_and_contracts_scored(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    hand = FreeHand(FreeDeal.random(rng, dealer), dealer, FreeOptions())
    while not hand.is_over:
        assert located(hand) == PRIMARY_MASK and count(hand) == 36
        legal = hand.legal_actions()
        assert len(legal) > 0
        hand.apply(legal[rng.randrange(len(legal))])
        if hand.stage is Stage.PLAY:
            assert all(not (h & ~PRIMARY_MASK) for h in hand.hands)  # only primary cards are played
    assert located(hand) == PRIMARY_MASK and count(hand) == 36
    assert 1 <= len(hand.tricks) <= 10 and sum(hand.tricks_won) == len(hand.tricks)
    assert all(1 <= len(plays) <= 3 for plays, _ in hand.tricks)
    scores = hand.scores
    assert scores is not None
    plain = score_hand(hand.tricks_won, hand.taken, -1, -1, hand.options)
    penalty = [a - b for a, b in zip(scores, plain, strict=True)]
    w, p = hand.winner, hand.partner
    if p >= 0:  # FC-4: the Joker team needs all ten tricks, or each member loses 50
        lost = -50 if hand.tricks_won[w] + hand.tricks_won[p] < 10 else 0
        assert penalty[w] == penalty[p] == lost and penalty[3 - w - p] == 0
    else:  # FC-4: the lone winner needs seven
        assert penalty == [(-50 if hand.tricks_won[w] < 7 else 0) if s == w else 0 for s in range(3)]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_views_never_name_a_primary_card_the_seat_cannot_know(seed: int) -> None:
    from clubsuite.games.free import FreeMatch

    rng = random.Random(seed)
    match = FreeMatch()
    match.deal(rng)
    hand = match.current
    assert hand is not None
    while not hand.is_over:
        for seat in range(3):
            view = match.view(seat)
            allowed = hand.hands[seat] | hand.discards[seat] | sum(1 << c for g, r, c in hand.passed if seat in (g, r))
            if hand.winner == seat:
                allowed |= int(hand.deal.chest)
            if seat in hand.pass_choices:
                allowed |= 1 << hand.pass_choices[seat]
            for plays, _ in hand.tricks:
                allowed |= sum(1 << c for _, c in plays)
            allowed |= sum(1 << c for _, c in hand.trick)
            shown = int(view.hand) | int(view.discards) | int(view.chest or CardSet())
            shown |= sum(1 << c.index for _, _, c in view.transfers)
            assert shown & ~allowed == 0
            assert view.to_dict()["hand"] == str(CardSet(hand.hands[seat]))
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
