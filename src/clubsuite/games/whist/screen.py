"""The whist screen of ``clubs play`` and ``clubs watch``: the exchange round, the trick, the hand and the scores.

A player sees only what their seat may know: their own hand, the exchange decisions (never the bid hand's cards,
CW-4) and the cards played. A spectator (``clubs watch``) sees all three hands and the bid hand.
"""

from __future__ import annotations

import re

from rich.text import Text

from clubsuite.cards import CardSet
from clubsuite.engine import Phase
from clubsuite.errors import ClubsError
from clubsuite.games.whist import Decision, HandScored, WhistMatch
from clubsuite.games.whist.hand import WhistAction, WhistPhase
from clubsuite.games.whist.spectator import public_dict
from clubsuite.jsonform import JsonObject
from clubsuite.tui.render import card_text, cards_text, hand_text, sorted_hand
from clubsuite.tui.table import Marked, Table

ANSWERS = {
    Decision.KEEP: (Marked.typed("keep"), Marked.typed("k")),
    Decision.EXCHANGE: (Marked.typed("exchange"), Marked.typed("x")),
}
"""The exchange round's answers (CW-4) as a player types them: a word and its key, each in the table's language
(German ``behalten``/``b`` and ``tauschen``/``t``); the English ones are read in every language."""


class WhistTable(Table[WhistMatch]):
    """The screen of Clubs (whist group): the exchange round, the trick in progress, the hand and the scores."""

    move_help = (
        "a card in notation (10H, TH, 10♥, QC) or its number in the list shown; in the exchange round k (keep) or x "
        "(exchange)"
    )
    title = Marked.tr("Clubs (whist group)")
    rules_line = Marked.tr("Clubs are trumps. Follow suit and beat the highest card if you can; quota 4 tricks.")

    # -- what happened: the game's words (clubsuite.tui.table.Table.show_events), and what this screen adds --------
    def public_view(self, match: WhistMatch) -> JsonObject:
        """The table as anyone watching sees it (:func:`clubsuite.games.whist.spectator.public_dict`)."""
        return public_dict(match)

    def after_event(self, match: WhistMatch, event: object) -> None:
        """After a hand's points, the score sheet."""
        if isinstance(event, HandScored):
            self.show_scores(match)

    def show_state(self, match: WhistMatch, seat: int) -> None:
        """The human's screen before a decision: totals, tricks, the trick in progress, what the seat is asked (keep
        or exchange, CW-4; its lead or how to follow, CW-1 and CW-2) and the hand."""
        view = match.view(seat)
        legal = match.legal_actions()
        self.say()
        if view.phase is WhistPhase.EXCHANGE:
            self.say(
                self.tr(
                    "Exchange round (dealer: {name}). Totals: {totals}",
                    name=self.names[view.dealer],
                    totals=self._totals(match),
                )
            )
        else:
            won = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(view.tricks_won))
            broken = self.tr("clubs broken") if view.clubs_broken else self.tr("clubs not broken")
            self.say(
                self.tr(
                    "Trick {number}/13 · tricks: {won} · {broken} · totals: {totals}",
                    number=len(view.tricks) + 1,
                    won=won,
                    broken=broken,
                    totals=self._totals(match),
                )
            )
            played = Text()
            if view.trick:
                for i, (s, c) in enumerate(view.trick):
                    if i:
                        played.append(", ")
                    played.append(f"{self.names[s]} ")
                    played.append_text(card_text(c, self.faces))
            else:
                played.append(self.tr("(you lead)"))
            self.say(self.styled(self.tr("Trick so far: {cards}"), cards=played))
        self.show_asked(match, seat)  # what the seat is asked, in the game's words (the page's prompt)
        legal_cards = legal if isinstance(legal, CardSet) else None
        cards = hand_text(view.hand, legal_cards, numbered=view.phase is Phase.PLAY, symbols=self.faces)
        self.say(self.styled(self.tr("Your hand: {cards}"), cards=cards))

    def show_deal(self, match: WhistMatch) -> None:
        """For spectators: the three hands and the bid hand."""
        hand = match.hands[-1]
        for s in range(3):
            line = Text(f"  {self.names[s]}: ")
            line.append_text(hand_text(hand.hand_of(s), numbered=False, symbols=self.faces))
            self.say(line)
        bid = cards_text(sorted_hand(CardSet(hand.bid)), symbols=self.faces)
        self.say(Text("  ").append_text(self.styled(self.tr("bid hand: {cards}"), cards=bid)))

    def prompt(self, match: WhistMatch, seat: int) -> str:
        """Keep or exchange in the exchange round, else a card."""
        if match.phase is WhistPhase.EXCHANGE:
            keep, exchange = (self.typed(ANSWERS[d][1]) for d in (Decision.KEEP, Decision.EXCHANGE))
            return (
                self.tr("Keep or exchange with the bid hand? [{keep}/{exchange}]", keep=keep, exchange=exchange) + " "
            )
        return self.tr("Your card:") + " "

    def answer(self, text: str) -> Decision | None:
        """The exchange-round answer ``text`` gives in the table's language (its word or key), else None."""
        low = text.strip().lower()
        for decision, (word, key) in ANSWERS.items():
            if low in (self.typed(word), self.typed(key)):
                return decision
        return None

    def decision_words(self, decision: Decision) -> str:
        """An exchange-round answer as the table's language types it: ``behalten (b)``."""
        word, key = ANSWERS[decision]
        return f"{self.typed(word)} ({self.typed(key)})"

    def action_words(self, match: WhistMatch, action: object) -> str:
        """A card in the table's alphabet, an exchange-round answer in its words (a hint: ``behalten (b)``)."""
        return self.decision_words(action) if isinstance(action, Decision) else super().action_words(match, action)

    def after_legal(self, match: WhistMatch) -> None:
        """The input help, except in the exchange round (where the prompt says it all)."""
        if match.phase is not WhistPhase.EXCHANGE:
            self.say(self.shown(self.help_line), style="dim")

    def legal_words(self, match: WhistMatch) -> list[str]:
        """The legal cards in hand order, or keep/exchange."""
        legal = match.legal_actions()
        shown = sorted_hand(legal) if isinstance(legal, CardSet) else list(legal)
        return [self.action_words(match, a) for a in shown]

    def read_action(self, match: WhistMatch, seat: int, text: str) -> object | None:
        """A card in notation or by number, or k/x in the exchange round (CW-4)."""
        exchange = match.phase is WhistPhase.EXCHANGE
        action: WhistAction
        try:
            if not exchange and re.fullmatch(r"[0-9]+", text):
                shown = sorted_hand(match.view(seat).hand)
                number = int(text)
                if not 1 <= number <= len(shown):
                    self.say(self.no_card_number(number, len(shown)), style="red")
                    return None
                action = shown[number - 1]
            else:
                action = (self.answer(text) if exchange else None) or match.parse_action(text)
            if exchange and not isinstance(action, Decision):
                self.say(
                    self.tr(
                        "In the exchange round answer {keep} to keep your hand or {exchange} to take the bid hand "
                        "(CW-4).",
                        keep=self.typed(ANSWERS[Decision.KEEP][1]),
                        exchange=self.typed(ANSWERS[Decision.EXCHANGE][1]),
                    )
                )
                return None
        except ClubsError as exc:
            self.say(self.refusal(exc), style="red")
            return None
        return action
