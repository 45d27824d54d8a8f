"""What a spectator of Free Clubs is shown: the auction, the handicaps as counts, who passed to whom, the cards
played; never a hand, the chest (FC-5), a discard, nor a passed card (FC-2, FC-5)."""

from __future__ import annotations

import random

from clubsuite.cards import card_at
from clubsuite.games.free import FreeMatch, Stage
from clubsuite.games.free.spectator import public_dict
from knowable import cards_named, knowable_cards


def match_in_play(seed: int, queen: bool = False) -> FreeMatch:
    """The first match from ``seed`` on whose first hand reaches the play (with a Queen's pass, if asked), stopped at
    the first lead."""
    for s in range(seed, seed + 500):
        rng = random.Random(s)
        match = FreeMatch()
        match.deal(rng)
        while match.current is not None and match.current.stage is not Stage.PLAY:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        hand = match.current
        if hand is not None and (not queen or any(to >= 0 and removed for _, _, removed, to in hand.handicaps)):
            return match
    raise AssertionError("no seed reached the play")


def test_fc5_only_the_chests_taker_sees_it_and_the_spectator_sees_no_hand_chest_or_discard() -> None:
    match = match_in_play(1)
    hand = match.current
    assert hand is not None
    for seat in range(3):
        view = match.view(seat).to_dict()
        assert view["chest"] == (str(hand.deal.chest) if seat == hand.winner else None)
    shown = public_dict(match)
    assert shown["hand"] is None and shown["auction_hand"] is None and shown["unbid_auction"] is None
    assert shown["chest"] is None and shown["discards"] is None and shown["pass_choice"] is None
    assert [h["count"] for h in shown["handicaps"]] == [removed.bit_count() for _, _, removed, _ in hand.handicaps]
    bids = {call["bid"] for call in shown["auction"] if call["bid"] != "pass"}
    assert cards_named(shown, "free") == bids  # FC-3: the bids lie face up; nothing is played yet


def test_fc2_fc5_a_passed_card_shows_to_giver_and_receiver_and_the_spectator_sees_only_who_gave_to_whom() -> None:
    match = match_in_play(7, queen=True)
    hand = match.current
    assert hand is not None
    shown = public_dict(match)
    assert shown["transfers"] == [{"from": g, "to": r} for g, r, _ in hand.passed]
    for giver, receiver, index in hand.passed:
        card = card_at(index)
        assert (giver, receiver, card) in match.view(receiver).transfers
        assert (giver, receiver, card) in match.view(giver).transfers
        assert str(card) in knowable_cards(match, receiver)
        assert str(card) not in knowable_cards(match, None)
    assert cards_named(shown, "free") <= knowable_cards(match, None)
