"""What anyone watching a table of Clubs (whist group) may see: the registry part ``spectator``.

A spectator holds no seat, so it sees only what the table shows everyone: the exchange decisions, the cards played
and the tricks taken, the counts of cards in each hand, the scores. What a seat's view shows it alone (its own cards,
what its exchange taught it, its legal actions) is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clubsuite.cards import CardSet, card_text
from clubsuite.errors import NoHandError
from clubsuite.games.whist.deal import HAND_SIZE
from clubsuite.jsonform import JsonObject

if TYPE_CHECKING:
    from clubsuite.games.whist.match import WhistMatch


def public_dict(match: WhistMatch) -> JsonObject:
    """The table as a spectator sees it now, in the shape of :meth:`WhistView.to_dict` with ``"seat": None``.

    Left out or reduced, and why:

    * ``hand`` is None: a spectator holds no cards; ``hand_sizes`` (public) says how many each seat holds.
    * ``known_cards`` is left out: it lists the cards an exchanger left in the middle, which only that exchanger
      saw (CW-4: the bid hand is face down, and only a player who exchanges sees both hands). The bid hand itself
      shows only as ``bid_size``, as in every view.
    * ``legal`` is left out: the legal actions are drawn from the hand of the seat to act.

    Everything else is what every seat's view shows alike: the exchange decisions (taken in turn in front of
    everyone, CW-4), the trick on the table and the completed tricks with their winners, whether clubs are broken
    (CW-2), the tricks won and the totals. The record of the match, hands included, is published separately once it
    is over; this stays strict even then. Raises :class:`~clubsuite.errors.NoHandError` before the first deal,
    like a view.
    """
    if not match.hands:
        raise NoHandError("no hand has been dealt yet: deal first")
    h = match.hands[-1]
    return {
        "game": "whist",
        "seat": None,
        "phase": match.phase.value,
        "hand_number": len(match.hands) - 1,
        "dealer": h.dealer,
        "to_act": match.to_act,
        "totals": list(match.totals),
        "target": match.options.target,
        "hand": None,
        "hand_sizes": [x.bit_count() for x in h.hands],
        "bid_size": HAND_SIZE,
        "decisions": [{"seat": s, "exchanged": x} for s, x in h.decisions],
        "leader": h.leader,
        "trick": [{"seat": s, "card": str(c)} for s, c in h.trick],
        "tricks": [{"leader": lead, "cards": [card_text(c) for c in cs], "winner": win} for lead, cs, win in h.tricks],
        "tricks_won": list(h.tricks_won),
        "clubs_broken": h.clubs_broken,
    }


def hidden_piles(match: WhistMatch) -> JsonObject:
    """The cards of the hand in progress that are in no seat's hand, for a replay that shows everything (the part
    ``hidden``): the bid hand (CW-4)."""
    hand = match.current
    if hand is None:
        return {}
    return {"bid hand": str(CardSet(int(hand.bid)))}
