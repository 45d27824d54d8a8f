"""What anyone watching a table of North Star's CLUBS may see: the registry part ``spectator``.

A spectator holds no seat, so it sees only what the table shows everyone: every play and pass, the cards each seat
has won, who went out with which bonus card, who called double or nothing, the counts of cards in each hand and in
the pack, the scores. No hand and no card of the pack is ever shown (NS-6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clubsuite.cards import CardSet
from clubsuite.errors import NoHandError
from clubsuite.jsonform import JsonObject

if TYPE_CHECKING:
    from clubsuite.games.northstar.match import NorthstarMatch


def public_dict(match: NorthstarMatch) -> JsonObject:
    """The table as a spectator sees it now, in the shape of :meth:`NorthstarView.to_dict` with ``"seat": None``.

    Left out or reduced, and why:

    * ``hand`` is None: a spectator holds no cards; ``hand_sizes`` (public) says how many each seat holds. A
      player left holding cards when a round ends does not show them (NS-5), so they stay counts too.
    * The pack is reduced to ``pack``: how many cards were left undealt and how many lay on the discard pile
      before this round was dealt (public counts). Which cards they are is hidden: with ``leftover=next_round``
      the undealt cards are dealt next round and the discards hold the cards left in hands (NS-6).
    * ``legal`` is left out: the legal actions are drawn from the hand of the seat to act.

    The record of the match, hands included, is published separately once it is over; this stays strict even then.
    Raises :class:`~clubsuite.errors.NoHandError` before the first deal, like a view.
    """
    if not match.hands:
        raise NoHandError("no hand has been dealt yet: deal first")
    h = match.hands[-1]
    undealt, discards = match.packs[-1]
    return {
        "game": "northstar",
        "seat": None,
        "players": match.n_seats,
        "phase": match.phase.value,
        "hand_number": len(match.hands) - 1,
        "dealer": h.dealer,
        "to_act": match.to_act,
        "totals": list(match.totals),
        "team_totals": list(match.team_totals),
        "goal": match.options.goal,
        "hand": None,
        "hand_sizes": [x.bit_count() for x in h.hands],
        "pack": {"undealt": undealt, "discards": discards},
        "trick": [{"seat": s, "play": str(p)} for s, p in h.trick],
        "passes": h.passes,
        "won": [str(CardSet.from_mask(m)) for m in h.won],
        "bonus": list(h.bonus),
        "out_order": list(h.out_order),
        "doubled": [s for s in range(h.n) if h.doubled[s]],
        "last_turn": h.last_turn,
    }
