"""Free Clubs for learning programs: action ids and the observation of a seat (registry part ``rl``).

Action ids: 0-53 the cards of the deck (clubs 2..A, diamonds, hearts, spades, then the two Jokers) and 54 pass.
What a card id does depends on the stage, which the observation shows: in the auction it bids that auction card
(FC-3), in a Ten's handicap it discards that primary card (FC-5), in the pass it passes that card to the right
(FC-2), in the card play it plays it. Pass (54) is the auction's pass. One id per decision. The table mode's
misplays (FC-10) are never offered: a learner plays lawful cards only.
"""

from __future__ import annotations

from typing import cast

from clubsuite.cards import STANDARD_WITH_JOKERS, Card
from clubsuite.coding import Features, Layout, RlCoding, Slot, mark_plays, relative
from clubsuite.engine import View
from clubsuite.games.free.hand import Call, Stage
from clubsuite.games.free.options import FreeOptions
from clubsuite.games.free.view import FreeView

SEATS = 3
CARDS = len(STANDARD_WITH_JOKERS.cards)
PASS = CARDS
_POSITION = {c.index: k for k, c in enumerate(STANDARD_WITH_JOKERS.cards)}
_STAGES = (Stage.AUCTION, Stage.HANDICAP, Stage.PASS, Stage.PLAY)

LAYOUT = Layout(
    (
        Slot("hand", CARDS, "the primary cards the seat holds"),
        Slot("auction_hand", CARDS, "the seat's auction cards not yet bid"),
        Slot("unbid", CARDS, "the seat's own auction cards that left play unbid (FC-3)"),
        Slot("chest", CARDS, "the chest's cards, if the seat took it (FC-5)"),
        Slot("discards", CARDS, "the primary cards the seat's own handicaps discarded (FC-5)"),
        Slot("pass_choice", CARDS, "the card the seat chose to pass to the right, while others choose (FC-2)"),
        Slot(
            "given_to",
            SEATS * CARDS,
            "per receiving seat (relative: 0 itself, 1 left, 2 right) the cards the seat gave",
        ),
        Slot("received_from", SEATS * CARDS, "per giving seat (relative) the cards the seat received"),
        Slot("bids", SEATS * CARDS, "per seat (relative) the auction cards it bid (FC-3)"),
        Slot("top_bid", CARDS, "the highest bid so far"),
        Slot("top_bidder", SEATS, "the seat (relative) that made the highest bid"),
        Slot("passed_last", SEATS, "per seat (relative): its latest call in the auction was a pass"),
        Slot("winner", SEATS, "the auction winner (relative)"),
        Slot("partner", SEATS, "the Joker bidder's partner (relative), after a Joker (FC-4)"),
        Slot("handicapped", SEATS, "per seat (relative) the primary cards its handicaps removed, divided by 6"),
        Slot("played_by", SEATS * CARDS, "per seat (relative) the cards it has played in this hand"),
        Slot("trick", SEATS * CARDS, "per seat (relative) its card in the trick in progress"),
        Slot("stage", 4, "auction, handicap, pass, card play"),
        Slot("leader", SEATS, "the seat (relative) that led the trick in progress"),
        Slot("dealer", SEATS, "the dealer (relative)"),
        Slot("hand_sizes", SEATS, "per seat (relative) its primary cards, divided by 16"),
        Slot("auction_sizes", SEATS, "per seat (relative) its auction cards, divided by 6"),
        Slot("tricks_won", SEATS, "per seat (relative) its tricks this hand, divided by 10"),
        Slot("totals", SEATS, "per seat (relative) its running total divided by the target (FC-9)", -2.0, 2.0),
    ),
    STANDARD_WITH_JOKERS,
)


def tokens(action: object) -> tuple[int, ...]:
    """A card as its id (a bid, a discard, a pass to the right or a card played); the auction's pass as 54."""
    if action is Call.PASS:
        return (PASS,)
    if isinstance(action, Card):
        return (_POSITION[action.index],)
    raise TypeError(f"not a Free Clubs action: {action!r}")


def observe(view: View, f: Features) -> None:
    """Fill a Free Clubs seat's observation from its view (all of it public or the seat's own)."""
    v = cast("FreeView", view)
    me = v.seat

    def rel(seat: int) -> int:
        return relative(seat, me, SEATS)

    f.cards("hand", v.hand)
    f.cards("auction_hand", v.auction_hand)
    f.cards("unbid", v.unbid_auction)
    if v.chest is not None:
        f.cards("chest", v.chest)
    f.cards("discards", v.discards)
    if v.pass_choice is not None:
        f.cards("pass_choice", (v.pass_choice,))
    for giver, receiver, card in v.transfers:
        if giver == me:
            f.cards("given_to", (card,), rel(receiver))
        if receiver == me:
            f.cards("received_from", (card,), rel(giver))
    last: dict[int, bool] = {}
    for seat, bid in v.calls:
        last[seat] = bid is None
        if bid is not None:
            f.cards("bids", (bid,), rel(seat))
    bids = [(seat, bid) for seat, bid in v.calls if bid is not None]
    if bids:
        seat, bid = bids[-1]
        f.cards("top_bid", (bid,))
        f.put("top_bidder", rel(seat))
    for seat, passed in last.items():
        if passed:
            f.put("passed_last", rel(seat))
    f.one_hot("winner", None if v.winner is None else rel(v.winner))
    f.one_hot("partner", None if v.partner is None else rel(v.partner))
    removed = [0] * SEATS
    for seat, _, n, _ in v.handicaps:
        removed[seat] += n
    for plays, _ in v.tricks:  # a seat out of cards is skipped, so each play names its seat
        for seat, card in plays:
            f.cards("played_by", (card,), rel(seat))
    mark_plays(f, (), v.trick, rel, SEATS)
    if v.stage in _STAGES:
        f.put("stage", _STAGES.index(v.stage))
    f.one_hot("leader", rel(v.leader) if v.leader >= 0 else None)
    f.put("dealer", rel(v.dealer))
    for seat in range(SEATS):
        f.put("handicapped", rel(seat), removed[seat] / 6)
        f.put("hand_sizes", rel(seat), v.hand_sizes[seat] / 16)
        f.put("auction_sizes", rel(seat), v.auction_sizes[seat] / 6)
        f.put("tricks_won", rel(seat), v.tricks_won[seat] / 10)
        f.put("totals", rel(seat), v.totals[seat] / v.options.target)


def coding(options: object) -> RlCoding:
    """The Free Clubs coding (the same for every option)."""
    if not isinstance(options, FreeOptions):
        raise TypeError(f"not Free Clubs options: {options!r}")
    return RlCoding(
        action_names=(*(str(c) for c in STANDARD_WITH_JOKERS.cards), "pass"),
        tokens=tokens,
        layout=LAYOUT,
        observe=observe,
        deal_sizes=(18, 36),
        # The auction (at most 18 bids, two passes at most between them and at its end), a Ten's discards, the
        # pass, 30 cards of play.
        max_steps_per_hand=18 * 3 + 2 + 6 + SEATS + 30,
        notes="ids 0-53 are cards (a bid, a Ten's discard, the pass to the right or a card played, by stage); "
        "54 is the auction's pass (FC-3)",
    )
