"""The playout part of North Star's CLUBS: the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built and the rollout bot is ``heuristic``,
``heuristic.h`` plays the round to its end (the heuristic bot restated in C, held to ``bot.py`` decision by decision
by ``tests/northstar/test_heuristic_northstar.py``) and the actions it chose are applied to the match, which checks
them and scores the round as always. Another rollout bot is left to the engine.
"""

from __future__ import annotations

import random

from clubsuite.games.northstar.bot import CRAZY_WEIGHTS, PLAIN_WEIGHTS, seen_earlier
from clubsuite.games.northstar.combos import NorthstarAction
from clubsuite.games.northstar.match import CORE, NorthstarMatch
from clubsuite.native import finish_in_kernel, kernel


def _kernel_actions(match: NorthstarMatch) -> list[NorthstarAction] | None:
    """The actions the kernel's heuristic bots take to the end of the round, or None where it cannot (not built,
    turned off, no round in progress)."""
    core = kernel(CORE)
    hand = match.current
    if core is None or hand is None or hand.is_over:
        return None
    weights = CRAZY_WEIGHTS if match.options.crazy else PLAIN_WEIGHTS  # the registered bot's choice (bot.py)
    earlier = tuple(seen_earlier(match.view(seat)) for seat in range(match.n_seats))
    actions: list[NorthstarAction] | None = core.heuristic_finish(hand, weights, earlier)
    return actions


def compiled_finish(match: object, spec: str, rng: random.Random | None = None) -> bool:
    """Play the round in progress to its end with ``spec`` in every seat in the kernel, applying its actions to
    ``match``; False (``match`` untouched) where the kernel cannot: then the engine plays it. The kernel's bot draws
    nothing here, so ``rng`` (the play-out's generator) is not used."""
    del rng
    return finish_in_kernel(match, spec, NorthstarMatch, _kernel_actions)
