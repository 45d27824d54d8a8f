"""Seat views and the sampling of hidden cards in Clubs (partnership).

A view shows a seat what it may know and nothing else: its own hand, the cards played, its own side of the pass
(CP-2), the suits others have shown they lack. Samples drawn for it agree with all of that and depend on nothing it
could not see: two deals that differ only in cards the seat cannot know give the same view and the same samples.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from partnership_helpers import FULL_DECK, pdeal, play, random_legal

from clubsuite.cards import STANDARD, SUIT_MASKS, Card, CardSet, Suit, cards
from clubsuite.errors import IllegalActionError, InvalidNotationError, NoHandError
from clubsuite.games.partnership import Direction, PartnershipDeal, PartnershipMatch, PassChoices, receiver
from clubsuite.games.partnership.hand import PartnershipPhase
from clubsuite.games.partnership.match import CORE as _CORE
from clubsuite.games.partnership.match import CompiledPartnershipMatch as _Compiled
from clubsuite.games.partnership.sampling import determinize, sample_deal, sample_hidden, void_masks
from compiled_match_helpers import on_each_match_class

_each_match_class = on_each_match_class(globals(), "PartnershipMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""


# -- helpers ------------------------------------------------------------------------------------------------
def random_position(seed: int) -> PartnershipMatch:
    """A match stopped at a random point of its first, second or third hand (seeded): in the pass or in play."""
    rng = random.Random(seed)
    match = PartnershipMatch(first_dealer=rng.randrange(4))
    for _ in range(rng.randrange(3)):
        match.deal(deal=PartnershipDeal.random(rng))
        while match.current is not None:
            match.apply(random_legal(match.legal_actions(), rng))
    match.deal(deal=PartnershipDeal.random(rng))
    for _ in range(rng.randrange(0, 56)):
        if match.current is None or match.to_act is None:
            break
        match.apply(random_legal(match.legal_actions(), rng))
    if match.current is None:  # the hand ended: deal the next one
        match.deal(deal=PartnershipDeal.random(rng))
    return match


def positions(seeds: range) -> Iterator[tuple[int, PartnershipMatch]]:
    """Seeded positions: in every kind of hand, in the pass and in play."""
    for seed in seeds:
        yield seed, random_position(seed)


def cards_named(value: Any) -> set[Card]:
    """Every card a value mentions: cards, card sets and card notation inside strings, lists and dicts."""
    found: set[Card] = set()
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, CardSet):
        found.update(value)
    elif isinstance(value, PassChoices):
        found.update(CardSet(value.hand))
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


def may_know(match: PartnershipMatch, seat: int) -> CardSet:
    """The cards whose place ``seat`` may know: its own cards now, every card played, the cards it chose to pass,
    and those it received once the pass is done (CP-2)."""
    hand = match.hands[-1]
    played = 0
    for taken in hand.taken:
        played |= taken
    for i in hand.trick_indices:
        played |= 1 << i
    mine = hand.hands[seat] | hand.pass_choices.get(seat, 0)
    if hand.passed:
        mine |= hand.play_start_hands[seat]
    return CardSet(mine | played)


def public_values(view: Any) -> dict[str, Any]:
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


# -- what a view shows --------------------------------------------------------------------------------------
def test_cp2_no_view_names_a_card_its_seat_may_not_know() -> None:
    for _, match in positions(range(60)):
        for seat in range(4):
            view = match.view(seat)
            allowed = set(may_know(match, seat))
            for name, value in public_values(view).items():
                leaked = cards_named(value) - allowed
                assert not leaked, f"view.{name} of seat {seat} names {leaked}"
            leaked = cards_named(view.to_dict()) - allowed
            assert not leaked, f"to_dict() of seat {seat} names {leaked}"


DEAL = pdeal(
    "AC 2C AD QD 2D AH 3H 2H AS 5S 4S 3S 2S",
    "KC 3C KD 4D 3D KH 5H 4H KS 9S 8S 7S 6S",
    "QC 6C 5C 4C JD 6D 5D QH 7H 6H QS JS 10S",
)


def test_cp2_a_seat_sees_its_own_choice_at_once_and_what_it_receives_only_when_all_four_chose() -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    match.apply("pass KC 3C KD")  # seat 1 gives to seat 2
    assert match.view(1).given == cards("KC 3C KD") and match.view(1).received is None
    assert match.view(2).received is None and match.view(2).given is None
    assert match.view(0).chosen == (1,) and match.view(3).to_dict()["given"] is None
    match.apply("pass QC 6C 5C")
    match.apply("pass JC 10C 9C")
    match.apply("pass 2C AD QD")
    assert match.view(2).received == cards("KC 3C KD")
    assert match.view(1).received == cards("2C AD QD")
    assert match.view(1).known_cards() == {2: cards("KC 3C KD")}  # what it gave is with the receiver
    assert match.view(1).pass_to == 2 and match.view(1).pass_from == 0
    assert match.view(1).unseen() == CardSet(FULL_DECK - match.view(1).hand - cards("KC 3C KD"))


def test_cp2_cards_passed_stop_being_known_once_played() -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    for text in ("pass KC 3C KD", "pass QC 6C 5C", "pass JC 10C 9C", "pass 2C AD QD"):
        match.apply(text)
    play(match, "AD KD")  # seat 1 leads; seat 2 follows with the king it received from seat 1
    assert match.view(1).known_cards() == {2: cards("KC 3C")}
    play(match, "10D 2D 2C KC")  # seat 1 wins with the ace and leads a club; seat 2 plays the king it received
    assert match.view(1).known_cards() == {2: cards("3C")}


def test_voids_shown_in_play_are_public_and_samples_respect_them() -> None:
    hand_deal = DEAL  # seat 3 holds no spade
    match = PartnershipMatch(first_dealer=1)
    for _ in range(2):
        match.deal(deal=hand_deal)
        while match.current is not None:
            match.apply(match.legal_actions()[0])
    match.deal(deal=hand_deal)  # the third hand: no pass, seat 3 deals, seat 0 leads
    assert match.current is not None and match.current.direction is Direction.NONE
    play(match, "AS 6S 10S 7C")
    for seat in range(4):
        assert match.view(seat).voids()[3] == (Suit.SPADES,)
        assert match.view(seat).to_dict()["voids"] == ["", "", "", "S"]
    view = match.view(1)
    for k in range(30):
        hands = sample_hidden(view, random.Random(k))
        assert not hands[3] & SUIT_MASKS[Suit.SPADES]
    assert void_masks(view)[3] == SUIT_MASKS[Suit.SPADES]


def test_a_view_before_any_deal_says_so_and_a_seat_that_does_not_exist_is_refused() -> None:
    match = PartnershipMatch()
    with pytest.raises(NoHandError):
        _ = match.view(0).hand
    with pytest.raises(IllegalActionError, match="seat 4 does not exist"):
        match.view(4)


def test_a_view_is_live_and_its_snapshot_is_not() -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    view = match.view(1)
    snap = view.to_dict()
    assert (
        view.phase is PartnershipPhase.PASS
        and snap["phase"] == "pass"
        and snap["legal"] == ["pass any three cards of the hand"]
    )
    match.apply("pass KC 3C KD")
    assert view is match.view(1) and view.given == cards("KC 3C KD")
    assert snap["given"] is None and view.to_dict()["given"] == "3C KC KD"


# -- sampling -----------------------------------------------------------------------------------------------
def check_sample(match: PartnershipMatch, seat: int, hands: list[int]) -> None:
    """A sampled placement agrees with everything ``seat`` has seen."""
    real = match.hands[-1]
    view = match.view(seat)
    assert hands[seat] == real.hands[seat]
    assert [h.bit_count() for h in hands] == [h.bit_count() for h in real.hands]
    union = int(view.played)
    for mask in hands:
        assert union & mask == 0
        union |= mask
    assert union == int(FULL_DECK)
    for where, known in view.known_cards().items():
        assert int(known) & ~hands[where] == 0, f"{known} should be with seat {where}"
    for s, suits in enumerate(view.voids()):
        for suit in suits:
            assert not hands[s] & SUIT_MASKS[suit]


def test_cp2_sample_hidden_agrees_with_everything_the_seat_has_seen() -> None:
    for seed, match in positions(range(60)):
        if match.current is None:
            continue
        for seat in range(4):
            check_sample(match, seat, sample_hidden(match.view(seat), random.Random(seed)))


def test_cp2_determinize_replays_the_public_actions_and_agrees_with_the_view() -> None:
    for seed, match in positions(range(60)):
        real = match.current
        if real is None:
            continue
        for seat in range(4):
            view = match.view(seat)
            state = determinize(view, random.Random(seed))
            assert state.to_act == real.to_act and state.phase is real.phase
            assert state.hands[seat] == real.hands[seat]
            assert state.trick == real.trick and state.tricks == real.tricks
            assert list(state.pass_choices) == list(real.pass_choices)
            if seat in real.pass_choices:
                assert state.pass_choices[seat] == real.pass_choices[seat]
            if real.passed:
                giver = next(g for g in range(4) if receiver(g, real.direction) == seat)
                assert state.passed[giver] == real.passed[giver]
            if real.to_act == seat:
                assert state.legal_actions() == real.legal_actions()
            rng = random.Random(seed)
            while not state.is_over:
                state.apply(random_legal(state.legal_actions(), rng))
            assert sum(state.team_scores or ()) in (31, 36)


def test_samples_vary_where_the_hidden_cards_are_free() -> None:
    for _, match in positions(range(12)):
        if match.current is None:
            continue
        view = match.view(0)
        if len(view.unseen()) < 8:
            continue
        assert len({tuple(sample_hidden(view, random.Random(k))) for k in range(40)}) > 1
        assert len({sample_deal(view, random.Random(k)) for k in range(40)}) > 1


def swap_hidden(deal: PartnershipDeal, first: Card, second: Card) -> PartnershipDeal:
    """The deal with two cards trading places between the hands they were dealt to."""
    piles = [int(h) for h in deal.hands]
    a = next(i for i, p in enumerate(piles) if p >> first.index & 1)
    b = next(i for i, p in enumerate(piles) if p >> second.index & 1)
    piles[a] ^= first.bit | second.bit
    piles[b] ^= first.bit | second.bit
    return PartnershipDeal(tuple(CardSet(p) for p in piles))  # type: ignore[arg-type]


def replay_on(match: PartnershipMatch, deal: PartnershipDeal) -> PartnershipMatch | None:
    """The same match with its last hand dealt ``deal`` and the same actions, or None if they are not all legal."""
    other = PartnershipMatch(first_dealer=match.first_dealer)
    try:
        for hand in match.hands[:-1]:
            other.deal(deal=hand.deal)
            for action in hand.action_log():
                other.apply(action)
        other.deal(deal=deal)
        for action in match.hands[-1].action_log():
            other.apply(action)
    except IllegalActionError:
        return None
    return other


def test_no_leak_two_deals_differing_only_in_unknown_cards_give_the_same_view_and_the_same_samples() -> None:
    checked = 0
    for seed, match in positions(range(120)):
        real = match.current
        if real is None:
            continue
        seat = seed % 4
        view = match.view(seat)
        unknown = [c for c in FULL_DECK if c not in may_know(match, seat)]
        rng = random.Random(seed)
        rng.shuffle(unknown)
        dealt = [int(h) for h in real.deal.hands]

        def pile(c: Card, dealt: list[int] = dealt) -> int:
            """The seat ``c`` was dealt to."""
            return next(i for i, p in enumerate(dealt) if p >> c.index & 1)

        pairs = [(a, b) for a in unknown[:10] for b in unknown[:10] if a.index < b.index and pile(a) != pile(b)]
        for first, second in pairs:
            other = replay_on(match, swap_hidden(real.deal, first, second))
            if other is None:
                continue
            other_view = other.view(seat)
            assert other.hands[-1].hands != real.hands or other.hands[-1].deal != real.deal
            assert other_view.to_dict() == view.to_dict()
            for k in range(3):
                assert sample_hidden(other_view, random.Random(k)) == sample_hidden(view, random.Random(k))
                assert sample_deal(other_view, random.Random(k)) == sample_deal(view, random.Random(k))
                a = determinize(other_view, random.Random(k))
                b = determinize(view, random.Random(k))
                assert (a.hands, a.pass_choices, a.deal) == (b.hands, b.pass_choices, b.deal)
            checked += 1
            break
    assert checked >= 60
