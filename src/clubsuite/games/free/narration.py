"""What ``clubs replay`` adds to a Free Clubs hand beside the table's events (told by :mod:`clubsuite.narration`
in the game's own words): the hidden cards a record holds, each seat's deal and the chest (FC-2, FC-3), then the
cards each handicap removed (FC-5) and the pass before play (FC-2), worded by the game's presenter."""

from __future__ import annotations

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.free import events as fc
from clubsuite.games.free.present import RECORD_CHEST, RECORD_DEALT, RECORD_DISCARDED
from clubsuite.narration import Narrator
from clubsuite.present import passed_words
from clubsuite.reasons import Reason


def cards_of(mask: int) -> tuple[str, ...]:
    """The cards of a set, in notation."""
    return tuple(str(c) for c in CardSet(int(mask)))


class FreeNarrator(Narrator):
    """The deal, the chest, each handicap's cards and the pass, from the record."""

    def after_event(self, ev: Event) -> None:
        """The hidden cards ``ev`` dealt or moved: the deal after a hand starts, the cards a handicap removed, the
        cards passed."""
        hand = self.current
        if isinstance(ev, fc.HandStarted):
            for s in range(len(hand.deal.primary)):
                primary, bid_cards = cards_of(hand.deal.primary[s]), cards_of(hand.deal.auction[s])
                self.tell(Reason(RECORD_DEALT, seat=s, cards=primary, bid_cards=bid_cards))
            self.tell(Reason(RECORD_CHEST, cards=cards_of(hand.deal.chest)))
        elif isinstance(ev, fc.HandicapResolved):
            bid = ev.bid.index
            gone = [removed for s, b, removed, _ in hand.handicaps if (s, b) == (ev.seat, bid) and removed]
            if gone:
                discarded = cards_of(gone[0])
                self.tell(Reason(RECORD_DISCARDED, cards=discarded, n=len(discarded)), 2)
        elif isinstance(ev, fc.CardsPassed):
            moves = [(g, r, cards_of(1 << c)) for g, r, c in hand.passed if r == (g - 1) % len(hand.hands)]
            self.tell(passed_words(moves), 2)
