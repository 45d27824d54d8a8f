"""Sampling the cards a seat cannot see in Clubs (partnership), consistently with everything it has seen.

From a :class:`PartnershipView` alone: the seat's own cards, every card played, the hand sizes, the suits each seat
has shown it lacks (a player who did not follow suit holds none of it, and hands only shrink in play), and its own
side of the pass (CP-2): the three cards it gave lie with the receiver until played, and the three it received
are its own. :func:`sample_hidden` places the unseen cards uniformly among the placements that respect all of it.

:func:`sample_deal` and :func:`determinize` go further back, to the deal and the pass: the passes the seat took no
part in are not known to it, so they are drawn too (any three cards the receiver held when play began), which
makes a whole history on which the public actions replay.
"""

from __future__ import annotations

import random

from clubsuite.cards import FULL_STANDARD, SUIT_MASKS, CardSet, card_at, iter_bits
from clubsuite.games.partnership.deal import N_SEATS, PartnershipDeal
from clubsuite.games.partnership.hand import (
    PASS_SIZE,
    Direction,
    PartnershipHand,
    PartnershipPhase,
    Pass,
    giver,
    receiver,
)
from clubsuite.games.partnership.view import PartnershipView
from clubsuite.sampling import sample_assignment


def void_masks(view: PartnershipView) -> list[int]:
    """For each seat, the mask of the cards of every suit it has shown it lacks (public)."""
    out = []
    for suits in view.voids():
        mask = 0
        for suit in suits:
            mask |= SUIT_MASKS[suit]
        out.append(mask)
    return out


def played_by(view: PartnershipView) -> list[int]:
    """For each seat, the mask of the cards it has played in this hand (the trick in progress included)."""
    out = [0] * N_SEATS
    for leader, cards, _ in view.tricks:
        for k, c in enumerate(cards):
            out[(leader + k) % N_SEATS] |= c.bit
    for seat, c in view.trick:
        out[seat] |= c.bit
    return out


def sample_hidden(view: PartnershipView, rng: random.Random) -> list[int]:
    """A placement of every card the seat cannot see: the current hand of each seat, as masks by seat.

    The seat's own hand is its real one; the others are drawn uniformly among the placements consistent with the
    view (hand sizes, shown voids, the cards the seat passed).
    """
    me = view.seat
    sizes_now = view.hand_sizes
    known = view.known_cards()
    voids = void_masks(view)
    others = [s for s in range(N_SEATS) if s != me]
    placed = [int(known.get(s, 0)) for s in others]
    sizes = [sizes_now[s] - placed[i].bit_count() for i, s in enumerate(others)]
    allowed = [FULL_STANDARD & ~voids[s] for s in others]
    drawn = sample_assignment(int(view.unseen()), sizes, allowed, rng)
    hands = [0] * N_SEATS
    hands[me] = int(view.hand)
    for i, s in enumerate(others):
        hands[s] = drawn[i] | placed[i]
    return hands


def _some_three(mask: int, rng: random.Random) -> int:
    """Three cards of ``mask`` drawn uniformly (for a pass the seat did not see)."""
    picked = rng.sample(list(iter_bits(mask)), PASS_SIZE)
    return sum(1 << c for c in picked)


def sample_history(view: PartnershipView, rng: random.Random) -> tuple[PartnershipDeal, dict[int, int]]:
    """A deal and the passes chosen so far (seat -> mask, in the order chosen) consistent with the view.

    The current hands come from :func:`sample_hidden`; the seat's own pass and what it received are as it saw
    them; every other pass is three cards drawn uniformly from what its receiver held when play began (or, while
    the others are still choosing, from the chooser's own sampled hand).
    """
    me = view.seat
    now = sample_hidden(view, rng)
    direction = view.direction
    chosen = view.chosen
    passes: dict[int, int] = {}
    if view.phase is PartnershipPhase.PASS:
        # Nothing has moved yet: the hands now are the hands as dealt.
        for s in chosen:
            given = view.given
            passes[s] = int(given) if s == me and given is not None else _some_three(now[s], rng)
        return PartnershipDeal(tuple(CardSet(h) for h in now)), passes  # type: ignore[arg-type]
    played = played_by(view)
    start = [now[s] | played[s] for s in range(N_SEATS)]
    if direction is Direction.NONE:
        return PartnershipDeal(tuple(CardSet(h) for h in start)), passes  # type: ignore[arg-type]
    given, received = view.given, view.received
    assert given is not None and received is not None
    moved = [0] * N_SEATS
    moved[me] = int(given)
    moved[giver(me, direction)] = int(received)
    for s in range(N_SEATS):
        if s not in (me, giver(me, direction)):
            moved[s] = _some_three(start[receiver(s, direction)], rng)
    dealt = [start[s] & ~moved[giver(s, direction)] | moved[s] for s in range(N_SEATS)]
    passes = {s: moved[s] for s in chosen}
    return PartnershipDeal(tuple(CardSet(h) for h in dealt)), passes  # type: ignore[arg-type]


def sample_deal(view: PartnershipView, rng: random.Random) -> PartnershipDeal:
    """A whole deal (as dealt, before the pass) consistent with the view."""
    return sample_history(view, rng)[0]


def determinize(view: PartnershipView, rng: random.Random) -> PartnershipHand:
    """A full hand state that agrees with the view in everything public and in the seat's own knowledge.

    The deal and the unseen passes are sampled with :func:`sample_history`, then every pass and every card played
    is replayed on the engine, so the result is a legal position a search bot may play out.
    """
    deal, passes = sample_history(view, rng)
    state = PartnershipHand(deal, view.dealer, view.direction)
    for seat in view.chosen:
        state.apply(Pass(CardSet(passes[seat])))
    for leader, cards, _ in view.tricks:
        for k, c in enumerate(cards):
            assert state.to_act == (leader + k) % N_SEATS
            state.apply(card_at(c.index))
    for _, c in view.trick:
        state.apply(c)
    return state
