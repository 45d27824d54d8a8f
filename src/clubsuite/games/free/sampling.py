"""Sampling the cards a seat cannot see in Free Clubs, consistently with everything its view shows.

Every card a seat does not hold or see lies in one of a few hidden places, each of a size the table makes public:
another seat's primary hand, another seat's unbid auction cards (during the auction), the chest (until it is
taken), the cards one handicap of another seat discarded (FC-5), and, once the auction is over, the unbid auction
cards that left play. :func:`sample_hidden` places them uniformly among the placements that respect what the seat
knows, found by following each hidden card through the hand in order:

* a card dealt to another seat or the chest may be in any of those hands; the chest joins the winner's hand;
* a handicap of suit X (FC-5) can send a card of suit X that its seat might hold to that handicap's discards, or
  to the left neighbour for a Queen (FC-2); a handicap that removed fewer cards than its tier asks shows that its
  seat held no other card of suit X at that moment;
* a card this seat gave (Queen handicap, the pass) starts where it went; a card it received is its own;
* the pass moves a card the seat could not see only from the seat on its right to the seat on its left (FC-2);
* a seat that did not follow the led suit holds no card of it afterwards (FC-6), and played cards are out.

Not expressible card by card, and so not enforced: that Jack, Queen and King handicaps take the *highest* cards of
the suit, and that a seat whose hidden pass could only bring one card of a suit holds at most one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clubsuite.cards import CardSet, iter_bits
from clubsuite.games.free.deal import (
    AUCTION_MASK,
    AUCTION_SIZE,
    CHEST_SIZE,
    N_SEATS,
    PRIMARY_MASK,
    PRIMARY_SIZE,
    PRIMARY_SUIT_MASKS,
)
from clubsuite.games.free.hand import Stage, bid_tier
from clubsuite.games.free.view import FreeView
from clubsuite.sampling import sample_assignment

ALL_CARDS = PRIMARY_MASK | AUCTION_MASK
"""The 54 cards of the Free Clubs pack."""

Loc = tuple[str, int]
"""A hidden place: ("H", seat) a hand, ("A", seat) unbid auction cards, ("CH", 0) the chest, ("AO", 0) the auction
cards out of play, ("D", j) the discards of handicap number ``j``."""

_EXPECTED_REMOVED = (1, 1, 1, 3)
"""How many cards a Ten (when it can discard), Jack, Queen and King handicap removes with enough cards (FC-5)."""


@dataclass(frozen=True)
class FreePlacement:
    """Where every card lies now in one sample: the seat's own cards as they are, the hidden ones drawn."""

    hands: tuple[CardSet, CardSet, CardSet]
    """Each seat's primary hand now."""
    auction: tuple[CardSet, CardSet, CardSet]
    """Each seat's unbid auction cards (all empty once the auction is over)."""
    chest: CardSet | None
    """The chest while nobody has taken it, else None (its cards are then in the winner's hand or gone)."""
    discards: tuple[CardSet, CardSet, CardSet]
    """The primary cards each seat's handicaps discarded (out of play)."""
    unbid: CardSet
    """Once the auction is over: the auction cards nobody bid, out of play (empty during the auction)."""


def played_cards(view: FreeView) -> int:
    """The mask of every card played to a trick so far, the trick in progress included."""
    mask = 0
    for plays, _ in view.tricks:
        for _, c in plays:
            mask |= c.bit
    for _, c in view.trick:
        mask |= c.bit
    return mask


def bid_cards(view: FreeView) -> int:
    """The mask of every auction card bid so far (public, FC-3)."""
    mask = 0
    for _, c in view.calls:
        if c is not None:
            mask |= c.bit
    return mask


def unseen(view: FreeView) -> CardSet:
    """The cards whose present place the seat does not know for certain: everything it does not hold or see.

    Cards this seat gave to another seat are included (the receiver may have moved them on unseen); once the
    auction is over the seat's own unbid auction cards are too, because the view no longer lists them.
    """
    settled = int(view.hand) | int(view.auction_hand) | int(view.discards) | bid_cards(view) | played_cards(view)
    return CardSet(ALL_CARDS & ~settled)


def sample_hidden(view: FreeView, rng: random.Random) -> FreePlacement:
    """One placement of the unseen cards consistent with ``view``, uniform among those the rules above allow.

    The seat's own hand, auction cards and discards are its real ones; every size is the public one.
    """
    me = view.seat
    left, right = (me + 1) % N_SEATS, (me - 1) % N_SEATS
    others = (left, right)
    winner = view.winner
    auction_over = winner is not None
    stage = view.stage

    hand_loc: dict[int, Loc] = {s: ("H", s) for s in others}
    chest_loc: Loc = ("CH", 0)
    possible: dict[int, set[Loc]] = {}
    pool = int(unseen(view))

    if auction_over:
        for c in iter_bits(pool & AUCTION_MASK):
            possible[c] = {("AO", 0)}
    else:
        for c in iter_bits(pool & AUCTION_MASK):
            possible[c] = {("A", s) for s in others}
    dealt_primary: set[Loc] = {hand_loc[s] for s in others}
    if winner != me:
        dealt_primary.add(chest_loc)
    transfers = list(view.transfers)
    given_last: dict[int, int] = {}  # card -> where its last transfer sent it
    for _, r, moved in transfers:
        given_last[moved.index] = r
    for c in iter_bits(pool & PRIMARY_MASK):
        if c not in given_last:
            possible[c] = set(dealt_primary)

    if auction_over:
        assert winner is not None
        for locs in possible.values():
            if chest_loc in locs:
                locs.discard(chest_loc)
                if winner != me:
                    locs.add(hand_loc[winner])

    def arrive(card: int, receiver: int) -> None:
        """A card this seat saw go to ``receiver``: from now it may be only there (or it is seen, if it came here)."""
        if receiver != me and pool >> card & 1:
            possible[card] = {hand_loc[receiver]}
        else:
            possible.pop(card, None)

    # Handicaps in the order resolved (FC-5); Queen transfers involving this seat come in the same order.
    queue = iter(transfers)
    discard_locs: dict[int, tuple[int, int]] = {}  # handicap number -> (seat, size)
    for j, (seat, bid, count, to) in enumerate(view.handicaps):
        suit_mask = PRIMARY_SUIT_MASKS[bid.index // 13]
        tier = bid_tier(bid.index)
        if to is not None and me in (seat, to) and count:
            _, r, moved = next(queue)
            arrive(moved.index, r)
            continue
        if seat == me:
            continue
        here = hand_loc[seat]
        if count:
            dest: Loc | None
            if to is None:
                dest = ("D", j)
                discard_locs[j] = (seat, count)
            else:
                dest = hand_loc[to] if to != me else None
            for c, locs in possible.items():
                if here in locs and suit_mask >> c & 1 and dest is not None:
                    locs.add(dest)
        if count < _EXPECTED_REMOVED[tier]:
            for c, locs in possible.items():
                if suit_mask >> c & 1:
                    locs.discard(here)

    # The pass (FC-2): all at once, each card to the giver's right, once every chooser has chosen.
    if auction_over and stage in (Stage.PLAY, Stage.OVER):
        if _had_cards_at_pass(view, right):  # the one pass this seat does not see: right to left
            for locs in possible.values():
                if hand_loc[right] in locs:
                    locs.add(hand_loc[left])
        for _, r, moved in queue:  # the cards this seat passed and received cannot move again before play
            arrive(moved.index, r)

    # Follow suit (FC-6): a seat that did not follow holds none of the led suit afterwards.
    tricks = [plays for plays, _ in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    for plays in tricks:
        led = plays[0][1].index // 13
        for s, followed in plays[1:]:
            if s != me and followed.index // 13 != led:
                for card, locs in possible.items():
                    if card // 13 == led:
                        locs.discard(hand_loc[s])

    sizes_now = view.hand_sizes
    locations: list[Loc] = [hand_loc[s] for s in others]
    sizes = [sizes_now[s] for s in others]
    if not auction_over:
        auction_sizes = view.auction_sizes
        locations += [("A", s) for s in others] + [chest_loc]
        sizes += [auction_sizes[s] for s in others] + [CHEST_SIZE]
    else:
        locations.append(("AO", 0))
        sizes.append(N_SEATS * AUCTION_SIZE - bid_cards(view).bit_count())
    for j, (_, size) in discard_locs.items():
        locations.append(("D", j))
        sizes.append(size)
    index = {loc: i for i, loc in enumerate(locations)}
    allowed = [0] * len(locations)
    for c, locs in possible.items():
        for loc in locs:
            allowed[index[loc]] |= 1 << c
    drawn = sample_assignment(pool, sizes, allowed, rng)
    got = dict(zip(locations, drawn, strict=True))

    hands = [0, 0, 0]
    auction = [0, 0, 0]
    discards = [0, 0, 0]
    hands[me] = int(view.hand)
    auction[me] = int(view.auction_hand)
    discards[me] = int(view.discards)
    for s in others:
        hands[s] = got[hand_loc[s]]
        if not auction_over:
            auction[s] = got[("A", s)]
    for j, (seat, _) in discard_locs.items():
        discards[seat] |= got[("D", j)]
    new = CardSet.from_mask
    return FreePlacement(
        (new(hands[0]), new(hands[1]), new(hands[2])),
        (new(auction[0]), new(auction[1]), new(auction[2])),
        None if auction_over else new(got[chest_loc]),
        (new(discards[0]), new(discards[1]), new(discards[2])),
        new(got[("AO", 0)]) if auction_over else CardSet(0),
    )


def _had_cards_at_pass(view: FreeView, seat: int) -> bool:
    """Whether ``seat`` held primary cards when the pass began, and so passed one (FC-2), from public counts."""
    held = PRIMARY_SIZE + (CHEST_SIZE if view.winner == seat else 0)
    for s, _, count, to in view.handicaps:
        if s == seat:
            held -= count
        if to == seat:
            held += count
    return held > 0
