"""The North Star kernel held to the engine step by step: random matches played through both side by side, comparing
every deal and kept pack (NS-6), seat to act, legal list in order (NS-3, NS-4, NS-8, NS-9, NS-11), event (tricks,
going out, the last turn, the round's end: NS-4, NS-5, NS-10), score (NS-2, NS-5, NS-8, NS-10) and the match's end
(NS-7). The tests run it on 2,000 matches per variant."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from clubsuite.bots.random_bot import RandomBot
from clubsuite.engine import find_game
from clubsuite.events import Event, MatchEnded
from clubsuite.games.northstar.bulk import CORE, kernel_options
from clubsuite.games.northstar.combos import Call, Kind, NorthstarAction, Play
from clubsuite.games.northstar.events import (
    DoubleCalled,
    HandScored,
    LastTurn,
    Passed,
    Played,
    RoundEnded,
    TrickWon,
    WentOut,
)
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.games.northstar.options import NorthstarOptions
from clubsuite.native import compiled, expect
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

if TYPE_CHECKING:
    from clubsuite.games.northstar._core import NorthstarCore

KIND_CODES = {Kind.SINGLE: 0, Kind.SET: 16, Kind.RUN: 32}
"""A play's code (the kernel's ``NorthstarCore.legal``): its cards' mask plus its kind's code plus its top value."""
CALL_CODES = {Call.PASS: 0, Call.DOUBLE: 1}
"""The calls' codes (a play's is at least 2**64: its cards' mask)."""

EVENT_NAMES: dict[type[Event], str] = {
    Passed: "passed",
    DoubleCalled: "double",
    WentOut: "out",
    TrickWon: "trick",
    LastTurn: "last",
    RoundEnded: "ended",
    HandScored: "scored",
    MatchEnded: "match",
}
"""How the kernel names each event (``NorthstarCore.apply``); the event's fields follow in order."""


def action_code(action: NorthstarAction) -> int:
    """The number the kernel lists ``action`` as."""
    if isinstance(action, Play):
        return action.cards + KIND_CODES[action.kind] + action.high
    return CALL_CODES[action]


def action_codes(legal: Iterable[NorthstarAction]) -> list[int]:
    """The engine's legal list as the kernel lists it: each action's code, in order (written out: it runs at every
    decision)."""
    calls, kinds = CALL_CODES, KIND_CODES
    return [a.cards + kinds[a.kind] + a.high if isinstance(a, Play) else calls[a] for a in legal]


def event_tuples(events: Iterable[Event]) -> list[tuple[object, ...]]:
    """The engine's events as the kernel reports them: a name, then the fields (a play: only its seat, since the
    kernel played the very action of the same place in the same list)."""
    names = EVENT_NAMES
    return [("played", e[0]) if type(e) is Played else (names[type(e)], *e) for e in events]


def check_random_matches(options: NorthstarOptions, match_seeds: Sequence[int]) -> int:
    """Play each seed's match with random bots through the engine and the kernel side by side (the bots seeded as
    :func:`clubsuite.runner.play_match` seeds them) and compare at every decision, then the kernel's batch of the same
    matches; returns the decisions compared. Raises ``KernelMismatchError`` naming the seed and what differed, or
    LookupError where the kernel is not built."""
    kernel = compiled(CORE)
    if kernel is None:
        raise LookupError(f"{CORE} is not built here")
    info, _ = find_game("northstar")
    args = kernel_options(options)
    bot = RandomBot()
    played = kernel.random_matches(match_seeds, args)
    steps = 0
    for seed, (rounds, totals, winners, draw) in zip(match_seeds, played, strict=True):
        match = NorthstarMatch(options)  # the first dealer is seat 0, as a simulation's match
        core: NorthstarCore = kernel.NorthstarCore(args, seed)
        rng = random.Random(derive_seed(seed, 0x5EED))
        while not match.is_over:
            deal_next(match, info, seed)
            core.deal()
            hand = match.hands[-1]
            dealt = (tuple(hand.hands), hand.dealer, match.packs[-1])
            expect((core.hands, core.dealer, core.pack) == dealt, seed, f"the deal of round {len(match.hands)}")
            while (seat := match.to_act) is not None:
                legal = match.legal_actions()
                codes = action_codes(legal)
                if core.to_act != seat or core.legal() != codes:
                    mine = (core.to_act, core.legal())
                    expect(False, seed, f"seat {seat} to act with {legal}, in the kernel {mine}")
                action = bot.choose(None, legal, rng)
                events = event_tuples(match.apply(action))
                did = core.apply(codes.index(action_code(action)))
                if did != events:
                    expect(False, seed, f"{action} did {events}, in the kernel {did}")
                steps += 1
            expect(core.to_act is None and core.hands == tuple(hand.hands), seed, "the round's end")
        outcome = (core.rounds, core.totals, core.winners, core.is_over)
        expect(outcome == (len(match.hand_scores), tuple(match.totals), match.winners, True), seed, "the match's end")
        batch = (rounds, totals, tuple(s for s in range(options.players) if winners >> s & 1), draw)
        expect(batch == (*outcome[:3], match.draw), seed, "the batch's outcome")
    return steps
