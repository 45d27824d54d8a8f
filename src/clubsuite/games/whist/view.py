"""What one seat may know in Clubs (whist group): its own cards, the public table, and what its exchange showed it.

A view is a live, read-only window on the match for one seat: the match keeps one per seat, so asking for it at
every decision costs nothing, and it always shows the present moment. ``to_dict()`` takes a snapshot that can be
kept, sent or printed. Nothing reachable through the public attributes names a card the
seat may not know: other hands and the bid hand appear only as counts, except the cards the seat itself left
in the bid hand when it exchanged (CW-4), which it knows to be with the next exchanger or in the bid hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from clubsuite.cards import FULL_STANDARD, Card, CardSet, card_at, card_text
from clubsuite.games.whist.deal import HAND_SIZE, N_SEATS
from clubsuite.jsonform import JsonObject
from clubsuite.view_base import ViewBase

if TYPE_CHECKING:
    from clubsuite.games.whist.hand import WhistHand  # noqa: F401 (named in the quoted base class)
    from clubsuite.games.whist.options import WhistOptions

BID = "bid"
"""The location key of the bid hand in :meth:`WhistView.known_cards`."""


class _MatchFacts(Protocol):
    """What the view reads of its match, named structurally so that the view needs no import of the match module
    (the match builds its views: importing it back would make a cycle)."""

    @property
    def options(self) -> WhistOptions: ...


class WhistView(ViewBase["WhistHand"]):
    """One seat's knowledge, read live from the match (the shared part is in :class:`ViewBase`)."""

    __slots__ = ()
    _match: _MatchFacts  # type: ignore[assignment]

    # -- match level -----------------------------------------------------------------------------------
    @property
    def target(self) -> int:
        """The target score of the match (CW-5)."""
        return self._match.options.target

    @property
    def options(self) -> WhistOptions:
        """The rules options of the match (public)."""
        return self._match.options

    # -- hand level ------------------------------------------------------------------------------------
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public)."""
        h = self._cur()
        return tuple(x.bit_count() for x in h.hands)

    @property
    def decisions(self) -> tuple[tuple[int, bool], ...]:
        """The exchange decisions so far: (seat, exchanged), in turn order (public, CW-4)."""
        return tuple(self._cur().decisions)

    @property
    def leader(self) -> int:
        """The leader of the trick in progress (-1 in the exchange round)."""
        return self._cur().leader

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card)."""
        return self._cur().trick

    @property
    def tricks(self) -> tuple[tuple[int, tuple[Card, ...], int], ...]:
        """The completed tricks: (leader, cards in play order, winner)."""
        return self._grown("tricks", self._cur().tricks, _trick_of)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat (public: tricks are stacked in view)."""
        return tuple(self._cur().tricks_won)

    @property
    def clubs_broken(self) -> bool:
        """Whether clubs are broken (CW-2)."""
        return self._cur().clubs_broken

    @property
    def played(self) -> CardSet:
        """Every card played so far in this hand."""
        h = self._cur()
        mask = 0
        for _, cs, _ in h.tricks:
            for i in cs:
                mask |= 1 << i
        for i in h.trick_indices:
            mask |= 1 << i
        return CardSet(mask)

    def known_cards(self) -> dict[int | str, CardSet]:
        """Cards this seat knows to be elsewhere now, by location (a seat or ``"bid"``).

        Only an exchanger knows anything here: the hand it left in the middle is with the next player who
        exchanged after it, or still in the bid hand (CW-4). Cards since played are left out.
        """
        h = self._cur()
        given = h.given_up.get(self.seat)
        if given is None:
            return {}
        remaining = given & ~int(self.played)
        after = False
        for s, exchanged in h.decisions:
            if s == self.seat:
                after = True
            elif after and exchanged:
                return {s: CardSet(remaining)}
        return {BID: CardSet(remaining)}

    def unseen(self) -> CardSet:
        """Cards whose place this seat does not know (in other hands or the bid hand)."""
        known = 0
        for cs in self.known_cards().values():
            known |= int(cs)
        return CardSet(FULL_STANDARD & ~self._cur().hands[self.seat] & ~int(self.played) & ~known)

    def to_dict(self) -> JsonObject:
        """A JSON-ready snapshot of this view."""
        h = self._cur()
        return {
            "game": "whist",
            "seat": self.seat,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": h.dealer,
            "to_act": self.to_act,
            "totals": list(self.totals),
            "target": self.target,
            "hand": str(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "bid_size": HAND_SIZE,
            "decisions": [{"seat": s, "exchanged": x} for s, x in h.decisions],
            "leader": h.leader,
            "trick": [{"seat": s, "card": str(c)} for s, c in self.trick],
            "tricks": [
                {"leader": lead, "cards": [card_text(c) for c in cs], "winner": win} for lead, cs, win in h.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "clubs_broken": h.clubs_broken,
            "known_cards": {str(k): str(v) for k, v in self.known_cards().items()},
            "legal": [str(a) for a in self.legal_actions()],
        }

    def __repr__(self) -> str:
        return f"<WhistView seat={self.seat} of {N_SEATS}>"


def _trick_of(entry: tuple[int, tuple[int, ...], int]) -> tuple[int, tuple[Card, ...], int]:
    """A completed trick as the view shows it: (leader, cards in play order, winner)."""
    lead, cards, winner = entry
    return (lead, tuple(map(card_at, cards)), winner)
