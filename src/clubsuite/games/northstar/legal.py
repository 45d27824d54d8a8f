"""The legal actions of a turn of North Star's CLUBS as a lazy sequence: counted, indexed and tested without
building every play.

A hand can hold hundreds of legal plays (some 1,800 leads with wild 15s, NS-9), and most turns need only a few of
them: a random player takes one by position, a membership test checks one. :class:`LegalPlays` keeps the plays as
*blocks* that share their structure (the singles of one value, the sets of one value, the runs from one value to
another) and counts each block by arithmetic, so:

* ``len`` adds the block sizes, and ``legal[i]`` builds the one play at position ``i`` (a binary search over the
  blocks, then a mixed-radix or subset decoding within the block);
* ``play in legal`` checks the play itself (well formed, held, beating the play on the table: NS-3, NS-4, NS-9,
  NS-11) in time proportional to its size, like python-chess's ``move in board.legal_moves``;
* iterating builds the whole list once, in exactly the order :func:`~clubsuite.games.northstar.combos.generate`
  gives (singles and sets by value, then runs by lowest value and length), and keeps it.

The order is part of the contract: seeded random play depends on it, so it must never change.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from clubsuite.cards import CardSet
from clubsuite.games.northstar.combos import (
    _BITS_OF,
    FIFTEENS,
    TOP,
    VALUE_MASKS,
    VALUES,
    Call,
    Kind,
    NorthstarAction,
    Play,
    _floors,
    _runs,
    beats,
    check_play,
)

_play = tuple.__new__
_set = int.__new__
_SINGLE, _SET, _RUN = Kind.SINGLE, Kind.SET, Kind.RUN

_PICKS: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
"""For ``n`` items and the allowed set sizes: the subsets (as bit patterns over the items) in the generator's order."""


_LEAD_SIZES = tuple(tuple(range(2, n + 1)) for n in range(9))
"""When leading, a set may have any size from 2 to the number of cards that can form it (NS-3)."""


def _picks(n: int, sizes: tuple[int, ...]) -> tuple[int, ...]:
    key = (n, sizes)
    found = _PICKS.get(key)
    if found is None:
        found = tuple(pick for pick in range(1, 1 << n) if pick.bit_count() in sizes)
        _PICKS[key] = found
    return found


Block = tuple[Any, ...]
"""A block of plays: ``(kind code, count, data...)``, the data by kind as below (a small record on the hot path)."""

# The kind codes and their data:
_SINGLES = 0  # (code, count, items, high): items[i] is the card
_SETS = 1  # (code, count, items, picks, high): the subset picks[i] of items
_RUNS = 2  # (code, count, choices, high): one card per value, the last value varying fastest
_LISTED = 3  # (code, count, plays): plays built in advance (runs with wild 15s)


class LegalPlays(Sequence[NorthstarAction]):
    """The legal actions of one turn: the calls (``pass``, ``double``) first, then the plays, built on demand."""

    __slots__ = ("_blocks", "_crazy", "_hand", "_items", "_last", "_len", "_prefix", "_prev", "_wild")

    def __init__(self, prefix: tuple[Call, ...], hand: int, prev: Play | None, wild: bool, crazy: bool) -> None:
        self._prefix = prefix
        self._hand = hand
        self._prev = prev
        self._wild = wild
        self._crazy = crazy
        self._items: tuple[NorthstarAction, ...] | None = None
        self._last: object = None
        """The play last handed out by position: legal by construction (``vouches``)."""
        blocks = self._blocks = _plan(hand, prev, wild, crazy)
        total = len(prefix)
        for block in blocks:
            total += block[1]
        self._len = total

    # -- the sequence --------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> NorthstarAction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[NorthstarAction, ...]: ...

    def __getitem__(self, index: int | slice) -> NorthstarAction | tuple[NorthstarAction, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        n = self._len
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal action index out of range")
        prefix = self._prefix
        if index < len(prefix):
            return prefix[index]
        items = self._items
        if items is not None:
            return items[index]
        at: int = index - len(prefix)
        for block in self._blocks:  # a few blocks: walked, not searched
            count = block[1]
            if at < count:
                play = _decode(block, at)
                self._last = play
                return play
            at -= count
        raise AssertionError("the blocks do not add up to the length")

    def __iter__(self) -> Iterator[NorthstarAction]:
        items = self._items
        if items is None:
            built: list[NorthstarAction] = list(self._prefix)
            for block in self._blocks:
                built.extend(_decode(block, i) for i in range(block[1]))
            items = self._items = tuple(built)
        return iter(items)

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` is one of the legal actions, checked on the action itself (NS-3, NS-4, NS-9, NS-11)."""
        if action in self._prefix:
            return True
        if not isinstance(action, Play) or check_play(action, self._wild) is not None:
            return False
        play = Play(CardSet.from_mask(int(action.cards)), Kind(action.kind), action.high)
        if int(play.cards) & ~self._hand:
            return False
        prev = self._prev
        return prev is None or beats(play, prev, self._crazy)

    def vouches(self, action: object) -> bool:
        """Whether ``action`` is known legal without a check: the play this list last handed out by position, or a
        call it lists (``apply`` then skips the check)."""
        return action is self._last or (action.__class__ is not Play and action in self._prefix)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LegalPlays, tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence compared by its items, like a list

    def __repr__(self) -> str:
        return f"LegalPlays({len(self)} actions)"


def _decode(block: Block, i: int) -> Play:
    """The ``i``-th play of a block."""
    code = block[0]
    if code == _SINGLES:
        return _play(Play, (_set(CardSet, block[2][i]), _SINGLE, block[3]))
    if code == _SETS:
        items, pick = block[2], block[3][i]
        mask = 0
        k = 0
        while pick:
            if pick & 1:
                mask |= items[k]
            pick >>= 1
            k += 1
        return _play(Play, (_set(CardSet, mask), _SET, block[4]))
    if code == _RUNS:
        mask = 0
        for choice in reversed(block[2]):
            i, r = divmod(i, len(choice))
            mask |= choice[r]
        return _play(Play, (_set(CardSet, mask), _RUN, block[3]))
    play: Play = block[2][i]
    return play


def _value_blocks() -> tuple[dict[int, Block], dict[int, Block], dict[int, Block]]:
    """For every set of cards of one value: its block of singles, its block of sets of any size (a lead) and, by
    size, its blocks of sets of one size (a follow), built once for all hands."""
    singles: dict[int, Block] = {}
    lead_sets: dict[int, Block] = {}
    sized_sets: dict[int, Block] = {}
    for v in VALUES:
        for mask, items in _BITS_OF.items():
            if not items or mask & ~VALUE_MASKS[v]:
                continue
            n = len(items)
            singles[mask] = (_SINGLES, n, items, v)
            if n >= 2:
                picks = _picks(n, _LEAD_SIZES[n])
                lead_sets[mask] = (_SETS, len(picks), items, picks, v)
                for k in range(2, n + 1):
                    picks = _picks(n, (k,))
                    sized_sets[mask * 8 + k] = (_SETS, len(picks), items, picks, v)
    return singles, lead_sets, sized_sets


def _plan(hand: int, prev: Play | None, wild: bool, crazy: bool) -> list[Block]:
    """The blocks of the plays from ``hand`` that may be played after ``prev``, in the generator's order."""
    if not (wild and hand & FIFTEENS):
        if prev is None:
            return _lead(hand)
        if not crazy:
            return _follow(hand, prev)
    singles, sets, runs = _floors(prev, crazy)
    vm = VALUE_MASKS
    bits_of = _BITS_OF
    wilds: tuple[int, ...] = ()
    if wild and hand & FIFTEENS:
        wilds = bits_of[hand & FIFTEENS]
        hand &= ~FIFTEENS
    by_value = [()] + [bits_of[hand & vm[v]] for v in VALUES]
    blocks: list[Block] = []
    if singles:
        for v in range(singles[1], 16):
            items = by_value[v] + wilds
            if items:
                blocks.append((_SINGLES, len(items), items, v))
    if sets:
        low_floor = min(sets.values())
        allowed = sorted(sets.items())
        leading = prev is None
        for v in range(low_floor, 16):
            items = wilds if wild and v == TOP else by_value[v] + wilds
            n = len(items)
            if n < 2:
                continue
            sizes = _LEAD_SIZES[n] if leading else tuple(k for k, f in allowed if k <= n and f <= v)
            if sizes:
                picks = _picks(n, sizes)
                blocks.append((_SETS, len(picks), items, picks, v))
    if runs:
        if wilds:
            listed: list[Play] = []
            _runs(by_value, list(wilds), runs, listed)
            if listed:
                blocks.append((_LISTED, len(listed), tuple(listed)))
        else:
            _plain_run_blocks(by_value, runs, blocks)
    return blocks


def _plain_run_blocks(by_value: list[tuple[int, ...]], floors: dict[int, int], blocks: list[Block]) -> None:
    """The blocks of runs without wild 15s (NS-3): for each lowest value, each allowed length, one block."""
    longest = max(floors)
    shortest = min(floors)
    v = 1
    while v < 16:
        if not by_value[v]:
            v += 1
            continue
        start = v
        while v < 16 and by_value[v]:
            v += 1
        end = v - 1  # the hand holds every value from start to end
        for low in range(start, end - shortest + 2):
            count = len(by_value[low])
            for high in range(low + 1, min(end, low + longest - 1) + 1):
                count *= len(by_value[high])
                floor = floors.get(high - low + 1)
                if floor is not None and high >= floor:
                    blocks.append((_RUNS, count, tuple(by_value[low : high + 1]), high))


def _follow(hand: int, prev: Play) -> list[Block]:
    """The blocks when following without wild 15s in hand and without Crazy CLUBS: the plays of the kind and size of
    ``prev`` with a higher top (NS-3, NS-4), the common turn, looked at only from the first value that may beat it."""
    kind, size, floor = prev.kind, int(prev.cards).bit_count(), prev.high + 1
    vm = VALUE_MASKS
    bits_of = _BITS_OF
    blocks: list[Block] = []
    if kind is _SINGLE:
        singles = _SINGLE_BLOCKS
        for v in range(floor, 16):
            m = hand & vm[v]
            if m:
                blocks.append(singles[m])
    elif kind is _SET:
        sized = _SIZED_SET_BLOCKS
        for v in range(floor, 16):
            block = sized.get((hand & vm[v]) * 8 + size)
            if block is not None:
                blocks.append(block)
    else:
        start = max(1, floor - size + 1)
        by_value = [bits_of[hand & vm[v]] for v in range(start, 16)]
        held = 0  # how many values in a row, ending at the current one, the hand holds
        for offset, choice in enumerate(by_value):
            held = held + 1 if choice else 0
            if held >= size:
                window = tuple(by_value[offset - size + 1 : offset + 1])
                count = 1
                for cards in window:
                    count *= len(cards)
                blocks.append((_RUNS, count, window, start + offset))
    return blocks


_SINGLE_BLOCKS, _LEAD_SET_BLOCKS, _SIZED_SET_BLOCKS = _value_blocks()
"""The blocks of one value's cards, shared by every hand (immutable): a turn only looks them up."""


def _lead(hand: int) -> list[Block]:
    """The blocks of a lead without wild 15s in hand: every single, set and run (NS-3), by value."""
    masks = [hand & m for m in _EACH_VALUE]
    present = [m for m in masks if m]
    blocks = [_SINGLE_BLOCKS[m] for m in present]
    sets = _LEAD_SET_BLOCKS
    blocks += [sets[m] for m in present if m in sets]
    bits_of = _BITS_OF
    _plain_run_blocks([(), *[bits_of[m] for m in masks]], _LEAD_RUNS, blocks)
    return blocks


_EACH_VALUE = VALUE_MASKS[1:]
"""The masks of the values 1 to 15, in order."""


_LEAD_RUNS = dict.fromkeys(range(2, 16), 1)
"""When leading, a run may have any length from 2 and any top (NS-3)."""


def generate(hand: int, prev: Play | None, wild: bool, crazy: bool) -> list[Play]:
    """Every play from ``hand`` that may be played now: any play when leading, else those that beat ``prev``, in the
    fixed order of :class:`LegalPlays` (singles and sets by value, then runs by lowest value and length)."""
    return [_decode(block, i) for block in _plan(hand, prev, wild, crazy) for i in range(block[1])]
