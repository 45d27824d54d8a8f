"""Copying a game state for search: every mutable container copied, every immutable value shared.

:func:`clone_state` walks an object's attributes (its ``__slots__`` and its ``__dict__``) and copies what it finds
by the kind of each value, so a field added to a state later is copied without anyone listing it:

* immutable values are shared: ``None``, numbers, strings, bytes, enum members, classes, functions, subclasses of
  ``int`` or ``str`` without instance attributes (:class:`~clubsuite.cards.CardSet`), and named tuples and frozen
  dataclasses whose annotated fields are all of immutable types (:class:`~clubsuite.cards.Card`, the deals, the
  options, the events);
* a plain tuple or frozenset is shared when everything in it is, and rebuilt around copies otherwise;
* lists, dicts, sets and bytearrays get new containers, their items copied by the same rules (so nested lists are
  copied to the bottom);
* an object of a class written in Python (a hand, a match, a view, a mutable dataclass) gets a new instance of its
  class with every attribute copied by the same rules, without calling ``__init__``;
* an object of a C type that copies itself (a compiled hand, which holds its state in a C struct) is copied by its
  own ``__clone_state__()``, which returns an independent copy holding only immutable values in common.

Anything else (an open file, a random generator, a C type with hidden state) raises :class:`TypeError` rather
than being shared by mistake. Objects reached twice are copied once and stay shared within the copy, so a match's
hand in progress is still the last of its hands, and a view copied with its match watches the copy.

The kind of each type is worked out once and remembered, and values whose type is immutable cost one dictionary
look-up, which keeps a clone cheap enough for search.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
import types
import typing
from collections.abc import Callable
from typing import Protocol, TypeVar, cast

T = TypeVar("T")

Memo = dict[int, object]
"""The id of every mutable object copied so far, mapped to its copy."""

Copier = Callable[[object, Memo], object]
"""A function that copies an instance of one class (see :func:`_object_copier`)."""

_SHARE = 0
_TUPLE = 1
_LIST = 2
_DICT = 3
_SET = 4
_BYTEARRAY = 5
_FROZENSET = 6
_OBJECT = 7
_OWN = 8

_KINDS: dict[type, int] = {
    type(None): _SHARE,
    bool: _SHARE,
    int: _SHARE,
    float: _SHARE,
    complex: _SHARE,
    str: _SHARE,
    bytes: _SHARE,
    range: _SHARE,
    type: _SHARE,
    types.FunctionType: _SHARE,
    tuple: _TUPLE,
    frozenset: _FROZENSET,
    list: _LIST,
    dict: _DICT,
    set: _SET,
    bytearray: _BYTEARRAY,
}
"""The kind of every type met so far (see :func:`kind_of`)."""

_SHARED_TYPES: set[type] = {tp for tp, kind in _KINDS.items() if kind == _SHARE}
"""The types whose values are shared, for a check of a whole tuple at C speed."""

_VERIFIED: dict[int, object] = {}
"""Tuples and frozensets found immutable all the way down (nested tuples of numbers, say), by id, each kept alive
here so that its id cannot be taken by another object while it is listed."""
_VERIFIED_MAX = 1 << 14
"""How many verified tuples are remembered before the list starts again (a bound on the memory it holds)."""

_HEAP_TYPE = 1 << 9
"""``Py_TPFLAGS_HEAPTYPE``: the type was written in Python (its instances keep their state in attributes)."""

_COPIERS: dict[type, Copier] = {}
"""For each class copied as an object: the function that copies its instances (see :func:`_object_copier`)."""


class _ClonesItself(Protocol):
    """An object of a C type that copies itself (a compiled hand)."""

    def __clone_state__(self) -> object:
        """An independent copy, sharing only immutable values with this object."""
        ...


_UNSET = object()
"""Stands for a slot that was never set."""


def _immutable_hint(hint: object) -> bool:
    """Whether every value of the annotated type ``hint`` is immutable (judged from the type, not a value)."""
    if hint is typing.Any or isinstance(hint, TypeVar):
        return False
    origin = typing.get_origin(hint)
    if origin is None:
        try:
            return isinstance(hint, type) and kind_of(hint) == _SHARE
        except TypeError:  # a type that cannot be copied at all is not immutable either
            return False
    if origin in (typing.Union, types.UnionType, typing.Literal):
        return origin is typing.Literal or all(_immutable_hint(a) for a in typing.get_args(hint))
    if origin in (tuple, frozenset):
        return all(a is Ellipsis or _immutable_hint(a) for a in typing.get_args(hint))
    return False


def _fields_immutable(tp: type) -> bool:
    """Whether a named tuple or frozen dataclass declares only fields of immutable types (False when its annotations
    cannot be read)."""
    try:
        hints = typing.get_type_hints(tp)
    except Exception:  # an annotation naming something only a type checker sees: judge each value instead
        return False
    if dataclasses.is_dataclass(tp):
        names = [f.name for f in dataclasses.fields(tp)]
    else:
        names = list(getattr(tp, "_fields", ()))
    return all(name in hints and _immutable_hint(hints[name]) for name in names)


def _no_instance_state(tp: type) -> bool:
    """Whether instances of a subclass of a built-in value type carry nothing beyond the value (no ``__dict__``, no
    slots of their own)."""
    if tp.__dictoffset__:
        return False
    return all(not getattr(c, "__slots__", ()) for c in tp.__mro__ if c.__flags__ & _HEAP_TYPE)


def _classify(tp: type) -> int:
    """The kind of a type not yet met; raises :class:`TypeError` for a type that cannot be copied safely."""
    if issubclass(tp, (enum.Enum, type)):
        return _SHARE
    if issubclass(tp, tuple):
        if not _no_instance_state(tp):
            raise TypeError(f"cannot copy a {tp.__qualname__}: a tuple with attributes of its own")
        _KINDS[tp] = _TUPLE  # provisional, for a field that names its own class
        return _SHARE if hasattr(tp, "_fields") and _fields_immutable(tp) else _TUPLE
    if issubclass(tp, (int, float, complex, str, bytes, frozenset)):
        if _no_instance_state(tp):
            return _FROZENSET if issubclass(tp, frozenset) else _SHARE
        raise TypeError(f"cannot copy a {tp.__qualname__}: a value type with attributes of its own")
    for base, kind in ((list, _LIST), (dict, _DICT), (set, _SET), (bytearray, _BYTEARRAY)):
        if issubclass(tp, base):
            if tp is not base:
                raise TypeError(f"cannot copy a {tp.__qualname__}: only the built-in {base.__name__} is copied")
            return kind
    if callable(getattr(tp, "__clone_state__", None)):
        return _OWN  # a state kept in C that copies itself (a compiled hand)
    try:  # Python refuses it for a class whose instances are laid out in C (a generator, a file, a lock)
        object.__new__(tp)
        plain = all(c is object or c.__flags__ & _HEAP_TYPE for c in tp.__mro__)
    except TypeError:
        plain = False
    if not plain:
        raise TypeError(
            f"cannot copy a {tp.__qualname__}: it keeps state that is not in Python attributes; "
            "keep such objects out of game states"
        )
    params = getattr(tp, "__dataclass_params__", None)
    if params is not None and params.frozen:
        _KINDS[tp] = _OBJECT  # provisional, for a field that names its own class
        return _SHARE if _fields_immutable(tp) else _OBJECT
    return _OBJECT


def kind_of(tp: type) -> int:
    """How values of type ``tp`` are copied (0: shared as immutable); worked out once per type."""
    kind = _KINDS.get(tp)
    if kind is None:
        kind = _KINDS[tp] = _classify(tp)
        if kind == _SHARE:
            _SHARED_TYPES.add(tp)
    return kind


def is_immutable_type(tp: type) -> bool:
    """Whether every value of type ``tp`` is shared by a copy (it cannot change)."""
    return kind_of(tp) == _SHARE


def _slot_names(tp: type) -> tuple[str, ...]:
    """The attribute names of every slot of ``tp``, from each class of its MRO (private names mangled)."""
    found: list[str] = []
    for c in reversed(tp.__mro__):
        slots = c.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{c.__name__.lstrip('_')}{name}"
            if name not in found:
                found.append(name)
    return tuple(found)


def _object_copier(tp: type) -> Copier:
    """The function that copies an instance of the Python class ``tp``, made once per class.

    For a class with slots and an ordinary ``__setattr__`` it is generated, one read and one write per slot (as
    :mod:`dataclasses` generates ``__init__``), a list of immutable values copied on the spot: several times faster
    than a loop over the names, and the hand of a search is copied at every node. A class without slots copies its
    ``__dict__``; any other class gets the loop.
    """
    names = _slot_names(tp)
    if not names:

        def copy_plain(value: object, memo: Memo) -> object:
            other: object = object.__new__(tp)
            memo[id(value)] = other
            _copy_dict(value, other, memo)
            return other

        return copy_plain
    setattr_of: object = tp.__setattr__
    if setattr_of is not object.__setattr__ or not all(n.isidentifier() for n in names):
        return _copy_object
    lines = [
        "def copy_instance(value, memo):",
        "    other = new(cls)",
        "    memo[id(value)] = other",
    ]
    for name in names:
        lines += [
            "    try:",
            f"        v = value.{name}",
            "    except AttributeError:",  # a slot never set stays unset in the copy
            "        pass",
            "    else:",
            "        k = kinds.get(type(v))",
            f"        if k == {_SHARE}:",
            f"            other.{name} = v",
            f"        elif k == {_LIST} and id(v) not in memo and (",
            "            shared(map(type, v)) or all(map(is_, map(vget, map(id, v)), v))",
            "        ):",
            f"            other.{name} = memo[id(v)] = v.copy()",
            f"        elif k == {_TUPLE} and vget(id(v)) is v:",
            f"            other.{name} = v",
            f"        elif k == {_DICT} and id(v) not in memo and (",
            "            shared(map(type, v)) and shared(map(type, v.values()))",
            "        ):",
            f"            other.{name} = memo[id(v)] = v.copy()",
            "        else:",
            f"            other.{name} = copy(v, memo)",
        ]
    if tp.__dictoffset__:
        lines.append("    copy_dict(value, other, memo)")
    lines.append("    return other")
    scope: dict[str, object] = {
        "new": object.__new__,
        "cls": tp,
        "kinds": _KINDS,
        "copy": _copy,
        "copy_dict": _copy_dict,
        "shared": _SHARED_TYPES.issuperset,
        "is_": operator.is_,
        "vget": _VERIFIED.get,
    }
    exec("\n".join(lines), scope)  # the names are identifiers of the class's own slots, checked above
    copier = scope["copy_instance"]
    assert callable(copier)  # the function the lines above define
    return copier


def _copy(value: object, memo: Memo) -> object:
    """``value`` copied by the rules of the module docstring; ``memo`` maps the id of every mutable object copied so
    far to its copy."""
    tp = type(value)
    kind = _KINDS.get(tp)
    if kind is None:
        kind = kind_of(tp)
    if kind == _SHARE:
        return value
    if kind in (_TUPLE, _FROZENSET) and isinstance(value, (tuple, frozenset)):
        return value if _VERIFIED.get(id(value)) is value else _copy_items(value, memo)
    done = memo.get(id(value))
    if done is not None:
        return done
    out: object
    shared = _SHARED_TYPES.issuperset
    # Each kind below is that of one built-in type exactly (its subclasses are refused by kind_of), so each
    # isinstance check holds whenever its kind does: it names the type for the type checker.
    if kind == _LIST and isinstance(value, list):
        if shared(map(type, value)) or _all_verified(value):
            out = memo[id(value)] = value.copy()  # immutable items, or tuples verified before: all shared
        else:
            items: list[object] = []
            out = memo[id(value)] = items
            append, kinds, verified = items.append, _KINDS, _VERIFIED
            for item in value:  # typically tuples already verified: taken without a call
                if kinds.get(type(item)) == _TUPLE and verified.get(id(item)) is item:
                    append(item)
                else:
                    append(_copy(item, memo))
    elif kind == _DICT and isinstance(value, dict):
        if shared(map(type, value)) and shared(map(type, value.values())):
            out = memo[id(value)] = value.copy()
        else:
            entries: dict[object, object] = {}
            out = memo[id(value)] = entries
            for k, v in value.items():
                entries[_copy(k, memo)] = _copy(v, memo)
    elif kind == _SET and isinstance(value, set):
        out = memo[id(value)] = {_copy(item, memo) for item in value}
    elif kind == _BYTEARRAY and isinstance(value, bytearray):
        out = memo[id(value)] = bytearray(value)
    elif kind == _OWN:  # its class was found to have a __clone_state__ method when its kind was worked out
        out = memo[id(value)] = cast(_ClonesItself, value).__clone_state__()
    else:
        copier = _COPIERS.get(tp)
        if copier is None:
            copier = _COPIERS[tp] = _object_copier(tp)
        out = copier(value, memo)
    return out


def _all_verified(items: list[object]) -> bool:
    """Whether every item is a tuple already found immutable all the way down (checked at C speed)."""
    return all(map(operator.is_, map(_VERIFIED.get, map(id, items)), items))


def _copy_items(value: tuple[object, ...] | frozenset[object], memo: Memo) -> object:
    """A tuple or frozenset: the same object when everything in it is immutable, else one of the same type around
    copies of its items."""
    items: list[object] | None = None
    if not _SHARED_TYPES.issuperset(map(type, value)):
        for i, item in enumerate(value):
            copied = _copy(item, memo)
            if items is None:
                if copied is item:
                    continue
                items = list(value)[:i]
            items.append(copied)
    if items is None:
        # Immutable all the way down, so it can never change: remembered, and the next copy skips the walk.
        if len(_VERIFIED) >= _VERIFIED_MAX:
            _VERIFIED.clear()
        _VERIFIED[id(value)] = value
        return value
    tp = type(value)
    if tp is tuple:
        return tuple(items)
    if tp is frozenset:
        return frozenset(items)
    return tuple.__new__(tp, items) if issubclass(tp, tuple) else tp(items)


def _copy_object(value: object, memo: Memo) -> object:
    """An instance of a Python class: a new instance (``__init__`` is not called) with every attribute copied."""
    tp = type(value)
    other = object.__new__(tp)
    memo[id(value)] = other
    kinds = _KINDS
    for name in _slot_names(tp):
        attr = getattr(value, name, _UNSET)
        if attr is not _UNSET:
            object.__setattr__(other, name, attr if kinds.get(type(attr)) == _SHARE else _copy(attr, memo))
    if tp.__dictoffset__:
        _copy_dict(value, other, memo)
    return other


def _copy_dict(value: object, other: object, memo: Memo) -> None:
    """Copy the instance ``__dict__`` of ``value`` into ``other``'s: all at once, then a copy over each value that
    is not immutable."""
    state = value.__dict__
    target = other.__dict__
    target.update(state)
    kinds = _KINDS
    shared = _SHARED_TYPES.issuperset
    for name, attr in state.items():
        kind = kinds.get(type(attr))
        if kind == _SHARE:
            continue
        if kind == _LIST and id(attr) not in memo and shared(map(type, attr)):  # the common case, without a call
            target[name] = memo[id(attr)] = attr.copy()
        else:
            target[name] = _copy(attr, memo)


def clone_state(state: T, memo: Memo | None = None) -> T:
    """An independent copy of ``state``: every mutable container in it copied, every immutable value shared.

    Nothing done to the copy changes the original or the other way round. ``memo`` (the id of each mutable object
    already copied, mapped to its copy) lets several calls share one copy of what they reach in common. Raises
    :class:`TypeError` naming a value that cannot be copied safely.
    """
    return cast(T, _copy(state, {} if memo is None else memo))  # a copy is of its original's type
