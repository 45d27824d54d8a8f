"""Seeds derived from a base seed and a path of numbers, and the shuffle every deal uses: the same on every platform
and Python version.

A match seed gives each hand its own deal seed, and a simulation seed gives each match its own seed, so a hand
can be re-dealt alone and parallel workers reproduce exactly what one process would.
"""

from __future__ import annotations

import hashlib
import random
from math import floor
from typing import TYPE_CHECKING, TypeVar

from clubsuite.native import compiled, pure_python

T = TypeVar("T")


def derive_seed(base: int, *path: int) -> int:
    """A 63-bit seed from ``base`` and ``path``: the first 8 bytes of SHA-256 of ``clubsuite:base:p1:p2...``."""
    text = ":".join(["clubsuite", str(base), *(str(p) for p in path)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def hand_seed(match_seed: int, hand_index: int) -> int:
    """The deal seed of hand ``hand_index`` (0-based) of a match played from ``match_seed``."""
    return derive_seed(match_seed, hand_index)


def python_shuffled(n: int, rng: random.Random) -> list[int]:
    """The numbers 0..n-1 in a random order (Fisher-Yates on ``rng.random()``, the one generator output
    Python promises to keep stable, so a seed deals the same cards on every version)."""
    order = list(range(n))
    rnd = rng.random
    for i in range(n - 1, 0, -1):
        j = floor(rnd() * (i + 1))  # floor() is int() for these non-negative values, and cheaper
        order[i], order[j] = order[j], order[i]
    return order


def python_shuffled_items(items: tuple[T, ...], rng: random.Random) -> tuple[T, ...]:
    """``items`` in a random order: the item at each position :func:`shuffled` gives (the same draws, so a seed
    orders the same items the same way)."""
    return tuple(map(items.__getitem__, shuffled(len(items), rng)))


_CARDS = None if pure_python() else compiled("clubsuite.native._cards")
"""The compiled card paths where built, unless ``CLUBS_PURE_PYTHON`` is set when this module is imported: every
deal's shuffle then runs its loop in C (the same draws, the same order)."""

if TYPE_CHECKING:

    def shuffled(n: int, rng: random.Random) -> list[int]:
        """The numbers 0..n-1 in a random order: :func:`python_shuffled`, in C where the compiled core is built."""
        ...

    def shuffled_items(items: tuple[T, ...], rng: random.Random) -> tuple[T, ...]:
        """``items`` in a random order: :func:`python_shuffled_items`, in C where the compiled core is built."""
        ...

else:
    shuffled = python_shuffled if _CARDS is None else _CARDS.shuffled
    shuffled_items = python_shuffled_items if _CARDS is None else _CARDS.shuffled_items
