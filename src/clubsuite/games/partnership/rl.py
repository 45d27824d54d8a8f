"""Clubs (partnership) for learning programs: action ids and the observation of a seat (registry part ``rl``).

Action ids: 0-51 the cards of the deck (clubs 2..A, diamonds, hearts, spades). In the card play one id plays that
card. The three-card pass (CP-2) takes three steps: the three cards in increasing id order, each step's mask
allowing only the cards above the last one picked that still leave enough cards to complete the three, so every
set of three cards is one sequence and only one.
"""

from __future__ import annotations

from typing import cast

from clubsuite.cards import STANDARD, Card
from clubsuite.coding import Features, Layout, RlCoding, Slot, mark_plays, relative
from clubsuite.engine import View
from clubsuite.games.partnership.hand import Direction, PartnershipPhase, Pass
from clubsuite.games.partnership.options import PartnershipOptions
from clubsuite.games.partnership.view import PartnershipView

SEATS = 4
CARDS = len(STANDARD.cards)
_POSITION = {c.index: k for k, c in enumerate(STANDARD.cards)}
_DIRECTIONS = (Direction.LEFT, Direction.RIGHT, Direction.NONE)

LAYOUT = Layout(
    (
        Slot("hand", CARDS, "the cards the seat holds"),
        Slot(
            "played_by",
            SEATS * CARDS,
            "per seat (relative: 0 itself, 1 left, 2 partner, 3 right) the cards it has played in this hand",
        ),
        Slot("trick", SEATS * CARDS, "per seat (relative) its card in the trick in progress"),
        Slot("given", CARDS, "the three cards the seat chose to pass this hand (CP-2)"),
        Slot("received", CARDS, "the three cards the seat received this hand, once the cards moved (CP-2)"),
        Slot(
            "known_at",
            SEATS * CARDS,
            "per seat (relative) the cards the seat knows to be there: those it passed, not yet played",
        ),
        Slot("voids", SEATS * 4, "per seat (relative) and suit (clubs, diamonds, hearts, spades): shown void"),
        Slot("chosen", SEATS, "per seat (relative): has chosen its pass"),
        Slot("direction", 3, "where the cards go this hand: left, right, no pass (CP-2)"),
        Slot("phase", 2, "the pass, the card play"),
        Slot("leader", SEATS, "the seat (relative) that led the trick in progress"),
        Slot("winning", SEATS, "the seat (relative) winning the trick in progress"),
        Slot("dealer", SEATS, "the dealer (relative)"),
        Slot("tricks_won", SEATS, "per seat (relative) its tricks this hand, divided by 13"),
        Slot(
            "points", 2, "this hand's points so far of the seat's partnership, then of the other, divided by 36 (CP-3)"
        ),
        Slot(
            "totals",
            2,
            "the running totals of the seat's partnership, then of the other, divided by the target (CP-4)",
            0.0,
            2.0,
        ),
    ),
    STANDARD,
)


def tokens(action: object) -> tuple[int, ...]:
    """A card as its id; a pass as its three cards' ids in increasing order."""
    if isinstance(action, Pass):
        return tuple(sorted(_POSITION[c.index] for c in action.cards))
    if isinstance(action, Card):
        return (_POSITION[action.index],)
    raise TypeError(f"not a partnership action: {action!r}")


def observe(view: View, f: Features) -> None:
    """Fill a partnership seat's observation from its view (all of it public or the seat's own)."""
    v = cast("PartnershipView", view)
    me = v.seat

    def rel(seat: int) -> int:
        return relative(seat, me, SEATS)

    f.cards("hand", v.hand)
    mark_plays(f, v.tricks, v.trick, rel, SEATS)
    if v.given is not None:
        f.cards("given", v.given)
    if v.received is not None:
        f.cards("received", v.received)
    for seat, known in v.known_cards().items():
        f.cards("known_at", known, rel(seat))
    for seat, suits in enumerate(v.voids()):
        for suit in suits:
            f.put("voids", rel(seat) * 4 + int(suit))
    for seat in v.chosen:
        f.put("chosen", rel(seat))
    f.put("direction", _DIRECTIONS.index(v.direction))
    f.put("phase", 0 if v.phase == PartnershipPhase.PASS else 1)
    f.one_hot("leader", rel(v.leader) if v.leader >= 0 else None)
    f.one_hot("winning", rel(v.winning) if v.winning >= 0 else None)
    f.put("dealer", rel(v.dealer))
    for seat in range(SEATS):
        f.put("tricks_won", rel(seat), v.tricks_won[seat] / 13)
    mine, theirs = v.team, 1 - v.team
    points = v.points
    f.put("points", 0, points[mine].total / 36)
    f.put("points", 1, points[theirs].total / 36)
    f.put("totals", 0, v.team_totals[mine] / v.target)
    f.put("totals", 1, v.team_totals[theirs] / v.target)


def coding(options: object) -> RlCoding:
    """The partnership coding (the same for every option)."""
    if not isinstance(options, PartnershipOptions):
        raise TypeError(f"not partnership options: {options!r}")
    return RlCoding(
        action_names=tuple(str(c) for c in STANDARD.cards),
        tokens=tokens,
        layout=LAYOUT,
        observe=observe,
        deal_sizes=(CARDS,),
        max_steps_per_hand=SEATS * 3 + CARDS,  # three picks per pass, then every card
        notes="ids 0-51 are cards: one id plays a card; a pass is three ids, its cards in increasing order (CP-2)",
    )
