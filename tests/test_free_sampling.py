"""Sampling the unseen cards of Free Clubs: samples agree with all a seat knows (FC-2, FC-5, FC-6) and nothing else."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.cards import CardSet, card_at
from clubsuite.errors import IllegalActionError
from clubsuite.games.free import FreeDeal
from clubsuite.games.free.deal import AUCTION_MASK, PRIMARY_SUIT_MASKS
from clubsuite.games.free.match import FreeMatch
from clubsuite.games.free.sampling import ALL_CARDS, bid_cards, played_cards, sample_hidden, unseen
from clubsuite.games.free.view import FreeView


def position(seed: int) -> FreeMatch:
    """A match stopped at a random point of its first hand, after random legal actions."""
    rng = random.Random(seed)
    match = FreeMatch()
    match.deal(rng)
    for _ in range(rng.randrange(60)):
        if match.current is None:
            break
        match.apply(rng.choice(list(match.legal_actions())))
    return match


def check_agrees(view: FreeView, seed: int) -> None:
    """Every fact the view makes known holds in a sample."""
    me = view.seat
    got = sample_hidden(view, random.Random(seed))
    assert got.hands[me] == view.hand
    assert got.auction[me] == view.auction_hand
    assert got.discards[me] == view.discards
    assert tuple(len(h) for h in got.hands) == view.hand_sizes
    assert tuple(len(a) for a in got.auction) == view.auction_sizes
    for s in range(3):
        removed = sum(n for seat, _, n, to in view.handicaps if seat == s and to is None)
        assert len(got.discards[s]) == removed
    over = view.winner is not None
    assert (got.chest is None) == over
    if got.chest is not None:
        assert len(got.chest) == 6
    parts = [*got.hands, *got.auction, *got.discards, got.chest or CardSet(0), got.unbid]
    out = played_cards(view) | bid_cards(view)
    assert sum(len(p) for p in parts) + out.bit_count() == 54
    union = out
    for p in parts:
        assert not int(p) & union, "a card placed twice, or a played or bid card placed"
        union |= int(p)
    assert union == ALL_CARDS
    if over:
        assert int(got.unbid) == AUCTION_MASK & ~bid_cards(view)
    # FC-6: a seat that did not follow the led suit holds none of it.
    tricks = [plays for plays, _ in view.tricks] + ([view.trick] if view.trick else [])
    for plays in tricks:
        led = plays[0][1].index // 13
        for s, c in plays[1:]:
            if c.index // 13 != led:
                assert not int(got.hands[s]) & PRIMARY_SUIT_MASKS[led]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_fc2_fc5_fc6_sample_hidden_agrees_with_everything_the_seat_has_seen(seed: int) -> None:
    match = position(seed)
    for seat in range(3):
        for k in range(3):
            check_agrees(match.view(seat), seed + k)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_fc2_fc5_a_card_given_stays_with_its_receiver_unless_it_could_have_moved(seed: int) -> None:
    match = position(seed)
    hand = match.hands[-1]
    for seat in range(3):
        view = match.view(seat)
        gone = played_cards(view)
        last: dict[int, tuple[int, int]] = {}
        for k, (_, r, c) in enumerate(view.transfers):
            last[c.index] = (r, k)
        n_queens = sum(1 for s, _, n, to in view.handicaps if to is not None and n and seat in (s, to))
        for idx, (r, k) in last.items():
            if r == seat or gone >> idx & 1:
                continue
            if k < n_queens:  # a Queen's card: its receiver may have moved it on unseen by a handicap or the pass
                moved_on = any(s == r and b.index // 13 == idx // 13 for s, b, _, _ in view.handicaps)
                if moved_on or r == (seat - 1) % 3:
                    continue
            assert hand.hands[r] >> idx & 1, "the engine disagrees with the test about where the card is"
            for rs in range(4):
                assert sample_hidden(view, random.Random(rs)).hands[r] >> idx & 1


def test_fc5_a_short_handicap_shows_a_void_in_its_suit() -> None:
    checked = 0
    for seed in range(400):
        match = position(seed)
        view = match.view(0)
        hand = match.hands[-1]
        if hand.stage.value not in ("pass", "play", "over"):
            continue
        for s, bid, n, _ in view.handicaps:
            expected = 3 if bid.index % 13 == 11 else 1
            if s == 0 or n >= expected:
                continue
            receives = any(t == s for _, _, _, t in view.handicaps) or s == 1
            if receives:
                continue
            for k in range(3):
                got = sample_hidden(view, random.Random(k))
                assert not int(got.hands[s]) & PRIMARY_SUIT_MASKS[bid.index // 13]
            checked += 1
    assert checked >= 3


def test_samples_vary_where_the_hidden_cards_are_free() -> None:
    for seed in (1, 2, 3):
        match = FreeMatch()
        match.deal(random.Random(seed))
        for _ in range(seed):  # a few auction calls: every hand and the chest are still hidden
            match.apply(random.Random(seed).choice(list(match.legal_actions())))
        for seat in range(3):
            view = match.view(seat)
            samples = {sample_hidden(view, random.Random(k)) for k in range(20)}
            assert len(samples) > 1
            assert sample_hidden(view, random.Random(7)) == sample_hidden(view, random.Random(7))


def swap(deal: FreeDeal, first: int, second: int) -> FreeDeal:
    """The deal with two cards of the same kind trading the piles they were dealt to."""
    piles = [int(h) for h in (*deal.auction, *deal.primary, deal.chest)]
    a = next(i for i, p in enumerate(piles) if p >> first & 1)
    b = next(i for i, p in enumerate(piles) if p >> second & 1)
    bits = 1 << first | 1 << second
    piles[a] ^= bits
    piles[b] ^= bits
    new = CardSet.from_mask
    return FreeDeal(
        (new(piles[0]), new(piles[1]), new(piles[2])),
        (new(piles[3]), new(piles[4]), new(piles[5])),
        new(piles[6]),
    )


def replay(deal: FreeDeal, actions: list[Any]) -> FreeMatch | None:
    """A match on ``deal`` after ``actions``, or None if they are not all legal there."""
    match = FreeMatch()
    match.deal(deal=deal)
    try:
        for action in actions:
            match.apply(action)
    except IllegalActionError:
        return None
    return match


def test_samples_do_not_depend_on_the_true_hidden_cards() -> None:
    checked = 0
    for seed in range(60):
        match = position(seed)
        real = match.hands[-1]
        seat = seed % 3
        view = match.view(seat)
        hidden = [c for c in unseen(view) if c.index not in {t.index for _, _, t in view.transfers}]
        random.Random(seed).shuffle(hidden)
        pairs = [
            (a.index, b.index)
            for a in hidden[:10]
            for b in hidden[:10]
            if a.index < b.index and (a.index in AUCTION_BITS) == (b.index in AUCTION_BITS)
        ]
        for first, second in pairs:
            other_deal = swap(real.deal, first, second)
            if other_deal == real.deal:
                continue
            other = replay(other_deal, real.action_log())
            if other is None:
                continue
            other_view = other.view(seat)
            if other_view.to_dict() != view.to_dict():
                continue  # the swap changed something public (a handicap's count): not a hidden difference
            if other.hands[-1].hands == real.hands and other.hands[-1].discards == real.discards:
                continue
            for k in range(3):
                assert sample_hidden(other_view, random.Random(k)) == sample_hidden(view, random.Random(k))
            checked += 1
            break
    assert checked >= 30


AUCTION_BITS = {c.index for c in (card_at(i) for i in range(54)) if AUCTION_MASK >> c.index & 1}
