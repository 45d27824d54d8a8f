"""The starter sets shipped in the package: as many as the docs say, of every game and seat count asked for, spread
over kinds, themes and ratings, every line a puzzle, a sample of each checked again from its record, small enough to
ship, and the counts in ``docs/puzzles.md`` the sets' own."""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.engine import resolve
from clubsuite.puzzles.check import check_puzzle
from clubsuite.puzzles.criteria import CONFIRM_WORLDS
from clubsuite.puzzles.make import SHARES
from clubsuite.puzzles.model import Puzzle, read_set
from clubsuite.puzzles.sets import BEGIN, DATA, END, docs_block, sets_for, shipped_sets
from clubsuite.puzzles.themes import theme_names

DOCS = Path(__file__).resolve().parents[2] / "docs" / "puzzles.md"
WANTED = {
    "whist": 500,
    "free": 500,
    "partnership": 500,
    "northstar(players=3)": 300,
    "northstar(players=4)": 300,
    "northstar(players=5)": 300,
}
"""Each set the package ships and the fewest puzzles it must hold (``make puzzle-sets``, common puzzles kept one
time in three, one-note and easy puzzles held to their share)."""


@functools.cache
def file_puzzles(file: Path) -> list[Puzzle]:
    """The puzzles of one shipped set file, read once for the tests of this module (none changes them)."""
    return read_set(file)


def set_puzzles(variant: str) -> list[Puzzle]:
    """The puzzles of the sets shipped for ``variant`` (:func:`file_puzzles`)."""
    return [p for s in sets_for(variant) for p in file_puzzles(s.file)]


def test_every_set_asked_for_ships_with_as_many_puzzles_as_wanted() -> None:
    sets = shipped_sets()
    assert len(sets) == len(WANTED)
    for spec, least in WANTED.items():
        (shipped,) = sets_for(spec)  # one set per game and seat count
        puzzles = file_puzzles(shipped.file)
        assert len(puzzles) == shipped.count >= least, spec
        assert {p.variant for p in puzzles} == {shipped.variant} and resolve(shipped.variant) == resolve(spec)
        assert len({p.id for p in puzzles}) == len(puzzles)
    assert sum(f.stat().st_size for f in DATA.iterdir()) < 2 * 1024 * 1024  # compressed, small enough to ship


@pytest.mark.parametrize("variant", sorted(WANTED))
def test_a_set_is_spread_over_kinds_themes_and_ratings(variant: str) -> None:
    puzzles = set_puzzles(variant)
    kinds = Counter(p.kind for p in puzzles)
    assert len(kinds) >= 2 and min(kinds.values()) >= 0.1 * len(puzzles), kinds
    themes = Counter(t for p in puzzles for t in p.themes)
    assert set(themes) <= set(theme_names(puzzles[0].game)) and len(themes) >= 6, themes
    bands = Counter(0 if p.rating < 1400 else 2 if p.rating >= 1800 else 1 for p in puzzles)
    assert len(bands) == 3 and sorted(bands.values())[1] >= 10, bands  # every band, two of them well filled
    assert any(p.mistake is not None for p in puzzles)


@pytest.mark.parametrize("variant", sorted(WANTED))
def test_a_set_holds_one_note_and_easy_puzzles_to_their_share_and_hard_ones(variant: str) -> None:
    puzzles = set_puzzles(variant)
    n = len(puzzles)
    assert sum(len(p.values) == 2 for p in puzzles) <= SHARES["two actions"] * n  # keep or exchange, pass or play
    assert Counter(p.solution for p in puzzles).most_common(1)[0][1] <= SHARES["one answer"] * n  # "pass"
    assert sum(p.rating < 1400 for p in puzzles) <= SHARES["easy"] * n  # the heuristic bot finds the answer
    assert sum(p.rating >= 1800 for p in puzzles) >= 0.1 * n  # neither the heuristic nor the search finds it


@pytest.mark.parametrize("variant", sorted(WANTED))
def test_every_single_dummy_puzzle_shipped_states_a_margin_confirmed_on_fresh_worlds(variant: str) -> None:
    for p in (p for p in set_puzzles(variant) if p.kind == "single_dummy"):
        assert p.worlds is not None and p.worlds["confirm_worlds"] == CONFIRM_WORLDS, p.id
        assert p.worlds["low"] >= 0.02 and p.worlds["low"] <= p.worlds["confirmed"] <= p.worlds["high"], p.id


SAMPLED = {"double_dummy": 3, "endgame": 3, "single_dummy": 1}
"""Puzzles of each kind checked again per set and run: the exact ones cost little, a single-dummy check searches
hundreds of worlds (about a second), so one of those a set, and that in only some of the sets a run
(:data:`SINGLE_DUMMY_SETS`)."""
SINGLE_DUMMY_SETS = 2
"""The sets, of the six, whose single-dummy puzzle is checked again in a run."""


@pytest.mark.long
@pytest.mark.parametrize("variant", sorted(WANTED))
def test_a_sample_of_each_set_holds_when_checked_again(variant: str, fresh_seed: int) -> None:
    """Each kind's sample (:data:`SAMPLED`) is drawn from the run's seed (``fresh_seed``), and so are the sets whose
    single-dummy puzzle is checked (:data:`SINGLE_DUMMY_SETS` of them), so each run checks other puzzles than the
    last and many runs cover the sets."""
    puzzles = set_puzzles(variant)
    by_kind: dict[str, list[Puzzle]] = {}
    for p in puzzles:
        by_kind.setdefault(p.kind, []).append(p)
    sampled = dict(SAMPLED)
    if variant not in random.Random(fresh_seed).sample(sorted(WANTED), SINGLE_DUMMY_SETS):
        sampled["single_dummy"] = 0
    rng = random.Random(f"{fresh_seed}|{variant}")
    for kind, some in by_kind.items():
        for p in rng.sample(some, min(len(some), sampled[kind])):
            check_puzzle(p)


def test_the_docs_give_the_sets_own_counts() -> None:
    text = DOCS.read_text(encoding="utf-8")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:stop] == docs_block(file_puzzles), "run: python -m clubsuite.puzzles.sets --write"


def test_a_shipped_set_is_exported_as_json_lines() -> None:
    out = clubs_in_process(["puzzles", "export", "northstar(players=4)"])
    assert out.status == 0 and out.stdout.count("\n") == sets_for("northstar(players=4)")[0].count
    every = clubs_in_process(["puzzles", "stats", "northstar"])
    assert f'"puzzles": {sum(s.count for s in sets_for("northstar"))}' in every.stdout
