"""Seat views and the sampling of hidden cards in North Star's CLUBS.

A view shows a seat its own hand and the public table, and nothing else: two deals that differ only in cards the
seat cannot see give it the same view and the same samples. Samples agree with everything the seat knows, including
what the pack tells it across rounds when leftover cards are kept (NS-6), and are uniform where nothing is known.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsuite.cards import Card, CardSet
from clubsuite.errors import IllegalActionError, InvalidNotationError
from clubsuite.games.northstar import (
    Call,
    Leftover,
    NorthstarAction,
    NorthstarDeal,
    NorthstarMatch,
    NorthstarOptions,
    Play,
    Teams,
)
from clubsuite.games.northstar.combos import DECK_MASK, NORTHSTAR
from clubsuite.games.northstar.match import CORE as _CORE
from clubsuite.games.northstar.match import CompiledNorthstarMatch as _Compiled
from clubsuite.games.northstar.sampling import sample_hidden
from compiled_match_helpers import on_each_match_class

_each_match_class = on_each_match_class(globals(), "NorthstarMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

Round = tuple[NorthstarDeal, list[NorthstarAction]]
"""A round as played: its deal and its actions (all of them, or those so far for the round in progress)."""


# -- helpers ------------------------------------------------------------------------------------------------
def choose(legal: tuple[NorthstarAction, ...], rng: random.Random) -> NorthstarAction:
    """A random legal action, passing more often than uniform so that tricks are also won by passes."""
    if Call.PASS in legal and rng.random() < 0.3:
        return Call.PASS
    return legal[rng.randrange(len(legal))]


def position(options: NorthstarOptions, seed: int, rounds_before: int) -> NorthstarMatch:
    """A match (seat 0 deals first) after ``rounds_before`` whole rounds and part of one more, stopped at a random
    point before its end; every action random."""
    rng = random.Random(seed)
    match = NorthstarMatch(options, 0)
    for _ in range(rounds_before + 1):
        match.deal(rng=rng)
        while match.current is not None:
            match.apply(choose(match.legal_actions(), rng))
    rounds = rounds_of(match)
    deal, actions = rounds[-1]
    return replay(options, 0, [*rounds[:-1], (deal, actions[: rng.randrange(len(actions))])])


def rounds_of(match: NorthstarMatch) -> list[Round]:
    """Every round of the match with its deal and its actions so far."""
    return [(h.deal, h.action_log()) for h in match.hands]


def replay(options: NorthstarOptions, dealer: int, rounds: list[Round]) -> NorthstarMatch:
    """A new match with the given deals and actions applied."""
    match = NorthstarMatch(options, dealer)
    for deal, actions in rounds:
        match.deal(deal=deal)
        for action in actions:
            match.apply(action)
    return match


def played_now(match: NorthstarMatch) -> int:
    """Every card played in the round in progress (a mask)."""
    cur = match.hands[-1]
    mask = cur.trick_cards
    for m in cur.won:
        mask |= m
    return mask


def seen_in(match: NorthstarMatch, index: int, seat: int) -> int:
    """What ``seat`` saw in round ``index``: the hand it was dealt and every card played (a mask)."""
    h = match.hands[index]
    mask = int(h.deal.hands[seat]) | h.trick_cards
    for m in h.won:
        mask |= m
    return mask


def cards_named(value: Any) -> set[Card]:
    """Every North Star card a value names: cards, card sets, plays and card notation in strings, lists, dicts."""
    found: set[Card] = set()
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, Play):
        found.update(value.cards)
    elif isinstance(value, CardSet):
        found.update(value)
    elif isinstance(value, str):
        for token in value.replace(",", " ").replace("-", " ").split():
            with contextlib.suppress(InvalidNotationError):
                found.add(NORTHSTAR.parse(token.split("=")[0]))
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= cards_named(k) | cards_named(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found |= cards_named(item)
    return found


OPTION_SETS = [
    NorthstarOptions(players=2, target=100000),
    NorthstarOptions(players=3, wild_fifteens=True, target=100000),
    NorthstarOptions(players=4, crazy=True, double_or_nothing=True, target=100000),
    NorthstarOptions(players=4, teams=Teams.TWO_BY_TWO, target=100000),
    NorthstarOptions(players=5, leftover=Leftover.RESHUFFLE, wild_fifteens=True, crazy=True, target=100000),
    NorthstarOptions(players=6, teams=Teams.TWO_BY_THREE, double_or_nothing=True, target=100000),
]


# -- what a view shows -------------------------------------------------------------------------------------
def test_a_view_shows_its_own_hand_and_the_public_table() -> None:
    for k, options in enumerate(OPTION_SETS):
        match = position(options, 100 + k, rounds_before=k % 2)
        cur = match.hands[-1]
        for seat in range(options.players):
            view = match.view(seat)
            assert view.seat == seat and view.players == options.players and view.options == options
            assert view.hand == cur.hands[seat]
            assert view.hand_sizes == tuple(h.bit_count() for h in cur.hands)
            assert view.trick == tuple(cur.trick) and view.top == cur.top and view.top_seat == cur.top_seat
            assert view.won == tuple(CardSet(m) for m in cur.won)
            assert int(view.played) == played_now(match)
            assert view.bonus == tuple(cur.bonus) and view.out_order == tuple(cur.out_order)
            assert view.doubled == tuple(s for s in range(options.players) if cur.doubled[s])
            assert view.history == tuple(cur.history) and view.tricks == tuple(cur.tricks)
            assert view.totals == tuple(match.totals) and view.team_totals == match.team_totals
            assert view.partners() == tuple(
                s for s in range(options.players) if s != seat and options.team_of(s) == options.team_of(seat)
            )
            assert view.legal_actions() == (match.legal_actions() if match.to_act == seat else ())
            data = view.to_dict()
            assert data["hand"] == str(CardSet(cur.hands[seat])) and data["hand_sizes"] == list(view.hand_sizes)
            assert data["seat"] == seat and data["to_act"] == match.to_act


def test_no_view_names_a_card_its_seat_may_not_know() -> None:
    for k, options in enumerate(OPTION_SETS):
        for seed in range(4):
            match = position(options, 200 + 10 * k + seed, rounds_before=seed % 2)
            cur = match.hands[-1]
            for seat in range(options.players):
                view = match.view(seat)
                may_know = cur.hands[seat] | played_now(match)
                exposed = [
                    view.to_dict(),
                    view.history,
                    view.trick,
                    view.won,
                    view.tricks,
                    view.legal_actions(),
                    view.played,
                ]
                for c in cards_named(exposed):
                    assert may_know >> c.index & 1, f"seat {seat}'s view names {c}"


def test_a_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    match = NorthstarMatch(NorthstarOptions(players=3))
    with pytest.raises(IllegalActionError, match="seat 3 does not exist"):
        match.view(3)


# -- nothing hidden leaks ----------------------------------------------------------------------------------
def shuffle_unseen(match: NorthstarMatch, seat: int, rng: random.Random) -> NorthstarDeal:
    """The current round's deal with the cards ``seat`` cannot see moved at random among the other hands (and the
    undealt cards, where the pack allows it, NS-6); every card already played stays where it was."""
    options = match.options
    n = options.players
    cur = match.hands[-1]
    k = len(match.hands) - 1
    held = [cur.hands[s] if s != seat else 0 for s in range(n)]
    pool = 0
    for m in held:
        pool |= m
    stock = _stock_before(match)
    if options.leftover is Leftover.RESHUFFLE or k == 0 or stock == 0:
        pool |= DECK_MASK & ~cur.deal.cards  # a full shuffle: any card not dealt could have been
    elif stock.bit_count() >= 10 * n:
        pool |= stock & ~cur.deal.cards  # dealt from the undealt cards alone: any of them could have been
    cards = list(CardSet(pool))
    rng.shuffle(cards)
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(cur.deal.hands[s])
            continue
        size = held[s].bit_count()
        take, cards = cards[:size], cards[size:]
        hands.append(CardSet(int(cur.deal.hands[s]) & ~held[s]) | CardSet(take))
    return NorthstarDeal(tuple(hands))


def _stock_before(match: NorthstarMatch) -> int:
    """The cards left undealt before the current round, recomputed from the deals (NS-6, leftover=next_round)."""
    n = match.options.players
    stock, discards = DECK_MASK, 0
    for h in match.hands[:-1]:
        dealt = h.deal.cards
        if stock.bit_count() >= 10 * n:
            stock &= ~dealt
        else:
            stock, discards = (stock | discards) & ~dealt, 0
        discards |= dealt
    assert stock.bit_count() == match.packs[-1][0] or match.options.leftover is Leftover.RESHUFFLE
    return stock


@st.composite
def leak_setups(draw: st.DrawFn) -> tuple[NorthstarOptions, int, int, int]:
    """Options, a seed, the rounds played before, and the seat to look from."""
    players = draw(st.integers(2, 6))
    teams = Teams.NONE
    if players == 4:
        teams = draw(st.sampled_from([Teams.NONE, Teams.TWO_BY_TWO]))
    elif players == 6:
        teams = draw(st.sampled_from([Teams.NONE, Teams.THREE_BY_TWO, Teams.TWO_BY_THREE]))
    options = NorthstarOptions(
        players=players,
        teams=teams,
        wild_fifteens=draw(st.booleans()),
        crazy=draw(st.booleans()),
        double_or_nothing=draw(st.booleans()),
        leftover=draw(st.sampled_from(list(Leftover))),
        target=100000,
    )
    return options, draw(st.integers(0, 2**32)), draw(st.integers(0, 3)), draw(st.integers(0, players - 1))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leak_setups())
def test_deals_differing_only_in_unseen_cards_give_the_same_view_and_samples(
    setup: tuple[NorthstarOptions, int, int, int],
) -> None:
    options, seed, rounds_before, seat = setup
    real = position(options, seed, rounds_before)
    rounds = rounds_of(real)
    other_deal = shuffle_unseen(real, seat, random.Random(seed))
    other = replay(options, 0, [*rounds[:-1], (other_deal, rounds[-1][1])])
    assert other.hands[-1].hands[seat] == real.hands[-1].hands[seat]
    assert other.view(seat).to_dict() == real.view(seat).to_dict()
    assert other.view(seat).history == real.view(seat).history
    for x in range(3):
        assert sample_hidden(other.view(seat), random.Random(x)) == sample_hidden(real.view(seat), random.Random(x))


def test_the_unseen_cards_are_really_moved_in_the_leak_check() -> None:
    moved = 0
    for k, options in enumerate(OPTION_SETS):
        real = position(options, 300 + k, rounds_before=1)
        other_deal = shuffle_unseen(real, 0, random.Random(k))
        moved += other_deal != real.hands[-1].deal
    assert moved >= len(OPTION_SETS) - 1


# -- what samples agree with -------------------------------------------------------------------------------
def check_sample(match: NorthstarMatch, seat: int, sample: tuple[CardSet, ...]) -> None:
    """A sample keeps the seat's own hand and every hand size, and places no card twice or any card played."""
    view = match.view(seat)
    assert len(sample) == match.options.players
    assert sample[seat] == view.hand
    assert tuple(len(h) for h in sample) == view.hand_sizes
    union = 0
    for h in sample:
        assert int(h) & union == 0, "a card placed twice"
        assert int(h) & played_now(match) == 0, "a played card placed in a hand"
        assert int(h) & ~DECK_MASK == 0
        union |= int(h)


def test_samples_agree_with_the_own_hand_and_the_sizes_and_exclude_played_cards() -> None:
    for k, options in enumerate(OPTION_SETS):
        for seed in range(3):
            match = position(options, 400 + 10 * k + seed, rounds_before=seed)
            for seat in range(options.players):
                for x in range(3):
                    check_sample(match, seat, sample_hidden(match.view(seat), random.Random(x)))


def test_samples_vary_where_the_hidden_cards_are_free() -> None:
    for k, options in enumerate(OPTION_SETS):
        match = position(options, 500 + k, rounds_before=0)
        view = match.view(0)
        if sum(view.hand_sizes) - len(view.hand) < 2:
            continue
        samples = {sample_hidden(view, random.Random(x)) for x in range(30)}
        assert len(samples) > 1


def test_ns6_kept_leftovers_with_2_or_3_players_never_put_a_card_seen_since_the_last_shuffle_in_play() -> None:
    # 2 players: rounds 0-2 use the pack's 60 cards in turn; 3 players: rounds 0-1. Then a new shuffle.
    for players in (2, 3):
        options = NorthstarOptions(players=players, target=100000)
        per_cycle = 60 // (10 * players)
        for rounds_before in range(1, 2 * per_cycle + 1):
            match = position(options, 600 + 10 * players + rounds_before, rounds_before)
            first = (rounds_before // per_cycle) * per_cycle  # the round of the last full shuffle
            for seat in range(players):
                seen = 0
                for j in range(first, rounds_before):
                    seen |= seen_in(match, j, seat)
                for x in range(5):
                    sample = sample_hidden(match.view(seat), random.Random(x))
                    check_sample(match, seat, sample)
                    for s in range(players):
                        if s != seat:
                            assert int(sample[s]) & seen == 0, f"round {rounds_before}: a seen card back in play"


def test_ns6_kept_leftovers_with_4_or_5_players_keep_the_cards_out_of_play_among_last_rounds() -> None:
    # All the cards undealt last round are dealt now, so the cards out of play now were all in last round's deal:
    # the seat saw them then, or they are among the r cards the other players still held when it ended, unseen.
    # In every sample, then, at most r of the cards out of play are cards the seat did not see last round.
    for players in (4, 5):
        options = NorthstarOptions(players=players, target=100000)
        for rounds_before in (1, 2, 3):
            match = position(options, 700 + 10 * players + rounds_before, rounds_before)
            assert match.packs[-1][0] < 10 * players  # the discards were shuffled in
            ended = match.hands[-2]
            for seat in range(players):
                seen_last = seen_in(match, len(match.hands) - 2, seat)
                unseen_left = sum(ended.hands[s].bit_count() for s in range(players) if s != seat)
                assert match.view(seat).left_holding(len(match.hands) - 2) == unseen_left
                truth = DECK_MASK & ~played_now(match)
                for h in match.hands[-1].hands:
                    truth &= ~h
                assert (truth & ~seen_last).bit_count() <= unseen_left  # the real deal satisfies it too
                for x in range(5):
                    sample = sample_hidden(match.view(seat), random.Random(x))
                    check_sample(match, seat, sample)
                    out = DECK_MASK & ~played_now(match)
                    for h in sample:
                        out &= ~int(h)
                    assert out.bit_count() == 60 - 10 * players
                    assert (out & ~seen_last).bit_count() <= unseen_left, "a card surely dealt now is out of play"


# -- uniformity ----------------------------------------------------------------------------------------------
def late_position(players: int, seed: int, others_hold: range) -> tuple[NorthstarMatch, int]:
    """A reshuffle-mode position of a first round where the other seats together hold ``others_hold`` cards (in at
    least two hands when there are several), and the seat to act, which looks at it."""
    options = NorthstarOptions(players=players, leftover=Leftover.RESHUFFLE)
    for attempt in range(200):
        rng = random.Random(seed + attempt)
        match = NorthstarMatch(options)
        match.deal(rng=rng)
        while match.current is not None:
            cur = match.current
            seat = cur.to_act
            assert seat is not None
            others = [cur.hands[s].bit_count() for s in range(players) if s != seat]
            if sum(others) in others_hold and sum(1 for x in others if x) >= min(2, players - 1):
                return match, seat
            match.apply(choose(match.legal_actions(), rng))
    raise AssertionError("no such position found")


@pytest.mark.parametrize(("players", "others_hold"), [(2, range(1, 2)), (6, range(3, 6))])
def test_samples_are_uniform_over_the_placements_of_the_unseen_cards(players: int, others_hold: range) -> None:
    # Two players: one unseen card in the other hand, among some 40 unseen (the others are undealt); six players:
    # all 60 cards are dealt, and a few unseen cards are spread over several hands.
    match, seat = late_position(players, 900 + players, others_hold)
    view = match.view(seat)
    unseen = DECK_MASK & ~int(view.hand) & ~int(view.played)
    others = [s for s in range(players) if s != seat]
    sizes = [view.hand_sizes[s] for s in others]
    # Every way to give each other seat its number of unseen cards (the rest stay undealt).
    cards = list(CardSet(unseen))
    placements: set[tuple[CardSet, ...]] = set()
    for chosen in itertools.permutations(cards, sum(sizes)):
        parts, at = [], 0
        for size in sizes:
            parts.append(CardSet(chosen[at : at + size]))
            at += size
        placements.add(tuple(parts))
    assert 10 <= len(placements) <= 200
    rng = random.Random(12345)
    draws = 150 * len(placements)
    counts: Counter[tuple[CardSet, ...]] = Counter()
    for _ in range(draws):
        sample = sample_hidden(view, rng)
        counts[tuple(sample[s] for s in others)] += 1
    assert set(counts) <= placements
    expected = draws / len(placements)
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in placements)
    # Degrees of freedom len - 1; a chi-square above this bound has a probability far below 1e-6.
    assert chi2 < 3 * len(placements) + 30


def test_a_play_out_of_turn_is_refused_before_its_notation_is_read_against_the_hand_to_act() -> None:
    """NS-4 turn order and hidden hands: bare values are read against the hand of the seat to act, so a seat that
    is not to act must be told only that it is not its turn, never what that hand holds."""
    from clubsuite.errors import NotYourTurnError
    from clubsuite.games.northstar import NorthstarDeal, NorthstarMatch, NorthstarOptions
    from clubsuite.games.northstar.combos import NORTHSTAR

    hands = (
        "9C 9D 2C 3C 4C 5C 6C 7C 8C 1S",
        "9H 9S 7D 7H 6D 10D 10H 10S 12C 12D",
        "11C 11D 11H 1C 1D 1H 13C 13D 13H 2S",
    )
    match = NorthstarMatch(NorthstarOptions(players=3), 2)
    match.deal(deal=NorthstarDeal(tuple(NORTHSTAR.parse_set(h) for h in hands)))
    match.apply("9C 9D")
    for text in ("10", "6", "10 10"):
        with pytest.raises(NotYourTurnError) as caught:
            match.apply(text, seat=2)
        message = str(caught.value)
        assert "seat 1's turn" in message
        assert not any(c in message.split() for c in hands[1].split())
