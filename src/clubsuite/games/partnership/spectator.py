"""What anyone watching a table of Clubs (partnership) may see: the registry part ``spectator``.

A spectator holds no seat, so it sees only what the table shows everyone: the pass direction and who has chosen a
pass, the cards played and the tricks (turned face up as they are won, so each partnership's points), the suits a
seat has shown it lacks, the counts of cards in each hand, the scores. The passed cards are left out (CP-2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clubsuite.cards import card_at
from clubsuite.errors import NoHandError
from clubsuite.games.partnership.view import shown_voids
from clubsuite.jsonform import JsonObject

if TYPE_CHECKING:
    from clubsuite.games.partnership.match import PartnershipMatch


def public_dict(match: PartnershipMatch) -> JsonObject:
    """The table as a spectator sees it now, in the shape of :meth:`PartnershipView.to_dict` with ``"seat": None``.

    Left out or reduced, and why:

    * ``hand`` is None: a spectator holds no cards; ``hand_sizes`` (public) says how many each seat holds.
    * ``given`` and ``received`` are None: the three cards a player passes are seen by the giver and, once all four
      have chosen, by the receiver only (CP-2). ``chosen`` (public) says who has chosen; ``pass`` the direction.
    * ``partner``, ``pass_to`` and ``pass_from`` are None: they are relative to the view's seat (the partnerships
      themselves are fixed, seats 0 and 2 against 1 and 3, and ``team_totals`` gives their totals).
    * ``known_cards`` is left out: it lists where a seat's own passed cards went, which only the giver knows.
    * ``legal`` is left out: the legal actions are drawn from the hand of the seat to act.

    The record of the match, hands included, is published separately once it is over; this stays strict even then.
    Raises :class:`~clubsuite.errors.NoHandError` before the first deal, like a view.
    """
    if not match.hands:
        raise NoHandError("no hand has been dealt yet: deal first")
    h = match.hands[-1]
    return {
        "game": "partnership",
        "seat": None,
        "partner": None,
        "phase": match.phase.value,
        "hand_number": len(match.hands) - 1,
        "dealer": h.dealer,
        "to_act": match.to_act,
        "totals": list(match.totals),
        "team_totals": list(match.team_totals),
        "target": match.options.target,
        "pass": h.direction.value,
        "pass_to": None,
        "pass_from": None,
        "chosen": list(h.pass_choices),
        "given": None,
        "received": None,
        "hand": None,
        "hand_sizes": [x.bit_count() for x in h.hands],
        "leader": h.leader,
        "trick": [{"seat": s, "card": str(c)} for s, c in h.trick],
        "tricks": [
            {"leader": lead, "cards": [str(card_at(c)) for c in cs], "winner": win} for lead, cs, win in h.tricks
        ],
        "tricks_won": list(h.tricks_won),
        "points": [line._asdict() | {"total": line.total} for line in h.score_lines()],
        "voids": ["".join(s.letter for s in v) for v in shown_voids(h)],
    }
