"""The generic copy of game states (:func:`clubsuite.copying.clone_state`): every mutable container is copied, every
immutable value shared, and a field added later is copied without being listed anywhere."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

import pytest

from clubsuite.cards import CardSet, card_at
from clubsuite.copying import clone_state, is_immutable_type
from clubsuite.engine import Phase
from clubsuite.games.free import FreeDeal, FreeHand
from clubsuite.games.whist import WhistDeal, WhistHand, WhistOptions
from clubsuite.games.whist.events import CardPlayed


class Colour(Enum):
    RED = 1


@dataclass(frozen=True)
class Frozen:
    """A frozen dataclass of immutable fields: a value, shared."""

    n: int
    cards: tuple[CardSet, ...]


@dataclass(frozen=True)
class FrozenHoldingAList:
    """Frozen, but one field is a list: not a value, so it is copied."""

    items: list[int]


@dataclass
class Mutable:
    """A mutable dataclass (like Free Clubs' misplays): copied."""

    n: int
    seen: list[int] = field(default_factory=list)


class Loose(NamedTuple):
    """A named tuple with a field of any type: shared only when what it holds is."""

    payload: Any


class Slotted:
    __slots__ = ("__private", "alias", "bag", "flags", "grid", "key", "later", "nested", "raw", "values")

    def __init__(self) -> None:
        self.__private = [1]
        self.values = [1, 2, 3]
        self.grid = [[1, 2], [3, 4]]
        self.bag = {1: [5], 2: [6]}
        self.flags = {7, 8}
        self.raw = bytearray(b"ab")
        self.nested = (1, (2, [3]))
        self.key = (1, (2, 3), CardSet(5), card_at(3), Frozen(1, (CardSet(1),)), Colour.RED, "text", None, 2.5)
        self.alias = self.values

    @property
    def private(self) -> list[int]:
        """The name-mangled slot."""
        return self.__private


class Plain:
    def __init__(self) -> None:
        self.values = [[1], [2]]
        self.me = self
        self.record = Mutable(1, [2])
        self.frozen_list = FrozenHoldingAList([4])
        self.loose = (Loose(3), Loose([9]))


def _slotted_fields(obj: Slotted) -> list[Any]:
    return [obj.private, obj.values, obj.grid, obj.grid[0], obj.bag, obj.bag[1], obj.flags, obj.raw, obj.nested[1][1]]


def test_every_mutable_container_gets_its_own_copy_and_nested_lists_are_copied_to_the_bottom() -> None:
    original = Slotted()
    copy = clone_state(original)
    for a, b in zip(_slotted_fields(original), _slotted_fields(copy), strict=True):
        assert a == b
        assert a is not b
    copy.grid[0].append(9)
    copy.bag[1].append(9)
    copy.flags.add(9)
    copy.raw.append(9)
    copy.private.append(9)
    copy.nested[1][1].append(9)
    assert original.grid == [[1, 2], [3, 4]] and original.bag == {1: [5], 2: [6]} and original.flags == {7, 8}
    assert original.raw == bytearray(b"ab") and original.private == [1] and original.nested == (1, (2, [3]))


def test_immutable_values_are_shared_not_copied() -> None:
    original = Slotted()
    copy = clone_state(original)
    assert copy.key is original.key  # a tuple of numbers, strings, card sets, cards, frozen dataclasses, enums
    for tp in (int, str, CardSet, type(card_at(0)), Frozen, Colour, WhistOptions, WhistDeal, CardPlayed, Phase):
        assert is_immutable_type(tp), tp
    for tp in (list, dict, set, bytearray, Mutable, FrozenHoldingAList, Loose, tuple):
        assert not is_immutable_type(tp), tp


def test_an_object_reached_twice_is_copied_once_and_cycles_are_kept() -> None:
    original = Slotted()
    copy = clone_state(original)
    assert copy.alias is copy.values  # aliased in the original, aliased in the copy
    plain = Plain()
    other = clone_state(plain)
    assert other.me is other and other is not plain


def test_objects_in_frozen_dataclasses_and_tuples_are_copied_when_they_can_change() -> None:
    plain = Plain()
    other = clone_state(plain)
    assert other.record == plain.record and other.record is not plain.record
    assert other.record.seen is not plain.record.seen
    assert other.frozen_list is not plain.frozen_list and other.frozen_list.items is not plain.frozen_list.items
    assert other.loose[0] is plain.loose[0]  # holds a number: shared
    assert other.loose[1] == plain.loose[1] and other.loose[1].payload is not plain.loose[1].payload
    assert type(other.loose[1]) is Loose


def test_a_slot_never_set_stays_unset() -> None:
    class Partial:
        __slots__ = ("a", "b")

    obj = Partial()
    obj.a = [1]
    copy = clone_state(obj)
    assert copy.a == [1] and copy.a is not obj.a
    assert not hasattr(copy, "b")


@pytest.mark.parametrize(
    "value",
    [random.Random(1), type("Listish", (list,), {})(), [1].append],
    ids=["random-generator", "list-subclass", "bound-method"],
)
def test_a_value_that_cannot_be_copied_safely_raises_instead_of_being_shared(value: Any) -> None:
    holder = Plain()
    holder.values = [value]
    with pytest.raises(TypeError, match="cannot copy"):
        clone_state(holder)


def test_a_field_added_to_a_hand_later_is_copied_without_being_listed() -> None:
    """A new mutable field is copied by every hand's clone, slotted (whist) or not (Free Clubs)."""

    class WhistHandWithMore(WhistHand):
        __slots__ = ("extra",)

    rng = random.Random(5)
    hand = WhistHandWithMore(WhistDeal.random(rng))
    hand.extra = [[1, 2]]
    copy = hand.clone()
    assert copy.extra == [[1, 2]] and copy.extra is not hand.extra and copy.extra[0] is not hand.extra[0]

    free = FreeHand(FreeDeal.random(rng))
    free.extra = {"seen": [1]}  # type: ignore[attr-defined]
    other = free.clone()
    assert other.extra == {"seen": [1]} and other.extra["seen"] is not free.extra["seen"]  # type: ignore[attr-defined]


def test_a_cloned_hand_plays_on_alone() -> None:
    """Play on a clone leaves the original hand as it was, and the other way round."""
    hand = WhistHand(WhistDeal.random(random.Random(11)))
    for _ in range(5):
        hand.apply(hand.legal_actions()[0])

    def state(h: WhistHand) -> tuple[Any, ...]:
        return (list(h.hands), list(h.tricks), list(h.decisions), h.to_act, h.trick_indices, h.bid, h.version)

    copy = hand.clone()
    before = state(hand)
    copy.apply(copy.legal_actions()[-1])
    assert state(hand) == before
    after = state(copy)
    hand.apply(hand.legal_actions()[0])
    assert state(copy) == after


@pytest.mark.long
@pytest.mark.parametrize("spec", ["whist", "free", "partnership", "northstar(players=4)"])
def test_a_released_copy_is_freed_without_the_cycle_collector(spec: str) -> None:
    """A server replaces a table's match with a changed copy at every action: once released, the old one leaves no
    cycle behind for the collector (whose full passes over a busy process pause it)."""
    import gc

    from clubsuite.engine import resolve
    from clubsuite.runner import deal_next

    info, options = resolve(spec)
    match = info.new_match(options, 0)
    deal_next(match, info, 1)
    rng = random.Random(1)
    for _ in range(10):
        legal = list(match.legal_actions())
        match.apply(legal[rng.randrange(len(legal))])
    for seat in range(match.n_seats):
        match.view(seat).to_dict()
    copy = match.clone()
    gc.collect()
    gc.disable()
    try:
        copy.release()
        del copy
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert match.view(0).to_dict()  # the original keeps its views
