"""North Star's CLUBS for learning programs: action ids and the observation of a seat (registry part ``rl``).

A play (NS-3) is a set of cards and what it counts as, and the plays a hand allows run to thousands with wild 15s
(NS-9), far too many for a fixed catalogue. So a play is spelled: its cards one id each in increasing id order
(0-59, the 60 cards, clubs 1..15 then diamonds, hearts, spades), then one id that says what the cards count as,
(kind, high) for single, set or run and the value 1..15 of the top card (60-104: ``60 + 15 * kind + high - 1``,
kinds in the order single, set, run). The mask of each step allows only the cards that some legal play still
holds above the last card picked, and the ending ids of the legal plays of exactly the cards picked. 105 is pass
(NS-4) and 106 double or nothing (NS-8), one id each. The sizes depend on the player count (2 to 6): the
observation has one block per seat.
"""

from __future__ import annotations

from typing import cast

from clubsuite.coding import Features, Layout, RlCoding, Slot, relative
from clubsuite.engine import View
from clubsuite.games.northstar.combos import NORTHSTAR, Call, Kind, Play
from clubsuite.games.northstar.events import Played
from clubsuite.games.northstar.hand import BONUS_CARDS
from clubsuite.games.northstar.options import NorthstarOptions
from clubsuite.games.northstar.view import NorthstarView

CARDS = len(NORTHSTAR.cards)
KINDS = (Kind.SINGLE, Kind.SET, Kind.RUN)
VALUES = 15
FINISH = CARDS
PASS = FINISH + len(KINDS) * VALUES
DOUBLE = PASS + 1
_POSITION = {c.index: k for k, c in enumerate(NORTHSTAR.cards)}


def layout(players: int) -> Layout:
    """The observation slots for ``players`` seats."""
    n = players
    return Layout(
        (
            Slot("hand", CARDS, "the cards the seat holds"),
            Slot("played_by", n * CARDS, "per seat (relative: 0 itself, 1 left, ...) the cards it played this round"),
            Slot("won", n * CARDS, "per seat (relative) the cards it has won in tricks this round (club points)"),
            Slot("top", CARDS, "the cards of the play to beat (empty when the next play leads)"),
            Slot("top_kind", len(KINDS), "what the play to beat is: single, set, run"),
            Slot("top_high", 1, "the value the play to beat counts as, divided by 15"),
            Slot("top_size", 1, "the number of cards of the play to beat, divided by 10"),
            Slot("top_seat", n, "who made the play to beat (relative)"),
            Slot("passes", 1, "passes since the last play, divided by the player count"),
            Slot("hand_sizes", n, "per seat (relative) the cards it holds, divided by 10"),
            Slot("out", n, "per seat (relative): has gone out this round (NS-5)"),
            Slot("bonus", n, "per seat (relative) the bonus card it took, divided by 12 (NS-5)"),
            Slot("doubled", n, "per seat (relative): called double or nothing this round (NS-8)"),
            Slot("started", 1, "1 once the seat has played a card this round (no double or nothing after, NS-8)"),
            Slot("last_turn", n, "the last player holding cards, in its final turn (relative, NS-5)"),
            Slot("partner", n, "per seat (relative): a partner of the seat (team games, NS-10)"),
            Slot("dealer", n, "the dealer (relative)"),
            Slot("seen_last_round", CARDS, "the cards the seat saw in the round before (NS-6: they may come back)"),
            Slot("totals", n, "per seat (relative) its team's running total divided by the goal (NS-7)", -1.0, 2.0),
        ),
        NORTHSTAR,
    )


def tokens(action: object) -> tuple[int, ...]:
    """A call as its id; a play as its cards' ids in increasing order and the id of what it counts as."""
    if action is Call.PASS:
        return (PASS,)
    if action is Call.DOUBLE:
        return (DOUBLE,)
    if isinstance(action, Play):
        cards = sorted(_POSITION[c.index] for c in action.cards)
        return (*cards, FINISH + KINDS.index(action.kind) * VALUES + action.high - 1)
    raise TypeError(f"not a North Star action: {action!r}")


def observe(view: View, f: Features) -> None:
    """Fill a North Star seat's observation from its view (everything but its hand is public)."""
    v = cast("NorthstarView", view)
    me, n = v.seat, v.players

    def rel(seat: int) -> int:
        return relative(seat, me, n)

    f.cards("hand", v.hand)
    for event in v.history:
        if isinstance(event, Played):
            f.cards("played_by", event.play.cards, rel(event.seat))
    for seat, won in enumerate(v.won):
        f.cards("won", won, rel(seat))
    top = v.top
    if top is not None:
        f.cards("top", top.cards)
        f.put("top_kind", KINDS.index(top.kind))
        f.put("top_high", 0, top.high / VALUES)
        f.put("top_size", 0, len(top.cards) / 10)
    f.one_hot("top_seat", None if v.top_seat is None else rel(v.top_seat))
    f.put("passes", 0, v.passes / n)
    top_bonus = max(b for counts in BONUS_CARDS.values() for b in counts)
    for seat in range(n):
        f.put("hand_sizes", rel(seat), v.hand_sizes[seat] / 10)
        bonus = v.bonus[seat]
        if bonus is not None:
            f.put("bonus", rel(seat), bonus / top_bonus)
        f.put("totals", rel(seat), v.team_totals[v.team_of(seat)] / v.options.goal)
    for seat in v.out_order:
        f.put("out", rel(seat))
    for seat in v.doubled:
        f.put("doubled", rel(seat))
    f.put("started", 0, float(v.started))
    f.one_hot("last_turn", None if v.last_turn is None else rel(v.last_turn))
    for seat in v.partners():
        f.put("partner", rel(seat))
    f.put("dealer", rel(v.dealer))
    if v.rounds() > 1:
        f.cards("seen_last_round", v.seen_in_round(v.rounds() - 2))


def coding(options: object) -> RlCoding:
    """The North Star coding for the options' player count."""
    if not isinstance(options, NorthstarOptions):
        raise TypeError(f"not North Star options: {options!r}")
    kinds = [(k, h) for k in KINDS for h in range(1, VALUES + 1)]
    return RlCoding(
        action_names=(
            *(str(c) for c in NORTHSTAR.cards),
            *(f"as {k.value} {h}" for k, h in kinds),
            "pass",
            "double",
        ),
        tokens=tokens,
        layout=layout(options.players),
        observe=observe,
        deal_sizes=(CARDS,),
        # Each of the 10n cards dealt is one id, each play adds one ending id and at most n - 1 passes, and each
        # seat may call double once.
        max_steps_per_hand=10 * options.players * (options.players + 1) + options.players,
        notes="a play is its cards' ids (0-59) in increasing order, then what it counts as (60-104: "
        "60 + 15 * kind + high - 1, kinds single, set, run); 105 pass (NS-4), 106 double or nothing (NS-8)",
    )
