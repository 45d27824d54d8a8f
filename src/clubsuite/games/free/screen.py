"""The Free Clubs screen of ``clubs play`` and ``clubs watch``: auction, handicaps, contract, pass, tricks, scores.

A player sees only what their seat may know (:class:`~clubsuite.games.free.FreeView`): their own auction and
primary cards, the public auction and handicap counts, the chest only if they took it, their own discards, and the
cards they gave or received. A spectator (``clubs watch``) sees every card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from clubsuite.cards import Card, CardSet, Suit, card, card_at
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
from clubsuite.tui.render import card_text, cards_text, english, hand_text, numbered_cards, sorted_ace_low
from clubsuite.tui.table import Marked, Table

N_SEATS = 3


def suit_word(suit: Suit | None, plural: bool = False, tr: Callable[..., str] = english) -> str:
    """``spade`` / ``spades``: the suit's name for messages, in the words of ``tr`` (a table's)."""
    if suit is None:
        return tr("joker")
    if plural:
        return (tr("clubs"), tr("diamonds"), tr("hearts"), tr("spades"))[suit]
    return (tr("club"), tr("diamond"), tr("heart"), tr("spade"))[suit]


def handicap_words(
    bid: Card, removed: int, to_name: str | None, tr: Callable[..., str] = english, to_you: bool = False
) -> str:
    """What the handicap of ``bid`` did, in words (FC-5): which card(s) of which suit went where; in the words of
    ``tr`` (a table's), ``to_you`` where the card went to the table's player."""
    if bid.suit is None:
        return tr("no handicap (Joker)")
    suit, tier = suit_word(bid.suit, tr=tr), bid_tier(bid.index)
    if removed == 0:
        return tr("no {suit} in hand, nothing happens", suit=suit)
    if tier == 0:
        return tr("one {suit} of the bidder's choice is discarded", suit=suit)
    if tier == 1:
        return tr("the highest {suit} is discarded", suit=suit)
    if tier == 2:
        if to_you:
            return tr("the highest {suit} passes to the left, to you", suit=suit)
        return tr("the highest {suit} passes to the left, to {name}", suit=suit, name=to_name)
    suits = suit_word(bid.suit, True, tr)
    if removed < 3:
        return tr(
            "the three highest {suits} are discarded, but there were only {removed}", suits=suits, removed=removed
        )
    return tr("the three highest {suits} are discarded", suits=suits)


def contract_words(names: Sequence[str], winner: int, partner: int | None, tr: Callable[..., str] = english) -> str:
    """The contract of the hand (FC-4): 7 tricks for a lone winner, all 10 for a Joker team; in the words of
    ``tr`` (a table's)."""
    if partner is None:
        return tr(
            "{name} must take at least {n} tricks, or lose {penalty} (FC-4)",
            name=names[winner],
            n=SOLO_CONTRACT,
            penalty=-CONTRACT_PENALTY,
        )
    return tr(
        "Joker team {first} + {second} must take all {n} tricks together, or each loses {penalty} (FC-4)",
        first=names[winner],
        second=names[partner],
        n=TEAM_CONTRACT,
        penalty=-CONTRACT_PENALTY,
    )


def score_rows(hand: FreeHand, tr: Callable[..., str] = english) -> list[tuple[str, tuple[int, ...]]]:
    """The points of a finished hand by source (FC-4, FC-8): tricks, contract and each bonus, one row each; the
    labels in the words of ``tr`` (a table's).

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
        (tr("tricks (x{points})", points=TRICK_POINTS), tricks),
        (tr("contract (FC-4)"), tuple(contract)),
        (tr("most diamonds (FC-8)"), diamond_row),
        (tr("ace of hearts (FC-8)"), ace_row),
        (tr("no spades (FC-8)"), spade_row),
    ]


def auction_order(cards: CardSet) -> list[Card]:
    """Auction cards from the lowest bid to the highest (FC-3): 10S 10H 10D 10C JS .. KC, then jokers."""
    return sorted(cards, key=lambda c: bid_value(c.index))


class FreeTable(Table[FreeMatch]):
    """The terminal screen of Free Clubs, for a player (``human`` is a seat) or a spectator (``human`` is None)."""

    move_help = "a card in notation or its number in the list shown; in the auction a bid or pass (p)"
    title = Marked.tr("Free Clubs")
    rules_line = Marked.tr(
        "Clubs are trumps; A is low, 9 high. Bid handicaps (FC-3); the winner takes the chest and must take 7 "
        "tricks, a Joker team all 10 (FC-4). Follow suit if you can."
    )
    help_line = Marked.tr(
        "Enter a card in notation or its number in the list shown; pass or p in the auction; "
        "? legal moves, h hint, s scores, q quit."
    )

    def _stage(self, stage: Stage) -> str:
        """The stage of the hand, as the status line names it."""
        if stage is Stage.AUCTION:
            return self.tr("auction")
        if stage is Stage.HANDICAP:
            return self.tr("handicap")
        if stage is Stage.PASS:
            return self.tr("pass")
        return self.tr("play")

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
                params = {
                    "number": ev.hand_number + 1,
                    "name": self.names[ev.dealer],
                    "totals": self._totals(match),
                    "target": match.options.target,
                }
                started = self.either(
                    ev.dealer,
                    self.tr("Hand {number}: You deal. Totals: {totals} (target {target})", **params),
                    self.tr("Hand {number}: {name} deals. Totals: {totals} (target {target})", **params),
                )
                self.say()
                self.say(f"=== {started} ===", style="bold")
            elif isinstance(ev, BidMade):
                words = self.either(ev.seat, self.tr("You bid {card}"), self.tr("{name} bids {card}"))
                self.say(self.styled(words, name=self.names[ev.seat], card=card_text(ev.card, self.faces)))
            elif isinstance(ev, AuctionPassed):
                self.say(
                    self.either(ev.seat, self.tr("You pass."), self.tr("{name} passes.", name=self.names[ev.seat]))
                )
            elif isinstance(ev, AuctionWon):
                self._auction_won(ev)
            elif isinstance(ev, ChestTaken):
                self._chest_taken(match, ev)
            elif isinstance(ev, HandicapResolved):
                self._handicap(match, ev)
            elif isinstance(ev, PassStarted):
                self.say(
                    self.tr(
                        "Each player chooses one card to pass to the right, starting with {name}; nothing moves "
                        "until all have chosen (FC-2).",
                        name=self.names[ev.seat],
                    )
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
                params = {
                    "top": f"{max(ev.totals):+d}",
                    "target": match.options.target,
                    "name": self.names[ev.winners[0]],
                    "names": self.names_list(ev.winners),
                }
                if len(ev.winners) > 1:
                    over = self.tr("Game over: {names} win with {top} (first to {target} or more, FC-9)!", **params)
                else:
                    over = self.either(
                        ev.winners[0],
                        self.tr("Game over: You win with {top} (first to {target} or more, FC-9)!", **params),
                        self.tr("Game over: {name} wins with {top} (first to {target} or more, FC-9)!", **params),
                    )
                self.say(over, style="bold")
                self.say(self.tr("Final totals: {totals}", totals=self._totals(match)))

    def _call(self, match: FreeMatch, ev: MisplayCalled | NoMisplay | HandRescored) -> None:
        """A call of a card that did not follow suit and what the table's check found (FC-10), told to everyone."""
        if isinstance(ev, HandRescored):
            scores = ", ".join(f"{self.names[s]} {v:+d}" for s, v in enumerate(ev.scores))
            self.say(self.tr("The hand is scored again: {scores}", scores=scores))
            self.say(self.tr("Totals: {totals}", totals=self._totals(match)))
            return
        if isinstance(ev, NoMisplay):
            words = self.either(
                ev.caller,
                self.tr("You call {card}: no misplay, {name} held none of the suit led (FC-10)."),
                self.tr("{caller} calls {card}: no misplay, {name} held none of the suit led (FC-10)."),
            )
            penalty = ""
        else:
            words = self.either(
                ev.caller,
                self.tr("You call {card}: a misplay by {name}; {penalty} (FC-10)."),
                self.tr("{caller} calls {card}: a misplay by {name}; {penalty} (FC-10)."),
            )
            if ev.stage == 1:
                penalty = self.tr("the card goes back and they play again")
            elif ev.stage == 2:
                penalty = self.tr("they cannot win this trick")
            else:
                penalty = self.tr("they score no positive points this hand")
        line = self.styled(
            words,
            caller=self.names[ev.caller],
            card=card_text(ev.card, self.faces),
            name=self.names[ev.seat],
            penalty=penalty,
        )
        self.say(line, style="yellow")

    def _auction_won(self, ev: AuctionWon) -> None:
        words = self.either(
            ev.seat,
            self.tr("You win the auction with {card}. Unbid auction cards leave play."),
            self.tr("{name} wins the auction with {card}. Unbid auction cards leave play."),
        )
        self.say(self.styled(words, name=self.names[ev.seat], card=card_text(ev.bid, self.faces)), style="bold")
        if ev.partner is not None:
            self.say(
                self.tr(
                    "A Joker ends the auction: {name} and {partner} (the last bid before the Joker) form a Joker "
                    "team (FC-4).",
                    name=self.names[ev.seat],
                    partner=self.names[ev.partner],
                )
            )
        contract = contract_words(self.names, ev.seat, ev.partner, self.tr)
        self.say(self.tr("Contract: {contract}", contract=contract), style="bold")

    def _chest_taken(self, match: FreeMatch, ev: ChestTaken) -> None:
        self.say(
            self.either(
                ev.seat,
                self.tr("You take the treasure chest ({size} cards, face down) (FC-5).", size=ev.size),
                self.tr(
                    "{name} takes the treasure chest ({size} cards, face down) (FC-5).",
                    name=self.names[ev.seat],
                    size=ev.size,
                ),
            )
        )
        chest = match.view(ev.seat).chest if self.human in (None, ev.seat) else None
        if chest is not None:
            words = (
                self.tr("The chest held: {cards}") if self.human is None else self.tr("You find in the chest: {cards}")
            )
            line = self.styled(words, cards=cards_text(sorted_ace_low(chest), self.faces))
            self.say(Text("  ").append_text(line))

    def _handicap(self, match: FreeMatch, ev: HandicapResolved) -> None:
        index = self._handicap_index
        self._handicap_index += 1
        to_name = None if ev.to is None else self.names[ev.to]
        what = handicap_words(ev.bid, ev.removed, to_name, self.tr, to_you=ev.to is not None and ev.to == self.human)
        words = self.either(
            ev.seat, self.tr("Handicap of your bid {card}: {what}"), self.tr("Handicap of {name}'s bid {card}: {what}")
        )
        line = self.styled(words, name=self.names[ev.seat], card=card_text(ev.bid, self.faces), what=what)
        if ev.removed:
            line.append(" " + self.trn("({n} card)", "({n} cards)", ev.removed))
        shown = self._visible_removed(match, index)
        if shown:
            line.append(": ")
            line.append_text(cards_text(shown, self.faces))
        self.say(line)

    def _cards_passed(self, match: FreeMatch, ev: CardsPassed) -> None:
        self.say(self.tr("The {n} chosen cards move to the right (FC-2).", n=ev.passes))
        for g, r, c in self._pass_moves(match):
            if g == self.human:
                words = self.tr("You pass to {receiver}: {cards}")
            elif r == self.human:
                words = self.tr("You receive from {giver}: {cards}")
            else:
                words = self.tr("{giver} passes to {receiver}: {cards}")
            line = self.styled(words, giver=self.names[g], receiver=self.names[r], cards=card_text(c, self.faces))
            self.say(Text("  ").append_text(line))

    def _hand_scored(self, match: FreeMatch, ev: HandScored) -> None:
        hand = match.hands[-1]
        tricks = ", ".join(f"{self.names[s]} {t} ({ev.scores[s]:+d})" for s, t in enumerate(ev.tricks))
        self.say(self.tr("Hand over. Tricks: {tricks}", tricks=tricks))
        team = hand.team
        if team:
            took = sum(ev.tricks[s] for s in team)
            need = TEAM_CONTRACT if len(team) == 2 else SOLO_CONTRACT
            params = {"who": " + ".join(self.names[s] for s in team), "took": took, "need": need}
            if took >= need:
                verdict = self.tr("Contract of {who}: {took} of {need} tricks, made (FC-4).", **params)
            elif len(team) == 2:
                verdict = self.tr(
                    "Contract of {who}: {took} of {need} tricks, failed: {penalty} each (FC-4).",
                    penalty=CONTRACT_PENALTY,
                    **params,
                )
            else:
                verdict = self.tr("Contract of {who}: {took} of {need} tricks, failed (FC-4).", **params)
            self.say(verdict, style="bold")
        sheet = RichTable(title=self.tr("This hand"), box=box.ASCII if not self.symbols else box.HEAVY_HEAD)
        sheet.add_column(self.tr("points"))
        for name in self.names:
            sheet.add_column(name, justify="right")
        for label, row in score_rows(hand, self.tr):
            sheet.add_row(label, *(f"{v:+d}" if v else "." for v in row))
        sheet.add_row(self.tr("hand"), *(f"{v:+d}" for v in ev.scores), style="bold")
        self.console.print(sheet)
        self.show_scores(match)

    # -- the human's screen ----------------------------------------------------------------------------
    def _auction_text(self, view: FreeView) -> Text:
        calls = Text()
        if not view.calls:
            opener = card_text(card("10S"), self.faces)  # FC-3: the 10 of spades opens
            calls.append_text(self.styled(self.tr("(no bid yet: the holder of {card} opens with it)"), card=opener))
        for i, (s, c) in enumerate(view.calls):
            if i:
                calls.append(", ")
            calls.append(f"{self.names[s]} ")
            if c is None:
                calls.append("pass")  # the call as typed, as the legal moves list it
            else:
                calls.append_text(card_text(c, self.faces))
        return self.styled(self.tr("Auction: {calls}"), calls=calls)

    def show_state(self, match: FreeMatch, seat: int) -> None:
        """The human's screen before a decision: auction, contract, handicaps, own cards, trick and legal moves."""
        view = match.view(seat)
        stage = view.stage
        self.say()
        self.say(
            self.tr(
                "Hand {number} · dealer {name} · {stage} · totals: {totals} (target {target})",
                number=view.hand_number + 1,
                name=self.names[view.dealer],
                stage=self._stage(stage),
                totals=self._totals(match),
                target=view.options.target,
            )
        )
        self.say(self._auction_text(view))
        bids = [(s, c) for s, c in view.calls if c is not None]
        if stage is Stage.AUCTION:
            if bids:
                s, c = bids[-1]
                words = self.tr(
                    "Standing bid: {card} by {name}; a bid must be higher and at most one level above it (FC-3)"
                )
                self.say(self.styled(words, card=card_text(c, self.faces), name=self.names[s]))
        else:
            winner = view.winner
            assert winner is not None
            contract = contract_words(self.names, winner, view.partner, self.tr)
            self.say(self.tr("Contract: {contract}", contract=contract))
            for s, bid, n, to in view.handicaps:
                if to is None:
                    words = self.trn(
                        "handicap {name} {card}: {n} card discarded",
                        "handicap {name} {card}: {n} cards discarded",
                        n,
                        name="{name}",
                        card="{card}",
                    )
                else:
                    words = self.trn(
                        "handicap {name} {card}: {n} card passed to {to}",
                        "handicap {name} {card}: {n} cards passed to {to}",
                        n,
                        name="{name}",
                        card="{card}",
                        to="{to}",
                    )
                line = self.styled(
                    words,
                    name=self.names[s],
                    card=card_text(bid, self.faces),
                    to="" if to is None else self.names[to],
                )
                self.say(Text("  ").append_text(line))
        self._own_secrets(view)
        if stage is Stage.PLAY:
            self._trick(view)
        legal = match.legal_actions()
        if stage is Stage.AUCTION:
            auction = numbered_cards(
                auction_order(view.auction_hand), [a for a in legal if isinstance(a, Card)], self.faces
            )
            self.say(self.styled(self.tr("Your auction cards: {cards}"), cards=auction))
            hand = hand_text(view.hand, numbered=False, symbols=self.faces, order=sorted_ace_low)
            self.say(self.styled(self.tr("Your hand: {cards}"), cards=hand))
            self.say(self.tr("Legal: {moves}", moves=" ".join(self.legal_words(match))))
            return
        if stage is Stage.HANDICAP:
            bid = card_at(match.hands[-1].pending[0][1])
            suit = suit_word(bid.suit, tr=self.tr)
            self.say(self.tr("Your bid of {bid} costs one {suit} of your choice (FC-5).", bid=bid, suit=suit))
        cards = legal if isinstance(legal, CardSet) else None
        hand = hand_text(view.hand, cards, numbered=True, symbols=self.faces, order=sorted_ace_low)
        self.say(self.styled(self.tr("Your hand: {cards}"), cards=hand))

    def _own_secrets(self, view: FreeView) -> None:
        """The hidden cards this seat knows: the chest it took, its discards, the cards it gave or received."""
        if view.chest is not None:
            chest = cards_text(sorted_ace_low(view.chest), self.faces)
            self.say(self.styled(self.tr("The chest you took: {cards}"), cards=chest))
        if view.discards:
            discards = cards_text(sorted_ace_low(view.discards), self.faces)
            self.say(self.styled(self.tr("Your discards: {cards}"), cards=discards))
        for g, r, c in view.transfers:
            words = self.tr("You gave {name}: {card}") if g == view.seat else self.tr("{name} gave you: {card}")
            name = self.names[r] if g == view.seat else self.names[g]
            self.say(self.styled(words, name=name, card=card_text(c, self.faces)))

    def _trick(self, view: FreeView) -> None:
        won = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(view.tricks_won))
        held = ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(view.hand_sizes))
        self.say(
            self.tr(
                "Trick {number} · tricks: {won} · cards held: {held}", number=len(view.tricks) + 1, won=won, held=held
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

    def show_deal(self, match: FreeMatch) -> None:
        """For spectators: every seat's auction and primary cards, and the chest."""
        hand = match.hands[-1]
        for s in range(N_SEATS):
            line = self.styled(
                self.tr("{name}: auction {auction} · hand {hand}"),
                name=self.names[s],
                auction=cards_text(auction_order(CardSet(hand.auction_cards[s])), self.faces),
                hand=hand_text(hand.hand_of(s), numbered=False, symbols=self.faces, order=sorted_ace_low),
            )
            self.say(Text("  ").append_text(line))
        chest = cards_text(sorted_ace_low(hand.deal.chest), self.faces)
        self.say(Text("  ").append_text(self.styled(self.tr("chest: {cards}"), cards=chest)))

    # -- input -----------------------------------------------------------------------------------------
    def prompt(self, match: FreeMatch, seat: int) -> str:
        """The question of the stage: a bid or pass, a Ten's discard, the card to pass, or a card to play."""
        stage = match.view(seat).stage
        if stage is Stage.AUCTION:
            return self.tr("Your bid (card or number) or pass:") + " "
        if stage is Stage.HANDICAP:
            bid = card_at(match.hands[-1].pending[0][1])
            suit = suit_word(bid.suit, tr=self.tr)
            return self.tr("Your discard for {bid} (one {suit}):", bid=bid, suit=suit) + " "
        if stage is Stage.PASS:
            return self.tr("Your card to pass to {name}:", name=self.names[(seat - 1) % N_SEATS]) + " "
        return self.tr("Your card:") + " "

    def _numbered(self, view: FreeView) -> list[Card]:
        """The cards as numbered on screen: the auction cards in the auction, else the primary hand."""
        if view.stage is Stage.AUCTION:
            return auction_order(view.auction_hand)
        return sorted_ace_low(view.hand)

    def legal_words(self, match: FreeMatch) -> list[str]:
        """The legal actions: bids from lowest to highest then pass, or cards in hand order."""
        legal = match.legal_actions()
        if isinstance(legal, CardSet):
            return [self.card_words(c) for c in sorted_ace_low(legal)]
        cards = [a for a in legal if isinstance(a, Card)]
        rest = [str(a) for a in legal if not isinstance(a, Card)]
        return [self.card_words(c) for c in sorted(cards, key=lambda c: bid_value(c.index))] + rest

    def read_action(self, match: FreeMatch, seat: int, text: str) -> object | None:
        """A card in notation or by its number in the list shown, or pass/p."""
        view = match.view(seat)
        try:
            if text.isascii() and text.isdigit():  # "²" is a digit to isdigit, but not a number to int
                shown = self._numbered(view)
                number = int(text)
                if not 1 <= number <= len(shown):
                    if view.stage is Stage.AUCTION:
                        wrong = self.trn(
                            "There is no card number {number}: you have {n} auction card.",
                            "There is no card number {number}: you have {n} auction cards.",
                            len(shown),
                            number=number,
                        )
                    else:
                        wrong = self.no_card_number(number, len(shown))
                    self.say(wrong, style="red")
                    return None
                return shown[number - 1]
            return match.parse_action(text)
        except ClubsError as exc:
            self.say(self.refusal(exc), style="red")
            return None
