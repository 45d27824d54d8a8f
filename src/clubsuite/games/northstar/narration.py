"""What ``clubs replay`` adds to a round of North Star's CLUBS beside the table's events (told by
:mod:`clubsuite.narration` in the game's own words): the hands dealt, which a record holds, worded by the shared
presenter (the teams' totals and the legal plays, cut short, are the shared account's)."""

from __future__ import annotations

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.northstar import events as ns
from clubsuite.narration import Narrator
from clubsuite.present import dealt_words


class NorthstarNarrator(Narrator):
    """The deal of each round."""

    def after_event(self, ev: Event) -> None:
        """The cards dealt to each seat, by rank, after a round starts (a record holds every deal)."""
        if isinstance(ev, ns.HandStarted):
            hand = self.current
            for s in range(hand.n):
                cards = sorted(CardSet(int(hand.deal.hands[s])), key=lambda c: (c.rank, c.suit or 0))
                self.tell(dealt_words(s, cards))
