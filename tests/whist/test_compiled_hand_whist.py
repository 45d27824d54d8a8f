"""The compiled whist hand and match paths (``games/whist/hand.pxi``, ``native/compiled_match.pxi``) against the
engine's :class:`WhistHand` and :class:`WhistMatch` methods: the same states, views, events, errors and copies.

The compiled hand keeps its state in core.h's struct, whose rules (CW-1..CW-5) the kernel's own differential tests
hold to the engine; these tests hold the rest to it: the bookkeeping around the rules (decisions, exchanged hands,
completed tricks, versions), the events, the refusals and their words, clones, and the match methods taken in C.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from clubsuite.cards import STANDARD
from clubsuite.engine import resolve
from clubsuite.games.whist import WhistMatch
from clubsuite.games.whist.bulk import CORE
from clubsuite.games.whist.hand import Decision, WhistHand
from clubsuite.games.whist.match import CompiledWhistMatch, match_type
from clubsuite.games.whist.options import LeadAfterExchange, WhistOptions
from compiled_match_helpers import play_side_by_side
from native_helpers import kernel_or_skip

OPTIONS = {
    "last-exchanger-leads": (WhistOptions(), 30),
    "left-of-last-exchanger-leads": (WhistOptions(lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER), 12),
}
"""CW-3's readings, each with the random matches played on both hands side by side (some 500 decisions a match),
other ones each run (from the run's seed): the rules are core.h's, held to the engine on random matches of each
reading by ``test_native_whist.py``; these check what the compiled hand adds around them (the reading changes only
who leads after an exchange)."""

PROBES: list[object] = [*STANDARD.cards, Decision.KEEP, Decision.EXCHANGE, "keep", "x", "QS", "1Z", "", 7, None]
"""Actions and notation tried where they are illegal: every card, the decisions, notation good and bad, non-actions."""


def _new_match() -> object:
    """A match as the registry's factory makes it."""
    info, options = resolve("whist")
    return info.new_match(options, 0)


def _compiled() -> type[WhistMatch]:
    """The compiled match class (skips where the kernel is not built); :class:`WhistMatch` is the engine's."""
    kernel_or_skip(CORE)
    assert CompiledWhistMatch is not None
    return CompiledWhistMatch


def _facts(hand: Any) -> tuple[object, ...]:
    """Every attribute of a whist hand, hidden ones included."""
    return (
        hand.hands, hand.bid, hand.phase, hand.to_act, hand.decisions, hand.given_up, hand.play_start_hands,
        hand.leader, hand.clubs_broken, hand.tricks, hand.tricks_won, hand.scores, hand.version, hand.trick,
        hand.trick_indices, hand.is_over, hand.to_act is not None and hand.legal_mask(),
        [hand.hand_of(s) for s in range(3)], list(hand.legal_actions()), hand.deal, hand.dealer, hand.options,
    )  # fmt: skip


@pytest.mark.long
@pytest.mark.parametrize("reading", sorted(OPTIONS))
def test_the_compiled_hand_plays_every_match_as_the_engines_hand(reading: str, fresh_seed: int) -> None:
    """Random matches from the run's seed (30 under the rules as written) compared at every decision (legal
    actions, events), with views, refusals, clones and every attribute compared every few decisions and at each
    hand's end."""
    options, matches = OPTIONS[reading]
    compiled = _compiled()
    decisions = play_side_by_side(
        lambda: WhistMatch(options),
        lambda: compiled(options),
        matches,
        seed=fresh_seed + len(reading),
        probes=PROBES,
        facts=_facts,
    )
    assert decisions > matches * 200


def test_a_new_hand_is_compiled_where_the_kernel_is_built_and_python_where_it_is_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    core = kernel_or_skip(CORE)
    match = match_type()()
    match.deal(rng=random.Random(3))
    assert type(match) is CompiledWhistMatch and type(match.current) is core.CompiledHand
    assert type(_new_match()) is CompiledWhistMatch  # the registry's factory makes the same choice
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert type(_new_match()) is WhistMatch
    match = match_type()()
    match.deal(rng=random.Random(3))
    assert type(match) is WhistMatch and type(match.current) is WhistHand
    while match.to_act is not None:  # the engine's class throughout
        match.apply(match.legal_actions()[0])
    assert match.current is None and sum(map(abs, match.totals)) > 0


def test_the_pure_python_switch_at_import_leaves_every_method_in_python() -> None:
    kernel_or_skip(CORE)
    code = (
        "from clubsuite.games.whist import match; from clubsuite import seeding; import clubsuite.cards as c;"
        "from clubsuite.games.northstar import deal; import sys;"
        "print(match.match_type().__name__, match.CompiledWhistMatch, 'clubsuite.games.whist._core' in sys.modules,"
        " seeding.shuffled.__module__, c.CardSet.__getitem__.__module__,"
        " seeding.shuffled_items.__module__, deal.hands_dealer().__module__)"
    )
    env = {**os.environ, "CLUBS_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == [
        "WhistMatch",  # the engine's class: no compiled class made, the kernel not even loaded
        "None",
        "False",
        "clubsuite.seeding",
        "clubsuite.cards",
        "clubsuite.seeding",
        "clubsuite.games.northstar.deal",
    ]


def test_a_clone_of_a_compiled_match_is_independent_and_equal() -> None:
    match = _compiled()()
    match.deal(rng=random.Random(11))
    for _ in range(20):
        match.apply(match.legal_actions()[0])
    copy = match.clone()
    assert copy.current is not match.current and copy.hands[-1] is copy.current
    assert copy.view(0).to_dict() == match.view(0).to_dict() and copy.summary() == match.summary()
    copy.apply(copy.legal_actions()[0])
    assert copy.current.version == match.current.version + 1  # type: ignore[union-attr]
    assert len(copy.current.action_log()) == len(match.current.action_log()) + 1  # type: ignore[union-attr]


def test_determinize_and_the_replay_of_the_hand_work_on_a_compiled_match() -> None:
    match = _compiled()()
    match.deal(rng=random.Random(5))
    for _ in range(17):
        match.apply(match.legal_actions()[-1])
    world = match.determinize(1, random.Random(2))
    assert world.view(1).to_dict() == match.view(1).to_dict()
    replayed = [action for _, action in match.hand_so_far()]
    assert replayed == match.current.action_log()  # type: ignore[union-attr]
