"""The compiled whist kernel against the engine: the same draws, the same legal sets, events and scores.

The kernel (``src/clubsuite/games/whist/core.h``) restates CW-1 to CW-5; these tests hold it to the engine by playing
random matches through both, step by step, for each variant of the rules (CW-3's two readings): other matches each
run, from the run's seed (``bench/differential.py`` plays 100,000).
"""

from __future__ import annotations

import random

import pytest

from clubsuite.bots import RandomBot, make_bot
from clubsuite.bots.searching import Rollouts
from clubsuite.cards import card_at
from clubsuite.engine import Phase, find_game
from clubsuite.games.whist import WhistMatch
from clubsuite.games.whist.bulk import CORE, compiled_matches
from clubsuite.games.whist.differential import check_random_matches
from clubsuite.games.whist.hand import Decision
from clubsuite.games.whist.options import LeadAfterExchange, WhistOptions
from clubsuite.games.whist.playout import compiled_finish, heuristic_table
from clubsuite.games.whist.solving import SOLVING
from clubsuite.native import KernelMismatchError
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed
from clubsuite.sim.bulk import engine_random_match, random_matches, seeds_of
from clubsuite.solver import card_values
from clubsuite.solver.search import NodeLimitError, SolveStats, solve
from native_helpers import kernel_or_skip
from playout_helpers import assert_play_outs_agree, assert_search_decides_the_same_with_the_core_and_without

DIFFERENTIAL_MATCHES = 60
"""Random matches per variant played through the engine and the kernel side by side, from a seed drawn for each run
(``fresh_seed``): many runs cover more deals than one long one (``bench/differential.py`` plays 100,000)."""

VARIANTS = {
    "last-exchanger-leads": (WhistOptions(), 0),
    "left-of-last-exchanger-leads": (WhistOptions(lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER), 1),
}
"""CW-3's two readings with the kernel's number for each."""


@pytest.mark.parametrize("seed", [0, 1, 5, 2**32 - 1, 2**32, 2**63 - 1, 123_456_789_012_345])
def test_kernel_draws_what_pythons_random_draws(seed: int) -> None:
    kernel = kernel_or_skip(CORE)
    rng = random.Random(seed)
    assert kernel.random_doubles(seed, 1500) == [rng.random() for _ in range(1500)]  # past one 624-word twist


@pytest.mark.parametrize("base", [0, 7, 98_765, 2**63 - 1])
@pytest.mark.parametrize("path", [0, 1, 12, 0x5EED])
def test_kernel_derives_the_seeds_the_engine_derives(base: int, path: int) -> None:
    assert kernel_or_skip(CORE).derive_seed(base, path) == derive_seed(base, path)


@pytest.mark.long
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_legal_set_event_and_score_of_random_matches_agrees_with_the_engine(
    variant: str, fresh_seed: int
) -> None:
    """CW-1..CW-5 in the kernel: 60 random matches from the run's seed per variant, checked at every decision
    (``games/whist/differential.py``; ``bench/differential.py`` runs it on 100,000)."""
    kernel_or_skip(CORE)
    options, _ = VARIANTS[variant]
    steps = check_random_matches(options, seeds_of(fresh_seed, DIFFERENTIAL_MATCHES))
    assert steps > DIFFERENTIAL_MATCHES * 40  # every match played at least one whole hand through both


def test_the_differential_check_catches_a_kernel_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is not blind: a kernel whose batch gives one total wrong, or whose hand misplays one card, fails it."""
    kernel = kernel_or_skip(CORE)
    seeds = seeds_of(5, 3)
    honest = kernel.random_matches

    def one_point_off(match_seeds: list[int], target: int, rule: int) -> list[object]:
        played = honest(match_seeds, target, rule)
        hands, totals, winners, draw = played[-1]
        return [*played[:-1], (hands, (totals[0] + 1, totals[1], totals[2]), winners, draw)]

    monkeypatch.setattr(kernel, "random_matches", one_point_off)
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[-1]}: the batch's totals"):
        check_random_matches(WhistOptions(), seeds)
    monkeypatch.setattr(kernel, "random_matches", honest)
    real = kernel.WhistCore

    class Misplaying:
        """The kernel's hand, but the first trick always goes to the seat after its true winner."""

        def __init__(self, *args: object) -> None:
            self.inner = real(*args)

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        @property
        def leader(self) -> int:
            return int((self.inner.leader + 1) % 3) if sum(self.inner.tricks_won) == 1 else int(self.inner.leader)

    monkeypatch.setattr(kernel, "WhistCore", Misplaying)
    with pytest.raises(KernelMismatchError, match=r"the trick's winner|the first leader"):
        check_random_matches(WhistOptions(), seeds)


def test_an_illegal_card_is_refused_by_the_kernel_and_changes_nothing() -> None:
    """CW-1: the step interface checks legality itself (a mistake in a caller must not corrupt a search)."""
    kernel = kernel_or_skip(CORE)
    match = WhistMatch()
    match.deal(rng=random.Random(4))
    hand = match.hands[-1]
    core = kernel.WhistCore(tuple(hand.hands), hand.bid, hand.dealer, 0)
    for _ in range(3):
        core.decide(False)
    illegal = next(i for i in range(52) if not core.legal() >> i & 1)
    before = (core.hands, core.to_act, core.tricks_won)
    with pytest.raises(ValueError, match="not legal"):
        core.play(illegal)
    with pytest.raises(ValueError, match="exchange"):
        core.decide(True)
    assert (core.hands, core.to_act, core.tricks_won) == before


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_bulk_path_gives_the_engines_results_with_or_without_the_kernel(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pure-Python fallback (CLUBS_PURE_PYTHON=1, or no kernel built) plays the same matches."""
    options, _ = VARIANTS[variant]
    seeds = seeds_of(8, 60)
    info, _ = find_game("whist")
    default = random_matches(info, options, seeds)
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert random_matches(info, options, seeds) == default == [engine_random_match(info, options, s) for s in seeds]


def test_every_match_ends_at_the_target_and_the_totals_add_up() -> None:
    """CW-5 in the kernel's batch: a match ends at the first hand where a total reaches +-target; each hand adds
    13 tricks less 3 x 4 to the sum of the totals."""
    kernel = kernel_or_skip(CORE)
    for target in (1, 5, 11, 30):
        for hands, totals, winners, draw in kernel.random_matches(seeds_of(target, 300), target, 0):
            hit = [abs(t) >= target for t in totals]
            assert any(hit) and sum(totals) == hands
            assert draw == all(hit) and winners == (0 if draw else sum(1 << s for s in range(3) if hit[s]))


def _play_position(seed: int, cards_left: int, extra: int) -> WhistMatch:
    """A random match played at random to the first lead with at most ``cards_left`` cards a hand, then ``extra``
    cards more into that trick (0 to 2)."""
    rng = random.Random(seed)
    bot = RandomBot()
    match = WhistMatch()
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


SOLVER_POSITIONS = 60
"""Random positions from the run's seed (``fresh_seed``; each solved for both measures) on which the compiled solver
is compared with the Python one."""


@pytest.mark.long
def test_the_compiled_solver_finds_the_python_solvers_values_nodes_and_table(fresh_seed: int) -> None:
    """CW-1/CW-2 in ``solve.h``: the same value for every legal card, the same nodes visited and table entries kept,
    on positions from one card a hand to seven, with 0 to 2 cards of the trick already down."""
    kernel_or_skip(CORE)
    solved = 0
    for k in range(SOLVER_POSITIONS):
        match = _play_position(fresh_seed + k, 1 + k % 7, k % 3)
        if match.current is None:
            continue
        for measure in ("tricks", "fewest"):
            got = SOLVING.solvable(match, measure)
            assert got is not None
            python, compiled = SolveStats(), SolveStats()
            expected = solve(got.position, None, None, python)
            assert SOLVING.compiled_solve(got.position, None, compiled) == expected
            assert (compiled.nodes, compiled.entries) == (python.nodes, python.entries)
            solved += 1
    assert solved > SOLVER_POSITIONS  # most positions reached, each solved twice


WHOLE_HAND_NODES = 50_000
"""The most nodes a whole hand may take for the Python solver to be asked about it too: hands range from some 800 nodes
to over a million (a fraction of a second to minutes of pure Python), so the test takes the first hand from the run's
seed that the compiled solver finishes within this many."""


@pytest.mark.long
def test_a_whole_hand_solved_from_its_first_card_agrees_with_the_python_solver(fresh_seed: int) -> None:
    """A hand from the run's seed (``fresh_seed``; each run solves another one): the same values, nodes and table
    entries from the first lead to the last card, and a search that reached the last card."""
    kernel_or_skip(CORE)
    for k in range(50):
        match = _play_position(fresh_seed + k, 13, 0)
        got = SOLVING.solvable(match, "tricks")
        assert got is not None and match.current is not None
        compiled = SolveStats()
        values = SOLVING.compiled_solve(got.position, None, compiled)
        if compiled.nodes <= WHOLE_HAND_NODES:
            break
    else:
        pytest.fail(f"no hand from seed {fresh_seed} within {WHOLE_HAND_NODES} nodes in 50 tries")
    python = SolveStats()
    assert values == solve(got.position, None, None, python)
    assert (compiled.nodes, compiled.entries) == (python.nodes, python.entries)
    assert python.nodes >= sum(hand.bit_count() for hand in match.current.hands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("share", [0.0, 0.1, 0.5, 0.99])
def test_a_node_limit_stops_the_compiled_solver_where_it_stops_the_python_one(share: float) -> None:
    """pimc falls back to play-outs past its node limit: both solvers must give up at the same node."""
    kernel_or_skip(CORE)
    match = _play_position(7, 9, 1)
    got = SOLVING.solvable(match, "tricks")
    assert got is not None
    whole = SolveStats()
    solve(got.position, None, None, whole)
    limit = max(1, int(whole.nodes * share))
    python, compiled = SolveStats(), SolveStats()
    with pytest.raises(NodeLimitError):
        solve(got.position, None, limit, python)
    with pytest.raises(NodeLimitError, match=f"past {limit} nodes"):
        SOLVING.compiled_solve(got.position, limit, compiled)
    assert compiled.nodes == python.nodes == limit + 1


def test_card_values_are_the_same_with_the_compiled_solver_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    match = _play_position(3, 5, 2)
    with_core = {m: card_values(match, m) for m in ("tricks", "fewest")}
    monkeypatch.setenv("CLUBS_PURE_PYTHON", "1")
    assert SOLVING.compiled_solve(SOLVING.solvable(match, "tricks").position, None, None) is None  # type: ignore[union-attr]
    assert {m: card_values(match, m) for m in ("tricks", "fewest")} == with_core


HEURISTIC_MATCHES = 10
"""Whole matches of heuristic bots from the run's seed (``fresh_seed``) in which every card-play decision is asked
of the C bot too."""


@pytest.mark.long
def test_the_compiled_heuristic_picks_the_python_heuristics_card_at_every_decision(fresh_seed: int) -> None:
    """``heuristic.h`` against ``bot.py``: the same card at every decision of whole matches (CW-1 to CW-5 as the bot
    reads them: its goal, the race to a target, what the play proves about the other hands)."""
    kernel_or_skip(CORE)
    decisions = 0
    for k in range(HEURISTIC_MATCHES):
        rng = random.Random(fresh_seed + k)
        match = WhistMatch()
        bots = [make_bot("heuristic", "whist") for _ in range(3)]
        while not match.is_over:
            match.deal(rng=rng)
            while (seat := match.to_act) is not None:
                action = bots[seat].choose(match.view(seat), match.legal_actions(), rng)
                if match.phase is Phase.PLAY:
                    table = heuristic_table(match)
                    assert table is not None and card_at(table.choice()) == action
                    decisions += 1
                match.apply(action)
    assert decisions > HEURISTIC_MATCHES * 100  # some 170 card decisions a match


@pytest.mark.parametrize("seed", range(40))
def test_a_compiled_play_out_ends_the_hand_as_the_python_bots_do(seed: int) -> None:
    """The search bots' play-outs: from a random point of a random hand, the same cards, hand scores and totals."""
    kernel_or_skip(CORE)
    rng = random.Random(seed)
    match = WhistMatch(WhistOptions(target=3 + seed % 9))
    match.deal(rng=rng)
    for _ in range(rng.randrange(3, 3 + 39)):
        match.apply(RandomBot().choose(None, match.legal_actions(), rng))
    assert_play_outs_agree(match, seed)


@pytest.mark.parametrize("seed", range(12))
def test_a_compiled_play_out_from_the_exchange_draws_and_ends_as_the_python_bots_do(seed: int) -> None:
    """From the exchange round (CW-4: none, one or two decisions made) the kernel's bots draw their bid hands from the
    play-out's generator as bot.py's do: the same decisions, cards, scores and totals, and the generator left in the
    same state; on the match and on a determinized world."""
    kernel_or_skip(CORE)
    rng = random.Random(seed)
    match = WhistMatch(WhistOptions(target=12 + seed % 5))  # room for a second hand (CW-5)
    if seed % 2:
        match.deal(rng=rng)
        Rollouts("random").finish_hand(match, rng)
    if match.is_over:
        pytest.fail("the match ended before the hand to play out")
    match.deal(rng=rng)
    for _ in range(seed % 3):
        match.apply(Decision.EXCHANGE if rng.random() < 0.4 else Decision.KEEP)
    seat = match.to_act
    assert seat is not None
    for start in (match, match.determinize(seat, random.Random(seed))):
        assert_play_outs_agree(start, 50 + seed)


def test_the_kernel_leaves_the_exchange_and_other_rollout_bots_to_the_engine() -> None:
    """In the exchange round the kernel stands in only for a ``random.Random`` (it draws as that does): with no
    generator, or another kind, the engine plays, the match and the generator untouched; so for another bot."""

    class OtherRandom(random.Random):
        pass

    other = OtherRandom(3)
    state = other.getstate()
    match = WhistMatch()
    match.deal(rng=random.Random(2))
    assert not compiled_finish(match, "heuristic")  # CW-4: the exchange samples bid hands from the play-out's rng
    assert not compiled_finish(match, "heuristic", other) and other.getstate() == state
    assert not match.hands[-1].action_log()
    for _ in range(3):
        match.apply(Decision.KEEP)
    assert not compiled_finish(match, "random")
    assert match.hands[-1].action_log() == [Decision.KEEP] * 3


@pytest.mark.long
def test_pimc_decides_the_same_with_the_compiled_core_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled solver and play-outs change how soon a search bot decides, never what it decides."""
    rng = random.Random(5)
    match = WhistMatch()
    match.deal(rng=rng)
    for _ in range(3):
        match.apply(Decision.EXCHANGE if rng.random() < 0.3 else Decision.KEEP)
    assert_search_decides_the_same_with_the_core_and_without(match, "pimc(samples=6,tricks=4)", 12, monkeypatch)


@pytest.mark.long
def test_the_compiled_exchange_decision_is_the_python_heuristics_with_the_same_draws() -> None:
    """CW-4 as the heuristic bot weighs it: the same keep or exchange from the same generator state, and the
    generator left in the same state (the bid hands sampled as ``random.Random.sample`` samples them)."""
    kernel = kernel_or_skip(CORE)
    bot = make_bot("heuristic", "whist")
    decisions = 0
    for seed in range(40):
        rng = random.Random(seed)
        match = WhistMatch(WhistOptions(target=5))
        while not match.is_over:
            match.deal(rng=rng)
            while (seat := match.to_act) is not None:
                view = match.view(seat)
                if match.phase is not Phase.PLAY:
                    before = rng.getstate()
                    someone = any(exchanged for _, exchanged in view.decisions)
                    hand, total = int(view.hand), view.totals[seat]
                    take, after = kernel.exchange_choice(hand, seat, total, view.target, someone, before)
                    action = bot.choose(view, match.legal_actions(), rng)
                    assert (take, after) == (action is Decision.EXCHANGE, rng.getstate())
                    decisions += 1
                else:
                    action = bot.choose(view, match.legal_actions(), rng)
                match.apply(action)
    assert decisions > 200  # three decisions a hand, two or three hands a match (some 285 in all)


@pytest.mark.long
@pytest.mark.parametrize(
    ("bots", "matches"), [(("heuristic", "random", "random"), 8), (("heuristic", "heuristic", "heuristic"), 4)]
)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_matches_of_heuristic_bots_in_the_kernel_are_the_engines(
    bots: tuple[str, str, str], matches: int, variant: str, fresh_seed: int
) -> None:
    """The bulk path with the heuristic bot in some seats: every match the engine's, hand for hand and draw for
    draw (the random bot's and the heuristic's exchange draws come from one generator), on matches from the run's
    seed."""
    kernel_or_skip(CORE)
    options, _ = VARIANTS[variant]
    seeds = seeds_of(fresh_seed, matches)
    played = compiled_matches(options, bots, seeds)
    expected = []
    for seed in seeds:
        match = play_match(WhistMatch(options), [make_bot(b, "whist") for b in bots], seed)
        expected.append((len(match.hand_scores), tuple(match.totals), tuple(match.winners), bool(match.draw)))
    assert played is not None and [tuple(r) for r in played] == expected
