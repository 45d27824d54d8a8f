"""Tests of the generic sampler of hidden cards: exact sizes, allowed locations, contradictions and uniformity."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from clubsuite.errors import ClubsError
from clubsuite.sampling import sample_assignment


def bits(mask: int) -> set[int]:
    """The bit positions set in a mask."""
    return {i for i in range(mask.bit_length()) if mask >> i & 1}


def all_placements(pool: int, sizes: list[int], allowed: list[int]) -> list[tuple[int, ...]]:
    """Every valid placement, by brute force (for small cases only)."""
    out: list[tuple[int, ...]] = []

    def place(rest: list[int], loc: int, acc: tuple[int, ...]) -> None:
        """Fill location ``loc`` onwards from the cards ``rest``, recording complete placements."""
        if loc == len(sizes):
            if not rest:
                out.append(acc)
            return
        for chosen in combinations(rest, sizes[loc]):
            mask = sum(1 << c for c in chosen)
            if mask & ~allowed[loc]:
                continue
            place([c for c in rest if c not in chosen], loc + 1, (*acc, mask))

    place(sorted(bits(pool)), 0, ())
    return out


def check(pool: int, sizes: list[int], allowed: list[int], drawn: list[int]) -> None:
    """A drawn placement partitions the pool with the right sizes, each card where it is allowed."""
    assert len(drawn) == len(sizes)
    union = 0
    for mask, size, ok in zip(drawn, sizes, allowed, strict=True):
        assert mask.bit_count() == size
        assert mask & ~ok == 0
        assert union & mask == 0
        union |= mask
    assert union == pool


def test_placements_respect_sizes_and_allowed_locations() -> None:
    rng = random.Random(1)
    for _ in range(150):
        n_cards = rng.randrange(0, 40)
        pool = sum(1 << c for c in rng.sample(range(52), n_cards))
        n_locs = rng.randrange(1, 5)
        owner = {c: rng.randrange(n_locs) for c in bits(pool)}
        sizes = [sum(1 for c in owner.values() if c == loc) for loc in range(n_locs)]
        # Each card may go to its true location plus random others, so a placement always exists.
        allowed = [0] * n_locs
        for c, loc in owner.items():
            allowed[loc] |= 1 << c
            for other in range(n_locs):
                if rng.random() < 0.5:
                    allowed[other] |= 1 << c
        drawn = sample_assignment(pool, sizes, allowed, rng)
        check(pool, sizes, allowed, drawn)


def test_a_card_allowed_in_one_place_only_goes_there() -> None:
    pool = 0b111111
    allowed = [0b000011, 0b111111, 0b111100]
    for seed in range(50):
        drawn = sample_assignment(pool, [2, 2, 2], allowed, random.Random(seed))
        assert drawn[0] == 0b000011
        check(pool, [2, 2, 2], allowed, drawn)


def test_empty_pool_and_empty_locations() -> None:
    assert sample_assignment(0, [0, 0], [0, 0], random.Random(0)) == [0, 0]
    assert sample_assignment(0b101, [0, 2], [0, 0b101], random.Random(0)) == [0, 0b101]


@pytest.mark.parametrize(
    ("pool", "sizes", "allowed"),
    [
        (0b1111, [2, 1], [0b1111, 0b1111]),  # sizes add up to less than the pool
        (0b11, [2, 1], [0b11, 0b11]),  # sizes add up to more than the pool
        (0b11, [3, -1], [0b11, 0b11]),  # a negative size
        (0b111, [1, 2], [0b011, 0b011]),  # a card allowed nowhere
        (0b1111, [2, 2], [0b0111, 0b1000]),  # every card has a place, but not enough fit the second location
        (0b1111, [3, 1], [0b0011, 0b1111]),  # the first location can take at most two of its three cards
    ],
)
def test_impossible_constraints_raise_a_clubs_error(pool: int, sizes: list[int], allowed: list[int]) -> None:
    with pytest.raises(ClubsError):
        sample_assignment(pool, sizes, allowed, random.Random(0))


def test_sampling_is_reproducible_with_the_same_rng_seed() -> None:
    pool = (1 << 30) - 1
    sizes = [10, 10, 10]
    allowed = [pool, pool & ~0b111, pool & ~(0b111 << 10)]
    a = sample_assignment(pool, sizes, allowed, random.Random(42))
    b = sample_assignment(pool, sizes, allowed, random.Random(42))
    assert a == b


def test_sampling_is_uniform_over_the_valid_placements() -> None:
    # Six cards into locations of sizes 2, 2, 2; card 0 may not go to location 0 and card 1 may only go to
    # location 2, which leaves a handful of placements of different "shapes": a sampler that picked cards one
    # at a time would favour some of them.
    pool = 0b111111
    full = 0b111111
    allowed = [full & ~0b000011, full & ~0b000010, full]
    sizes = [2, 2, 2]
    placements = all_placements(pool, sizes, allowed)
    assert 10 <= len(placements) <= 40
    rng = random.Random(20240601)
    n = 3000
    draws = Counter(tuple(sample_assignment(pool, sizes, allowed, rng)) for _ in range(n))
    assert set(draws) == set(placements)
    expected = n / len(placements)
    chi2 = sum((draws[p] - expected) ** 2 / expected for p in placements)
    # Degrees of freedom len - 1 (about 20); a chi-square this large happens with probability far below 1e-6.
    assert chi2 < 3 * len(placements) + 30
    assert min(draws.values()) > expected / 2


def test_sampling_is_uniform_when_groups_share_locations() -> None:
    # Cards 0-1 may go to A or B, cards 2-3 to B or C, cards 4-5 anywhere; sizes 2, 2, 2.
    pool = 0b111111
    allowed = [0b110011, 0b111111, 0b111100]
    sizes = [2, 2, 2]
    placements = all_placements(pool, sizes, allowed)
    rng = random.Random(7)
    n = 3000
    draws = Counter(tuple(sample_assignment(pool, sizes, allowed, rng)) for _ in range(n))
    assert set(draws) == set(placements)
    expected = n / len(placements)
    chi2 = sum((draws[p] - expected) ** 2 / expected for p in placements)
    assert chi2 < 3 * len(placements) + 30
