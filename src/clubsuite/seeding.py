"""Seeds derived from a base seed and a path of numbers, and the shuffle every deal uses: the same on every platform
and Python version.

A match seed gives each hand its own deal seed, and a simulation seed gives each match its own seed, so a hand
can be re-dealt alone and parallel workers reproduce exactly what one process would.
"""

from __future__ import annotations

import hashlib
import random
from math import floor
from typing import TypeVar

T = TypeVar("T")


def derive_seed(base: int, *path: int) -> int:
    """A 63-bit seed from ``base`` and ``path``: the first 8 bytes of SHA-256 of ``clubsuite:base:p1:p2...``."""
    text = ":".join(["clubsuite", str(base), *(str(p) for p in path)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def hand_seed(match_seed: int, hand_index: int) -> int:
    """The deal seed of hand ``hand_index`` (0-based) of a match played from ``match_seed``."""
    return derive_seed(match_seed, hand_index)


def shuffled(n: int, rng: random.Random) -> list[int]:
    """The numbers 0..n-1 in a random order (Fisher-Yates on ``rng.random()``, the one generator output
    Python promises to keep stable, so a seed deals the same cards on every version)."""
    order = list(range(n))
    rnd = rng.random
    for i in range(n - 1, 0, -1):
        j = floor(rnd() * (i + 1))  # floor() is int() for these non-negative values, and cheaper
        order[i], order[j] = order[j], order[i]
    return order


python_shuffled = shuffled
"""The Python statement of :func:`shuffled`, kept for the tests' comparison where the C loop replaces it."""


def shuffled_items(items: tuple[T, ...], rng: random.Random) -> tuple[T, ...]:
    """``items`` in a random order: the item at each position :func:`shuffled` gives (the same draws, so a seed
    orders the same items the same way)."""
    return tuple(map(items.__getitem__, shuffled(len(items), rng)))


python_shuffled_items = shuffled_items
"""The Python statement of :func:`shuffled_items`, kept for the tests' comparison."""


def _shuffle_in_c() -> None:
    """Shuffle in C where the compiled core is built (``native/_cards.shuffled``: the same draws, the same order),
    unless ``CLUBS_PURE_PYTHON`` is set when this module is imported."""
    global shuffled, shuffled_items
    from clubsuite.native import compiled, pure_python

    module = None if pure_python() else compiled("clubsuite.native._cards")
    if module is not None:
        shuffled = module.shuffled
        shuffled_items = module.shuffled_items


_shuffle_in_c()
