"""The action contract of every game: ``legal_actions()`` and ``explain()`` give one answer, notation reads back,
and an action that is refused changes nothing.

At sampled decisions of seeded random matches (:mod:`conformance.harness`): every legal action is explained as
legal; actions that were legal somewhere else (another seat's cards, another phase's actions, another match's
plays) but are not legal here are explained as illegal and refused by ``apply`` with a ``ClubsError``, and the
summary and every seat's view are the same afterwards (on matches drawn from the run's seed: other ones each run);
so is an action tried by a seat whose turn it is not.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubsuite import events
from clubsuite.errors import ClubsError
from conformance.harness import CASES, IDS, Case, random_play, seed_of, snapshot

RATE = 0.2
"""The share of decisions checked."""
MOST_LEGAL = 40
"""At most this many legal actions are checked at one decision (a pass of three cards has 286)."""
ILLEGAL_TRIES = 6
"""Actions legal elsewhere, but not at the decision, tried at each checked decision (drawn from four times as many
actions of the pool, most of them not legal there)."""


def _pool(case: Case, seed: int) -> list[Any]:
    """Actions that were legal at some decision of another match of the same game (a few of each decision)."""
    rng = random.Random(seed)
    pool: list[Any] = []
    for match in random_play(case, seed):
        legal = match.legal_actions()
        for _ in range(3):
            pool.append(legal[rng.randrange(len(legal))])
    return pool


def _some(legal: Any, rng: random.Random) -> list[Any]:
    """All the legal actions, or a sample of them when there are many."""
    n = len(legal)
    return [legal[i] for i in (range(n) if n <= MOST_LEGAL else sorted(rng.sample(range(n), MOST_LEGAL)))]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_legal_action_is_explained_as_legal_and_reads_back_from_its_notation(case: Case) -> None:
    rng = random.Random(1)
    checked = 0
    for match in random_play(case, seed=11):
        legal = match.legal_actions()
        assert len(legal) > 0, f"seat {match.to_act} is to act with no legal action"
        if rng.random() > RATE:
            continue
        checked += 1
        seat = match.to_act
        every = list(legal)
        assert len(every) == len(legal)
        for i in rng.sample(range(len(every)), min(len(every), 5)):
            assert legal[i] == every[i], "indexing and iteration of the legal actions disagree"
        for action in _some(legal, rng):
            assert action in legal
            assert match.explain(action) is None, f"{action} is listed as legal"
            assert match.explain(action, seat) is None
            text = match.format_action(action)
            assert match.parse_action(text) == action, f"{text!r} does not read back as {action!r}"
            assert match.explain(text, seat) is None
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_action_legal_elsewhere_is_explained_and_refused_without_changing_anything(
    case: Case, fresh_seed: int
) -> None:
    """The pool, the match and the decisions checked are drawn from the run's seed."""
    seed = seed_of(case, fresh_seed)
    rng = random.Random(seed + 2)
    pool = _pool(case, seed=seed + 1000)
    refused = misplays = 0
    for match in random_play(case, seed=seed):
        # every decision until an action has been refused (a short match has few), then a share of them
        if refused and rng.random() > RATE:
            continue
        legal = match.legal_actions()
        pool.extend(legal[rng.randrange(len(legal))] for _ in range(2))
        seat = match.to_act
        before = snapshot(match)
        tried = 0
        for action in rng.sample(pool, min(len(pool), 4 * ILLEGAL_TRIES)):
            if action in legal:
                continue
            if tried == ILLEGAL_TRIES:
                break
            tried += 1
            reason = match.explain(action)
            if reason is None and case.info.accepts_misplays(case.options):
                # Table mode: a misplay is accepted though not listed; explain and apply must agree on it.
                twin = match.clone()
                twin.apply(action)
                assert snapshot(match) == before
                misplays += 1
                continue
            assert isinstance(reason, str) and reason, f"{action} is not listed as legal, yet explain finds no fault"
            assert match.explain(action, seat) == reason
            with pytest.raises(ClubsError):
                match.apply(action)
            with pytest.raises(ClubsError):
                match.apply(match.format_action(action), seat)
            assert snapshot(match) == before, f"refusing {action} changed the match"
            refused += 1
    assert refused > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_action_of_a_seat_not_to_act_is_explained_and_refused_without_changing_anything(case: Case) -> None:
    rng = random.Random(3)
    checked = 0
    for match in random_play(case, seed=13):
        if rng.random() > RATE:
            continue
        legal = match.legal_actions()
        action = legal[rng.randrange(len(legal))]
        other = rng.choice([s for s in range(match.n_seats) if s != match.to_act])
        before = snapshot(match)
        reason = match.explain(action, other)
        assert isinstance(reason, str) and reason
        with pytest.raises(ClubsError):
            match.apply(action, other)
        assert snapshot(match) == before
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_event_of_every_registered_game_derives_from_the_base(case: Case) -> None:
    seen: set[type] = set()
    match = case.new_match()
    rng = random.Random(5)
    while not match.is_over and len(match.hands) < 3:
        if match.to_act is None:
            seen.update(type(e) for e in match.deal(rng))
            continue
        legal = match.legal_actions()
        seen.update(type(e) for e in match.apply(legal[rng.randrange(len(legal))]))
    assert seen and all(issubclass(t, events.Event) for t in seen), sorted(t.__name__ for t in seen)
