"""The bookkeeping every game's match shares: hands dealt in turn, whose turn it is, per-seat views, the deal step.

A game's match class derives from :class:`MatchBase` and supplies its hand, view and deal types through four small
hooks, its notation (``parse_action``) and its scoring and end of the game (``_score``). The frame around the
rules is shared: ``explain`` and ``apply`` read notation, check whose turn it is and hand the action to the hand in
progress, whose own ``explain`` and ``apply`` hold the rules; the JSON account (:meth:`MatchBase.summary`) is
built from every hand's own part. A game overrides any of them where it needs more (a faster path, an action that
is not the seat to act's).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import Any, Generic, Protocol, Self, TypeVar

from clubsuite.copying import clone_state
from clubsuite.engine import Events, LegalActions, Phase
from clubsuite.errors import (
    ClubsError,
    GameOverError,
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
    InvalidOptionsError,
    NotYourTurnError,
)
from clubsuite.events import Event
from clubsuite.jsonform import JsonObject
from clubsuite.reasons import (
    ASKED_MATCH_OVER,
    ASKED_NO_HAND,
    ASKED_NOT_YOUR_TURN,
    MATCH_OVER,
    NO_HAND,
    NO_SUCH_SEAT,
    Reason,
    not_your_turn,
    reason_of,
)


class HandState(Protocol):
    """What the shared bookkeeping reads of a hand."""

    @property
    def phase(self) -> StrEnum: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def scores(self) -> tuple[int, ...] | None:
        """The per-seat scores once the hand is over, else None."""
        ...

    def summary(self) -> JsonObject:
        """A JSON-ready account of the hand."""
        ...

    def action_log(self) -> Sequence[object]:
        """Every action applied to the hand, in order."""
        ...

    def explain(self, action: object) -> str | None:
        """Why ``action`` of the seat to act is illegal now, or None if it is legal."""
        ...

    def apply(self, action: Any, seat: int | None = None) -> Events:
        """Apply the action of the seat to act; the last event of the hand's final action is its score event,
        which the match completes with the totals. The match passes on whatever it was given (a hand's own
        ``apply`` takes its game's actions and refuses anything else through ``explain``), hence ``Any`` here."""
        ...


HandT = TypeVar("HandT", bound=HandState)
ViewT = TypeVar("ViewT")
DealT = TypeVar("DealT")
ActionT = TypeVar("ActionT")
OptionsT = TypeVar("OptionsT")


class MatchBase(ABC, Generic[HandT, ViewT, DealT, ActionT, OptionsT]):
    """A match: the hands dealt so far, the running totals, the result, and one live view per seat.

    Generic over the game's hand, view, deal, action and options types, so that each game's match is a
    :class:`clubsuite.engine.Match` of its own action, view and options types.
    """

    game: str
    """The registered game name (each game sets it)."""

    def __init__(self, options: OptionsT, first_dealer: int, n_seats: int) -> None:
        if type(first_dealer) is not int or not 0 <= first_dealer < n_seats:
            raise InvalidOptionsError(f"first dealer {first_dealer} is not a seat: expected 0 to {n_seats - 1}")
        self.n_seats = n_seats
        self.options = options
        self.first_dealer = first_dealer
        self.hands: list[HandT] = []
        """Every hand dealt so far; the last one is in progress unless the match waits for a deal."""
        self.totals = [0] * n_seats
        self.hand_scores: list[tuple[int, ...]] = []
        self.winners: tuple[int, ...] = ()
        self.draw = False
        self._over = False
        self._cur: HandT | None = None
        self._views: tuple[ViewT, ...] = tuple(self._make_view(s) for s in range(n_seats))

    # -- the hooks a game supplies --------------------------------------------------------------------
    @abstractmethod
    def _make_view(self, seat: int) -> ViewT:
        """The live view of ``seat``."""

    @abstractmethod
    def _random_deal(self, rng: random.Random, dealer: int) -> DealT:
        """A deal drawn from ``rng``."""

    @abstractmethod
    def _new_hand(self, deal: object, dealer: int) -> HandT:
        """The state of a new hand on ``deal``; raises :class:`InvalidDealError` for anything but this game's deal."""

    @abstractmethod
    def _hand_started(self, index: int, dealer: int) -> Event:
        """The event announcing hand ``index``."""

    @abstractmethod
    def _score(self, hand: HandT) -> Events:
        """Add a finished hand's scores to the totals, decide the end of the match; returns the events (the
        hand's score event with the totals, and the end of the match if it came)."""

    @abstractmethod
    def legal_actions(self) -> LegalActions[ActionT]:
        """The legal actions of the seat to act (empty between hands); each game gives its own kind."""

    def _restarted(self, hand: HandT) -> HandT:
        """A fresh hand from ``hand``'s deal, as it stood before its first action (for :meth:`hand_so_far`); a game
        whose hands can be dealt again from their deal says how."""
        raise ClubsError(f"{self.game}: the hand in progress cannot be replayed from its deal")

    @abstractmethod
    def _determinized_hand(self, seat: int, rng: random.Random) -> HandT:
        """A new state of the hand in progress in which every card ``seat`` cannot see is drawn again with the game's
        sampler, consistently with everything ``seat`` knows (its view); the match is left as it is."""

    def _determinized_rest(self, other: Self, seat: int, rng: random.Random) -> None:
        """Draw again whatever else ``seat`` cannot see in ``other``, a determinized clone of this match whose hand
        in progress is already drawn (a game that keeps hidden cards between hands, such as an undealt pack)."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Read an action from its notation (each game reads its own)."""

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def current(self) -> HandT | None:
        """The hand in progress, or None between hands (read it; act through the match)."""
        return self._cur

    @property
    def phase(self) -> StrEnum:
        """The phase of the match: a shared :class:`Phase` or one of the game's own."""
        if self._over:
            return Phase.OVER
        cur = self._cur
        return cur.phase if cur is not None else Phase.DEAL

    @property
    def is_over(self) -> bool:
        """Whether the game's end condition has been met."""
        return self._over

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None between hands and after the end."""
        cur = self._cur
        return cur.to_act if cur is not None else None

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand: the deal passes to the left after each hand."""
        return (self.first_dealer + len(self.hands)) % self.n_seats

    def view(self, seat: int) -> ViewT:
        """What ``seat`` may know now: its own cards and the public table, never another hidden hand."""
        if type(seat) is not int or not 0 <= seat < self.n_seats:
            raise IllegalActionError(Reason(NO_SUCH_SEAT, seat=seat, last_seat=self.n_seats - 1))
        return self._views[seat]

    # -- copies for search --------------------------------------------------------------------------------
    def release(self) -> None:
        """Let go of this match's live views, for a match that will not be read again (a server that replaced its
        state with a changed copy): the match and its views then refer to each other no more, so the memory is freed
        at once rather than by the cycle collector, whose full passes over a busy process pause it."""
        self._views = ()

    def clone(self) -> Self:
        """An independent copy of the match: equal in every state, with its own hands list, totals and live views
        (each watching the copy), so play on either leaves the other unchanged.

        Copied by :func:`clubsuite.copying.clone_state`: every mutable container copied, immutable values shared,
        nothing listed by hand. The hands before the last are settled: no action reaches them again (play goes to
        the hand in progress, and an action that may concern the last hand only), so the copy shares them, and a
        clone costs the same at any point of a long match.
        """
        return clone_state(self, self._settled())

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A complete state that ``seat`` cannot tell from this one: a clone in which every card ``seat`` cannot see
        has been drawn again with the game's exact sampler (``games/<game>/sampling.py``).

        ``determinized.view(seat).to_dict() == match.view(seat).to_dict()``, while the other seats' hidden cards
        vary from draw to draw. The draw depends only on what ``seat`` knows and on ``rng``: two states ``seat``
        cannot tell apart give the same determinized state for the same ``rng``. Between hands (and once the match
        is over) nothing is hidden that play can reach, and it returns a clone. This match is not changed. Each game
        says what is hidden and where the draw is exactly uniform.
        """
        if type(seat) is not int or not 0 <= seat < self.n_seats:
            raise IllegalActionError(Reason(NO_SUCH_SEAT, seat=seat, last_seat=self.n_seats - 1))
        if self._cur is None:
            return self.clone()
        other = self._clone_with(self._determinized_hand(seat, rng))
        self._determinized_rest(other, seat, rng)
        return other

    def hand_so_far(self) -> Iterator[tuple[Self, object]]:
        """The hand in progress replayed from its deal on a copy of this match: before each of its actions so far,
        the copy as it stood then (the same totals and settled hands) and the action taken. A search bot reads
        from it how likely an imagined world makes the plays it saw. The copy changes as the iteration goes on:
        read it at each step, do not keep it."""
        cur = self._cur
        if cur is None:
            return
        copy = self._clone_with(self._restarted(cur))
        for action in cur.action_log():
            yield copy, action
            copy.apply(action)

    def _clone_with(self, hand: HandT) -> Self:
        """A clone holding ``hand`` (as it is, not copied) in place of the hand in progress."""
        cur = self._cur
        assert cur is not None
        memo = self._settled()
        memo[id(cur)] = hand
        return clone_state(self, memo)

    def _settled(self) -> dict[int, object]:
        """The memo that makes a copy share the settled hands (every hand but the last; see :meth:`clone`)."""
        return {id(h): h for h in self.hands[:-1]}

    # -- the deal --------------------------------------------------------------------------------------
    def deal(self, rng: random.Random | None = None, deal: object = None) -> Events:
        """Start the next hand with a given deal, or one drawn from ``rng``; returns the events."""
        if self._over:
            raise GameOverError("the match is over: no more deals")
        if self._cur is not None:
            raise IllegalActionError("a hand is in progress: finish it before dealing the next")
        dealer = self.next_dealer
        if deal is None:
            if rng is None:
                raise InvalidDealError("deal() needs an RNG or an explicit deal")
            deal = self._random_deal(rng, dealer)
        self._cur = self._new_hand(deal, dealer)
        self.hands.append(self._cur)
        return (self._hand_started(len(self.hands) - 1, dealer),)

    # -- the account -----------------------------------------------------------------------------------
    def summary(self) -> JsonObject:
        """A JSON-ready account of the match so far: every hand (with the running totals after each complete one),
        the totals and the result."""
        hands = []
        totals = [0] * self.n_seats
        for h in self.hands:
            entry = h.summary()
            scores = h.scores
            if scores is not None:
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
                entry["totals"] = list(totals)
            hands.append(entry)
        return {
            "hands": hands,
            "totals": list(self.totals),
            "over": self._over,
            "winners": list(self.winners),
            "draw": self.draw,
        }

    # -- acting ----------------------------------------------------------------------------------------
    def explain(self, action: object, seat: int | None = None) -> str | None:
        """Why ``action`` (or its notation) by ``seat`` (default: the seat to act) is illegal now, or None.

        A reason may name cards of the seat to act (``you hold QH``), so a server must pass the asking seat:
        another seat is only told that it is not its turn.
        """
        cur = self._cur
        if cur is None:
            return Reason(ASKED_MATCH_OVER if self._over else ASKED_NO_HAND)
        if seat is not None and cur.to_act is not None and seat != cur.to_act:
            return Reason(ASKED_NOT_YOUR_TURN, turn_seat=cur.to_act, seat=seat)
        if type(action) is str:  # exactly str: an enum action that is also a str is an action, not notation
            try:
                action = self.parse_action(action)
            except InvalidNotationError as exc:
                return reason_of(exc) or str(exc)
        return cur.explain(action)

    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action (or its notation) of the seat to act (``seat``, if given, must be it); returns the
        events. The state is unchanged if it raises. Any object is accepted: the hand refuses, with the rule, what
        is not a legal action of its game."""
        cur = self._cur
        if cur is None:
            if self._over:
                raise GameOverError(Reason(MATCH_OVER, action=str(action)))
            raise IllegalActionError(Reason(NO_HAND, action=str(action)))
        self._check_turn(action, seat)
        act = self.parse_action(action) if type(action) is str else action
        events = cur.apply(act, seat)
        if cur.scores is None:
            return events
        self._cur = None
        return events[:-1] + self._score(cur)

    def _check_turn(self, action: object, seat: int | None) -> None:
        """Refuse an action of a seat that is not to act, before its notation is read: reading may look at the hand
        of the seat to act (bare values standing for cards), and what it says must not reach another seat."""
        cur = self._cur
        if seat is not None and cur is not None and cur.to_act is not None and seat != cur.to_act:
            raise NotYourTurnError(not_your_turn(seat, action, cur.to_act))

    @staticmethod
    def format_action(action: object) -> str:
        """The canonical notation of an action."""
        return str(action)

    def legal_notation(self) -> list[str]:
        """The legal actions in notation."""
        return [self.format_action(a) for a in self.legal_actions()]
