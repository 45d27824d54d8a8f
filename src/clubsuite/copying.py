"""Copying a game state cheaply for search: share what is immutable, copy only the containers that change."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def clone_slots(state: T, containers: Iterable[str]) -> T:
    """A copy of ``state`` (a class with ``__slots__``) sharing every slot's value, except the mutable ``containers``
    (lists, dicts), which get shallow copies of their own: their items are immutable, so that is independence."""
    cls = type(state)
    other = cls.__new__(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        setattr(other, name, getattr(state, name))
    for name in containers:
        setattr(other, name, copy.copy(getattr(state, name)))
    return other
