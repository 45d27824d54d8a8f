"""The playout part of Free Clubs: the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built, the rollout bot is ``heuristic`` and the
hand is in its card play, ``heuristic.h`` plays the hand to its end (the heuristic bot's card play restated in C,
held to ``bot.py`` decision by decision by ``tests/free/test_heuristic_free.py``) and the cards it chose are
applied to the match, which checks them and scores the hand as always. Anything else (the auction, which samples
chests, the discards and the pass, or another rollout bot) is left to the engine.
"""

from __future__ import annotations

from clubsuite.cards import Card
from clubsuite.games.free.bot import heuristic_constants
from clubsuite.games.free.bulk import CORE
from clubsuite.games.free.hand import Stage
from clubsuite.games.free.match import FreeMatch
from clubsuite.native import finish_in_kernel, kernel


def _kernel_actions(match: FreeMatch) -> list[Card] | None:
    """The cards the kernel's heuristic bots play to the end of the hand, or None where it cannot (not built,
    turned off, no hand in its card play)."""
    core = kernel(CORE)
    hand = match.current
    if core is None or hand is None or hand.stage is not Stage.PLAY:
        return None
    cards: list[Card] | None = core.heuristic_finish(hand, heuristic_constants())
    return cards


def compiled_finish(match: object, spec: str) -> bool:
    """Play the hand in progress to its end with ``spec`` in every seat in the kernel, applying its cards to
    ``match``; False (``match`` untouched) where the kernel cannot: then the engine plays it."""
    return finish_in_kernel(match, spec, FreeMatch, _kernel_actions)
