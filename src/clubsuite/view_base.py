"""What every game's per-seat view shares: the seat it belongs to, and the public facts of the match."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from clubsuite.cards import CardSet
from clubsuite.errors import NoHandError
from clubsuite.match_base import MatchBase


class SeatHands(Protocol):
    """What the shared view reads of a hand."""

    @property
    def dealer(self) -> int: ...

    @property
    def hands(self) -> list[int]: ...


HandT = TypeVar("HandT", bound=SeatHands)
S = TypeVar("S")
V = TypeVar("V")


class ViewBase(Generic[HandT]):
    """One seat's knowledge, read live from the match; a game's view adds what is particular to it.

    The match keeps one view per seat and hands it out at every decision, so a view costs nothing to ask for and
    always shows the present moment. ``seat`` is fixed: a view never turns into another seat's.
    """

    __slots__ = ("_kept", "_match", "_seat")

    def __init__(self, match: MatchBase[Any, Any, Any], seat: int) -> None:
        self._match = match
        self._seat = seat
        self._kept: dict[str, tuple[Sequence[Any], int, Any]] = {}
        """Values derived from growing lists of the hand (see :meth:`_grown`): name -> (list, length read, value)."""

    def _grown(self, name: str, source: Sequence[S], extend: Callable[[V, Sequence[S]], V], empty: V) -> V:
        """A value derived from ``source``, a list of the hand in progress that only grows (the tricks taken, the
        events): ``extend(empty, source)``, kept between reads and brought up to date with ``extend(value, new
        entries)``. A view is read at every decision, so a property over the whole hand (late in a hand, every
        trick) then costs a look-up instead of a rebuild. A new hand has new lists, which starts the value again.
        """
        kept = self._kept.get(name)
        n = len(source)
        if kept is None or kept[0] is not source or kept[1] > n:
            value = extend(empty, source)
        elif kept[1] == n:
            return kept[2]  # type: ignore[no-any-return]
        else:
            value = extend(kept[2], source[kept[1] :])
        self._kept[name] = (source, n, value)
        return value

    @property
    def seat(self) -> int:
        """The seat whose knowledge this is."""
        return self._seat

    def _cur(self) -> HandT:
        hands = self._match.hands
        if not hands:
            raise NoHandError("no hand has been dealt yet: deal first")
        return hands[-1]  # type: ignore[no-any-return]

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

    def legal_actions(self) -> Any:
        """The legal actions if this seat is to act, else empty."""
        match: Any = self._match
        return match.legal_actions() if match.to_act == self._seat else ()

    @property
    def dealer(self) -> int:
        """The dealer of the current hand."""
        return self._cur().dealer

    @property
    def hand(self) -> CardSet:
        """This seat's cards now (a game with several kinds of cards says which)."""
        return CardSet(self._cur().hands[self._seat])
