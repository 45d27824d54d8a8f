"""``clubs puzzle`` and ``clubs puzzles``: a puzzle played in the terminal (a wrong answer refused with what it gets,
the right one accepted and its line shown, the rating moved and kept), a set made, checked and counted, bad input
refused with a message and status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.puzzles.model import Puzzle, read_set
from clubsuite.puzzles.store import Store


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A set of exact puzzles (double dummy: those played here): a single-dummy search costs a second or more, and the
    generator's own tests make and check every kind (test_puzzle_generator.py)."""
    out = tmp_path_factory.mktemp("puzzles") / "set.jsonl"
    args = ["--kinds", "double_dummy", "--count", "6", "--seed", "3", "--out", str(out)]
    made = clubs_in_process(["puzzles", "make", "whist", *args])
    assert made.status == 0, made.stderr
    assert "6 puzzles in" in made.stdout
    return out


def _exact(path: Path) -> Puzzle:
    return next(p for p in read_set(path) if p.exact)


def test_a_puzzle_is_played_in_the_terminal_and_the_rating_kept(
    made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = _exact(made)
    wrong = next(a for a in puzzle.values if a != puzzle.solution)
    store = tmp_path / "ratings.json"
    monkeypatch.setenv("CLUBS_PUZZLE_STORE", str(store))
    typed = f"ZZ\n{wrong}\n{puzzle.solution}\nq\n".encode()
    out = clubs_in_process(["puzzle", "whist", "--set", str(made), "--id", puzzle.id, "--lang", "en"], typed)
    assert out.status == 0, out.stderr
    assert_safe_output(out)
    assert f"Puzzle {puzzle.id}" in out.stdout and "Every hand:" in out.stdout
    goal = int(puzzle.goal or 0)
    assert f"takes {goal} trick" in out.stdout or f"holds you to {goal} trick" in out.stdout
    assert f"{wrong} " in out.stdout and "(the answer " in out.stdout  # what the wrong card gets, in words
    assert "Your puzzle rating: 1500 → " in out.stdout
    assert f"Right: {puzzle.solution}." in out.stdout and "The line, the others playing against you:" in out.stdout
    kept = Store.load(store)
    assert kept.attempted("whist") == {puzzle.id: False}  # the first answer was wrong: a miss, rated once
    assert kept.rating("whist")[0] < 1500


def test_the_solution_asked_for_counts_as_a_miss_and_every_language_plays(
    made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = _exact(made)
    monkeypatch.setenv("CLUBS_PUZZLE_STORE", str(tmp_path / "r.json"))
    out = clubs_in_process(["puzzle", "whist", "--set", str(made), "--id", puzzle.id, "--lang", "de"], b"s\nq\n")
    assert out.status == 0, out.stderr
    assert "Ihre Aufgabenwertung: 1500 → " in out.stdout and "Die Lösung: " in out.stdout
    assert "Alle Blätter sind offen." in out.stdout and "Your" not in out.stdout and "Themes" not in out.stdout
    assert Store.load(tmp_path / "r.json").attempted("whist") == {puzzle.id: False}


def test_a_set_is_checked_counted_and_a_puzzle_that_does_not_hold_is_named(made: Path, tmp_path: Path) -> None:
    checked = clubs_in_process(["puzzles", "check", str(made)])
    assert checked.status == 0 and "6 of 6 puzzles checked: all hold" in checked.stdout
    stats = json.loads(clubs_in_process(["puzzles", "stats", str(made)]).stdout)
    assert stats["puzzles"] == 6 and sum(stats["kinds"].values()) == 6
    lines = made.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[0])
    broken["solution"] = next(a for a in broken["values"] if a != broken["solution"])
    if broken["line"]:
        broken["line"][0] = broken["solution"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(broken) + "\n", encoding="utf-8")
    out = clubs_in_process(["puzzles", "check", str(bad)])
    assert out.status == 2 and f"puzzle {broken['id']}" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["puzzle", "whist", "--theme", "mate"], "--theme mate: "),
        (["puzzle", "chess"], "chess"),
        (["puzzle", "whist", "--id", "nope"], "--id nope"),
        (["puzzles", "make", "whist", "--kinds", "mate", "--out", "{tmp}/x.jsonl"], "not a kind of puzzle"),
        (["puzzles", "make", "whist", "--bots", "wizard", "--out", "{tmp}/y.jsonl"], "wizard"),
        (["puzzles", "stats", "{tmp}/none.jsonl"], "cannot read"),
        (["puzzles", "themes", "chess"], "chess"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_status_2(args: list[str], said: str, tmp_path: Path) -> None:
    out = clubs_in_process([a.replace("{tmp}", str(tmp_path)) for a in args])
    assert out.status == 2, (out.stdout, out.stderr)
    assert said in out.stderr and "Traceback" not in out.stderr


def test_the_themes_of_every_game_are_listed() -> None:
    for game in ("whist", "free", "partnership", "northstar"):
        out = clubs_in_process(["puzzles", "themes", game])
        assert out.status == 0 and out.stdout.count("\n") >= 5
