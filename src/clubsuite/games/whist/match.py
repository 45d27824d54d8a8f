"""A match of Clubs (whist group): hands dealt in turn to the left until a player reaches the target (CW-5)."""

from __future__ import annotations

import random
from typing import ClassVar, Self

from clubsuite.cards import STANDARD, Card, CardSet
from clubsuite.engine import Events, Phase
from clubsuite.errors import (
    GameOverError,
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
)
from clubsuite.events import Event
from clubsuite.games.whist import sampling
from clubsuite.games.whist.deal import N_SEATS, WhistDeal
from clubsuite.games.whist.events import HandScored, HandStarted, MatchEnded
from clubsuite.games.whist.hand import Decision, WhistAction, WhistHand
from clubsuite.games.whist.options import WhistOptions
from clubsuite.games.whist.reasons import NOT_AN_ACTION
from clubsuite.games.whist.view import WhistView
from clubsuite.match_base import MatchBase
from clubsuite.native import compiled_match_class, match_class_for
from clubsuite.reasons import MATCH_OVER, NO_HAND, Reason
from clubsuite.safetext import quoted

GAME = "whist"
CORE = "clubsuite.games.whist._core"
"""The compiled kernel's module (the compiled hand and match paths are in it)."""

_PLAY = Phase.PLAY
_new_set = int.__new__


class WhistMatch(MatchBase[WhistHand, WhistView, WhistDeal, WhistAction, WhistOptions]):
    """A whole match: the sequence of hands, the running totals and the end condition.

    Usage: ``deal()`` (with an RNG or an explicit :class:`WhistDeal`) starts each hand; then ``to_act``,
    ``legal_actions()`` and ``apply()`` until the hand is scored; repeat until ``is_over``.
    """

    game = GAME
    hand_class: ClassVar[type[WhistHand]] = WhistHand
    """The class of this match's hands: the engine's (the compiled match class has compiled ones)."""
    options: WhistOptions

    def __init__(self, options: WhistOptions | None = None, first_dealer: int = 0) -> None:
        super().__init__(options or WhistOptions(), first_dealer, N_SEATS)

    def _make_view(self, seat: int) -> WhistView:
        return WhistView(self, seat)

    def _random_deal(self, rng: random.Random, dealer: int) -> WhistDeal:
        return WhistDeal.random(rng, dealer)

    def _new_hand(self, deal: object, dealer: int) -> WhistHand:
        if not isinstance(deal, WhistDeal):
            raise InvalidDealError(f"deal() needs a WhistDeal, got {type(deal).__name__}")
        return self.hand_class(deal, dealer, self.options)

    def _restarted(self, hand: WhistHand) -> WhistHand:
        return self.hand_class(hand.deal, hand.dealer, hand.options)

    def _hand_started(self, index: int, dealer: int) -> HandStarted:
        return HandStarted(index, dealer)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A clone in which every card ``seat`` cannot see is drawn again (see :meth:`MatchBase.determinize`).

        Hidden from ``seat``: the other two hands and the bid hand, except the cards it left in the middle by its own
        exchange, which it knows to be with the next exchanger or still in the bid hand (CW-4). They are drawn with
        :func:`~clubsuite.games.whist.sampling.sample_hidden`, exactly uniformly among the placements that respect
        the hand sizes, every void and failure to beat the play has shown (CW-1), a club led before clubs were broken
        (CW-2) and the seat's exchange (CW-4); the deal and the exchanges are then worked back from that placement
        and every public action is replayed on it.
        """
        return super().determinize(seat, rng)

    def _determinized_hand(self, seat: int, rng: random.Random) -> WhistHand:
        return sampling.determinize(self.view(seat), rng)

    # -- queries ---------------------------------------------------------------------------------------
    def legal_actions(self) -> CardSet | tuple[Decision, ...]:
        """The legal actions of the seat to act (empty between hands)."""
        cur = self._cur
        if cur is None:
            return ()
        if cur.phase is _PLAY:  # the common case, one call shorter
            return _new_set(CardSet, cur.legal_mask())
        return cur.legal_actions()

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action (or its notation, e.g. ``"10H"``, ``"keep"``) of the seat to act; returns the events.

        The state is unchanged if it raises.
        """
        # Notation is read here; a Decision is a str too, so only exact str is notation.
        act: WhistAction = self.parse_action(action) if type(action) is str else action  # type: ignore[assignment]
        cur = self._cur
        if cur is None:
            if self._over:
                raise GameOverError(Reason(MATCH_OVER, action=str(act)))
            raise IllegalActionError(Reason(NO_HAND, action=str(act)))
        if seat is None and act.__class__ is Card and cur.phase is _PLAY:
            # The hot path: the same checks as WhistHand.apply, without its dispatch.
            events = cur._play(act)
        else:
            events = cur.apply(act, seat)
        if cur.scores is None:
            return events
        self._cur = None
        return events[:-1] + self._score(cur)

    def _score(self, hand: WhistHand) -> Events:
        assert hand.scores is not None
        for s in range(N_SEATS):
            self.totals[s] += hand.scores[s]
        self.hand_scores.append(hand.scores)
        totals = tuple(self.totals)
        events: list[Event] = [HandScored(tuple(hand.tricks_won), hand.scores, totals)]
        # CW-5: checked after every hand; everyone at +target or more, or -target or less, wins;
        # all three at a target at once is a draw.
        target = self.options.target
        hit = tuple(s for s in range(N_SEATS) if abs(self.totals[s]) >= target)
        if hit:
            self._over = True
            self.draw = len(hit) == N_SEATS
            self.winners = () if self.draw else hit
            events.append(MatchEnded(self.winners, self.draw, totals))
        return tuple(events)

    # -- notation --------------------------------------------------------------------------------------
    @staticmethod
    def parse_action(text: str) -> WhistAction:
        """Read an action: ``keep``, ``exchange`` (or ``k``, ``x``) or a card such as ``10H``."""
        t = text.strip().lower()
        if t in ("keep", "k"):
            return Decision.KEEP
        if t in ("exchange", "x", "take", "bid"):
            return Decision.EXCHANGE
        try:
            return STANDARD.parse(text)
        except InvalidNotationError:
            raise InvalidNotationError(Reason(NOT_AN_ACTION, text=quoted(text.strip()))) from None

    @staticmethod
    def format_action(action: object) -> str:
        """The canonical notation of an action."""
        return str(action)

    def legal_notation(self) -> list[str]:
        """The legal actions in notation."""
        return [self.format_action(a) for a in self.legal_actions()]


CompiledWhistMatch: type[WhistMatch] | None = compiled_match_class(CORE, WhistMatch)
"""WhistMatch with the compiled core's hot paths (compiled hands; ``apply``, ``legal_actions``, ``view``
and ``to_act`` in C for the common case), None where the kernel is not built; kept here so that its matches
pickle."""


def match_type() -> type[WhistMatch]:
    """The class a new match is made of: the compiled one where the kernel is built, unless ``CLUBS_PURE_PYTHON`` is
    set (:func:`clubsuite.native.match_class_for`)."""
    return match_class_for(WhistMatch, CompiledWhistMatch)
