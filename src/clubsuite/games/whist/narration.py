"""How ``clubs replay`` tells a whist hand: the exchange round on one line, then the tricks and the scores."""

from __future__ import annotations

from clubsuite.events import Event
from clubsuite.games.whist.events import Decided, PlayStarted
from clubsuite.narration import Narrator


class WhistNarrator(Narrator):
    """The exchange decisions (CW-4) gathered on one line before the first lead; the rest is the shared frame."""

    def start_hand(self) -> None:
        """Start the hand's exchange line empty."""
        self.decisions: list[str] = []

    def flush_decisions(self) -> None:
        """Print the exchange decisions gathered so far on one line."""
        if self.decisions:
            self.say("exchange: " + ", ".join(self.decisions))
            self.decisions = []

    def event(self, ev: Event, tricks_done: int) -> int:
        """Gather an exchange decision; tell the exchange before the first lead."""
        if isinstance(ev, Decided):
            self.decisions.append(f"{self.seat(ev.seat)} {'exchanges' if ev.exchanged else 'keeps'}")
            return tricks_done
        if isinstance(ev, PlayStarted):
            self.flush_decisions()
        return super().event(ev, tricks_done)

    def end_hand(self, tricks_done: int) -> None:
        """An unfinished exchange round, then the trick in progress."""
        self.flush_decisions()
        super().end_hand(tricks_done)
