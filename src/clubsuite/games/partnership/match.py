"""A match of Clubs (partnership): hands dealt in turn to the left until a partnership reaches the target (CP-4)."""

from __future__ import annotations

import random
from typing import ClassVar, Self

from clubsuite.cards import STANDARD, CardSet
from clubsuite.engine import Events, Phase
from clubsuite.errors import InvalidDealError, InvalidNotationError
from clubsuite.events import Event
from clubsuite.games.partnership import sampling
from clubsuite.games.partnership.deal import N_SEATS, PartnershipDeal
from clubsuite.games.partnership.events import HandScored, HandStarted, MatchEnded, PlayStarted
from clubsuite.games.partnership.hand import (
    TEAMS,
    PartnershipAction,
    PartnershipHand,
    Pass,
    PassChoices,
    pass_direction,
)
from clubsuite.games.partnership.options import PartnershipOptions
from clubsuite.games.partnership.reasons import (
    NOT_AN_ACTION,
    PASS_CARD_TWICE,
    PASS_NAMES_NO_CARDS,
    PASS_WORD_NOT_A_CARD,
)
from clubsuite.games.partnership.view import PartnershipView
from clubsuite.jsonform import JsonObject
from clubsuite.match_base import MatchBase
from clubsuite.native import compiled_match_class, match_class_for
from clubsuite.reasons import Reason
from clubsuite.safetext import quoted

GAME = "partnership"
CORE = "clubsuite.games.partnership._core"
"""The compiled kernel's module (the compiled hand and match paths are in it)."""
_PLAY = Phase.PLAY
_new_set = int.__new__


class PartnershipMatch(
    MatchBase[PartnershipHand, PartnershipView, PartnershipDeal, PartnershipAction, PartnershipOptions]
):
    """A whole match: the sequence of hands, the partnerships' totals and the end condition (CP-4).

    Usage: ``deal()`` (with an RNG or an explicit :class:`PartnershipDeal`) starts each hand; then ``to_act``,
    ``legal_actions()`` and ``apply()`` until the hand is scored; repeat until ``is_over``. The totals are kept by
    seat like every game's, both partners carrying their partnership's total; :attr:`team_totals` gives the two.
    """

    game = GAME
    hand_class: ClassVar[type[PartnershipHand]] = PartnershipHand
    """The class of this match's hands: the engine's (the compiled match class has compiled ones)."""
    teams = TEAMS
    """The partnerships as seat tuples: partners sit opposite."""
    options: PartnershipOptions

    def __init__(self, options: PartnershipOptions | None = None, first_dealer: int = 0) -> None:
        super().__init__(options or PartnershipOptions(), first_dealer, N_SEATS)

    def _make_view(self, seat: int) -> PartnershipView:
        return PartnershipView(self, seat)

    def _random_deal(self, rng: random.Random, dealer: int) -> PartnershipDeal:
        return PartnershipDeal.random(rng, dealer)

    def _new_hand(self, deal: object, dealer: int) -> PartnershipHand:
        if not isinstance(deal, PartnershipDeal):
            raise InvalidDealError(f"deal() needs a PartnershipDeal, got {type(deal).__name__}")
        # CP-2: the pass cycle counts from the first hand of the game; this hand's index is the hands dealt so far.
        return self.hand_class(deal, dealer, pass_direction(len(self.hands)))

    def _restarted(self, hand: PartnershipHand) -> PartnershipHand:
        return self.hand_class(hand.deal, hand.dealer, hand.direction)

    def _hand_started(self, index: int, dealer: int) -> HandStarted:
        return HandStarted(index, dealer, pass_direction(index).value)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A clone in which every card ``seat`` cannot see is drawn again (see :meth:`MatchBase.determinize`).

        Hidden from ``seat``: the other three hands, except the three cards it passed, which it knows the receiver
        holds until they are played (CP-2). They are drawn with
        :func:`~clubsuite.games.partnership.sampling.sample_hidden`, exactly uniformly among the placements that
        respect the hand sizes, every suit a seat has shown it lacks, and the seat's own pass; the passes it took no
        part in are then drawn (three cards of what the receiver held when play began, uniformly) to make a whole
        history, on which every public action is replayed.
        """
        return super().determinize(seat, rng)

    def _determinized_hand(self, seat: int, rng: random.Random) -> PartnershipHand:
        return sampling.determinize(self.view(seat), rng)

    def deal(self, rng: random.Random | None = None, deal: object = None) -> Events:
        """Start the next hand; in a no-pass hand (CP-2) play starts at once and the events say who leads."""
        events = super().deal(rng, deal)
        cur = self._cur
        if cur is not None and cur.phase is _PLAY:
            return (*events, PlayStarted(cur.leader))
        return events

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def team_totals(self) -> tuple[int, int]:
        """The totals of partnership 0 (seats 0 and 2) and partnership 1 (seats 1 and 3)."""
        return (self.totals[0], self.totals[1])

    def legal_actions(self) -> CardSet | PassChoices | tuple[()]:
        """The legal actions of the seat to act (empty between hands)."""
        cur = self._cur
        if cur is None:
            return ()
        if cur.phase is _PLAY:  # the common case, one call shorter
            return _new_set(CardSet, cur.legal_mask())
        return cur.legal_actions()

    def _score(self, hand: PartnershipHand) -> Events:
        assert hand.scores is not None and hand.team_scores is not None
        for s in range(N_SEATS):
            self.totals[s] += hand.scores[s]
        self.hand_scores.append(hand.scores)
        totals = tuple(self.totals)
        events: list[Event] = [HandScored(tuple(hand.tricks_won), hand.scores, totals, hand.team_scores)]
        # CP-4: checked after every hand; once a partnership is at the target, the higher total wins; an exact
        # tie plays another hand.
        team = self.team_totals
        if max(team) >= self.options.target and team[0] != team[1]:
            self._over = True
            self.winners = TEAMS[0] if team[0] > team[1] else TEAMS[1]
            events.append(MatchEnded(self.winners, False, totals))
        return tuple(events)

    def summary(self) -> JsonObject:
        """A JSON-ready account of the match so far, with the partnerships' totals (CP-3, CP-4)."""
        out = super().summary()
        out["team_totals"] = list(self.team_totals)
        return out

    # -- notation --------------------------------------------------------------------------------------
    @staticmethod
    def parse_action(text: str) -> PartnershipAction:
        """Read an action: a card such as ``10H``, or ``pass`` and three cards such as ``pass 2C 7H QS``.

        Several cards without ``pass`` are read as a pass too. How many cards a pass must name is a rule (CP-2),
        checked when it is applied, so ``pass 2C`` is read and then refused with the reason.
        """
        words = text.replace(",", " ").split()
        shown = text.strip()
        if not words:
            raise InvalidNotationError(Reason(NOT_AN_ACTION, text=quoted(shown)))
        head = words[0].lower()
        if head in ("pass", "p"):
            words = words[1:]
            if not words:
                raise InvalidNotationError(Reason(PASS_NAMES_NO_CARDS, text=quoted(shown)))
        elif len(words) == 1:
            try:
                return STANDARD.parse(words[0])
            except InvalidNotationError:
                raise InvalidNotationError(Reason(NOT_AN_ACTION, text=quoted(shown))) from None
        mask = 0
        for word in words:
            try:
                c = STANDARD.parse(word)
            except InvalidNotationError:
                raise InvalidNotationError(
                    Reason(PASS_WORD_NOT_A_CARD, text=quoted(shown), word=quoted(word))
                ) from None
            if mask >> c.index & 1:
                raise InvalidNotationError(Reason(PASS_CARD_TWICE, text=quoted(shown), card=str(c)))
            mask |= c.bit
        return Pass(CardSet(mask))


CompiledPartnershipMatch: type[PartnershipMatch] | None = compiled_match_class(CORE, PartnershipMatch)
"""PartnershipMatch with the compiled core's hot paths (compiled hands; ``apply``, ``legal_actions``, ``view``
and ``to_act`` in C for the common case), None where the kernel is not built; kept here so that its matches
pickle."""


def match_type() -> type[PartnershipMatch]:
    """The class a new match is made of: the compiled one where the kernel is built, unless ``CLUBS_PURE_PYTHON`` is
    set (:func:`clubsuite.native.match_class_for`)."""
    return match_class_for(PartnershipMatch, CompiledPartnershipMatch)
