"""How ``clubs replay`` tells a partnership hand: the direction of the pass and its cards, tricks, points by source.

A record holds every deal, so the account names the cards each player passed (CP-2).
"""

from __future__ import annotations

from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.partnership import events as pc
from clubsuite.games.partnership.hand import TEAMS, Direction, PassChoices, receiver
from clubsuite.narration import NAME_SHOWN, Narrator, hand_number, seat_number
from clubsuite.safetext import shown


class PartnershipNarrator(Narrator):
    """The pass in words, the points per partnership (CP-3), totals per partnership in the ending."""

    def team(self, team: int) -> str:
        """A partnership with its players, its seats counted from 1, e.g. ``seats 1 + 3 (ann, cy)``."""
        seats = TEAMS[team]
        names = [shown(self.result.seats[s].get("name", ""), NAME_SHOWN) for s in seats]
        return f"seats {seat_number(seats[0])} + {seat_number(seats[1])} ({', '.join(names)})"

    def event(self, ev: Event, tricks_done: int) -> int:
        """Describe one partnership event."""
        hand = self.current
        if isinstance(ev, pc.HandStarted):
            self.lines.append("")
            where = "no pass" if ev.direction == Direction.NONE else f"pass to the {ev.direction}"
            self.say(f"hand {hand_number(ev.hand_number)}: dealer {self.seat(ev.dealer)}; {where} (CP-2)", 0)
        elif isinstance(ev, pc.PassChosen):
            pass  # told with the cards once all four have chosen
        elif isinstance(ev, pc.CardsPassed):
            gives = [
                f"{self.seat(g)} gives {CardSet(hand.passed[g])} to {self.seat(receiver(g, hand.direction))}"
                for g in hand.pass_choices
            ]
            self.say(f"pass to the {ev.direction}: " + "; ".join(gives))
        elif isinstance(ev, pc.HandScored):
            self.say(f"tricks won: {' '.join(str(t) for t in ev.tricks)}")
            for team, line in enumerate(hand.score_lines()):
                parts = [f"{line.tricks} tricks", f"{line.clubs} clubs"]
                if line.ruby_dame:
                    parts.append(f"Ruby Dame {line.ruby_dame}")
                if line.sweep:
                    parts.append(f"all 13 tricks {line.sweep}")
                self.say(f"points {self.team(team)}: {' + '.join(parts)} = {line.total}")
            self.say(f"totals:     {ev.totals[0]} to {ev.totals[1]}")
        else:
            return super().event(ev, tricks_done)
        return tricks_done

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
