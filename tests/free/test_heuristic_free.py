"""The heuristic bot's card play of Free Clubs in C (``games/free/heuristic.h``) against ``bot.py``: the same card at
every decision, the same play-outs for the search bots, and search bots that decide the same with the compiled core
and without it."""

from __future__ import annotations

import random

import pytest

from clubsuite.bots import RandomBot
from clubsuite.bots.searching import Rollouts
from clubsuite.engine import resolve
from clubsuite.games.free import FreeMatch, bot
from clubsuite.games.free.bot import FreeHeuristicBot, heuristic_constants
from clubsuite.games.free.bulk import CORE, compiled_matches
from clubsuite.games.free.hand import FreeHand, Stage
from clubsuite.games.free.options import FreeOptions
from clubsuite.games.free.playout import compiled_finish
from clubsuite.sim.bulk import seeds_of
from native_helpers import kernel_or_skip
from playout_helpers import (
    assert_kernel_matches_are_the_engines,
    assert_play_outs_agree,
    assert_search_decides_the_same_with_the_core_and_without,
)

MATCHES = 6
"""Whole matches per reading of FC-8 (some 250 card plays each), from the run's seed (``fresh_seed``): other ones each
run."""

CONSTANTS = (
    "PLAIN_TOP",
    "PLAIN_DECAY",
    "PLAIN_LENGTH_DECAY",
    "CLUB_SLOPE",
    "CLUB_FLOOR",
    "KEEP_WEIGHT",
    "FRIEND_DEFENDER",
    "RIVAL_WINNER",
    "TEAM_PARTNER",
    "BREAK_TEAM",
    "DIAMOND_VALUE",
    "ACE_OF_HEARTS_VALUE",
    "FIRST_SPADE_COST",
    "SOLO_MARGIN",
    "JOKER_OWN_TRICKS",
)
"""bot.py's constants, as playout.heuristic_constants hands them to the C (CHEST_SAMPLES aside: a count)."""


def _play_through(options: FreeOptions, seed: int, check: object, every_stage: object = None) -> int:
    """A whole match in which the heuristic bot plays most actions and a random bot the rest (reaching hands a seat
    emptied by its handicaps, voids, Joker teams); ``check(match, action)`` at every card of the card play, and
    ``every_stage(match, action, state, rng)`` at every decision, with the generator's state before the bot chose."""
    rng = random.Random(seed)
    heuristic, other = FreeHeuristicBot(), RandomBot()
    match = FreeMatch(options)
    checked = 0
    while not match.is_over:
        match.deal(rng=rng)
        while (seat := match.to_act) is not None:
            view, legal = match.view(seat), match.legal_actions()
            state = rng.getstate()
            action = heuristic.choose(view, legal, rng)
            hand = match.current
            if every_stage is not None:
                every_stage(match, action, state, rng)  # type: ignore[operator]
            if hand is not None and hand.stage is Stage.PLAY:
                check(match, action)  # type: ignore[operator]
                checked += 1
            match.apply(action if rng.random() < 0.75 else other.choose(view, legal, rng))
    return checked


@pytest.mark.long
@pytest.mark.parametrize("no_spades_needs_a_trick", [False, True])
def test_the_compiled_heuristic_plays_the_python_heuristics_card_at_every_decision(
    no_spades_needs_a_trick: bool, fresh_seed: int
) -> None:
    """FC-1's card play as the bot weighs it (who takes the trick, the bonuses of FC-8, the roles of FC-4): at every
    card of whole matches the C bot is asked too, and every few cards on a determinized world."""
    core = kernel_or_skip(CORE)
    options = FreeOptions(no_spades_needs_a_trick=no_spades_needs_a_trick)
    constants = heuristic_constants()
    heuristic = FreeHeuristicBot()
    worlds = 0

    def check(match: FreeMatch, action: object) -> None:
        nonlocal worlds
        hand, seat = match.current, match.to_act
        assert hand is not None and seat is not None
        assert core.heuristic_play(hand, constants) == action
        if len(hand.action_log()) % 5 == 0:
            world = match.determinize(seat, random.Random(worlds))
            expected = heuristic.choose(world.view(seat), world.legal_actions(), random.Random(0))
            assert core.heuristic_play(world.current, constants) == expected
            worlds += 1

    stages: set[Stage] = set()

    def every_stage(match: FreeMatch, action: object, state: object, rng: random.Random) -> None:
        """FC-3..FC-5 and FC-2 as the bot weighs them too: its bid (chests drawn from the same generator, which both
        leave in the same state), its Ten's discard and its pass."""
        hand = match.current
        assert hand is not None
        chosen = core.heuristic_action(hand, constants, state)
        assert chosen == (action, rng.getstate())
        stages.add(hand.stage)

    decisions = sum(_play_through(options, fresh_seed + k, check, every_stage) for k in range(MATCHES))
    assert decisions > MATCHES * 100 and worlds > 100
    assert stages == {Stage.AUCTION, Stage.HANDICAP, Stage.PASS, Stage.PLAY}


KERNEL_MATCHES = 3
"""Matches of each line-up of bots from the run's seed (``fresh_seed``), beside the one of the highest seed."""


@pytest.mark.long
@pytest.mark.parametrize("spec", ["free", "free(no_spades_needs_a_trick=true,target=200)", "free(target=500)"])
def test_the_kernels_matches_of_heuristic_bots_are_the_engines_matches(spec: str, fresh_seed: int) -> None:
    """The bulk part plays matches of heuristic bots, alone or beside random ones, as ``play_match`` plays them (the
    auction's chests drawn from the bots' one generator between the random bots' draws): the same hands, totals
    and winners, on matches from the run's seed and the match of the highest seed. Other bots and table mode
    (FC-10) go to the engine."""
    kernel_or_skip(CORE)
    _, options = resolve(spec)
    seeds = [*seeds_of(fresh_seed + len(spec), KERNEL_MATCHES), 2**64 - 1]
    for bots in (["heuristic"] * 3, ["heuristic", "random", "random"], ["random", "heuristic", "heuristic"]):
        assert_kernel_matches_are_the_engines(spec, bots, seeds)
    assert compiled_matches(options, ["heuristic", "pimc", "random"], seeds) is None
    assert compiled_matches(FreeOptions(misplays=True), ["heuristic"] * 3, seeds) is None


def test_the_compiled_heuristic_reads_every_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Constants of other values (each drawn afresh, set on bot.py, which its functions read) give the same cards in
    C as in bot.py: the C reads every constant, each in its place."""
    core = kernel_or_skip(CORE)
    rng = random.Random(5)
    decisions = 0
    for seed in range(6):
        for name in CONSTANTS:
            monkeypatch.setattr(
                bot, name, rng.uniform(-1.0, 3.0) if name.startswith(("RIVAL", "FIRST")) else rng.random()
            )
        constants = heuristic_constants()

        def check(match: FreeMatch, action: object, constants: tuple[float, ...] = constants) -> None:
            assert core.heuristic_play(match.current, constants) == action

        decisions += _play_through(FreeOptions(), 100 + seed, check)
    assert decisions > 300


def test_the_compiled_heuristic_refuses_constants_of_another_count() -> None:
    core = kernel_or_skip(CORE)
    match = FreeMatch()
    match.deal(rng=random.Random(1))
    with pytest.raises(ValueError, match=r"^the heuristic bot's constants are 16 numbers, not 2$"):
        core.heuristic_play(match.current, (1.0, 2.0))


def _in_play(seed: int, options: FreeOptions) -> FreeMatch:
    """A match played at random into the card play of a hand (a later hand for odd seeds), a few cards in."""
    rng = random.Random(seed)
    match = FreeMatch(options)
    for _ in range(seed % 2 + 1):
        if match.current is not None:
            Rollouts("random").finish_hand(match, rng)
        match.deal(rng=rng)
        while match.current is not None and match.current.stage is not Stage.PLAY and match.to_act is not None:
            match.apply(RandomBot().choose(None, match.legal_actions(), rng))
    for _ in range(rng.randrange(0, 12)):
        if match.to_act is None:
            break
        match.apply(RandomBot().choose(None, match.legal_actions(), rng))
    return match


@pytest.mark.parametrize("seed", range(16))
def test_a_compiled_play_out_ends_the_hand_as_the_python_bots_do(seed: int) -> None:
    """The search bots' play-outs from a random point of the card play, on the match and on a determinized world:
    the same cards, scores and totals."""
    kernel_or_skip(CORE)
    match = _in_play(seed, FreeOptions())
    if match.current is None or match.current.stage is not Stage.PLAY:
        pytest.fail("the match did not arrive at a card play")
    seat = match.to_act
    assert seat is not None
    for start in (match, match.determinize(seat, random.Random(seed))):
        assert_play_outs_agree(start, seed)


@pytest.mark.parametrize("seed", range(12))
def test_a_compiled_play_out_from_the_auction_draws_and_ends_as_the_python_bots_do(seed: int) -> None:
    """From any point before the card play (the auction, the Ten's discard, the pass: FC-2 to FC-5) the kernel's bots
    draw their chests from the play-out's generator as bot.py's do: the same actions, scores and totals, and the
    generator left in the same state; on the match and on a determinized world."""
    kernel_or_skip(CORE)
    rng = random.Random(seed)
    match = FreeMatch()
    if seed % 2:
        match.deal(rng=rng)
        Rollouts("random").finish_hand(match, rng)
    match.deal(rng=rng)
    for _ in range(rng.randrange(0, 8)):  # a few calls or choices in, still before the card play
        hand = match.current
        if hand is None or hand.stage is Stage.PLAY or match.to_act is None:
            break
        match.apply(RandomBot().choose(None, match.legal_actions(), rng))
    seat = match.to_act
    assert seat is not None
    for start in (match, match.determinize(seat, random.Random(seed))):
        assert_play_outs_agree(start, 100 + seed)


def test_a_play_out_is_left_to_the_engine_in_table_mode_or_without_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the card play only a ``random.Random`` can be stood in for (the kernel draws as it does): with none, or
    another kind of generator, the engine plays; so it does in table mode (FC-10), for another bot, or without the
    kernel. Each time the match and the generator are left untouched."""
    kernel_or_skip(CORE)
    auction = FreeMatch()
    auction.deal(rng=random.Random(2))

    class OtherRandom(random.Random):
        pass

    other = OtherRandom(5)
    state = other.getstate()
    assert not compiled_finish(auction, "heuristic")
    assert not compiled_finish(auction, "heuristic", other)
    assert other.getstate() == state and auction.current is not None and not auction.current.action_log()
    table_mode = _in_play(3, FreeOptions(misplays=True))
    assert isinstance(table_mode.current, FreeHand) and table_mode.current.stage is Stage.PLAY
    assert not compiled_finish(table_mode, "heuristic")  # FC-10: the kernel knows no misplays
    match = _in_play(3, FreeOptions())
    before = match.current.action_log() if match.current is not None else None
    assert not compiled_finish(match, "random")
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert not compiled_finish(match, "heuristic")
    assert match.current is not None and match.current.action_log() == before


@pytest.mark.long
@pytest.mark.parametrize("where", ["card play", "auction"])
def test_pimc_decides_the_same_with_the_compiled_core_and_without(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled play-outs change how soon a search bot decides, never what it decides: in the card play, and
    from the auction on (its worlds' chests drawn from the search's generators by the kernel as by bot.py)."""
    if where == "auction":
        start = FreeMatch()
        start.deal(rng=random.Random(7))
    else:
        start = _in_play(4, FreeOptions())
    assert_search_decides_the_same_with_the_core_and_without(start, "pimc(samples=4)", 8, monkeypatch)
