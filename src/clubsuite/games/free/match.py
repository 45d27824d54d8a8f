"""A match of Free Clubs: hands dealt in turn to the left until a total reaches the target, highest wins (FC-9)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Self

from clubsuite.cards import STANDARD_WITH_JOKERS, Card, CardSet
from clubsuite.engine import Events
from clubsuite.errors import (
    GameOverError,
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
)
from clubsuite.events import Event
from clubsuite.games.free import reasons, sampling
from clubsuite.games.free.deal import N_SEATS, FreeDeal
from clubsuite.games.free.events import HandRescored, HandScored, HandStarted, MatchEnded
from clubsuite.games.free.hand import Call, FreeAction, FreeHand, MisplayCall
from clubsuite.games.free.options import FreeOptions
from clubsuite.games.free.view import FreeView
from clubsuite.match_base import MatchBase
from clubsuite.reasons import MATCH_OVER, NO_HAND, Reason, reason_of
from clubsuite.safetext import quoted

GAME = "free"


class FreeMatch(MatchBase[FreeHand, FreeView, FreeDeal, "FreeAction | MisplayCall", FreeOptions]):
    """A whole match: the sequence of hands, the running totals and the end condition (FC-9).

    Usage: ``deal()`` (with an RNG or an explicit :class:`FreeDeal`) starts each hand; then ``to_act``,
    ``legal_actions()`` and ``apply()`` until the hand is scored; repeat until ``is_over``.
    """

    game = GAME
    options: FreeOptions

    def __init__(self, options: FreeOptions | None = None, first_dealer: int = 0) -> None:
        super().__init__(options or FreeOptions(), first_dealer, N_SEATS)

    def _make_view(self, seat: int) -> FreeView:
        return FreeView(self, seat)

    def _random_deal(self, rng: random.Random, dealer: int) -> FreeDeal:
        return FreeDeal.random(rng, dealer)

    def _new_hand(self, deal: object, dealer: int) -> FreeHand:
        if not isinstance(deal, FreeDeal):
            raise InvalidDealError(f"deal() needs a FreeDeal, got {type(deal).__name__}")
        return FreeHand(deal, dealer, self.options)

    def _restarted(self, hand: FreeHand) -> FreeHand:
        return FreeHand(hand.deal, hand.dealer, hand.options)

    def _hand_started(self, index: int, dealer: int) -> HandStarted:
        return HandStarted(index, dealer)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A clone in which every card ``seat`` cannot see is drawn again (see :meth:`MatchBase.determinize`).

        Hidden from ``seat``: the other seats' primary hands and unbid auction cards, the chest until the seat takes
        it (FC-5), the cards the other seats' handicaps discarded (FC-5), the auction cards that left play unbid, the
        cards passed between the two other seats (FC-2, FC-5), and in table mode whether another seat's card was a
        misplay (FC-10). :func:`~clubsuite.games.free.sampling.determinize` draws a placement with
        :func:`~clubsuite.games.free.sampling.sample_hidden` (exactly uniform among the placements the card-by-card
        constraints allow), works back to a deal, replays every action on it and keeps the state only if the seat's
        view of it is identical to the real one. The kept states are therefore close to uniform but not exactly: a
        placement that few drawn histories reach (a Queen's card, a Ten's choice) is kept less often. Raises
        :class:`~clubsuite.errors.ClubsError` where that sampler does (no consistent state found in its tries, or a
        misplay called in the hand in progress).
        """
        return super().determinize(seat, rng)

    def _determinized_hand(self, seat: int, rng: random.Random) -> FreeHand:
        return sampling.determinize(self.view(seat), rng)

    # -- queries ---------------------------------------------------------------------------------------
    def legal_actions(self) -> CardSet | tuple[FreeAction, ...]:
        """The legal actions of the seat to act (empty between hands)."""
        cur = self._cur
        return cur.legal_actions() if cur is not None else ()

    def explain(self, action: object, seat: int | None = None) -> str | None:
        """Why ``action`` by ``seat`` (default: the seat to act) is illegal now, or None if it is legal.

        A reason may name the cards of the seat to act, so a server must pass the asking seat: another seat is
        only told that it is not its turn.
        """
        if type(action) is str:
            try:
                action = self.parse_call(action) or action
            except InvalidNotationError as exc:
                return reason_of(exc) or str(exc)
        if isinstance(action, MisplayCall):
            caller, reason = self._caller(action, seat)
            return reason or self._explain_call(action, caller)[0]
        return super().explain(action, seat)  # any other action: the turn, the notation, then the hand's rules

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action (or its notation, e.g. ``"KD"``, ``"pass"``) of the seat to act; returns the events.

        With option ``misplays``, a call of a misplay is an action of any seat but the misplayer at any time (FC-10):
        ``"call 7H by 2"`` names its caller, ``"call 7H"`` takes the caller from ``seat``. The state is unchanged if
        it raises.
        """
        if type(action) is str and self.parse_call(action) is not None:
            action = self.parse_call(action)
        if isinstance(action, MisplayCall):
            caller, reason = self._caller(action, seat)
            if reason is not None:
                raise IllegalActionError(reason)
            return self._call(action, caller)
        act: FreeAction = self.parse_action(action) if type(action) is str else action  # type: ignore[assignment]
        cur = self._cur
        if cur is None:
            if self._over:
                raise GameOverError(Reason(MATCH_OVER, action=str(act)))
            raise IllegalActionError(Reason(NO_HAND, action=str(act)))
        events = cur.apply(act, seat)
        if cur.scores is None:
            return events
        self._cur = None
        return events[:-1] + self._score(cur)

    def play_out(self, cards: Iterable[Card]) -> None:
        """Play ``cards`` in turn in the card play of the hand in progress, each for the seat to act, as :meth:`apply`
        plays them but without their events (the search bots' play-outs read only where the hand ends); the hand is
        scored, and the match judged, the moment it ends, as :meth:`apply` does. A card the rules refuse is refused as
        :meth:`FreeHand.play_lawful` refuses it, the cards before it played."""
        cur = self._cur
        if cur is None:
            if self._over:
                raise GameOverError(Reason(MATCH_OVER, action="a card"))
            raise IllegalActionError(Reason(NO_HAND, action="a card"))
        for card in cards:
            cur.play_lawful(card)
            if cur.scores is not None and self._cur is cur:
                self._cur = None
                self._score(cur)

    def _score(self, hand: FreeHand) -> Events:
        assert hand.scores is not None
        for s in range(N_SEATS):
            self.totals[s] += hand.scores[s]
        self.hand_scores.append(hand.scores)
        totals = tuple(self.totals)
        events: list[Event] = [HandScored(tuple(hand.tricks_won), hand.scores, totals)]
        return tuple(events) + self._judge()

    def _judge(self) -> Events:
        """Decide the end of the match from the totals (FC-9): the event if it ends now."""
        totals = tuple(self.totals)
        # FC-9: once anyone has the target or more, the highest total wins; a tie at the top plays another hand.
        if max(totals) >= self.options.target:
            top = max(totals)
            leaders = tuple(s for s in range(N_SEATS) if totals[s] == top)
            if len(leaders) == 1:
                self._over = True
                self.winners = leaders
                return (MatchEnded(leaders, False, totals),)
        return ()

    # -- misplays (FC-10, option misplays) -------------------------------------------------------------
    @staticmethod
    def parse_call(text: str) -> MisplayCall | None:
        """Read ``call CARD`` or ``call CARD by SEAT`` (e.g. ``call 7H by 2``) as a call of a misplay (FC-10); None
        if the text is not a call.

        A call naming something that is not a card, or a caller that is not a seat, raises a notation error naming
        the input.
        """
        words = text.strip().split()
        if not words or words[0].lower() != "call":
            return None
        if len(words) not in (2, 4) or (len(words) == 4 and words[2].lower() != "by"):
            raise InvalidNotationError(Reason(reasons.CALL_MALFORMED, text=quoted(text.strip())))
        try:
            played = STANDARD_WITH_JOKERS.parse(words[1])
        except InvalidNotationError:
            raise InvalidNotationError(
                Reason(reasons.CALL_CARD_UNREADABLE, text=quoted(text.strip()), card_text=quoted(words[1]))
            ) from None
        if len(words) == 2:
            return MisplayCall(played)
        if words[3] not in ("0", "1", "2"):
            raise InvalidNotationError(
                Reason(reasons.CALL_CALLER_UNREADABLE, text=quoted(text.strip()), caller_text=quoted(words[3]))
            )
        return MisplayCall(played, int(words[3]))

    @staticmethod
    def _caller(call: MisplayCall, seat: int | None) -> tuple[int | None, Reason | None]:
        """The seat making ``call``: the one it names, else ``seat``; and why not, if the two disagree (FC-10)."""
        if call.caller is None or seat is None or seat == call.caller:
            return (call.caller if call.caller is not None else seat), None
        return None, Reason(reasons.CALL_CALLER_MISMATCH, card=str(call.card), caller_seat=call.caller, seat=seat)

    def actor_of(self, action: FreeAction | MisplayCall) -> int | None:
        """The seat making ``action``: the caller of a call that names one (FC-10), else the seat to act.

        A record reader uses it to name the right seat in its messages.
        """
        if isinstance(action, MisplayCall) and action.caller is not None:
            return action.caller
        return self.to_act

    @staticmethod
    def acts_between_hands(action: FreeAction | MisplayCall) -> bool:
        """Whether ``action`` may come after a hand is scored and before the next deal: only a call (FC-10).

        In a record such a call is the last action of the hand it concerns.
        """
        return isinstance(action, MisplayCall)

    def _explain_call(self, call: MisplayCall, seat: int | None) -> tuple[Reason | None, FreeHand | None]:
        """Why ``seat`` may not make ``call`` now (or None), and the hand the call is about (FC-10).

        A call names a card of the hand in progress or, between hands, of the hand just scored: once the next hand
        is dealt, a misplay of an earlier hand goes unpunished. Every condition is public
        (:meth:`FreeHand.explain_call`).
        """
        card = str(call.card)
        if not self.options.misplays:
            return Reason(reasons.CALL_NEEDS_OPTION, card=card), None
        if seat is None:
            return Reason(reasons.CALL_WITHOUT_CALLER, card=card), None
        if not self.hands:
            return Reason(reasons.CALL_BEFORE_DEAL, card=card), None
        hand = self.hands[-1]
        return hand.explain_call(seat, call.card), hand

    def _call(self, call: MisplayCall, seat: int | None) -> Events:
        reason, hand = self._explain_call(call, seat)
        if reason is not None:
            raise IllegalActionError(reason)
        assert hand is not None and seat is not None
        old = hand.scores
        events = hand.call(seat, call.card)
        if old is None or hand.scores == old:
            return events
        # The hand was already scored: correct its entry and the totals, then decide the end again (FC-9).
        assert hand.scores is not None
        for s in range(N_SEATS):
            self.totals[s] += hand.scores[s] - old[s]
        self.hand_scores[-1] = hand.scores
        self._over, self.winners = False, ()
        return (*events, HandRescored(hand.scores, tuple(self.totals)), *self._judge())

    # -- notation --------------------------------------------------------------------------------------
    @staticmethod
    def parse_action(text: str) -> FreeAction | MisplayCall:
        """Read an action: ``pass`` (or ``p``), a card such as ``KD``, ``10S``, ``JK1``, or a call of a misplay
        such as ``call 7H by 2`` (FC-10; the rules decide whether it is allowed when it is applied)."""
        call = FreeMatch.parse_call(text)
        if call is not None:
            return call
        t = text.strip().lower()
        if t in ("pass", "p"):
            return Call.PASS
        try:
            return STANDARD_WITH_JOKERS.parse(text)
        except InvalidNotationError:
            raise InvalidNotationError(Reason(reasons.NOT_AN_ACTION, text=quoted(text.strip()))) from None

    @staticmethod
    def format_action(action: object) -> str:
        """The canonical notation of an action (a call with its caller: ``call 7H by 2``)."""
        return str(action)

    def legal_notation(self) -> list[str]:
        """The legal actions in notation."""
        return [self.format_action(a) for a in self.legal_actions()]
