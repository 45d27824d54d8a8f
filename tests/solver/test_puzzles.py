"""The double-dummy puzzle's criterion (clubsuite.puzzles.criteria), checked against the brute-force referee of the
solver tests on random three-trick endings of every trick game and every measure: where a puzzle is found, its
solution is the only card whose value is best by the referee's own minimax through the engine, and every other card
loses at least the margin asked; where none is found, the referee too shows no single best card (or only one card
to play)."""

from __future__ import annotations

import pytest
from solverkit import TRICK_GAMES, ending, minimax, referee_values

from clubsuite.analysis.review import aimed_measure
from clubsuite.engine import resolve
from clubsuite.puzzles.criteria import double_dummy
from clubsuite.runner import deal_next
from clubsuite.solver import NotSolvableError, card_values, solving_for

ENDINGS = 12
"""Random endings per game and measure (three tricks left: the referee takes a fraction of a second on each)."""


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_a_double_dummy_puzzles_answer_is_the_one_card_the_referee_finds_best_and_every_other_loses(game: str) -> None:
    found = missed = 0
    for measure in solving_for(game).measures:
        for k in range(ENDINGS):
            match = ending(game, 5000 + k, 3)
            refereed = {
                match.format_action(a): v for a, v in referee_values(match, measure.name, measure.maximize).items()
            }
            best = max(refereed.values()) if measure.maximize else min(refereed.values())
            keeping = [a for a, v in refereed.items() if v == best]
            puzzle = double_dummy(match, measure.name)
            if puzzle is None:
                missed += 1
                assert len(refereed) < 2 or len(keeping) > 1, (game, measure.name, k, refereed)
                continue
            found += 1
            assert keeping == [puzzle.solution] and puzzle.value == best, (game, measure.name, k, refereed)
            assert puzzle.values == refereed
            for action, value in refereed.items():
                if action != puzzle.solution:
                    assert abs(best - value) >= puzzle.loss >= 1, (game, measure.name, k, action)
                    assert (value < best) if measure.maximize else (value > best)
    assert found > 0 and missed > 0, (game, found, missed)  # the criterion tells positions apart


def test_a_larger_margin_asked_keeps_only_the_puzzles_whose_other_cards_lose_that_much() -> None:
    seen = False
    for k in range(40):
        match = ending("whist", 7000 + k, 3)
        puzzle = double_dummy(match)
        if puzzle is None:
            continue
        stricter = double_dummy(match, min_loss=puzzle.loss + 1)
        assert stricter is None
        assert double_dummy(match, min_loss=puzzle.loss) == puzzle
        seen = True
    assert seen


def test_a_puzzle_leaves_the_match_as_it_was_and_refuses_what_cannot_be_one() -> None:
    match = ending("partnership", 11, 3)
    before = (match.summary(), list(match.legal_actions()), match.to_act)
    double_dummy(match)
    assert (match.summary(), list(match.legal_actions()), match.to_act) == before
    with pytest.raises(ValueError, match="min_loss=0"):
        double_dummy(match, min_loss=0)
    info, options = resolve("northstar")
    climbing = info.new_match(options, 0)
    deal_next(climbing, info, 3)
    with pytest.raises(NotSolvableError, match="no exact solver"):
        double_dummy(climbing)


def test_the_measure_aimed_for_is_one_the_games_objective_reads() -> None:
    """Points decide the partnership game and Free Clubs (CP-3, FC-4): a count of tricks, which their objective does
    not read, is never compared with a chance of winning (the review once took tricks for them); whist reads both of
    its measures and takes the one worth more (CW-5)."""
    for game in ("partnership", "free"):
        for k in range(5):
            match = ending(game, 40 + k, 4)
            assert aimed_measure(match, match.to_act, 2_000_000) == "points"  # type: ignore[arg-type]
    endings = [ending("whist", 40 + k, 4) for k in range(30)]
    aimed = {aimed_measure(m, m.to_act, 2_000_000) for m in endings}  # type: ignore[arg-type]
    assert aimed <= {"tricks", "fewest"} and "tricks" in aimed


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_the_solver_values_another_seats_cards_for_the_seat_asked_as_the_referee_does(game: str) -> None:
    """``card_values(..., seat=S)`` while another player is to act: S's count after each of that player's cards,
    S's side playing for it and everyone else against it (the defence a puzzle's line is shown with)."""
    compared = 0
    for measure in solving_for(game).measures:
        for k in range(8):
            match = ending(game, 9000 + k, 3)
            to_act = match.to_act
            assert to_act is not None
            seat = (to_act + 1) % match.n_seats
            got = card_values(match, measure.name, seat=seat)
            solvable = solving_for(game).solvable(match, measure.name, seat)
            assert solvable is not None
            side = tuple(i for i, ours in enumerate(solvable.position.side) if ours)
            for action, value in got.items():
                child = match.clone()
                child.apply(action)
                assert value == minimax(child, measure.name, seat, side, measure.maximize), (game, k, action)
            compared += 1
    assert compared
