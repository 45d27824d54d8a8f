"""Events: what an applied action tells everyone, as small immutable records with one base for every game.

An event is a tuple underneath, so building one on the hot path costs what a named tuple costs (``tuple.__new__``
with its values), it unpacks, indexes and pickles like one, and it is immutable. Unlike a named tuple, equality and
hashing include the class: ``Passed(1) != PlayStarted(1)`` although both hold ``(1,)``, so a test that compares
event lists catches an event of the wrong kind.

A game declares its events as subclasses with annotated fields::

    class Decided(Event):
        seat: int
        exchanged: bool

and a subclass of an event adds fields after the inherited ones. Each declares its name on the wire
(``wire: ClassVar[str] = "Decided"``), which ``tests/test_events.py`` asks of every event class. The events every
trick game shares are defined here once: :class:`HandStarted`, :class:`PlayStarted`, :class:`CardPlayed`,
:class:`TrickTaken` and :class:`MatchEnded`. The outer layers (the terminal table, the narration of records) describe
these by class, so a game that uses them is told about without a line of its own.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, ClassVar, dataclass_transform

from clubsuite.cards import Card


def _property_getter(index: int, doc: str) -> object:
    """A read-only accessor of field ``index``, for a Python without the C one."""
    return property(itemgetter(index), doc=doc)


_tuplegetter: Callable[[int, str], object] = getattr(collections, "_tuplegetter", _property_getter)
"""The accessor of one field: the C one named tuples use (reading a field costs what it costs on a named tuple),
where the Python has it (it is private to :mod:`collections`, hence looked up by name)."""

_MISSING = object()


@dataclass_transform(frozen_default=True)
class _EventMeta(type):
    """Builds an event class from its annotations: the fields (inherited ones first), a read-only accessor per
    field, a constructor taking the fields in order (defaults allowed), and no instance dictionary."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> _EventMeta:
        inherited: tuple[str, ...] = ()
        defaults: dict[str, object] = {}
        for base in bases:
            inherited = getattr(base, "_fields", inherited)
            defaults.update(getattr(base, "_field_defaults", {}))
        annotations = namespace.get("__annotations__")  # the class body's: a dict, absent when it annotates nothing
        own = [
            field
            for field, hint in (annotations.items() if isinstance(annotations, dict) else ())
            if not str(hint).startswith(("ClassVar", "typing.ClassVar"))
        ]
        fields = (*inherited, *own)
        for field in own:
            value = namespace.pop(field, _MISSING)
            if value is not _MISSING:
                defaults[field] = value
        namespace["__slots__"] = ()
        namespace["_fields"] = fields
        namespace["_field_defaults"] = defaults
        namespace["__match_args__"] = fields
        for index, field in enumerate(fields):
            if field in own:
                namespace[field] = _tuplegetter(index, f"Field {index} of the event.")
        if fields or not bases:
            namespace["__new__"] = _constructor(fields, defaults)
        return super().__new__(mcs, name, bases, namespace)


def _constructor(fields: tuple[str, ...], defaults: dict[str, object]) -> object:
    """A ``__new__`` taking the fields by position or name, as fast as a named tuple's."""
    params = ", ".join(f"{f}=_defaults[{f!r}]" if f in defaults else f for f in fields)
    values = "".join(f"{f}, " for f in fields)
    scope: dict[str, object] = {"_new": tuple.__new__, "_defaults": defaults}
    exec(f"def __new__(_cls, {params}):\n    return _new(_cls, ({values}))\n", scope)
    new = scope["__new__"]
    assert callable(new)  # the function the line above defines
    return staticmethod(new)


class Event(tuple[object, ...], metaclass=_EventMeta):
    """The base of every event: immutable, a tuple underneath, equal only to an event of the same class."""

    _fields: ClassVar[tuple[str, ...]]
    """The field names, in order."""
    wire: ClassVar[str]
    """The event's name on the wire (an event's ``type`` in the protocol): declared by each event class, so that the
    protocol does not change when a class is renamed or moved."""
    _field_defaults: ClassVar[dict[str, object]]

    if not TYPE_CHECKING:  # the metaclass writes the real constructor of each event class

        def __new__(cls, *values):
            return tuple.__new__(cls, values)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.__class__, tuple.__hash__(self)))

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
        return f"{type(self).__name__}({inside})"

    def __getnewargs__(self) -> tuple[object, ...]:
        """What pickling and copying rebuild the event from."""
        return tuple(self)

    def _asdict(self) -> dict[str, object]:
        """The fields by name (for an event no narrator describes in words)."""
        return dict(zip(self._fields, self, strict=True))


class HandStarted(Event):
    """A new hand was dealt."""

    wire: ClassVar[str] = "HandStarted"

    hand_number: int
    """0 for the first hand of the match."""
    dealer: int
    """The dealing seat."""


class PlayStarted(Event):
    """The card play begins: ``leader`` leads the first trick."""

    wire: ClassVar[str] = "PlayStarted"

    leader: int


class CardPlayed(Event):
    """A card was played to the current trick."""

    wire: ClassVar[str] = "CardPlayed"

    seat: int
    card: Card


class TrickTaken(Event):
    """A trick was completed and won."""

    wire: ClassVar[str] = "TrickTaken"

    seat: int
    """The winner."""
    number: int
    """1 for the first trick of the hand."""
    cards: tuple[Card, ...]
    """The cards in the order played."""


class MatchEnded(Event):
    """The match ended."""

    wire: ClassVar[str] = "MatchEnded"

    winners: tuple[int, ...]
    """The winning seats; empty on a draw."""
    draw: bool
    totals: tuple[int, ...]
