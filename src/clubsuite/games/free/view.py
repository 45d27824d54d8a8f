"""What one seat may know in Free Clubs: its own cards, the public table, and the hidden moves it took part in.

A view is a live, read-only window on the match for one seat: the match keeps one per seat, and ``to_dict()`` takes
a snapshot. Public: every bid and pass of the auction, the winner and the Joker team, how many cards each handicap
removed, every card played and every trick, and how many cards each seat holds. Private to this seat: its primary
and auction cards, the chest only if this seat took it, its own discards, and the cards it gave or received by a
Queen handicap or the pass before play (FC-2, FC-5). In table mode (FC-10) a misplay shows only in the view of
the seat that made it, until someone calls it; every call and what the table's check found are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from clubsuite.cards import Card, CardSet, card_at
from clubsuite.games.free.deal import N_SEATS
from clubsuite.jsonform import JsonObject
from clubsuite.view_base import ViewBase

if TYPE_CHECKING:
    from clubsuite.games.free.hand import FreeHand, Stage  # noqa: F401 (FreeHand: named in the quoted base class)
    from clubsuite.games.free.options import FreeOptions


class _MatchFacts(Protocol):
    """What the view reads of its match, named structurally so that the view needs no import of the match module
    (the match builds its views: importing it back would make a cycle)."""

    @property
    def options(self) -> FreeOptions: ...


class FreeView(ViewBase["FreeHand"]):
    """One seat's knowledge, read live from the match (the shared part is in :class:`ViewBase`)."""

    __slots__ = ()
    _match: _MatchFacts  # type: ignore[assignment]

    # -- match level -----------------------------------------------------------------------------------
    @property
    def stage(self) -> Stage:
        """The stage of the current hand (auction, handicap, pass, play, over)."""
        return self._cur().stage

    @property
    def options(self) -> FreeOptions:
        """The rules options of the match (public)."""
        return self._match.options

    # -- hand level: this seat's own cards -------------------------------------------------------------
    @property
    def auction_hand(self) -> CardSet:
        """This seat's auction cards not yet bid (empty once the auction is over)."""
        return CardSet(self._cur().auction_cards[self.seat])

    @property
    def unbid_auction(self) -> CardSet:
        """This seat's own auction cards that it has not bid: during the auction its auction hand, afterwards the
        cards of its own that left play unbid (FC-3). Only this seat saw them, so only its own view shows them."""
        h = self._cur()
        bid = 0
        for s, c in h.bids:
            if s == self.seat:
                bid |= 1 << c
        return CardSet(int(h.deal.auction[self.seat]) & ~bid)

    @property
    def chest(self) -> CardSet | None:
        """The chest's cards if this seat took them, else None (FC-5: only the taker sees the chest)."""
        h = self._cur()
        return CardSet(int(h.deal.chest)) if h.winner == self.seat else None

    @property
    def discards(self) -> CardSet:
        """The primary cards this seat's own handicaps discarded (nobody else sees them)."""
        return CardSet(self._cur().discards[self.seat])

    @property
    def pass_choice(self) -> Card | None:
        """The card this seat chose to pass to the right, while the others are still choosing (FC-2)."""
        idx = self._cur().pass_choices.get(self.seat)
        return card_at(idx) if idx is not None else None

    @property
    def transfers(self) -> tuple[tuple[int, int, Card], ...]:
        """Cards this seat gave or received (Queen handicaps and the pass): (giver, receiver, card)."""
        me = self.seat
        return tuple((g, r, card_at(c)) for g, r, c in self._cur().passed if me in (g, r))

    # -- hand level: public ----------------------------------------------------------------------------
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many primary cards each seat holds (public)."""
        return tuple(x.bit_count() for x in self._cur().hands)

    @property
    def auction_sizes(self) -> tuple[int, ...]:
        """How many auction cards each seat still holds (public)."""
        return tuple(x.bit_count() for x in self._cur().auction_cards)

    @property
    def calls(self) -> tuple[tuple[int, Card | None], ...]:
        """The auction so far: (seat, card bid) or (seat, None) for a pass (public, FC-3)."""
        return tuple((s, card_at(c) if c >= 0 else None) for s, c in self._cur().calls)

    @property
    def winner(self) -> int | None:
        """The auction winner, once the auction is over."""
        w = self._cur().winner
        return w if w >= 0 else None

    @property
    def partner(self) -> int | None:
        """The Joker bidder's partner, if the auction ended with a Joker (FC-4)."""
        p = self._cur().partner
        return p if p >= 0 else None

    @property
    def handicaps(self) -> tuple[tuple[int, Card, int, int | None], ...]:
        """Resolved handicaps: (seat, bid, how many cards it removed, receiving seat for a Queen) (public)."""
        return tuple(
            (s, card_at(b), removed.bit_count(), to if to >= 0 else None) for s, b, removed, to in self._cur().handicaps
        )

    @property
    def leader(self) -> int:
        """The leader of the trick in progress (-1 before play)."""
        return self._cur().leader

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card)."""
        return tuple((s, card_at(c)) for s, c in self._cur().trick)

    @property
    def tricks(self) -> tuple[tuple[tuple[tuple[int, Card], ...], int], ...]:
        """The completed tricks: ((seat, card) in play order, winner)."""
        return self._grown("tricks", self._cur().tricks, _trick_of)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat (public)."""
        return tuple(self._cur().tricks_won)

    @property
    def misplays(self) -> tuple[tuple[int, Card, int | None], ...]:
        """Misplays this seat may know (FC-10): its own, and every called one, as (seat, card, stage or None).

        The stage is that of the call (1, 2 or 3), None while uncalled; another seat's uncalled misplay never shows.
        """
        me = self.seat
        return tuple(
            (m.seat, card_at(m.card), m.called or None) for m in self._cur().misplays if m.called or m.seat == me
        )

    @property
    def checks(self) -> tuple[tuple[int, int, Card], ...]:
        """Every call of this hand that found a lawful card (FC-10), as (caller, seat that played it, card): public,
        since the table checks a call in front of everyone; each tells that the seat held none of the led suit."""
        return tuple((caller, seat, card_at(c)) for caller, seat, c in self._cur().checks)

    def to_dict(self) -> JsonObject:
        """A JSON-ready snapshot of this view."""
        h = self._cur()
        chest = self.chest
        pc = self.pass_choice
        out: JsonObject = {
            "game": "free",
            "seat": self.seat,
            "phase": self.phase.value,
            "stage": h.stage.value,
            "hand_number": self.hand_number,
            "dealer": h.dealer,
            "to_act": self.to_act,
            "totals": list(self.totals),
            "target": self.options.target,
            "hand": str(self.hand),
            "auction_hand": str(self.auction_hand),
            "unbid_auction": str(self.unbid_auction),
            "hand_sizes": list(self.hand_sizes),
            "auction_sizes": list(self.auction_sizes),
            "auction": [{"seat": s, "bid": str(c) if c is not None else "pass"} for s, c in self.calls],
            "winner": self.winner,
            "partner": self.partner,
            "chest": str(chest) if chest is not None else None,
            "handicaps": [{"seat": s, "bid": str(b), "count": n, "to": to} for s, b, n, to in self.handicaps],
            "discards": str(self.discards),
            "pass_choice": str(pc) if pc is not None else None,
            "transfers": [{"from": g, "to": r, "card": str(c)} for g, r, c in self.transfers],
            "leader": h.leader,
            "trick": [{"seat": s, "card": str(c)} for s, c in self.trick],
            "tricks": [
                {"cards": [{"seat": s, "card": str(c)} for s, c in plays], "winner": w} for plays, w in self.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "legal": [str(a) for a in self.legal_actions()],
        }
        if self.options.misplays:  # the key exists only in table mode, so default snapshots stay as they were
            out["misplays"] = [{"seat": s, "card": str(c), "called": st} for s, c, st in self.misplays]
            out["no_misplay"] = [{"caller": k, "seat": s, "card": str(c)} for k, s, c in self.checks]
        return out

    def __repr__(self) -> str:
        return f"<FreeView seat={self.seat} of {N_SEATS}>"


def _trick_of(entry: tuple[tuple[tuple[int, int], ...], int]) -> tuple[tuple[tuple[int, Card], ...], int]:
    """A completed trick as the view shows it: ((seat, card) in play order, winner)."""
    plays, winner = entry
    return (tuple((s, card_at(c)) for s, c in plays), winner)
