"""One hand of Free Clubs: the auction (FC-3, FC-4), the handicaps (FC-5), the pass (FC-2), play and score.

The hand moves through the stages of :class:`Stage`. Every card set is a bit mask. ``apply`` checks everything
before it changes anything: an illegal action raises and leaves the state as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from clubsuite.cards import Card, CardSet, Suit, card_at, iter_bits
from clubsuite.copying import clone_state
from clubsuite.engine import Events, Phase
from clubsuite.errors import GameOverError, IllegalActionError, InvalidOptionsError, NotYourTurnError
from clubsuite.events import Event
from clubsuite.games.free import reasons
from clubsuite.games.free.deal import JOKER_INDICES, N_SEATS, PRIMARY_SUIT_MASKS, FreeDeal
from clubsuite.games.free.events import (
    AuctionPassed,
    AuctionWon,
    BidMade,
    CardPlayed,
    CardsPassed,
    ChestTaken,
    HandicapResolved,
    HandScored,
    MisplayCalled,
    NoMisplay,
    PassStarted,
    PlayStarted,
    TrickTaken,
)
from clubsuite.games.free.options import FreeOptions
from clubsuite.jsonform import JsonObject
from clubsuite.reasons import HAND_OVER, Reason, not_your_turn

MAX_TRICKS = 10
SOLO_CONTRACT = 7
"""Tricks the lone auction winner must take (FC-4)."""
TEAM_CONTRACT = 10
"""Tricks a Joker team must take together (FC-4)."""
CONTRACT_PENALTY = -50
TRICK_POINTS = 10
DIAMONDS_BONUS = 20
DIAMONDS_TIE_BONUS = 10
ACE_OF_HEARTS_BONUS = 10
NO_SPADES_BONUS = 5
ACE_OF_HEARTS = 2 * 13 + 12
TEN_OF_SPADES = 3 * 13 + 8
TIERS = ("10", "J", "Q", "K", "Joker")
"""The auction levels, lowest first (FC-3)."""


class Stage(StrEnum):
    """Where a hand of Free Clubs stands."""

    AUCTION = "auction"
    """Bidding auction cards or passing (FC-3)."""
    HANDICAP = "handicap"
    """A player chooses the primary card a Ten discards (FC-5); the other handicaps need no choice."""
    PASS = "pass"
    """Each player chooses a card to pass to the right (FC-2)."""
    PLAY = "play"
    """Trick play."""
    OVER = "over"
    """The hand is scored."""


class FreePhase(StrEnum):
    """The phases of a Free Clubs hand beside the shared ones (:class:`~clubsuite.engine.Phase`)."""

    AUCTION = "auction"
    """Bidding handicaps (FC-3)."""
    HANDICAP = "handicap"
    """Resolving the handicaps the auction cost (FC-5)."""
    PASS = "pass"
    """Passing a card before play (FC-2)."""


_PHASE_OF_STAGE: dict[Stage, Phase | FreePhase] = {
    Stage.AUCTION: FreePhase.AUCTION,
    Stage.HANDICAP: FreePhase.HANDICAP,
    Stage.PASS: FreePhase.PASS,
    Stage.PLAY: Phase.PLAY,
    Stage.OVER: Phase.OVER,
}


class Call(StrEnum):
    """The one auction action that is not a card."""

    PASS = "pass"


FreeAction = Card | Call


class MisplayCall(NamedTuple):
    """A call of a misplay (FC-10, option ``misplays``): made by any seat but the misplayer, at any time, by naming
    the misplayed card. In notation ``call 7H by 2`` names the caller, so a record can carry it; ``call 7H`` leaves
    the caller to be given to ``apply``."""

    card: Card
    caller: int | None = None
    """The calling seat, or None when it is given separately."""

    def __str__(self) -> str:
        return f"call {self.card}" if self.caller is None else f"call {self.card} by {self.caller}"


@dataclass
class Misplay:
    """A card played against the follow-suit rule in table mode (FC-10); hidden until someone calls it."""

    seat: int
    card: int
    """The card index."""
    trick: int
    """The number of tricks completed when it was played (0 for the first trick)."""
    order: int
    """How many cards of the hand had been played before it."""
    called: int = 0
    """0 while uncalled, else the penalty stage of the call (1, 2 or 3)."""
    undo: tuple[Any, ...] = field(default=(), repr=False)
    """The play state just before the card, restored by a call in the first stage."""


def is_joker(index: int) -> bool:
    """Whether the card index is a joker."""
    return index in JOKER_INDICES


def bid_value(index: int) -> int:
    """The position of an auction card in the bidding order (FC-3): 10S is 0, KC is 15, a Joker 16."""
    if is_joker(index):
        return 16
    suit, rank = divmod(index, 13)
    return (rank - 8) * 4 + (3 - suit)  # rank bit 8 is the ten; clubs rank above diamonds, hearts, spades


def bid_tier(index: int) -> int:
    """The level of an auction card: 0 for a Ten, 1 Jack, 2 Queen, 3 King, 4 Joker (FC-3)."""
    return bid_value(index) // 4


def strength(index: int) -> int:
    """How high a primary card plays within its suit: the ace is lowest (1), the nine highest (9)."""
    rank = index % 13 + 2
    return 1 if rank == 14 else rank


def top_cards(hand: int, suit: int, n: int) -> int:
    """The ``n`` highest primary cards of ``suit`` in ``hand`` (all of them if fewer), as a mask (FC-5)."""
    ranked = sorted(iter_bits(hand & PRIMARY_SUIT_MASKS[suit]), key=strength, reverse=True)
    mask = 0
    for i in ranked[:n]:
        mask |= 1 << i
    return mask


def suit_name(suit: int) -> str:
    """The plural name of a suit, for messages."""
    return ("clubs", "diamonds", "hearts", "spades")[suit]


def trick_winner(plays: list[tuple[int, int]]) -> int:
    """The seat that wins a trick of (seat, card index) plays: the highest club, else the highest of the led suit."""
    clubs = [(strength(c), s) for s, c in plays if c // 13 == Suit.CLUBS]
    if clubs:
        return max(clubs)[1]
    led = plays[0][1] // 13
    return max((strength(c), s) for s, c in plays if c // 13 == led)[1]


class FreeHand:
    """The state of one hand, from the deal to the score."""

    def __init__(self, deal: FreeDeal, dealer: int = 0, options: FreeOptions | None = None) -> None:
        if type(dealer) is not int or not 0 <= dealer < N_SEATS:
            raise InvalidOptionsError(f"dealer {dealer!r} is not a seat: expected 0, 1 or 2")
        self.options = options or FreeOptions()
        self.deal = deal
        self.dealer = dealer
        self.stage = Stage.AUCTION
        self.hands: list[int] = [int(h) for h in deal.primary]
        """Each seat's primary cards as a mask: hidden information, read-only outside this class."""
        self.auction_cards: list[int] = [int(h) for h in deal.auction]
        """Each seat's auction cards not yet bid (hidden; all leave play when the auction ends)."""
        opener = next(s for s in range(N_SEATS) if self.auction_cards[s] >> TEN_OF_SPADES & 1)
        self.to_act: int | None = opener
        self.calls: list[tuple[int, int]] = []
        """Every auction action in order: (seat, card index), with -1 for a pass (public)."""
        self.bids: list[tuple[int, int]] = []
        """The bids in order: (seat, card index) (public)."""
        self.winner = -1
        self.partner = -1
        """The Joker bidder's partner, or -1 without a Joker (FC-4)."""
        self.pending: list[tuple[int, int]] = []
        """Handicaps not yet resolved: (seat, bid card index), in bid order (FC-5)."""
        self.handicaps: list[tuple[int, int, int, int]] = []
        """Resolved handicaps: (seat, bid card index, cards removed as a mask, receiving seat or -1) (hidden cards)."""
        self.discards = [0, 0, 0]
        """The primary cards each seat discarded by its handicaps (seen only by that seat)."""
        self.pass_order: list[int] = []
        self.pass_choices: dict[int, int] = {}
        """In the pass before play: each seat's chosen card index so far (seen only by that seat until it moves)."""
        self.passed: list[tuple[int, int, int]] = []
        """Cards moved between seats: (giver, receiver, card index), by Queen handicaps and by the pass (FC-2)."""
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        """The trick in progress: (seat, card index) in play order."""
        self._players: list[int] = []
        """The seats taking part in the trick in progress, in order (those holding cards when it began)."""
        self.tricks: list[tuple[tuple[tuple[int, int], ...], int]] = []
        """Completed tricks: ((seat, card index) pairs in play order, winner)."""
        self.tricks_won = [0, 0, 0]
        self.taken = [0, 0, 0]
        """The cards in the tricks each seat won."""
        self.scores: tuple[int, ...] | None = None
        self.log: list[FreeAction | MisplayCall] = []
        """Every action in order, calls included (with their caller): the record of the hand."""
        self.misplays: list[Misplay] = []
        """Every misplay of the hand in table mode (FC-10): hidden information until called."""
        self.checks: list[tuple[int, int, int]] = []
        """(caller, seat, card index) of every call that found a lawful card (FC-10): public, like the calls."""

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def phase(self) -> Phase | FreePhase:
        """The engine phase of this stage."""
        return _PHASE_OF_STAGE[self.stage]

    @property
    def is_over(self) -> bool:
        """Whether the hand has been scored."""
        return self.scores is not None

    @property
    def team(self) -> tuple[int, ...]:
        """The auction winner and, with a Joker, the partner (empty during the auction)."""
        if self.winner < 0:
            return ()
        return (self.winner,) if self.partner < 0 else (self.winner, self.partner)

    @property
    def last_bid(self) -> int:
        """The card index of the most recent bid, or -1 before the opening."""
        return self.bids[-1][1] if self.bids else -1

    def hand_of(self, seat: int) -> CardSet:
        """The primary cards ``seat`` holds now (hidden information: for the engine, views and tests only)."""
        return CardSet(self.hands[seat])

    def _legal_bids(self, seat: int) -> int:
        held = self.auction_cards[seat]
        if not self.bids:
            return held & 1 << TEN_OF_SPADES
        last = self.last_bid
        value, tier = bid_value(last), bid_tier(last)
        mask = 0
        for i in iter_bits(held):
            if bid_value(i) > value and bid_tier(i) <= tier + 1:
                mask |= 1 << i
        return mask

    def _ten_candidates(self) -> int:
        seat, bid = self.pending[0]
        return self.hands[seat] & PRIMARY_SUIT_MASKS[bid // 13]

    def _play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.trick:
            follow = hand & PRIMARY_SUIT_MASKS[self.trick[0][1] // 13]
            if follow:
                return follow
        return hand

    def legal_actions(self) -> CardSet | tuple[FreeAction, ...]:
        """The legal actions of the seat to act: bids and ``pass`` in the auction, a card set otherwise."""
        seat = self.to_act
        if seat is None:
            return ()
        if self.stage is Stage.AUCTION:
            bids = tuple(card_at(i) for i in iter_bits(self._legal_bids(seat)))
            return bids if not self.bids else (*bids, Call.PASS)
        if self.stage is Stage.HANDICAP:
            return CardSet(self._ten_candidates())
        if self.stage is Stage.PASS:
            return CardSet(self.hands[seat])
        return CardSet(self._play_mask(seat))

    def explain(self, action: object) -> Reason | None:
        """Why ``action`` is illegal now, or None if it is legal. Never changes the state."""
        if self.scores is not None:
            return Reason(HAND_OVER, action=str(action))
        seat = self.to_act
        assert seat is not None
        if self.stage is Stage.AUCTION:
            return self._explain_auction(seat, action)
        if not isinstance(action, Card):
            return self._not_a_card(seat, action)
        bit = 1 << action.index
        if self.stage is Stage.HANDICAP:
            _, bid = self.pending[0]
            if self._ten_candidates() & bit:
                return None
            bid_card = str(card_at(bid))
            return Reason(reasons.TEN_DISCARD_SUIT, card=str(action), bid_card=bid_card, suit=suit_name(bid // 13))
        if not self.hands[seat] & bit:
            # The stage is the pass or play: a Ten's discard refused every card it does not take, above.
            kind = reasons.NOT_HELD_PASS if self.stage is Stage.PASS else reasons.NOT_HELD_PLAY
            return Reason(kind, card=str(action))
        if self.stage is Stage.PASS or self._play_mask(seat) & bit:
            return None
        if self.options.misplays:
            return None  # FC-10 table mode: the card is accepted and recorded as a misplay
        led = self.trick[0][1] // 13
        return Reason(reasons.MUST_FOLLOW, card=str(action), led_suit=suit_name(led))

    def _not_a_card(self, seat: int, action: object) -> Reason:
        """Why ``action``, not a card, is refused after the auction: what ``seat`` must do now."""
        if self.stage is Stage.HANDICAP:
            bid_card = str(card_at(self.pending[0][1]))
            return Reason(reasons.NOT_A_CARD_TEN, action=str(action), seat=seat, bid_card=bid_card)
        if self.stage is Stage.PASS:
            return Reason(reasons.NOT_A_CARD_PASS, action=str(action), seat=seat)
        return Reason(reasons.NOT_A_CARD_PLAY, action=str(action), seat=seat)

    def _explain_auction(self, seat: int, action: object) -> Reason | None:
        if action is Call.PASS:
            if not self.bids:
                return Reason(reasons.PASS_BEFORE_OPENING, opening_card=str(card_at(TEN_OF_SPADES)))
            return None
        if not isinstance(action, Card):
            return Reason(reasons.NOT_AN_AUCTION_ACTION, action=str(action))
        idx = action.index
        if not (is_joker(idx) or 8 <= idx % 13 <= 11):
            return Reason(reasons.NOT_AN_AUCTION_CARD, card=str(action))
        if not self.auction_cards[seat] >> idx & 1:
            return Reason(reasons.AUCTION_CARD_NOT_HELD, card=str(action))
        if not self.bids:
            if idx == TEN_OF_SPADES:
                return None
            return Reason(reasons.MUST_OPEN_WITH_TEN, card=str(action), opening_card=str(card_at(TEN_OF_SPADES)))
        if self._legal_bids(seat) >> idx & 1:
            return None
        last = self.last_bid
        if bid_value(idx) <= bid_value(last):
            kind = reasons.BID_NOT_HIGHER
        else:  # more than one level above the most recent bid (a legal bid is at most one)
            kind = reasons.BID_TOO_HIGH[bid_tier(idx), bid_tier(last)]
        return Reason(kind, card=str(action), last_card=str(card_at(last)))

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply the action of the seat to act (``seat``, if given, must be that seat) and return the events."""
        if self.scores is not None:
            raise GameOverError(Reason(HAND_OVER, action=str(action)))
        if seat is not None and seat != self.to_act:
            raise NotYourTurnError(not_your_turn(seat, action, self.to_act))
        actor = self.to_act
        assert actor is not None
        if self.stage is Stage.PLAY and type(action) is Card and self._play_mask(actor) >> action.index & 1:
            # A card the rules allow (what explain would find, without its other questions): the common case.
            self.log.append(action)
            return self._play(actor, action.index, lawful=True)
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        assert isinstance(action, (Card, Call))  # explain refused everything else
        self.log.append(action)
        if self.stage is Stage.AUCTION:
            return self._auction(actor, action)
        assert isinstance(action, Card)
        if self.stage is Stage.HANDICAP:
            return self._ten_discard(actor, action.index)
        if self.stage is Stage.PASS:
            return self._choose_pass(actor, action.index)
        return self._play(actor, action.index)

    def _auction(self, seat: int, action: FreeAction) -> Events:
        if action is Call.PASS:
            self.calls.append((seat, -1))
            events: list[Event] = [AuctionPassed(seat)]
            if self.calls[-2][1] == -1:  # FC-3: two passes in a row end the auction; the last bidder wins
                self._end_auction(events)
            else:
                self.to_act = (seat + 1) % N_SEATS
            return tuple(events)
        assert isinstance(action, Card)
        idx = action.index
        self.calls.append((seat, idx))
        self.bids.append((seat, idx))
        self.auction_cards[seat] &= ~(1 << idx)
        events = [BidMade(seat, action)]
        if is_joker(idx):
            self._end_auction(events)  # FC-4: a Joker ends the auction at once
        else:
            self.to_act = (seat + 1) % N_SEATS
        return tuple(events)

    def _end_auction(self, events: list[Event]) -> None:
        seat, bid = self.bids[-1]
        self.winner = seat
        if is_joker(bid):
            self.partner = self.bids[-2][0]  # FC-4: the player who made the most recent bid before the Joker
        self.auction_cards = [0, 0, 0]  # every unbid auction card leaves play
        events.append(AuctionWon(seat, self.partner if self.partner >= 0 else None, card_at(bid)))
        # FC-5: the chest first, then every team member's bids in the order they were made.
        self.hands[seat] |= int(self.deal.chest)
        events.append(ChestTaken(seat, len(self.deal.chest)))
        team = self.team
        self.pending = [(s, b) for s, b in self.bids if s in team and not is_joker(b)]
        self._run_handicaps(events)

    def _run_handicaps(self, events: list[Event]) -> None:
        """Resolve pending handicaps in order until one needs a choice (a Ten with cards in its suit) or none is left.

        A Ten with no primary card of its suit does nothing (FC-5).
        """
        while self.pending:
            seat, bid = self.pending[0]
            suit, tier = bid // 13, bid_tier(bid)
            if tier == 0 and self.hands[seat] & PRIMARY_SUIT_MASKS[suit]:
                self.stage = Stage.HANDICAP
                self.to_act = seat
                return
            self.pending.pop(0)
            removed = 0 if tier == 0 else top_cards(self.hands[seat], suit, 3 if tier == 3 else 1)
            self.hands[seat] &= ~removed
            to = -1
            if tier == 2:  # FC-2: a Queen passes its card to the left neighbour
                to = (seat + 1) % N_SEATS
                self.hands[to] |= removed
                for i in iter_bits(removed):
                    self.passed.append((seat, to, i))
            else:
                self.discards[seat] |= removed
            self.handicaps.append((seat, bid, removed, to))
            events.append(HandicapResolved(seat, card_at(bid), removed.bit_count(), to if to >= 0 else None))
        self._start_pass(events)

    def _ten_discard(self, seat: int, idx: int) -> Events:
        _, bid = self.pending.pop(0)
        bit = 1 << idx
        self.hands[seat] &= ~bit
        self.discards[seat] |= bit
        self.handicaps.append((seat, bid, bit, -1))
        events: list[Event] = [HandicapResolved(seat, card_at(bid), 1, None)]
        self._run_handicaps(events)
        return tuple(events)

    def _start_pass(self, events: list[Event]) -> None:
        # FC-2: starting at the auction winner's left; a player with no cards has nothing to pass.
        w = self.winner
        self.pass_order = [s for s in ((w + 1) % N_SEATS, (w + 2) % N_SEATS, w) if self.hands[s]]
        self.pass_choices = {}
        if not self.pass_order:
            self._start_play(events)
            return
        self.stage = Stage.PASS
        self.to_act = self.pass_order[0]
        events.append(PassStarted(self.to_act))

    def _choose_pass(self, seat: int, idx: int) -> Events:
        self.pass_choices[seat] = idx
        if len(self.pass_choices) < len(self.pass_order):
            self.to_act = self.pass_order[len(self.pass_choices)]
            return ()
        # FC-2: the cards move only now, all at once, each to the giver's right.
        for giver, i in self.pass_choices.items():
            self.hands[giver] &= ~(1 << i)
        for giver, i in self.pass_choices.items():
            receiver = (giver - 1) % N_SEATS
            self.hands[receiver] |= 1 << i
            self.passed.append((giver, receiver, i))
        events: list[Event] = [CardsPassed(len(self.pass_choices))]
        self._start_play(events)
        return tuple(events)

    def _next_with_cards(self, seat: int) -> int:
        """``seat`` if it holds cards, else the next seat clockwise that does (FC-6)."""
        for k in range(N_SEATS):
            s = (seat + k) % N_SEATS
            if self.hands[s]:
                return s
        return seat

    def _hand_done(self) -> bool:
        """FC-7: after ten tricks, or once at least two players are out of cards."""
        return len(self.tricks) >= MAX_TRICKS or self.hands.count(0) >= 2

    def _start_play(self, events: list[Event]) -> None:
        self.stage = Stage.PLAY
        # FC-1, FC-6: the player after the auction winner leads; with a Joker, the one player outside the team.
        if self.partner >= 0:
            first = next(s for s in range(N_SEATS) if s not in self.team)
        else:
            first = (self.winner + 1) % N_SEATS
        if self._hand_done():
            self._finish(events)
            return
        self._begin_trick(self._next_with_cards(first))
        events.append(PlayStarted(self.leader))

    def _begin_trick(self, leader: int) -> None:
        self.leader = leader
        self._players = [s for s in ((leader + k) % N_SEATS for k in range(N_SEATS)) if self.hands[s]]
        self.trick = []
        self.to_act = leader

    def _play_state(self) -> tuple[Any, ...]:
        """A copy of everything a card played changes: what a call in the first stage restores (FC-10)."""
        return (
            list(self.hands),
            list(self.trick),
            list(self._players),
            list(self.tricks),
            list(self.tricks_won),
            list(self.taken),
            self.leader,
            self.to_act,
        )

    def _played_count(self) -> int:
        return sum(len(plays) for plays, _ in self.tricks) + len(self.trick)

    def _play(self, seat: int, idx: int, lawful: bool = False) -> Events:
        """Play card ``idx`` of ``seat``; ``lawful``: the caller has checked that the rules allow it (else a card that
        fails to follow suit is noted as a misplay, FC-10)."""
        if not lawful and not self._play_mask(seat) >> idx & 1:  # only reachable with option misplays (FC-10)
            state = self._play_state()
            self.misplays.append(Misplay(seat, idx, len(self.tricks), self._played_count(), undo=state))
        taken = self._lay(seat, idx)
        played = CardPlayed(seat, card_at(idx))
        if taken is None:
            return (played,)
        plays, winner = taken
        cards, players = tuple(card_at(c) for _, c in plays), tuple(s for s, _ in plays)
        events: list[Event] = [played, TrickTaken(winner, len(self.tricks), cards, players)]
        if self.scores is not None:
            events.append(self._scored())
        return tuple(events)

    def _lay(self, seat: int, idx: int) -> tuple[tuple[tuple[int, int], ...], int] | None:
        """What a card played changes (FC-1, FC-6, FC-7), without the events: the trick it completed and its winner,
        or None; a completed trick that ends the hand scores it."""
        self.hands[seat] &= ~(1 << idx)
        trick = self.trick
        trick.append((seat, idx))
        if len(trick) < len(self._players):
            self.to_act = self._players[len(trick)]
            return None
        winner = self._trick_winner(trick, len(self.tricks))
        plays = tuple(trick)
        self.tricks.append((plays, winner))
        self.tricks_won[winner] += 1
        for _, c in plays:
            self.taken[winner] |= 1 << c
        if self._hand_done():
            self._end()
        else:
            self._begin_trick(self._next_with_cards(winner))
        return plays, winner

    def play_lawful(self, card: Card) -> None:
        """Play ``card`` for the seat to act in the card play, as :meth:`apply` would but without building its
        events (the search bots' play-outs read only where the hand ends). Refuses, changing nothing, anything but a
        card the rules allow now: IllegalActionError with :meth:`explain`'s reason, or ValueError outside the card
        play and for a misplay (FC-10), which only :meth:`apply` takes."""
        actor = self.to_act
        if (
            type(card) is Card
            and self.stage is Stage.PLAY
            and actor is not None
            and self._play_mask(actor) >> card.index & 1
        ):
            self.log.append(card)
            self._lay(actor, card.index)
            return
        reason = self.explain(card)
        if reason is not None:
            raise IllegalActionError(reason)
        raise ValueError(f"{card} is not a lawful card of the card play now (the hand is at its {self.stage.value})")

    def _trick_winner(self, plays: list[tuple[int, int]], number: int) -> int:
        """The winner of trick ``number`` (0 first); a misplayer called in the second stage cannot win it (FC-10)."""
        out = {m.seat for m in self.misplays if m.called == 2 and m.trick == number} if self.misplays else None
        if not out:
            return trick_winner(plays)
        # The leader never misplays (only a follower can fail to follow), so someone is always left.
        return trick_winner([(s, c) for s, c in plays if s not in out])

    def _score(self) -> tuple[int, ...]:
        forfeit = frozenset(m.seat for m in self.misplays if m.called == 3)
        return score_hand(self.tricks_won, self.taken, self.winner, self.partner, self.options, forfeit)

    def _finish(self, events: list[Event]) -> None:
        self._end()
        events.append(self._scored())

    def _end(self) -> None:
        """The hand is over: scored (FC-8), nobody to act."""
        self.trick = []
        self.scores = self._score()
        self.stage = Stage.OVER
        self.to_act = None

    def _scored(self) -> HandScored:
        """The event of the hand's score, once it is over."""
        assert self.scores is not None
        return HandScored(tuple(self.tricks_won), self.scores, ())

    # -- misplays (FC-10, option misplays) -------------------------------------------------------------
    def misplay_of(self, idx: int) -> Misplay | None:
        """The misplay of card index ``idx`` in this hand, if that card lies on the table as a misplay (hidden).

        A misplay called in the first stage went back to the hand, so it no longer counts: the card may be played
        again, lawfully or not.
        """
        return next((m for m in self.misplays if m.card == idx and m.called != 1), None)

    def call_stage(self, m: Misplay) -> int:
        """The penalty stage a call of ``m`` would have now (FC-10): 1 if no card has been played since it and the
        hand goes on, 2 if its trick is still on the table, 3 once its trick was taken or the hand is over.

        A full trick counts as taken once the next card is led (or the hand is scored): until then it lies on the
        table, so a misplay followed by the trick's last card can still be called in the second stage.
        """
        if self.scores is not None:
            return 3
        if self._played_count() == m.order + 1:
            return 1
        if m.trick == len(self.tricks) or (m.trick == len(self.tricks) - 1 and not self.trick):
            return 2
        return 3

    def _on_table(self, idx: int) -> tuple[int, int, int] | None:
        """Where card index ``idx`` lies on the table of this hand: (trick number from 0, its place in the trick
        from 0, the seat that played it), or None if it is not on the table (never played, or taken back by a call
        in the first stage). Public: everyone sees the table."""
        done = [plays for plays, _ in self.tricks]
        for number, plays in enumerate([*done, self.trick] if self.trick else done):
            for place, (seat, c) in enumerate(plays):
                if c == idx:
                    return number, place, seat
        return None

    def explain_call(self, caller: int, card: Card) -> Reason | None:
        """Why ``caller`` may not call ``card`` now, or None if the call may be made (FC-10).

        Every condition is public, so the answer is the same whatever the hidden cards are and a call never works
        as a private question about another hand: the option, the caller, the card on the table of this hand, a
        card that did not follow the led suit (a lead or a card of the led suit cannot be a misplay), played by
        another seat, not called before. Whether it was a misplay is found only by making the call (:meth:`call`),
        and then told to everyone.
        """
        name = str(card)
        if not self.options.misplays:
            return Reason(reasons.CALL_NEEDS_OPTION, card=name)
        if type(caller) is not int or not 0 <= caller < N_SEATS:
            return Reason(reasons.CALL_CALLER_NOT_A_SEAT, card=name, caller_text=repr(caller))
        where = self._on_table(card.index)
        if where is None:
            return Reason(reasons.CALL_NOT_ON_TABLE, card=name)
        number, place, seat = where
        plays = self.tricks[number][0] if number < len(self.tricks) else self.trick
        led = plays[0][1] // 13
        if place == 0:
            return Reason(reasons.CALL_OF_LEAD, card=name, n=number + 1)
        if card.index // 13 == led:
            return Reason(reasons.CALL_FOLLOWED_SUIT, card=name, led_suit=suit_name(led))
        if caller == seat:
            return Reason(reasons.CALL_OWN_CARD, card=name, seat=caller)
        m = self.misplay_of(card.index)
        if (m is not None and m.called) or any(c == card.index for _, _, c in self.checks):
            return Reason(reasons.CALL_ALREADY_CHECKED, card=name)
        return None

    def call(self, caller: int, card: Card) -> Events:
        """Call ``card`` as a misplay by ``caller`` (FC-10): the table checks it in public.

        A lawful card (its player held none of the led suit) gives :class:`NoMisplay` and changes nothing else. A
        misplay takes the penalty of its stage. Stage 1: the card goes back to the misplayer's hand and they play
        again, no penalty. Stage 2: the card stays and the misplayer cannot win the trick (the best other card wins
        it). Stage 3: the misplayer scores no positive points for the hand (a missed contract still costs them).
        Raises, changing nothing, if the call may not be made.
        """
        reason = self.explain_call(caller, card)
        if reason is not None:
            raise IllegalActionError(reason)
        m = self.misplay_of(card.index)
        if m is None:  # lawful: the check tells everyone, and that is all
            where = self._on_table(card.index)
            assert where is not None
            self.checks.append((caller, where[2], card.index))
            self.log.append(MisplayCall(card, caller))
            return (NoMisplay(caller, where[2], card),)
        m.called = stage = self.call_stage(m)
        if stage == 1:
            # The log keeps the misplayed card: replaying it and then this call restores the same state.
            hands, trick, players, tricks, won, taken, leader, to_act = m.undo
            self.hands, self.trick, self._players, self.tricks = list(hands), list(trick), list(players), list(tricks)
            self.tricks_won, self.taken, self.leader, self.to_act = list(won), list(taken), leader, to_act
        elif stage == 2 and m.trick < len(self.tricks):
            self._retake_last_trick()
        elif stage == 3 and self.scores is not None:
            self.scores = self._score()
        self.log.append(MisplayCall(card, caller))
        return (MisplayCalled(caller, m.seat, card, stage),)

    def _retake_last_trick(self) -> None:
        """Give the full trick still on the table to its winner once the forfeits are out (FC-10, second stage).

        No card of the next trick has been played, so the new winner simply leads it instead.
        """
        plays, old = self.tricks[-1]
        new = self._trick_winner(list(plays), len(self.tricks) - 1)
        if new == old:
            return
        self.tricks[-1] = (plays, new)
        self.tricks_won[old] -= 1
        self.tricks_won[new] += 1
        for _, c in plays:
            self.taken[old] &= ~(1 << c)
            self.taken[new] |= 1 << c
        self._begin_trick(self._next_with_cards(new))

    def action_log(self) -> list[FreeAction | MisplayCall]:
        """Every action applied to this hand, in order (the record of the hand).

        In table mode (FC-10) it holds every card played, misplays included, and every call with its caller where
        it was made: a call made after the hand was scored is its last action. Replaying the log gives the same
        hand, penalties included.
        """
        return list(self.log)

    def summary(self) -> JsonObject:
        """A JSON-ready account of the hand: dealer, auction, team, contract, tricks, bonuses and scores.

        Only public facts: the bids (in the order made, FC-3), the tier of the highest bid, the contract once the
        auction is won (FC-4), and once the hand is scored whether the contract was made and which seats won each
        bonus (FC-8), all read from the tricks, which everyone saw. Balance reports count these facts.
        """
        complete = self.scores is not None
        contract: JsonObject | None = None
        if self.winner >= 0:
            needed = TEAM_CONTRACT if self.partner >= 0 else SOLO_CONTRACT
            taken = sum(self.tricks_won[s] for s in self.team)
            contract = {
                "team": list(self.team),
                "tricks_needed": needed,
                "tricks_taken": taken,
                "made": taken >= needed if complete else None,
            }
        return {
            "dealer": self.dealer,
            "auction": [str(card_at(c)) if c >= 0 else str(Call.PASS) for _, c in self.calls],
            "bids": [{"seat": s, "card": str(card_at(c))} for s, c in self.bids],
            "top_tier": TIERS[bid_tier(self.last_bid)] if self.bids else None,
            "winner": self.winner if self.winner >= 0 else None,
            "partner": self.partner if self.partner >= 0 else None,
            "contract": contract,
            "tricks_won": list(self.tricks_won),
            "bonuses": self._bonus_winners() if complete else None,
            "scores": list(self.scores) if self.scores is not None else None,
            "complete": complete,
        }

    def _bonus_winners(self) -> JsonObject:
        """Which seats won each bonus of a scored hand (FC-8): the same tests as :func:`score_hand`, by seat."""
        diamonds = [(t & PRIMARY_SUIT_MASKS[Suit.DIAMONDS]).bit_count() for t in self.taken]
        most = max(diamonds)
        leaders = [s for s in range(N_SEATS) if most > 0 and diamonds[s] == most]
        ace = [s for s in range(N_SEATS) if self.taken[s] >> ACE_OF_HEARTS & 1]
        no_spades = [
            s
            for s in range(N_SEATS)
            if not self.taken[s] & PRIMARY_SUIT_MASKS[Suit.SPADES]
            and (self.tricks_won[s] > 0 or not self.options.no_spades_needs_a_trick)
        ]
        return {
            "diamonds_taken": diamonds,
            "most_diamonds": leaders[0] if len(leaders) == 1 else None,
            "diamonds_tie": leaders if len(leaders) > 1 else [],
            "ace_of_hearts": ace[0] if ace else None,
            "no_spades": no_spades,
        }

    def clone(self) -> FreeHand:
        """An independent copy (for search and perft): every mutable container copied, immutable values shared
        (:func:`clubsuite.copying.clone_state`, so a field added later is copied without being listed). The
        misplays of table mode (FC-10) are copied too, since a call changes them."""
        return clone_state(self)


def score_hand(
    tricks_won: list[int],
    taken: list[int],
    winner: int,
    partner: int,
    options: FreeOptions,
    forfeit: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """The points of each seat for one hand (FC-4, FC-8).

    The seats in ``forfeit`` had a misplay called after its trick was taken (FC-10): they score no positive points,
    only the contract penalty if they missed their contract.
    """
    scores = [TRICK_POINTS * t for t in tricks_won]
    penalty = [0, 0, 0]
    if partner >= 0:
        if tricks_won[winner] + tricks_won[partner] < TEAM_CONTRACT:  # FC-4: -50 for each member
            penalty[winner] = penalty[partner] = CONTRACT_PENALTY
    elif winner >= 0 and tricks_won[winner] < SOLO_CONTRACT:
        penalty[winner] = CONTRACT_PENALTY
    for s in range(N_SEATS):
        scores[s] += penalty[s]
    diamonds = [(t & PRIMARY_SUIT_MASKS[Suit.DIAMONDS]).bit_count() for t in taken]
    most = max(diamonds)
    if most > 0:  # FC-8: nobody gets the bonus when nobody took a diamond
        leaders = [s for s in range(N_SEATS) if diamonds[s] == most]
        for s in leaders:
            scores[s] += DIAMONDS_BONUS if len(leaders) == 1 else DIAMONDS_TIE_BONUS
    for s in range(N_SEATS):
        if taken[s] >> ACE_OF_HEARTS & 1:
            scores[s] += ACE_OF_HEARTS_BONUS
        took_trick = tricks_won[s] > 0
        if not taken[s] & PRIMARY_SUIT_MASKS[Suit.SPADES] and (took_trick or not options.no_spades_needs_a_trick):
            scores[s] += NO_SPADES_BONUS
    for s in forfeit:
        scores[s] = penalty[s]
    return tuple(scores)
