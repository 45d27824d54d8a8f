"""One hand of Clubs (whist group): the exchange round (CW-4), trick play (CW-1, CW-2) and the quota score.

The state keeps every hand as a bit mask and updates the trick incrementally, so legality is a few integer
operations. ``apply`` checks everything before it changes anything: an illegal action raises and leaves the
state as it was.
"""

from __future__ import annotations

from enum import StrEnum

from clubsuite.cards import CARD_TABLE, Card, CardSet, card_at
from clubsuite.copying import clone_state
from clubsuite.engine import Events, Phase
from clubsuite.errors import GameOverError, IllegalActionError, InvalidOptionsError, NotYourTurnError
from clubsuite.events import Event
from clubsuite.games.whist import reasons, rules
from clubsuite.games.whist.deal import HAND_SIZE, N_SEATS, WhistDeal
from clubsuite.games.whist.events import CardPlayed, Decided, HandScored, PlayStarted, TrickTaken
from clubsuite.games.whist.options import LeadAfterExchange, WhistOptions
from clubsuite.jsonform import JsonObject
from clubsuite.reasons import HAND_OVER, NOT_HELD, Reason, not_your_turn

QUOTA = 4
"""Tricks a player must take to score nothing for the hand."""


class WhistPhase(StrEnum):
    """The phase of a whist hand beside the shared ones (:class:`~clubsuite.engine.Phase`)."""

    EXCHANGE = "exchange"
    """Each player in turn keeps their hand or exchanges it with the bid hand (CW-4)."""


class Decision(StrEnum):
    """An exchange-round action (CW-4)."""

    KEEP = "keep"
    EXCHANGE = "exchange"


WhistAction = Card | Decision
_DECISIONS = (Decision.KEEP, Decision.EXCHANGE)


class WhistHand:
    """The state of one hand, from the deal to the score."""

    __slots__ = (
        "_led",
        "_legal",
        "_legal_version",
        "_top_club",
        "_top_led",
        "_trick",
        "_winning",
        "bid",
        "clubs_broken",
        "deal",
        "dealer",
        "decisions",
        "given_up",
        "hands",
        "leader",
        "options",
        "phase",
        "play_start_hands",
        "scores",
        "to_act",
        "tricks",
        "tricks_won",
        "version",
    )

    def __init__(self, deal: WhistDeal, dealer: int = 0, options: WhistOptions | None = None) -> None:
        if type(dealer) is not int or not 0 <= dealer < N_SEATS:
            raise InvalidOptionsError(f"dealer {dealer!r} is not a seat: expected 0, 1 or 2")
        self.options = options or WhistOptions()
        self.deal = deal
        self.dealer = dealer
        self.hands: list[int] = [int(h) for h in deal.hands]
        """Each seat's cards as a mask: hidden information, and read-only outside this class."""
        self.bid = int(deal.bid)
        self.phase: Phase | WhistPhase = WhistPhase.EXCHANGE
        self.to_act: int | None = (dealer + 1) % N_SEATS
        self.decisions: list[tuple[int, bool]] = []
        """Every exchange decision so far: (seat, exchanged), in turn order."""
        self.given_up: dict[int, int] = {}
        """For each exchanger, the hand they left as the new bid hand."""
        self.play_start_hands: tuple[int, ...] = ()
        self.leader = -1
        self.clubs_broken = False
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        """Completed tricks: (leader, card indices in play order, winner)."""
        self.tricks_won = [0, 0, 0]
        self.scores: tuple[int, ...] | None = None
        self.version = 0
        self._trick: list[int] = []
        self._led = -1
        self._top_led = -1
        self._top_club = -1
        self._winning = -1
        self._legal = 0
        self._legal_version = -1

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether all thirteen tricks have been played and scored."""
        return self.scores is not None

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card) pairs in play order."""
        lead = self.leader
        return tuple(((lead + k) % N_SEATS, card_at(c)) for k, c in enumerate(self._trick))

    @property
    def trick_indices(self) -> tuple[int, ...]:
        """The card indices of the trick in progress."""
        return tuple(self._trick)

    def hand_of(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (hidden information: for the engine, views and tests only)."""
        return CardSet(self.hands[seat])

    def legal_mask(self) -> int:
        """The legal cards of the seat to act as a mask (play phase only): the one place legality is computed.

        The result is remembered for this version of the state, since ``apply`` right after needs the same mask.
        """
        if self._legal_version == self.version:
            return self._legal
        hand = self.hands[self.to_act]  # type: ignore[index]
        if self._trick:
            mask = _follow_mask(hand, self._led, self._top_led, self._top_club)
        else:
            mask = _lead_mask(hand, self.clubs_broken)
        self._legal = mask
        self._legal_version = self.version
        return mask

    def legal_actions(self) -> CardSet | tuple[Decision, ...]:
        """The legal actions of the seat to act: a :class:`CardSet` in play, the two decisions in the exchange."""
        if self.phase is _PLAY:
            return _new_set(CardSet, self.legal_mask())
        if self.phase is WhistPhase.EXCHANGE:
            return _DECISIONS
        return ()

    def explain(self, action: object) -> Reason | None:
        """Why ``action`` is illegal now, or None if it is legal. Never changes the state."""
        if self.scores is not None:
            return Reason(HAND_OVER, action=str(action))
        seat = self.to_act
        assert seat is not None
        if self.phase is WhistPhase.EXCHANGE:
            if isinstance(action, Decision):
                return None
            return Reason(reasons.NOT_A_DECISION, action=str(action), seat=seat)
        if not isinstance(action, Card):
            return Reason(reasons.NOT_A_CARD, action=str(action), seat=seat)
        bit = 1 << action.index
        hand = self.hands[seat]
        if not hand & bit:
            return Reason(NOT_HELD, card=str(action))
        if self.legal_mask() & bit:
            return None
        if not self._trick:
            return rules.explain_lead(hand, action.index)
        return rules.explain_follow(hand, action.index, self._led, self._top_led, self._top_club)

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply the action of the seat to act (``seat``, if given, must be that seat) and return the events."""
        if self.scores is not None:
            raise GameOverError(Reason(HAND_OVER, action=str(action)))
        if seat is not None and seat != self.to_act:
            raise NotYourTurnError(not_your_turn(seat, action, self.to_act))
        if self.phase is Phase.PLAY and isinstance(action, Card):
            return self._play(action)
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        assert isinstance(action, Decision)
        return self._decide(action is Decision.EXCHANGE)

    def _decide(self, exchange: bool) -> Events:
        seat = self.to_act
        assert seat is not None
        if exchange:
            # CW-4: the exchanger takes the bid hand and leaves their own hand as the new bid hand.
            self.given_up[seat] = self.hands[seat]
            self.hands[seat], self.bid = self.bid, self.hands[seat]
        self.decisions.append((seat, exchange))
        self.version += 1
        events: list[Event] = [Decided(seat, exchange)]
        if seat == self.dealer:
            self.phase = Phase.PLAY
            self.play_start_hands = tuple(self.hands)
            exchangers = [s for s, x in self.decisions if x]
            if not exchangers:
                leader = (self.dealer + 1) % N_SEATS
            elif self.options.lead_after_exchange is LeadAfterExchange.LAST_EXCHANGER:
                leader = exchangers[-1]
            else:
                leader = (exchangers[-1] + 1) % N_SEATS
            self.leader = self.to_act = leader
            events.append(PlayStarted(leader))
        else:
            self.to_act = (seat + 1) % N_SEATS
        return tuple(events)

    def _play(self, card: Card) -> Events:
        seat: int = self.to_act  # type: ignore[assignment]
        idx = card[0]  # card.index, read positionally on the hot path
        bit = 1 << idx
        hand = self.hands[seat]
        trick = self._trick
        legal = self._legal if self._legal_version == self.version else self.legal_mask()
        if not legal & bit:
            raise IllegalActionError(self.explain(card) or f"{card} is illegal")
        self.hands[seat] = hand ^ bit
        self.version += 1
        suit = idx // 13
        if not trick:
            self._led = suit
            self._winning = seat
            if suit == 0:
                self._top_club, self._top_led = idx, -1
                self.clubs_broken = True  # CW-2: a club led (only possible when the leader held only clubs)
            else:
                self._top_club, self._top_led = -1, idx
        elif suit == 0:
            if self._led:
                self.clubs_broken = True  # CW-2: a club played to a plain-suit trick breaks clubs
            if idx > self._top_club:
                self._top_club = idx
                self._winning = seat
        elif suit == self._led and self._top_club < 0 and idx > self._top_led:
            self._top_led = idx
            self._winning = seat
        trick.append(idx)
        played = _new_tuple(CardPlayed, (seat, card))  # CardPlayed(seat, card) without the Python-level __new__
        if len(trick) < N_SEATS:
            self.to_act = _NEXT[seat]
            return (played,)
        winner = self._winning
        self.tricks_won[winner] += 1
        cards = tuple(trick)
        self.tricks.append((self.leader, cards, winner))
        self._trick = []
        self.leader = self.to_act = winner
        taken = _new_tuple(TrickTaken, (winner, len(self.tricks), tuple(map(CARD_TABLE.__getitem__, cards))))
        if len(self.tricks) < HAND_SIZE:
            return (played, taken)
        self.scores = tuple(t - QUOTA for t in self.tricks_won)
        self.to_act = None
        self.phase = Phase.OVER
        return (played, taken, HandScored(tuple(self.tricks_won), self.scores, ()))

    def action_log(self) -> list[WhistAction]:
        """Every action applied to this hand, in order (the record of the hand)."""
        log: list[WhistAction] = [Decision.EXCHANGE if x else Decision.KEEP for _, x in self.decisions]
        for _, cards, _ in self.tricks:
            log.extend(card_at(c) for c in cards)
        log.extend(card_at(c) for c in self._trick)
        return log

    def summary(self) -> JsonObject:
        """A JSON-ready account of the hand: dealer, exchanges, leader, tricks, scores."""
        return {
            "dealer": self.dealer,
            "exchanged": [s for s, x in self.decisions if x],
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores) if self.scores is not None else None,
            "complete": self.scores is not None,
        }

    def clone(self) -> WhistHand:
        """An independent copy (for search): every mutable container copied, immutable values shared
        (:func:`clubsuite.copying.clone_state`, so a field added later is copied without being listed)."""
        return clone_state(self)


_new_set = int.__new__
_follow_mask = rules.follow_mask
_lead_mask = rules.lead_mask
_PLAY = Phase.PLAY
_new_tuple = tuple.__new__
_NEXT = (1, 2, 0)
