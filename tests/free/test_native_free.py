"""The compiled Free Clubs kernel against the engine: the same deals, auctions, handicaps, passes, legal sets, events,
scores and match ends.

The kernel (``src/clubsuite/games/free/core.h``) restates FC-1 to FC-9 under the default table rules; these tests
hold it to the engine by playing 40 random matches from the run's seed through both, step by step, for each
reading of FC-8's no-spades bonus, by scripted hands that reach what random play almost never does, and by
comparing whole matches played by the batch with the engine's. Table mode (FC-10) and every bot but the random one
stay with the engine.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from clubsuite.cards import STANDARD_WITH_JOKERS
from clubsuite.engine import find_game
from clubsuite.games.free import FreeDeal, FreeMatch
from clubsuite.games.free.bulk import CORE, compiled_matches
from clubsuite.games.free.differential import PASS, action_mask, check_random_matches, check_scripted_hand
from clubsuite.games.free.hand import CONTRACT_PENALTY, NO_SPADES_BONUS, TEAM_CONTRACT
from clubsuite.games.free.options import FreeOptions
from clubsuite.native import PURE_ENV, KernelMismatchError
from clubsuite.runner import BulkResult
from clubsuite.sim.bulk import engine_random_match, random_matches, seeds_of
from native_helpers import kernel_or_skip

DIFFERENTIAL_MATCHES = 40
"""Random matches per setting of the options played through the engine and the kernel side by side, from a seed
drawn for each run (``fresh_seed``): many runs cover more deals than one long one (``bench/differential.py`` plays
100,000)."""

VARIANTS = {
    "default": FreeOptions(),
    "no-spades-needs-a-trick": FreeOptions(no_spades_needs_a_trick=True),
}
"""The settings of the options the kernel plays that change a rule (FC-8's bonus); the target is a number it takes."""

CLUBS = Path(sys.executable).parent / "clubs"


@pytest.fixture
def kernels_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels turned on whatever the environment says (the game's tests also run with CLUBS_PURE_PYTHON=1)."""
    monkeypatch.delenv(PURE_ENV, raising=False)


@pytest.mark.long
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_legal_set_event_and_score_of_random_matches_agrees_with_the_engine(
    variant: str, fresh_seed: int
) -> None:
    """FC-1 to FC-9 in the kernel: 40 random matches from the run's seed per reading of FC-8, checked at every decision
    (``games/free/differential.py``): the stage, the seat to act, the hands and the legal actions, the auction's
    winner and partner, the first leader, each trick's winner, the hand's tricks and score, the match's totals and
    winner."""
    kernel_or_skip(CORE)
    steps = check_random_matches(VARIANTS[variant], seeds_of(fresh_seed, DIFFERENTIAL_MATCHES))
    assert steps > DIFFERENTIAL_MATCHES * 40  # every match played at least one whole hand through both


def _cards(text: str) -> int:
    return int(STANDARD_WITH_JOKERS.parse_set(text))


EMPTIED_DEAL = FreeDeal(
    (
        STANDARD_WITH_JOKERS.parse_set("10S 10C JC QC KH KC"),
        STANDARD_WITH_JOKERS.parse_set("10H 10D JH QS KS JK1"),
        STANDARD_WITH_JOKERS.parse_set("JS JD QH QD KD JK2"),
    ),
    (
        STANDARD_WITH_JOKERS.parse_set("2S 2C 3C 4C 5C 6C 7C 2H 3H 4H"),
        STANDARD_WITH_JOKERS.parse_set("8C 9C AC 2D 3D 4D 5D 6D 7D 8D"),
        STANDARD_WITH_JOKERS.parse_set("9D AD 5H 6H 7H 8H 9H AH 3S 4S"),
    ),
    STANDARD_WITH_JOKERS.parse_set("5S 6S 7S 8S 9S AS"),
)
"""Seat 0 holds one spade, six clubs and three hearts, and the auction cards to bid 10S, 10C, JC, QC, KH and KC."""

EMPTYING_AUCTION = ("10S", "10H", "pass", "10C", "JH", "pass", "JC", "QS", "pass", "QC", "KS", "pass", "KH")
EMPTYING_AUCTION += ("pass", "KD", "KC", "JK1")
"""Seat 0 bids all six auction cards, seat 1 ends the auction with a Joker after seat 0's King (FC-3, FC-4): seat 0
is the partner, and its handicaps (the spade and a club by its Tens' choice, the top club by the Jack, the top club
passed on by the Queen, the three top hearts and the three top clubs by the Kings, FC-5) take all ten of its cards."""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_seat_emptied_by_its_handicaps_plays_out_as_in_the_engine(variant: str) -> None:
    """FC-5 and FC-7, which random matches almost never reach: a Joker partner left with no card passes nothing but
    receives one (FC-2), plays it to the first trick and no other, so later tricks have two cards; when that card
    wins, the next seat with cards leads (FC-6); a partner that took no trick gets the no-spades bonus only by
    default (FC-8). Checked at every decision through both, with random play after the scripted auction."""
    kernel_or_skip(CORE)
    options = VARIANTS[variant]
    first_trick_won = set()
    for seed in range(40):
        hand = check_scripted_hand(options, EMPTIED_DEAL, EMPTYING_AUCTION, random.Random(seed), label=seed)
        assert (hand.winner, hand.partner) == (1, 0)
        assert hand.pass_order == [2, 1]  # FC-2: from the winner's left; seat 0 has nothing to pass
        (first, won), *rest = hand.tricks
        assert len(first) == 3 and rest and all(len(p) == 2 and 0 not in (s for s, _ in p) for p, _ in rest)
        first_trick_won.add(won == 0)
        assert hand.scores is not None
        if hand.tricks_won[0] == 0:
            team_tricks = hand.tricks_won[0] + hand.tricks_won[1]
            penalty = CONTRACT_PENALTY if team_tricks < TEAM_CONTRACT else 0
            assert hand.scores[0] == penalty + (0 if options.no_spades_needs_a_trick else NO_SPADES_BONUS)
    assert first_trick_won == {True, False}  # both ways of leading the second trick were played


def test_the_differential_check_catches_a_kernel_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is not blind: a batch that names another winner, a hand that gives a trick to the wrong seat, and a
    hand that offers one action too many in the auction each fail it."""
    kernel = kernel_or_skip(CORE)
    seeds = seeds_of(5, 3)
    honest = kernel.random_matches

    def other_winner(match_seeds: list[int], target: int, needs_trick: bool) -> list[object]:
        played = honest(match_seeds, target, needs_trick)
        hands, totals, winners, draw = played[1]
        return [played[0], (hands, totals, 7 & ~winners, draw), *played[2:]]

    monkeypatch.setattr(kernel, "random_matches", other_winner)
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[1]}: the batch's winners"):
        check_random_matches(FreeOptions(), seeds)
    monkeypatch.setattr(kernel, "random_matches", honest)
    real = kernel.FreeCore

    class Misplaying:
        """The kernel's hand, but the second trick goes to the seat after its true winner."""

        def __init__(self, *args: object) -> None:
            self.inner = real(*args)

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        @property
        def last_winner(self) -> int:
            won = int(self.inner.last_winner)
            return (won + 1) % 3 if sum(self.inner.tricks_won) == 2 else won

    monkeypatch.setattr(kernel, "FreeCore", Misplaying)
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[0]}: the trick's winner"):
        check_random_matches(FreeOptions(), seeds)

    class PassingEarly(Misplaying):
        """The kernel's hand, but the pass is offered before the opening bid too (FC-3 forbids it)."""

        @property
        def last_winner(self) -> int:
            return int(self.inner.last_winner)

        def legal(self) -> int:
            return int(self.inner.legal()) | (1 << PASS if self.inner.stage == 0 else 0)

    monkeypatch.setattr(kernel, "FreeCore", PassingEarly)
    with pytest.raises(KernelMismatchError, match=f"match seed {seeds[0]}: the legal actions at decision 0"):
        check_random_matches(FreeOptions(), seeds)


def test_the_kernel_lists_the_auctions_actions_in_the_engines_order() -> None:
    """FC-3: the random bot picks the k-th legal action, so the bids come in card order and the pass last in both."""
    kernel_or_skip(CORE)
    match = FreeMatch()
    match.deal(deal=EMPTIED_DEAL)
    match.apply("10S")
    legal = match.legal_actions()
    assert isinstance(legal, tuple) and [str(a) for a in legal] == ["10D", "10H", "JH", "pass"]
    assert action_mask(legal) == _cards("10D 10H JH") | 1 << PASS


def test_an_illegal_action_is_refused_by_the_kernel_and_changes_nothing() -> None:
    """FC-3 and FC-1: the step interface checks legality itself (the C behind it trusts its caller)."""
    kernel = kernel_or_skip(CORE)
    deal = EMPTIED_DEAL
    core = kernel.FreeCore(deal.auction, deal.primary, deal.chest, 0, False)
    before = (core.hands, core.to_act, core.stage, core.legal())
    for action in (PASS, 8, 99, -1):  # no pass before the opening; 10C is not the opening bid; no such action
        with pytest.raises(ValueError, match="not legal"):
            core.step(action)
    assert (core.hands, core.to_act, core.stage, core.legal()) == before


@pytest.mark.parametrize(
    "bad",
    [
        "a primary card among the auction cards",
        "a card dealt twice",
        "five auction cards",
        "a dealer out of the seats",
    ],
)
def test_the_kernel_refuses_a_deal_it_cannot_hold(bad: str) -> None:
    """The C trusts its arguments: the wrapper checks the deal as :class:`FreeDeal` does, and the dealer."""
    kernel = kernel_or_skip(CORE)
    auction = [int(h) for h in EMPTIED_DEAL.auction]
    primary = [int(h) for h in EMPTIED_DEAL.primary]
    chest, dealer = int(EMPTIED_DEAL.chest), 0
    if bad == "a primary card among the auction cards":
        auction[0] = auction[0] & ~_cards("KC") | _cards("9C")
    elif bad == "a card dealt twice":
        chest = chest & ~_cards("AS") | _cards("2S")
    elif bad == "five auction cards":
        auction[2] &= ~_cards("JK2")
    else:
        dealer = 3
    with pytest.raises(ValueError):
        kernel.FreeCore(auction, primary, chest, dealer, False)


@pytest.mark.parametrize("target", [0, -5, 100001])
def test_the_batch_refuses_a_target_the_options_refuse(target: int) -> None:
    with pytest.raises(ValueError, match="target"):
        kernel_or_skip(CORE).random_matches([1], target, False)


def _as_results(options: FreeOptions, seeds: list[int]) -> list[BulkResult]:
    info, _ = find_game("free")
    return [engine_random_match(info, options, seed) for seed in seeds]


@pytest.mark.parametrize("target", [1, 60, 250, 700])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.usefixtures("kernels_on")
def test_compiled_matches_are_the_engines_matches(variant: str, target: int) -> None:
    """The bulk part with random bots: every match the engine's, hands, totals and winner (FC-9 at any target)."""
    kernel_or_skip(CORE)
    options = FreeOptions(no_spades_needs_a_trick=VARIANTS[variant].no_spades_needs_a_trick, target=target)
    seeds = seeds_of(target, 40)
    played = compiled_matches(options, ["random", " random", "random "], seeds)
    assert played == _as_results(options, seeds)


def test_every_batch_match_ends_as_fc9_says() -> None:
    """FC-9 in the kernel's batch: one winner, the only seat with the highest total, which is at the target or more;
    never a draw."""
    kernel = kernel_or_skip(CORE)
    for target in (1, 40, 250, 900):
        for _hands, totals, winners, draw in kernel.random_matches(seeds_of(target, 300), target, False):
            top = max(totals)
            assert top >= target and not draw
            assert winners == sum(1 << s for s in range(3) if totals[s] == top) and winners.bit_count() == 1


@pytest.mark.parametrize(
    ("options", "bots", "seeds"),
    [
        (FreeOptions(misplays=True), ["random"] * 3, [1, 2]),  # FC-10's table mode is the engine's
        (FreeOptions(), ["easy", "random", "random"], [1, 2]),  # a bot the kernel does not know
        (FreeOptions(), ["random", "random"], [1, 2]),
        (FreeOptions(), ["random"] * 3, [-1]),
        (FreeOptions(), ["random"] * 3, [1 << 64]),
        (None, ["random"] * 3, [1, 2]),
    ],
)
@pytest.mark.usefixtures("kernels_on")
def test_compiled_matches_leave_what_the_kernel_does_not_play_to_the_engine(
    options: FreeOptions | None, bots: list[str], seeds: list[int]
) -> None:
    kernel_or_skip(CORE)
    assert compiled_matches(options, bots, seeds) is None


def test_table_mode_with_random_bots_is_played_by_the_engine() -> None:
    """FC-10: the simulation's bulk path falls back to the engine for table mode, with the engine's results."""
    options = FreeOptions(misplays=True, target=100)
    seeds = seeds_of(3, 10)
    info, _ = find_game("free")
    assert random_matches(info, options, seeds) == _as_results(options, seeds)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.usefixtures("kernels_on")
def test_the_bulk_path_gives_the_engines_results_with_or_without_the_kernel(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pure-Python fallback (CLUBS_PURE_PYTHON=1, or no kernel built) plays the same matches."""
    options = VARIANTS[variant]
    seeds = seeds_of(8, 60)
    info, _ = find_game("free")
    default = random_matches(info, options, seeds)
    monkeypatch.setenv(PURE_ENV, "1")
    assert compiled_matches(options, ["random"] * 3, seeds) is None
    assert random_matches(info, options, seeds) == default == _as_results(options, seeds)


def _simulate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLUBS), "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    ("spec", "bots", "matches"),
    [
        ("free", "random,random,random", 30),
        ("free(no_spades_needs_a_trick=true,target=300)", "random,random,random", 30),
        ("free", "heuristic,random,heuristic", 6),
    ],
)
def test_clubs_simulate_gives_the_same_result_with_the_compiled_core_and_without(
    spec: str, bots: str, matches: int, fresh_seed: int
) -> None:
    """Where the kernel plays the matches (random and heuristic bots) ``clubs simulate`` reports the engine's: the
    matches from the run's seed (``fresh_seed``), so that many runs cover more matches than one long one."""
    kernel_or_skip(CORE)
    args = (spec, "--bots", bots, "--matches", str(matches), "--seed", str(fresh_seed), "--json")
    core, pure = _simulate(*args, env={PURE_ENV: "0"}), _simulate(*args, env={PURE_ENV: "1"})
    assert core.returncode == 0 and pure.returncode == 0, core.stderr + pure.stderr
    assert json.loads(core.stdout) == json.loads(pure.stdout)
    assert json.loads(core.stdout)["hands"] > matches


def test_the_kernel_counts_the_decisions_the_engine_makes() -> None:
    """``random_decisions`` (the benchmarks' count of actions) is the number of actions of each random match."""
    from clubsuite.bots import RandomBot
    from clubsuite.runner import play_match

    kernel = kernel_or_skip(CORE)
    options = FreeOptions(target=120)
    seeds = seeds_of(77, 12)
    made = []
    for seed in seeds:
        match = FreeMatch(options)
        actions = [0]

        def seen(_: object, events: object, actions: list[int] = actions) -> None:
            actions[0] += 1

        play_match(match, [RandomBot()] * 3, seed, on_events=seen)
        made.append(actions[0] - len(match.hands))  # every call but the deals is an action
    assert kernel.random_decisions(seeds, options.target, False) == made
