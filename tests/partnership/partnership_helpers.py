"""Shared helpers of the partnership tests: exact deals, hands set up to a given point, and state snapshots."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from clubsuite.cards import STANDARD, CardSet, cards
from clubsuite.games.partnership import Direction, PartnershipDeal, PartnershipHand, PartnershipMatch, Pass

FULL_DECK = CardSet((1 << 52) - 1)
"""Every card of the standard pack."""

Chooser = Callable[[Any, random.Random], Any]
"""Picks one of the legal actions (the first argument) with an injected RNG."""


def pdeal(hand0: str, hand1: str, hand2: str, hand3: str | None = None) -> PartnershipDeal:
    """A deal from the seats' hands in notation; seat 3 gets the 13 cards nobody else was given when left out."""
    hands = [cards(hand0), cards(hand1), cards(hand2)]
    rest = FULL_DECK - (hands[0] | hands[1] | hands[2])
    last = cards(hand3) if hand3 is not None else rest
    return PartnershipDeal((hands[0], hands[1], hands[2], CardSet(last)))


def rotate(deal: PartnershipDeal, shift: int) -> PartnershipDeal:
    """The same deal with every hand moved ``shift`` seats to the left (seat s gets what seat s - shift had)."""
    h = deal.hands
    return PartnershipDeal((h[-shift % 4], h[(1 - shift) % 4], h[(2 - shift) % 4], h[(3 - shift) % 4]))


def no_pass_hand(deal: PartnershipDeal, dealer: int = 3) -> PartnershipHand:
    """A hand with no pass (CP-2), so play starts at once; by default seat 3 deals and seat 0 leads."""
    return PartnershipHand(deal, dealer, Direction.NONE)


def play(state: PartnershipHand | PartnershipMatch, text: str) -> None:
    """Play the written cards in order, each by the seat to act."""
    for c in STANDARD.parse_list(text):
        state.apply(c)


def pass_of(text: str) -> Pass:
    """A pass of the written cards."""
    return Pass(cards(text))


def first_legal(legal: Any, rng: random.Random) -> Any:
    """The first legal action: the three lowest cards in a pass, the lowest card (clubs first) in play."""
    return legal[0]


def random_legal(legal: Any, rng: random.Random) -> Any:
    """A uniformly random legal action."""
    return legal[rng.randrange(len(legal))]


def play_out(
    state: PartnershipHand | PartnershipMatch, choose: Chooser = first_legal, rng: random.Random | None = None
) -> None:
    """Play the hand in progress to its end, every seat picking with ``choose``."""
    rng = rng or random.Random(0)
    if isinstance(state, PartnershipMatch):
        while state.current is not None:
            state.apply(choose(state.legal_actions(), rng))
        return
    while not state.is_over:
        state.apply(choose(state.legal_actions(), rng))


def snapshot(hand: PartnershipHand) -> tuple[Any, ...]:
    """Everything observable about a hand, to check that a refused action changed nothing."""
    return (
        hand.phase,
        hand.to_act,
        hand.legal_actions(),
        tuple(hand.hands),
        tuple(hand.pass_choices.items()),
        hand.passed,
        hand.trick,
        tuple(hand.tricks),
        tuple(hand.tricks_won),
        tuple(hand.taken),
        hand.leader,
        hand.scores,
        tuple(hand.action_log()),
    )


def match_snapshot(match: PartnershipMatch) -> tuple[Any, ...]:
    """Everything observable about a match, to check that a refused action changed nothing."""
    cur = match.current
    return (
        match.phase,
        match.to_act,
        tuple(match.totals),
        tuple(match.hand_scores),
        match.winners,
        match.is_over,
        len(match.hands),
        snapshot(cur) if cur is not None else None,
    )
