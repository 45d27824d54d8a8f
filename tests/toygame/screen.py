"""The terminal screen of High Card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clubsuite.tui.table import Table
from toygame.game import HighCardMatch


class HighCardTable(Table[HighCardMatch]):
    """Shows the trick and the player's cards; reads a card."""

    title = "High Card"
    rules_line = "Follow suit; the higher card of the suit led wins the trick."

    def show_events(self, match: Any, events: Sequence[Any]) -> None:
        for ev in events:
            if not self.say_trick_events(ev, match.hands[-1].tricks_won if match.hands else ()):
                name = type(ev).__name__
                if name == "HandStarted":
                    self.say(f"Hand {ev.hand_number + 1}, dealer {self.names[ev.dealer]}.")
                elif name == "HandScored":
                    self.say(f"Points: {list(ev.scores)}; totals {list(ev.totals)}.")
                elif name == "MatchEnded":
                    self.say(f"{', '.join(self.names[s] for s in ev.winners)} wins the match.")

    def show_state(self, match: Any, seat: int) -> None:
        view = match.view(seat)
        self.say(f"Your hand: {view.hand}; on the table: {view.to_dict()['trick']}")

    def show_deal(self, match: Any) -> None:
        for s, h in enumerate(match.hands[-1].deal.hands):
            self.say(f"{self.names[s]} holds {h}")

    def prompt(self, match: Any, seat: int) -> str:
        return "Your card: "

    def legal_words(self, match: Any) -> list[str]:
        return [str(c) for c in match.legal_actions()]

    def read_action(self, match: Any, seat: int, text: str) -> Any | None:
        try:
            return match.parse_action(text)
        except ValueError as exc:
            self.say(str(exc))
            return None
