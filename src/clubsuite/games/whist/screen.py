"""The whist screen of ``clubs play`` and ``clubs watch``: the exchange round, the trick, the hand and the scores.

A player sees only what their seat may know: their own hand, the exchange decisions (never the bid hand's cards,
CW-4) and the cards played. A spectator (``clubs watch``) sees all three hands and the bid hand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from clubsuite.cards import CardSet
from clubsuite.engine import Phase
from clubsuite.errors import ClubsError
from clubsuite.games.whist import (
    Decided,
    Decision,
    HandScored,
    HandStarted,
    MatchEnded,
    WhistMatch,
)
from clubsuite.games.whist.hand import WhistAction, WhistPhase
from clubsuite.tui.render import card_text, cards_text, hand_text, sorted_hand
from clubsuite.tui.table import Table


class WhistTable(Table[WhistMatch]):
    """The screen of Clubs (whist group): the exchange round, the trick in progress, the hand and the scores."""

    move_help = (
        "a card in notation (10H, TH, 10♥, QC) or its number in the list shown; in the exchange round k (keep) or x "
        "(exchange)"
    )
    title = "Clubs (whist group)"
    rules_line = "Clubs are trumps. Follow suit and beat the highest card if you can; quota 4 tricks."

    def show_events(self, match: WhistMatch, events: Sequence[object]) -> None:
        """Describe what just happened, without revealing any hidden card to the human."""
        for ev in events:
            if isinstance(ev, HandStarted):
                self.say()
                self.say(
                    f"=== Hand {ev.hand_number + 1}: {self.act(ev.dealer, 'deal')}. "
                    f"Totals: {self._totals(match)} (target ±{match.options.target}) ===",
                    style="bold",
                )
            elif isinstance(ev, Decided):
                verb = "exchange" if ev.exchanged else "keep"
                own = "your" if ev.seat == self.human else "their"
                rest = " with the bid hand" if ev.exchanged else f" {own} hand"
                self.say(f"{self.act(ev.seat, verb)}{rest}.")
            elif self.say_trick_events(ev, match.hands[-1].tricks_won):
                pass
            elif isinstance(ev, HandScored):
                self.say(
                    "Hand over. Tricks: "
                    + ", ".join(f"{self.names[s]} {t} ({ev.scores[s]:+d})" for s, t in enumerate(ev.tricks))
                )
                self.show_scores(match)
            elif isinstance(ev, MatchEnded):
                if ev.draw:
                    self.say("Game over: a draw (all three reached a target at once).", style="bold")
                else:
                    if len(ev.winners) == 1:
                        self.say(f"Game over: {self.act(ev.winners[0], 'win')}!", style="bold")
                    else:
                        who = " and ".join(self.names[s] for s in ev.winners)
                        self.say(f"Game over: {who} win!", style="bold")
                self.say(f"Final totals: {self._totals(match)}")

    def show_state(self, match: WhistMatch, seat: int) -> None:
        """The human's screen before a decision: totals, tricks, the trick in progress, the hand."""
        view = match.view(seat)
        legal = match.legal_actions()
        self.say()
        if view.phase is WhistPhase.EXCHANGE:
            self.say(f"Exchange round (dealer: {self.names[view.dealer]}). Totals: {self._totals(match)}")
        else:
            won = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(view.tricks_won))
            broken = "clubs broken" if view.clubs_broken else "clubs not broken"
            self.say(f"Trick {len(view.tricks) + 1}/13 · tricks: {won} · {broken} · totals: {self._totals(match)}")
            trick = Text("Trick so far: ")
            if view.trick:
                for i, (s, c) in enumerate(view.trick):
                    if i:
                        trick.append(", ")
                    trick.append(f"{self.names[s]} ")
                    trick.append_text(card_text(c, self.symbols))
            else:
                trick.append("(you lead)")
            self.say(trick)
        line = Text("Your hand: ")
        legal_cards = legal if isinstance(legal, CardSet) else None
        line.append_text(hand_text(view.hand, legal_cards, numbered=view.phase is Phase.PLAY, symbols=self.symbols))
        self.say(line)

    def show_deal(self, match: WhistMatch) -> None:
        """For spectators: the three hands and the bid hand."""
        hand = match.hands[-1]
        for s in range(3):
            line = Text(f"  {self.names[s]}: ")
            line.append_text(hand_text(hand.hand_of(s), numbered=False, symbols=self.symbols))
            self.say(line)
        bid = Text("  bid hand: ")
        bid.append_text(cards_text(sorted_hand(CardSet(hand.bid)), symbols=self.symbols))
        self.say(bid)

    def prompt(self, match: WhistMatch, seat: int) -> str:
        """Keep or exchange in the exchange round, else a card."""
        return "Keep or exchange with the bid hand? [k/x] " if match.phase is WhistPhase.EXCHANGE else "Your card: "

    def after_legal(self, match: WhistMatch) -> None:
        """The input help, except in the exchange round (where the prompt says it all)."""
        if match.phase is not WhistPhase.EXCHANGE:
            self.say(self.help_line, style="dim")

    def legal_words(self, match: WhistMatch) -> list[str]:
        """The legal cards in hand order, or keep/exchange."""
        legal = match.legal_actions()
        shown = sorted_hand(legal) if isinstance(legal, CardSet) else list(legal)
        return [match.format_action(a) for a in shown]

    def read_action(self, match: WhistMatch, seat: int, text: str) -> object | None:
        """A card in notation or by number, or k/x in the exchange round (CW-4)."""
        exchange = match.phase is WhistPhase.EXCHANGE
        action: WhistAction
        try:
            if not exchange and re.fullmatch(r"[0-9]+", text):
                shown = sorted_hand(match.view(seat).hand)
                number = int(text)
                if not 1 <= number <= len(shown):
                    self.say(f"There is no card number {number}: your hand has {len(shown)} cards.", style="red")
                    return None
                action = shown[number - 1]
            else:
                action = match.parse_action(text)
            if exchange and not isinstance(action, Decision):
                self.say("In the exchange round answer k to keep your hand or x to take the bid hand (CW-4).")
                return None
        except ClubsError as exc:
            self.say(str(exc), style="red")
            return None
        return action
