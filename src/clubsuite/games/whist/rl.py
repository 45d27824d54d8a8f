"""Clubs (whist group) for learning programs: action ids and the observation of a seat (registry part ``rl``).

Action ids: 0-51 the cards of the deck (clubs 2..A, diamonds, hearts, spades), played in the card play; 52 keep and
53 exchange, in the exchange round (CW-4). One id per decision.
"""

from __future__ import annotations

from typing import cast

from clubsuite.cards import STANDARD, Card
from clubsuite.coding import Features, Layout, RlCoding, Slot, mark_plays, relative
from clubsuite.engine import View
from clubsuite.games.whist.hand import Decision, WhistPhase
from clubsuite.games.whist.options import WhistOptions
from clubsuite.games.whist.view import WhistView

SEATS = 3
CARDS = len(STANDARD.cards)
KEEP, EXCHANGE = CARDS, CARDS + 1
_POSITION = {c.index: k for k, c in enumerate(STANDARD.cards)}
_DECISIONS = {Decision.KEEP: KEEP, Decision.EXCHANGE: EXCHANGE}

LAYOUT = Layout(
    (
        Slot("hand", CARDS, "the cards the seat holds"),
        Slot(
            "played_by",
            SEATS * CARDS,
            "per seat (relative: 0 itself, 1 left, 2 right) the cards it has played in this hand",
        ),
        Slot("trick", SEATS * CARDS, "per seat (relative) its card in the trick in progress"),
        Slot(
            "known_at",
            (SEATS + 1) * CARDS,
            "per seat (relative) and then the bid hand: the cards the seat knows to be there now, which are those "
            "of the hand it gave up in an exchange (CW-4), not yet played",
        ),
        Slot("decided", SEATS * 3, "per seat (relative): not yet decided, kept, exchanged (CW-4)"),
        Slot("phase", 2, "exchange round, card play"),
        Slot("leader", SEATS, "the seat (relative) that led the trick in progress"),
        Slot("dealer", SEATS, "the dealer (relative)"),
        Slot("tricks_won", SEATS, "per seat (relative) its tricks this hand, divided by 13"),
        Slot("totals", SEATS, "per seat (relative) its running total divided by the target (CW-5)", -2.0, 2.0),
        Slot("clubs_broken", 1, "1 once clubs are broken (CW-2)"),
    ),
    STANDARD,
)


def tokens(action: object) -> tuple[int, ...]:
    """A keep, an exchange or a card as its one action id."""
    if isinstance(action, Decision):
        return (_DECISIONS[action],)
    if isinstance(action, Card):
        return (_POSITION[action.index],)
    raise TypeError(f"not a whist action: {action!r}")


def observe(view: View, f: Features) -> None:
    """Fill a whist seat's observation from its view (all of it public or the seat's own)."""
    v = cast("WhistView", view)
    me = v.seat

    def rel(seat: int) -> int:
        return relative(seat, me, SEATS)

    f.cards("hand", v.hand)
    mark_plays(f, v.tricks, v.trick, rel, SEATS)
    for where, known in v.known_cards().items():
        f.cards("known_at", known, SEATS if isinstance(where, str) else rel(where))
    decided = dict(v.decisions)
    for seat in range(SEATS):
        state = 0 if seat not in decided else 2 if decided[seat] else 1
        f.put("decided", rel(seat) * 3 + state)
    f.put("phase", 0 if v.phase == WhistPhase.EXCHANGE else 1)
    f.one_hot("leader", rel(v.leader) if v.leader >= 0 else None)
    f.put("dealer", rel(v.dealer))
    for seat in range(SEATS):
        f.put("tricks_won", rel(seat), v.tricks_won[seat] / 13)
        f.put("totals", rel(seat), v.totals[seat] / v.target)
    f.put("clubs_broken", 0, float(v.clubs_broken))


def coding(options: object) -> RlCoding:
    """The whist coding (the same for every option)."""
    if not isinstance(options, WhistOptions):
        raise TypeError(f"not whist options: {options!r}")
    return RlCoding(
        action_names=(*(str(c) for c in STANDARD.cards), "keep", "exchange"),
        tokens=tokens,
        layout=LAYOUT,
        observe=observe,
        deal_sizes=(CARDS,),
        max_steps_per_hand=SEATS + 39,  # the exchange round's decisions, then 13 tricks of 3 cards
        notes="ids 0-51 are cards, played in the card play; 52 keep and 53 exchange in the exchange round (CW-4)",
    )
