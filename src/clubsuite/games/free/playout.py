"""The playout part of Free Clubs: the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built, the rollout bot is ``heuristic`` and the
hand is in its card play, ``heuristic.h`` plays the hand to its end (the heuristic bot's card play restated in C,
held to ``bot.py`` decision by decision by ``tests/free/test_heuristic_free.py``) and the cards it chose are
applied to the match, which checks them and scores the hand as always. Anything else (the auction, which samples
chests, the discards and the pass, or another rollout bot) is left to the engine.
"""

from __future__ import annotations

from clubsuite.cards import Card
from clubsuite.games.free import bot
from clubsuite.games.free.bulk import CORE
from clubsuite.games.free.hand import Stage
from clubsuite.games.free.match import FreeMatch
from clubsuite.native import finish_in_kernel, kernel


def play_constants() -> tuple[float, ...]:
    """bot.py's constants of the card play in heuristic.h's order (read at every call, so they are bot.py's)."""
    return (
        bot.PLAIN_TOP,
        bot.PLAIN_DECAY,
        bot.PLAIN_LENGTH_DECAY,
        bot.CLUB_SLOPE,
        bot.CLUB_FLOOR,
        bot.KEEP_WEIGHT,
        bot.FRIEND_DEFENDER,
        bot.RIVAL_WINNER,
        bot.TEAM_PARTNER,
        bot.BREAK_TEAM,
        bot.DIAMOND_VALUE,
        bot.ACE_OF_HEARTS_VALUE,
        bot.FIRST_SPADE_COST,
    )


def _kernel_actions(match: FreeMatch) -> list[Card] | None:
    """The cards the kernel's heuristic bots play to the end of the hand, or None where it cannot (not built,
    turned off, no hand in its card play)."""
    core = kernel(CORE)
    hand = match.current
    if core is None or hand is None or hand.stage is not Stage.PLAY:
        return None
    cards: list[Card] | None = core.heuristic_finish(hand, play_constants())
    return cards


def compiled_finish(match: object, spec: str) -> bool:
    """Play the hand in progress to its end with ``spec`` in every seat in the kernel, applying its cards to
    ``match``; False (``match`` untouched) where the kernel cannot: then the engine plays it."""
    return finish_in_kernel(match, spec, FreeMatch, _kernel_actions)
