"""Results another lab can check (docs/benchmark.md, "Checking a result"): ``clubs evaluate compare`` pairs two kept
evaluations over their common deals; every deal carries the hash of its actions and the file names the code, the
versions and the machine; ``--resume`` plays a sample of the kept deals again before it takes them."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import clubs_in_process
from clubsuite.benchmark.evaluate import play_deal
from clubsuite.rl.agents import agent
from clubsuite.rl.benchmarks import ENVS
from clubsuite.sim.stats import paired_mean

FREE = ["--game", "clubs_free-v1"]


def _evaluate(path: Path, who: str, against: str, deals: int, *more: str) -> Any:
    done = clubs_in_process(["evaluate", who, "--against", against, *more, "--deals", str(deals), "--out", str(path)])
    assert done.status == 0, done.stderr
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Kept evaluations on Free Clubs against random: heuristic (30 deals), easy (40 deals, compressed), and
    heuristic against heuristic (another level)."""
    folder = tmp_path_factory.mktemp("kept")
    files = {"heuristic": folder / "heuristic.json", "easy": folder / "easy.json.gz", "mirror": folder / "m.json"}
    _evaluate(files["heuristic"], "heuristic", "random", 30, *FREE)
    _evaluate(files["easy"], "easy", "random", 40, *FREE)
    _evaluate(files["mirror"], "heuristic", "heuristic", 30, *FREE)
    return files


@pytest.mark.long
def test_compare_pairs_two_agents_over_their_common_deals(kept: dict[str, Path]) -> None:
    done = clubs_in_process(["evaluate", "compare", str(kept["heuristic"]), str(kept["easy"]), "--json"])
    assert done.status == 0, done.stderr
    data = json.loads(done.stdout)
    a = {d["deal"]: d for d in json.loads(kept["heuristic"].read_text())["per_deal"]}
    b = {d["deal"]: d for d in json.loads(gzip.decompress(kept["easy"].read_bytes()))["per_deal"]}
    mean, (low, high) = paired_mean([a[k]["result"] - b[k]["result"] for k in range(30)])
    assert data["deals"] == {"common": 30, "only_a": 0, "only_b": 10}
    assert data["difference"]["mean"] == pytest.approx(mean, abs=1e-4)
    assert data["difference"]["ci95"] == pytest.approx([low, high], abs=1e-4)
    assert data["a"]["agent"]["text"] == "heuristic" and data["b"]["agent"]["text"] == "easy"
    assert data["played_alike"] == sum(a[k]["actions_sha256"] == b[k]["actions_sha256"] for k in range(30)) < 30
    text = clubs_in_process(["evaluate", "compare", str(kept["heuristic"]), str(kept["easy"])])
    assert text.status == 0 and "A makes " in text.stdout and "points a hand more than B" in text.stdout
    assert "10 only in B" in text.stdout


@pytest.mark.long
def test_a_run_compared_with_itself_or_played_again_differs_by_nothing_and_plays_every_deal_alike(
    kept: dict[str, Path], tmp_path: Path
) -> None:
    again = tmp_path / "again.json"
    _evaluate(again, "heuristic", "random", 30, *FREE)
    done = clubs_in_process(["evaluate", "compare", str(kept["heuristic"]), str(again), "--json"])
    data = json.loads(done.stdout)
    assert data["difference"]["mean"] == 0 and data["difference"]["ci95"] == [0, 0]
    assert data["played_alike"] == 30 and data["first_unlike"] is None


@pytest.mark.long
def test_compare_refuses_runs_that_do_not_pair_naming_why(kept: dict[str, Path], tmp_path: Path) -> None:
    other_env = tmp_path / "whist.json"
    _evaluate(other_env, "random", "random", 30, "--game", "clubs_whist-v1")
    printed = tmp_path / "printed.json"
    printed.write_text(
        clubs_in_process(["evaluate", "random", "--against", "random", *FREE, "--deals", "30", "--json"]).stdout
    )
    few = tmp_path / "few.json"
    data = json.loads(kept["heuristic"].read_text())
    data["per_deal"] = data["per_deal"][:1]
    few.write_text(json.dumps(data))
    forged = tmp_path / "forged.json"
    data = json.loads(kept["heuristic"].read_text())
    data["per_deal"][2]["actions_sha256"] = "not a hash"
    forged.write_text(json.dumps(data))
    heuristic = str(kept["heuristic"])
    for args, words in (
        ([heuristic, str(other_env)], "are of other environments (clubs_free-v1 and clubs_whist-v1"),
        ([heuristic, str(kept["mirror"])], "were played against other levels (random and heuristic"),
        ([heuristic, str(printed)], "holds no deals (per_deal): it was not written with --out"),
        ([heuristic, str(few)], "have 1 deal(s) in common: at least 2 are needed"),
        ([heuristic, str(forged)], "deal 2: its actions_sha256 is not a SHA-256"),
        ([heuristic, str(tmp_path / "missing.json")], "cannot be read"),
        ([heuristic], "Missing argument 'B'"),
    ):
        done = clubs_in_process(["evaluate", "compare", *args])
        assert done.status == 2 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


@pytest.mark.long
def test_the_file_names_the_code_the_versions_the_machine_and_each_deals_actions(kept: dict[str, Path]) -> None:
    data = json.loads(kept["heuristic"].read_text())
    made = data["provenance"]
    assert made["commit"] is None or re.fullmatch(r"[0-9a-f]{40}(\+changes)?", made["commit"])
    assert made["versions"]["clubsuite"] == data["clubsuite"] and made["versions"]["python"].startswith("3.")
    assert made["machine"]["cores"] >= 1 and made["machine"]["architecture"]
    env = ENVS["clubs_free-v1"]
    deal = play_deal(env.id, agent("heuristic", env), agent("random", env), 7)
    assert data["per_deal"][7]["actions_sha256"] == deal.actions_sha256
    other = play_deal(env.id, agent("easy", env), agent("random", env), 7)
    assert other.actions_sha256 != deal.actions_sha256


def _forge(path: Path, out: Path, every: bool) -> None:
    """The file at ``path`` with its agent side's scores raised by 10 at every table of every deal (or of one deal),
    each deal's result and score made to add up again: a forgery no check of the file alone can see."""
    data = json.loads(path.read_text())
    for entry in data["per_deal"] if every else data["per_deal"][:1]:
        sides = len(entry["scores"])
        for r, row in enumerate(entry["scores"]):
            row[r] += 10
        margins = [row[r] - (sum(row) - row[r]) / (sides - 1) for r, row in enumerate(entry["scores"])]
        entry["result"] = sum(margins) / sides
        entry["agent_score"] = sum(row[r] for r, row in enumerate(entry["scores"])) / sides
    out.write_text(json.dumps(data))


@pytest.mark.long
def test_resume_plays_a_sample_of_the_kept_deals_again_and_refuses_a_forged_file(
    kept: dict[str, Path], tmp_path: Path
) -> None:
    forged = tmp_path / "forged.json"
    _forge(kept["heuristic"], forged, every=True)
    before = forged.read_bytes()
    args = ["evaluate", "heuristic", "--against", "random", *FREE, "--deals", "30", "--resume"]
    done = clubs_in_process([*args, "--out", str(forged)])
    assert done.status == 2, done.stdout
    assert "played again gives other tables than the file holds" in done.stderr and "Traceback" not in done.stderr
    assert forged.read_bytes() == before
    honest = tmp_path / "honest.json"
    honest.write_bytes(kept["heuristic"].read_bytes())
    done = clubs_in_process([*args, "--out", str(honest), "--json"])
    assert done.status == 0, done.stderr
    assert json.loads(done.stdout)["result"] == json.loads(kept["heuristic"].read_text())["result"]
