"""The partnership kernel held to the engine step by step: random matches played through both side by side,
comparing every pass, legal set, event, hand and score (CP-1 to CP-4). The tests run it on 2,000 matches,
``bench/differential.py`` on 100,000."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from clubsuite.bots.random_bot import RandomBot
from clubsuite.cards import CardSet
from clubsuite.engine import find_game
from clubsuite.games.partnership.bulk import CORE
from clubsuite.games.partnership.events import HandScored, PassChosen
from clubsuite.games.partnership.hand import CYCLE, TEAMS, PartnershipAction, Pass, PassChoices
from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.games.partnership.options import PartnershipOptions
from clubsuite.native import KernelMismatchError, compiled, expect
from clubsuite.native.steps import expect_card_events, expect_play_started
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

if TYPE_CHECKING:
    from clubsuite.games.partnership._core import PartnershipCore


def _step(match: PartnershipMatch, core: PartnershipCore, action: PartnershipAction, seed: int) -> None:
    """Apply ``action`` to the engine's match and the kernel's hand; their events must agree."""
    events = match.apply(action)
    if isinstance(action, Pass):
        code = core.pass_cards(int(action.cards))
        expect(isinstance(events[0], PassChosen), seed, lambda: f"a pass chosen: {events}")
        expect_play_started(events, code, seed, core.leader)
        return
    code = core.play(action.index)
    expect_card_events(
        events,
        code,
        seed,
        core.leader,
        HandScored,
        lambda e: (e.tricks, e.team_scores) == (core.tricks_won, core.team_scores),
    )


def check_random_matches(options: PartnershipOptions, match_seeds: Sequence[int]) -> int:
    """Play each seed's match with random bots through the engine and the kernel side by side and compare at every
    decision, then the kernel's batch of the same matches; returns the decisions compared. Raises
    ``KernelMismatchError`` naming the seed and what differed, or LookupError where the kernel is not built."""
    kernel = compiled(CORE)
    if kernel is None:
        raise LookupError(f"{CORE} is not built here")
    info, _ = find_game("partnership")
    bot = RandomBot()
    played = kernel.random_matches(match_seeds, options.target)
    steps = 0
    for seed, (hands, totals, winner) in zip(match_seeds, played, strict=True):
        match = PartnershipMatch(options)
        rng = random.Random(derive_seed(seed, 0x5EED))
        while not match.is_over:
            deal_next(match, info, seed)
            hand = match.hands[-1]
            core: PartnershipCore = kernel.PartnershipCore(tuple(hand.hands), hand.dealer, CYCLE.index(hand.direction))
            while match.to_act is not None:
                expect(core.to_act == match.to_act and core.hands == tuple(hand.hands), seed, "the seat and hands")
                legal = match.legal_actions()
                action: PartnershipAction
                if isinstance(legal, PassChoices):
                    expect(core.phase == 0 and legal.hand == core.hands[match.to_act], seed, "the pass")
                    action = bot.choose(None, legal, rng)
                elif isinstance(legal, CardSet):
                    expect(core.legal() == int(legal), seed, partial("the legal cards: {}".format, legal))
                    action = bot.choose(None, legal, rng)
                else:  # the engine lists no action only between hands
                    raise KernelMismatchError(f"match seed {seed}: no legal action for seat {match.to_act}")
                _step(match, core, action, seed)
                steps += 1
            expect(core.to_act is None, seed, "the hand's end")
        expect((len(match.hand_scores), match.team_totals) == (hands, totals), seed, "the batch's totals")
        expect(tuple(match.winners) == TEAMS[winner] and not match.draw, seed, "the batch's winner")
    return steps
