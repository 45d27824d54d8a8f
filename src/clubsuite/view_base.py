"""What every game's per-seat view shares: the seat it belongs to, and the public facts of the match."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from clubsuite.cards import CardSet
from clubsuite.copying import clone_state
from clubsuite.engine import LegalActions, SomeMatch
from clubsuite.errors import ClubsError, NoHandError
from clubsuite.jsonform import JsonObject


class SeatHands(Protocol):
    """What the shared view reads of a hand."""

    @property
    def dealer(self) -> int: ...

    @property
    def hands(self) -> list[int]: ...


HandT = TypeVar("HandT", bound=SeatHands)
S = TypeVar("S")
T = TypeVar("T")
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

    __slots__ = ("_match", "_memo", "_seat")

    def __init__(self, match: WatchedMatch[HandT], seat: int) -> None:
        self._match = match
        self._seat = seat
        self._memo: dict[str, tuple[Sequence[object], int, object, tuple[Any, ...]]] = {}
        """What :meth:`_grown` has converted so far, by property."""

    def _grown(self, key: str, source: Sequence[S], convert: Callable[[S], T]) -> tuple[T, ...]:
        """``tuple(convert(x) for x in source)`` for a list of the hand that only grows at its end (the tricks, the
        events of a round), converted once per item: a view property read at every decision would otherwise rebuild
        the whole tuple each time (late in a hand, costlier than the action itself).

        The cache holds the list it read (so a new hand, a clone or a determinized state, whose lists are others,
        starts afresh) and the last item it converted: if that item is no longer in its place (a rule took a trick
        back), everything is converted again.
        """
        memo = self._memo
        n = len(source)
        entry = memo.get(key)
        if (
            entry is not None
            and entry[0] is source
            and entry[1] <= n
            and (entry[1] == 0 or source[entry[1] - 1] is entry[2])
        ):
            done: tuple[T, ...] = entry[3]
            if entry[1] == n:
                return done
            done += tuple(convert(x) for x in source[entry[1] :])
        else:
            done = tuple(convert(x) for x in source)
        memo[key] = (source, n, source[n - 1] if n else None, done)
        return done

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

    def determinize(self, rng: random.Random) -> SomeMatch:
        """A complete match this seat cannot tell from the real one: every card it cannot see drawn again with
        ``rng``, consistently with all it has seen (the game's sampler, through ``match.determinize``), and no hand
        of the past but the number of them. What search bots imagine; it never shows a real hidden card."""
        draw: Callable[[int, random.Random], SomeMatch] | None = getattr(self._match, "determinize", None)
        if draw is None:
            raise ClubsError("this view was made from a single hand, not a match, and cannot be determinized")
        world = draw(self._seat, rng)
        # The hands before the last are settled, and a clone shares them as they were: with their hidden cards (a
        # bid hand, a chest, the cards never played). The world a bot imagines keeps only their number (which says
        # who deals and which way cards pass), with a frozen copy of the imagined hand in progress in their places: a
        # copy, because clones of the world share its settled hands and must not share the hand they play on.
        hands = world.hands
        if len(hands) > 1 and isinstance(hands, list):  # as every match keeps them
            hands[:-1] = [clone_state(hands[-1])] * (len(hands) - 1)
        return world

    @property
    def dealer(self) -> int:
        """The dealer of the current hand."""
        return self._cur().dealer

    @property
    def hand(self) -> CardSet:
        """This seat's cards now (a game with several kinds of cards says which)."""
        return CardSet(self._cur().hands[self._seat])


MatchT_contra = TypeVar("MatchT_contra", contravariant=True)


@runtime_checkable
class HasSpectator(Protocol[MatchT_contra]):
    """A game's parts that say what anyone watching a table may see (every game of the suite)."""

    def spectator(self) -> Callable[[MatchT_contra], JsonObject]:
        """``public_dict(match)``: the match as a spectator sees it, in the shape of a view's ``to_dict()`` with
        ``"seat": None``, no hand and no legal actions, every card only some seat may know left out."""
        ...


@runtime_checkable
class HasHiddenPiles(Protocol[MatchT_contra]):
    """A game's parts that have piles in no hand (a chest, a stock), shown by a replay."""

    def hidden(self) -> Callable[[MatchT_contra], JsonObject]:
        """``hidden_piles(match)``: those piles, by name."""
        ...
