"""What the compiled heuristic bots are held to in every game's tests: the kernel's matches of heuristic bots are
the engine's, a play-out in the kernel ends the hand as the engine's own play-out does, and a search bot decides
the same with the compiled core and without it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubsuite.bots import make_bot
from clubsuite.bots.searching import HasPlayout, Rollouts
from clubsuite.engine import find_game, resolve
from clubsuite.runner import play_match
from clubsuite.sim.bulk import compiled_matches


def assert_play_outs_agree(start: Any, seed: int) -> None:
    """The game's ``playout`` part and the engine's play-out (``Rollouts`` with no part, as where no kernel is
    built), each from a copy of ``start`` with its own generator seeded ``seed``: the same actions, hand scores,
    totals and end, and both generators left in the same state (what the bots drew)."""
    info, _ = find_game(start.game)
    assert isinstance(info.parts, HasPlayout)
    compiled_finish = info.parts.playout()
    compiled, python = start.clone(), start.clone()
    compiled_rng, python_rng = random.Random(seed), random.Random(seed)
    assert compiled_finish(compiled, "heuristic", compiled_rng)
    rollouts = Rollouts("heuristic")
    rollouts._playouts[start.game] = None  # the engine's own play-out
    rollouts.finish_hand(python, python_rng)
    assert compiled.hands[-1].action_log() == python.hands[-1].action_log()
    assert (compiled.hand_scores, compiled.totals, compiled.is_over) == (
        python.hand_scores,
        python.totals,
        python.is_over,
    )
    assert compiled_rng.getstate() == python_rng.getstate()


def search_decisions(start: Any, spec: str, count: int) -> list[object]:
    """The first ``count`` decisions of the search bot ``spec`` playing every seat from a copy of ``start`` (fewer
    if the hand ends first), each decision with its own generator."""
    played = start.clone()
    bot = make_bot(spec, start.game)
    chosen: list[object] = []
    for _ in range(count):
        seat = played.to_act
        if seat is None:
            break
        chosen.append(bot.choose(played.view(seat), played.legal_actions(), random.Random(len(chosen))))
        played.apply(chosen[-1])
    return chosen


def assert_search_decides_the_same_with_the_core_and_without(
    start: Any, spec: str, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled parts change how soon ``spec`` decides, never what it decides."""
    with_core = search_decisions(start, spec, count)
    assert len(with_core) == count
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert search_decisions(start, spec, count) == with_core


def assert_kernel_matches_are_the_engines(spec: str, bots: list[str], seeds: list[int]) -> None:
    """The game's bulk part plays the matches of ``seeds`` with ``bots`` (random and heuristic ones) in its kernel,
    and each ends as ``play_match`` plays it through the engine: the same hands, totals and winners."""
    info, options = resolve(spec)
    played = compiled_matches(info, options, bots, seeds)
    assert played is not None, f"the kernel does not play {bots} in {spec}"
    for seed, result in zip(seeds, played, strict=True):
        match = play_match(info.new_match(options, 0), [make_bot(b, info.name) for b in bots], seed)
        assert (result.hands, result.totals, result.winner_seats) == (
            len(match.hands),
            tuple(match.totals),
            match.winners,
        )
