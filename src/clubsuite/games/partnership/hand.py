"""One hand of Clubs (partnership): the three-card pass (CP-2), trick play (CP-1) and the partnership score (CP-3).

Hands are bit masks and the trick is updated card by card, so legality is a few integer operations. ``apply``
checks everything before it changes anything: an illegal action raises and leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from itertools import combinations
from math import comb
from typing import NamedTuple

from clubsuite.cards import CARD_TABLE, CLUBS_MASK, FULL_STANDARD, SUIT_MASKS, Card, CardSet, card_at, iter_bits
from clubsuite.copying import clone_state
from clubsuite.engine import Events, Phase
from clubsuite.errors import GameOverError, IllegalActionError, InvalidOptionsError, NotYourTurnError
from clubsuite.games.partnership import reasons
from clubsuite.games.partnership.deal import HAND_SIZE, N_SEATS, PartnershipDeal
from clubsuite.games.partnership.events import CardPlayed, CardsPassed, HandScored, PassChosen, PlayStarted, TrickTaken
from clubsuite.jsonform import JsonObject
from clubsuite.reasons import HAND_OVER, NOT_HELD, Reason, cards_param, not_your_turn

PASS_SIZE = 3
"""Cards each player passes (CP-2)."""
RUBY_DAME = 1 * 13 + 12 - 2
"""The card index of the queen of diamonds, the Ruby Dame."""
RUBY_DAME_POINTS = 5
"""What taking the queen of diamonds is worth (CP-3)."""
SWEEP_BONUS = 5
"""The bonus for a partnership that takes all 13 tricks, and so every point (CP-3)."""
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""The partnerships: partners sit opposite each other."""


class PartnershipPhase(StrEnum):
    """The phase of a partnership hand beside the shared ones (:class:`~clubsuite.engine.Phase`)."""

    PASS = "pass"
    """Each player chooses three cards to pass (CP-2)."""


class Direction(StrEnum):
    """Where the passed cards go in a hand (CP-2)."""

    LEFT = "left"
    RIGHT = "right"
    NONE = "none"


CYCLE = (Direction.LEFT, Direction.RIGHT, Direction.NONE)
"""The pass directions of hands 0, 1, 2 of the game, repeating (CP-2)."""


def pass_direction(hand_index: int) -> Direction:
    """The pass direction of hand ``hand_index`` (0 for the first hand of the game): left, right, none, ... (CP-2)."""
    return CYCLE[hand_index % len(CYCLE)]


def receiver(seat: int, direction: Direction) -> int:
    """The seat that receives ``seat``'s cards: the left neighbour is the next seat clockwise (``seat + 1``)."""
    if direction is Direction.LEFT:
        return (seat + 1) % N_SEATS
    if direction is Direction.RIGHT:
        return (seat - 1) % N_SEATS
    return seat


def giver(seat: int, direction: Direction) -> int:
    """The seat whose cards ``seat`` receives."""
    if direction is Direction.LEFT:
        return (seat - 1) % N_SEATS
    if direction is Direction.RIGHT:
        return (seat + 1) % N_SEATS
    return seat


def team_of(seat: int) -> int:
    """The partnership of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


class Pass(NamedTuple):
    """A player's pass: the three cards it gives to its neighbour (CP-2). Notation ``pass 2C 7H QS``."""

    cards: CardSet

    def __str__(self) -> str:
        return f"pass {self.cards}" if self.cards else "pass"


PartnershipAction = Card | Pass


class PassChoices:
    """The legal passes of a hand: every set of three of its cards, without building the 286 of them.

    Supports ``in``, ``len``, iteration and indexing (in the order of :func:`itertools.combinations` over the
    cards in index order), like every game's legal actions.
    """

    __slots__ = ("_cards", "hand")

    def __init__(self, hand: int) -> None:
        self.hand = hand
        """The mask of the cards the choice is made from."""
        self._cards = tuple(iter_bits(hand))

    def __len__(self) -> int:
        return comb(len(self._cards), PASS_SIZE)

    def __contains__(self, item: object) -> bool:
        return (
            isinstance(item, Pass)
            and isinstance(item.cards, int)
            and int(item.cards).bit_count() == PASS_SIZE
            and not int(item.cards) & ~self.hand
        )

    def __iter__(self) -> Iterator[Pass]:
        new = CardSet.from_mask
        for a, b, c in combinations(self._cards, PASS_SIZE):
            yield Pass(new(1 << a | 1 << b | 1 << c))

    def __getitem__(self, index: int) -> Pass:
        """The ``index``-th pass (negative from the end), found by counting combinations, not listing them."""
        total = len(self)
        asked = index
        if index < 0:
            index += total
        if not 0 <= index < total:
            raise IndexError(f"pass choice {asked} out of range for {total} choices")
        n, mask, start = len(self._cards), 0, 0
        for left in range(PASS_SIZE, 0, -1):
            pos = start
            while True:
                block = comb(n - pos - 1, left - 1)  # the choices whose next card is at ``pos``
                if index < block:
                    break
                index -= block
                pos += 1
            mask |= 1 << self._cards[pos]
            start = pos + 1
        return Pass(CardSet.from_mask(mask))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PassChoices) and other.hand == self.hand

    def __hash__(self) -> int:
        return hash(("PassChoices", self.hand))

    def __repr__(self) -> str:
        return f"<PassChoices: any 3 of {CardSet(self.hand)}>"


class ScoreLine(NamedTuple):
    """A partnership's points in one hand, by source (CP-3)."""

    tricks: int
    """One point per trick."""
    clubs: int
    """One point per club taken."""
    ruby_dame: int
    """Five for the queen of diamonds, or 0."""
    sweep: int
    """Five for taking all 13 tricks, or 0."""

    @property
    def total(self) -> int:
        """The partnership's points."""
        return self.tricks + self.clubs + self.ruby_dame + self.sweep


def score_lines(tricks_won: list[int] | tuple[int, ...], taken: list[int] | tuple[int, ...]) -> tuple[ScoreLine, ...]:
    """Each partnership's points from the tricks each seat won and the cards each seat took (CP-3)."""
    lines = []
    for team in TEAMS:
        tricks = sum(tricks_won[s] for s in team)
        cards = 0
        for s in team:
            cards |= taken[s]
        lines.append(
            ScoreLine(
                tricks,
                (cards & CLUBS_MASK).bit_count(),
                RUBY_DAME_POINTS if cards >> RUBY_DAME & 1 else 0,
                SWEEP_BONUS if tricks == HAND_SIZE else 0,
            )
        )
    return tuple(lines)


_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


class PartnershipHand:
    """The state of one hand, from the deal to the score."""

    __slots__ = (
        "_led",
        "_top",
        "_trick",
        "_winning",
        "deal",
        "dealer",
        "direction",
        "hands",
        "leader",
        "pass_choices",
        "passed",
        "phase",
        "play_start_hands",
        "scores",
        "taken",
        "team_scores",
        "to_act",
        "tricks",
        "tricks_won",
    )

    def __init__(self, deal: PartnershipDeal, dealer: int = 0, direction: Direction = Direction.LEFT) -> None:
        if type(dealer) is not int or not 0 <= dealer < N_SEATS:
            raise InvalidOptionsError(f"dealer {dealer!r} is not a seat: expected 0, 1, 2 or 3")
        self.deal = deal
        self.dealer = dealer
        self.direction = Direction(direction)
        self.hands: list[int] = [int(h) for h in deal.hands]
        """Each seat's cards as a mask: hidden information, and read-only outside this class."""
        self.pass_choices: dict[int, int] = {}
        """The cards each seat chose to pass, in the order chosen; nothing moves until all four chose (CP-2)."""
        self.passed: tuple[int, ...] = ()
        """Once the cards moved: the cards each seat gave, by seat (empty before, and in a no-pass hand)."""
        self.play_start_hands: tuple[int, ...] = ()
        self.leader = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        """Completed tricks: (leader, card indices in play order, winner)."""
        self.tricks_won = [0, 0, 0, 0]
        self.taken = [0, 0, 0, 0]
        """The cards of the tricks each seat won, as masks (public: tricks are turned face up as they are won)."""
        self.scores: tuple[int, ...] | None = None
        self.team_scores: tuple[int, int] | None = None
        self._trick: list[int] = []
        self._led = -1
        self._top = -1
        self._winning = -1
        self.to_act: int | None = (dealer + 1) % N_SEATS
        if self.direction is Direction.NONE:
            self._start_play()
        else:
            self.phase: Phase | PartnershipPhase = PartnershipPhase.PASS

    def _start_play(self) -> None:
        # CP-1: the player at the dealer's left leads the first trick, after the pass.
        self.phase = Phase.PLAY
        self.play_start_hands = tuple(self.hands)
        self.leader = self.to_act = (self.dealer + 1) % N_SEATS

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

    @property
    def winning(self) -> int:
        """The seat winning the trick in progress so far (-1 when no card is on the table)."""
        return self._winning if self._trick else -1

    def hand_of(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (hidden information: for the engine, views and tests only)."""
        return CardSet(self.hands[seat])

    def legal_mask(self) -> int:
        """The cards the seat to act may play (play phase only): the one place legality of a card is computed.

        Any card may be led (CP-1); a follower plays a card of the suit led if it holds one, else anything.
        """
        hand = self.hands[self.to_act]  # type: ignore[index]
        if self._trick:
            return (hand & SUIT_MASKS[self._led]) or hand
        return hand

    def legal_actions(self) -> CardSet | PassChoices | tuple[()]:
        """The legal actions of the seat to act: any three cards in the pass, a :class:`CardSet` in play."""
        if self.phase is Phase.PLAY:
            return CardSet.from_mask(self.legal_mask())
        if self.phase is PartnershipPhase.PASS:
            return PassChoices(self.hands[self.to_act])  # type: ignore[index]
        return ()

    def explain(self, action: object) -> Reason | None:
        """Why ``action`` is illegal now, or None if it is legal. Never changes the state."""
        if self.scores is not None:
            return Reason(HAND_OVER, action=str(action))
        seat = self.to_act
        assert seat is not None
        if self.phase is PartnershipPhase.PASS:
            return self._explain_pass(seat, action)
        if not isinstance(action, Card):
            if isinstance(action, Pass):
                kind = reasons.NO_PASS_THIS_HAND if self.direction is Direction.NONE else reasons.PASS_IS_OVER
                return Reason(kind, action=str(action), seat=seat)
            return Reason(reasons.NOT_A_CARD, action=str(action), seat=seat)
        if self.legal_mask() & 1 << action.index:
            return None
        return self._refuse_card(seat, action)

    def _refuse_card(self, seat: int, card: Card) -> Reason:
        """Why ``card``, which is not among the legal cards of ``seat`` (to act, in play), is refused."""
        hand = self.hands[seat]
        if not hand >> card.index & 1:
            return Reason(NOT_HELD, card=str(card))
        follow = cards_param(CardSet(hand & SUIT_MASKS[self._led]))
        return Reason(reasons.MUST_FOLLOW, card=str(card), led_suit=_SUIT_NAMES[self._led], legal_cards=follow)

    def _explain_pass(self, seat: int, action: object) -> Reason | None:
        if not isinstance(action, Pass):
            # In the pass phase the direction is left or right: a no-pass hand starts in play (CP-2).
            kind = reasons.NOT_A_PASS_LEFT if self.direction is Direction.LEFT else reasons.NOT_A_PASS_RIGHT
            return Reason(kind, action=str(action), seat=seat, to_seat=receiver(seat, self.direction))
        if type(action.cards) is not CardSet and (not isinstance(action.cards, int) or isinstance(action.cards, bool)):
            return Reason(reasons.PASS_NOT_A_SET, action=repr(action))
        mask = int(action.cards)
        if mask < 0 or mask & ~FULL_STANDARD:
            return Reason(reasons.PASS_OFF_DECK, action=repr(action))
        n = mask.bit_count()
        if n != PASS_SIZE:
            return Reason(reasons.PASS_NOT_THREE, action=str(action), count=n)
        missing = CardSet(mask & ~self.hands[seat])
        if missing:
            return Reason(
                reasons.PASS_NOT_HELD,
                action=str(action),
                missing_cards=cards_param(missing),
                missing_count=len(missing),
            )
        return None

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply the action of the seat to act (``seat``, if given, must be that seat) and return the events."""
        if self.scores is not None:
            raise GameOverError(Reason(HAND_OVER, action=str(action)))
        if seat is not None and seat != self.to_act:
            raise NotYourTurnError(not_your_turn(seat, action, self.to_act))
        if self.phase is Phase.PLAY and action.__class__ is Card:
            return self._play(action)
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        assert isinstance(action, Pass)
        return self._choose_pass(int(action.cards))

    def _choose_pass(self, mask: int) -> Events:
        seat = self.to_act
        assert seat is not None
        self.pass_choices[seat] = mask
        chosen = PassChosen(seat)
        if len(self.pass_choices) < N_SEATS:
            self.to_act = (seat + 1) % N_SEATS
            return (chosen,)
        # CP-2: all four chose before any card moves; then every player's three cards go at once.
        for s, given in self.pass_choices.items():
            self.hands[s] &= ~given
        for s, given in self.pass_choices.items():
            self.hands[receiver(s, self.direction)] |= given
        self.passed = tuple(self.pass_choices[s] for s in range(N_SEATS))
        self._start_play()
        return (chosen, CardsPassed(self.direction.value), PlayStarted(self.leader))

    def _play(self, card: Card) -> Events:
        seat: int = self.to_act  # type: ignore[assignment]
        idx = card[0]  # card.index, read positionally on the hot path
        bit = 1 << idx
        if not self.legal_mask() & bit:
            raise IllegalActionError(self._refuse_card(seat, card))
        self.hands[seat] ^= bit
        trick = self._trick
        suit = idx // 13
        if not trick:
            self._led, self._top, self._winning = suit, idx, seat
        else:
            # CP-1: the highest club wins; with no club, the highest card of the suit led.
            top = self._top
            if (suit == 0 and (top >= 13 or idx > top)) or (suit == self._led and top // 13 == suit and idx > top):
                self._top, self._winning = idx, seat
        trick.append(idx)
        played = _new_tuple(CardPlayed, (seat, card))
        if len(trick) < N_SEATS:
            self.to_act = (seat + 1) % N_SEATS
            return (played,)
        winner = self._winning
        self.tricks_won[winner] += 1
        cards = tuple(trick)
        for c in cards:
            self.taken[winner] |= 1 << c
        self.tricks.append((self.leader, cards, winner))
        self._trick = []
        self.leader = self.to_act = winner
        taken = _new_tuple(TrickTaken, (winner, len(self.tricks), tuple(map(CARD_TABLE.__getitem__, cards))))
        if len(self.tricks) < HAND_SIZE:
            return (played, taken)
        lines = score_lines(self.tricks_won, self.taken)
        team = (lines[0].total, lines[1].total)
        self.team_scores = team
        self.scores = (team[0], team[1], team[0], team[1])
        self.to_act = None
        self.phase = Phase.OVER
        return (played, taken, HandScored(tuple(self.tricks_won), self.scores, (), team))

    # -- records ---------------------------------------------------------------------------------------
    def action_log(self) -> list[PartnershipAction]:
        """Every action applied to this hand, in order (the record of the hand): the passes, then the cards."""
        log: list[PartnershipAction] = [Pass(CardSet(m)) for m in self.pass_choices.values()]
        for _, cards, _ in self.tricks:
            log.extend(card_at(c) for c in cards)
        log.extend(card_at(c) for c in self._trick)
        return log

    def score_lines(self) -> tuple[ScoreLine, ...]:
        """Each partnership's points so far by source (CP-3); final once the hand is over."""
        return score_lines(self.tricks_won, self.taken)

    def summary(self) -> JsonObject:
        """A JSON-ready account of the hand: dealer, pass direction, tricks, points by source, scores."""
        lines = self.score_lines()
        return {
            "dealer": self.dealer,
            "pass": self.direction.value,
            "tricks_won": list(self.tricks_won),
            "team_points": [line._asdict() | {"total": line.total} for line in lines],
            "scores": list(self.scores) if self.scores is not None else None,
            "team_scores": list(self.team_scores) if self.team_scores is not None else None,
            "complete": self.scores is not None,
        }

    def clone(self) -> PartnershipHand:
        """An independent copy (for search and perft): every mutable container copied, immutable values shared
        (:func:`clubsuite.copying.clone_state`, so a field added later is copied without being listed)."""
        return clone_state(self)


_new_tuple = tuple.__new__
