"""Held-out deal sets for a leaderboard (``clubsuite.benchmark.heldout``, docs/research.md "The leaderboard"): a set
is dealt from a secret seed that no output ever names; it is played only from a secret file that deals exactly the
deals published for it; its results name the set and pair only with results on the same set."""

from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.benchmark import heldout
from clubsuite.benchmark.heldout import dealt, read_secret
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.benchmarks import ENVS, deal_records, match_seed

FREE = ENVS["clubs_free-v1"]


@pytest.fixture
def made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, int, str]:
    """A held-out set of 30 deals of Free Clubs, made by the command and published in a file of the test's own; its
    secret's path, its seed and what the command printed."""
    secret = tmp_path / "keepers" / "free-a.json"
    secret.parent.mkdir()
    monkeypatch.setattr(heldout, "PUBLISHED", tmp_path / "heldout.json")
    (tmp_path / "heldout.json").write_text(json.dumps({"about": "", "sets": {}}))
    outcome = clubs_in_process(
        ["evaluate", "held-out", "clubs_free-v1", "--name", "free-a", "--deals", "30", "--out", str(secret)]
    )
    assert outcome.status == 0, outcome.stderr
    public = json.loads(outcome.stdout)
    (tmp_path / "heldout.json").write_text(json.dumps({"about": "", "sets": public}))
    seed = int(json.loads(secret.read_text())["seed"])
    return secret, seed, outcome.stdout + outcome.stderr


def test_a_held_out_secret_is_readable_by_its_owner_alone_and_the_public_half_never_names_its_seed(
    made: tuple[Path, int, str],
) -> None:
    secret, seed, printed = made
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert seed.bit_length() > 64 and str(seed) not in printed
    public = json.loads(printed[: printed.rindex("}") + 1])["free-a"]
    assert public == {"env": "clubs_free-v1", "deals": 30, "deals_sha256": public["deals_sha256"]}
    again = clubs_in_process(
        ["evaluate", "held-out", "clubs_free-v1", "--name", "free-b", "--deals", "30", "--out", str(secret)]
    )
    assert again.status == 2 and "never written over" in again.stderr
    assert int(json.loads(secret.read_text())["seed"]) == seed  # the secret there is left as it was


def test_a_held_out_set_deals_from_its_secret_seed_not_the_public_one(made: tuple[Path, int, str]) -> None:
    secret, seed, _ = made
    held = read_secret(secret)
    assert held.held_out == "free-a" and held.count == 30 and held.seed == seed
    assert match_seed(held, 5) != match_seed(FREE, 5)
    assert list(deal_records(held, 3)) != list(deal_records(FREE, 3))
    assert list(deal_records(held, 3)) == list(deal_records(dealt(FREE, "free-a", seed, 30), 3))


def _played(path: Path, *args: str) -> Any:
    done = clubs_in_process(["evaluate", "heuristic", "--against", "random", *args, "--out", str(path)])
    assert done.status == 0, done.stderr
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw), done


def test_an_evaluation_on_a_held_out_set_names_the_set_never_its_seed_and_pairs_only_with_the_same_set(
    made: tuple[Path, int, str], tmp_path: Path
) -> None:
    secret, seed, _ = made
    data, done = _played(tmp_path / "held.json.gz", "--held-out", str(secret), "--deals", "30")
    text = json.dumps(data) + done.stdout + done.stderr
    assert str(seed) not in text and str(secret.parent) not in text
    assert data["deals"] == {"held_out": "free-a", "set": 30, "played": 30}
    assert data["env"]["held_out"]["name"] == "free-a" and data["env"]["id"] == "clubs_free-v1"
    assert data["command"].endswith("--held-out free-a.json")
    public, _ = _played(tmp_path / "public.json", "--game", "clubs_free-v1", "--deals", "30")
    assert [d["actions_sha256"] for d in data["per_deal"]] != [d["actions_sha256"] for d in public["per_deal"]]
    refused = clubs_in_process(["evaluate", "compare", str(tmp_path / "held.json.gz"), str(tmp_path / "public.json")])
    assert refused.status == 2 and "(clubs_free-v1 (held-out set free-a) and clubs_free-v1," in refused.stderr
    kept = ["--deals", "30", "--resume", "--out", str(tmp_path / "held.json.gz")]
    resumed = clubs_in_process(  # a held-out file is taken up only with its secret, and its sample played again
        ["evaluate", "heuristic", "--against", "random", "--held-out", str(secret), *kept]
    )
    assert resumed.status == 0, resumed.stderr
    wrong = clubs_in_process(["evaluate", "heuristic", "--against", "random", "--game", "clubs_free-v1", *kept])
    assert wrong.status == 2 and "another environment" in wrong.stderr


def _secret_text(secret: Path, **changes: object) -> str:
    data = json.loads(secret.read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"seed": "12345"}, "does not deal the deals published for free-a"),
        ({"name": "free-z"}, "no held-out set named 'free-z' is published"),
        ({"deals": 40}, "published for other deals"),
        ({"env": "clubs_whist-v1"}, "published for other deals"),
        ({"seed": 12345}, "'seed' must be a whole number written as text"),
        ({"format": "other"}, "is not a held-out set's secret"),
        ({"name": "Free A!"}, "a set's name is 1 to 64 lowercase letters"),
        ({"deals": True}, "'deals' must be a whole number"),
        ({"seed": "\u00b2\u00b3"}, "'seed' must be a whole number written as text"),
    ],
)
def test_a_secret_that_is_not_a_published_sets_is_refused_naming_the_rule(
    made: tuple[Path, int, str], tmp_path: Path, change: dict[str, object], says: str
) -> None:
    secret, seed, _ = made
    forged = tmp_path / "forged.json"
    forged.write_text(_secret_text(secret, **change))
    outcome = clubs_in_process(["evaluate", "heuristic", "--against", "random", "--held-out", str(forged)])
    assert outcome.status == 2 and says in outcome.stderr, outcome.stderr
    assert str(seed) not in outcome.stderr
    assert_safe_output(outcome)


def test_a_held_out_run_is_refused_for_another_game_more_deals_or_a_file_that_is_not_a_secret(
    made: tuple[Path, int, str], tmp_path: Path
) -> None:
    secret, _, _ = made
    base = ["evaluate", "heuristic", "--against", "random", "--held-out"]
    other = clubs_in_process([*base, str(secret), "--game", "clubs_whist-v1"])
    assert other.status == 2 and "is a set of clubs_free-v1, not of --game clubs_whist-v1" in other.stderr
    more = clubs_in_process([*base, str(secret), "--deals", "31"])
    assert more.status == 2 and "the held-out set free-a has 30 deals" in more.stderr
    big = tmp_path / "big.json"
    big.write_text(" " * 5000)
    assert "holds more than a held-out set's secret" in clubs_in_process([*base, str(big)]).stderr
    (tmp_path / "not.json").write_text("{")
    assert "is not JSON" in clubs_in_process([*base, str(tmp_path / "not.json")]).stderr
    assert "cannot be read" in clubs_in_process([*base, str(tmp_path / "none.json")]).stderr
    os.mkfifo(tmp_path / "pipe.json")  # never waited on
    assert "is not a regular file" in clubs_in_process([*base, str(tmp_path / "pipe.json")]).stderr
    nowhere = ["evaluate", "held-out", "clubs_free-v1", "--name", "free-c", "--deals", "30", "--out"]
    nowhere.append(str(tmp_path / "no" / "s.json"))
    assert "cannot be written" in clubs_in_process(nowhere).stderr


def test_a_held_out_set_is_made_only_under_a_new_good_name_and_size(
    made: tuple[Path, int, str], tmp_path: Path
) -> None:
    with pytest.raises(InvalidOptionsError, match="published already"):
        heldout.make(FREE, "free-a", 30, tmp_path / "x.json")
    with pytest.raises(InvalidOptionsError, match="lowercase letters"):
        heldout.make(FREE, "../x", 30, tmp_path / "x.json")
    with pytest.raises(InvalidOptionsError, match="30 to 10000 deals"):
        heldout.make(FREE, "free-c", 20, tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()


def test_the_package_publishes_only_well_formed_held_out_sets() -> None:
    data = json.loads(heldout.PUBLISHED.read_text(encoding="utf-8"))
    assert set(data) == {"about", "sets"} and isinstance(data["about"], str) and isinstance(data["sets"], dict)
    for name, public in data["sets"].items():  # a public half only: never a seed beside it until the set retires
        assert set(name) <= heldout.NAME_CHARS and set(public) <= {"env", "deals", "deals_sha256", "seed"}
        assert public["env"] in ENVS and heldout.MIN_DEALS <= public["deals"] <= heldout.MAX_DEALS
        assert len(public["deals_sha256"]) == 64
