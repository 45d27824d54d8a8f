"""The single-dummy criterion: the answer is found on some worlds and its margin measured on others the finding
never saw, paired world by world, and it must beat every other action by the margin and the standard errors asked;
then, chosen, it is kept only where fresh worlds drawn after the choice confirm the margin (the lower end of its 95%
interval at the margin asked or above), and the puzzle states that confirmed margin (a winner's-curse guard)."""

from __future__ import annotations

import functools
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsuite.bots.pimc import PimcBot, PimcSettings
from clubsuite.bots.searching import Compared
from clubsuite.engine import SomeMatch, resolve
from clubsuite.puzzles.criteria import CONFIRM_WORLDS, confirm, single_dummy
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""


def exchange_decision(seed: int) -> SomeMatch:
    """The first decision of a whist hand: keep the hand or take the bid hand (CW-4), from the seat's view only."""
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    deal_next(match, info, seed)
    return match


def found_puzzle() -> tuple[SomeMatch, int, Any]:
    """The first exchange decision that is a single-dummy puzzle, its seed and the answer: searched for once (the
    search is costly and its result the same each time), each test given its own copy of the match."""
    match, seed, answer = _first_puzzle()
    return match.clone(), seed, answer


@functools.cache
def _first_puzzle() -> tuple[SomeMatch, int, Any]:
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
    finding, measuring, confirming = drawn
    assert len(measuring) == answer.check.worlds == 64 and len(finding) == 16
    assert len(confirming) == answer.check.confirmed.worlds == CONFIRM_WORLDS
    assert not set(finding) & set(measuring)
    # the confirming worlds are fresh: neither the finding nor the screening saw one of them
    assert not set(confirming) & (set(finding) | set(measuring))


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


def test_the_confirmed_margin_is_measured_again_on_the_fresh_worlds_and_its_interval_clears_the_bar() -> None:
    match, seed, answer = found_puzzle()
    confirmed = answer.check.confirmed
    again = confirm(match, seed, match.parse_action(answer.solution), answer.measure)
    assert again == confirmed  # the same seed draws the same fresh worlds
    assert confirmed.low >= 0.02 and confirmed.low <= confirmed.margin <= confirmed.high


def fake_search(screen: list[float], fresh: list[float], calls: list[str]) -> Any:
    """A search of two actions whose answer leads the other by ``screen[w]`` on the finding and screening worlds and
    by ``fresh[w]`` on the fresh ones, told apart by the seed they are drawn from (``derive_seed(seed, 3)``)."""
    fresh_state = random.Random(derive_seed(0, 3)).getstate()

    def compare(self: PimcBot, view: Any, legal: Any, rng: random.Random, *include: Any) -> Compared:
        is_fresh = rng.getstate() == fresh_state
        calls.append("fresh" if is_fresh else "screen")
        diffs = fresh if is_fresh else screen
        rows = [[0.5 + diffs[w % len(diffs)], 0.5] for w in range(self.settings.samples)]
        return Compared(list(legal)[:2], 0, {"rollout": rows})

    return compare


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fresh=st.lists(st.floats(min_value=-0.2, max_value=0.2, allow_nan=False), min_size=2, max_size=40),
)
def test_a_position_that_passes_the_screen_is_kept_only_where_the_fresh_worlds_confirm_it(
    monkeypatch: pytest.MonkeyPatch, fresh: list[float]
) -> None:
    # the screening worlds all favour the answer well past the bar (a lucky draw, say): the screen passes every time
    screen = [0.05, 0.06, 0.04, 0.05]
    match = exchange_decision(0)
    calls: list[str] = []
    monkeypatch.setattr(PimcBot, "compare", fake_search(screen, fresh, calls))
    answer = single_dummy(match, 0, confirm_worlds=len(fresh))
    assert calls == ["screen", "screen", "fresh"]  # found, screened, then confirmed on worlds of its own seed
    n = len(fresh)
    mean = sum(fresh) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in fresh) / (n - 1) / n)
    low = mean - 1.959964 * se
    if low < 0.02 - 1e-9:
        assert answer is None  # the screen's margin alone never keeps it
    elif low > 0.02 + 1e-9:
        assert answer is not None
        # what the puzzle states is the fresh worlds' margin, not the screen's
        assert answer.check.confirmed.margin == pytest.approx(mean)
        assert answer.check.confirmed.low == pytest.approx(low)
        assert answer.check.confirmed.worlds == n
