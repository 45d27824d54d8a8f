"""How a set is chosen and rated: a puzzle the heuristic bot solves is rated under 1400 and one neither bot solves
1800 or more; one-note puzzles (two actions to choose from, one answer shared by many) and easy ones fill at most
their share of a set, and the harder band is preferred."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from clubsuite.puzzles.make import SHARES, balanced
from clubsuite.puzzles.model import Puzzle, match_point, read_set
from clubsuite.puzzles.rating import HABIT, SEARCH, finds, first_rating, rating_from

GOLDEN = Path(__file__).resolve().parent / "golden_themes.jsonl"


def test_a_puzzle_the_heuristic_solves_rates_low_and_one_no_bot_solves_rates_high() -> None:
    seen = set()
    for p in read_set(GOLDEN):
        match = match_point(p)
        solution = match.parse_action(p.solution)
        habit = finds(HABIT, match, solution, 7)
        rating = first_rating(match, solution, p.kind, 7)
        if habit:
            assert rating < 1400, p.id
        elif finds(SEARCH, match, solution, 7):
            assert 1400 <= rating < 1800, p.id
        else:
            assert rating >= 1800, p.id
        seen.add(habit)
        # the band is who finds it, whatever the length adds
        assert rating_from(match, p.kind, True, False) < 1400 <= rating_from(match, p.kind, False, True) < 1800
        assert rating_from(match, p.kind, False, False) >= 1800
    assert seen == {True, False}  # the golden puzzles hold both


def pool_of(n: int, answer: str, two: bool, rating: int, start: int) -> list[Puzzle]:
    """``n`` made-up puzzles (one real puzzle's position, other ids) answering ``answer`` among two actions or
    four, rated ``rating``."""
    base = read_set(GOLDEN)[0]
    out = []
    for k in range(n):
        values = {answer: 1.0, "x": 0.0} if two else {answer: 1.0, "x": 0.0, "y": 0.0, "z": 0.0}
        solution = answer if answer != "unique" else f"c{start + k}"
        values = {solution if a == answer else a: v for a, v in values.items()}
        out.append(replace(base, id=f"{start + k:012x}", solution=solution, values=values, rating=rating))
    return out


def test_a_set_keeps_one_note_and_easy_puzzles_within_their_shares_and_prefers_hard_ones() -> None:
    pool = (
        pool_of(60, "pass", False, 1500, 0)  # one answer again and again
        + pool_of(60, "unique", True, 1500, 100)  # two actions to choose from
        + pool_of(60, "unique", False, 1100, 200)  # easy
        + pool_of(25, "unique", False, 1500, 300)
        + pool_of(25, "unique", False, 1900, 400)
    )
    count = 100
    chosen = balanced(pool, count, 3)
    assert len({p.id for p in chosen}) == len(chosen)
    answers = Counter(p.solution for p in chosen)
    assert answers.most_common(1)[0][1] <= SHARES["one answer"] * count
    assert sum(len(p.values) == 2 for p in chosen) <= SHARES["two actions"] * count
    assert sum(p.rating < 1400 for p in chosen) <= SHARES["easy"] * count
    assert len(chosen) == count and sum(p.rating >= 1800 for p in chosen) == 25  # every hard one is taken
    # with too few others for 200, a set holds fewer than asked rather than more one-note or easy puzzles: the
    # shares hold of the set as it is
    smaller = balanced(pool, 200, 3)
    n = len(smaller)
    assert 50 < n < 200 and sum(p.rating >= 1800 for p in smaller) == 25
    assert Counter(p.solution for p in smaller).most_common(1)[0][1] <= SHARES["one answer"] * n
    assert sum(len(p.values) == 2 for p in smaller) <= SHARES["two actions"] * n
    assert sum(p.rating < 1400 for p in smaller) <= SHARES["easy"] * n


def test_without_caps_the_harder_band_comes_first_among_equals() -> None:
    pool = pool_of(10, "unique", False, 1100, 0) + pool_of(10, "unique", False, 1900, 100)
    chosen = balanced(pool, 1, 5, shares={})
    assert chosen[0].rating == 1900
