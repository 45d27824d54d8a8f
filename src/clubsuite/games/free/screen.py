"""The Free Clubs screen of ``clubs play`` and ``clubs watch``: auction, handicaps, contract, pass, tricks, scores.

A player sees only what their seat may know (:class:`~clubsuite.games.free.FreeView`): their own auction and
primary cards, the public auction and handicap counts, the chest only if they took it, their own discards, and the
cards they gave or received. A spectator (``clubs watch``) sees every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from clubsuite.cards import Card, CardSet, Suit, card_at
from clubsuite.errors import ClubsError
from clubsuite.games.free import (
    AuctionPassed,
    AuctionWon,
    BidMade,
    CardsPassed,
    ChestTaken,
    FreeHand,
    FreeMatch,
    FreeView,
    HandicapResolved,
    HandScored,
    HandStarted,
    MatchEnded,
    PassStarted,
    Stage,
    bid_tier,
    bid_value,
)
from clubsuite.games.free.events import HandRescored, MisplayCalled, NoMisplay
from clubsuite.games.free.hand import (
    ACE_OF_HEARTS,
    ACE_OF_HEARTS_BONUS,
    CONTRACT_PENALTY,
    DIAMONDS_BONUS,
    DIAMONDS_TIE_BONUS,
    NO_SPADES_BONUS,
    SOLO_CONTRACT,
    TEAM_CONTRACT,
    TRICK_POINTS,
)
from clubsuite.tui.render import card_text, cards_text, hand_text, numbered_cards, sorted_ace_low
from clubsuite.tui.table import Table

N_SEATS = 3


def suit_word(suit: Suit | None, plural: bool = False) -> str:
    """``spade`` / ``spades``: the suit's name for messages."""
    name = ("club", "diamond", "heart", "spade")[suit] if suit is not None else "joker"
    return name + "s" if plural else name


def handicap_words(bid: Card, removed: int, to_name: str | None) -> str:
    """What the handicap of ``bid`` did, in words (FC-5): which card(s) of which suit went where."""
    if bid.suit is None:
        return "no handicap (Joker)"
    suit, tier = suit_word(bid.suit), bid_tier(bid.index)
    if removed == 0:
        return f"no {suit} in hand, nothing happens"
    if tier == 0:
        return f"one {suit} of the bidder's choice is discarded"
    if tier == 1:
        return f"the highest {suit} is discarded"
    if tier == 2:
        return f"the highest {suit} passes to the left, to {to_name}"
    if removed < 3:
        return f"the three highest {suit_word(bid.suit, True)} are discarded, but there were only {removed}"
    return f"the three highest {suit_word(bid.suit, True)} are discarded"


def contract_words(names: Sequence[str], winner: int, partner: int | None) -> str:
    """The contract of the hand (FC-4): 7 tricks for a lone winner, all 10 for a Joker team."""
    if partner is None:
        return f"{names[winner]} must take at least {SOLO_CONTRACT} tricks, or lose {-CONTRACT_PENALTY} (FC-4)"
    return (
        f"Joker team {names[winner]} + {names[partner]} must take all {TEAM_CONTRACT} tricks together, "
        f"or each loses {-CONTRACT_PENALTY} (FC-4)"
    )


def score_rows(hand: FreeHand) -> list[tuple[str, tuple[int, ...]]]:
    """The points of a finished hand by source (FC-4, FC-8): tricks, contract and each bonus, one row each.

    Worked out from the public tricks; the rows add up to the hand's scores.
    """
    taken = [0] * N_SEATS
    for plays, winner in hand.tricks:
        for _, c in plays:
            taken[winner] |= 1 << c
    tricks = tuple(TRICK_POINTS * t for t in hand.tricks_won)
    contract = [0] * N_SEATS
    team = hand.team
    if len(team) == 2:
        if sum(hand.tricks_won[s] for s in team) < TEAM_CONTRACT:
            for s in team:
                contract[s] = CONTRACT_PENALTY
    elif team and hand.tricks_won[team[0]] < SOLO_CONTRACT:
        contract[team[0]] = CONTRACT_PENALTY
    diamonds = [sum(1 for i in range(13) if t >> (Suit.DIAMONDS * 13 + i) & 1) for t in taken]
    most = max(diamonds)
    leaders = [s for s in range(N_SEATS) if diamonds[s] == most] if most else []
    share = DIAMONDS_BONUS if len(leaders) == 1 else DIAMONDS_TIE_BONUS
    diamond_row = tuple(share if s in leaders else 0 for s in range(N_SEATS))
    ace_row = tuple(ACE_OF_HEARTS_BONUS if t >> ACE_OF_HEARTS & 1 else 0 for t in taken)
    needs_trick = hand.options.no_spades_needs_a_trick
    spade_row = tuple(
        NO_SPADES_BONUS
        if not any(t >> (Suit.SPADES * 13 + i) & 1 for i in range(13)) and (hand.tricks_won[s] or not needs_trick)
        else 0
        for s, t in enumerate(taken)
    )
    return [
        (f"tricks (x{TRICK_POINTS})", tricks),
        ("contract (FC-4)", tuple(contract)),
        ("most diamonds (FC-8)", diamond_row),
        ("ace of hearts (FC-8)", ace_row),
        ("no spades (FC-8)", spade_row),
    ]


def auction_order(cards: CardSet) -> list[Card]:
    """Auction cards from the lowest bid to the highest (FC-3): 10S 10H 10D 10C JS .. KC, then jokers."""
    return sorted(cards, key=lambda c: bid_value(c.index))


class FreeTable(Table[FreeMatch]):
    """The terminal screen of Free Clubs, for a player (``human`` is a seat) or a spectator (``human`` is None)."""

    move_help = "a card in notation or its number in the list shown; in the auction a bid or pass (p)"
    title = "Free Clubs"
    rules_line = (
        "Clubs are trumps; A is low, 9 high. Bid handicaps (FC-3); the winner takes the chest and must take 7 "
        "tricks, a Joker team all 10 (FC-4). Follow suit if you can."
    )
    help_line = (
        "Enter a card in notation or its number in the list shown; pass or p in the auction; "
        "? legal moves, h hint, s scores, q quit."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._handicap_index = 0

    # -- what the human may know ---------------------------------------------------------------------
    def _visible_removed(self, match: FreeMatch, index: int) -> list[Card]:
        """The cards handicap number ``index`` of this hand removed, as far as the screen's viewer may see them.

        A spectator sees them all; a player only their own discards and the Queen cards they gave or received.
        """
        seat, _, removed, to = match.hands[-1].handicaps[index]
        if self.human is None:
            known = removed
        else:
            view = match.view(self.human)
            if to < 0:
                known = int(view.discards) if seat == self.human else 0
            else:
                known = sum(c.bit for g, r, c in view.transfers if (g, r) == (seat, to))
        return sorted_ace_low(CardSet(removed & known))

    def _pass_moves(self, match: FreeMatch) -> list[tuple[int, int, Card]]:
        """The pass before play (FC-2) as (giver, receiver, card), as far as the viewer may see it."""
        if self.human is None:
            moves = [(g, r, card_at(c)) for g, r, c in match.hands[-1].passed]
        else:
            moves = list(match.view(self.human).transfers)
        return [(g, r, c) for g, r, c in moves if r == (g - 1) % N_SEATS]

    # -- events ----------------------------------------------------------------------------------------
    def show_events(self, match: FreeMatch, events: Sequence[object]) -> None:
        """Describe what just happened, without revealing any card the viewer may not know."""
        for ev in events:
            if isinstance(ev, HandStarted):
                self._handicap_index = 0
                self.say()
                self.say(
                    f"=== Hand {ev.hand_number + 1}: {self.act(ev.dealer, 'deal')}. "
                    f"Totals: {self._totals(match)} (target {match.options.target}) ===",
                    style="bold",
                )
            elif isinstance(ev, BidMade):
                line = Text(f"{self.act(ev.seat, 'bid')} ")
                line.append_text(card_text(ev.card, self.symbols))
                self.say(line)
            elif isinstance(ev, AuctionPassed):
                self.say(f"{self.act(ev.seat, 'pass')}.")
            elif isinstance(ev, AuctionWon):
                self._auction_won(ev)
            elif isinstance(ev, ChestTaken):
                self._chest_taken(match, ev)
            elif isinstance(ev, HandicapResolved):
                self._handicap(match, ev)
            elif isinstance(ev, PassStarted):
                self.say(
                    f"Each player chooses one card to pass to the right, starting with {self.names[ev.seat]}; "
                    "nothing moves until all have chosen (FC-2)."
                )
            elif isinstance(ev, CardsPassed):
                self._cards_passed(match, ev)
            elif self.say_trick_events(ev, match.hands[-1].tricks_won):
                pass
            elif isinstance(ev, HandScored):
                self._hand_scored(match, ev)
            elif isinstance(ev, MisplayCalled | NoMisplay | HandRescored):
                self._call(match, ev)
            elif isinstance(ev, MatchEnded):
                top = max(ev.totals)
                who = " and ".join(self.names[s] for s in ev.winners)
                verb = self.act(ev.winners[0], "win") if len(ev.winners) == 1 else f"{who} win"
                self.say(
                    f"Game over: {verb} with {top:+d} (first to {match.options.target} or more, FC-9)!", style="bold"
                )
                self.say(f"Final totals: {self._totals(match)}")

    def _call(self, match: FreeMatch, ev: MisplayCalled | NoMisplay | HandRescored) -> None:
        """A call of a card that did not follow suit and what the table's check found (FC-10), told to everyone."""
        if isinstance(ev, HandRescored):
            self.say(
                f"The hand is scored again: {', '.join(f'{self.names[s]} {v:+d}' for s, v in enumerate(ev.scores))}"
            )
            self.say(f"Totals: {self._totals(match)}")
            return
        line = Text(f"{self.act(ev.caller, 'call')} ")
        line.append_text(card_text(ev.card, self.symbols))
        if isinstance(ev, NoMisplay):
            line.append(f": no misplay, {self.names[ev.seat]} held none of the suit led (FC-10).")
        else:
            penalty = {
                1: "the card goes back and they play again",
                2: "they cannot win this trick",
                3: "they score no positive points this hand",
            }[ev.stage]
            line.append(f": a misplay by {self.names[ev.seat]}; {penalty} (FC-10).")
        self.say(line, style="yellow")

    def _auction_won(self, ev: AuctionWon) -> None:
        line = Text(f"{self.act(ev.seat, 'win')} the auction with ")
        line.append_text(card_text(ev.bid, self.symbols))
        line.append(". Unbid auction cards leave play.")
        self.say(line, style="bold")
        if ev.partner is not None:
            self.say(
                f"A Joker ends the auction: {self.names[ev.seat]} and {self.names[ev.partner]} "
                "(the last bid before the Joker) form a Joker team (FC-4)."
            )
        self.say("Contract: " + contract_words(self.names, ev.seat, ev.partner), style="bold")

    def _chest_taken(self, match: FreeMatch, ev: ChestTaken) -> None:
        self.say(f"{self.act(ev.seat, 'take')} the treasure chest ({ev.size} cards, face down) (FC-5).")
        chest = match.view(ev.seat).chest if self.human in (None, ev.seat) else None
        if chest is not None:
            line = Text("  The chest held: " if self.human is None else "  You find in the chest: ")
            line.append_text(cards_text(sorted_ace_low(chest), self.symbols))
            self.say(line)

    def _handicap(self, match: FreeMatch, ev: HandicapResolved) -> None:
        index = self._handicap_index
        self._handicap_index += 1
        owner = "your" if ev.seat == self.human else f"{self.names[ev.seat]}'s"
        to_name = None if ev.to is None else ("you" if ev.to == self.human else self.names[ev.to])
        line = Text(f"Handicap of {owner} bid ")
        line.append_text(card_text(ev.bid, self.symbols))
        line.append(f": {handicap_words(ev.bid, ev.removed, to_name)}")
        if ev.removed:
            line.append(f" ({ev.removed} card{'s' if ev.removed != 1 else ''})")
        shown = self._visible_removed(match, index)
        if shown:
            line.append(": ")
            line.append_text(cards_text(shown, self.symbols))
        self.say(line)

    def _cards_passed(self, match: FreeMatch, ev: CardsPassed) -> None:
        self.say(f"The {ev.passes} chosen cards move to the right (FC-2).")
        for g, r, c in self._pass_moves(match):
            if g == self.human:
                line = Text(f"  You pass to {self.names[r]}: ")
            elif r == self.human:
                line = Text(f"  You receive from {self.names[g]}: ")
            else:
                line = Text(f"  {self.names[g]} passes to {self.names[r]}: ")
            line.append_text(card_text(c, self.symbols))
            self.say(line)

    def _hand_scored(self, match: FreeMatch, ev: HandScored) -> None:
        hand = match.hands[-1]
        self.say(
            "Hand over. Tricks: "
            + ", ".join(f"{self.names[s]} {t} ({ev.scores[s]:+d})" for s, t in enumerate(ev.tricks))
        )
        team = hand.team
        if team:
            took = sum(ev.tricks[s] for s in team)
            need = TEAM_CONTRACT if len(team) == 2 else SOLO_CONTRACT
            who = " + ".join(self.names[s] for s in team)
            verdict = "made" if took >= need else f"failed: {CONTRACT_PENALTY} each" if len(team) == 2 else "failed"
            self.say(f"Contract of {who}: {took} of {need} tricks, {verdict} (FC-4).", style="bold")
        sheet = RichTable(title="This hand", box=box.ASCII if not self.symbols else box.HEAVY_HEAD)
        sheet.add_column("points")
        for name in self.names:
            sheet.add_column(name, justify="right")
        for label, row in score_rows(hand):
            sheet.add_row(label, *(f"{v:+d}" if v else "." for v in row))
        sheet.add_row("hand", *(f"{v:+d}" for v in ev.scores), style="bold")
        self.console.print(sheet)
        self.show_scores(match)

    # -- the human's screen ----------------------------------------------------------------------------
    def _auction_text(self, view: FreeView) -> Text:
        line = Text("Auction: ")
        if not view.calls:
            line.append("(no bid yet: the holder of 10S opens with it, FC-3)")
        for i, (s, c) in enumerate(view.calls):
            if i:
                line.append(", ")
            line.append(f"{self.names[s]} ")
            if c is None:
                line.append("pass")
            else:
                line.append_text(card_text(c, self.symbols))
        return line

    def show_state(self, match: FreeMatch, seat: int) -> None:
        """The human's screen before a decision: auction, contract, handicaps, own cards, trick and legal moves."""
        view = match.view(seat)
        stage = view.stage
        self.say()
        self.say(
            f"Hand {view.hand_number + 1} · dealer {self.names[view.dealer]} · {stage.value} · "
            f"totals: {self._totals(match)} (target {view.options.target})"
        )
        self.say(self._auction_text(view))
        bids = [(s, c) for s, c in view.calls if c is not None]
        if stage is Stage.AUCTION:
            if bids:
                s, c = bids[-1]
                line = Text("Standing bid: ")
                line.append_text(card_text(c, self.symbols))
                line.append(f" by {self.names[s]}; a bid must be higher and at most one level above it (FC-3)")
                self.say(line)
        else:
            winner = view.winner
            assert winner is not None
            self.say("Contract: " + contract_words(self.names, winner, view.partner))
            for s, bid, n, to in view.handicaps:
                line = Text(f"  handicap {self.names[s]} ")
                line.append_text(card_text(bid, self.symbols))
                where = "discarded" if to is None else f"passed to {self.names[to]}"
                line.append(f": {n} card{'s' if n != 1 else ''} {where}")
                self.say(line)
        self._own_secrets(view)
        if stage is Stage.PLAY:
            self._trick(view)
        legal = match.legal_actions()
        if stage is Stage.AUCTION:
            line = Text("Your auction cards: ")
            line.append_text(
                numbered_cards(
                    auction_order(view.auction_hand), [a for a in legal if isinstance(a, Card)], self.symbols
                )
            )
            self.say(line)
            line = Text("Your hand: ")
            line.append_text(hand_text(view.hand, numbered=False, symbols=self.symbols, order=sorted_ace_low))
            self.say(line)
            self.say("Legal: " + " ".join(self.legal_words(match)))
            return
        if stage is Stage.HANDICAP:
            bid = card_at(match.hands[-1].pending[0][1])
            self.say(f"Your bid of {bid} costs one {suit_word(bid.suit)} of your choice (FC-5).")
        line = Text("Your hand: ")
        cards = legal if isinstance(legal, CardSet) else None
        line.append_text(hand_text(view.hand, cards, numbered=True, symbols=self.symbols, order=sorted_ace_low))
        self.say(line)

    def _own_secrets(self, view: FreeView) -> None:
        """The hidden cards this seat knows: the chest it took, its discards, the cards it gave or received."""
        if view.chest is not None:
            line = Text("The chest you took: ")
            line.append_text(cards_text(sorted_ace_low(view.chest), self.symbols))
            self.say(line)
        if view.discards:
            line = Text("Your discards: ")
            line.append_text(cards_text(sorted_ace_low(view.discards), self.symbols))
            self.say(line)
        for g, r, c in view.transfers:
            line = Text(f"You gave {self.names[r]}: " if g == view.seat else f"{self.names[g]} gave you: ")
            line.append_text(card_text(c, self.symbols))
            self.say(line)

    def _trick(self, view: FreeView) -> None:
        won = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(view.tricks_won))
        held = ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(view.hand_sizes))
        self.say(f"Trick {len(view.tricks) + 1} · tricks: {won} · cards held: {held}")
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

    def show_deal(self, match: FreeMatch) -> None:
        """For spectators: every seat's auction and primary cards, and the chest."""
        hand = match.hands[-1]
        for s in range(N_SEATS):
            line = Text(f"  {self.names[s]}: auction ")
            line.append_text(cards_text(auction_order(CardSet(hand.auction_cards[s])), self.symbols))
            line.append(" · hand ")
            line.append_text(hand_text(hand.hand_of(s), numbered=False, symbols=self.symbols, order=sorted_ace_low))
            self.say(line)
        chest = Text("  chest: ")
        chest.append_text(cards_text(sorted_ace_low(hand.deal.chest), self.symbols))
        self.say(chest)

    # -- input -----------------------------------------------------------------------------------------
    def prompt(self, match: FreeMatch, seat: int) -> str:
        """The question of the stage: a bid or pass, a Ten's discard, the card to pass, or a card to play."""
        stage = match.view(seat).stage
        if stage is Stage.AUCTION:
            return "Your bid (card or number) or pass: "
        if stage is Stage.HANDICAP:
            bid = card_at(match.hands[-1].pending[0][1])
            return f"Your discard for {bid} (one {suit_word(bid.suit)}): "
        if stage is Stage.PASS:
            return f"Your card to pass to {self.names[(seat - 1) % N_SEATS]}: "
        return "Your card: "

    def _numbered(self, view: FreeView) -> list[Card]:
        """The cards as numbered on screen: the auction cards in the auction, else the primary hand."""
        if view.stage is Stage.AUCTION:
            return auction_order(view.auction_hand)
        return sorted_ace_low(view.hand)

    def legal_words(self, match: FreeMatch) -> list[str]:
        """The legal actions: bids from lowest to highest then pass, or cards in hand order."""
        legal = match.legal_actions()
        if isinstance(legal, CardSet):
            return [str(c) for c in sorted_ace_low(legal)]
        cards = [a for a in legal if isinstance(a, Card)]
        rest = [str(a) for a in legal if not isinstance(a, Card)]
        return [str(c) for c in sorted(cards, key=lambda c: bid_value(c.index))] + rest

    def read_action(self, match: FreeMatch, seat: int, text: str) -> object | None:
        """A card in notation or by its number in the list shown, or pass/p."""
        view = match.view(seat)
        try:
            if text.isascii() and text.isdigit():  # "²" is a digit to isdigit, but not a number to int
                shown = self._numbered(view)
                number = int(text)
                if not 1 <= number <= len(shown):
                    what = "auction cards" if view.stage is Stage.AUCTION else "hand"
                    self.say(f"There is no card number {number}: your {what} has {len(shown)} cards.", style="red")
                    return None
                return shown[number - 1]
            return match.parse_action(text)
        except ClubsError as exc:
            self.say(str(exc), style="red")
            return None
