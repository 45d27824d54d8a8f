"""The single-dummy criterion: the answer is found on some worlds and its margin measured on others the finding
never saw, paired world by world, and it must beat every other action by the margin and the standard errors asked."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from clubsuite.bots.pimc import PimcBot, PimcSettings
from clubsuite.engine import SomeMatch, resolve
from clubsuite.puzzles.criteria import single_dummy
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed


def exchange_decision(seed: int) -> SomeMatch:
    """The first decision of a whist hand: keep the hand or take the bid hand (CW-4), from the seat's view only."""
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    deal_next(match, info, seed)
    return match


def found_puzzle() -> tuple[SomeMatch, int, Any]:
    for seed in range(200):
        match = exchange_decision(seed)
        answer = single_dummy(match, seed)
        if answer is not None:
            return match, seed, answer
    raise AssertionError("no single-dummy puzzle among 200 exchange decisions")


def test_the_margin_is_measured_on_worlds_the_finding_never_saw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every world is drawn from its own seed: the seeds drawn for the finding and for the measuring are apart."""
    match, seed, _ = found_puzzle()
    drawn: list[list[int]] = []
    original = type(match.view(match.to_act)).determinize  # type: ignore[arg-type]

    def spying(view: Any, rng: random.Random) -> Any:
        state = rng.getstate()
        drawn[-1].append(hash(state))
        return original(view, rng)

    monkeypatch.setattr(type(match.view(match.to_act)), "determinize", spying)  # type: ignore[arg-type]
    from clubsuite.bots import pimc

    searched = pimc.PimcBot._search

    def each_search(self: Any, *args: Any) -> Any:
        drawn.append([])
        return searched(self, *args)

    monkeypatch.setattr(pimc.PimcBot, "_search", each_search)
    answer = single_dummy(match, seed)
    assert answer is not None
    finding, measuring = drawn
    assert len(measuring) == answer.check.worlds == 64 and len(finding) == 16
    assert not set(finding) & set(measuring)


def test_the_answer_beats_every_other_action_by_the_margin_and_the_errors_asked() -> None:
    match, seed, answer = found_puzzle()
    view = match.view(match.to_act)  # type: ignore[arg-type]
    legal = match.legal_actions()
    again = PimcBot(PimcSettings(samples=64, width=len(legal))).compare(
        view, legal, random.Random(derive_seed(seed, 2)), match.parse_action(answer.solution)
    )
    s = again.actions.index(match.parse_action(answer.solution))
    rows = again.rows[answer.measure]
    for j, action in enumerate(again.actions):
        if j == s:
            continue
        diffs = [r[s] - r[j] for r in rows]
        mean = sum(diffs) / len(diffs)
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
        assert mean >= 0.02 and (se == 0 or mean / se >= 4.0), action
        assert mean >= answer.check.margin - 1e-12
    assert answer.check.better + answer.check.worse <= 1
    assert answer.values[answer.solution] == max(answer.values.values())


def test_a_stricter_margin_refuses_what_a_looser_one_keeps() -> None:
    match, seed, answer = found_puzzle()
    assert single_dummy(match, seed, min_margin=answer.check.margin + 0.001) is None
    if math.isfinite(answer.check.z):
        assert single_dummy(match, seed, min_z=answer.check.z + 0.01) is None
    assert single_dummy(match, seed) == answer  # the same seed, the same worlds, the same figures


def test_a_decision_without_a_choice_is_no_puzzle() -> None:
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    deal_next(match, info, 1)
    rng = random.Random(1)
    while match.to_act is not None and len(match.legal_actions()) != 1:
        match.apply(rng.choice(list(match.legal_actions())))
    assert match.to_act is not None  # a must-beat rule leaves one card to play sooner or later (CW-1)
    assert single_dummy(match, 1) is None
    while match.to_act is not None:
        match.apply(match.legal_actions()[0])
    assert single_dummy(match, 1) is None
