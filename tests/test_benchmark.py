"""The frozen benchmark (docs/benchmark.md): every environment's deal set, rules and observation are the version
pinned; ``clubs evaluate`` plays every deal from every side with shared random numbers (an agent against itself
gets exactly 0 on every deal), reports a paired interval over deals and the CPU of every decision, gives the same
result with any number of workers, and takes agents from the registry, a Python entry point or a weights file
(data, never code), refusing every bad one with its reason."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bench_agents
from cli_helpers import clubs_in_process
from clubsuite.benchmark.evaluate import play_deal, results, sides_of, summary
from clubsuite.bots import policy as weights
from clubsuite.bots.policy import write_policy
from clubsuite.cli.evaluate import VERIFIED_DEALS
from clubsuite.coding import coding_for, env_layout
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.agents import agent
from clubsuite.rl.benchmarks import ENVS, deal_records, deals_hash, find_env, rules_hash
from clubsuite.rl.observation import observation_hash
from native_helpers import printed_without_the_compiled_core

WHIST = ENVS["clubs_whist-v1"]


@pytest.mark.long
@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_every_environment_is_the_version_it_was_frozen_as(env_id: str) -> None:
    env = ENVS[env_id]
    bump = f"{env_id} no longer plays as frozen: give the change a new version (docs/benchmark.md, Versions)"
    assert deals_hash(env) == env.deals_sha256, bump
    assert rules_hash(env) == env.rules_sha256, bump
    assert observation_hash(env) == env.observation_sha256, bump


def test_the_deals_and_the_rules_are_the_same_without_the_compiled_core() -> None:
    code = (
        "from clubsuite.rl.benchmarks import ENVS, deals_hash, rules_hash;"
        "e = ENVS['clubs_free-v1']; print(deals_hash(e), rules_hash(e))"
    )
    free = ENVS["clubs_free-v1"]
    assert printed_without_the_compiled_core(code) == [free.deals_sha256, free.rules_sha256]


def test_an_environment_is_named_by_its_id_or_its_game_and_nothing_else() -> None:
    assert find_env("whist") is WHIST and find_env("clubs_partnership-v1").spec == "partnership"
    with pytest.raises(InvalidOptionsError, match="clubs_whist-v1"):
        find_env("clubs_whist-v0")


def test_the_sides_are_the_teams_where_there_are_teams_else_every_seat() -> None:
    assert sides_of(WHIST) == ((0,), (1,), (2,))
    assert sides_of(ENVS["clubs_partnership-v1"]) == ((0, 2), (1, 3))
    assert sides_of(ENVS["clubs_northstar-2x2-v1"]) == ((0, 2), (1, 3))
    assert len(sides_of(ENVS["clubs_northstar-5p-v1"])) == 5


@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_an_agent_against_itself_gets_exactly_zero_on_every_deal(env_id: str) -> None:
    env = ENVS[env_id]
    same = agent("heuristic", env)
    played = list(results(env, same, same, 3))
    assert [d.result for d in played] == [0.0, 0.0, 0.0]
    assert all(len({tuple(t) for t in d.scores}) == 1 for d in played)  # every rotation, the same table


def test_every_deal_is_played_once_from_each_side_with_partners_together() -> None:
    partners = ENVS["clubs_partnership-v1"]
    bench_agents.SEATS.clear()
    play_deal(partners.id, agent("bench_agents:recording", partners), agent("random", partners), 3)
    seats_of: dict[int, set[int]] = {}
    for bot, seat in bench_agents.SEATS:
        seats_of.setdefault(bot, set()).add(seat)
    assert all(len(s) == 1 for s in seats_of.values()) and len(seats_of) == 4  # a bot a seat, two a table
    assert sorted(next(iter(s)) for s in seats_of.values()) == [0, 1, 2, 3]  # every seat held once: both teams
    northstar = ENVS["clubs_northstar-4p-v1"]
    bench_agents.SEATS.clear()
    play_deal(northstar.id, agent("bench_agents:recording", northstar), agent("random", northstar), 3)
    assert sorted({seat for _, seat in bench_agents.SEATS}) == [0, 1, 2, 3]


def test_a_deals_result_is_the_agents_mean_margin_over_the_sides_it_held() -> None:
    env = ENVS["clubs_northstar-3p-v1"]
    d = play_deal(env.id, agent("heuristic", env), agent("random", env), 7)
    margins = [row[r] - (sum(row) - row[r]) / 2 for r, row in enumerate(d.scores)]
    assert d.result == pytest.approx(sum(margins) / 3) and d.agent_score == pytest.approx(
        sum(row[r] for r, row in enumerate(d.scores)) / 3
    )
    partners = ENVS["clubs_partnership-v1"]
    p = play_deal(partners.id, agent("heuristic", partners), agent("random", partners), 2)
    assert p.result == pytest.approx((p.scores[0][0] - p.scores[0][1] + p.scores[1][1] - p.scores[1][0]) / 2)


def test_the_interval_counts_deals_and_the_cpu_counts_every_decision_of_the_agent() -> None:
    first = agent("bench_agents:first_legal", WHIST)
    bench_agents.DECISIONS[0] = 0
    played = list(results(WHIST, first, agent("random", WHIST), 6))
    data = summary(WHIST, first, agent("random", WHIST), played)
    assert data["cpu"]["agent"]["decisions"] == bench_agents.DECISIONS[0] > 0
    assert data["deals"]["played"] == 6 and data["agent"]["kind"] == "python"
    values = [d.result for d in played]
    mean = sum(values) / 6
    half = 1.959963984540054 * float(np.std(values, ddof=1)) / 6**0.5
    assert data["result"]["ci95"] == pytest.approx([mean - half, mean + half], abs=1e-4)


@pytest.mark.long
def test_the_result_is_the_same_with_one_worker_or_two() -> None:
    a, b = agent("heuristic", WHIST), agent("random", WHIST)
    one = [(d.deal, d.scores, d.actions_sha256) for d in results(WHIST, a, b, 6)]
    two = [(d.deal, d.scores, d.actions_sha256) for d in results(WHIST, a, b, 6, workers=2, chunk=2)]
    assert one == two
    assert len({h for _, _, h in one}) == 6  # each deal's actions are its own


def policy_layers(env_id: str, hidden: int = 8, seed: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
    env = ENVS[env_id]
    coding = coding_for(*env.resolved())
    size, actions = env_layout(coding).size, coding.action_count
    rng = np.random.default_rng(seed)
    return [
        (rng.normal(size=(size, hidden)).astype(np.float32), np.zeros(hidden, np.float32)),
        (rng.normal(size=(hidden, actions)).astype(np.float32), np.zeros(actions, np.float32)),
    ]


@pytest.mark.parametrize("env_id", ["clubs_whist-v1", "clubs_northstar-4p-v1"])
def test_a_weights_file_plays_legal_actions_only_and_always_the_same(tmp_path: Path, env_id: str) -> None:
    env = ENVS[env_id]
    path = tmp_path / "policy.npz"
    write_policy(path, env.id, policy_layers(env_id))
    policy = agent(str(path), env)
    assert policy.kind == "weights" and policy.sha256 is not None
    first = [d.scores for d in results(env, policy, agent("random", env), 3)]
    assert first == [d.scores for d in results(env, policy, agent("random", env), 3)]  # no randomness of its own


def test_weights_written_from_transposed_or_float64_arrays_are_read_back_as_written(tmp_path: Path) -> None:
    """A training script's arrays as it has them (a transposed matrix is in Fortran order, NumPy's default is
    float64): the file holds them as the reader takes them, and the policy reads back the same numbers."""
    (w, b), *rest = policy_layers("clubs_whist-v1")
    path = tmp_path / "policy.npz"
    write_policy(path, "clubs_whist-v1", [(np.asfortranarray(w).astype(np.float64), b.astype(np.float64)), *rest])
    assert agent(str(path), WHIST).kind == "weights"
    with np.load(path) as kept:
        assert kept["w0"].flags.c_contiguous and kept["w0"].dtype == np.float32
        assert np.array_equal(kept["w0"], w)


def refused_weights(path: Path, env_id: str = "clubs_whist-v1") -> str:
    with pytest.raises(InvalidOptionsError) as refused:
        agent(str(path), ENVS[env_id])
    return str(refused.value)


def test_a_bad_weights_file_is_refused_naming_what_is_wrong_and_nothing_in_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = policy_layers("clubs_whist-v1")
    path = tmp_path / "p.npz"
    write_policy(path, WHIST.id, good)
    assert "made for 'clubs_whist-v1', not clubs_free-v1" in refused_weights(path, "clubs_free-v1")
    (tmp_path / "text.npz").write_text("not a zip")
    assert "not a NumPy .npz archive" in refused_weights(tmp_path / "text.npz")
    wrong = tmp_path / "wrong.npz"
    write_policy(wrong, WHIST.id, [good[0], (good[1][0][:, :5], good[1][1][:5])])
    assert "layer 1 must be 8x" in refused_weights(wrong)
    nan = [good[0], (good[1][0].copy(), good[1][1])]
    nan[1][0][0, 0] = np.nan
    with pytest.raises(ValueError, match="not a finite number"):  # the writer refuses it; a hostile file has it
        write_policy(tmp_path / "nan.npz", WHIST.id, nan)
    meta = np.frombuffer(
        json.dumps({"format": "clubsuite-policy", "version": 1, "env": WHIST.id, "layers": 2}).encode(), np.uint8
    )
    np.savez(tmp_path / "nan.npz", meta=meta, w0=nan[0][0], b0=nan[0][1], w1=nan[1][0], b1=nan[1][1])
    assert "not a finite number" in refused_weights(tmp_path / "nan.npz")
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, meta=np.frombuffer(b"{}", np.uint8), w0=np.array([object()], dtype=object))
    assert "not a plain array of float32 numbers" in refused_weights(pickled)  # an object: never unpickled
    np.savez(tmp_path / "bare.npz", w0=np.zeros((2, 2), np.float32))
    assert "'meta' entry" in refused_weights(tmp_path / "bare.npz")
    import zipfile

    stray = tmp_path / "stray.npz"
    with zipfile.ZipFile(stray, "w") as archive:
        archive.writestr("meta", b"{}")
    assert "is not a NumPy array" in refused_weights(stray)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False, "shape": (1 << 40,)})
    with zipfile.ZipFile(tmp_path / "bomb.npz", "w") as archive:
        archive.writestr("w0.npy", header.getvalue())  # a header that claims 4 TB, in a few bytes
    assert "unpack to more than" in refused_weights(tmp_path / "bomb.npz")
    monkeypatch.setattr(weights, "MAX_BYTES", 100)
    assert "larger than" in refused_weights(path) or "unpack to more than" in refused_weights(path)
    assert "no such weights file" in refused_weights(tmp_path / "missing.npz")


def test_a_bad_agent_is_refused_naming_it() -> None:
    for text, words in (
        ("nonsense", "unknown bot 'nonsense'"),
        ("pimc(samples=0)", "samples"),
        ("no_such_module:factory", "cannot import no_such_module"),
        ("bench_agents:nothing", "has no callable nothing"),
        ("bench_agents:NOT_CALLABLE", "has no callable NOT_CALLABLE"),
        ("bench_agents:not_a_bot", "must return a bot"),
    ):
        with pytest.raises(InvalidOptionsError, match="AGENT") as refused:
            agent(text, WHIST)
        assert words in str(refused.value), (text, str(refused.value))


@pytest.mark.long
def test_clubs_evaluate_prints_the_result_and_writes_every_deal(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    done = clubs_in_process(
        ["evaluate", "heuristic", "--against", "random", "--deals", "30", "--json", "--out", str(out)]
    )
    assert done.status == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["env"]["id"] == "clubs_whist-v1" and data["deals"]["played"] == 30 and "per_deal" not in data
    assert data["command"] == "clubs evaluate heuristic --against random --game clubs_whist-v1 --deals 30"
    assert data["episode"] == "match" and data["result"]["mean"] > 0  # heuristic wins more whist matches
    kept = json.loads(out.read_text())
    assert len(kept["per_deal"]) == 30 and kept["result"] == data["result"]
    text = clubs_in_process(["evaluate", "random", "--against", "random", "--game", "partnership", "--deals", "30"])
    assert text.status == 0 and "+0.000 points a hand" in text.stdout and "from all 2 sides" in text.stdout


def _kept(path: Path) -> Any:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)


def _keep(path: Path, data: Any) -> None:
    raw = json.dumps(data).encode()
    path.write_bytes(gzip.compress(raw) if path.name.endswith(".gz") else raw)


@pytest.mark.long
@pytest.mark.parametrize("name", ["run.json", "run.json.gz"])
def test_a_stopped_evaluation_keeps_its_deals_and_resume_plays_only_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """An evaluation that stops part way (here its agent fails at the 4th deal) has written the deals it finished
    to its --out file (compressed where the name ends in .gz); --resume takes them (not played again, but for a
    sample played again to check them) and plays the rest, and the whole is what one uninterrupted run gives, deal
    for deal; a finished one resumed plays nothing new."""
    game = ["--game", "clubs_partnership-v1", "--deals", "30"]
    out = tmp_path / name
    bench_agents.MADE[0], bench_agents.FAIL_AT[0] = 0, 14  # one made to check, then 4 a deal: deal 3 fails
    stopped = clubs_in_process(
        ["evaluate", "bench_agents:failing_later", "--against", "random", *game, "--out", str(out)]
    )
    assert stopped.status == 2 and "deal 3" in stopped.stderr
    partial = _kept(out)
    assert [d["deal"] for d in partial["per_deal"]] == [0, 1, 2] and partial["deals"]["played"] == 3
    partial["per_deal"][1]["agent_wall"] = 123.0  # a mark: a kept deal is taken as it is
    _keep(out, partial)
    bench_agents.FAIL_AT[0] = 0
    args = ["evaluate", "bench_agents:failing_later", "--against", "random", *game, "--out", str(out), "--resume"]
    resumed = clubs_in_process([*args, "--progress"])
    assert resumed.status == 0, resumed.stderr
    assert resumed.stderr.splitlines()[0] == "4 of 30 deals played"  # the three kept are not played again
    whole = _kept(out)
    assert [d["deal"] for d in whole["per_deal"]] == list(range(30)) and whole["per_deal"][1]["agent_wall"] == 123.0
    fresh = tmp_path / "fresh.json"
    assert (
        clubs_in_process(
            ["evaluate", "bench_agents:failing_later", "--against", "random", *game, "--out", str(fresh)]
        ).status
        == 0
    )
    again = json.loads(fresh.read_text())
    assert [(d["deal"], d["scores"], d["result"]) for d in again["per_deal"]] == [
        (d["deal"], d["scores"], d["result"]) for d in whole["per_deal"]
    ]
    assert again["result"] == whole["result"]
    bench_agents.MADE[0] = 0
    finished = clubs_in_process([*args, "--workers", "2", "--progress"])
    assert finished.status == 0, finished.stderr
    assert finished.stderr == ""  # no deal played ("--progress" says nothing) ...
    assert bench_agents.MADE[0] == 1 + VERIFIED_DEALS * 4  # ... but the agent named, and a sample played again
    assert _kept(out)["per_deal"] == whole["per_deal"]


@pytest.mark.long
def test_resume_refuses_a_file_of_another_evaluation_or_one_altered(tmp_path: Path) -> None:
    """--resume takes up only the same agent, level and environment, from a file whose deals add up; otherwise it
    says what is wrong (status 2) and leaves the file as it was."""
    out = tmp_path / "run.json"
    game = ["--game", "clubs_partnership-v1", "--deals", "30"]
    assert clubs_in_process(["evaluate", "random", "--against", "heuristic", *game, "--out", str(out)]).status == 0
    before = out.read_bytes()
    data = json.loads(before)
    altered = tmp_path / "altered.json"
    data["per_deal"][4]["result"] += 1
    altered.write_text(json.dumps(data))
    damaged = tmp_path / "damaged.json.gz"
    damaged.write_bytes(gzip.compress(before)[:200])
    beyond, huge = tmp_path / "beyond.json", tmp_path / "huge.json"
    data = json.loads(before)
    data["per_deal"][29]["deal"] = 35
    beyond.write_text(json.dumps(data))
    data = json.loads(before)
    data["per_deal"][3]["scores"][0][0] = 10**400
    huge.write_text(json.dumps(data))
    for args, words in (
        (["random", "--against", "random", *game, "--out", str(out)], "another level played against"),
        (["heuristic", "--against", "heuristic", *game, "--out", str(out)], "another agent"),
        (
            ["random", "--against", "heuristic", "--game", "clubs_free-v1", "--deals", "30", "--out", str(out)],
            "another environment",
        ),
        (
            ["random", "--against", "heuristic", *game, "--out", str(altered)],
            "deal 4: its result is not what its scores make",
        ),
        (["random", "--against", "heuristic", *game], "give --out"),
        (["random", "--against", "heuristic", *game, "--out", str(beyond)], "holds deal 35, past the --deals 30"),
        (
            ["random", "--against", "heuristic", *game, "--out", str(huge)],
            "deal 3: its scores hold a number out of range",
        ),
        (["random", "--against", "heuristic", *game, "--out", str(damaged)], "damaged.json.gz' is damaged or not JSON"),
    ):
        done = clubs_in_process(["evaluate", *args, "--resume"])
        assert done.status == 2 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
    again = clubs_in_process(["evaluate", "random", "--against", "heuristic", *game, "--out", str(out)])
    assert again.status == 2 and "is there already: --resume takes it up" in again.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["evaluate", "heuristic", "--deals", "29"], "--deals"),
        (["evaluate", "bench_agents:crashing", "--game", "free"], "deal 0, seat 0: its choose raised RuntimeError"),
        (["evaluate", "bench_agents:cheating", "--game", "free"], "deal 0, seat 0: it chose 'a card up my sleeve'"),
        (["evaluate", "heuristic", "--game", "bridge"], "not a benchmark environment"),
        (["evaluate", "heuristic", "--against", "nobody"], "--against 'nobody'"),
        (["evaluate", "missing.npz"], "no such weights file"),
        (["evaluate", "heuristic", "--workers", "0"], "--workers"),
    ],
)
def test_clubs_evaluate_refuses_bad_arguments_with_status_2(args: list[str], words: str) -> None:
    done = clubs_in_process(args)  # bench_agents is importable here, beside the tests
    assert done.status == 2 and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_in_a_match_episode_a_side_scores_its_share_of_the_win() -> None:
    from fractions import Fraction
    from types import SimpleNamespace

    from clubsuite.benchmark.evaluate import side_scores

    three = ((0,), (1,), (2,))
    half = Fraction(1, 2)
    assert side_scores(SimpleNamespace(winners=(0, 2), draw=False), three, "match") == [half, 0, half]  # CW-5
    assert side_scores(SimpleNamespace(winners=(), draw=True), three, "match") == [Fraction(1, 3)] * 3
    teams = ((0, 2), (1, 3))
    assert side_scores(SimpleNamespace(winners=(1, 3), draw=False), teams, "match") == [0, 1]
    assert WHIST.episode == "match" and ENVS["clubs_free-v1"].episode == "hand"


def _datasheet_tool() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "deal_datasheet", Path(__file__).parents[1] / "tools" / "deal_datasheet.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.long
def test_the_datasheet_of_the_deal_sets_in_the_docs_is_what_the_deals_give() -> None:
    tool = _datasheet_tool()
    doc = tool.DOC.read_text(encoding="utf-8")
    kept = doc[doc.index(tool.BEGIN) + len(tool.BEGIN) : doc.index(tool.END)].strip()
    assert kept == tool.table(), "docs/benchmark.md's datasheet is stale: python tools/deal_datasheet.py --write"
    for line in kept.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[1] == "10,000 (10,000)" and abs(float(cells[-1])) < 4, line  # all distinct, uniform shuffles


def test_the_datasheets_uniformity_figure_tells_a_dealt_set_that_is_not_shuffled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same deal 400 times: one distinct deal, and a chi-square far past uniform shuffles' (the figure can
    fail)."""
    tool = _datasheet_tool()
    first = next(deal_records(WHIST, 1))
    monkeypatch.setattr(tool, "deal_records", lambda env, count=None: iter([first] * 400))
    sheet = tool.sheet(WHIST)
    assert sheet["deals"] == 400 and sheet["distinct"] == 1 and sheet["z"] > 100
