"""The Free Clubs kernel held to the engine step by step: random matches played through both side by side,
comparing at every decision the stage, the seat to act, every hand and the legal set, then the events (the auction
won, play started, each trick's winner, the hand's tricks and score) and each match's totals and winner (FC-1 to
FC-9). The tests run it on 2,000 matches per setting of the options the kernel plays."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING

from clubsuite.bots.random_bot import RandomBot
from clubsuite.cards import CardSet
from clubsuite.engine import Events, find_game
from clubsuite.games.free.bulk import CORE
from clubsuite.games.free.deal import FreeDeal
from clubsuite.games.free.events import AuctionWon, CardPlayed, HandScored, PlayStarted, TrickTaken
from clubsuite.games.free.hand import Call, FreeAction, FreeHand, MisplayCall, Stage
from clubsuite.games.free.match import FreeMatch
from clubsuite.games.free.options import FreeOptions
from clubsuite.native import EV_NONE, EV_SCORED, EV_TRICK, compiled, expect
from clubsuite.native.steps import expect_card_events, expect_play_started
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

if TYPE_CHECKING:
    from clubsuite.games.free._core import FreeCore

Chooser = Callable[[CardSet | tuple[FreeAction, ...]], FreeAction]
"""What picks each action of a hand from the legal ones."""

STAGES = (Stage.AUCTION, Stage.HANDICAP, Stage.PASS, Stage.PLAY, Stage.OVER)
"""The engine's stage for each of the kernel's stage numbers (core.h)."""

PLAY = STAGES.index(Stage.PLAY)
"""The kernel's number for trick play."""

PASS = 54
"""The kernel's number for the auction's pass (``FC_PASS`` in core.h): after every card index, as the engine lists
the pass after the bids (FC-3)."""


def action_mask(legal: CardSet | tuple[FreeAction, ...]) -> int:
    """The engine's legal actions as the kernel's mask: a card set as it is; the auction's tuple of bids (in card
    order) and the pass (last) with the pass as bit :data:`PASS` (FC-3)."""
    if isinstance(legal, tuple):
        return sum(1 << (PASS if action is Call.PASS else action.index) for action in legal)
    return int(legal)


def _scored(events: Events, core: FreeCore, seed: int) -> bool:
    """Whether ``events`` hold the hand's score; if so it must be the kernel's (FC-8)."""
    scored = [e for e in events if isinstance(e, HandScored)]
    if scored:
        expect((scored[0].tricks, scored[0].scores) == (core.tricks_won, core.scores), seed, "the hand's score")
    return bool(scored)


def _card_events_agree(events: Events, code: int, core: FreeCore) -> bool:
    """The quick test of :func:`clubsuite.native.steps.expect_card_events` (which, asked only on a disagreement,
    names what differed): a card played, then a trick taken by the kernel's last winner exactly when the kernel says
    so, and the hand's score (FC-8) exactly when the kernel scored it."""
    if not isinstance(events[0], CardPlayed):
        return False
    taken = scored = None
    for event in events[1:]:
        if isinstance(event, TrickTaken):
            taken = event
        elif isinstance(event, HandScored):
            scored = event
    if taken is not None and taken.seat != core.last_winner:
        return False
    if scored is not None:
        return code == EV_SCORED and (scored.tricks, scored.scores) == (core.tricks_won, core.scores)
    return code == (EV_NONE if taken is None else EV_TRICK)


def _step(match: FreeMatch, core: FreeCore, action: FreeAction, seed: int) -> None:
    """Apply ``action`` to the engine's match and the kernel's hand; their events must agree."""
    in_play = core.stage == PLAY
    events = match.apply(action)
    code = core.step(PASS if action is Call.PASS else action.index)
    if in_play:
        if not _card_events_agree(events, code, core):
            agrees = lambda e: (e.tricks, e.scores) == (core.tricks_won, core.scores)  # noqa: E731
            expect_card_events(events, code, seed, core.last_winner, HandScored, agrees)  # names what differed
            expect(False, seed, f"the events of a card: {events} against {code}")
        return
    for event in events:
        if isinstance(event, AuctionWon):  # FC-3, FC-4: the winner and the Joker's partner
            partner = None if core.partner < 0 else core.partner
            expect(
                (event.seat, event.partner) == (core.winner, partner), seed, partial("the auction: {}".format, event)
            )
    if _scored(events, core, seed):  # FC-7: two seats out of cards before the first lead
        expect(code == EV_SCORED, seed, lambda: f"the hand scored: {events} against {code}")
    elif code != EV_NONE or any(isinstance(e, PlayStarted) for e in events):
        expect_play_started(events, code, seed, core.leader)


def _play_hand(match: FreeMatch, hand: FreeHand, core: FreeCore, choose: Chooser, seed: int) -> int:
    """One hand through both, the actions from ``choose``, compared before and after every decision; returns the
    decisions."""
    steps = 0
    while match.to_act is not None:
        if not (core.to_act == match.to_act and STAGES[core.stage] is hand.stage and core.hands == tuple(hand.hands)):
            expect(False, seed, f"the seat to act, the stage and the hands at decision {steps} ({hand.stage})")
        legal = match.legal_actions()
        if core.legal() != action_mask(legal):
            expect(False, seed, f"the legal actions at decision {steps}: {legal} against {core.legal():#x}")
        _step(match, core, choose(legal), seed)
        steps += 1
    expect(core.to_act is None and core.scores is not None, seed, "the hand's end")
    return steps


def _random_choice(rng: random.Random) -> Chooser:
    """The random bot's choice drawing from ``rng``, as :func:`clubsuite.runner.play_match` asks it (it ignores the
    view)."""
    bot = RandomBot()
    return lambda legal: bot.choose(None, legal, rng)


def _kernel(options: FreeOptions) -> ModuleType:
    """The compiled kernel, for ``options`` it plays; LookupError where it is not built, ValueError for table mode
    (FC-10), which it leaves to the engine."""
    if options.misplays:
        raise ValueError("the kernel does not play table mode (option misplays, FC-10)")
    kernel = compiled(CORE)
    if kernel is None:
        raise LookupError(f"{CORE} is not built here")
    return kernel


def check_random_matches(options: FreeOptions, match_seeds: Sequence[int]) -> int:
    """Play each seed's match with random bots through the engine and the kernel side by side (the bots seeded as
    :func:`clubsuite.runner.play_match` seeds them) and compare at every decision, then the kernel's batch of the
    same matches; returns the decisions compared. Raises ``KernelMismatchError`` naming the seed and what differed,
    LookupError where the kernel is not built, and ValueError for table mode (FC-10), which the kernel leaves to the
    engine."""
    kernel = _kernel(options)
    info, _ = find_game("free")
    played = kernel.random_matches(match_seeds, options.target, options.no_spades_needs_a_trick)
    steps = 0
    for seed, (hands, totals, winners, draw) in zip(match_seeds, played, strict=True):
        match = FreeMatch(options)
        choose = _random_choice(random.Random(derive_seed(seed, 0x5EED)))
        while not match.is_over:
            deal_next(match, info, seed)
            hand = match.hands[-1]
            deal = hand.deal
            core: FreeCore = kernel.FreeCore(
                deal.auction, deal.primary, deal.chest, hand.dealer, options.no_spades_needs_a_trick
            )
            steps += _play_hand(match, hand, core, choose, seed)
        expect((len(match.hand_scores), tuple(match.totals)) == (hands, totals), seed, "the batch's totals")
        won = tuple(s for s in range(3) if winners >> s & 1)
        expect((tuple(match.winners), bool(match.draw)) == (won, draw), seed, "the batch's winners")
    return steps


def check_scripted_hand(
    options: FreeOptions, deal: FreeDeal, script: Sequence[str], rng: random.Random, label: int = 0
) -> FreeHand:
    """Deal ``deal`` as the first hand of a match and play it through the engine and the kernel side by side, the
    actions of ``script`` (in notation) first, then random ones drawn from ``rng`` to the hand's end, comparing at
    every decision as :func:`check_random_matches` does (``label`` stands for the match seed in a mismatch's
    message). Returns the engine's hand, for the caller to check that the script reached what it aimed at: states
    that random matches almost never reach (a seat emptied by its handicaps, FC-5 and FC-7)."""
    kernel = _kernel(options)
    match = FreeMatch(options)
    match.deal(deal=deal)
    hand = match.hands[-1]
    core: FreeCore = kernel.FreeCore(
        deal.auction, deal.primary, deal.chest, hand.dealer, options.no_spades_needs_a_trick
    )
    random_choice = _random_choice(rng)
    scripted = iter(script)

    def choose(legal: CardSet | tuple[FreeAction, ...]) -> FreeAction:
        text = next(scripted, None)
        if text is None:
            return random_choice(legal)
        action = FreeMatch.parse_action(text)
        assert not isinstance(action, MisplayCall)
        return action

    _play_hand(match, hand, core, choose, label)
    return hand
