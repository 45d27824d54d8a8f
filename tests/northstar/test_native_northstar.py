"""The compiled North Star kernel against the engine: the same deals and kept pack, legal lists, events and scores.

The kernel (``src/clubsuite/games/northstar/core.h``) restates NS-1 to NS-11; these tests hold it to the engine by
playing 30 random matches from the run's seed per variant through both, step by step, by comparing whole matches
played by the batch, and by listing the plays of random positions (wild 15s and Crazy CLUBS included) through both.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from clubsuite.cards import iter_bits
from clubsuite.engine import resolve
from clubsuite.games.northstar.bulk import CORE, compiled_matches, kernel_options
from clubsuite.games.northstar.combos import DECK_MASK, FIFTEENS, VALUE_MASKS, generate
from clubsuite.games.northstar.differential import action_codes, check_random_matches
from clubsuite.games.northstar.options import NorthstarOptions, Teams
from clubsuite.native import PURE_ENV, KernelMismatchError
from clubsuite.sim.bulk import engine_random_match, random_matches, seeds_of
from native_helpers import kernel_or_skip

DIFFERENTIAL_MATCHES = 30
"""Random matches per variant played through the engine and the kernel side by side, from a seed drawn for each run
(``fresh_seed``): many runs cover more deals than one long one (``bench/differential.py`` plays 100,000)."""

VARIANTS = (
    "northstar(players=3)",
    "northstar-duel",
    "northstar(players=6)",
    "northstar-2013",
    "northstar-double",
    "northstar-teams",
    "northstar-wild",
    "northstar-crazy",
    "northstar(players=6,teams=2x3,double_or_nothing=true,wild_fifteens=true,crazy=true,target=80)",
)
"""Every variant the kernel plays: the basic game with 2, 3 (and 4, the variants' count) and 6 players, each of the
rulebook's variants (NS-6's reshuffle, NS-8, NS-10, NS-9, NS-11), and six players in teams of three with every
option at once (to a lower target than the rulebook's 150, to keep the test short: the kernel is handed the goal)."""

DECK = tuple(iter_bits(DECK_MASK))


def _options(spec: str) -> NorthstarOptions:
    _, options = resolve(spec)
    assert isinstance(options, NorthstarOptions)
    return options


def _hand(rng: random.Random, size: int, fifteens: int = 0) -> int:
    """A random hand of ``size`` cards holding at least ``fifteens`` 15s (wild ones where the option is on)."""
    chosen = rng.sample([c for c in DECK if FIFTEENS >> c & 1], min(fifteens, size))
    chosen += rng.sample([c for c in DECK if c not in chosen], size - len(chosen))
    return sum(1 << c for c in chosen)


@pytest.mark.parametrize(("wild", "crazy"), [(False, False), (True, False), (False, True), (True, True)])
def test_the_kernel_lists_every_play_in_the_engines_order(wild: bool, crazy: bool) -> None:
    """NS-3, NS-9, NS-11: the random bot picks a play by its place in the list, so the kernel must list the same
    plays in the same order, leading and following every kind of play (hands rich in 15s included)."""
    core = kernel_or_skip(CORE)
    rng = random.Random(int(wild) * 2 + int(crazy))
    compared = 0
    for _ in range(400):
        hand = _hand(rng, rng.randint(1, 10), rng.choice((0, 0, 1, 2, 3, 4)))
        assert core.plays(hand, None, wild, crazy) == action_codes(generate(hand, None, wild, crazy))
        other = _hand(rng, 10, rng.choice((0, 2)))
        leads = generate(other & ~hand, None, wild, crazy)
        for prev in rng.sample(leads, min(len(leads), 8)):
            expected = action_codes(generate(hand, prev, wild, crazy))
            assert core.plays(hand, action_codes([prev])[0], wild, crazy) == expected
            compared += 1
    assert compared > 2000


def test_the_longest_legal_list_fits_the_kernel() -> None:
    """NS-9: four wild 15s and six consecutive values lead some 2,400 plays, the longest list a search found; the
    kernel lists them all, in the engine's order."""
    core = kernel_or_skip(CORE)
    hand = FIFTEENS | sum(VALUE_MASKS[v] & -VALUE_MASKS[v] for v in range(5, 11))  # a club of each of 5..10
    expected = action_codes(generate(hand, None, True, False))
    assert len(expected) > 2000
    assert core.plays(hand, None, True, False) == expected


@pytest.mark.long
@pytest.mark.parametrize("spec", VARIANTS)
def test_every_deal_legal_list_event_and_score_of_random_matches_agrees_with_the_engine(
    spec: str, fresh_seed: int
) -> None:
    """NS-1 to NS-11 in the kernel: 30 random matches from the run's seed per variant, checked at every decision
    (``games/northstar/differential.py``): the deal and the kept pack, the seat to act, every legal action in order,
    what each action did, the scores, the totals and the winners, then the batch's outcome of each match."""
    kernel_or_skip(CORE)
    steps = check_random_matches(_options(spec), seeds_of(fresh_seed, DIFFERENTIAL_MATCHES))
    assert steps > DIFFERENTIAL_MATCHES * 100  # every match played whole rounds through both


class _Differing:
    """The kernel's step-by-step match with one thing wrong, chosen by ``fault``."""

    def __init__(self, real: type, fault: str, *args: object) -> None:
        self.inner = real(*args)
        self.fault = fault

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def legal(self) -> list[int]:
        listed: list[int] = self.inner.legal()
        return listed[::-1] if self.fault == "order" else listed

    def apply(self, index: int) -> list[tuple[object, ...]]:
        did: list[tuple[object, ...]] = self.inner.apply(index)
        if self.fault == "trick":  # every trick to the seat after its winner
            return [(e[0], (e[1] + 1) % 4, *e[2:]) if e[0] == "trick" else e for e in did]  # type: ignore[operator]
        return did


@pytest.mark.parametrize(
    ("fault", "what"),
    [("order", "to act with"), ("trick", r"did \[.*'trick'")],
)
def test_the_differential_check_catches_a_kernel_that_differs(
    fault: str, what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is not blind: a kernel that lists the plays in another order, or gives a trick to another seat,
    fails it at that decision."""
    kernel = kernel_or_skip(CORE)
    seeds = seeds_of(5, 3)
    real = kernel.NorthstarCore
    monkeypatch.setattr(kernel, "NorthstarCore", lambda *args: _Differing(real, fault, *args))
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[0]}: .*{what}"):
        check_random_matches(NorthstarOptions(), seeds)


def test_the_differential_check_catches_a_batch_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose last match ends one point off fails the check at that match."""
    kernel = kernel_or_skip(CORE)
    seeds = seeds_of(5, 3)
    honest = kernel.random_matches

    def one_point_off(match_seeds: list[int], options: tuple[object, ...]) -> list[object]:
        played = honest(match_seeds, options)
        rounds, totals, winners, draw = played[-1]
        return [*played[:-1], (rounds, (totals[0] + 1, *totals[1:]), winners, draw)]

    monkeypatch.setattr(kernel, "random_matches", one_point_off)
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[-1]}: the batch's outcome"):
        check_random_matches(NorthstarOptions(), seeds)


def test_an_action_out_of_the_list_is_refused_and_changes_nothing() -> None:
    """The step interface checks what it is handed (a mistake in a caller must not corrupt the kernel)."""
    kernel = kernel_or_skip(CORE)
    core = kernel.NorthstarCore(kernel_options(NorthstarOptions()), 9)
    core.deal()
    before = (core.hands, core.to_act, core.legal())
    for index in (-1, len(before[2])):
        with pytest.raises(ValueError, match="legal actions"):
            core.apply(index)
    with pytest.raises(ValueError, match="no deal now"):
        core.deal()
    assert (core.hands, core.to_act, core.legal()) == before


@pytest.mark.parametrize(
    ("position", "value", "why"),
    [(0, 7, "players"), (1, 3, "n_teams"), (2, 0, "n_teams"), (7, 0, "goal"), (8, (1, 2), "club_points")],
)
def test_the_kernel_refuses_options_it_cannot_play(position: int, value: object, why: str) -> None:
    kernel = kernel_or_skip(CORE)
    options = list(kernel_options(NorthstarOptions(teams=Teams.TWO_BY_TWO)))
    options[position] = value
    with pytest.raises(ValueError, match=why):
        kernel.NorthstarCore(tuple(options), 1)


@pytest.mark.parametrize(
    ("hand", "prev"),
    [
        (1 << 63, None),  # a bit below the North Star cards
        (1 << 124, None),  # a bit above them
        (FIFTEENS | VALUE_MASKS[1] | VALUE_MASKS[2] | VALUE_MASKS[3], None),  # 16 cards: a hand holds at most 10
        (VALUE_MASKS[1], 1),  # a play of no cards (a single standing for 1)
        (VALUE_MASKS[1], VALUE_MASKS[2] + 3 * 16 + 2),  # a play of an unknown kind
        (VALUE_MASKS[1], VALUE_MASKS[2] + 16 + 0),  # a play of top value 0
    ],
)
def test_the_kernel_refuses_a_hand_or_play_it_cannot_list(hand: int, prev: int | None) -> None:
    """The C trusts what it is handed: the wrapper refuses a bad mask or play, naming it, before it gets there."""
    kernel = kernel_or_skip(CORE)
    with pytest.raises(ValueError, match=r"hand|prev"):
        kernel.plays(hand, prev, True, False)


BULK_SPECS = (
    "northstar",
    "northstar-duel",
    "northstar(players=5,leftover=reshuffle,target=80)",
    "northstar(players=6,teams=3x2,club_points=1/1/1/1/1/1/1/1/1/1/1/1/1/1/5)",
    "northstar(wild_fifteens=true,crazy=true,double_or_nothing=true,teams=2x2)",
)


@pytest.mark.parametrize("spec", BULK_SPECS)
def test_compiled_matches_are_the_engines_matches(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk part plays each match as :func:`clubsuite.sim.bulk.engine_random_match` plays it: the same rounds,
    totals and winners (NS-7, NS-10), whatever the options (the club points and target included)."""
    kernel_or_skip(CORE)
    monkeypatch.delenv(PURE_ENV, raising=False)  # the kernel itself, even in a run with the kernels turned off
    info, options = resolve(spec)
    seeds = [*seeds_of(17, 30), 0, 2**64 - 1]
    compiled = compiled_matches(options, ["random"] * info.seat_count(options), seeds)
    assert compiled == [engine_random_match(info, options, seed) for seed in seeds]


def test_compiled_matches_leave_other_lineups_and_seeds_to_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the random and the heuristic bot, seeds of 64 bits and North Star's options are played in the kernel; for
    anything else the bulk part says None and the engine plays."""
    kernel_or_skip(CORE)
    monkeypatch.delenv(PURE_ENV, raising=False)
    options = NorthstarOptions(players=3)
    random3 = ["random"] * 3
    assert compiled_matches(options, random3, [1]) is not None
    assert compiled_matches(options, ["random", "heuristic", "random"], [1]) is not None
    assert compiled_matches(options, ["random", "pimc", "random"], [1]) is None
    assert compiled_matches(options, ["random", "normal", "random"], [1]) is None  # a level: the engine's
    assert compiled_matches(options, ["random"] * 4, [1]) is None
    assert compiled_matches(options, random3, [2**64]) is None
    assert compiled_matches(options, random3, [-1]) is None
    assert compiled_matches(object(), random3, [1]) is None
    monkeypatch.setenv(PURE_ENV, "1")
    assert compiled_matches(options, random3, [1]) is None


@pytest.mark.parametrize("spec", ["northstar", "northstar-2013"])
def test_the_bulk_path_gives_the_engines_results_with_or_without_the_kernel(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pure-Python fallback (CLUBS_PURE_PYTHON=1, or no kernel built) plays the same matches (NS-6: kept or
    reshuffled pack)."""
    info, options = resolve(spec)
    seeds = seeds_of(8, 40)
    default = random_matches(info, options, seeds)
    monkeypatch.setenv(PURE_ENV, "1")
    assert random_matches(info, options, seeds) == default == [engine_random_match(info, options, s) for s in seeds]


CLUBS = Path(sys.executable).parent / "clubs"

SIMULATED_MATCHES = 12
"""Matches ``clubs simulate`` plays with the compiled core and without, from the run's seed (``fresh_seed``): many
runs cover more matches than one long one."""


@pytest.mark.parametrize(
    ("spec", "bots"),
    [
        ("northstar(players=3)", "random,random,random"),
        ("northstar-wild", "random,random,random,random"),
        ("northstar(players=3)", "heuristic,random,heuristic"),
    ],
)
def test_clubs_simulate_gives_the_same_result_with_the_compiled_core_and_without(
    spec: str, bots: str, monkeypatch: pytest.MonkeyPatch, fresh_seed: int
) -> None:
    """Where the compiled core plays the matches (random and heuristic bots) ``clubs simulate`` prints the engine's
    result, exactly: :data:`SIMULATED_MATCHES` matches from the run's seed (many runs cover more matches than one
    long one)."""
    kernel_or_skip(CORE)
    monkeypatch.delenv(PURE_ENV, raising=False)
    assert compiled_matches(_options(spec), bots.split(","), [1]) is not None  # the kernel does play this lineup

    matches = str(SIMULATED_MATCHES)
    args = [str(CLUBS), "simulate", spec, "--bots", bots, "--matches", matches, "--seed", str(fresh_seed), "--json"]

    def simulate(pure: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            args,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
            env={**os.environ, PURE_ENV: pure},
        )

    core, pure = simulate("0"), simulate("1")
    assert core.returncode == 0 and pure.returncode == 0, core.stderr + pure.stderr
    assert json.loads(core.stdout) == json.loads(pure.stdout)
    assert json.loads(core.stdout)["hands"] > SIMULATED_MATCHES


@pytest.mark.parametrize("spec", ["northstar(players=3)", "northstar-wild", "northstar(players=6,teams=2x3)"])
def test_the_kernel_counts_the_decisions_the_engine_makes(spec: str) -> None:
    """``random_decisions`` (the benchmarks' count of actions) is the number of actions of each random match, calls
    of double or nothing and passes included."""
    from clubsuite.bots import RandomBot
    from clubsuite.runner import play_match

    kernel = kernel_or_skip(CORE)
    info, options = resolve(spec)
    assert isinstance(options, NorthstarOptions)
    seeds = seeds_of(91, 8)
    made = []
    for seed in seeds:
        match = info.new_match(options, 0)
        calls = [0]

        def seen(_: object, events: object, calls: list[int] = calls) -> None:
            calls[0] += 1

        play_match(match, [RandomBot()] * options.players, seed, on_events=seen)
        made.append(calls[0] - len(match.hands))  # every call but the deals is an action
    assert kernel.random_decisions(seeds, kernel_options(options)) == made
