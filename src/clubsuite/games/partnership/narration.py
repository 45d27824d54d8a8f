"""What ``clubs replay`` adds to a partnership hand beside the table's events (told by :mod:`clubsuite.narration`
in the game's own words): the cards each player passed (CP-2), which a record holds, and, at the end of a record
stopped while passing, the cards a pass is chosen from, worded by the game's presenter."""

from __future__ import annotations

from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.partnership import events as pc
from clubsuite.games.partnership.hand import PassChoices, receiver
from clubsuite.games.partnership.present import RECORD_LEGAL_PASS
from clubsuite.narration import Narrator
from clubsuite.present import passed_words
from clubsuite.reasons import Reason


class PartnershipNarrator(Narrator):
    """The cards passed, and the cards a pass is chosen from."""

    def after_event(self, ev: Event) -> None:
        """The cards each player passed (CP-2), hidden from the others at the table, once all four have chosen."""
        if isinstance(ev, pc.CardsPassed):
            hand = self.current
            moves = [
                (g, receiver(g, hand.direction), tuple(str(c) for c in CardSet(hand.passed[g])))
                for g in hand.pass_choices
            ]
            self.tell(passed_words(moves), 2)

    def legal_words(self, data: dict[str, Any]) -> Reason:
        """A pass is any three cards (286 of them): say so rather than list them (CP-2)."""
        legal = self.result.match.legal_actions()
        if isinstance(legal, PassChoices):
            return Reason(RECORD_LEGAL_PASS, cards=tuple(str(c) for c in CardSet(legal.hand)))
        return super().legal_words(data)
