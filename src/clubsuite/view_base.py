"""What every game's per-seat view shares: the seat it belongs to, and the public facts of the match."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from clubsuite.cards import CardSet
from clubsuite.engine import LegalActions
from clubsuite.errors import NoHandError


class SeatHands(Protocol):
    """What the shared view reads of a hand."""

    @property
    def dealer(self) -> int: ...

    @property
    def hands(self) -> list[int]: ...


HandT = TypeVar("HandT", bound=SeatHands)
HandT_co = TypeVar("HandT_co", bound=SeatHands, covariant=True)


class WatchedMatch(Protocol[HandT_co]):
    """What the shared view reads of its match (a game's view names what more it reads in a protocol of its own)."""

    @property
    def hands(self) -> Sequence[HandT_co]: ...

    @property
    def phase(self) -> StrEnum: ...

    @property
    def totals(self) -> Sequence[int]: ...

    @property
    def to_act(self) -> int | None: ...

    def legal_actions(self) -> LegalActions[object]: ...


class ViewBase(Generic[HandT]):
    """One seat's knowledge, read live from the match; a game's view adds what is particular to it.

    The match keeps one view per seat and hands it out at every decision, so a view costs nothing to ask for and
    always shows the present moment. ``seat`` is fixed: a view never turns into another seat's.
    """

    __slots__ = ("_match", "_seat")

    def __init__(self, match: WatchedMatch[HandT], seat: int) -> None:
        self._match = match
        self._seat = seat

    @property
    def seat(self) -> int:
        """The seat whose knowledge this is."""
        return self._seat

    def _cur(self) -> HandT:
        hands = self._match.hands
        if not hands:
            raise NoHandError("no hand has been dealt yet: deal first")
        return hands[-1]

    @property
    def phase(self) -> StrEnum:
        """The phase of the match."""
        return self._match.phase

    @property
    def totals(self) -> tuple[int, ...]:
        """The running totals of the seats (public)."""
        return tuple(self._match.totals)

    @property
    def hand_number(self) -> int:
        """0 for the first hand of the match."""
        return len(self._match.hands) - 1

    @property
    def to_act(self) -> int | None:
        """The seat to act."""
        return self._match.to_act

    def legal_actions(self) -> LegalActions[object]:
        """The legal actions if this seat is to act, else empty."""
        match = self._match
        return match.legal_actions() if match.to_act == self._seat else ()

    @property
    def dealer(self) -> int:
        """The dealer of the current hand."""
        return self._cur().dealer

    @property
    def hand(self) -> CardSet:
        """This seat's cards now (a game with several kinds of cards says which)."""
        return CardSet(self._cur().hands[self._seat])
