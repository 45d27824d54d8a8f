"""The bookkeeping every game's match shares: hands dealt in turn, whose turn it is, per-seat views, the deal step.

A game's match class derives from :class:`MatchBase` and supplies its hand, view and deal types through four small
hooks; the rules (legality, ``apply``, scoring and the end of the game) stay in the game's own class. The JSON
account of the match (:meth:`MatchBase.summary`) is shared too: every game's hand gives its own part.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Generic, Protocol, TypeVar

from clubsuite.engine import Phase
from clubsuite.errors import GameOverError, IllegalActionError, InvalidDealError, InvalidOptionsError


class HandState(Protocol):
    """What the shared bookkeeping reads of a hand."""

    @property
    def phase(self) -> Phase: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def scores(self) -> tuple[int, ...] | None:
        """The per-seat scores once the hand is over, else None."""
        ...

    def summary(self) -> dict[str, Any]:
        """A JSON-ready account of the hand."""
        ...


HandT = TypeVar("HandT", bound=HandState)
ViewT = TypeVar("ViewT")
DealT = TypeVar("DealT")


class MatchBase(ABC, Generic[HandT, ViewT, DealT]):
    """A match: the hands dealt so far, the running totals, the result, and one live view per seat."""

    def __init__(self, options: Any, first_dealer: int, n_seats: int) -> None:
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
    def _new_hand(self, deal: DealT, dealer: int) -> HandT:
        """The state of a new hand on ``deal``; raises :class:`InvalidDealError` for a deal of another game."""

    @abstractmethod
    def _hand_started(self, index: int, dealer: int) -> Any:
        """The event announcing hand ``index``."""

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def current(self) -> HandT | None:
        """The hand in progress, or None between hands (read it; act through the match)."""
        return self._cur

    @property
    def phase(self) -> Phase:
        """The phase of the match."""
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
            raise IllegalActionError(f"seat {seat} does not exist: expected 0 to {self.n_seats - 1}")
        return self._views[seat]

    # -- the deal --------------------------------------------------------------------------------------
    def deal(self, rng: random.Random | None = None, deal: DealT | None = None) -> tuple[Any, ...]:
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
    def summary(self) -> dict[str, Any]:
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
