"""The whist kernel held to the engine step by step: random matches played through both side by side, comparing
every legal set, event, hand and score (CW-1 to CW-5). The tests run it on 2,000 matches per reading of CW-3,
``bench/differential.py`` on 100,000."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from clubsuite.bots.random_bot import RandomBot
from clubsuite.engine import find_game
from clubsuite.games.whist.bulk import CORE, LEAD_RULES
from clubsuite.games.whist.events import Decided, HandScored
from clubsuite.games.whist.hand import Decision, WhistAction
from clubsuite.games.whist.match import WhistMatch
from clubsuite.games.whist.options import WhistOptions
from clubsuite.native import compiled, expect
from clubsuite.native.steps import expect_card_events, expect_play_started
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

if TYPE_CHECKING:
    from clubsuite.games.whist._core import WhistCore


def _step(match: WhistMatch, core: WhistCore, action: WhistAction, seed: int) -> None:
    """Apply ``action`` to the engine's match and the kernel's hand; their events must agree."""
    events = match.apply(action)
    if isinstance(action, Decision):
        code = core.decide(action is Decision.EXCHANGE)
        expect(events[0] == Decided(match.hands[-1].decisions[-1][0], action is Decision.EXCHANGE), seed, "decided")
        expect_play_started(events, code, seed, core.leader)
        return
    code = core.play(action.index)
    expect_card_events(events, code, seed, core.leader, HandScored, lambda e: e.tricks == core.tricks_won)


def check_random_matches(options: WhistOptions, match_seeds: Sequence[int]) -> int:
    """Play each seed's match with random bots through the engine and the kernel side by side (the bots seeded as
    :func:`clubsuite.runner.play_match` seeds them) and compare at every decision, then the kernel's batch of the same
    matches; returns the decisions compared. Raises ``KernelMismatchError`` naming the seed and what differed,
    or LookupError where the kernel is not built."""
    kernel = compiled(CORE)
    if kernel is None:
        raise LookupError(f"{CORE} is not built here")
    rule = LEAD_RULES[options.lead_after_exchange]
    info, _ = find_game("whist")
    bot = RandomBot()
    played = kernel.random_matches(match_seeds, options.target, rule)
    steps = 0
    for seed, (hands, totals, winners, draw) in zip(match_seeds, played, strict=True):
        match = WhistMatch(options)
        rng = random.Random(derive_seed(seed, 0x5EED))
        while not match.is_over:
            deal_next(match, info, seed)
            hand = match.hands[-1]
            core: WhistCore = kernel.WhistCore(tuple(hand.hands), hand.bid, hand.dealer, rule)
            while match.to_act is not None:
                expect(core.to_act == match.to_act, seed, "the seat to act")
                expect(core.hands == tuple(hand.hands) and core.bid == hand.bid, seed, "the hands")
                legal = match.legal_actions()
                action: WhistAction
                if isinstance(legal, tuple):
                    expect(legal == (Decision.KEEP, Decision.EXCHANGE) and core.phase == 0, seed, "the exchange")
                    action = bot.choose(None, legal, rng)
                else:
                    expect(core.legal() == int(legal), seed, partial("the legal cards: {}".format, legal))
                    action = bot.choose(None, legal, rng)
                _step(match, core, action, seed)
                steps += 1
            expect(core.to_act is None, seed, "the hand's end")
        expect((len(match.hand_scores), tuple(match.totals)) == (hands, totals), seed, "the batch's totals")
        won = tuple(s for s in range(3) if winners >> s & 1)
        expect((tuple(match.winners), bool(match.draw)) == (won, draw), seed, "the batch's winners")
    return steps
