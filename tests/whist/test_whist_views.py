"""Seat views and the sampling of hidden cards in Clubs (whist group).

A view shows a seat what it may know and nothing else; samples drawn for it agree with everything it saw and
inferred (CW-1, CW-2, CW-4) and depend on nothing it could not see.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from clubsuite.cards import STANDARD, Card, CardSet, cards
from clubsuite.errors import IllegalActionError, InvalidNotationError, NoHandError
from clubsuite.games.whist import Decision, WhistDeal, WhistMatch, WhistView
from clubsuite.games.whist.match import CORE as _CORE
from clubsuite.games.whist.match import CompiledWhistMatch as _Compiled
from clubsuite.games.whist.sampling import determinize, sample_deal, sample_hidden
from compiled_match_helpers import on_each_match_class
from whist_helpers import FULL_DECK, deal_of, play_cards, random_legal

_each_match_class = on_each_match_class(globals(), "WhistMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

CLUBS = 0


# -- helpers ------------------------------------------------------------------------------------------------
def random_position(seed: int) -> WhistMatch:
    """A match in its first hand, stopped at a random point of the exchange or the play (seeded)."""
    rng = random.Random(seed)
    match = WhistMatch()
    match.deal(deal=WhistDeal.random(rng))
    stop = rng.randrange(0, 3 + 39)
    for _ in range(stop):
        match.apply(random_legal(match.legal_actions(), rng))
    return match


def positions(seeds: range) -> Iterator[tuple[int, WhistMatch]]:
    """Seeded positions, including some in the exchange round and some at the last card."""
    for seed in seeds:
        yield seed, random_position(seed)


def cards_named(value: Any) -> set[Card]:
    """Every card a value mentions: cards, card sets and card notation inside strings, lists and dicts."""
    found: set[Card] = set()
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, CardSet):
        found.update(value)
    elif isinstance(value, str):
        for token in value.replace(",", " ").split():
            with contextlib.suppress(InvalidNotationError):
                found.add(STANDARD.parse(token))
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= cards_named(k) | cards_named(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found |= cards_named(item)
    return found


def may_know(match: WhistMatch, seat: int) -> CardSet:
    """The cards whose place ``seat`` may know: its own cards now, every card played, and the hand it left in
    the middle if it exchanged (CW-4)."""
    hand = match.hands[-1]
    played = 0
    for _, trick_cards, _ in hand.tricks:
        for i in trick_cards:
            played |= 1 << i
    for i in hand.trick_indices:
        played |= 1 << i
    return CardSet(hand.hands[seat] | played | hand.given_up.get(seat, 0))


def public_values(view: WhistView) -> dict[str, Any]:
    """Every public attribute of a view, methods called, except ``unseen`` (checked on its own)."""
    out: dict[str, Any] = {}
    for name in dir(view):
        if name.startswith("_") or name in ("unseen", "determinize"):
            continue  # determinize draws imagined cards: checked in tests/test_search_bots.py
        value = getattr(view, name)
        if callable(value):
            value = value()
        out[name] = value
    return out


def proven_absent(view: WhistView) -> list[int]:
    """For each seat, the cards the public play proves it does not hold, worked out here from the rules
    (CW-1 and CW-2) without the sampler's own code."""
    absent = [0, 0, 0]
    broken = False
    history = [(lead, list(cs)) for lead, cs, _ in view.tricks]
    if view.trick:
        history.append((view.leader, [c for _, c in view.trick]))

    def suit_above(suit: int, rank: int) -> int:
        """The cards of ``suit`` ranked above ``rank``."""
        return int(CardSet(c for c in STANDARD.cards if c.suit == suit and c.rank > rank))

    all_of = [int(CardSet(c for c in STANDARD.cards if c.suit == s)) for s in range(4)]
    for leader, played in history:
        lead = played[0]
        if lead.suit == CLUBS and not broken:
            absent[leader] |= FULL_DECK & ~all_of[CLUBS]  # CW-2: a club lead before clubs are broken
        broken = broken or lead.suit == CLUBS
        led = lead.suit
        assert led is not None
        top_led = lead.rank if led != CLUBS else 0
        top_club = lead.rank if led == CLUBS else 0
        for k, c in enumerate(played[1:], start=1):
            seat = (leader + k) % 3
            if led == CLUBS:
                if c.suit != CLUBS:
                    absent[seat] |= all_of[CLUBS]
                elif c.rank < top_club:
                    absent[seat] |= suit_above(CLUBS, top_club)
            elif c.suit == led:
                if not top_club and c.rank < top_led:
                    absent[seat] |= suit_above(led, top_led)  # did not beat: holds nothing that beats
            else:
                absent[seat] |= all_of[led]  # a void shown
                if not top_club and c.suit != CLUBS:
                    absent[seat] |= all_of[CLUBS]
                if top_club and not (c.suit == CLUBS and c.rank > top_club):
                    absent[seat] |= suit_above(CLUBS, top_club)
            if c.suit == CLUBS:
                if led != CLUBS:
                    broken = True
                top_club = max(top_club, c.rank)
            elif c.suit == led and not top_club:
                top_led = max(top_led, c.rank)
    return absent


def check_sample(match: WhistMatch, seat: int, hands: list[int], bid: int) -> None:
    """A sampled placement agrees with everything ``seat`` has seen."""
    real = match.hands[-1]
    view = match.view(seat)
    assert hands[seat] == real.hands[seat]
    for s in range(3):
        assert hands[s].bit_count() == real.hands[s].bit_count()
    assert bid.bit_count() == 13
    union = int(view.played)
    for mask in (*hands, bid):
        assert union & mask == 0
        union |= mask
    assert union == FULL_DECK
    for where, known in view.known_cards().items():
        holder = bid if where == "bid" else hands[int(where)]
        assert int(known) & ~holder == 0, f"{known} should be in {where}"
    absent = proven_absent(view)
    for s in range(3):
        if s != seat:
            assert hands[s] & absent[s] == 0, f"seat {s} was shown not to hold {CardSet(hands[s] & absent[s])}"


# -- what a view shows --------------------------------------------------------------------------------------
def test_no_view_names_a_card_its_seat_may_not_know() -> None:
    for _, match in positions(range(40)):
        for seat in range(3):
            view = match.view(seat)
            allowed = may_know(match, seat)
            for name, value in public_values(view).items():
                leaked = cards_named(value) - set(allowed)
                assert not leaked, f"view.{name} of seat {seat} names {leaked}"
            leaked = cards_named(view.to_dict()) - set(allowed)
            assert not leaked, f"to_dict() of seat {seat} names {leaked}"


def test_unseen_is_only_what_the_seat_already_knows_it_cannot_see() -> None:
    for _, match in positions(range(20)):
        for seat in range(3):
            view = match.view(seat)
            known = 0
            for cs in view.known_cards().values():
                known |= int(cs)
            assert view.unseen() == CardSet(FULL_DECK & ~int(view.hand) & ~int(view.played) & ~known)


def test_a_view_shows_its_own_hand_and_only_counts_of_the_others() -> None:
    for _, match in positions(range(20)):
        real = match.hands[-1]
        for seat in range(3):
            view = match.view(seat)
            snapshot = view.to_dict()
            assert view.hand == real.hand_of(seat)
            assert snapshot["hand"] == str(real.hand_of(seat))
            assert view.hand_sizes == tuple(len(real.hand_of(s)) for s in range(3))
            assert snapshot["bid_size"] == 13
            assert view.legal_actions() == (match.legal_actions() if match.to_act == seat else ())


LIVE_READS = (
    "phase",
    "totals",
    "hand_number",
    "to_act",
    "legal_actions",
    "dealer",
    "hand",
    "hand_sizes",
    "decisions",
    "leader",
    "trick",
    "tricks",
    "tricks_won",
    "clubs_broken",
    "played",
    "known_cards",
    "unseen",
    "to_dict",
)
"""Every reading of a view that reflects the state of the game."""


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_view_is_live_and_its_snapshot_is_not(seat: int) -> None:
    rng = random.Random(seat)
    match = WhistMatch()
    match.deal(rng=rng)
    view = match.view(seat)
    for _ in range(8):
        before = view.to_dict()
        match.apply(random_legal(match.legal_actions(), rng))
        after = view.to_dict()
        assert after != before  # the same view object follows the match
        assert before == json.loads(json.dumps(before))  # a snapshot is plain data, unaffected by the action
        for name in LIVE_READS:
            value = getattr(view, name)
            if callable(value):
                value()
        assert match.view(seat) is view


def test_a_view_shows_the_new_hand_once_it_is_dealt() -> None:
    rng = random.Random(3)
    match = WhistMatch()
    view = match.view(0)
    with pytest.raises(NoHandError):
        view.to_dict()
    match.deal(rng=rng)
    while match.current is not None:
        match.apply(random_legal(match.legal_actions(), rng))
    assert view.to_dict()["hand"] == ""
    match.deal(rng=rng)
    assert len(view.hand) == 13
    assert view.hand_number == 1


def test_a_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    match = WhistMatch()
    for seat in (-1, 3):
        with pytest.raises(IllegalActionError, match=str(seat)):
            match.view(seat)


# -- CW-4: what an exchange shows ---------------------------------------------------------------------------
EXCHANGE_DEAL = deal_of(
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
)


def test_cw4_an_exchangers_old_hand_is_known_to_lie_with_the_next_exchanger() -> None:
    match = WhistMatch()  # seat 0 deals; seats 1, 2, 0 decide in that order
    match.deal(deal=EXCHANGE_DEAL)
    match.apply(Decision.EXCHANGE)
    assert match.view(1).known_cards() == {"bid": EXCHANGE_DEAL.hands[1]}
    assert match.view(1).hand == EXCHANGE_DEAL.bid
    assert match.view(2).known_cards() == {}
    match.apply(Decision.EXCHANGE)
    assert match.view(1).known_cards() == {2: EXCHANGE_DEAL.hands[1]}
    assert match.view(2).known_cards() == {"bid": EXCHANGE_DEAL.hands[2]}
    match.apply(Decision.KEEP)
    assert match.view(0).known_cards() == {}
    assert match.view(0).to_dict()["known_cards"] == {}
    # Seat 2 leads (the last exchanger); once it plays a diamond, seat 1 no longer lists that card.
    assert match.to_act == 2
    play_cards(match, "5D")
    assert match.view(1).known_cards() == {2: EXCHANGE_DEAL.hands[1] - cards("5D")}


def test_cw4_an_exchangers_old_hand_stays_in_the_bid_when_nobody_exchanges_after() -> None:
    match = WhistMatch()
    match.deal(deal=EXCHANGE_DEAL)
    for decision in (Decision.KEEP, Decision.EXCHANGE, Decision.KEEP):
        match.apply(decision)
    assert match.view(2).known_cards() == {"bid": EXCHANGE_DEAL.hands[2]}
    assert match.view(2).to_dict()["known_cards"] == {"bid": str(EXCHANGE_DEAL.hands[2])}
    assert match.view(1).known_cards() == {} and match.view(0).known_cards() == {}
    assert match.view(2).unseen() == CardSet(FULL_DECK) - EXCHANGE_DEAL.bid - EXCHANGE_DEAL.hands[2]


def test_cw4_a_later_exchanger_is_not_told_where_the_earlier_one_put_anything() -> None:
    match = WhistMatch()
    match.deal(deal=EXCHANGE_DEAL)
    for decision in (Decision.EXCHANGE, Decision.EXCHANGE, Decision.EXCHANGE):
        match.apply(decision)
    # Seat 2 took seat 1's old hand and so has seen it, but only as its own hand; it is told nothing else.
    assert match.view(2).hand == EXCHANGE_DEAL.hands[1]
    assert match.view(2).known_cards() == {0: EXCHANGE_DEAL.hands[2]}
    assert match.view(0).known_cards() == {"bid": EXCHANGE_DEAL.hands[0]}
    assert match.view(1).known_cards() == {2: EXCHANGE_DEAL.hands[1]}


# -- sampling -----------------------------------------------------------------------------------------------
def test_cw1_cw2_cw4_sample_hidden_agrees_with_everything_the_seat_has_seen() -> None:
    for seed, match in positions(range(60)):
        for seat in range(3):
            view = match.view(seat)
            for k in range(3):
                hands, bid = sample_hidden(view, random.Random(seed * 10 + k))
                check_sample(match, seat, hands, bid)


def test_cw1_sample_hidden_respects_a_shown_void_and_a_failure_to_beat() -> None:
    deal = deal_of(
        "10H AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
        "JH 3H AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
        "2H 4H 5H 6H 7H 8H 9H 4C 5C 6C 2S 3S 2D",
    )
    match = WhistMatch(first_dealer=2)  # seat 0 leads
    match.deal(deal=deal)
    for _ in range(3):
        match.apply(Decision.KEEP)
    # Seat 2 follows the jack with 9H: it holds no heart above the jack (CW-1). Then seat 2 follows 4S with 3S,
    # so it holds no spade above the four, and seat 0 discards 5D: no spades, and no clubs either.
    play_cards(match, "10H JH 9H 4S 3S 5D")
    spades, all_clubs = (
        cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"),
        cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
    )
    above_four = cards("5S 6S 7S 8S 9S 10S JS QS KS AS")
    view = match.view(1)
    absent = proven_absent(view)
    assert (spades | all_clubs).issubset(absent[0])
    assert (cards("QH KH AH") | above_four).issubset(absent[2])
    for k in range(30):
        hands, bid = sample_hidden(view, random.Random(k))
        check_sample(match, 1, hands, bid)
        assert not CardSet(hands[0]) & (spades | all_clubs)
        assert not CardSet(hands[2]) & (cards("QH KH AH") | above_four)


def test_cw4_sample_deal_reproduces_what_the_seat_saw_in_the_exchange() -> None:
    for seed, match in positions(range(60)):
        real = match.hands[-1]
        for seat in range(3):
            view = match.view(seat)
            deal = sample_deal(view, random.Random(seed))
            assert deal.hands[seat] == real.deal.hands[seat]
            exchangers = [s for s, x in real.decisions if x]
            if seat in exchangers:
                # The hand it took: the original bid for the first exchanger, else the previous one's hand.
                k = exchangers.index(seat)
                took_real = real.deal.bid if k == 0 else real.deal.hands[exchangers[k - 1]]
                took_sampled = deal.bid if k == 0 else deal.hands[exchangers[k - 1]]
                assert took_sampled == took_real


def test_determinize_replays_the_public_actions_and_keeps_the_seats_legal_actions() -> None:
    for seed, match in positions(range(60)):
        real = match.hands[-1]
        for seat in range(3):
            state = determinize(match.view(seat), random.Random(seed + 1000 * seat))
            assert state.action_log() == real.action_log()
            assert state.hands[seat] == real.hands[seat]
            assert state.given_up.get(seat) == real.given_up.get(seat)
            assert (state.to_act, state.phase, state.clubs_broken) == (real.to_act, real.phase, real.clubs_broken)
            assert state.tricks_won == real.tricks_won and state.trick == real.trick
            assert [bin(h).count("1") for h in state.hands] == [bin(h).count("1") for h in real.hands]
            if real.to_act == seat:
                assert tuple(state.legal_actions()) == tuple(real.legal_actions())


def test_determinized_state_can_be_played_to_the_end() -> None:
    for seed, match in positions(range(10)):
        state = determinize(match.view(0), random.Random(seed))
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(random_legal(state.legal_actions(), rng))
        assert sum(state.tricks_won) == 13


def test_samples_vary_where_the_hidden_cards_are_free() -> None:
    for _, match in positions(range(10)):
        view = match.view(0)
        if len(view.unseen()) < 6:
            continue
        placements = {tuple(sample_hidden(view, random.Random(k))[0]) for k in range(50)}
        assert len(placements) > 1
        deals = {sample_deal(view, random.Random(k)) for k in range(50)}
        assert len(deals) > 1


def swap_hidden(deal: WhistDeal, first: Card, second: Card) -> WhistDeal:
    """The deal with two cards trading places between the piles they were dealt to."""
    piles = [int(h) for h in (*deal.hands, deal.bid)]
    a = next(i for i, p in enumerate(piles) if p >> first.index & 1)
    b = next(i for i, p in enumerate(piles) if p >> second.index & 1)
    piles[a] ^= first.bit | second.bit
    piles[b] ^= first.bit | second.bit
    return WhistDeal((CardSet(piles[0]), CardSet(piles[1]), CardSet(piles[2])), CardSet(piles[3]))


def replay(deal: WhistDeal, actions: list[Any]) -> WhistMatch | None:
    """A match on ``deal`` after ``actions``, or None if they are not all legal there."""
    match = WhistMatch()
    match.deal(deal=deal)
    try:
        for action in actions:
            match.apply(action)
    except IllegalActionError:
        return None
    return match


def test_samples_do_not_depend_on_the_true_hidden_cards() -> None:
    checked = 0
    for seed, match in positions(range(80)):
        real = match.hands[-1]
        seat = seed % 3
        view = match.view(seat)
        unseen = list(view.unseen())
        rng = random.Random(seed)
        rng.shuffle(unseen)
        piles = [int(h) for h in (*real.deal.hands, real.deal.bid)]

        def pile(c: Card, piles: list[int] = piles) -> int:
            """Which of the dealt piles (three seats, then the bid) held ``c``."""
            return next(i for i, p in enumerate(piles) if p >> c.index & 1)

        pairs = [(a, b) for a in unseen[:8] for b in unseen[:8] if a.index < b.index and pile(a) != pile(b)]
        for first, second in pairs:
            other = replay(swap_hidden(real.deal, first, second), real.action_log())
            if other is None:
                continue
            other_view = other.view(seat)
            assert other_view.to_dict() == view.to_dict()
            assert other.hands[-1].hands != real.hands or other.hands[-1].bid != real.bid
            for k in range(3):
                assert sample_hidden(other_view, random.Random(k)) == sample_hidden(view, random.Random(k))
                assert sample_deal(other_view, random.Random(k)) == sample_deal(view, random.Random(k))
            checked += 1
            break
    assert checked >= 40
