"""Sampling the unseen cards of Free Clubs and determinizing a view: samples agree with all a seat knows (FC-2 to FC-6)
and with nothing else."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from clubsuite.cards import CardSet, card, card_at, iter_bits
from clubsuite.errors import ClubsError, IllegalActionError
from clubsuite.games.free import FreeDeal
from clubsuite.games.free.deal import AUCTION_MASK, PRIMARY_SUIT_MASKS
from clubsuite.games.free.hand import TEN_OF_SPADES, MisplayCall, Stage, strength
from clubsuite.games.free.match import FreeMatch
from clubsuite.games.free.options import FreeOptions
from clubsuite.games.free.sampling import (
    ALL_CARDS,
    bid_cards,
    determinize,
    played_cards,
    sample_hidden,
    unseen,
    view_of,
)
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


# -- determinize: a whole hand state the seat cannot tell from the real one -------------------------------------


def any_position(seed: int) -> FreeMatch:
    """A match stopped at a random point of its first or second hand, after random legal actions."""
    rng = random.Random(seed)
    match = FreeMatch()
    match.deal(rng)
    for _ in range(rng.randrange(110)):
        if match.current is None:
            if match.is_over:
                break
            match.deal(rng)
        match.apply(rng.choice(list(match.legal_actions())))
    return match


@pytest.mark.long
@settings(max_examples=20, deadline=None)  # new positions every run: many runs cover more than one long one
@given(st.integers(0, 2**32), st.integers(0, 2**16))
@example(seed=665080, rs=995)  # few consistent placements for seat 1: needed more than 5,000 tries
def test_fc2_fc5_fc6_determinize_gives_a_state_the_seat_cannot_tell_from_the_real_one(seed: int, rs: int) -> None:
    match = any_position(seed)
    for seat in range(3):
        view = match.view(seat)
        state = determinize(view, random.Random(rs))
        twin = view_of(state, seat, view)
        assert twin.to_dict() == view.to_dict()
        assert list(twin.legal_actions()) == list(view.legal_actions())
        if view.to_act == seat:
            assert list(state.legal_actions()) == list(match.legal_actions())
        assert state.hands[seat] == int(view.hand) and state.discards[seat] == int(view.discards)
        assert state.deal.auction[seat] == match.hands[-1].deal.auction[seat]


@pytest.mark.long
def test_fc5_determinized_jack_queen_king_handicaps_took_the_highest_cards() -> None:
    """FC-5 holds in the returned state: a guard on how determinize builds states (today by engine replay)."""
    checked = 0
    for seed in range(150):
        match = position(seed)
        for seat in range(3):
            view = match.view(seat)
            if view.winner is None:
                continue
            state = determinize(view, random.Random(seed))
            for s, bid, n, to in view.handicaps:
                suit = bid.index // 13
                mask = PRIMARY_SUIT_MASKS[suit]
                # Only a seat whose cards of the suit no Ten, Queen or received card could have changed.
                touched = any(
                    b.index // 13 == suit and c and (t == s or (g == s and (t is not None or b.index % 13 == 8)))
                    for g, b, c, t in view.handicaps
                )
                if s == seat or to is not None or not n or touched:
                    continue
                origin = state.deal.primary[s] | (int(state.deal.chest) if s == view.winner else 0)
                removed = state.discards[s] & mask
                kept = int(origin) & mask & ~removed
                low = min(strength(c) for c in iter_bits(removed))
                assert all(strength(c) < low for c in iter_bits(kept)), "FC-5: a handicap kept a higher card"
                checked += 1
    assert checked >= 20


@pytest.mark.long
def test_determinize_varies_the_other_seats_hands_with_the_seed() -> None:
    varied = 0
    for seed in range(40):
        match = position(seed)
        for seat in range(3):
            view = match.view(seat)
            if sum(view.hand_sizes) - view.hand_sizes[seat] < 6:
                continue
            hands = {tuple(determinize(view, random.Random(k)).hands) for k in range(6)}
            assert all(h[seat] == int(view.hand) for h in hands)
            varied += len(hands) > 1
            assert determinize(view, random.Random(3)).hands == determinize(view, random.Random(3)).hands
    assert varied >= 60


@pytest.mark.long
def test_determinize_does_not_depend_on_the_true_hidden_cards() -> None:
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
            other = replay(other_deal, real.action_log())
            if other is None or other.view(seat).to_dict() != view.to_dict():
                continue  # not a difference hidden from this seat
            if other.hands[-1].hands == real.hands and other.hands[-1].discards == real.discards:
                continue
            for k in range(2):
                mine = determinize(view, random.Random(k))
                theirs = determinize(other.view(seat), random.Random(k))
                assert (mine.deal, mine.hands, mine.discards) == (theirs.deal, theirs.hands, theirs.discards)
            checked += 1
            break
    assert checked >= 30


def test_fc3_own_unbid_auction_cards_stay_in_the_own_view_only() -> None:
    for seed in range(20):
        match = position(seed)
        hand = match.hands[-1]
        for seat in range(3):
            view = match.view(seat)
            bid = sum(c.bit for s, c in view.calls if s == seat and c is not None)
            assert int(view.unbid_auction) == int(hand.deal.auction[seat]) & ~bid
            assert view.to_dict()["unbid_auction"] == str(view.unbid_auction)
            if view.winner is None:
                assert view.unbid_auction == view.auction_hand
            for other in range(3):
                if other != seat:
                    for c in view.unbid_auction:
                        assert str(c) not in str(match.view(other).to_dict()["unbid_auction"])


def test_determinize_names_the_seat_when_no_consistent_state_is_found() -> None:
    match = position(5)
    with pytest.raises(ClubsError, match="seat 1's view"):
        determinize(match.view(1), random.Random(0), tries=0)


def test_fc3_determinize_before_the_first_bid_gives_10s_to_the_seat_to_open() -> None:
    for seed in range(10):
        match = FreeMatch()
        match.deal(random.Random(seed))
        for seat in range(3):
            view = match.view(seat)
            for k in range(4):
                state = determinize(view, random.Random(k))
                assert state.to_act == view.to_act and state.auction_cards[view.to_act] >> TEN_OF_SPADES & 1


def table_misplay(seed: int) -> FreeMatch | None:
    """A table-mode match (FC-10) on a random deal where a seat has just misplayed, or None if none could."""
    rng = random.Random(seed)
    match = FreeMatch(FreeOptions(misplays=True))
    match.deal(rng)
    while match.current is not None:
        hand = match.current
        legal = list(match.legal_actions())
        if hand.stage is Stage.PLAY and hand.trick:
            seat = hand.to_act
            assert seat is not None
            wrong = [c for c in hand.hand_of(seat) if c not in legal]
            if wrong:
                match.apply(wrong[0])
                return match
        match.apply(rng.choice(legal))
    return None


def test_fc10_determinize_keeps_an_uncalled_misplay_and_refuses_a_called_one() -> None:
    checked = 0
    for seed in range(10):
        match = table_misplay(seed)
        if match is None:
            continue
        hand = match.hands[-1]
        misplayer = hand.misplays[0].seat
        for seat in range(3):
            view = match.view(seat)
            state = determinize(view, random.Random(seed))
            assert view_of(state, seat, view).to_dict() == view.to_dict()
        caller = (misplayer + 1) % 3
        match.apply(MisplayCall(card_at(hand.misplays[0].card)), seat=caller)
        with pytest.raises(ClubsError, match=r"misplay was called.*FC-10"):
            determinize(match.view(caller), random.Random(0))
        checked += 1
    assert checked >= 3


def test_fc5_a_queen_card_received_shows_its_giver_held_no_higher_card_of_the_suit() -> None:
    # Seat 1 passed AD (the lowest diamond) to seat 2 with its QD handicap, so it held no other diamond then, and
    # nothing brought it one later: the sampler must place no diamond in its hand, or no history can replay.
    match = any_position(59379)
    view = match.view(2)
    assert (1, 2, card("AD")) in view.transfers
    state = determinize(view, random.Random(0))
    assert view_of(state, 2, view).to_dict() == view.to_dict()
    assert not state.hands[1] & PRIMARY_SUIT_MASKS[card("AD").index // 13]
