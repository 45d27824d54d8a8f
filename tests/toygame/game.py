"""The rules of High Card: options, deal, hand, match and view."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from clubsuite.cards import STANDARD, Card, CardSet
from clubsuite.copying import clone_state
from clubsuite.engine import Phase
from clubsuite.errors import IllegalActionError, InvalidDealError, InvalidNotationError, InvalidOptionsError
from clubsuite.events import CardPlayed, Event, HandStarted, MatchEnded, TrickTaken
from clubsuite.match_base import MatchBase
from clubsuite.options import option
from clubsuite.safetext import quoted
from clubsuite.seeding import shuffled
from clubsuite.view_base import ViewBase

PACK = STANDARD.parse_set("AC KC QC JC AH KH QH JH")
CARDS = tuple(sorted(PACK, key=lambda c: c.index))
"""Eight cards: three for each seat and two that nobody sees, so a seat never knows the other's hand for sure."""


@dataclass(frozen=True, kw_only=True)
class HighCardOptions:
    """The options of High Card."""

    target: int = option(5, "the points that win the match", "")

    def __post_init__(self) -> None:
        if type(self.target) is not int or not 1 <= self.target <= 100:
            raise InvalidOptionsError(f"option target={self.target!r}: expected 1 to 100")


@dataclass(frozen=True)
class HighCardDeal:
    """Three cards for each of the two seats; the other two stay face down."""

    hands: tuple[CardSet, CardSet]

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 0) -> HighCardDeal:
        order = shuffled(len(CARDS), random.Random(seed))
        return cls((CardSet(CARDS[i] for i in order[:3]), CardSet(CARDS[i] for i in order[3:6])))

    def to_json(self) -> dict[str, Any]:
        return {"hands": [str(h) for h in self.hands]}

    @classmethod
    def from_json(cls, data: Any) -> HighCardDeal:
        if not isinstance(data, dict) or set(data) != {"hands"} or not isinstance(data["hands"], list):
            raise InvalidDealError('a High Card deal is {"hands": [two hands of three cards]}')
        try:
            hands = [STANDARD.parse_set(h) for h in data["hands"] if isinstance(h, str)]
        except InvalidNotationError as exc:
            raise InvalidDealError(f"in the deal: {exc}") from None
        if len(hands) != 2 or any(len(h) != 3 or not h.issubset(PACK) for h in hands) or hands[0] & hands[1]:
            raise InvalidDealError(
                "a High Card deal gives three different cards of AC KC QC JC AH KH QH JH to each seat"
            )
        return cls((hands[0], hands[1]))


class HandScored(Event):
    """A hand ended: the tricks each seat won are its points."""

    wire: ClassVar[str] = "HandScored"

    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class HighCardHand:
    """One hand: three tricks."""

    def __init__(self, deal: HighCardDeal, dealer: int) -> None:
        self.deal = deal
        self.dealer = dealer
        self.hands = [int(h) for h in deal.hands]
        self.trick: list[tuple[int, Card]] = []
        self.tricks_won = [0, 0]
        self.log: list[Card] = []
        self.players: list[int] = []
        """The seat that played each card of ``log``."""
        self.to_act: int | None = 1 - dealer
        self.scores: tuple[int, ...] | None = None

    @property
    def phase(self) -> Phase:
        return Phase.PLAY if self.scores is None else Phase.OVER

    @property
    def is_over(self) -> bool:
        return self.scores is not None

    def action_log(self) -> list[Card]:
        return list(self.log)

    def legal(self) -> CardSet:
        if self.to_act is None:
            return CardSet()
        held = CardSet(self.hands[self.to_act])
        if self.trick:
            suit = CardSet(c for c in held if c.suit == self.trick[0][1].suit)
            return suit or held
        return held

    def explain(self, action: Any) -> str | None:
        if not isinstance(action, Card):
            return f"{action} is not a card"
        if action not in CardSet(self.hands[self.to_act or 0]):
            return f"{action} is not in your hand"
        if action not in self.legal():
            return f"{action} is illegal: you must follow the suit led ({self.trick[0][1]})"
        return None

    def apply(self, action: Any, seat: int | None = None) -> tuple[Any, ...]:
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        assert self.to_act is not None
        mover = self.to_act
        self.hands[mover] &= ~(1 << action.index)
        self.log.append(action)
        self.players.append(mover)
        self.trick.append((mover, action))
        events: list[Any] = [CardPlayed(mover, action)]
        if len(self.trick) < 2:
            self.to_act = 1 - mover
            return tuple(events)
        led = self.trick[0][1].suit
        winner = max((c.rank, s) for s, c in self.trick if c.suit == led)[1]
        self.tricks_won[winner] += 1
        events.append(TrickTaken(winner, len(self.log) // 2, tuple(c for _, c in self.trick)))
        self.trick = []
        self.to_act = winner
        if len(self.log) == 6:
            self.to_act = None
            self.scores = tuple(self.tricks_won)
            events.append(HandScored(self.scores, self.scores, self.scores))
        return tuple(events)

    def clone(self) -> HighCardHand:
        return clone_state(self)

    def summary(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "tricks_won": list(self.tricks_won), "scores": self.scores}


class HighCardView(ViewBase[HighCardHand]):
    """What one seat sees: its cards, the trick on the table and the totals."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        hands = self._match.hands
        cur = hands[-1] if hands else None
        return {
            "seat": self.seat,
            "hand": str(CardSet(cur.hands[self.seat])) if cur else "",
            "trick": [[s, str(c)] for s, c in cur.trick] if cur else [],
            "totals": list(self.totals),
        }


class HighCardMatch(MatchBase[HighCardHand, HighCardView, HighCardDeal, Card, HighCardOptions]):
    """A match of High Card."""

    game = "highcard"
    options: HighCardOptions

    def __init__(self, options: HighCardOptions | None = None, first_dealer: int = 0) -> None:
        super().__init__(options or HighCardOptions(), first_dealer, 2)

    def _make_view(self, seat: int) -> HighCardView:
        return HighCardView(self, seat)

    def _random_deal(self, rng: random.Random, dealer: int) -> HighCardDeal:
        return HighCardDeal.from_seed(rng.getrandbits(63), dealer)

    def _new_hand(self, deal: HighCardDeal, dealer: int) -> HighCardHand:
        if not isinstance(deal, HighCardDeal):
            raise InvalidDealError(f"deal() needs a HighCardDeal, got {type(deal).__name__}")
        return HighCardHand(deal, dealer)

    def _hand_started(self, index: int, dealer: int) -> HandStarted:
        return HandStarted(index, dealer)

    def _determinized_hand(self, seat: int, rng: random.Random) -> HighCardHand:
        # The other seat holds as many of the cards ``seat`` has not seen as it has left, every choice as likely.
        cur = self._cur
        assert cur is not None
        other = 1 - seat
        seen = cur.hands[seat] | sum(1 << c.index for c in cur.log)
        unseen = sorted(c.index for c in PACK if not seen >> c.index & 1)
        drawn = sum(1 << i for i in rng.sample(unseen, cur.hands[other].bit_count()))
        hand = clone_state(cur)
        hand.hands[other] = drawn
        played = [sum(1 << c.index for s, c in zip(cur.players, cur.log, strict=True) if s == p) for p in (0, 1)]
        dealt = [CardSet(hand.hands[p] | played[p]) for p in (0, 1)]
        hand.deal = HighCardDeal((dealt[0], dealt[1]))
        return hand

    def legal_actions(self) -> CardSet:
        cur = self._cur
        return cur.legal() if cur is not None else CardSet()

    def _score(self, hand: HighCardHand) -> tuple[Any, ...]:
        assert hand.scores is not None
        for s in range(2):
            self.totals[s] += hand.scores[s]
        self.hand_scores.append(hand.scores)
        totals = tuple(self.totals)
        events: list[Any] = [HandScored(tuple(hand.tricks_won), hand.scores, totals)]
        best = max(totals)
        if best >= self.options.target and totals.count(best) == 1:
            self._over = True
            self.winners = (totals.index(best),)
            events.append(MatchEnded(self.winners, False, totals))
        return tuple(events)

    def parse_action(self, text: str) -> Card:
        try:
            return STANDARD.parse(text)
        except InvalidNotationError:
            raise InvalidNotationError(f"{quoted(text.strip())} is not a card such as KH") from None
