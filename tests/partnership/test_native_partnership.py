"""The compiled partnership kernel against the engine: the same deals, passes, legal sets, events and scores.

The kernel (``src/clubsuite/games/partnership/core.h``) restates CP-1 to CP-4; these tests hold it to the engine by
playing 60 random matches from the run's seed through both, step by step, and by comparing whole matches played
by the batch.
"""

from __future__ import annotations

import random

import pytest

from clubsuite.bots import RandomBot, make_bot
from clubsuite.bots.searching import Rollouts
from clubsuite.cards import CardSet, card_at
from clubsuite.engine import Phase, find_game
from clubsuite.games.partnership import PartnershipMatch
from clubsuite.games.partnership.bulk import CORE, compiled_matches
from clubsuite.games.partnership.differential import check_random_matches
from clubsuite.games.partnership.hand import Pass, PassChoices
from clubsuite.games.partnership.options import PartnershipOptions
from clubsuite.games.partnership.playout import heuristic_table
from clubsuite.games.partnership.solving import SOLVING
from clubsuite.native import KernelMismatchError
from clubsuite.sim.bulk import engine_random_match, random_matches, seeds_of
from clubsuite.solver.compiled import SOLVER
from clubsuite.solver.search import NodeLimitError, SolveStats, solve
from native_helpers import kernel_or_skip
from playout_helpers import (
    assert_kernel_matches_are_the_engines,
    assert_play_outs_agree,
    assert_search_decides_the_same_with_the_core_and_without,
)

DIFFERENTIAL_MATCHES = 60
"""Random matches played through the engine and the kernel side by side (the game has no variant), from a seed
drawn for each run (``fresh_seed``): many runs cover more deals than one long one."""


@pytest.mark.parametrize("seed", range(20))
def test_the_kernel_lists_the_passes_in_the_engines_order(seed: int) -> None:
    """CP-2: a random bot picks a pass by its position among the 286, so the kernel must count them alike."""
    core = kernel_or_skip(CORE)
    hand = sum(1 << c for c in random.Random(seed).sample(range(52), 13))
    choices = PassChoices(hand)
    for index in (0, 1, 77, 285, *random.Random(seed).sample(range(286), 20)):
        assert core.pass_at(hand, index) == int(choices[index].cards)


@pytest.mark.long
def test_every_pass_legal_set_event_and_score_of_random_matches_agrees_with_the_engine(fresh_seed: int) -> None:
    """CP-1 to CP-4 in the kernel: 60 random matches from the run's seed, checked at every decision
    (``games/partnership/differential.py``; ``bench/differential.py`` runs it on 100,000)."""
    kernel_or_skip(CORE)
    steps = check_random_matches(PartnershipOptions(), seeds_of(fresh_seed, DIFFERENTIAL_MATCHES))
    assert steps > DIFFERENTIAL_MATCHES * 52


def test_the_differential_check_catches_a_kernel_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = kernel_or_skip(CORE)
    seeds = seeds_of(5, 3)
    honest = kernel.random_matches

    def other_winner(match_seeds: list[int], target: int) -> list[object]:
        played = honest(match_seeds, target)
        hands, totals, winner = played[0]
        return [(hands, totals, 1 - winner), *played[1:]]

    monkeypatch.setattr(kernel, "random_matches", other_winner)
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[0]}: the batch's winner"):
        check_random_matches(PartnershipOptions(), seeds)


def test_the_bulk_path_gives_the_engines_results_with_or_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure-Python fallback (CLUBS_PURE_PYTHON=1, or no kernel built) plays the same matches."""
    options = PartnershipOptions(target=60)
    seeds = seeds_of(9, 40)
    info, _ = find_game("partnership")
    default = random_matches(info, options, seeds)
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert random_matches(info, options, seeds) == default == [engine_random_match(info, options, s) for s in seeds]


KERNEL_MATCHES = 3
"""Matches of each line-up of bots from the run's seed (``fresh_seed``), beside the one of the highest seed."""


@pytest.mark.parametrize(
    "bots",
    [
        ("heuristic", "heuristic", "heuristic", "heuristic"),
        ("heuristic", "random", "heuristic", "random"),
        ("random", "random", "random", "heuristic"),
    ],
)
def test_the_kernels_matches_of_heuristic_bots_are_the_engines_matches(bots: tuple[str, ...], fresh_seed: int) -> None:
    """The bulk part plays matches of heuristic bots, alone or beside random ones, as ``play_match`` plays them
    (the passes of CP-2, the play, CP-4's end): the same hands, totals and winners, on matches from the run's seed and
    the match of the highest seed. Other bots go to the engine."""
    kernel_or_skip(CORE)
    options = PartnershipOptions(target=100)
    seeds = [*seeds_of(fresh_seed + bots.count("heuristic"), KERNEL_MATCHES), 2**64 - 1]
    assert_kernel_matches_are_the_engines("partnership(target=100)", list(bots), seeds)
    assert compiled_matches(options, ["random", "pimc", "random", "random"], seeds) is None
    assert compiled_matches(options, ["random", "heuristic", "random"], seeds) is None


HEURISTIC_MATCHES = 4
"""Whole matches of heuristic bots from the run's seed (``fresh_seed``) in which every decision is asked of the C bot
too."""


def test_the_compiled_heuristic_passes_and_plays_what_the_python_heuristic_does(fresh_seed: int) -> None:
    """``heuristic.h`` against ``bot.py``: the same pass (CP-2) and the same card (CP-1, CP-3 as the bot weighs
    them) at every decision of whole matches."""
    kernel_or_skip(CORE)
    decisions = 0
    for k in range(HEURISTIC_MATCHES):
        rng = random.Random(fresh_seed + k)
        match = PartnershipMatch()
        bots = [make_bot("heuristic", "partnership") for _ in range(4)]
        while not match.is_over:
            match.deal(rng=rng)
            while (seat := match.to_act) is not None:
                action = bots[seat].choose(match.view(seat), match.legal_actions(), rng)
                table = heuristic_table(match)
                assert table is not None
                chosen = table.choice()
                assert (Pass(CardSet(chosen)) if isinstance(action, Pass) else card_at(chosen)) == action
                decisions += 1
                match.apply(action)
    assert decisions > HEURISTIC_MATCHES * 300


@pytest.mark.parametrize("seed", range(30))
def test_a_compiled_play_out_ends_the_hand_as_the_python_bots_do(seed: int) -> None:
    """The search bots' play-outs, from a random point of a random hand (the pass included): the same actions and
    scores."""
    kernel_or_skip(CORE)
    rng = random.Random(seed)
    match = PartnershipMatch()
    for _ in range(seed % 3 + 1):  # hands 0, 1, 2 pass left, right, none (CP-2)
        if match.current is not None:
            Rollouts("random").finish_hand(match, rng)
        match.deal(rng=rng)
    for _ in range(rng.randrange(0, 40)):
        match.apply(RandomBot().choose(None, match.legal_actions(), rng))
    assert_play_outs_agree(match, seed)


@pytest.mark.long
def test_pimc_decides_the_same_with_the_compiled_core_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled play-outs change how soon a search bot decides, never what it decides (the pass included)."""
    rng = random.Random(3)
    match = PartnershipMatch()
    match.deal(rng=rng)
    assert_search_decides_the_same_with_the_core_and_without(match, "pimc(samples=4,tricks=3)", 10, monkeypatch)


def _play_position(seed: int, cards_left: int, extra: int) -> PartnershipMatch:
    """A random match played at random to the first lead with at most ``cards_left`` cards a hand (the pass
    included), then ``extra`` cards more into that trick (0 to 3)."""
    rng = random.Random(seed)
    bot = RandomBot()
    match = PartnershipMatch()
    for _ in range(seed % 3):  # hands 0, 1, 2 pass left, right, none (CP-2)
        match.deal(rng=rng)
        Rollouts("random").finish_hand(match, rng)
    match.deal(rng=rng)
    while match.current is not None and (
        match.current.phase is not Phase.PLAY
        or match.current.trick_indices
        or match.current.hands[match.to_act].bit_count() > cards_left  # type: ignore[index]
    ):
        match.apply(bot.choose(None, match.legal_actions(), rng))
    for _ in range(extra):
        if match.to_act is not None:
            match.apply(bot.choose(None, match.legal_actions(), rng))
    return match


SOLVER_POSITIONS = 50
"""Random positions from the run's seed (``fresh_seed``; each solved for both measures) on which the compiled solver
is compared with the Python one."""


@pytest.mark.long
def test_the_compiled_solver_finds_the_python_solvers_values_nodes_and_table(fresh_seed: int) -> None:
    """CP-1 and CP-3 in ``native/solve.h``: the same value for every legal card, nodes and table entries, for the
    points (the queen of diamonds never equivalent to a neighbour, the sweep) and for the tricks, from one card a
    hand to six, with 0 to 3 cards of the trick down."""
    kernel_or_skip(SOLVER)
    solved = 0
    for k in range(SOLVER_POSITIONS):
        match = _play_position(fresh_seed + k, 1 + k % 6, k % 4)
        if match.current is None or match.to_act is None:
            continue
        for measure in ("points", "tricks"):
            got = SOLVING.solvable(match, measure)
            assert got is not None
            python, compiled = SolveStats(), SolveStats()
            expected = solve(got.position, None, None, python)
            assert SOLVING.compiled_solve(got.position, None, compiled) == expected
            assert (compiled.nodes, compiled.entries) == (python.nodes, python.entries)
            solved += 1
    assert solved > SOLVER_POSITIONS


@pytest.mark.parametrize("share", [0.0, 0.3, 0.99])
def test_a_node_limit_stops_the_compiled_solver_where_it_stops_the_python_one(share: float) -> None:
    kernel_or_skip(SOLVER)
    match = _play_position(11, 7, 2)
    got = SOLVING.solvable(match, "points")
    assert got is not None
    whole = SolveStats()
    solve(got.position, None, None, whole)
    limit = max(1, int(whole.nodes * share))
    python, compiled = SolveStats(), SolveStats()
    with pytest.raises(NodeLimitError):
        solve(got.position, None, limit, python)
    # A search stopped part-way leaves its scorer part-way through a line: ask again for a fresh one.
    again = SOLVING.solvable(match, "points")
    assert again is not None
    with pytest.raises(NodeLimitError, match=f"past {limit} nodes"):
        SOLVING.compiled_solve(again.position, limit, compiled)
    assert compiled.nodes == python.nodes == limit + 1
