"""The terminal screen of High Card."""

from __future__ import annotations

from typing import Any

from clubsuite.tui.table import Table
from toygame.game import HighCardMatch
from toygame.spectator import public_dict


class HighCardTable(Table[HighCardMatch]):
    """Shows the trick and the player's cards; reads a card."""

    title = "High Card"
    rules_line = "Follow suit; the higher card of the suit led wins the trick."

    def public_view(self, match: HighCardMatch) -> dict[str, Any]:
        """The table as anyone watching sees it: what the shared words of its events (a hand dealt, a card played,
        a trick taken, the points, the match's end: High Card has no words of its own) may read."""
        return public_dict(match)

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
