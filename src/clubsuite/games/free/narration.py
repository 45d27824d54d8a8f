"""How ``clubs replay`` tells a Free Clubs hand: the auction, the chest, the handicaps, the pass, calls, tricks.

A record holds every deal, so the account names the hidden cards too: the chest, each handicap's cards and the
pass before play.
"""

from __future__ import annotations

from clubsuite.cards import CardSet, card_at
from clubsuite.events import Event
from clubsuite.games.free import events as fc
from clubsuite.games.free.screen import contract_words, handicap_words, score_rows
from clubsuite.narration import Narrator, signed


class FreeNarrator(Narrator):
    """The auction gathered on one line; handicaps, the chest, the pass and FC-10 calls in words."""

    def start_hand(self) -> None:
        """Start the hand's auction empty."""
        self.calls: list[str] = []
        self.handicap_index = 0

    def flush_auction(self) -> None:
        """Print the auction gathered so far on one line."""
        if self.calls:
            self.say("auction: " + ", ".join(self.calls))
            self.calls = []

    def end_hand(self, tricks_done: int) -> None:
        """An unfinished auction, then the trick in progress."""
        self.flush_auction()
        super().end_hand(tricks_done)

    def event(self, ev: Event, tricks_done: int) -> int:
        """Describe one Free Clubs event."""
        hand = self.current
        names = [self.seat(s) for s in range(3)]
        if isinstance(ev, fc.BidMade):
            self.calls.append(f"{self.seat(ev.seat)} {ev.card}")
        elif isinstance(ev, fc.AuctionPassed):
            self.calls.append(f"{self.seat(ev.seat)} pass")
        elif isinstance(ev, fc.AuctionWon):
            self.flush_auction()
            joker = f"; Joker team with {self.seat(ev.partner)}" if ev.partner is not None else ""
            self.say(f"{self.seat(ev.seat)} wins the auction with {ev.bid}{joker}")
            self.say("contract: " + contract_words(names, ev.seat, ev.partner))
        elif isinstance(ev, fc.ChestTaken):
            self.say(f"{self.seat(ev.seat)} takes the chest ({ev.size} cards): {CardSet(int(hand.deal.chest))}")
        elif isinstance(ev, fc.HandicapResolved):
            _, _, removed, _ = hand.handicaps[self.handicap_index]
            self.handicap_index += 1
            to = None if ev.to is None else self.seat(ev.to)
            cards = f": {CardSet(removed)}" if removed else ""
            self.say(f"handicap {self.seat(ev.seat)} {ev.bid}: {handicap_words(ev.bid, ev.removed, to)}{cards}")
        elif isinstance(ev, fc.HandScored):
            self.say(f"tricks won: {' '.join(str(t) for t in ev.tricks)}")
            for label, row in score_rows(hand)[1:]:
                if any(row):
                    self.say(f"{label}: {signed(row)}")
            self.say(f"scores:     {signed(ev.scores)}")
            self.say(f"totals:     {signed(ev.totals)}")
        elif isinstance(ev, fc.NoMisplay):
            held = f"{self.seat(ev.seat)} held none of the suit led"
            self.say(f"{self.seat(ev.caller)} calls {ev.card}: no misplay, {held} (FC-10)")
        elif isinstance(ev, fc.MisplayCalled):
            self.say(
                f"{self.seat(ev.caller)} calls {ev.card}: a misplay by {self.seat(ev.seat)}, stage {ev.stage} (FC-10)"
            )
        elif isinstance(ev, fc.HandRescored):
            self.say(f"scored again: {signed(ev.scores)}; totals {signed(ev.totals)} (FC-10)")
        elif isinstance(ev, fc.PassStarted):
            pass  # told with the cards once they move
        elif isinstance(ev, fc.CardsPassed):
            moves = [(g, r, c) for g, r, c in hand.passed if r == (g - 1) % 3]
            self.say("pass to the right: " + ", ".join(f"{self.seat(g)} gives {card_at(c)}" for g, _, c in moves))
        elif isinstance(ev, fc.TrickTaken):
            # The event carries the trick's cards and who played each: a trick's cards are told from it.
            self.trick = [(s, str(c)) for s, c in zip(ev.players, ev.cards, strict=True)]
            self.flush_trick(ev.number, ev.seat)
            return int(ev.number)
        elif isinstance(ev, fc.CardPlayed):
            self.trick.append((ev.seat, str(ev.card)))
        else:
            return super().event(ev, tricks_done)
        return tricks_done
