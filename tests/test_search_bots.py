"""The search bots (``pimc``, ``ismcts``) and the levels: legal play in every game, the same decision for the same
seed and budget, decisions that depend only on what the seat may see, and the bot spec syntax with its errors."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

from cli_helpers import clubs_in_process, seated
from clubsuite.bots import make_bot, searching
from clubsuite.bots.base import bot_names, split_bot_list
from clubsuite.bots.levels import LEVELS
from clubsuite.engine import games, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.runner import deal_next

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""

SPECS = ("whist", "partnership", "free", "northstar", "northstar(players=4,teams=2x2)")
SMALL = (
    "pimc(samples=2,width=4)",
    "ismcts(iterations=12,width=4)",
    "ismcts(iterations=12,width=4,normalize=on,tree=own)",
    "ismcts(iterations=4,width=4,root=paired,expand=policy)",
    "pimc(samples=2,width=4,infer=20,pool=2,window=4)",
    "pimc(samples=2,width=4,infer=10,pool=2,window=4,model=learned)",
    "pimc(samples=4,width=4,settle=200,least=2)",
    "pimc(samples=4,width=4,prune=100,least=2)",
)
"""Search bots with a tiny budget: the tests check behaviour, not strength."""


def _dealt(spec: str, seed: int) -> Any:
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    deal_next(match, info, seed)
    return match


def _heuristic(game: str) -> Any:
    return make_bot("heuristic", game)


@pytest.mark.parametrize("bot_spec", SMALL)
@pytest.mark.parametrize("spec", SPECS)
def test_a_search_bot_plays_only_legal_actions_through_a_whole_hand(spec: str, bot_spec: str) -> None:
    """Seat 0 is the search bot, the others heuristic; every action it returns is among the legal ones (the match's
    own ``apply`` would refuse anything else), from the first decision of the hand to its end."""
    match = _dealt(spec, 5)
    bot = make_bot(bot_spec, match.game)
    other = _heuristic(match.game)
    rng = random.Random(3)
    decisions = 0
    while match.to_act is not None:
        seat = match.to_act
        legal = match.legal_actions()
        if seat == 0:
            action = bot.choose(match.view(seat), legal, rng)
            assert action in legal
            decisions += 1
        else:
            action = other.choose(match.view(seat), legal, rng)
        match.apply(action)
    assert decisions > 0 and match.hand_scores


def _position(spec: str, seed: int, steps: int) -> Any:
    """A match a few heuristic decisions into its first hand."""
    match = _dealt(spec, seed)
    rng = random.Random(seed)
    bot = _heuristic(match.game)
    for _ in range(steps):
        if match.to_act is None:
            break
        match.apply(bot.choose(match.view(match.to_act), match.legal_actions(), rng))
    return match


@pytest.mark.parametrize("bot_spec", SMALL)
@pytest.mark.parametrize("spec", SPECS)
def test_a_search_bot_decides_alike_for_the_same_seed_and_budget(spec: str, bot_spec: str) -> None:
    """Two bots of one spec, one position, RNGs of one seed: one decision, and the RNGs are left in one state."""
    for steps in (0, 5, 17):
        match = _position(spec, 11 + steps, steps)
        if match.to_act is None:
            continue
        seat = match.to_act
        rng_a, rng_b = random.Random(42), random.Random(42)
        a = make_bot(bot_spec, match.game).choose(match.view(seat), match.legal_actions(), rng_a)
        b = make_bot(bot_spec, match.game).choose(match.view(seat), match.legal_actions(), rng_b)
        assert a == b
        assert rng_a.random() == rng_b.random()


@pytest.mark.parametrize("bot_spec", SMALL)
@pytest.mark.parametrize("spec", SPECS)
def test_a_search_bot_decides_from_what_its_seat_may_see(spec: str, bot_spec: str) -> None:
    """A twin state the seat cannot tell from the real one (every card it cannot see drawn again) gets the same
    decision for the same RNG: nothing the bot does reads a hidden card of the real deal."""
    for steps in (1, 6, 14):
        match = _position(spec, 31 + steps, steps)
        if match.to_act is None:
            continue
        seat = match.to_act
        twin = match.determinize(seat, random.Random(1234))
        assert twin.view(seat).to_dict() == match.view(seat).to_dict()
        real = make_bot(bot_spec, match.game).choose(match.view(seat), match.legal_actions(), random.Random(5))
        imagined = make_bot(bot_spec, match.game).choose(twin.view(seat), twin.legal_actions(), random.Random(5))
        assert real == imagined


def test_the_levels_are_offered_in_every_game() -> None:
    """easy, normal, hard and expert are bot names of every game, next to random, heuristic, pimc and ismcts."""
    for info in games():
        names = bot_names(info.name)
        for name in (*LEVELS, "pimc", "ismcts", "random"):
            assert name in names, (info.name, name)


@pytest.mark.parametrize(("game", "seats"), [("whist", 3), ("free", 3), ("partnership", 4), ("northstar", 4)])
def test_clubs_watch_seats_the_levels_by_name_in_every_game(game: str, seats: int) -> None:
    """``clubs watch --bots`` takes level names, one per seat, and says each seat's level beside its name (the names
    are a table's, as in the browser: ``Ada (easy bot)``)."""
    bots = ["easy", "normal"] * 2
    outcome = clubs_in_process(["watch", game, "--seed", "1", "--bots", ",".join(bots[:seats])])
    assert outcome.status == 0, outcome.stderr
    at_table = seated(outcome.stdout)
    assert [level for _, level in at_table] == [f"{b} bot" for b in bots[:seats]]
    assert len({name for name, _ in at_table}) == seats  # no two seats share a name
    final = [line for line in outcome.stdout.splitlines() if "Final totals:" in line]  # the match's end, as told
    assert final and all(name in final[0] for name, _ in at_table)


def test_clubs_play_seats_the_search_levels_beside_a_person() -> None:
    """``clubs play --bots hard,expert`` starts the game with those levels and asks the person to act."""
    outcome = clubs_in_process(["play", "whist", "--seed", "1", "--bots", "hard,expert"])
    assert "Keep or exchange" in outcome.stdout, outcome.stderr
    assert outcome.status == 1 and "standard input ended" in outcome.stderr  # no input: stopped, not refused


def test_the_easy_level_slips_and_the_others_map_to_their_specs() -> None:
    """``easy`` sometimes plays what the heuristic would not (here, in whist, a newcomer's habit: a position where
    the two differ); ``hard`` and ``expert`` are PIMC with their budgets."""
    hard = make_bot("hard", "whist")
    expert = make_bot("expert", "whist")
    assert hard.name == "pimc" and expert.name == "pimc"
    assert (hard.settings.samples, hard.settings.ms) == (8, 10000)  # type: ignore[attr-defined]
    assert (expert.settings.samples, expert.settings.ms) == (32, 30000)  # type: ignore[attr-defined]
    match = _position("whist", 3, 5)
    seat = match.to_act
    legal = match.legal_actions()
    easy, heuristic = make_bot("easy", "whist"), _heuristic("whist")
    view = match.view(seat)
    differ = sum(
        easy.choose(view, legal, random.Random(k)) != heuristic.choose(view, legal, random.Random(k)) for k in range(60)
    )
    assert 0 < differ < 60


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("pimc(samples=0)", "samples=0 is out of range"),
        ("pimc(ms=-5)", "ms=-5 is out of range"),
        ("pimc(cpu=-1)", "cpu=-1 is out of range"),
        ("pimc(infer=100)", "infer=100 is out of range"),
        ("pimc(pool=0)", "pool=0 is out of range"),
        ("pimc(model=oracle)", "model='oracle': expected rollout or learned"),
        ("ismcts(cpu=700000)", "cpu=700000 is out of range"),
        ("pimc(sample=4)", "unknown option 'sample'"),
        ("pimc(samples=four)", "samples"),
        ("ismcts(iterations=0)", "iterations=0 is out of range"),
        ("ismcts(normalize=yes)", "normalize='yes': expected on or off"),
        ("ismcts(tree=mine)", "tree='mine': expected all or own"),
        ("ismcts(root=best)", "root='best': expected ucb or paired"),
        ("ismcts(expand=greedy)", "expand='greedy': expected random or policy"),
        ("heuristic(samples=4)", "takes no settings"),
        ("pimc(samples=4", "cannot read the bot spec"),
        ("alphazero", "unknown bot 'alphazero'"),
    ],
)
def test_a_bad_bot_spec_is_refused_with_the_setting_named(spec: str, words: str) -> None:
    """Settings are checked like rules options: an unknown one, a bad value, a bot without settings."""
    with pytest.raises(InvalidOptionsError, match=words.replace("(", r"\(")):
        make_bot(spec, "whist")


def test_a_bot_list_splits_at_commas_outside_parentheses() -> None:
    """``--bots`` lists keep the commas of a bot's settings."""
    assert split_bot_list("pimc(samples=8,ms=100), heuristic,random") == [
        "pimc(samples=8,ms=100)",
        "heuristic",
        "random",
    ]
    assert split_bot_list("a,,b") == ["a", "", "b"]


def test_a_time_budget_stops_the_search_after_at_least_one_world() -> None:
    """With ``ms=1`` the bot searches fewer worlds than its sample budget allows, but at least one."""
    match = _position("whist", 8, 12)
    bot = make_bot("pimc(samples=500,ms=1,solver=off)", "whist")
    bot.choose(match.view(match.to_act), match.legal_actions(), random.Random(1))
    assert 1 <= bot.worlds_searched < 500  # type: ignore[attr-defined]


def test_a_cpu_budget_stops_the_search_after_at_least_one_world() -> None:
    """With ``cpu=1`` (a millisecond of the thinking thread's CPU time) the bot searches fewer worlds than its sample
    budget allows, but at least one, and says the CPU budget stopped it."""
    match = _position("whist", 8, 12)
    for spec in ("pimc(samples=500,cpu=1,solver=off)", "ismcts(iterations=5000,cpu=1)"):
        bot = make_bot(spec, "whist")
        bot.choose(match.view(match.to_act), match.legal_actions(), random.Random(1))
        done = bot.worlds_searched if spec.startswith("pimc") else bot.iterations_run  # type: ignore[attr-defined]
        assert 1 <= done < 500 and bot.stopped_by == "cpu", spec  # type: ignore[attr-defined]


class _BusyClock:
    """The clock of a machine so loaded that every look at the wall clock finds a tenth of a second gone (what a
    search sees when each of its worlds waits that long for a core); CPU time is the real one."""

    def __init__(self, step: float = 0.1) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now

    def thread_time(self) -> float:
        return time.thread_time()


@pytest.mark.parametrize("spec", ["whist", "partnership", "free", "northstar(players=3)"])
def test_a_level_searches_its_whole_budget_of_worlds_however_loaded_the_machine(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hard`` and ``expert`` budget work (worlds), not time: on a machine where each world takes a tenth of a second
    of wall time they still search all their worlds and decide as on a quiet machine. A time budget of the old
    kind (``hard`` was ``pimc(samples=8,ms=100)``) is cut short by the same clock: the clock is what a loaded
    machine looks like to a search."""
    match = _position(spec, 5, 3 * resolve(spec)[0].n_seats(resolve(spec)[1]) + 2)
    seat, legal = match.to_act, match.legal_actions()
    monkeypatch.setattr(searching, "time", _BusyClock(step=0.0))  # a quiet machine: the wall clock hardly moves
    quiet = {
        lv: make_bot(lv, match.game).choose(match.view(seat), legal, random.Random(9)) for lv in ("hard", "expert")
    }
    monkeypatch.setattr(searching, "time", _BusyClock())
    for level, samples in (("hard", 8), ("expert", 32)):
        bot = make_bot(level, match.game)
        assert bot.choose(match.view(seat), legal, random.Random(9)) == quiet[level], level
        assert (bot.worlds_searched, bot.stopped_by) == (samples, "work"), level  # type: ignore[attr-defined]
    old = make_bot("pimc(samples=8,ms=100)", match.game)
    old.choose(match.view(seat), legal, random.Random(9))
    assert old.worlds_searched < 8 and old.stopped_by == "wall"  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", SPECS)
def test_the_world_a_view_imagines_keeps_no_earlier_hand(spec: str) -> None:
    """A determinization drawn through a view holds a frozen copy of the imagined hand in progress in place of every
    earlier hand: an earlier hand's cards nobody saw (a bid hand, a chest, cards never played) are not reachable
    from it, while the number of hands (who deals, which way cards pass) is kept."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    bot = _heuristic(match.game)
    rng = random.Random(2)
    while len(match.hands) < 2 or match.to_act is None:
        if match.is_over:
            pytest.skip("the match ended in its first hand")
        if match.to_act is None:
            deal_next(match, info, 40 + len(match.hands))
            continue
        match.apply(bot.choose(match.view(match.to_act), match.legal_actions(), rng))
    seat = match.to_act
    world = match.view(seat).determinize(random.Random(3))
    assert len(world.hands) == len(match.hands)
    sealed = world.hands[0]
    assert all(h is sealed for h in world.hands[:-1]) and sealed is not world.hands[-1]
    assert world.view(seat).to_dict() == match.view(seat).to_dict()
    # Clones of the world (one per action a search tries) play on hands of their own.
    a, b = world.clone(), world.clone()
    a.apply(a.legal_actions()[0])
    assert b.view(seat).to_dict() == world.view(seat).to_dict()


@pytest.mark.parametrize("bot_spec", SMALL)
@pytest.mark.parametrize("spec", SPECS)
def test_a_search_bot_plays_the_second_hand_of_a_match(spec: str, bot_spec: str) -> None:
    """With a settled hand behind it (which the imagined worlds replace), the bot still plays legal actions through
    a whole hand: every world's play-outs run on hands of their own."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    other = _heuristic(match.game)
    rng = random.Random(6)
    deal_next(match, info, 21)
    while match.to_act is not None:
        match.apply(other.choose(match.view(match.to_act), match.legal_actions(), rng))
    if match.is_over:
        pytest.skip("the match ended in its first hand")
    deal_next(match, info, 21)
    bot = make_bot(bot_spec, match.game)
    while match.to_act is not None:
        seat = match.to_act
        player = bot if seat == 0 else other
        match.apply(player.choose(match.view(seat), match.legal_actions(), rng))
    assert len(match.hand_scores) == 2


def test_ismcts_keeps_the_rollout_bots_choice_unless_the_most_visited_action_is_clearly_better() -> None:
    """``caution``: the most visited root action replaces the rollout bot's choice only when its mean is higher by
    more than the set number of standard errors of the difference; an unvisited choice is kept; 0 turns it off."""
    from clubsuite.bots.ismcts import _decision, _Node

    def node(values: list[float]) -> _Node:
        n = _Node()
        n.visits = len(values)
        n.total = sum(values)
        n.squares = sum(v * v for v in values)
        return n

    root = _Node()
    root.children = {"fav": node([0.4, 0.6] * 5), "top": node([0.45, 0.65] * 8)}
    # Mean 0.55 v 0.50; standard error of the difference about 0.042: 1.2 standard errors.
    assert _decision(root, ["fav", "top"], "fav", 1.0) == "top"
    assert _decision(root, ["fav", "top"], "fav", 2.0) == "fav"
    assert _decision(root, ["fav", "top"], "fav", 0.0) == "top"
    root.children = {"fav": node([0.1]), "top": node([0.9] * 20)}
    assert _decision(root, ["fav", "top"], "fav", 1.0) == "fav"  # one visit: no spread, no evidence
    root.children = {"top": node([0.9] * 20)}
    assert _decision(root, ["fav", "top"], "fav", 1.0) == "fav"
    assert _decision(root, ["fav", "top"], "top", 1.0) == "top"


@pytest.mark.parametrize("spec", SPECS)
def test_ismcts_with_a_paired_root_values_every_candidate_in_every_world(spec: str) -> None:
    """``root=paired``: each iteration draws one world and values every root candidate in it, so after n
    iterations every candidate has n visits (and the decision is a paired comparison, as in ``pimc``)."""
    match = _position(spec, 8, 2)
    bot = make_bot("ismcts(iterations=5,width=4,root=paired)", match.game)
    legal = match.legal_actions()
    bot.choose(match.view(match.to_act), legal, random.Random(2))
    assert bot.iterations_run == 5
    assert len(bot.root_visits) == min(4, len(legal)) and set(bot.root_visits.values()) == {5}


@pytest.mark.parametrize("spec", SPECS)
def test_ismcts_expanding_by_policy_tries_the_rollout_bots_choice_first(spec: str) -> None:
    """``expand=policy``: a node adds the rollout bot's choice before any other. After one iteration the decision is
    the rollout bot's choice (one visit is no evidence against it), and the root's only child must be that choice;
    with random expansion it would be a draw among the candidates."""
    match = _position(spec, 8, 2)
    view, legal = match.view(match.to_act), match.legal_actions()
    bot = make_bot("ismcts(iterations=1,expand=policy)", match.game)
    choice = bot.choose(view, legal, random.Random(4))
    assert len(legal) > 1 and list(bot.root_visits) == [choice]


@pytest.mark.parametrize("spec", ["whist", "partnership", "free", "northstar(players=3)"])
def test_a_hand_replayed_from_its_deal_reaches_the_very_state_it_is_in(spec: str) -> None:
    """``hand_so_far`` deals the hand in progress again from its deal and applies its actions: every seat's view at
    the end is the view of the match itself, in the real match and in an imagined world alike."""
    match = _position(spec, 11, 9)
    seat = match.to_act
    for source in (match, match.view((seat + 1) % match.n_seats).determinize(random.Random(2))):
        steps = list(source.hand_so_far())
        assert [a for _, a in steps] == list(source.hands[-1].action_log())
        replayed = steps[-1][0]  # the copy after the last action (the iteration applied it before it ended)
        assert all(replayed.view(s).to_dict() == source.view(s).to_dict() for s in range(source.n_seats))


@pytest.mark.parametrize("spec", ["whist", "partnership", "free", "northstar(players=3)"])
def test_inference_finds_the_real_deal_likelier_than_imagined_ones_when_the_others_play_as_the_model(
    spec: str,
) -> None:
    """The others played the heuristic bot's cards: under a model that expects just that, the real deal explains
    their plays at least as well as any world imagined from the seat's view, and most imagined worlds worse."""
    match = _position(spec, 21, 18)
    seat = match.to_act
    bot = make_bot("pimc(samples=8,infer=20,window=0)", match.game)
    real = bot._log_likelihood(match, seat)  # type: ignore[attr-defined]
    imagined = [
        bot._log_likelihood(match.view(seat).determinize(random.Random(k)), seat)  # type: ignore[attr-defined]
        for k in range(12)
    ]
    assert all(w <= real + 1e-9 for w in imagined)
    assert sum(w < real for w in imagined) >= 6


def _learned_position(spec: str, seed: int, steps: int) -> Any:
    """A match a few decisions into its first hand, every seat played by the learned bot."""
    match = _dealt(spec, seed)
    rng = random.Random(seed)
    bot = make_bot("learned", match.game)
    for _ in range(steps):
        match.apply(bot.choose(match.view(match.to_act), match.legal_actions(), rng))
    return match


@pytest.mark.parametrize("spec", ["whist", "partnership", "free", "northstar(players=4)"])
def test_inference_by_the_learned_policy_finds_the_real_deal_likelier_when_the_others_play_the_policy(
    spec: str,
) -> None:
    """``model=learned``: the others played the learned policy's choices, so the real deal explains their plays
    better than nearly every world imagined from the seat's view (the policy's probabilities are not certain, so an
    imagined world may now and then explain them as well)."""
    from clubsuite.bots.learned import policy_for

    match = _learned_position(spec, 21, 18)
    seat = match.to_act
    bot = make_bot("pimc(samples=8,infer=10,window=0,model=learned)", match.game)
    worlds = [match, *(match.view(seat).determinize(random.Random(k)) for k in range(12))]
    logs = bot._learned_log_likelihoods(policy_for(match.game, match.options), worlds, seat)  # type: ignore[attr-defined]
    assert all(math.isfinite(v) and v <= 0 for v in logs)
    assert sum(v < logs[0] for v in logs[1:]) >= 10, logs


def test_inference_by_the_learned_policy_floors_a_surprising_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A play the policy finds impossible still counts infer/100 shared among the legal plays: one surprising
    card makes a world unlikely, never impossible; and the turns weighed are the others' last ``window``."""
    from clubsuite.bots import policy as policy_module
    from clubsuite.bots.learned import policy_for

    match = _learned_position("whist", 21, 18)
    seat = match.to_act
    weighed: list[int] = []

    def never(policy: Any, decisions: Any) -> list[list[float]]:
        weighed.append(len(decisions))
        return [[-1e9] * len(d.spelled) for d in decisions]

    monkeypatch.setattr(policy_module, "log_probabilities", never)
    bot = make_bot("pimc(samples=8,infer=10,window=3,model=learned)", match.game)
    (log,) = bot._learned_log_likelihoods(policy_for(match.game, match.options), [match], seat)  # type: ignore[attr-defined]
    turns = [
        (k, len(state.legal_actions()))
        for k, (state, _) in enumerate(match.hand_so_far())
        if state.to_act not in (None, seat)
    ]
    counts = [n for _, n in turns[-3:]]
    expected = sum(math.log(0.1 / n) for n in counts if n > 1)
    assert weighed == [sum(n > 1 for n in counts)]
    assert log == pytest.approx(expected)


def test_inference_by_the_learned_policy_weighs_a_hidden_misplay_at_the_floor() -> None:
    """At a table that allows hidden misplays, an imagined world may give a player the suit it showed out of: its
    play is then one the world's rules forbid, and it counts infer/100 / (n + 1), never a failure; the bot
    decides."""
    from clubsuite.bots.learned import policy_for

    match = _dealt("free(misplays=true)", 0)
    rng = random.Random(0)
    heuristic = _heuristic(match.game)
    for _ in range(28):
        match.apply(heuristic.choose(match.view(match.to_act), match.legal_actions(), rng))
    seat = match.to_act
    bot = make_bot("pimc(samples=4,infer=10,pool=2,window=0,model=learned)", match.game)
    assert bot.choose(match.view(seat), match.legal_actions(), random.Random(0)) in match.legal_actions()
    worlds = [match.view(seat).determinize(random.Random(k)) for k in range(12)]
    forbidden = []
    for world in worlds:
        count = 0
        for state, action in world.hand_so_far():
            if state.to_act not in (None, seat) and action not in state.legal_actions():
                count += 1
        forbidden.append(count)
    assert any(forbidden)  # the position has worlds that hide a misplay
    logs = bot._learned_log_likelihoods(policy_for(match.game, match.options), worlds, seat)  # type: ignore[attr-defined]
    assert all(math.isfinite(v) for v in logs)
    for v, count in zip(logs, forbidden, strict=True):
        assert v <= count * math.log(0.1 / 2) + 1e-9  # each forbidden play counts at most 0.1 / (n + 1), n >= 1


def test_the_learned_model_is_refused_for_a_game_without_a_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pimc(model=learned)`` at a game with no shipped policy is refused when the bot is made, naming why."""
    from clubsuite.bots import pimc

    monkeypatch.setattr(pimc, "has_policy", lambda game: False)
    with pytest.raises(InvalidOptionsError, match="whist has no learned policy"):
        make_bot("pimc(infer=10,model=learned)", "whist")


def test_inference_searches_the_likeliest_worlds_of_its_pool_and_its_budget_of_them() -> None:
    """With ``infer``, ``pool`` times ``samples`` worlds are drawn and ``samples`` of them searched, the likeliest
    more often: over decisions, the searched worlds explain the others' plays better than the pool on average."""
    match = _position("partnership", 21, 18)
    seat = match.to_act
    bot = make_bot("pimc(samples=4,infer=20,pool=4)", match.game)
    pool = [int(s) for s in random.Random(5).sample(range(1 << 30), 16)]
    picked = bot._likeliest(match.view(seat), seat, pool, 4)  # type: ignore[attr-defined]
    assert len(picked) == 4 and len({s for s, _ in picked}) == 4
    every = {s: bot._log_likelihood(match.view(seat).determinize(random.Random(s)), seat) for s in pool}  # type: ignore[attr-defined]
    mean_pool = sum(every.values()) / len(every)
    assert sum(every[s] for s, _ in picked) / 4 > mean_pool
    bot.choose(match.view(seat), match.legal_actions(), random.Random(1))
    assert bot.worlds_searched == 4  # type: ignore[attr-defined]


def test_a_choice_is_settled_when_no_other_candidate_could_beat_it_by_more_than_the_margin() -> None:
    """``Compared.settled``: a clear best settles; a close call with a wide interval does not, until the margin
    forgives what playing either could lose; candidates equal in every world so far settle only after ``alike``
    worlds (with no spread, a standard error of zero would prove nothing); the action measured against is the one
    the bot would play, so a cautious bot keeping its favourite settles only when the favourite is safe."""
    from clubsuite.bots.searching import Compared

    clear = Compared(["a", "b"], 0, {"m": [[0.9, 0.1], [0.8, 0.2], [0.85, 0.15]]})
    assert clear.settled(2.0, 0.0, 0.0, 24)
    close = Compared(["a", "b"], 0, {"m": [[0.6, 0.5], [0.4, 0.5], [0.62, 0.5]]})
    assert not close.settled(2.0, 0.005, 0.0, 24)
    assert close.settled(2.0, 0.5, 0.0, 24)
    equal = [[0.5, 0.5], [0.7, 0.7], [0.2, 0.2]]
    assert not Compared(["a", "b"], 0, {"m": equal}).settled(2.0, 0.005, 0.0, 4)
    assert Compared(["a", "b"], 0, {"m": [*equal, [0.4, 0.4]]}).settled(2.0, 0.005, 0.0, 4)
    assert not Compared(["a", "b"], 0, {"m": [[0.9, 0.1]]}).settled(2.0, 1.0, 0.0, 1)  # one world: no spread
    # b is best by a little, within one standard error: a bot with caution 1 keeps its favourite a, and the search
    # is not settled while b could beat a by more than the margin
    kept = Compared(["a", "b"], 0, {"m": [[0.5, 0.6], [0.5, 0.45], [0.5, 0.55], [0.5, 0.5]]})
    assert kept.decision(1.0) == "a"
    assert not kept.settled(2.0, 0.005, 1.0, 24)


@pytest.mark.parametrize("spec", ["whist", "partnership", "free", "northstar(players=3)"])
def test_a_settling_search_stops_early_on_easy_decisions_and_decides_as_its_worlds_say(spec: str) -> None:
    """With ``settle`` the search stops before its ``samples`` once the choice is settled, never before ``least``
    worlds, and decides what a fixed search of those very worlds decides (the stop reads only the values found, so
    it is the same on any machine). Positions with more legal actions than ``width`` are left out: there the
    candidates are drawn after the worlds' seeds, so a fixed search of another size compares other candidates."""
    stopped_early = compared = 0
    for steps in range(0, 36, 5):
        match = _position(spec, 61 + steps, steps)
        if match.to_act is None or not 2 <= len(match.legal_actions()) <= 12:
            continue
        seat, legal = match.to_act, match.legal_actions()
        settling = make_bot("pimc(samples=24,settle=200,least=3,margin=5)", match.game)
        choice = settling.choose(match.view(seat), legal, random.Random(7))
        worlds = settling.worlds_searched  # type: ignore[attr-defined]
        assert 3 <= worlds <= 24
        if settling.stopped_by == "settled":  # type: ignore[attr-defined]
            stopped_early += 1
            assert worlds < 24
        fixed = make_bot(f"pimc(samples={worlds})", match.game)
        assert fixed.choose(match.view(seat), legal, random.Random(7)) == choice
        compared += 1
    assert compared and stopped_early > 0


def test_a_candidate_is_outclassed_only_when_clearly_worse_in_every_measure_and_never_the_favourite() -> None:
    """``Compared.outclassed``: a candidate the best beats by more than ``z`` standard errors may stop being valued;
    a close one may not; the rollout bot's choice never is (``caution`` measures against it), nor the best of any
    measure (a game with two measures can be won high or low); one world has no spread and prunes nothing."""
    from clubsuite.bots.searching import Compared

    rows = [[0.9, 0.5, 0.1, 0.88], [0.8, 0.4, 0.2, 0.82], [0.85, 0.45, 0.15, 0.84]]
    found = Compared(["a", "b", "c", "d"], 1, {"m": rows})
    assert found.outclassed(2.0) == [2]  # b is the favourite; d is close to a
    assert found.without([2]).actions == ["a", "b", "d"]
    assert found.without([2]).rows["m"][0] == [0.9, 0.5, 0.88]
    assert found.without([2]).favourite == 1
    low = [[0.1, 0.5, 0.95, 0.1], [0.2, 0.4, 0.9, 0.15], [0.1, 0.45, 0.92, 0.12]]
    assert Compared(["a", "b", "c", "d"], 1, {"m": rows, "low": low}).outclassed(2.0) == []  # c is best aiming low
    assert Compared(["a", "b", "c"], 1, {"m": [[0.9, 0.5, 0.1]]}).outclassed(2.0) == []


@pytest.mark.parametrize("spec", ["whist", "free", "northstar(players=3)"])
def test_a_pruning_search_values_fewer_candidates_and_still_plays_legally(spec: str) -> None:
    """With ``prune`` the search stops valuing candidates that are clearly worse after ``least`` worlds, so its
    worlds cost less; it still plays a legal action and decides the same for the same random numbers."""
    played = pruned = 0
    for steps in range(0, 30, 6):
        match = _position(spec, 71 + steps, steps)
        if match.to_act is None or len(match.legal_actions()) < 3:
            continue
        seat, legal = match.to_act, match.legal_actions()
        bot = make_bot("pimc(samples=12,prune=100,least=3)", match.game)
        choice = bot.choose(match.view(seat), legal, random.Random(5))
        assert choice in legal
        assert (
            make_bot("pimc(samples=12,prune=100,least=3)", match.game).choose(match.view(seat), legal, random.Random(5))
            == choice
        )
        played += 1
        pruned += bot.pruned  # type: ignore[attr-defined]
    assert played and pruned


def test_a_settling_search_needs_room_to_settle() -> None:
    with pytest.raises(InvalidOptionsError, match="least=9 is more than samples=8"):
        make_bot("pimc(samples=8,settle=200,least=9)", "whist")
    with pytest.raises(InvalidOptionsError, match="least=9 is more than opening=4"):
        make_bot("pimc(samples=16,opening=4,settle=200,least=9)", "whist")


@pytest.mark.parametrize("spec", ["whist", "free", "partnership"])
def test_a_decision_before_the_card_play_searches_the_opening_budget_and_card_play_the_samples(spec: str) -> None:
    """``opening`` sets the worlds of a decision before the card play (whist's exchange, CW-4; Free Clubs' auction
    and pass; the partnership game's pass, CP-2), where one decision shapes the whole hand; the card play keeps
    ``samples``."""
    match = _dealt(spec, 3)
    bot = make_bot("pimc(samples=2,opening=5)", match.game)
    heuristic = _heuristic(match.game)
    rng = random.Random(2)
    searched = {"before": 0, "play": 0}
    while match.to_act is not None and not (searched["before"] and searched["play"]):
        legal = match.legal_actions()
        view = match.view(match.to_act)
        if len(legal) > 1:
            when = "play" if str(match.phase) == "play" else "before"
            bot.choose(view, legal, random.Random(1))
            assert bot.worlds_searched == (2 if when == "play" else 5), when  # type: ignore[attr-defined]
            searched[when] += 1
        match.apply(heuristic.choose(view, legal, rng))
    assert searched["before"] and searched["play"]
