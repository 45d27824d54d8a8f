"""The playout part of Free Clubs: the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built and the rollout bot is ``heuristic``,
``heuristic.h`` plays the hand to its end (the heuristic bot restated in C, held to ``bot.py`` decision by decision
by ``tests/free/test_heuristic_free.py``) and the actions it chose are applied to the match, which checks them and
scores the hand as always. From the card play on the bot draws nothing; before it (the auction, which samples
chests) the kernel draws from the play-out's own generator, exactly as bot.py would, and leaves it where bot.py
would. Another rollout bot, or a generator of another kind before the card play, is left to the engine.
"""

from __future__ import annotations

import random
from typing import cast

from clubsuite.cards import Card
from clubsuite.games.free.bot import heuristic_constants
from clubsuite.games.free.bulk import CORE
from clubsuite.games.free.hand import FreeAction, Stage
from clubsuite.games.free.match import FreeMatch
from clubsuite.native import kernel


def _kernel_actions(match: FreeMatch, rng: random.Random | None) -> list[FreeAction] | None:
    """The actions the kernel's heuristic bots take to the end of the hand, or None where it cannot (not built,
    turned off, no hand in progress, or a generator it cannot stand in for before the card play). Before the card
    play ``rng`` is left as the bots would leave it."""
    core = kernel(CORE)
    hand = match.current
    if core is None or hand is None or hand.is_over:
        return None
    if hand.stage is Stage.PLAY:
        cards: list[FreeAction] | None = core.heuristic_finish(hand, heuristic_constants())
        return cards
    if type(rng) is not random.Random:  # the kernel draws as random.Random does, and no other generator
        return None
    finished = core.heuristic_finish_hand(hand, heuristic_constants(), rng.getstate())
    if finished is None:
        return None
    actions: list[FreeAction] = finished[0]
    rng.setstate(finished[1])
    return actions


def compiled_finish(match: object, spec: str, rng: random.Random | None = None) -> bool:
    """Play the hand in progress to its end with ``spec`` in every seat in the kernel, applying its actions to
    ``match`` (and drawing from ``rng`` what the bots would); False (``match`` and ``rng`` untouched) where the
    kernel cannot: then the engine plays it. The card play's cards go through :meth:`FreeMatch.play_out` (checked
    and scored as ``apply`` does, without the events nobody reads), what comes before it through ``apply``."""
    if spec.strip() != "heuristic" or not isinstance(match, FreeMatch):
        return False
    actions = _kernel_actions(match, rng)
    if actions is None:
        return False
    k = 0
    while k < len(actions) and (hand := match.current) is not None and hand.stage is not Stage.PLAY:
        match.apply(actions[k])
        k += 1
    if k < len(actions):
        match.play_out(cast("list[Card]", actions[k:]))
    return True
