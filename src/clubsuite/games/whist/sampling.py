"""Sampling the cards a seat cannot see in Clubs (whist group), consistently with everything it has seen.

From a :class:`WhistView` alone: the seat's own cards, every card played, the hand sizes, what its own exchange
showed it (CW-4), and what the play proves about the other hands. Under must-beat (CW-1) a play proves that the
hand held no card of an earlier priority tier (a player who did not beat the highest card of the led suit holds
no higher one; a player who discarded holds no card that would have won), and a club led before clubs were
broken proves the leader held only clubs (CW-2). Hands only shrink during play, so each proof holds to the end.
"""

from __future__ import annotations

import random
from itertools import pairwise

from clubsuite.cards import CLUBS_MASK, FULL_STANDARD, CardSet, card_at
from clubsuite.games.whist import rules
from clubsuite.games.whist.deal import HAND_SIZE, N_SEATS, WhistDeal
from clubsuite.games.whist.hand import Decision, WhistHand
from clubsuite.games.whist.view import BID, WhistView
from clubsuite.sampling import sample_assignment


def _plays(view: WhistView) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every trick so far (completed, then the one in progress) as (leader, [(seat, card index)])."""
    out = []
    for leader, cards, _ in view.tricks:
        out.append((leader, [((leader + k) % N_SEATS, c.index) for k, c in enumerate(cards)]))
    if view.trick:
        out.append((view.leader, [(s, c.index) for s, c in view.trick]))
    return out


def absent_cards(view: WhistView) -> list[int]:
    """For each seat, the mask of cards the public play proves it does not hold now (CW-1, CW-2)."""
    absent = [0, 0, 0]
    broken = False
    for _, plays in _plays(view):
        led = top_led = top_club = -1
        for k, (seat, idx) in enumerate(plays):
            suit = idx // 13
            if k == 0:
                if suit == 0 and not broken:
                    absent[seat] |= FULL_STANDARD & ~CLUBS_MASK  # CW-2: a club lead before broken = only clubs
                led = suit
                top_led, top_club = (-1, idx) if suit == 0 else (idx, -1)
                if suit == 0:
                    broken = True
                continue
            absent[seat] |= rules.revealed_absent(idx, led, top_led, top_club)
            if suit == 0:
                if led != 0:
                    broken = True
                top_club = max(top_club, idx)
            elif suit == led and top_club < 0:
                top_led = max(top_led, idx)
    return absent


def sample_hidden(view: WhistView, rng: random.Random) -> tuple[list[int], int]:
    """A placement of every card the seat cannot see: the current hands of all seats and the bid hand.

    The seat's own hand is its real one; the others are drawn uniformly among the placements consistent with
    the view. Returns (hands as masks by seat, bid hand mask).
    """
    me = view.seat
    sizes_now = view.hand_sizes
    known = view.known_cards()
    absent = absent_cards(view)
    others = [s for s in range(N_SEATS) if s != me]
    locations: list[int | str] = [*others, BID]
    placed = {loc: int(known.get(loc, 0)) for loc in locations}
    sizes = [(sizes_now[loc] if isinstance(loc, int) else HAND_SIZE) - placed[loc].bit_count() for loc in locations]
    allowed = [FULL_STANDARD & ~absent[loc] if isinstance(loc, int) else FULL_STANDARD for loc in locations]
    drawn = sample_assignment(int(view.unseen()), sizes, allowed, rng)
    hands = [0, 0, 0]
    hands[me] = int(view.hand)
    for i, s in enumerate(others):
        hands[s] = drawn[i] | placed[s]
    return hands, drawn[2] | placed[BID]


def sample_deal(view: WhistView, rng: random.Random) -> WhistDeal:
    """A whole deal (as dealt, before the exchange) consistent with the view."""
    hands, bid = sample_hidden(view, rng)
    played_by = [0, 0, 0]
    for _, plays in _plays(view):
        for seat, idx in plays:
            played_by[seat] |= 1 << idx
    current = [hands[s] | played_by[s] for s in range(N_SEATS)]
    # Undo the exchanges (CW-4): exchanger e_i took what e_(i-1) left; the first took the original bid hand.
    exchangers = [s for s, x in view.decisions if x]
    dealt = list(current)
    original_bid = bid
    if exchangers:
        dealt[exchangers[-1]] = bid
        for prev, nxt in pairwise(exchangers):
            dealt[prev] = current[nxt]
        original_bid = current[exchangers[0]]
    return WhistDeal((CardSet(dealt[0]), CardSet(dealt[1]), CardSet(dealt[2])), CardSet(original_bid))


def determinize(view: WhistView, rng: random.Random) -> WhistHand:
    """A full hand state that agrees with the view in everything public and in the seat's own knowledge.

    The hidden cards are sampled with :func:`sample_deal` and the public actions are replayed on that deal, so
    the result is a legal position a search bot may play out.
    """
    deal = sample_deal(view, rng)
    state = WhistHand(deal, view.dealer, view.options)
    for _, exchanged in view.decisions:
        state.apply(Decision.EXCHANGE if exchanged else Decision.KEEP)
    for _, plays in _plays(view):
        for _, idx in plays:
            state.apply(card_at(idx))
    return state
