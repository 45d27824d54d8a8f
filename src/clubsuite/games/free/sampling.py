"""Sampling the cards a seat cannot see in Free Clubs, consistently with everything its view shows.

Every card a seat does not hold or see lies in one of a few hidden places, each of a size the table makes public:
another seat's primary hand, another seat's unbid auction cards (during the auction), the chest (until it is
taken), the cards one handicap of another seat discarded (FC-5), and, once the auction is over, the unbid auction
cards that left play. :func:`sample_hidden` places them uniformly among the placements that respect what the seat
knows, found by following each hidden card through the hand in order:

* a card dealt to another seat or the chest may be in any of those hands; the chest joins the winner's hand;
* a handicap of suit X (FC-5) can send a card of suit X that its seat might hold to that handicap's discards, or
  to the left neighbour for a Queen (FC-2); a handicap that removed fewer cards than its tier asks shows that its
  seat held no other card of suit X at that moment; a Queen whose card this seat received shows that its giver
  held no higher card of the suit at that moment;
* a card this seat gave (Queen handicap, the pass) starts where it went; a card it received is its own;
* the pass moves a card the seat could not see only from the seat on its right to the seat on its left (FC-2);
* a seat that did not follow the led suit holds no card of it afterwards (FC-6), unless table mode lets it
  misplay unseen (FC-10) and no call has checked that card in public; played cards are out.

Not expressible card by card, and so not enforced by :func:`sample_hidden` alone: that Jack, Queen and King
handicaps take the *highest* cards of the suit (FC-5: the ace low, the nine high), and that a seat whose hidden pass
could only bring one card of a suit holds at most one. :func:`determinize` enforces both: it turns a sample into a
whole history, replays it on the rules engine and keeps it only if the replay agrees with everything the seat knows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

from clubsuite.cards import CardSet, card_at, iter_bits
from clubsuite.errors import ClubsError
from clubsuite.games.free.deal import (
    AUCTION_MASK,
    AUCTION_SIZE,
    CHEST_SIZE,
    N_SEATS,
    PRIMARY_MASK,
    PRIMARY_SIZE,
    PRIMARY_SUIT_MASKS,
    FreeDeal,
)
from clubsuite.games.free.hand import Call, FreeHand, Stage, bid_tier, strength
from clubsuite.games.free.options import FreeOptions
from clubsuite.games.free.view import FreeView
from clubsuite.sampling import sample_assignment

if TYPE_CHECKING:
    pass

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
            if to == me:  # FC-5: the Queen passed its seat's highest card of the suit, so it held none higher
                for c, locs in possible.items():
                    if suit_mask >> c & 1 and strength(c) > strength(moved.index):
                        locs.discard(hand_loc[seat])
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

    # Follow suit (FC-6): a seat that did not follow holds none of the led suit afterwards. Not in table mode
    # (FC-10), where it may have misplayed unseen, unless a call checked the card and found it lawful.
    tricks = [plays for plays, _ in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    # In table mode a call that found a lawful card told everyone the same (FC-10).
    checked = {c.index for _, _, c in view.checks}
    for plays in tricks:
        led = plays[0][1].index // 13
        for s, followed in plays[1:]:
            known = not view.options.misplays or followed.index in checked
            if s != me and followed.index // 13 != led and known:
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


MAX_TRIES = 50_000
"""How many samples :func:`determinize` draws before it gives up: positions where few placements are consistent (a
Queen handicap's card between two other seats, a pass the seat did not see, late in the play) have needed over ten
thousand."""


class _OneHand:
    """Just enough of a match around one hand for a :class:`FreeView` of it; the match-level facts (totals, hand
    number, options, and the phase once the hand is over) are copied from the real view."""

    def __init__(self, hand: FreeHand, like: FreeView) -> None:
        self.hands = [hand] * (like.hand_number + 1)
        self.totals = list(like.totals)
        self.options: FreeOptions = like.options
        self._hand = hand
        self._phase = like.phase

    @property
    def phase(self) -> StrEnum:
        """The real match phase once the hand is scored, else the phase of the hand."""
        return self._phase if self._hand.is_over else self._hand.phase

    @property
    def to_act(self) -> int | None:
        """The seat to act in the hand."""
        return self._hand.to_act

    def legal_actions(self) -> Any:
        """The legal actions of the seat to act in the hand."""
        return self._hand.legal_actions()


def view_of(hand: FreeHand, seat: int, like: FreeView) -> FreeView:
    """The view ``seat`` would have of ``hand`` in the match ``like`` belongs to: how a determinized state is checked
    against the real one, key by key of ``to_dict()``."""
    return FreeView(_OneHand(hand, like), seat)


def determinize(view: FreeView, rng: random.Random, tries: int = MAX_TRIES) -> FreeHand:
    """A whole hand state that agrees with everything ``view``'s seat knows, for a search bot to play out.

    Each try draws the unseen cards with :func:`sample_hidden`, walks the hand backwards to a deal (taking back the
    plays, the pass, the handicaps and the chest, drawing what the seat did not see: the card its right neighbour
    passed to its left one, the card of a Queen handicap between the two others, which six cards of the winner's
    hand were the chest, how the unbid auction cards were dealt), then replays every public action and the seat's
    own on that deal with the rules engine, drawing the other seats' hidden choices (a Ten's discard, a pass not yet
    made) uniformly among those that lead to the sample. The try is kept only if every action replays legally, the
    cards end where the sample put them, and the seat's view of the result (``to_dict()``: hand sizes, handicap
    counts, tricks, legal actions and all the rest) is identical to the real one. The engine picks the cards of a
    Jack, Queen or King handicap itself, so a sample whose handicaps did not take the highest cards of their suit
    (FC-5) is rejected here.

    Uniformity: a try is a uniform sample of :func:`sample_hidden` followed by draws that are uniform given the
    sample, so the kept states are uniform among consistent placements except that a placement reached by few of
    the drawn histories (a Queen card picked among the receiver's cards of the suit, a Ten's choice) is kept less
    often than one every history reaches. Raises :class:`ClubsError` after ``tries`` failed samples, and for a hand
    with a called misplay (FC-10), whose taken-back card the view cannot replay.
    """
    if any(called is not None for _, _, called in view.misplays):
        raise ClubsError(
            f"cannot determinize seat {view.seat}'s view: a misplay was called in this hand (FC-10), and a called "
            "misplay cannot be replayed from the view"
        )
    target = view.to_dict()
    for _ in range(tries):
        state = _attempt(view, rng)
        if state is not None and view_of(state, view.seat, view).to_dict() == target:
            return state
    raise ClubsError(
        f"no hand state consistent with seat {view.seat}'s view was found in {tries} samples "
        f"(stage {view.stage.value}); try more samples"
    )


def _attempt(view: FreeView, rng: random.Random) -> FreeHand | None:
    """One try of :func:`determinize`: a replayed state, or None where the sample has no consistent history."""
    me = view.seat
    left, right = (me + 1) % N_SEATS, (me - 1) % N_SEATS
    got = sample_hidden(view, rng)
    hold = [int(h) for h in got.hands]
    disc = [int(d) for d in got.discards]
    target_discards = list(disc)

    tricks = [plays for plays, _ in view.tricks] + ([view.trick] if view.trick else [])
    plays = [c for trick in tricks for _, c in trick]
    for trick in tricks:  # take back the plays
        for s, c in trick:
            hold[s] |= c.bit

    handicaps = view.handicaps
    n_queens = sum(1 for s, _, n, to in handicaps if to is not None and n and me in (s, to))
    transfers = view.transfers
    pass_card: dict[int, int] = {}
    if view.stage in (Stage.PLAY, Stage.OVER):  # take back the pass (FC-2)
        for g, r, c in transfers[n_queens:]:
            hold[r] &= ~c.bit
            hold[g] |= c.bit
            pass_card[g] = c.index
        if _had_cards_at_pass(view, right):  # the card right passed to left, unseen here
            pool = hold[left] & ~(1 << pass_card[left] if left in pass_card else 0)
            if not pool:
                return None
            c_idx = rng.choice(list(iter_bits(pool)))
            hold[left] &= ~(1 << c_idx)
            hold[right] |= 1 << c_idx
            pass_card[right] = c_idx

    known_queen: dict[int, int] = {}
    queue = iter(transfers[:n_queens])
    for j, (s, _, n, to) in enumerate(handicaps):
        if to is not None and n and me in (s, to):
            known_queen[j] = next(queue)[2].index
    for s in range(N_SEATS):  # take back the discards: only the Queens below depend on when they left (FC-5)
        hold[s] |= disc[s]
    for j in reversed(range(len(handicaps))):  # take back the Queens' cards, latest first (FC-2, FC-5)
        s, bid, n, to = handicaps[j]
        if not n or to is None:
            continue
        if j in known_queen:
            c_idx = known_queen[j]
        else:
            pool = hold[to] & PRIMARY_SUIT_MASKS[bid.index // 13]
            if not pool:
                return None
            c_idx = rng.choice(list(iter_bits(pool)))
        hold[to] &= ~(1 << c_idx)
        hold[s] |= 1 << c_idx

    winner = view.winner
    if winner is None:
        assert got.chest is not None
        chest = int(got.chest)
    elif winner == me:
        assert view.chest is not None
        chest = int(view.chest)
    else:
        held = list(iter_bits(hold[winner]))
        if len(held) < CHEST_SIZE:
            return None
        chest = sum(1 << c for c in rng.sample(held, CHEST_SIZE))
    if winner is not None:  # take back the chest
        hold[winner] &= ~chest
    if any(h.bit_count() != PRIMARY_SIZE for h in hold):
        return None

    bids = [0, 0, 0]
    for s, call in view.calls:
        if call is not None:
            bids[s] |= call.bit
    auction = [0, 0, 0]
    auction[me] = int(view.unbid_auction) | bids[me]
    if winner is None:
        for s in (left, right):
            auction[s] = int(got.auction[s]) | bids[s]
    else:
        rest = list(iter_bits(int(got.unbid) & ~int(view.unbid_auction)))
        rng.shuffle(rest)
        need = AUCTION_SIZE - bids[left].bit_count()
        auction[left] = bids[left] | sum(1 << c for c in rest[:need])
        auction[right] = bids[right] | sum(1 << c for c in rest[need:])
    new = CardSet.from_mask
    try:
        deal = FreeDeal(
            (new(auction[0]), new(auction[1]), new(auction[2])),
            (new(hold[0]), new(hold[1]), new(hold[2])),
            new(chest),
        )
    except ClubsError:
        return None

    my_pass = pass_card.get(me)
    if my_pass is None and view.pass_choice is not None:
        my_pass = view.pass_choice.index
    state = FreeHand(deal, view.dealer, view.options)
    calls = view.calls
    n_calls = n_plays = 0
    try:
        while True:
            stage = state.stage
            if stage is Stage.AUCTION:
                if n_calls == len(calls):
                    break
                call = calls[n_calls][1]
                n_calls += 1
                state.apply(call if call is not None else Call.PASS)
            elif stage is Stage.HANDICAP:
                if view.stage is Stage.HANDICAP and len(state.handicaps) == len(handicaps):
                    break
                actor = state.to_act
                assert actor is not None
                choices = int(cast(CardSet, state.legal_actions())) & target_discards[actor]
                if not choices:
                    return None
                state.apply(card_at(rng.choice(list(iter_bits(choices)))))
            elif stage is Stage.PASS:
                actor = state.to_act
                assert actor is not None
                if view.stage is Stage.PASS and actor == view.to_act:
                    break
                if actor == me:
                    if my_pass is None:
                        return None
                    chosen = my_pass
                elif actor in pass_card:
                    chosen = pass_card[actor]
                else:  # a choice this seat did not see, in a pass still going on
                    chosen = rng.choice(list(iter_bits(state.hands[actor])))
                state.apply(card_at(chosen))
            elif stage is Stage.PLAY and n_plays < len(plays):
                state.apply(plays[n_plays])
                n_plays += 1
            else:
                break
    except ClubsError:
        return None
    if n_calls != len(calls) or n_plays != len(plays):
        return None
    for caller, _, c in view.checks:  # the calls that found lawful cards (FC-10): public, made again here
        try:
            state.call(caller, c)
        except ClubsError:
            return None
    if state.hands != [int(h) for h in got.hands] or state.discards != target_discards:
        return None
    if winner is None and state.auction_cards != [int(a) for a in got.auction]:
        return None
    return state
