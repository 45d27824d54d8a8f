"""What ``clubs replay`` adds to a partnership hand beside the table's events (told by :mod:`clubsuite.narration`
in the game's own words): the cards each player passed (CP-2), which a record holds, and the totals per partnership
(CP-3) in the ending."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.partnership import events as pc
from clubsuite.games.partnership.hand import TEAMS, PassChoices, receiver
from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.games.partnership.spectator import public_dict
from clubsuite.narration import NAME_SHOWN, Narrator, seat_number
from clubsuite.safetext import shown


class PartnershipNarrator(Narrator):
    """The cards passed, and the totals per partnership (CP-3) in the ending."""

    def team(self, team: int) -> str:
        """A partnership with its players, its seats counted from 1, e.g. ``seats 1 + 3 (ann, cy)``."""
        seats = TEAMS[team]
        names = [shown(self.result.seats[s].get("name", ""), NAME_SHOWN) for s in seats]
        return f"seats {seat_number(seats[0])} + {seat_number(seats[1])} ({', '.join(names)})"

    def public_view(self) -> Mapping[str, Any]:
        """The table as a spectator sees it (:func:`clubsuite.games.partnership.spectator.public_dict`)."""
        match = self.result.match
        if not isinstance(match, PartnershipMatch):
            raise TypeError(f"not a match of partnership: {type(match).__name__}")
        return public_dict(match)

    def after_event(self, ev: Event) -> None:
        """The cards each player passed (CP-2), hidden from the others at the table, once all four have chosen."""
        if isinstance(ev, pc.CardsPassed):
            hand = self.current
            gives = [
                f"{self.seat(g)} -> {self.seat(receiver(g, hand.direction))} {CardSet(hand.passed[g])}"
                for g in hand.pass_choices
            ]
            self.say("  " + "; ".join(gives))

    def totals_lines(self, data: dict[str, Any], over: bool) -> list[str]:
        """The totals per partnership (CP-3)."""
        teams_text = ", ".join(f"{self.team(t)} {total}" for t, total in enumerate(data["team_totals"]))
        return [f"{'final totals' if over else 'totals so far'}: {teams_text}"]

    def legal_line(self, data: dict[str, Any]) -> str:
        """A pass is any three cards (286 of them): say so rather than list them (CP-2)."""
        legal = self.result.match.legal_actions()
        if isinstance(legal, PassChoices):
            return f"legal: pass any three of {CardSet(legal.hand)} (CP-2)"
        return super().legal_line(data)
