"""What ``clubs replay`` adds to a Free Clubs hand beside the table's events (told by :mod:`clubsuite.narration`
in the game's own words): the hidden cards a record holds, each seat's deal and the chest, then the cards each
handicap removed (FC-5) and the pass before play (FC-2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.free import events as fc
from clubsuite.games.free.match import FreeMatch
from clubsuite.games.free.spectator import public_dict
from clubsuite.narration import Narrator


class FreeNarrator(Narrator):
    """The deal, the chest, each handicap's cards and the pass, from the record."""

    def public_view(self) -> Mapping[str, Any]:
        """The table as a spectator sees it (:func:`clubsuite.games.free.spectator.public_dict`)."""
        match = self.result.match
        if not isinstance(match, FreeMatch):
            raise TypeError(f"not a match of free: {type(match).__name__}")
        return public_dict(match)

    def after_event(self, ev: Event) -> None:
        """The hidden cards ``ev`` dealt or moved: the deal after a hand starts, the cards a handicap removed, the
        cards passed."""
        hand = self.current
        if isinstance(ev, fc.HandStarted):
            for s in range(len(hand.deal.primary)):
                self.say(f"dealt to {self.seat(s)}: {CardSet(int(hand.deal.auction[s]))} / {hand.deal.primary[s]}")
            self.say(f"chest: {hand.deal.chest}")
        elif isinstance(ev, fc.HandicapResolved):
            bid = ev.bid.index
            gone = [removed for s, b, removed, _ in hand.handicaps if (s, b) == (ev.seat, bid) and removed]
            if gone:
                self.say(f"  {ev.bid}: {CardSet(gone[0])}")
        elif isinstance(ev, fc.CardsPassed):
            moves = [(g, r, c) for g, r, c in hand.passed if r == (g - 1) % len(hand.hands)]
            self.say("  " + ", ".join(f"{self.seat(g)} -> {self.seat(r)} {CardSet(1 << c)}" for g, r, c in moves))
