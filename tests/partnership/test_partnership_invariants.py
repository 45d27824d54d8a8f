"""Random-play invariants of Clubs (partnership), checked with Hypothesis over seeds.

Cards are conserved through the pass and the play (CP-2), tricks have four cards and the winner leads (CP-1),
partnership points add up to 31 a hand, or 36 when one partnership takes every trick (CP-3), the game ends as CP-4
says, legal actions are accepted and illegal ones refused without a trace.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from partnership_helpers import FULL_DECK, match_snapshot, random_legal

from clubsuite.cards import CLUBS_MASK, STANDARD, CardSet, card_at
from clubsuite.engine import Phase
from clubsuite.errors import IllegalActionError
from clubsuite.games.partnership import (
    TEAMS,
    CardPlayed,
    CardsPassed,
    Direction,
    HandScored,
    PartnershipMatch,
    PartnershipOptions,
    Pass,
    PassChosen,
    PlayStarted,
    TrickTaken,
    giver,
    pass_direction,
    receiver,
)

SEEDS = st.integers(0, 2**32)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHECKED_STEPS = settings(SETTINGS, max_examples=50)
"""50 matches of one or two hands a run, every legal action tried at every step: Hypothesis draws new seeds in every
run, so many runs cover more hands than one long one."""


def trick_winner(leader: int, played: list[int]) -> int:
    """The winner of a complete trick by the text, worked out here without the engine: the highest club, else
    the highest card of the suit led (CP-1)."""
    clubs = [(c, k) for k, c in enumerate(played) if c < 13]
    if clubs:
        return (leader + max(clubs)[1]) % 4
    led = played[0] // 13
    return (leader + max((c, k) for k, c in enumerate(played) if c // 13 == led)[1]) % 4


def play_checked_hand(match: PartnershipMatch, rng: random.Random) -> None:
    """Deal and play one hand with random legal actions, checking every invariant on the way."""
    index = len(match.hands)
    events: list[Any] = list(match.deal(rng=rng))
    hand = match.hands[-1]
    dealt = [int(h) for h in hand.deal.hands]
    assert hand.direction is pass_direction(index)  # CP-2: counted from the first hand of the game
    assert sum(dealt) == int(FULL_DECK) and all(h.bit_count() == 13 for h in dealt)
    while match.current is not None:
        seat = match.to_act
        legal = match.legal_actions()
        action = random_legal(legal, rng)
        assert action in legal
        if isinstance(action, Pass):
            assert len(action.cards) == 3 and not int(action.cards) & ~hand.hands[seat]  # type: ignore[index]
        events.extend(match.apply(action))
    # The pass (CP-2): every seat gave three of its own cards to the neighbour the direction names, and nothing
    # else moved; every card is where the pass put it.
    if hand.direction is Direction.NONE:
        assert hand.passed == () and list(hand.play_start_hands) == dealt
        assert not any(isinstance(e, PassChosen | CardsPassed) for e in events)
    else:
        assert [e.seat for e in events if isinstance(e, PassChosen)] == [(hand.dealer + 1 + k) % 4 for k in range(4)]
        for s in range(4):
            given, received = hand.passed[s], hand.passed[giver(s, hand.direction)]
            assert given.bit_count() == 3 and given & ~dealt[s] == 0
            assert hand.play_start_hands[s] == dealt[s] & ~given | received
            assert receiver(giver(s, hand.direction), hand.direction) == s
        assert sum(hand.play_start_hands) == int(FULL_DECK)
    assert all(h.bit_count() == 13 for h in hand.play_start_hands)
    assert events.index(PlayStarted((hand.dealer + 1) % 4)) >= 1  # CP-1: the dealer's left leads
    # Play: four cards a trick, each from the hand of the seat that played it, the winner leads the next.
    leader = (hand.dealer + 1) % 4
    held = list(hand.play_start_hands)
    played = [(e.seat, e.card.index) for e in events if isinstance(e, CardPlayed)]
    assert len(played) == 52 and len({c for _, c in played}) == 52
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert [t.number for t in taken] == list(range(1, 14))
    for k, t in enumerate(taken):
        trick = played[4 * k : 4 * k + 4]
        assert [s for s, _ in trick] == [(leader + j) % 4 for j in range(4)]
        for s, c in trick:
            assert held[s] >> c & 1
            held[s] &= ~(1 << c)
        assert [c.index for c in t.cards] == [c for _, c in trick]
        winner = trick_winner(leader, [c for _, c in trick])
        assert t.seat == winner
        leader = winner
    assert held == [0, 0, 0, 0] and hand.hands == [0, 0, 0, 0]
    # The score (CP-3): a point a trick and a club, five for the queen of diamonds, five more for all 13 tricks.
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    team_tricks = [sum(scored.tricks[s] for s in team) for team in TEAMS]
    sweep = 13 in team_tricks
    assert sum(scored.team_scores) == (36 if sweep else 31)
    for t, team in enumerate(TEAMS):
        cards = 0
        for s in team:
            cards |= hand.taken[s]
        expected = team_tricks[t] + (cards & CLUBS_MASK).bit_count() + (5 if cards >> 23 & 1 else 0)
        expected += 5 if team_tricks[t] == 13 else 0
        assert scored.team_scores[t] == expected
    assert scored.scores == scored.team_scores * 2


@SETTINGS
@given(SEEDS)
def test_cp1_cp2_cp3_random_hands_conserve_cards_and_score_31_or_36(seed: int) -> None:
    rng = random.Random(seed)
    match = PartnershipMatch(PartnershipOptions(target=100000), first_dealer=rng.randrange(4))
    for _ in range(rng.randrange(1, 4)):  # a pass left, right, and the hand without a pass
        play_checked_hand(match, rng)
    assert match.totals[0] == match.totals[2] and match.totals[1] == match.totals[3]
    assert sum(match.team_totals) in range(31 * len(match.hands), 36 * len(match.hands) + 1, 5)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_cp4_random_matches_end_when_a_partnership_leads_at_the_target(seed: int) -> None:
    rng = random.Random(seed)
    target = rng.choice([20, 40, 75, 150, 150])
    match = PartnershipMatch(PartnershipOptions(target=target), first_dealer=rng.randrange(4))
    running = [0, 0]
    while not match.is_over:
        totals = match.team_totals
        assert max(totals) < target or totals[0] == totals[1]  # CP-4: not over means nobody leads at the target
        match.deal(rng=rng)
        while match.current is not None:
            match.apply(random_legal(match.legal_actions(), rng))
        scores = match.hand_scores[-1]
        running = [running[0] + scores[0], running[1] + scores[1]]
        assert list(match.team_totals) == running
        assert match.totals == running * 2
    top = max(match.team_totals)
    assert top >= target and match.team_totals.count(top) == 1
    assert match.winners == TEAMS[match.team_totals.index(top)] and not match.draw
    summary = match.summary()
    assert summary["team_totals"] == running
    assert [h["dealer"] for h in summary["hands"]] == [(match.first_dealer + i) % 4 for i in range(len(match.hands))]
    assert [h["pass"] for h in summary["hands"]] == [pass_direction(i).value for i in range(len(match.hands))]


@pytest.mark.long
@CHECKED_STEPS
@given(SEEDS)
def test_every_legal_action_is_accepted_and_some_illegal_ones_refused_without_a_trace(seed: int) -> None:
    rng = random.Random(seed)
    match = PartnershipMatch(first_dealer=rng.randrange(4))
    for _ in range(rng.randrange(1, 3)):
        match.deal(rng=rng)
        play_out_checking(match, rng)


def play_out_checking(match: PartnershipMatch, rng: random.Random) -> None:
    """Play the hand to its end; at each step every legal card (or a sample of passes) is accepted by a copy of
    the hand, and a card the seat does not hold, or an off-suit card, is refused with nothing changed."""
    hand = match.hands[-1]
    while match.current is not None:
        legal = match.legal_actions()
        actions = list(legal) if hand.phase is Phase.PLAY else [legal[rng.randrange(len(legal))] for _ in range(8)]
        for action in actions:
            assert match.explain(action) is None
            copy = hand.clone()
            copy.apply(action)
        seat = match.to_act
        assert seat is not None
        illegal = [card_at(i) for i in range(52) if card_at(i) not in legal] if hand.phase is Phase.PLAY else []
        for action in rng.sample(illegal, min(3, len(illegal))):
            before = match_snapshot(match)
            try:
                match.apply(action)
            except IllegalActionError as exc:
                assert str(exc) == match.explain(action)
            else:
                raise AssertionError(f"{action} was accepted although it is not legal")
            assert match_snapshot(match) == before
        match.apply(random_legal(legal, rng))


def test_pass_choices_index_iterate_and_contain_the_same_286_passes() -> None:
    hand = STANDARD.parse_set("2C 5C 9D QD 3H 7H JH AH 4S 6S 8S 10S KS")
    match = PartnershipMatch()
    match.deal(rng=random.Random(3))
    legal = match.legal_actions()
    listed = list(legal)
    assert len(listed) == len(legal) == 286
    assert [legal[i] for i in range(286)] == listed
    assert legal[-1] == listed[-1] and len(set(listed)) == 286
    assert all(p in legal for p in listed)
    assert Pass(CardSet(int(hand))) not in legal
    assert "pass 2C" not in legal
