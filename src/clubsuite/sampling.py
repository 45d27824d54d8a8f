"""Uniform sampling of hidden cards among locations under exact sizes and per-location exclusions.

A seat that does not see some cards still knows how many each other hand (or pile) holds and, from the play,
which cards a hand cannot hold (a void shown, a card it would have had to play). :func:`sample_assignment`
draws one placement of the unseen cards that respects all of it, uniformly among all such placements: cards
are grouped by the set of locations they may go to, a dynamic programme counts the completions of every split
of each group, and the splits are drawn in proportion to those counts.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from math import comb

from clubsuite.cards import iter_bits
from clubsuite.errors import ClubsError


def _splits(m: int, locs: Sequence[int], caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``m`` cards in ``locs`` within the capacities; yields per-location counts."""
    if not locs:
        if m == 0:
            yield (0,) * len(caps)
        return
    first, rest = locs[0], locs[1:]
    rest_cap = sum(caps[i] for i in rest)
    for k in range(max(0, m - rest_cap), min(m, caps[first]) + 1):
        for tail in _splits(m - k, rest, caps):
            out = list(tail)
            out[first] += k
            yield tuple(out)


def _ways(m: int, split: tuple[int, ...]) -> int:
    total, left = 1, m
    for k in split:
        if k:
            total *= comb(left, k)
            left -= k
    return total


def sample_assignment(pool: int, sizes: Sequence[int], allowed: Sequence[int], rng: random.Random) -> list[int]:
    """Place the cards of mask ``pool`` in ``len(sizes)`` locations, uniformly among valid placements.

    ``sizes[i]`` is how many cards location ``i`` receives; a card ``c`` may go to location ``i`` only if bit
    ``c`` of ``allowed[i]`` is set. Returns one mask per location. Raises :class:`ClubsError` if no placement
    exists (the constraints contradict each other).
    """
    n = len(sizes)
    if sum(sizes) != pool.bit_count() or min(sizes, default=0) < 0:
        raise ClubsError(f"cannot place {pool.bit_count()} unseen cards into locations of sizes {list(sizes)}")
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in iter_bits(pool):
        locs = tuple(i for i in range(n) if allowed[i] >> c & 1)
        if not locs:
            raise ClubsError("an unseen card has nowhere it may be: the constraints contradict each other")
        groups.setdefault(locs, []).append(c)
    cats = sorted(groups.items(), key=lambda kv: len(kv[0]))
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(k: int, caps: tuple[int, ...]) -> int:
        if k == len(cats):
            return 1 if not any(caps) else 0
        key = (k, caps)
        got = memo.get(key)
        if got is not None:
            return got
        locs, cards = cats[k]
        total = 0
        for split in _splits(len(cards), locs, caps):
            rest = tuple(c - s for c, s in zip(caps, split, strict=True))
            total += _ways(len(cards), split) * count(k + 1, rest)
        memo[key] = total
        return total

    caps = tuple(sizes)
    if count(0, caps) == 0:
        raise ClubsError("no placement of the unseen cards fits what is known: the constraints contradict")
    out = [0] * n
    for k, (locs, cards) in enumerate(cats):
        options = []
        for split in _splits(len(cards), locs, caps):
            rest = tuple(c - s for c, s in zip(caps, split, strict=True))
            w = _ways(len(cards), split) * count(k + 1, rest)
            if w:
                options.append((w, split, rest))
        pick = rng.randrange(sum(w for w, _, _ in options))
        chosen = 0
        while pick >= options[chosen][0]:
            pick -= options[chosen][0]
            chosen += 1
        _, split, rest = options[chosen]
        shuffled = list(cards)
        rng.shuffle(shuffled)
        pos = 0
        for i, take in enumerate(split):
            for c in shuffled[pos : pos + take]:
                out[i] |= 1 << c
            pos += take
        caps = rest
    return out
