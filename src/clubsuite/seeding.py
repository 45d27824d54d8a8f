"""Seeds derived from a base seed and a path of numbers, the same on every platform and Python version.

A match seed gives each hand its own deal seed, and a simulation seed gives each match its own seed, so a hand
can be re-dealt alone and parallel workers reproduce exactly what one process would.
"""

from __future__ import annotations

import hashlib


def derive_seed(base: int, *path: int) -> int:
    """A 63-bit seed from ``base`` and ``path``: the first 8 bytes of SHA-256 of ``clubsuite:base:p1:p2...``."""
    text = ":".join(["clubsuite", str(base), *(str(p) for p in path)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def hand_seed(match_seed: int, hand_index: int) -> int:
    """The deal seed of hand ``hand_index`` (0-based) of a match played from ``match_seed``."""
    return derive_seed(match_seed, hand_index)
