"""The Free Clubs screen of ``clubs play`` and ``clubs watch``: auction, handicaps, contract, pass, tricks, scores.

A player sees only what their seat may know (:class:`~clubsuite.games.free.FreeView`): their own auction and
primary cards, the public auction and handicap counts, the chest only if they took it, their own discards, and the
cards they gave or received. A spectator (``clubs watch``) sees every card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from clubsuite.cards import Card, CardSet, Suit, card, card_at, iter_bits
from clubsuite.errors import ClubsError
from clubsuite.games.free import (
    CardsPassed,
    FreeHand,
    FreeMatch,
    FreeView,
    HandicapResolved,
    HandScored,
    Stage,
    bid_value,
)
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
from clubsuite.games.free.present import CONTRACT_LABEL, HANDICAPS, TRANSFER
from clubsuite.games.free.spectator import public_dict
from clubsuite.jsonform import JsonObject
from clubsuite.present import account_of, told_to
from clubsuite.reasons import Reason
from clubsuite.tui.render import card_text, cards_text, english, hand_text, numbered_cards, sorted_ace_low
from clubsuite.tui.table import Marked, Table

N_SEATS = 3


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

    # -- what happened: the game's words (clubsuite.tui.table.Table.show_events), and what this screen adds --------
    def public_view(self, match: FreeMatch) -> JsonObject:
        """The table as anyone watching sees it (:func:`clubsuite.games.free.spectator.public_dict`)."""
        return public_dict(match)

    def after_event(self, match: FreeMatch, event: object) -> None:
        """After a hand's points, its contract in words and its score sheet; after cards move between seats (a
        Queen's handicap, the pass, FC-2 and FC-5), which cards, for whoever may see them."""
        if isinstance(event, HandScored):
            self._hand_scored(match, event)
        elif isinstance(event, HandicapResolved | CardsPassed) and self.human is None:
            self._moves(match, event)

    def _moves(self, match: FreeMatch, event: HandicapResolved | CardsPassed) -> None:
        """The cards the event moved between seats, for a spectator (who sees every card): a player reads its own
        in its screen before it acts."""
        hand = match.hands[-1]
        if isinstance(event, CardsPassed):
            moves = [(g, r, c) for g, r, c in hand.passed if r == (g - 1) % N_SEATS]
        else:
            mine = (event.seat, event.bid.index)
            moves = [
                (s, to, c) for s, b, gone, to in hand.handicaps if (s, b) == mine and to >= 0 for c in iter_bits(gone)
            ]
        for g, r, c in moves:
            self.say("  " + self.worded((Reason(TRANSFER, from_seat=g, to_seat=r, card=str(card_at(c))),)))

    def _hand_scored(self, match: FreeMatch, ev: HandScored) -> None:
        """The hand's contract in the game's words (its account, FC-4), then its points by source and the sheet."""
        hand = match.hands[-1]
        summary = match.summary()["hands"]
        account = account_of(self.info_of(match), summary[-1]) if isinstance(summary, list) and summary else None
        if account is not None:
            line = self.worded(told_to(account, self.human), "; ")
            self.say(line[:1].upper() + line[1:], style="bold")
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
        if stage is not Stage.AUCTION:  # the contract and the handicaps as the game words them beside the table
            for fact in self.facts(match, seat):
                if fact.label.code in (CONTRACT_LABEL.code, HANDICAPS.code):
                    self.say(self.fact_line(fact))
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
            self.show_asked(match, seat)
            return
        self.show_asked(match, seat)
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
            return self.tr("Your discard:") + " "
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
