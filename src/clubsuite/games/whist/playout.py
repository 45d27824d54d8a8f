"""The playout part of Clubs (whist group): the search bots' play-outs with the heuristic bot, in the compiled kernel.

``Rollouts.finish_hand`` asks this part first: where the kernel is built and the rollout bot is ``heuristic``,
``heuristic.h`` plays the hand to its end (the heuristic bot restated in C, held to ``bot.py`` decision by decision
by ``tests/whist/test_native_whist.py``) and the actions it chose are applied to the match, which scores the hand as
always. In the exchange round (CW-4) the bot samples bid hands: the kernel draws them from the play-out's own
generator as bot.py does and leaves it where bot.py would. Another rollout bot, or a generator of another kind in
the exchange round, is left to the engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from clubsuite.cards import card_at
from clubsuite.engine import Phase
from clubsuite.games.whist.bulk import CORE
from clubsuite.games.whist.hand import Decision, WhistAction, WhistHand
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


def _exchanges(match: WhistMatch, rng: random.Random) -> tuple[WhistMatch, list[WhistAction], tuple[Any, ...]] | None:
    """The exchange decisions left (CW-4) as the kernel's heuristic bot makes them (``heuristic.h``'s exchange
    decision: its bid hands drawn from a copy of ``rng``'s state as bot.py draws them), made on a copy of ``match``:
    that copy at its first card, the decisions and the generator's state after them; None where the kernel
    cannot."""
    core = kernel(CORE)
    if core is None or type(rng) is not random.Random:  # the kernel draws as random.Random does, no other
        return None
    played = match.clone()
    decisions: list[WhistAction] = []
    state = rng.getstate()
    while (hand := played.current) is not None and hand.phase is not Phase.PLAY and (seat := played.to_act) is not None:
        someone = any(exchanged for _, exchanged in hand.decisions)
        take, state = core.exchange_choice(
            int(hand.hands[seat]), seat, played.totals[seat], played.options.target, someone, state
        )
        decisions.append(Decision.EXCHANGE if take else Decision.KEEP)
        played.apply(decisions[-1])
    return played, decisions, state


def _kernel_actions(match: WhistMatch, rng: random.Random | None) -> list[WhistAction] | None:
    """The actions the kernel's heuristic bots take to the end of the hand, or None where it cannot (not built,
    turned off, no hand in progress, or a generator it cannot stand in for in the exchange round)."""
    hand = match.current
    if hand is None or hand.is_over:
        return None
    before: list[WhistAction] = []
    at_play, state = match, None
    if hand.phase is not Phase.PLAY:
        if rng is None:
            return None
        exchanged = _exchanges(match, rng)
        if exchanged is None:
            return None
        at_play, before, state = exchanged
    table = heuristic_table(at_play)
    if table is None:
        return None
    if rng is not None and state is not None:
        rng.setstate(state)  # where the bots' own draws would have left it
    return before + [card_at(c) for c in table.finish()]


def compiled_finish(match: object, spec: str, rng: random.Random | None = None) -> bool:
    """Play the hand in progress to its end with ``spec`` in every seat in the kernel, applying its actions to
    ``match`` (and drawing from ``rng`` what the bots would in the exchange round); False (``match`` and ``rng``
    untouched) where the kernel cannot: then the engine plays it."""
    return finish_in_kernel(match, spec, WhistMatch, lambda m: _kernel_actions(m, rng))
