"""The compiled partnership hand and match paths (``games/partnership/hand.pxi``, ``native/compiled_match.pxi``)
against the engine's :class:`PartnershipHand` and :class:`PartnershipMatch` methods: the same states, views, events,
errors and copies.

The compiled hand keeps its state in core.h's struct, whose rules (CP-1..CP-4) the kernel's own differential tests
hold to the engine; these tests hold the rest to it: the passes in the order chosen, the completed tricks, the
events, the refusals and their words, clones, and the match methods taken in C.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubsuite.cards import STANDARD, CardSet
from clubsuite.games.partnership import PartnershipMatch
from clubsuite.games.partnership.hand import Pass, PassChoices
from clubsuite.games.partnership.match import CORE, CompiledPartnershipMatch, match_type
from compiled_match_helpers import play_side_by_side
from native_helpers import kernel_or_skip

MATCHES = 80
"""Random matches from the run's seed played on both hands side by side (some 250 decisions each): the rules are
core.h's, held to the engine on random matches by ``test_native_partnership.py``; these check what the compiled hand
adds around them."""

PROBES: list[object] = [
    *STANDARD.cards,
    Pass(STANDARD.parse_set("2C 3C 4C")),
    Pass(STANDARD.parse_set("2C 3C")),
    "pass 2C 3C 4C",
    "pass",
    "QS",
    "1Z",
    "",
    7,
    None,
]
"""Actions and notation tried where they are illegal: every card, passes good and bad, notation, non-actions."""


def _compiled() -> type[PartnershipMatch]:
    """The compiled match class (skips where the kernel is not built); :class:`PartnershipMatch` is the engine's."""
    kernel_or_skip(CORE)
    assert CompiledPartnershipMatch is not None
    return CompiledPartnershipMatch


def _facts(hand: Any) -> tuple[object, ...]:
    """Every attribute of a partnership hand, hidden ones included."""
    return (
        hand.hands, hand.phase, hand.to_act, hand.pass_choices, list(hand.pass_choices), hand.passed,
        hand.play_start_hands, hand.leader, hand.tricks, hand.tricks_won, hand.taken, hand.scores, hand.team_scores,
        hand.trick, hand.trick_indices, hand.winning, hand.is_over, hand.to_act is not None and hand.legal_mask(),
        [hand.hand_of(s) for s in range(4)], hand.legal_actions(), hand.deal, hand.dealer, hand.direction,
        hand.score_lines(), hand.summary(), hand.action_log(),
    )  # fmt: skip


@pytest.mark.long
def test_the_compiled_hand_plays_every_match_as_the_engines_hand(fresh_seed: int) -> None:
    """250 random matches (from the run's seed) compared at every decision (legal actions, events), with views,
    refusals, clones and every attribute compared every few decisions and at each hand's end (passes left, right
    and none: CP-2)."""
    decisions = play_side_by_side(PartnershipMatch, _compiled(), MATCHES, seed=fresh_seed, probes=PROBES, facts=_facts)
    assert decisions > MATCHES * 100


def test_a_new_hand_is_compiled_where_the_kernel_is_built() -> None:
    core = kernel_or_skip(CORE)
    match = match_type()()
    match.deal(rng=random.Random(3))
    assert type(match) is CompiledPartnershipMatch and type(match.current) is core.CompiledHand
    clone = match.clone()
    assert clone.current is not match.current and clone.hands[-1] is clone.current


@given(st.integers(0, (1 << 52) - 1), st.integers(-400, 400))
def test_the_compiled_pass_choices_index_is_the_pythons_passes_and_errors(hand: int, index: int) -> None:
    compiled = kernel_or_skip(CORE).CompiledPassChoices
    assert compiled.__getitem__ is not PassChoices.__getitem__
    choices, engine = compiled(hand), PassChoices(hand)
    assert choices == engine
    try:
        expected: object = engine[index]
    except IndexError as exc:
        with pytest.raises(IndexError, match=f"^{re.escape(str(exc))}$"):
            choices[index]
    else:
        assert choices[index] == expected


def test_pass_choices_of_anything_but_a_hand_go_to_the_python_index() -> None:
    compiled = kernel_or_skip(CORE).CompiledPassChoices
    wide = compiled((1 << 70) | 0b111)
    assert wide[0] == Pass(CardSet(0b111)) and wide[-1] == Pass(CardSet((1 << 70) | 0b110))
    with pytest.raises(TypeError):
        compiled(0b1111)["0"]
