"""Puzzle ratings in Glicko-2 with lichess's parameters: the steps agree with the worked example of Glickman's paper,
and an attempt moves the player and the puzzle as lichess's puzzle ratings do (a newcomer's first miss, "?" while
the deviation is 110 or more, a clueless player's answer leaving the puzzle where it is)."""

from __future__ import annotations

import pytest

from clubsuite.puzzles.glicko import NEWCOMER, Glicko, attempt, new_puzzle, rate


def test_the_steps_give_the_worked_example_of_glickmans_paper() -> None:
    opponents = [(Glicko(1400, 30, 0.06), 1.0), (Glicko(1550, 100, 0.06), 0.0), (Glicko(1700, 300, 0.06), 0.0)]
    after = rate(Glicko(1500, 200, 0.06), opponents, tau=0.5)  # the paper's tau
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.02)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_newcomers_first_miss_costs_what_lichess_gives() -> None:
    assert Glicko(1500, 500, 0.09) == NEWCOMER and NEWCOMER.provisional and NEWCOMER.shown() == (1500, 1000)
    at_new, _ = attempt(NEWCOMER, new_puzzle(1500), False)  # weighted 0.3: the puzzle's rating is provisional
    assert round(at_new.rating) == 1428 and at_new.provisional
    at_known, _ = attempt(NEWCOMER, Glicko(1500, 75, 0.09), False)  # a puzzle many have rated: Glicko-2 in full
    assert round(at_known.rating) == 1263
    solved, _ = attempt(NEWCOMER, new_puzzle(1500), True)  # weighted 0.8
    assert round(solved.rating) == 1693


def test_a_clueless_players_answer_leaves_the_puzzle_and_a_known_players_moves_it_at_most_700() -> None:
    puzzle = new_puzzle(1500)
    assert attempt(NEWCOMER, puzzle, True)[1] == puzzle  # deviation 230 or more: says little of the puzzle
    known = Glicko(1600, 60, 0.06)
    assert not known.provisional and not known.clueless
    _, missed = attempt(known, puzzle, False)
    _, solved = attempt(known, puzzle, True)
    assert solved.rating < puzzle.rating < missed.rating <= puzzle.rating + 700
    _, far = attempt(Glicko(3500, 45, 0.06), new_puzzle(600), False)  # a strong player's miss at an easy one
    assert far.rating == pytest.approx(600 + 700)


def test_a_rating_is_provisional_while_its_deviation_is_110_or_more_and_kept_within_lichess_bounds() -> None:
    assert Glicko(1500, 110, 0.09).provisional and not Glicko(1500, 109.9, 0.09).provisional
    assert Glicko(100, 2000, 0.5).capped() == Glicko(400, 500, 0.1)
    assert Glicko(1500, 10, 0.05).capped() == Glicko(1500, 45, 0.05)
