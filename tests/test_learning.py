"""Imitation learning (docs/learning.md): the teacher's decisions become steps whose targets are distributions over
the ids each step allows, leaning on the teacher's choice; the same games give the same positions; the network's
gradient is the loss's; a tiny run of ``clubs learn`` (positions, again after a stop, then training) gives a policy
file that ``clubs evaluate`` plays; and the shipped policies are small, checked, and played by the ``learned`` bot
at every game's table."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.bots.base import bot_names, make_bot
from clubsuite.bots.learned import POLICIES, LearnedBot, policy_for
from clubsuite.bots.policy import MAX_LAYERS, Policy
from clubsuite.coding import Choice, coding_for, env_layout
from clubsuite.engine import Phase, find_game, games, resolve
from clubsuite.learning.network import Settings, gradients, init_layers, train, weight_count
from clubsuite.learning.positions import SOFT, Dataset, action_targets, decision_steps, play_games
from clubsuite.rl.benchmarks import ENVS, find_env, new_table
from clubsuite.runner import deal_next, play_match
from clubsuite.seeding import derive_seed

TINY_TEACHER = "pimc(samples=2,opening=2)"


def test_a_target_puts_half_on_the_teachers_choice_and_spreads_the_rest_by_the_searchs_values() -> None:
    targets = action_targets([("a", 0.50), ("b", 0.50), ("c", 0.30)], "b")
    assert sum(targets.values()) == pytest.approx(1.0)
    assert targets["b"] == pytest.approx(SOFT / 2 + (1 - SOFT), rel=1e-4)
    assert targets["a"] == pytest.approx(SOFT / 2, rel=1e-3)  # c is ten temperatures behind: next to nothing
    assert targets["c"] < 1e-4


@pytest.mark.parametrize("env_id", ["clubs_partnership-v1", "clubs_northstar-4p-v1", "clubs_whist-v1"])
def test_every_step_of_a_decision_allows_what_the_choice_allows_and_its_target_sums_to_one(env_id: str) -> None:
    env = find_env(env_id)
    info, options = env.resolved()
    coding = coding_for(info, options)
    layout = env_layout(coding)
    match = info.new_match(options, 0)
    match.deal(deal=info.deal_from_seed(7, 0))
    rng = random.Random(3)
    checked = 0
    while match.to_act is not None and checked < 40:
        legal = list(match.legal_actions())
        if len(legal) > 1:
            chosen = legal[rng.randrange(len(legal))]
            values = [(a, rng.random()) for a in legal]
            steps = decision_steps(
                coding, layout, match.view(match.to_act), legal, action_targets(values, chosen), chosen, dict(values)
            )
            choice = Choice(legal, coding.tokens)
            for token in coding.tokens(chosen):
                allowed = choice.allowed()
                if len(allowed) > 1:
                    obs, mask, target, value = steps.pop(0)
                    assert list(np.flatnonzero(mask)) == allowed
                    # each allowed id's value: the best of the actions through it; NaN for the others
                    best = {
                        i: max(
                            v for a, v in values if coding.tokens(a)[: len(choice.picked) + 1] == (*choice.picked, i)
                        )
                        for i in allowed
                    }
                    assert value[allowed].tolist() == pytest.approx([best[i] for i in allowed])
                    assert np.isnan(np.delete(value, allowed)).all()
                    assert float(target.astype(np.float32).sum()) == pytest.approx(1.0, abs=2e-3)
                    assert float(target[token]) >= 1 - SOFT - 1e-3  # the chosen path keeps the teacher's half
                    assert obs.shape == (layout.size,)
                    checked += 1
                choice.pick(token)
            assert steps == []
        match.apply(legal[rng.randrange(len(legal))])
    assert checked >= 10


def test_the_same_games_give_the_same_positions() -> None:
    first = play_games("clubs_free-v1", TINY_TEACHER, 3, 4, 10)
    again = play_games("clubs_free-v1", TINY_TEACHER, 3, 4, 10)
    assert len(first.obs) > 5 and first.game == [3] * len(first.obs)
    for a, b in zip(first.obs + first.target + first.mask, again.obs + again.target + again.mask, strict=True):
        assert np.array_equal(a, b)


def test_the_networks_gradient_is_the_derivative_of_its_loss() -> None:
    rng = np.random.default_rng(5)
    layers = [(w.astype(np.float64), b.astype(np.float64) + 0.1) for w, b in init_layers(7, 5, (6, 4), rng)]
    x = rng.standard_normal((9, 7))
    mask = rng.random((9, 5)) < 0.7
    mask[:, 0] = True
    target = np.where(mask, rng.random((9, 5)), 0.0)
    target /= target.sum(axis=1, keepdims=True)
    _, grads = gradients(layers, x, mask, target)
    params = [p for layer in layers for p in layer]
    for p, g in zip(params, grads, strict=True):
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for i in range(0, flat.size, 3):
            keep = flat[i]
            flat[i] = keep + 1e-6
            up, _ = gradients(layers, x, mask, target)
            flat[i] = keep - 1e-6
            down, _ = gradients(layers, x, mask, target)
            flat[i] = keep
            assert gflat[i] == pytest.approx((up - down) / 2e-6, abs=1e-6)
    _, decayed = gradients(layers, x, mask, target, decay=0.01)  # L2 decay adds 0.01 w to each weight's gradient
    for k, (w, _b) in enumerate(layers):
        assert np.allclose(decayed[2 * k] - grads[2 * k], 0.01 * w) and np.array_equal(
            decayed[2 * k + 1], grads[2 * k + 1]
        )


def test_training_lowers_the_loss_on_what_it_is_shown() -> None:
    rng = np.random.default_rng(1)
    obs = rng.standard_normal((2000, 12)).astype(np.float32)
    mask = np.ones((2000, 4), bool)
    target = np.eye(4, dtype=np.float32)[(obs[:, 0] > 0) + 2 * (obs[:, 1] > 0)]  # a rule the network can learn
    data = Dataset(obs, mask, target, np.arange(2000))
    training, held = data.split()
    _, history = train(training, Settings(hidden=(16,), epochs=30, batch=64, seed=2), held)
    assert history[-1].train_loss < 0.5 * history[0].train_loss
    assert history[-1].val_agree > 0.8  # chance: 0.25


@pytest.mark.long
def test_a_tiny_training_run_makes_a_policy_that_clubs_evaluate_plays(tmp_path: Path) -> None:
    data, out = tmp_path / "positions", tmp_path / "policy.npz"
    made = ["learn", "positions", "clubs_partnership-v1", "--games", "4", "--per-shard", "2", "--data", str(data)]
    outcome = clubs_in_process([*made, "--teacher", TINY_TEACHER])
    assert outcome.status == 0, outcome.stderr
    shards = sorted((data / "clubs_partnership-v1" / "pimc-samples-2-opening-2").glob("games-*.npz"))
    assert [p.name for p in shards] == ["games-0000000-0000001.npz", "games-0000002-0000003.npz"]
    before = [p.stat().st_mtime_ns for p in shards]
    shards[1].unlink()  # a run stopped before its last shard: the same command makes only what is missing
    assert clubs_in_process([*made, "--teacher", TINY_TEACHER]).status == 0
    assert shards[0].stat().st_mtime_ns == before[0] and shards[1].exists()

    train_args = ["learn", "train", "clubs_partnership-v1", "--data", str(data), "--teacher", TINY_TEACHER]
    train_args += ["--hidden", "32", "--epochs", "4"]
    outcome = clubs_in_process([*train_args, "--out", str(out)])
    assert outcome.status == 0, outcome.stderr
    record = json.loads(out.with_suffix(".json").read_text())
    assert record["games"] == 4 and record["steps"]["train"] > 0 and record["steps"]["held_out"] > 0
    assert record["epochs"][-1]["train_loss"] < record["epochs"][0]["train_loss"]
    outcome = clubs_in_process(
        ["evaluate", str(out), "--against", "random", "--game", "clubs_partnership-v1", "--deals", "30", "--json"]
    )
    assert outcome.status == 0, outcome.stderr
    assert json.loads(outcome.stdout)["agent"]["kind"] == "weights"
    again = tmp_path / "again.npz"  # from the first: the record names the start, never where this machine keeps it
    outcome = clubs_in_process([*train_args, "--init", str(out), "--epochs", "1", "--out", str(again)])
    assert outcome.status == 0, outcome.stderr
    written = again.with_suffix(".json").read_text()
    assert json.loads(written)["init"] == "policy.npz" and str(tmp_path) not in written


@pytest.mark.long
def test_positions_of_tables_another_player_played_are_labelled_by_the_teacher_and_kept_apart(
    tiny_positions: Path, tmp_path: Path
) -> None:
    """DAgger: with --player, the player's choices make the table (the teacher labels every decision); the positions
    go to a folder named by the player (a weights file by its name and hash), and train --played-by learns from
    them as well as from the teacher's own games."""
    import shutil

    from clubsuite.learning.positions import Steps, play_games

    data = tmp_path / "copy"
    shutil.copytree(tiny_positions, data)
    env = "clubs_partnership-v1"
    first_legal = play_games(env, TINY_TEACHER, 0, 1, 0, "bench_agents:first_legal")
    own = play_games(env, TINY_TEACHER, 0, 1, 0)
    assert isinstance(first_legal, Steps) and first_legal.obs and own.obs
    assert first_legal.obs[0].tobytes() == own.obs[0].tobytes()  # the first decision: the same table so far
    assert [o.tobytes() for o in first_legal.obs] != [o.tobytes() for o in own.obs]  # then the player's table
    policy = tmp_path / "learner.npz"
    train = ["learn", "train", env, "--data", str(data), "--teacher", TINY_TEACHER, "--hidden", "16", "--epochs", "1"]
    assert clubs_in_process([*train, "--out", str(policy)]).status == 0
    made = ["learn", "positions", env, "--games", "2", "--data", str(data), "--teacher", TINY_TEACHER]
    outcome = clubs_in_process([*made, "--player", str(policy)])
    assert outcome.status == 0, outcome.stderr
    (folder,) = [p for p in (data / env).iterdir() if "played-by" in p.name]
    digest = hashlib.sha256(policy.read_bytes()).hexdigest()[:12]
    assert folder.name == f"pimc-samples-2-opening-2-played-by-policy-{digest}"
    both = tmp_path / "both.npz"
    outcome = clubs_in_process([*train, "--played-by", str(policy), "--out", str(both)])
    assert outcome.status == 0, outcome.stderr
    record = json.loads(both.with_suffix(".json").read_text())
    assert record["games"] == 8 + 2 and f"player=policy-{digest}" in record["positions"]
    assert "--played-by learner.npz" in record["command"] and str(tmp_path) not in json.dumps(record)
    assert "played by heuristic" in refused(
        ["train", env, "--data", str(data), "--teacher", TINY_TEACHER, "--played-by", "heuristic", "--out", str(both)]
    )
    assert "--player" in refused(["positions", env, "--games", "2", "--data", str(data), "--player", "nobody"])


def test_with_another_player_the_table_plays_its_choice_and_the_label_is_the_teachers() -> None:
    """The Teacher at a seat of a DAgger table: the label is the teacher's choice (a heuristic teacher: all of the
    target on it), the table plays the player's."""
    from clubsuite.learning.positions import Steps, Teacher

    env = find_env("clubs_whist-v1")
    coding = coding_for(*env.resolved())
    layout = env_layout(coding)
    match = new_table(env)
    deal_next(match, find_game("whist")[0], 3)
    heuristic = make_bot("heuristic", "whist")
    while match.phase != Phase.PLAY or len(match.legal_actions()) < 3:
        match.apply(heuristic.choose(match.view(match.to_act), match.legal_actions(), random.Random(1)))
    view, legal = match.view(match.to_act), match.legal_actions()

    wanted = heuristic.choose(view, legal, random.Random(derive_seed(5, 0x5EED, match.to_act)))

    class Other:
        """Plays any legal card but the teacher's."""

        name = "other"

        def choose(self, view: object, legal: Any, rng: random.Random) -> object:
            return next(a for a in legal if a != wanted)

    steps = Steps()
    teacher = Teacher("heuristic", env, coding, layout, steps, 5, match.to_act, 0, Other())
    played = teacher.choose(view, legal, random.Random(0))
    assert played != wanted and played in list(legal)
    (target,) = steps.target
    assert int(np.argmax(target)) == coding.tokens(wanted)[0] and float(target.max()) == 1.0


@pytest.fixture(scope="module")
def tiny_positions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Positions of 8 games of the partnership game in files of 4, labelled by a tiny search."""
    data = tmp_path_factory.mktemp("positions")
    args = ["learn", "positions", "clubs_partnership-v1", "--games", "8", "--per-shard", "4", "--data", str(data)]
    assert clubs_in_process([*args, "--teacher", TINY_TEACHER]).status == 0
    return data


def refused(args: list[str]) -> str:
    outcome = clubs_in_process(["learn", *args])
    assert outcome.status == 2, (outcome.stdout, outcome.stderr)
    assert_safe_output(outcome)
    return outcome.stderr


@pytest.mark.long
def test_positions_made_otherwise_are_never_mixed_and_a_bad_file_is_refused(
    tiny_positions: Path, tmp_path: Path
) -> None:
    import shutil

    data = tmp_path / "copy"
    shutil.copytree(tiny_positions, data)
    folder = data / "clubs_partnership-v1" / "pimc-samples-2-opening-2"
    made = ["positions", "clubs_partnership-v1", "--teacher", TINY_TEACHER, "--data", str(data)]
    assert "across the files of 3 games asked" in refused([*made, "--games", "8", "--per-shard", "3"])
    outcome = clubs_in_process(["learn", *made, "--games", "10", "--per-shard", "4"])  # a last file of 2 games, then 12
    assert outcome.status == 0 and (folder / "games-0000008-0000009.npz").exists(), outcome.stderr
    assert clubs_in_process(["learn", *made, "--games", "12", "--per-shard", "4"]).status == 0  # made whole again
    assert not (folder / "games-0000008-0000009.npz").exists() and (folder / "games-0000008-0000011.npz").exists()
    assert "explore=50': use another --data" in refused([*made, "--games", "12", "--per-shard", "4", "--explore", "50"])
    train = ["train", "clubs_partnership-v1", "--teacher", TINY_TEACHER, "--data", str(data), "--out"]
    assert "too few to train on" in refused([*train, str(tmp_path / "p.npz"), "--games", "1"])
    (folder / "games-0000002-0000005.npz").write_bytes((folder / "games-0000004-0000007.npz").read_bytes())
    assert "hold the same games" in refused([*train, str(tmp_path / "p.npz")])
    (folder / "games-0000002-0000005.npz").unlink()
    (folder / "games-0000004-0000007.npz").write_bytes(b"PK\x03\x04 not an archive")
    assert "not a file of positions" in refused([*train, str(tmp_path / "p.npz")])
    np.savez(folder / "games-0000004-0000007.npz", obs=np.zeros((2, 3)), about=np.frombuffer(b"x", np.uint8))
    assert "unlike the others" in refused([*train, str(tmp_path / "p.npz")])
    assert not (tmp_path / "p.npz").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["train", "clubs_free-v1", "--out", "x.npz", "--data", "nowhere"], "no positions of clubs_free-v1 by"),
        (["train", "clubs_free-v1", "--out", "x.npz", "--hidden", "64,x"], "--hidden '64,x'"),
        (["train", "clubs_free-v1", "--out", "x.npz", "--hidden", "1,2,3,4,5"], "from 1 to 4 hidden layers"),
        (["train", "clubs_free-v1", "--out", "x.txt"], "ends in .npz"),
        (["positions", "clubs_free-v0", "--games", "1"], "not a benchmark environment"),
        (["positions", "clubs_free-v1", "--games", "1", "--teacher", "wizard"], "wizard"),
        (["positions", "clubs_free-v1", "--games", "0"], "--games"),
    ],
)
def test_bad_learning_arguments_are_refused_naming_them(args: list[str], says: str, tmp_path: Path) -> None:
    outcome = clubs_in_process(["learn", *[a.replace("nowhere", str(tmp_path / "none")) for a in args]])
    assert outcome.status == 2 and says in outcome.stderr, outcome.stderr
    assert_safe_output(outcome)


def test_every_game_ships_a_small_checked_policy_for_its_benchmark_environments() -> None:
    shipped = sorted(p.stem for p in POLICIES.glob("*.npz"))
    assert {find_env(e).game for e in shipped} == {info.name for info in games()}
    for env_id in shipped:
        path = POLICIES / f"{env_id}.npz"
        assert path.stat().st_size < 2 * 1024 * 1024
        policy = Policy(path, env_id, ENVS[env_id].spec)
        assert weight_count(policy.layers) <= 400_000 and len(policy.layers) <= MAX_LAYERS
        record = json.loads(path.with_suffix(".json").read_text())
        assert record["env"] == env_id and record["weights"] == weight_count(policy.layers)


@pytest.mark.parametrize("game", [info.name for info in games()])
def test_the_learned_bot_plays_a_whole_match_of_every_game_with_its_policy(game: str) -> None:
    assert "learned" in bot_names(game)
    info, options = resolve(game)
    bots = [make_bot("learned", game) for _ in range(info.n_seats(options))]
    match = play_match(info.new_match(options, 0), bots, 11, max_hands=200)
    assert match.is_over
    assert all(isinstance(b, LearnedBot) and not b.stand_in for b in bots)


def test_the_learned_bot_stands_in_with_the_heuristic_where_no_policy_fits_the_table() -> None:
    info, options = resolve("northstar(players=6)")
    assert policy_for("northstar", options) is None
    bots = [make_bot("learned", "northstar") for _ in range(6)]
    play_match(info.new_match(options, 0), bots, 3, max_hands=1)
    assert all(isinstance(b, LearnedBot) and b.stand_in for b in bots)
    _, teams = resolve("northstar(players=4,teams=2x2)")  # the same board as four alone, but partners: not theirs
    assert policy_for("northstar", teams) is None
    _, free = resolve(ENVS["clubs_free-v1"].spec)
    _, other_target = resolve("free(target=200)")
    shipped, other = policy_for("free", free), policy_for("free", other_target)
    assert shipped.env_id == other.env_id == "clubs_free-v1"  # same board, other target: the free policy plays,
    assert other.layers is shipped.layers and other.coding is not shipped.coding  # its weights read once


class JointLogp:
    """The log-probability of each legal action of one decision under ``policy``, each of its steps scored on its
    own (as training saw it): the softmax of the step's scores over the ids the legal actions allow there. A step's
    scores depend only on the ids picked before it, so they are worked out once for all the actions that begin so (a
    pass of three cards of the partnership game is one of 286 actions, spelled in three steps each)."""

    def __init__(self, policy: Policy, view: object, legal: list[object]) -> None:
        self.policy, self.view = policy, view
        self.spelled = [tuple(policy.coding.tokens(a)) for a in legal]
        self.steps: dict[tuple[int, ...], np.ndarray[Any, Any]] = {}

    def step(self, picked: tuple[int, ...]) -> np.ndarray[Any, Any]:
        """The log-probabilities of the ids allowed after ``picked``."""
        if picked not in self.steps:
            from clubsuite.coding import observation_of
            from clubsuite.learning.network import masked_log_softmax

            coding, d = self.policy.coding, len(picked)
            mask = np.zeros((1, coding.action_count), bool)
            mask[0, sorted({seq[d] for seq in self.spelled if seq[:d] == picked})] = True
            observation = observation_of(coding, self.policy.layout, self.view, picked)  # type: ignore[arg-type]
            scores = self.policy.scores(observation)[None, :]
            self.steps[picked] = masked_log_softmax(scores.astype(np.float64), mask)[0]
        return self.steps[picked]

    def __call__(self, action: object) -> float:
        """The log-probability of ``action``."""
        seq, total = tuple(self.policy.coding.tokens(action)), 0.0
        for d in range(len(seq)):
            total += float(self.step(seq[:d])[seq[d]])
        return total


@pytest.mark.parametrize("env_id", ["clubs_northstar-4p-v1", "clubs_partnership-v1", "clubs_whist-v1"])
def test_a_policy_plays_the_legal_action_whose_ids_are_likeliest_together(tmp_path: Path, env_id: str) -> None:
    from clubsuite.bots.policy import PolicyBot, write_policy

    env = ENVS[env_id]
    info, options = env.resolved()
    coding = coding_for(info, options)
    layers = init_layers(env_layout(coding).size, coding.action_count, (16,), np.random.default_rng(4))
    path = tmp_path / "p.npz"
    write_policy(path, env_id, [(w, b + np.float32(0.3)) for w, b in layers])
    policy = Policy(path, env_id, env.spec)
    bot = PolicyBot(policy, "p")
    match = info.new_match(options, 0)
    match.deal(deal=info.deal_from_seed(5, 0))
    rng, several = random.Random(2), 0
    while match.to_act is not None:
        legal = list(match.legal_actions())
        view = match.view(match.to_act)

        chosen = bot.choose(view, match.legal_actions(), rng)
        if len(legal) > 1:
            joint_logp = JointLogp(policy, view, legal)
            best = max(joint_logp(a) for a in legal)
            assert joint_logp(chosen) == pytest.approx(best, abs=1e-6)
            several += any(len(coding.tokens(a)) > 1 for a in legal)
        match.apply(legal[rng.randrange(len(legal))])
    assert several > 0 or env_id == "clubs_whist-v1"


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.add(int(status.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process table from /proc")
def test_a_stopped_positions_run_leaves_no_worker_running(tmp_path: Path) -> None:
    import signal
    import subprocess
    import time

    from cli_helpers import CLUBS

    args = ["learn", "positions", "clubs_whist-v1", "--games", "40", "--per-shard", "1", "--workers", "2"]
    run = subprocess.Popen([CLUBS, *args, "--data", str(tmp_path)], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            workers = {p for p in _children(run.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()}
            time.sleep(0.1)
        assert len(workers) >= 2, "the workers never started"
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=120) != 0
        while any(Path(f"/proc/{p}").exists() for p in workers) and time.monotonic() < deadline + 60:
            time.sleep(0.1)
        assert not any(Path(f"/proc/{p}").exists() for p in workers), "a worker outlived the stopped run"
    finally:
        run.kill()
        run.wait()
