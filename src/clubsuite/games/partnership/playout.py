"""The playout part of Clubs (partnership): the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built and the rollout bot is ``heuristic``,
``heuristic.h`` plays the hand to its end (the heuristic bot's pass and card play restated in C, held to ``bot.py``
decision by decision by ``tests/partnership/test_native_partnership.py``) and what it chose is applied to the
match, which scores the hand as always. Another rollout bot is left to the engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from clubsuite.cards import Card, CardSet, card_at
from clubsuite.games.partnership.bulk import CORE
from clubsuite.games.partnership.hand import CYCLE, Pass
from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.native import finish_in_kernel, kernel

if TYPE_CHECKING:
    from clubsuite.games.partnership._core import HeuristicTable


def heuristic_table(match: PartnershipMatch) -> HeuristicTable | None:
    """The kernel's table for the hand in progress, brought up to the present (the passes chosen, the cards
    played); None where the kernel is not built or turned off, or no hand is in progress."""
    core = kernel(CORE)
    hand = match.current
    if core is None or hand is None or hand.is_over:
        return None
    table: HeuristicTable = core.HeuristicTable(tuple(hand.deal.hands), hand.dealer, CYCLE.index(hand.direction))
    for given in hand.pass_choices.values():
        table.pass_cards(given)
    for _, cards, _ in hand.tricks:
        for c in cards:
            table.play(c)
    for c in hand.trick_indices:
        table.play(c)
    return table


def _kernel_actions(match: PartnershipMatch) -> list[Pass | Card] | None:
    """The passes and cards the kernel's heuristic bots choose to the end of the hand, or None where it cannot."""
    table = heuristic_table(match)
    if table is None:
        return None
    passes, cards = table.finish()
    return [Pass(CardSet(given)) for given in passes] + [card_at(c) for c in cards]


def compiled_finish(match: object, spec: str, rng: random.Random | None = None) -> bool:
    """Play the hand in progress to its end with ``spec`` in every seat in the kernel, applying its choices to
    ``match``; False (``match`` untouched) where the kernel cannot: then the engine plays it. The kernel's bot draws
    nothing here, so ``rng`` (the play-out's generator) is not used."""
    del rng
    return finish_in_kernel(match, spec, PartnershipMatch, _kernel_actions)
