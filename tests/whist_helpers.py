"""Exact whist deals for rule scenarios, hands set up to a given point, state snapshots, and random play: plain
functions the whist tests import (``from whist_helpers import ...``), usable inside Hypothesis tests as well as
ordinary ones."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from clubsuite.cards import STANDARD, Card, CardSet, cards
from clubsuite.games.whist import Decision, WhistDeal, WhistHand, WhistMatch, WhistOptions

FULL_DECK = CardSet((1 << 52) - 1)
"""Every card of the standard pack."""

Chooser = Callable[[Any, random.Random], Any]
"""Picks one of the legal actions (the first argument) with an injected RNG."""


def deal_of(hand0: str, hand1: str, hand2: str) -> WhistDeal:
    """A deal from the three seats' hands in notation; the bid hand is the 13 cards nobody was given.

    Written so that a rule scenario names only the cards that matter to it and still gets a complete, checked
    deal (the deal class refuses anything but 13 distinct cards in each of the four hands).
    """
    hands = (cards(hand0), cards(hand1), cards(hand2))
    rest = FULL_DECK - (hands[0] | hands[1] | hands[2])
    return WhistDeal(hands, rest)


def rotate_deal(deal: WhistDeal, shift: int) -> WhistDeal:
    """The same deal with every hand moved ``shift`` seats to the left (seat s gets what seat s - shift had)."""
    h = deal.hands
    return WhistDeal((h[(0 - shift) % 3], h[(1 - shift) % 3], h[(2 - shift) % 3]), deal.bid)


def decisions_of(text: str) -> list[Decision]:
    """Exchange decisions from words such as ``"keep exchange keep"``."""
    return [Decision(word) for word in text.split()]


def cards_in_order(text: str) -> list[Card]:
    """Cards in the order written (for a sequence of plays)."""
    return STANDARD.parse_list(text)


def start_hand(
    deal: WhistDeal,
    dealer: int = 2,
    decisions: str = "keep keep keep",
    options: WhistOptions | None = None,
) -> WhistHand:
    """A hand of ``deal`` after the given exchange decisions (by default seat 2 deals, nobody exchanges, so
    seat 0 leads the first trick and the play runs seat 0, 1, 2)."""
    hand = WhistHand(deal, dealer, options)
    for d in decisions_of(decisions):
        hand.apply(d)
    return hand


def play_cards(state: WhistHand | WhistMatch, text: str) -> None:
    """Play the written cards in order, each by the seat to act."""
    for c in cards_in_order(text):
        state.apply(c)


def snapshot(hand: WhistHand) -> tuple[Any, ...]:
    """Everything observable about a hand, to check that a refused action changed nothing."""
    return (
        hand.phase,
        hand.to_act,
        tuple(hand.legal_actions()),
        tuple(hand.hands),
        hand.bid,
        tuple(hand.decisions),
        hand.trick,
        tuple(hand.tricks),
        tuple(hand.tricks_won),
        hand.clubs_broken,
        hand.leader,
        hand.scores,
        tuple(hand.action_log()),
    )


def match_snapshot(match: WhistMatch) -> tuple[Any, ...]:
    """Everything observable about a match, to check that a refused action changed nothing."""
    cur = match.current
    return (
        match.phase,
        match.to_act,
        tuple(match.legal_actions()),
        tuple(match.totals),
        tuple(match.hand_scores),
        match.winners,
        match.draw,
        match.is_over,
        len(match.hands),
        snapshot(cur) if cur is not None else None,
    )


def first_legal(legal: Any, rng: random.Random) -> Any:
    """The first legal action: ``keep`` in the exchange, the lowest card (by index: clubs first) in play."""
    return legal[0]


def random_legal(legal: Any, rng: random.Random) -> Any:
    """A uniformly random legal action."""
    return legal[rng.randrange(len(legal))]


def play_out(state: WhistHand | WhistMatch, choose: Chooser = first_legal, rng: random.Random | None = None) -> None:
    """Play the hand in progress to its end, every seat picking with ``choose``."""
    rng = rng or random.Random(0)
    if isinstance(state, WhistMatch):
        while state.current is not None:
            state.apply(choose(state.legal_actions(), rng))
        return
    while not state.is_over:
        state.apply(choose(state.legal_actions(), rng))


def play_match(
    match: WhistMatch,
    deals: Iterable[WhistDeal],
    choose: Chooser = first_legal,
    rng: random.Random | None = None,
) -> list[tuple[int, ...]]:
    """Deal each given deal in turn and play it out; returns the totals after each hand."""
    rng = rng or random.Random(0)
    after: list[tuple[int, ...]] = []
    for deal in deals:
        match.deal(deal=deal)
        play_out(match, choose, rng)
        after.append(tuple(match.totals))
    return after


def trick_winner(leader: int, played: Sequence[Card]) -> int:
    """The winner of a complete trick by the text, computed here without the engine: highest club, else the
    highest card of the suit led."""
    clubs = [(c.rank, k) for k, c in enumerate(played) if c.suit == 0]
    if clubs:
        k = max(clubs)[1]
    else:
        led = played[0].suit
        k = max((c.rank, k) for k, c in enumerate(played) if c.suit == led)[1]
    return (leader + k) % 3
