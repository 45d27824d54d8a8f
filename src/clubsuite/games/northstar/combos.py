"""Plays of North Star's CLUBS: singles, sets and runs (NS-3), wild 15s (NS-9), what beats what (NS-4, NS-11).

A play is a :class:`Play`: the cards, the kind and the value of its top card. That is enough to know everything about
it: in a set every card stands for the top value; in a run every card other than a 15 stands for itself and the wild
15s fill the other places (which 15 fills which place changes nothing, so it is not part of the play).

Notation: the cards in value order, separated by spaces (``7C 7H``, ``4H 5C 6D``); a wild 15 says what it stands for
with ``=`` (``7H 15S=7``, ``15D=8 9C 10C``); a 15 with no ``=`` is a 15. ``-`` may separate cards (``4H-5C-6D``). Bare
values (``7 7``, ``4-5-6``) are read against the hand of the player: they name that player's cards of those values when
there is exactly one way to do so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import NamedTuple

from clubsuite.card_reasons import CARD_TWICE
from clubsuite.cards import CARD_TABLE, NUMBERED_BASE, NUMBERED_CARDS, Card, CardSet, Deck, Suit
from clubsuite.errors import InvalidNotationError
from clubsuite.games.northstar import reasons
from clubsuite.reasons import Reason, cards_param
from clubsuite.safetext import quoted

NORTHSTAR = Deck("North Star 60-card", NUMBERED_CARDS, "northstar")
"""The 60 cards of the game, valued 1..15 in four suits (notation ``1C`` .. ``15S``)."""

VALUES = range(1, 16)
TOP = 15
"""The highest value: a play with a 15 on top wins the trick at once (NS-4), except in Crazy CLUBS (NS-11)."""


def _value_mask(value: int) -> int:
    return sum(1 << (NUMBERED_BASE + suit * 15 + value - 1) for suit in Suit)


VALUE_MASKS: tuple[int, ...] = (0, *(_value_mask(v) for v in VALUES))
"""``VALUE_MASKS[v]``: the four cards of value ``v`` (index 0 unused)."""
FIFTEENS = VALUE_MASKS[TOP]
CLUB_MASK = sum(1 << (NUMBERED_BASE + v - 1) for v in VALUES)
"""The fifteen clubs."""
DECK_MASK = sum(VALUE_MASKS)
"""All 60 cards."""


def value_of(index: int) -> int:
    """The printed value (1..15) of the North Star card with this index."""
    return (index - NUMBERED_BASE) % 15 + 1


class Kind(StrEnum):
    """The three kinds of play (NS-3)."""

    SINGLE = "single"
    SET = "set"
    RUN = "run"


class Play(NamedTuple):
    """Cards played together: a single, a set or a run, and the value its top card counts as."""

    cards: CardSet
    """The cards."""
    kind: Kind
    """Single, set or run."""
    high: int
    """The value of the top card (for a set or single: the value every card counts as)."""

    @property
    def size(self) -> int:
        """How many cards."""
        return self.cards.bit_count()

    @property
    def low(self) -> int:
        """The value of the lowest card."""
        return self.high - self.cards.bit_count() + 1 if self.kind is Kind.RUN else self.high

    def placed(self) -> list[tuple[Card, int]]:
        """Every card with the value it stands for, in value order (then suit order); 15s fill a run's gaps."""
        cards = list(self.cards)
        if self.kind is not Kind.RUN:
            # Cards of the set's own value first, then the wild 15s standing for it, each in suit order.
            return sorted(((c, self.high) for c in cards), key=lambda cv: (cv[0].rank != self.high, cv[0].suit or 0))
        naturals = {c.rank: c for c in cards if c.rank != TOP}
        fifteens = sorted((c for c in cards if c.rank == TOP), key=lambda c: c.suit or 0)
        out = []
        for v in range(self.low, self.high + 1):
            out.append((naturals[v], v) if v in naturals else (fifteens.pop(0), v))
        return out

    def __str__(self) -> str:
        return " ".join(self.notations())

    def notations(self) -> tuple[str, ...]:
        """The play's cards in notation, in value order: a wild 15 with the value it stands for (``15S=7``); a
        ``*_cards`` parameter of a reason (:mod:`clubsuite.reasons`)."""
        return tuple(f"{c}" if c.rank == v else f"{c}={v}" for c, v in self.placed())

    def pretty(self) -> str:
        """The play with suit symbols."""
        return " ".join(f"{c.pretty()}" if c.rank == v else f"{c.pretty()}={v}" for c, v in self.placed())


class Call(StrEnum):
    """The actions that are not plays."""

    PASS = "pass"
    """Let the turn go by; you stay in the trick (NS-4)."""
    DOUBLE = "double"
    """Call double or nothing (NS-8); you then still play or pass."""


NorthstarAction = Play | Call
"""An action of North Star's CLUBS: a play, or a call."""


def wins_at_once(play: Play, crazy: bool) -> bool:
    """Whether the play takes the trick at once: a 15 counting as 15, except in Crazy CLUBS (NS-4, NS-9, NS-11)."""
    return play.high == TOP and not crazy


def beats(play: Play, prev: Play, crazy: bool) -> bool:
    """Whether ``play`` may follow ``prev``: same kind and size, higher top (NS-3); Crazy CLUBS: same kind (a single
    is a set of one), and more cards or as many with a higher top (NS-11)."""
    if crazy:
        if (play.kind is Kind.RUN) != (prev.kind is Kind.RUN):
            return False
        size, prev_size = play.cards.bit_count(), prev.cards.bit_count()
        return size > prev_size or (size == prev_size and play.high > prev.high)
    return play.kind is prev.kind and play.high > prev.high and play.cards.bit_count() == prev.cards.bit_count()


def why_not_beats(play: Play, prev: Play, crazy: bool) -> Reason:
    """The reason ``play`` cannot follow ``prev`` (assumes it cannot), for a player."""
    play_cards, prev_cards = play.notations(), prev.notations()
    if crazy:
        if (play.kind is Kind.RUN) != (prev.kind is Kind.RUN):
            if prev.kind is not Kind.RUN:
                kind = reasons.CRAZY_RUN_AFTER_SET
            elif play.kind is Kind.SINGLE:
                kind = reasons.CRAZY_SINGLE_AFTER_RUN
            else:
                kind = reasons.CRAZY_SET_AFTER_RUN
            return Reason(kind, play_cards=play_cards, prev_cards=prev_cards)
        return Reason(reasons.CRAZY_NOT_HIGHER, play_cards=play_cards, prev_cards=prev_cards, prev_value=prev.high)
    if play.kind is not prev.kind:
        kind = reasons.OTHER_KIND[play.kind.value, prev.kind.value]
        return Reason(kind, play_cards=play_cards, prev_cards=prev_cards)
    if play.size != prev.size:
        return Reason(
            reasons.OTHER_SIZE, play_cards=play_cards, count=play.size, prev_cards=prev_cards, prev_count=prev.size
        )
    return Reason(reasons.NOT_HIGHER, play_cards=play_cards, prev_cards=prev_cards, prev_value=prev.high)


# -- checking a play ----------------------------------------------------------------------------------------
def check_play(play: Play, wild: bool) -> Reason | None:
    """Why ``play`` is not a well-formed single, set or run (None if it is), checking its kind and top value."""
    if not isinstance(play.cards, int) or isinstance(play.cards, bool):
        return Reason(reasons.NOT_A_CARD_SET, cards_text=repr(play.cards))
    mask = int(play.cards)
    size = mask.bit_count()
    if size == 0:
        return Reason(reasons.NO_CARDS)
    if mask & ~DECK_MASK:
        return Reason(reasons.NOT_NORTHSTAR_CARDS, cards_text=repr(play.cards))
    fifteens = (mask & FIFTEENS).bit_count() if wild else 0
    naturals = [value_of(i) for i in _bits(mask & ~FIFTEENS if wild else mask)]
    high = play.high
    if type(high) is not int or not 1 <= high <= TOP:
        return Reason(reasons.TOP_VALUE_OUT_OF_RANGE, top_text=repr(high))
    try:
        kind = Kind(play.kind)
    except ValueError:
        return Reason(reasons.NOT_A_KIND, kind_text=repr(play.kind))
    if kind is Kind.SINGLE or kind is Kind.SET:
        if (kind is Kind.SINGLE) != (size == 1):
            return Reason(reasons.SINGLE_OR_SET_SIZE, cards=cards_param(CardSet(mask)))
        if any(v != high for v in naturals):
            return Reason(reasons.NOT_A_SET_OF, cards=cards_param(CardSet(mask)), value=high)
        return None
    low = high - size + 1
    if size < 2 or low < 1:
        return Reason(reasons.RUN_OUT_OF_RANGE, cards=cards_param(CardSet(mask)), top_value=high)
    if len(set(naturals)) != len(naturals) or any(not low <= v <= high for v in naturals):
        return Reason(reasons.NOT_A_RUN_FROM, cards=cards_param(CardSet(mask)), low_value=low, top_value=high)
    assert fifteens == size - len(naturals)
    return None


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# -- checking a play against the position, directly -----------------------------------------------------------
_THROUGH: tuple[int, ...] = tuple(sum(VALUE_MASKS[: v + 1]) for v in range(16))
"""``_THROUGH[v]``: every card of value ``v`` or lower (``_THROUGH[0]`` is empty)."""
_ABOVE: tuple[int, ...] = tuple(DECK_MASK & ~through for through in _THROUGH)
"""``_ABOVE[v]``: every card of a value higher than ``v``."""
_SPAN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_THROUGH[high] & ~_THROUGH[low - 1] if 1 <= low <= high else 0 for high in range(16)) for low in range(16)
)
"""``_SPAN[low][high]``: every card of a value from ``low`` to ``high``."""
_SUIT_SPAN = 15
_VALUE_BITS = (1 << _SUIT_SPAN) - 1


def values_held(mask: int) -> int:
    """The values among the cards of ``mask``, as a 15-bit mask (bit ``v - 1`` for value ``v``): the four suits'
    stretches of the card index folded onto one another."""
    h = mask >> NUMBERED_BASE
    return (h | h >> _SUIT_SPAN | h >> 2 * _SUIT_SPAN | h >> 3 * _SUIT_SPAN) & _VALUE_BITS


def play_fits(play: Play, hand: int, prev: Play | None, wild: bool, crazy: bool) -> bool:
    """Whether ``play`` may be played now from ``hand`` on ``prev`` (None: it leads), read from the play itself.

    The same answer as :func:`check_play`, the hand check and :func:`beats` together (what ``explain`` applies), in
    a few mask operations, so that asking whether one play is legal costs nothing like listing every legal play
    (with wild 15s a lead has over 2,400). ``play`` must be in canonical form: a :class:`CardSet`, a
    :class:`Kind` and an ``int`` top value; anything else is for ``explain`` to judge.
    """
    _, kind, high = play
    cards = play.cards + 0  # a plain mask, cheaper than int(): a card set's operators are set operations in Python
    if not cards or cards & ~hand or not 1 <= high <= TOP:
        return False  # no cards, or cards the player does not hold (the hand holds North Star cards only)
    if kind is Kind.SINGLE:
        # NS-3: one card, of the value it counts as (a wild 15 may stand for any value, NS-9).
        if cards & (cards - 1) or not (cards & VALUE_MASKS[high] or (wild and cards & FIFTEENS)):
            return False
        if prev is None:
            return True
        if not crazy:
            return prev.kind is Kind.SINGLE and high > prev.high  # as beats(): a single follows a single
        return beats(play, prev, crazy)
    natural = cards & ~FIFTEENS if wild else cards
    if kind is Kind.RUN:
        size = cards.bit_count()
        low = high - size + 1
        # NS-3: 2 or more consecutive values, no wrap: the natural cards are of distinct values from low to high,
        # and the wild 15s fill the other places (NS-9).
        if (
            size < 2
            or low < 1
            or natural & ~_SPAN[low][high]
            or values_held(natural).bit_count() != natural.bit_count()
        ):
            return False
    elif natural & ~VALUE_MASKS[high] or not cards & (cards - 1):
        return False  # NS-3: a set is two or more cards of one value (a wild 15 may stand for it, NS-9)
    if prev is None:
        return True
    if crazy:
        return beats(play, prev, crazy)
    return kind is prev.kind and high > prev.high and cards.bit_count() == prev.cards.bit_count()  # as beats()


# -- generating plays ---------------------------------------------------------------------------------------
def _bit_table() -> dict[int, tuple[int, ...]]:
    table: dict[int, tuple[int, ...]] = {}
    for v in VALUES:
        cards = [1 << i for i in _bits(VALUE_MASKS[v])]
        for pick in range(16):
            table[sum(cards[s] for s in range(4) if pick >> s & 1)] = tuple(cards[s] for s in range(4) if pick >> s & 1)
    return table


_BITS_OF = _bit_table()
"""For every set of cards of one value: its cards as single-bit masks (suit order)."""
_play = tuple.__new__
_set = int.__new__
"""Building plays and card sets without the Python-level constructors: the generator's hot path."""
_SUBSETS = {n: [[i for i in range(n) if pick >> i & 1] for pick in range(1, 1 << n)] for n in range(9)}
"""For ``n`` items: every non-empty subset as a list of positions."""

Group = tuple[tuple[Play, ...], tuple[Play, ...], dict[int, tuple[Play, ...]]]
"""The plays of one value from given cards: the singles, the sets (in subset order), and the sets by size."""
_GROUPS: tuple[dict[int, Group], ...] = tuple({} for _ in range(TOP + 1))
"""``_GROUPS[v][cards]``: the :data:`Group` of value ``v`` made of ``cards`` (the cards of value ``v`` and any wild
15s standing for it), built the first time it is asked for. There are at most 16 x 16 card sets per value, so the
table stays small, and the plays in it are shared: they are immutable."""


def _group(v: int, items: int) -> Group:
    """The singles and sets of value ``v`` from ``items``: its own cards (suit order) first, then the wild 15s
    standing for it (NS-3, NS-9); with ``v == 15`` the 15s are its own cards."""
    group = _GROUPS[v].get(items)
    if group is not None:
        return group
    own = items & VALUE_MASKS[v]
    bits = _BITS_OF[own] + _BITS_OF[items & ~own]
    singles = tuple(_play(Play, (_set(CardSet, bit), Kind.SINGLE, v)) for bit in bits)
    sets: list[Play] = []
    by_size: dict[int, list[Play]] = {}
    for pick in _SUBSETS[len(bits)]:
        if len(pick) < 2:
            continue
        mask = 0
        for i in pick:
            mask |= bits[i]
        play = _play(Play, (_set(CardSet, mask), Kind.SET, v))
        sets.append(play)
        by_size.setdefault(len(pick), []).append(play)
    group = (singles, tuple(sets), {k: tuple(ps) for k, ps in by_size.items()})
    _GROUPS[v][items] = group
    return group


_LOW_VALUES = tuple(tuple(v for v in range(1, 9) if held >> (v - 1) & 1) for held in range(1 << 8))
_HIGH_VALUES = tuple(tuple(v for v in range(9, 16) if held >> (v - 9) & 1) for held in range(1 << 7))
"""For a mask of values held (bit ``v - 1`` for value ``v``): the values 1 to 8 it holds (by its low 8 bits) and
the values 9 to 15 (by the others), lowest first; the two joined list the values held without a loop over all 15."""
_PLAIN: dict[int, Group] = {
    own: _group(v, own) for v in VALUES for own in (m for m in _BITS_OF if m and not m & ~VALUE_MASKS[v])
}
"""The :data:`Group` of every non-empty set of cards of one value, by the cards (no wild 15 joins them): the value is
in the cards, so one table serves every value."""
_SINGLES = {1 << i: _play(Play, (_set(CardSet, 1 << i), Kind.SINGLE, value_of(i))) for i in _bits(DECK_MASK)}
"""Every card as a single (NS-3), shared by all positions."""
_SINGLE, _RUN = Kind.SINGLE, Kind.RUN
"""The kinds the generator's fast path asks about, read once."""
_LEAD_FLOORS = dict.fromkeys(range(2, 16), 1)
"""A lead may be a run of any length with any top."""


def generate(hand: int, prev: Play | None, wild: bool, crazy: bool) -> list[Play]:
    """Every play from ``hand`` that may be played now: any play when leading, else those that beat ``prev``.

    The order is fixed (singles, then sets, by value, a value's own cards before the wild 15s standing for it;
    runs by lowest value, then length), so legal-action lists are reproducible. Only the plays of the kinds and
    sizes that may follow are built: following a single looks at the values above it only, and the singles and
    sets of a value are built once for all positions (:func:`_group`).
    """
    vm = VALUE_MASKS
    if prev is not None and not (wild or crazy):
        # NS-3: as many cards of a higher value (the commonest decision): only the values above the play to beat
        # that the hand holds are visited.
        prev_cards, prev_kind, prev_high = prev
        if prev_kind is not _RUN:
            above = hand & _ABOVE[prev_high]
            if not above & (above - 1):  # no card above, or one: nothing to sort
                return [_SINGLES[above]] if above and prev_kind is _SINGLE else []
            h = above >> NUMBERED_BASE
            h = (h | h >> 15 | h >> 30 | h >> 45) & _VALUE_BITS  # values_held(above)
            plain = _PLAIN
            out: list[Play] = []
            if prev_kind is _SINGLE:
                for v in _LOW_VALUES[h & 255] + _HIGH_VALUES[h >> 8]:
                    out += plain[above & vm[v]][0]
            else:
                size = prev_cards.bit_count()
                for v in _LOW_VALUES[h & 255] + _HIGH_VALUES[h >> 8]:
                    out += plain[above & vm[v]][2].get(size, ())
            return out
    wilds = hand & FIFTEENS if wild else 0
    groups = _GROUPS
    out = []
    sets: list[Play] = []
    if prev is None:
        h = hand >> NUMBERED_BASE
        held = (h | h >> 15 | h >> 30 | h >> 45) & _VALUE_BITS  # values_held(hand)
        if wilds:
            for v in VALUES:  # with a wild 15 every value has a single at least
                group = groups[v].get(hand & vm[v] | wilds) or _group(v, hand & vm[v] | wilds)
                out += group[0]
                sets += group[1]
            out += sets
            _wild_runs(hand & ~FIFTEENS, wilds, _LEAD_FLOORS, out)
            return out
        plain = _PLAIN
        for v in _LOW_VALUES[held & 255] + _HIGH_VALUES[held >> 8]:
            group = plain[hand & vm[v]]
            out += group[0]
            sets += group[1]
        out += sets
        _lead_runs(hand, held, out)
        return out
    size, high = prev.cards.bit_count(), prev.high
    kind = prev.kind
    if kind is Kind.RUN:
        # NS-3: a run of as many cards with a higher top; NS-11: or a longer run with any top.
        floors = {size: high + 1}
        if crazy:
            floors.update(dict.fromkeys(range(size + 1, 16), 1))
        _runs(hand, wilds, floors, out)
    elif crazy:
        # NS-11: a single counts as a set of one; more cards beat fewer, as many need a higher value.
        for v in VALUES:
            items = hand & vm[v] | wilds
            if items:
                group = groups[v].get(items) or _group(v, items)
                if size == 1 and v > high:
                    out += group[0]
                sets += [p for p in group[1] if (n := p.cards.bit_count()) > size or (n == size and v > high)]
        out += sets
    else:
        # NS-3, NS-9: as many cards of a higher value, the wild 15s standing for any of them.
        single = kind is Kind.SINGLE
        for v in range(high + 1, 16):
            group = groups[v].get(hand & vm[v] | wilds) or _group(v, hand & vm[v] | wilds)
            out += group[0] if single else group[2].get(size, ())
    return out


def _runs(hand: int, wilds: int, floors: dict[int, int], out: list[Play]) -> None:
    """Append the runs of the allowed sizes (``floors``: each size with the lowest top it may have), by lowest
    value, then length (NS-3); wild 15s may fill gaps (NS-9)."""
    if wilds:
        _wild_runs(hand & ~FIFTEENS, wilds, floors, out)
    elif len(floors) == 1:
        ((size, floor),) = floors.items()
        _runs_of_size(hand, size, floor, out)
    else:
        _plain_runs(hand, floors, out)


_RUNS: dict[int, tuple[Play, ...]] = {}
"""The runs made of given cards without wild 15s (a card of each value from the lowest to the highest), by those
cards, in the generator's order; the cards say which values the run spans. Filled as runs are met, up to
:data:`RUNS_KEPT` card sets (a few megabytes): the short runs that make most of play are met first."""
RUNS_KEPT = 1 << 14


def _run_plays(cards: int, low: int, high: int) -> tuple[Play, ...]:
    """The runs from ``low`` to ``high`` made of ``cards`` (which hold every value between, and no other): one card
    of each value, the choices of the lower values varying slowest, each value's cards in suit order (NS-3)."""
    plays = _RUNS.get(cards)
    if plays is None:
        if cards.bit_count() == high - low + 1:  # one card of each value: the one run (the commonest case)
            plays = (_play(Play, (_set(CardSet, cards), _RUN, high)),)
        else:
            masks = [0]
            for v in range(low, high + 1):
                masks = [m | bit for m in masks for bit in _BITS_OF[cards & VALUE_MASKS[v]]]
            plays = tuple([_play(Play, (_set(CardSet, m), _RUN, high)) for m in masks])
        if len(_RUNS) < RUNS_KEPT:
            _RUNS[cards] = plays
    return plays


def _lead_runs(hand: int, held: int, out: list[Play]) -> None:
    """Append every run of ``hand`` (the values it holds: ``held``), without wild 15s, by lowest value, then length
    (NS-3): each stretch of consecutive values held is walked once from each of its values."""
    starts = held & held >> 1  # bit low - 1: the hand holds low and low + 1
    runs, span = _RUNS, _SPAN
    while starts:
        low = (starts & -starts).bit_length()
        starts &= starts - 1
        spans = span[low]
        high = low + 1
        while held >> (high - 1) & 1:  # held has 15 bits: the walk stops at 15 (no wrap)
            cards = hand & spans[high]
            out += runs.get(cards) or _run_plays(cards, low, high)
            high += 1


def _runs_of_size(hand: int, size: int, floor: int, out: list[Play]) -> None:
    """Append the runs of ``size`` cards with a top of ``floor`` or more, without wild 15s: the lowest values of the
    stretches the hand holds are found in one pass over the values held, so a follow with no run costs a few mask
    operations."""
    held = values_held(hand)
    starts = held
    for i in range(1, size):
        starts &= held >> i  # bit low - 1 stays set while the values from low to low + i are all held
    starts &= -1 << max(floor - size, 0)  # the top, low + size - 1, reaches the floor
    runs, span = _RUNS, _SPAN
    while starts:
        low = (starts & -starts).bit_length()
        starts &= starts - 1
        high = low + size - 1
        cards = hand & span[low][high]
        out += runs.get(cards) or _run_plays(cards, low, high)


def _plain_runs(hand: int, floors: dict[int, int], out: list[Play]) -> None:
    """Append the runs of the allowed sizes and tops when no wild 15 is involved (NS-3), by lowest value, then
    length: the stretches of consecutive values the hand holds are walked (found with mask operations on the values
    held), each only up to the longest size that may be played."""
    held = values_held(hand)
    starts = held & held >> 1  # bit low - 1: the hand holds low and low + 1
    longest = max(floors)
    while starts:
        low = (starts & -starts).bit_length()
        starts &= starts - 1
        high = low + 1
        top = min(15, low + longest - 1)
        while high <= top and held >> (high - 1) & 1:
            floor = floors.get(high - low + 1)
            if floor is not None and high >= floor:
                cards = hand & _SPAN[low][high]
                out += _RUNS.get(cards) or _run_plays(cards, low, high)
            high += 1


def _wild_runs(hand: int, wilds: int, floors: dict[int, int], out: list[Play]) -> None:
    """Append the runs of the allowed sizes and tops (NS-3) when the wild 15s ``wilds`` may fill gaps (NS-9);
    ``hand`` holds the other cards."""
    by_value = [_BITS_OF[hand & vm] for vm in VALUE_MASKS]
    wild_bits = _BITS_OF[wilds]
    n_wild = len(wild_bits)
    wild_subsets: list[list[int]] = [[] for _ in range(n_wild + 1)]
    for pick in range(1 << n_wild):
        mask = 0
        for i in range(n_wild):
            if pick >> i & 1:
                mask |= wild_bits[i]
        wild_subsets[pick.bit_count()].append(mask)
    longest = max(floors)
    first = max(1, min(floor - size + 1 for size, floor in floors.items()))
    run = Kind.RUN
    for low in range(first, 15):
        # Extend the run upwards from ``low``; ``partial`` holds (natural mask, wilds used) pairs.
        partial: list[tuple[int, int]] = [(0, 0)]
        for high in range(low, min(15, low + longest - 1) + 1):
            grown: list[tuple[int, int]] = []
            for mask, used in partial:
                for bit in by_value[high]:
                    grown.append((mask | bit, used))
                if used < n_wild:
                    grown.append((mask, used + 1))
            partial = grown
            if not partial:
                break
            floor = floors.get(high - low + 1)
            if floor is None or high < floor:
                continue
            for mask, used in partial:
                for extra in wild_subsets[used]:
                    out.append(_play(Play, (_set(CardSet, mask | extra), run, high)))


# -- notation ------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"^(?:(\d{1,2})([CDHS\u2663\u2666\u2665\u2660])|(\d{1,2}))(?:=(\d{1,2}))?$")
_SUIT_SYMBOLS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


class Token(NamedTuple):
    """One part of a play's notation: a card (or a bare value to find in the hand) and what it stands for."""

    card: Card | None
    value: int
    """The printed value of the card, or the bare value."""
    stands_for: int | None
    """The value a wild 15 stands for (``15S=7``), or None."""


def tokens(text: str) -> list[Token]:
    """Read the parts of a play's notation; raises :class:`InvalidNotationError` naming the bad part."""
    raw = text.strip()
    parts = [p for p in re.split(r"[\s,\-]+", raw.upper().replace("\ufe0f", "")) if p]
    if not parts:
        raise InvalidNotationError(Reason(reasons.EMPTY_PLAY))
    out = []
    for part in parts:
        m = _TOKEN.match(part)
        if m is None:
            raise InvalidNotationError(Reason(reasons.NOT_A_CARD, part=quoted(part), text=quoted(raw)))
        stands = int(m.group(4)) if m.group(4) else None
        if m.group(3) is not None:
            value = int(m.group(3))
            if not 1 <= value <= TOP:
                raise InvalidNotationError(Reason(reasons.BARE_VALUE_OUT_OF_RANGE, part=quoted(part), text=quoted(raw)))
            if stands is not None:
                raise InvalidNotationError(Reason(reasons.BARE_VALUE_STANDS_FOR, part=quoted(part), text=quoted(raw)))
            out.append(Token(None, value, None))
            continue
        suit = _SUIT_SYMBOLS.get(m.group(2), m.group(2))
        c = NORTHSTAR.parse(f"{int(m.group(1))}{suit}") if 1 <= int(m.group(1)) <= TOP else None
        if c is None:
            raise InvalidNotationError(Reason(reasons.CARD_VALUE_OUT_OF_RANGE, part=quoted(part), text=quoted(raw)))
        if stands is not None and not 1 <= stands <= TOP:
            raise InvalidNotationError(Reason(reasons.STANDS_FOR_OUT_OF_RANGE, part=quoted(part), text=quoted(raw)))
        out.append(Token(c, c.rank, stands))
    return out


def resolve(parts: Sequence[Token], hand: int | None, raw: str) -> list[tuple[Card, int]]:
    """The cards the parts name, each with the value it stands for; bare values are found in ``hand``."""
    named = 0
    for t in parts:
        if t.card is not None:
            if named >> t.card.index & 1:
                raise InvalidNotationError(Reason(CARD_TWICE, card=str(t.card), text=quoted(raw)))
            named |= 1 << t.card.index
    wanted: dict[int, int] = {}
    for t in parts:
        if t.card is None:
            wanted[t.value] = wanted.get(t.value, 0) + 1
    chosen: dict[int, list[Card]] = {}
    for value, count in wanted.items():
        if hand is None:
            raise InvalidNotationError(Reason(reasons.BARE_VALUE_WITHOUT_HAND, text=quoted(raw), value=value))
        have = [CARD_TABLE[i] for i in _bits(hand & VALUE_MASKS[value] & ~named)]
        if len(have) < count:
            if not have:
                why = Reason(reasons.BARE_VALUE_NONE_HELD, text=quoted(raw), count=count, value=value)
            else:
                held = cards_param(c for c in have if c)
                why = Reason(reasons.BARE_VALUE_TOO_FEW, text=quoted(raw), count=count, value=value, held_cards=held)
            raise InvalidNotationError(why)
        if len(have) > count:
            raise InvalidNotationError(
                Reason(
                    reasons.BARE_VALUE_AMBIGUOUS,
                    text=quoted(raw),
                    held_cards=cards_param(c for c in have if c),
                    value=value,
                    example_cards=cards_param(c for c in have[:count] if c),
                )
            )
        chosen[value] = [c for c in have if c is not None]
    out = []
    for t in parts:
        if t.card is None:
            out.append((chosen[t.value].pop(0), t.value))
        else:
            out.append((t.card, t.stands_for if t.stands_for is not None else t.value))
    return out


def build(placed: Sequence[tuple[Card, int]], wild: bool, raw: str) -> Play:
    """The play made of these cards standing for these values; raises naming the rule when it is none (NS-3)."""
    for c, v in placed:
        if v != c.rank:
            if c.rank != TOP:
                raise InvalidNotationError(
                    Reason(reasons.ONLY_FIFTEEN_STANDS_FOR, card=str(c), value=v, text=quoted(raw))
                )
            if not wild:
                raise InvalidNotationError(Reason(reasons.WILD_NEEDS_OPTION, card=str(c), value=v, text=quoted(raw)))
    mask = 0
    for c, _ in placed:
        mask |= 1 << c.index
    values = sorted(v for _, v in placed)
    cards = CardSet.from_mask(mask)
    if len(values) == 1:
        return Play(cards, Kind.SINGLE, values[0])
    if values[0] == values[-1]:
        return Play(cards, Kind.SET, values[0])
    if values == list(range(values[0], values[0] + len(values))):
        return Play(cards, Kind.RUN, values[-1])
    wild_hint = wild and any(c.rank == TOP for c, _ in placed)
    kind = reasons.NOT_A_COMBINATION_WILD if wild_hint else reasons.NOT_A_COMBINATION
    raise InvalidNotationError(Reason(kind, text=quoted(raw.strip())))


def parse_play(text: str, wild: bool, hand: int | None = None) -> Play:
    """Read a play from its notation; bare values are found in ``hand`` when it is given."""
    return build(resolve(tokens(text), hand, text), wild, text)
