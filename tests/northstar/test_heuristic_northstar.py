"""The heuristic bot of North Star's CLUBS in C (``games/northstar/heuristic.h``) against ``bot.py``: the same action
at every decision of every variant, the same play-outs for the search bots, and search bots that decide the same
with the compiled core and without it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from clubsuite.bots import RandomBot
from clubsuite.bots.searching import Rollouts
from clubsuite.engine import resolve
from clubsuite.games.northstar import NorthstarMatch, NorthstarOptions
from clubsuite.games.northstar.bot import CRAZY_WEIGHTS, PLAIN_WEIGHTS, NorthstarHeuristic, Weights, seen_earlier
from clubsuite.games.northstar.hand import NorthstarHand
from clubsuite.games.northstar.match import CORE
from clubsuite.games.northstar.playout import compiled_finish
from clubsuite.sim.bulk import seeds_of
from native_helpers import kernel_or_skip
from playout_helpers import (
    assert_kernel_matches_are_the_engines,
    assert_play_outs_agree,
    assert_search_decides_the_same_with_the_core_and_without,
)

VARIANTS = {
    "northstar(players=3)": 20,
    "northstar-duel": 20,
    "northstar(players=6)": 8,
    "northstar-2013": 12,
    "northstar-double": 12,
    "northstar-teams": 8,
    "northstar-wild": 12,
    "northstar-crazy": 12,
    "northstar(players=6,teams=2x3,double_or_nothing=true,wild_fifteens=true,crazy=true,target=80)": 6,
}
"""Every variant, with the matches played in it (some 250 to 400 decisions each), drawn from the run's seed
(``fresh_seed``): many runs cover more matches than one long one. The heuristic bot's reasoning differs by variant
(NS-8 doubling, NS-9 wild 15s, NS-10 partners, NS-11 Crazy CLUBS, NS-6 the kept pack)."""


def _options(spec: str) -> NorthstarOptions:
    _, options = resolve(spec)
    assert isinstance(options, NorthstarOptions)
    return options


def _weights(options: NorthstarOptions) -> Weights:
    return CRAZY_WEIGHTS if options.crazy else PLAIN_WEIGHTS


@pytest.mark.long
@pytest.mark.parametrize("spec", sorted(VARIANTS))
def test_the_compiled_heuristic_takes_the_python_heuristics_action_at_every_decision(
    spec: str, fresh_seed: int
) -> None:
    """Whole matches in which the heuristic bot plays most actions and a random bot the rest (reaching positions the
    bot would avoid): at every decision the C bot is asked too, on the compiled round and, every few decisions, on
    a determinized world (an engine round, which the kernel reads by replaying it)."""
    core = kernel_or_skip(CORE)
    options = _options(spec)
    weights = _weights(options)
    bot, other = NorthstarHeuristic(), RandomBot()
    decisions = worlds = 0
    for seed in seeds_of(fresh_seed + len(spec), VARIANTS[spec]):
        rng = random.Random(seed)
        match = NorthstarMatch(options)
        while not match.is_over:
            match.deal(rng=rng)
            while (seat := match.to_act) is not None:
                view, legal = match.view(seat), match.legal_actions()
                action = bot.choose(view, legal, rng)
                assert core.heuristic_choice(match.current, weights, seen_earlier(view)) == action
                decisions += 1
                if decisions % 7 == 0:
                    world = match.determinize(seat, random.Random(decisions))
                    assert type(world.current) is NorthstarHand
                    world_view = world.view(seat)
                    expected = bot.choose(world_view, world.legal_actions(), rng)
                    assert core.heuristic_choice(world.current, weights, seen_earlier(world_view)) == expected
                    worlds += 1
                match.apply(action if rng.random() < 0.75 else other.choose(view, legal, rng))
    # whole matches were compared: a duel's match takes some 100 decisions, a larger table's more
    assert decisions > VARIANTS[spec] * 50 and worlds > 10


@pytest.mark.long
@pytest.mark.parametrize(
    "spec",
    [
        "northstar(players=3)",
        "northstar-duel",
        "northstar-2013",
        "northstar-teams",
        "northstar(players=5,leftover=next_round)",
        "northstar(players=6,teams=2x3,double_or_nothing=true,wild_fifteens=true,crazy=true,target=80)",
    ],
)
def test_the_kernels_matches_of_heuristic_bots_are_the_engines_matches(spec: str) -> None:
    """The bulk part plays matches of heuristic bots, alone or beside random ones, as ``play_match`` plays them: the
    same rounds, totals and winners; each heuristic seat knows what it saw in the rounds since the last full
    shuffle (NS-6, bot.py's seen_earlier) in the kernel too."""
    kernel_or_skip(CORE)
    n = _options(spec).players
    seeds = [*seeds_of(23, 6), 2**64 - 1]
    for lineup in (["heuristic"] * n, ["random", "heuristic"] * 3, ["heuristic", "random", "random"] * 2):
        assert_kernel_matches_are_the_engines(spec, lineup[:n], seeds)


def test_the_compiled_heuristic_reads_every_weight() -> None:
    """Weights of other values (each field drawn afresh) give the same actions in C as in bot.py: the C reads every
    field, each in its place."""
    core = kernel_or_skip(CORE)
    options = _options("northstar(players=4,double_or_nothing=true,wild_fifteens=true)")
    rng = random.Random(4)
    decisions = 0
    for k in range(6):
        weights = Weights(**{f.name: rng.uniform(0.0, 4.0) for f in dataclasses.fields(Weights)})
        bot = NorthstarHeuristic(weights)
        match = NorthstarMatch(options)
        match.deal(rng=random.Random(k))
        while (seat := match.to_act) is not None:
            view, legal = match.view(seat), match.legal_actions()
            action = bot.choose(view, legal, rng)
            assert core.heuristic_choice(match.current, weights, seen_earlier(view)) == action
            decisions += 1
            match.apply(action)
    assert decisions > 100


def test_the_compiled_heuristic_refuses_weights_of_another_kind() -> None:
    core = kernel_or_skip(CORE)
    match = NorthstarMatch(_options("northstar(players=3)"))
    match.deal(rng=random.Random(1))
    with pytest.raises(TypeError, match=r"^weights must be bot\.py's Weights, not dict$"):
        core.heuristic_choice(match.current, {"kappa": 2.0}, 0)


@pytest.mark.parametrize("spec", ["northstar(players=3)", "northstar-teams", "northstar-wild", "northstar-crazy"])
@pytest.mark.parametrize("seed", range(6))
def test_a_compiled_play_out_ends_the_round_as_the_python_bots_do(spec: str, seed: int) -> None:
    """The search bots' play-outs from a random point of a random round (a later round too, dealt from the kept
    pack, NS-6), on the compiled round and on a determinized world: the same actions, scores and totals."""
    kernel_or_skip(CORE)
    rng = random.Random(seed)
    match = NorthstarMatch(_options(spec))
    for _ in range(seed % 3 + 1):
        if match.current is not None:
            Rollouts("random").finish_hand(match, rng)
        if match.is_over:
            break
        match.deal(rng=rng)
    if match.current is None:
        pytest.fail("the match ended before the round to play out")
    for _ in range(rng.randrange(0, 20)):
        if match.to_act is None:
            break
        match.apply(RandomBot().choose(None, match.legal_actions(), rng))
    seat = match.to_act if match.to_act is not None else 0
    for start in (match, match.determinize(seat, random.Random(seed))):
        assert_play_outs_agree(start, seed)


def test_a_play_out_is_left_to_the_engine_for_another_bot_or_without_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kernel_or_skip(CORE)
    match = NorthstarMatch(_options("northstar(players=3)"))
    match.deal(rng=random.Random(2))
    before = match.current.action_log() if match.current is not None else None
    assert not compiled_finish(match, "random")
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert not compiled_finish(match, "heuristic")
    assert match.current is not None and match.current.action_log() == before


@pytest.mark.long
def test_pimc_decides_the_same_with_the_compiled_core_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled play-outs change how soon a search bot decides, never what it decides."""
    match = NorthstarMatch(_options("northstar(players=3,double_or_nothing=true)"))
    match.deal(rng=random.Random(3))
    assert_search_decides_the_same_with_the_core_and_without(match, "pimc(samples=4)", 8, monkeypatch)
