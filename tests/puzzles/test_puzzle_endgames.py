"""North Star's CLUBS endgames (NS-4, NS-5, NS-8): the exact search of a round's end checked against a referee, and
the endgame puzzle's criterion against the same referee.

The referee is a plain minimax through the match's own ``apply`` (the whole match, not the round's state): every
legal action at every turn, no table, no shortcut; the seat to act maximizes its round score, every other seat
minimizes it. The search under test plays on copies of the round's state and remembers positions by a key, so a
wrong key (two positions taken for one) or a wrong end of the round shows up as a disagreement.
"""

from __future__ import annotations

import random

import pytest

from clubsuite.engine import SomeMatch, resolve
from clubsuite.games.northstar.endgame import action_values, best_reply
from clubsuite.puzzles.criteria import endgame
from clubsuite.runner import deal_next
from clubsuite.solver import NodeLimitError, NotSolvableError


def small_ending(spec: str, seed: int, cards: int) -> SomeMatch | None:
    """A round of ``spec`` played at random until at most ``cards`` cards are held in all, stopped where the seat
    to act has a choice; None where the round ended first."""
    info, options = resolve(spec)
    rng = random.Random(seed)
    match = info.new_match(options, 0)
    deal_next(match, info, rng.randrange(1 << 30))
    while match.to_act is not None:
        held = sum(h.bit_count() for h in match.hands[-1].hands)  # type: ignore[attr-defined]
        if held <= cards and len(match.legal_actions()) > 1:
            return match
        match.apply(rng.choice(list(match.legal_actions())))
    return None


def referee(match: SomeMatch, seat: int) -> int:
    """The seat's round score with best play by the seat and worst for it by everyone else (see the docstring)."""
    hands = len(match.hands)
    if match.to_act is None or len(match.hands) != hands:
        return int(match.hands[hands - 1].scores[seat])  # type: ignore[attr-defined]
    values = []
    for action in list(match.legal_actions()):
        child = match.clone()
        child.apply(action)
        values.append(_score_after(child, hands, seat))
    return max(values) if match.to_act == seat else min(values)


def _score_after(match: SomeMatch, hands: int, seat: int) -> int:
    if match.to_act is None:
        return int(match.hands[hands - 1].scores[seat])  # type: ignore[attr-defined]
    return referee(match, seat)


def referee_values(match: SomeMatch) -> dict[str, int]:
    seat = match.to_act
    assert seat is not None
    out = {}
    for action in list(match.legal_actions()):
        child = match.clone()
        child.apply(action)
        out[match.format_action(action)] = _score_after(child, len(match.hands), seat)
    return out


SPECS = ["northstar(players=3)", "northstar(players=4)", "northstar(players=5)", "northstar-double", "northstar-wild"]

COMPARED = 6
"""Endings per variant compared with the referee, from the run's seed (``fresh_seed``): the referee searches every
line, so each run compares a few and many runs cover more."""


@pytest.mark.long
@pytest.mark.parametrize("spec", SPECS)
def test_the_endgame_search_values_every_action_as_the_referee_does(spec: str, fresh_seed: int) -> None:
    compared = 0
    for seed in range(fresh_seed, fresh_seed + 200):
        match = small_ending(spec, seed, 7)
        if match is None:
            continue
        values = action_values(match)
        assert values is not None
        got = {match.format_action(a): v for a, v in values.items()}
        assert got == referee_values(match), (spec, seed)
        compared += 1
        if compared == COMPARED:
            break
    assert compared == COMPARED


@pytest.mark.long
@pytest.mark.parametrize("spec", ["northstar(players=3)", "northstar(players=4)"])
def test_an_endgame_puzzles_answer_is_the_one_action_the_referee_finds_best(spec: str, fresh_seed: int) -> None:
    """Endings from the run's seed (``fresh_seed``): at least ``COMPARED`` of them, and on until some gave a puzzle
    and some did not (a tie for the best action)."""
    found = missed = 0
    for seed in range(fresh_seed, fresh_seed + 400):
        if found + missed >= COMPARED and found and missed:
            break
        match = small_ending(spec, seed, 7)
        if match is None:
            continue
        refereed = referee_values(match)
        best = max(refereed.values())
        keeping = [a for a, v in refereed.items() if v == best]
        puzzle = endgame(match)
        if puzzle is None:
            missed += 1
            assert len(keeping) > 1, (spec, seed, refereed)
            continue
        found += 1
        assert keeping == [puzzle.solution] and puzzle.value == best and dict(puzzle.values) == refereed
        assert all(best - v >= puzzle.loss >= 1 for a, v in refereed.items() if a != puzzle.solution)
    assert found > 0 and missed > 0, (found, missed)


def test_the_reply_of_the_line_holds_the_seat_to_the_referees_value() -> None:
    """Each reply :func:`best_reply` chooses for another seat keeps the seat's value at the referee's minimum, and
    for the seat itself at its maximum: the line a solution is shown with is the defence its value assumes."""
    checked = 0
    for seed in range(30):
        match = small_ending("northstar(players=4)", 300 + seed, 6)
        if match is None:
            continue
        seat = match.to_act
        assert seat is not None
        other = match.clone()
        other.apply(best_reply(match, seat))
        if other.to_act is None or other.to_act == seat:
            continue
        expected = referee(other, seat)
        reply = best_reply(other, seat)
        after = other.clone()
        after.apply(reply)
        assert _score_after(after, len(other.hands), seat) == expected
        checked += 1
    assert checked >= 5


def test_the_search_refuses_teams_and_stops_at_its_limit() -> None:
    info, options = resolve("northstar-teams")
    teams = info.new_match(options, 0)
    deal_next(teams, info, 5)
    assert action_values(teams) is None
    with pytest.raises(NotSolvableError, match="does not apply"):
        endgame(teams)
    info, options = resolve("northstar(players=4)")
    whole = info.new_match(options, 0)
    deal_next(whole, info, 5)
    with pytest.raises(NodeLimitError):
        action_values(whole, node_limit=1000)
