"""What anyone watching a table of Free Clubs may see: the registry part ``spectator``.

A spectator holds no seat, so it sees only what the table shows everyone: the bids and passes of the auction (bids
are laid face up, FC-3), the winner and the Joker team, which handicaps were resolved and how many cards each moved,
that cards were passed and between whom, the cards played and the tricks, the counts of cards in each hand, the
scores, and in table mode the calls of misplays and what the table's check found (FC-10). Every card a seat holds,
discards, receives or chooses in private is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clubsuite.cards import CardSet, card_at
from clubsuite.errors import NoHandError
from clubsuite.jsonform import JsonObject

if TYPE_CHECKING:
    from clubsuite.games.free.match import FreeMatch


def public_dict(match: FreeMatch) -> JsonObject:
    """The table as a spectator sees it now, in the shape of :meth:`FreeView.to_dict` with ``"seat": None``.

    Left out or reduced, and why:

    * ``hand``, ``auction_hand`` and ``unbid_auction`` are None: a spectator holds no cards, and the auction cards
      a seat never bid leave play face down (FC-3); ``hand_sizes`` and ``auction_sizes`` (public) give the counts.
    * ``chest`` is None: the chest is set aside face down and only its taker sees it (FC-5).
    * ``discards`` is None: the cards a handicap removes are discarded unseen (FC-5); how many each handicap
      removed stays in ``handicaps``, as in every view.
    * ``pass_choice`` is None: the card a seat chose for the pass before play is its own secret (FC-2).
    * ``transfers`` keeps who gave a card to whom (a Queen's pass to the left, FC-5, and the pass to the right
      before play, FC-2, both made in front of everyone) but not the card, which only giver and receiver see.
    * ``misplays`` (table mode) keeps only the misplays someone called: an uncalled one is known to its player
      alone (FC-10). ``no_misplay`` is public, as in every view.
    * ``legal`` is left out: the legal actions are drawn from the hand of the seat to act.

    The record of the match, hands included, is published separately once it is over; this stays strict even then.
    Raises :class:`~clubsuite.errors.NoHandError` before the first deal, like a view.
    """
    if not match.hands:
        raise NoHandError("no hand has been dealt yet: deal first")
    h = match.hands[-1]
    out: JsonObject = {
        "game": "free",
        "seat": None,
        "phase": match.phase.value,
        "stage": h.stage.value,
        "hand_number": len(match.hands) - 1,
        "dealer": h.dealer,
        "to_act": match.to_act,
        "totals": list(match.totals),
        "target": match.options.target,
        "hand": None,
        "auction_hand": None,
        "unbid_auction": None,
        "hand_sizes": [x.bit_count() for x in h.hands],
        "auction_sizes": [x.bit_count() for x in h.auction_cards],
        "auction": [{"seat": s, "bid": str(card_at(c)) if c >= 0 else "pass"} for s, c in h.calls],
        "winner": h.winner if h.winner >= 0 else None,
        "partner": h.partner if h.partner >= 0 else None,
        "chest": None,
        "handicaps": [
            {"seat": s, "bid": str(card_at(b)), "count": removed.bit_count(), "to": to if to >= 0 else None}
            for s, b, removed, to in h.handicaps
        ],
        "discards": None,
        "pass_choice": None,
        "transfers": [{"from": g, "to": r} for g, r, _ in h.passed],
        "leader": h.leader,
        "trick": [{"seat": s, "card": str(card_at(c))} for s, c in h.trick],
        "tricks": [
            {"cards": [{"seat": s, "card": str(card_at(c))} for s, c in plays], "winner": w} for plays, w in h.tricks
        ],
        "tricks_won": list(h.tricks_won),
    }
    if match.options.misplays:  # the keys exist only in table mode, as in the views
        out["misplays"] = [
            {"seat": m.seat, "card": str(card_at(m.card)), "called": m.called} for m in h.misplays if m.called
        ]
        out["no_misplay"] = [{"caller": k, "seat": s, "card": str(card_at(c))} for k, s, c in h.checks]
    return out


def hidden_piles(match: FreeMatch) -> JsonObject:
    """The cards of the hand in progress that are in no seat's playing hand, for a replay that shows everything (the
    part ``hidden``): each seat's bid cards not yet bid (FC-3), the treasure chest until the auction is won (FC-2),
    and the cards each seat's handicaps removed (FC-5)."""
    hand = match.current
    if hand is None:
        return {}
    out: JsonObject = {}
    for seat in range(match.n_seats):
        cards = match.view(seat).to_dict().get("auction_hand")
        if cards:
            out[f"bid cards of seat {seat}"] = cards
    if hand.winner < 0:  # the chest is the auction winner's once the auction ends
        out["treasure chest"] = str(CardSet(int(hand.deal.chest)))
    for seat, mask in enumerate(hand.discards):
        if mask:
            out[f"discards of seat {seat}"] = str(CardSet(int(mask)))
    return out
