"""The puzzle generator: seeded and the same with any number of workers, resumable, its puzzles checked again from
their records by the same judges, each with a line that is legal to the end of its hand, the mistake it starts
after judged by the same judge, and themes its game declares."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from clubsuite.analysis.review import aimed_measure
from clubsuite.errors import InvalidOptionsError
from clubsuite.puzzles.check import check_puzzle
from clubsuite.puzzles.make import MakeSettings, balanced, match_puzzles, run
from clubsuite.puzzles.model import Puzzle, PuzzleError, match_point, read_set
from clubsuite.puzzles.themes import theme_names
from clubsuite.solver import card_values

DD = ("double_dummy",)


def test_a_match_gives_the_same_puzzles_every_time() -> None:
    settings = MakeSettings("whist", seed=5, kinds=DD)
    first = match_puzzles(settings, 3)
    assert first and first == match_puzzles(settings, 3)
    assert match_puzzles(MakeSettings("whist", seed=6, kinds=DD), 3) != first


def test_a_run_is_the_same_with_two_workers_and_goes_on_where_it_stopped(tmp_path: Path) -> None:
    settings = MakeSettings("whist", seed=11, kinds=DD)
    one, two, resumed = tmp_path / "one.jsonl", tmp_path / "two.jsonl", tmp_path / "resumed.jsonl"
    assert run(settings, 12, one) == 12
    assert run(settings, 12, two, workers=2) == 12
    assert one.read_bytes() == two.read_bytes()
    run(settings, 5, resumed)  # stopped after five
    with resumed.open("a", encoding="utf-8") as f:
        f.write('{"half a line')  # a line written after the progress was kept is written again
    assert run(settings, 12, resumed, resume=True) == 12
    assert resumed.read_bytes() == one.read_bytes()


def test_a_run_refuses_to_overwrite_and_to_resume_with_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    run(MakeSettings("whist", seed=1, kinds=DD), 2, out)
    with pytest.raises(InvalidOptionsError, match="exists; pass --resume"):
        run(MakeSettings("whist", seed=1, kinds=DD), 2, out)
    with pytest.raises(InvalidOptionsError, match="other settings"):
        run(MakeSettings("whist", seed=2, kinds=DD), 4, out, resume=True)
    with pytest.raises(InvalidOptionsError, match="kind of puzzle"):
        run(MakeSettings("whist", kinds=("mate_in_two",)), 1, tmp_path / "q.jsonl")
    with pytest.raises(InvalidOptionsError, match="can have none"):
        run(MakeSettings("northstar", kinds=DD), 1, tmp_path / "r.jsonl")


@pytest.mark.long
@pytest.mark.parametrize(
    ("spec", "kinds", "index", "narrowed"),
    [
        ("whist(target=5)", ("double_dummy", "single_dummy"), 0, {}),
        ("partnership", DD, 0, {}),
        ("free(target=100)", DD, 0, {"tricks": 7}),  # double dummy from 7 cards a hand, not 8
        ("northstar(players=4,target=25)", ("endgame", "single_dummy"), 1, {"single_legal": 4}),  # not 16
    ],
)
def test_every_puzzle_made_holds_when_checked_again_from_its_record(
    spec: str, kinds: tuple[str, ...], index: int, narrowed: dict[str, Any]
) -> None:
    """Every puzzle one short match (a low target: what is checked is each puzzle made, not how long a match runs)
    makes, of every kind asked for (the match of the run's settings that makes each kind). The search is
    ``narrowed`` where it costs most: free's double dummy at 8 cards a hand, single dummy at many legal actions."""
    settings = replace(MakeSettings(spec, seed=21, kinds=kinds), **narrowed)
    puzzles = match_puzzles(settings, index)
    assert {p.kind for p in puzzles} == set(kinds)
    assert len({p.hand for p in puzzles}) == len(puzzles)  # one puzzle a hand at most (per_hand=1)
    for p in puzzles:
        check_puzzle(p)
        assert set(p.themes) <= set(theme_names(p.game))
        assert 400 <= p.rating <= 3200
        if p.exact:
            assert p.line[0] == p.solution and p.goal == p.values[p.solution]


@pytest.mark.long
def test_a_puzzle_starts_after_the_other_sides_mistake_judged_as_its_player_should_have_aimed() -> None:
    seen = 0
    for index in range(30):
        for p in match_puzzles(MakeSettings("partnership", seed=3, kinds=DD), index):
            if p.mistake is None:
                continue
            seen += 1
            before = _point_before(p)
            assert before.to_act == p.mistake.seat and p.mistake.seat % 2 != p.seat % 2  # the other side
            aimed = aimed_measure(before, p.mistake.seat, 2_000_000)
            counts = {before.format_action(a): v for a, v in card_values(before, aimed).items()}
            assert max(counts.values()) - counts[p.mistake.action] == p.mistake.loss >= 1
        if seen >= 3:
            break
    assert seen >= 3


def _point_before(p: Puzzle) -> object:
    return match_point(replace(p, actions=p.actions - 1, seat=p.mistake.seat))  # type: ignore[union-attr]


def test_a_check_finds_a_puzzle_that_does_not_hold() -> None:
    p = next(p for i in range(20) for p in match_puzzles(MakeSettings("whist", seed=5, kinds=DD), i) if p.exact)
    other = next(a for a in p.values if a != p.solution)
    broken = [
        replace(p, solution=other),
        replace(p, goal=(p.goal or 0) + 1),
        replace(p, values={**p.values, other: p.values[other] + 1}),
        replace(p, line=(*p.line, p.line[-1])),
        replace(p, line=p.line[:-1]),
        replace(p, actions=p.actions + 1),
    ]
    for bad in broken:
        with pytest.raises(PuzzleError):
            check_puzzle(bad)


@pytest.mark.long
def test_a_set_chosen_from_a_pool_is_spread_over_kinds_themes_and_ratings(tmp_path: Path) -> None:
    out = tmp_path / "pool.jsonl"
    # single-dummy decisions looked at one time in 24, and only those of at most 3 legal actions (the search is
    # costly): the pool still holds both kinds
    run(MakeSettings("whist", seed=8, single_every=24, single_legal=3), 24, out)
    pool = read_set(out)
    assert {p.kind for p in pool} == {"double_dummy", "single_dummy"}
    # the spread alone (the shares of one-note and easy puzzles are tested in test_puzzle_set_choice.py)
    chosen = balanced(pool, 12, 1, shares={})
    assert len(chosen) == 12 and len({p.id for p in chosen}) == 12
    assert {p.kind for p in chosen} == {p.kind for p in pool}  # every kind of the pool is in the set
    assert balanced(pool, 12, 1, shares={}) == chosen
    lines = out.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["format"] == "clubs-puzzle" for line in lines)


def test_common_puzzles_are_kept_only_one_time_in_common_every_and_the_hand_looked_at_further() -> None:
    """A run for a set spends its matches on what sets are short of: a puzzle of two actions or one the heuristic
    bot solves (held to a share of a set, make.SHARES) is kept one time in ``common_every``."""
    from clubsuite.puzzles.rating import FOUND_BY_SEARCH

    every = MakeSettings("whist", seed=5, kinds=DD)
    rare = replace(every, common_every=1_000_000)
    plain = [p for i in range(4) for p in match_puzzles(every, i)]
    kept = [p for i in range(4) for p in match_puzzles(rare, i)]

    def common(p: Puzzle) -> bool:
        return len(p.values) == 2 or p.rating < FOUND_BY_SEARCH

    assert any(common(p) for p in plain)  # without the setting these matches give common puzzles
    assert kept and not any(common(p) for p in kept)
    # the others are all still found, and more besides: a hand whose common puzzle is left out is looked at further
    assert {p.id for p in plain if not common(p)} <= {p.id for p in kept}
