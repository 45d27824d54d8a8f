"""A puzzle as data: written and read back the same, every field of a line that is not one refused with the field
named (and never a traceback), sets bounded in size; the local ratings of ``clubs puzzle``: each attempt a rated
game between the player and the puzzle, kept whole, a broken file refused; the next puzzle near the player."""

from __future__ import annotations

import contextlib
import functools
import gzip
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubsuite.puzzles.choose import next_puzzle
from clubsuite.puzzles.make import MakeSettings, match_puzzles
from clubsuite.puzzles.model import FIELDS, Puzzle, PuzzleError, dumps_line, puzzle_from_json, read_set, write_set
from clubsuite.puzzles.rating import attempt, puzzle_skill
from clubsuite.puzzles.sets import shipped
from clubsuite.puzzles.store import Store
from clubsuite.ratings import START, shown

_MADE: list[Puzzle] = []


def some_puzzles() -> list[Puzzle]:
    """Puzzles made here by the generator, for the round trip of what it makes: the matches of a run, up to the first
    that leaves both kinds among them (a single-dummy search is costly, so no more matches than that: with seed 7
    the first match gives both, one of them a puzzle without a theme)."""
    if not _MADE:
        settings = MakeSettings("whist", seed=7, kinds=("double_dummy", "single_dummy"))
        for i in range(6):
            _MADE.extend(match_puzzles(settings, i))
            if {p.kind for p in _MADE} == {"double_dummy", "single_dummy"}:
                break
    return _MADE


@functools.cache
def shipped_puzzles() -> list[Puzzle]:
    """Puzzles of the whist set the package ships (made by the same generator), for the tests of one puzzle."""
    return shipped("whist")[:40]


@pytest.mark.long
def test_a_puzzle_is_read_back_as_it_was_written(tmp_path: Path) -> None:
    puzzles = some_puzzles()
    assert {p.kind for p in puzzles} == {"double_dummy", "single_dummy"}
    for name in ("set.jsonl", "set.jsonl.gz"):
        write_set(puzzles, tmp_path / name)
        back = read_set(tmp_path / name)
        assert [p.to_json() for p in back] == [json.loads(dumps_line(p)) for p in puzzles]
        assert [p for p in back if p.exact] == [p for p in puzzles if p.exact]  # exact values are whole numbers
    assert gzip.decompress((tmp_path / "set.jsonl.gz").read_bytes()) == (tmp_path / "set.jsonl").read_bytes()
    seed = next(p for p in puzzles if p.worlds is not None).worlds["seed"]  # type: ignore[index]
    assert isinstance(seed, int) and seed > 2**53  # a seed is kept exactly, never as a float


BROKEN: list[tuple[str, Any, str]] = [
    ("format", "chess-puzzle", "'format'"),
    ("version", 2, "'version'"),
    ("kind", "mate_in_two", "'kind'"),
    ("solution", "ZZ", "has no value"),
    ("values", {"AS": 1}, "'values'"),
    ("values", {"AS": "one", "KS": 2}, "the value of"),
    ("values", {"AS": float("nan"), "KS": 2}, "must be a number"),
    ("line", ["KS"], "'line' must start with the solution"),
    ("line", "AS", "'line' has the wrong type"),
    ("goal", True, "'goal'"),
    ("rating", 5000, "'rating'"),
    ("rating", 100, "'rating'"),
    ("hand", -1, "'hand'"),
    ("seat", "0", "'seat' has the wrong type"),
    ("record", {"format": "x"}, "its record"),
    ("themes", ["x" * 300], "'themes'"),
    ("mistake", {"seat": 0}, "'mistake'"),
    ("worlds", {"seed": 1}, "'worlds'"),
    ("surprise", 1, "unknown field 'surprise'"),
]


@pytest.mark.parametrize(("field", "value", "said"), BROKEN)
def test_a_broken_field_is_refused_by_name(field: str, value: Any, said: str) -> None:
    good = next(p for p in shipped_puzzles() if p.exact).to_json()
    good["values"] = {"AS": 1, "KS": 0} if field == "solution" else good["values"]
    bad = {**good, field: value}
    if field == "line":
        bad["solution"] = good["solution"]
    with pytest.raises(PuzzleError, match=said.replace("(", r"\(")):
        puzzle_from_json(json.loads(json.dumps(bad, allow_nan=True)), "the line")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@given(JSON)
def test_any_json_that_is_no_puzzle_is_refused_with_a_clear_error(value: Any) -> None:
    with pytest.raises(PuzzleError):
        puzzle_from_json(value)


@given(st.sampled_from(FIELDS), JSON, st.booleans())
def test_a_puzzle_with_any_field_changed_or_dropped_is_read_or_refused_clearly(
    field: str, value: Any, drop: bool
) -> None:
    good = next(p for p in shipped_puzzles() if p.exact).to_json()
    changed = {k: v for k, v in good.items() if k != field} if drop else {**good, field: value}
    with contextlib.suppress(PuzzleError):  # a clear refusal; anything else (a KeyError, a TypeError) fails the test
        puzzle_from_json(changed)


def test_a_set_file_that_is_not_one_is_refused_naming_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = json.dumps(shipped_puzzles()[0].to_json())
    path.write_text(good + "\n{not json\n", encoding="utf-8")
    with pytest.raises(PuzzleError, match="line 2"):
        read_set(path)
    (tmp_path / "bad.jsonl.gz").write_bytes(b"not gzip at all")
    with pytest.raises(PuzzleError, match="not valid gzip"):
        read_set(tmp_path / "bad.jsonl.gz")
    big = tmp_path / "big.jsonl"
    big.write_text(good + "\n" + good + "\n", encoding="utf-8")
    with pytest.raises(PuzzleError, match="larger than"):
        read_set(big, limit=len(good) + 10)
    (tmp_path / "bomb.jsonl.gz").write_bytes(gzip.compress(b"\n" * 2_000_000))
    with pytest.raises(PuzzleError, match="larger than"):
        read_set(tmp_path / "bomb.jsonl.gz", limit=1_000_000)  # read no further than the limit once unpacked
    with pytest.raises(PuzzleError, match="cannot read"):
        read_set(tmp_path / "missing.jsonl")


def test_solving_raises_the_players_rating_and_lowers_the_puzzles_and_a_miss_the_other_way() -> None:
    puzzle = puzzle_skill(1500)
    won_player, won_puzzle = attempt(START, puzzle, True)
    lost_player, lost_puzzle = attempt(START, puzzle, False)
    assert won_player.mu > START.mu > lost_player.mu
    assert won_puzzle.mu < puzzle.mu < lost_puzzle.mu
    assert won_player.sigma < START.sigma and lost_player.sigma < START.sigma
    assert abs(shown(puzzle_skill(1730))[0] - 1730) <= 1  # a first rating reads back as itself


def test_the_store_keeps_ratings_and_history_whole_and_refuses_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "puzzles.json"
    store = Store.load(path)
    p = shipped_puzzles()[0]
    before, after = store.record("whist", p, True)
    assert after > before == 1500
    store.save()
    again = Store.load(path)
    assert again.players == store.players and again.puzzles == store.puzzles and again.history == store.history
    assert again.attempted("whist") == {p.id: True} and again.streak("whist") == 1
    assert again.rating("partnership") == (1500, 1000)  # a pool of its own
    for broken in ("{", json.dumps({"players": {"whist": [25, -1]}, "puzzles": {}, "history": []}), "[]"):
        path.write_text(broken, encoding="utf-8")
        with pytest.raises(PuzzleError, match="move the file away"):
            Store.load(path)
        assert path.read_text(encoding="utf-8") == broken  # never overwritten


def test_the_next_puzzle_is_the_nearest_to_the_players_rating_not_yet_tried_then_the_ones_missed() -> None:
    base = shipped_puzzles()[0]
    ladder = [replace(base, id=f"p{r}", rating=r) for r in (1000, 1400, 1600, 2000)]
    assert next_puzzle(ladder, 1500, {}, {}).id in ("p1400", "p1600")  # type: ignore[union-attr]
    assert next_puzzle(ladder, 1500, {}, {}, "hardest").id == "p2000"  # type: ignore[union-attr]
    assert next_puzzle(ladder, 1500, {}, {}, "easiest").id == "p1000"  # type: ignore[union-attr]
    tried = {"p1000": True, "p1400": False, "p1600": True, "p2000": True}
    assert next_puzzle(ladder, 1500, {}, tried).id == "p1400"  # type: ignore[union-attr]
    assert next_puzzle(ladder, 1500, {}, dict.fromkeys(tried, True)) is None
    moved = {"p2000": 1450}  # attempts moved this one near the player
    assert next_puzzle(ladder, 1500, moved, {}).id == "p2000"  # type: ignore[union-attr]
