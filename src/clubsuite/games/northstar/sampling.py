"""Sampling the cards a seat cannot see in North Star's CLUBS, consistently with what it knows (NS-6).

Plays reveal nothing about what a player holds (a player may pass holding a higher play), so what a seat knows of
the other hands is their sizes and the history of the pack:

* a round dealt from a full shuffle (the first round, every round with ``leftover=reshuffle``, or a round whose
  undealt cards had run out): the other hands are a uniform draw from every card this seat has not seen this round;
* a round dealt wholly from the cards left undealt (2 or 3 players with ``leftover=next_round``): those cards were
  never in play since the last full shuffle, so every card this seat saw in those rounds is excluded. The rounds
  since that shuffle have disjoint cards, so the draw is uniform over the rest: exact;
* a round dealt from the undealt cards plus shuffled-in discards (4 or 5 players): every card not in play last round
  is in play now, and the cards out of play now are among last round's. What this seat saw last round is known; the
  cards other players still held when it ended are not. The draw weighs each possible split between seen and unseen
  cards by the number of ways the hidden leftover of last round could have allowed it, which is exact given the
  current and the last round; rounds before the last are not used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING

from clubsuite.cards import CardSet
from clubsuite.errors import ClubsError
from clubsuite.games.northstar.combos import DECK_MASK, NorthstarAction, Play
from clubsuite.games.northstar.deal import HAND_SIZE, NorthstarDeal
from clubsuite.games.northstar.hand import NorthstarHand
from clubsuite.sampling import sample_assignment

if TYPE_CHECKING:
    from clubsuite.games.northstar.view import NorthstarView

DECK_SIZE = 60


def _full_shuffle(view: NorthstarView, index: int) -> bool:
    """Whether round ``index`` was dealt from all 60 cards shuffled together."""
    stock, _ = view.pack_before(index)
    return stock in (0, DECK_SIZE)


def _random_subset(mask: int, k: int, rng: random.Random) -> int:
    cards = [i for i in range(mask.bit_length()) if mask >> i & 1]
    out = 0
    for i in rng.sample(cards, k):
        out |= 1 << i
    return out


def sample_hidden(view: NorthstarView, rng: random.Random) -> tuple[CardSet, ...]:
    """Every seat's hand in one world consistent with ``view``: this seat's own hand as it is, the others drawn.

    Uniform among the worlds the seat cannot tell apart (see the module notes for the one approximation, with 4 or
    5 players and kept leftovers, where rounds before the last are not used).
    """
    seat, n = view.seat, view.players
    k = view.rounds() - 1
    sizes = view.hand_sizes
    own = int(view.hand)
    hidden = DECK_MASK & ~own & ~int(view.played)
    others = [s for s in range(n) if s != seat]
    need = sum(sizes[s] for s in others)
    out_mask = 0
    if not _full_shuffle(view, k):
        stock, _ = view.pack_before(k)
        if stock >= HAND_SIZE * n:
            # Dealt from the undealt cards alone: nothing seen since the last full shuffle is in play now.
            j = k - 1
            while True:
                hidden &= ~int(view.seen_in_round(j))
                if _full_shuffle(view, j):
                    break
                j -= 1
        else:
            out_mask = _out_of_play(view, k, hidden, need, rng)
            hidden &= ~out_mask
    rest = hidden.bit_count() - need
    parts = sample_assignment(hidden, [sizes[s] for s in others] + [rest], [hidden] * (len(others) + 1), rng)
    result = [0] * n
    result[seat] = own
    for s, mask in zip(others, parts, strict=False):
        result[s] = mask
    return tuple(CardSet.from_mask(m) for m in result)


def _out_of_play(view: NorthstarView, k: int, hidden: int, need: int, rng: random.Random) -> int:
    """Draw the cards out of play in round ``k`` (dealt with shuffled-in discards) among ``hidden``.

    They are all among last round's cards: those this seat saw then (``a``) or the ``r`` cards other players still
    held when it ended, which this seat never saw (among ``b``). A split taking ``m`` unseen cards has
    ``C(|a|, o-m) C(|b|, m)`` placements, each allowed by ``C(N-m, r-m)`` hidden leftovers.
    """
    seen_last = int(view.seen_in_round(k - 1))
    a = hidden & seen_last
    b = hidden & ~seen_last
    o = hidden.bit_count() - need
    r = view.left_holding(k - 1)
    unseen_total = DECK_SIZE - seen_last.bit_count()
    weights = []
    for m in range(o + 1):
        w = comb(a.bit_count(), o - m) * comb(b.bit_count(), m) * (comb(unseen_total - m, r - m) if m <= r else 0)
        weights.append(w)
    total = sum(weights)
    pick = rng.randrange(total)
    m = 0
    while pick >= weights[m]:
        pick -= weights[m]
        m += 1
    return _random_subset(a, o - m, rng) | _random_subset(b, m, rng)


def determinize(
    view: NorthstarView, actions: Sequence[tuple[int, NorthstarAction]], rng: random.Random
) -> NorthstarHand:
    """A whole round state that agrees with everything ``view``'s seat knows, for a search bot to play out.

    The other hands are drawn with :func:`sample_hidden`; each seat is dealt its drawn hand and the cards it has
    played, and ``actions`` (every action of the round so far with the seat that made it: all public, NS-4) are
    replayed on that deal with the rules engine, so the result is a legal position. The round is dealt explicitly:
    no shuffle of the pack gives it.
    """
    hands = sample_hidden(view, rng)
    played = [0] * view.players
    for seat, action in actions:
        if isinstance(action, Play):
            played[seat] |= int(action.cards)
    deal = NorthstarDeal(tuple(CardSet.from_mask(int(h) | played[s]) for s, h in enumerate(hands)))
    state = NorthstarHand(deal, view.dealer, view.options)
    for _, action in actions:
        state.apply(action)
    return state


def sample_pack(view: NorthstarView, dealt: int, discards: int, rng: random.Random) -> tuple[int, int]:
    """The undealt cards and the discard pile in a world where this round dealt ``dealt`` (a mask), ``discards``
    cards lying on the discard pile (a public count) (NS-6, ``leftover=next_round``).

    Every card out of play is undealt or on the discard pile. The discards are the cards of the rounds since they
    were last shuffled in: this seat knows the ones it saw in those rounds (its hands and every card played); the
    rest of the pile, the cards other players still held when those rounds ended, cannot be told from the undealt
    cards, so they are drawn uniformly among them. Returns (undealt cards, discards) as masks.
    """
    rest = DECK_MASK & ~dealt
    if not discards:
        return rest, 0
    need = HAND_SIZE * view.players
    known = 0
    j = view.rounds() - 2
    while j >= 0:
        known |= int(view.seen_in_round(j))
        stock, _ = view.pack_before(j)
        if stock < need:  # this round was dealt with the discards shuffled in: the pile starts with it
            break
        j -= 1
    if known & ~rest or known.bit_count() > discards:
        raise ClubsError(f"the discard pile cannot hold the {known.bit_count()} cards seat {view.seat} saw go there")
    pile = known | _random_subset(rest & ~known, discards - known.bit_count(), rng)
    return rest & ~pile, pile
