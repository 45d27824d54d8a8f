"""The playout part of Clubs (whist group): the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built, the rollout bot is ``heuristic`` and the
hand is in its card play, ``heuristic.h`` plays the hand to its end (the heuristic bot's card play restated in C,
held to ``bot.py`` decision by decision by ``tests/whist/test_native_whist.py``) and the cards it chose are applied
to the match, which scores the hand as always. Anything else (the exchange round, which samples bid hands, or
another rollout bot) is left to the engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from clubsuite.cards import Card, card_at
from clubsuite.engine import Phase
from clubsuite.games.whist.bulk import CORE
from clubsuite.games.whist.hand import WhistHand
from clubsuite.games.whist.match import WhistMatch
from clubsuite.native import finish_in_kernel, kernel

if TYPE_CHECKING:
    from clubsuite.games.whist._core import HeuristicTable

BID_PLACE = 3
"""``known_at``'s number for the bid hand (heuristic.h)."""


def known_places(hand: WhistHand) -> tuple[list[int], list[int]]:
    """For each seat, the hand it left in the middle when it exchanged (0: it kept) and where that hand is now: the
    next seat that exchanged after it, else the bid hand (CW-4; -1 for a seat that kept), as its view knows it."""
    given = [hand.given_up.get(seat, 0) for seat in range(3)]
    places = [-1, -1, -1]
    for seat in hand.given_up:
        places[seat] = BID_PLACE
        after = False
        for other, exchanged in hand.decisions:
            if other == seat:
                after = True
            elif after and exchanged:
                places[seat] = other
                break
    return given, places


def heuristic_table(match: WhistMatch) -> HeuristicTable | None:
    """The kernel's table for the hand in progress (at a card to play), brought up to the present; None where the
    kernel is not built or turned off, or no card is to be played."""
    core = kernel(CORE)
    hand = match.current
    if core is None or hand is None or hand.phase is not Phase.PLAY:
        return None
    given, places = known_places(hand)
    first_leader = hand.tricks[0][0] if hand.tricks else hand.leader
    totals, target = match.totals, match.options.target
    table: HeuristicTable = core.HeuristicTable(hand.play_start_hands, first_leader, given, places, totals, target)
    for _, cards, _ in hand.tricks:
        for c in cards:
            table.play(c)
    for c in hand.trick_indices:
        table.play(c)
    return table


def _kernel_actions(match: WhistMatch) -> list[Card] | None:
    """The cards the kernel's heuristic bots play to the end of the hand, or None where it cannot."""
    table = heuristic_table(match)
    return None if table is None else [card_at(c) for c in table.finish()]


def compiled_finish(match: object, spec: str, rng: random.Random | None = None) -> bool:
    """Play the hand in progress to its end with ``spec`` in every seat in the kernel, applying its cards to
    ``match``; False (``match`` untouched) where the kernel cannot: then the engine plays it. The kernel's bot draws
    nothing here, so ``rng`` (the play-out's generator) is not used."""
    del rng
    return finish_in_kernel(match, spec, WhistMatch, _kernel_actions)
