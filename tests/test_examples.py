"""The examples keep working: each runs at a tiny size."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
from pathlib import Path
from types import ModuleType

import pytest

from cli_helpers import clubs_in_process

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _training_example() -> ModuleType:
    """``examples/train_whist.py`` loaded as a module."""
    spec = importlib.util.spec_from_file_location("train_whist", EXAMPLES / "train_whist.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.long
def test_the_training_example_prints_a_learning_curve_and_exports_a_policy_clubs_evaluate_plays(tmp_path: Path) -> None:
    """Train (whole whist matches, rewarded by who wins, as clubs_whist-v1 scores them) -> export -> evaluate."""
    module = _training_example()
    out = io.StringIO()
    policy = tmp_path / "policy.npz"
    with contextlib.redirect_stdout(out):
        assert (
            module.main(["--episodes", "20", "--eval-every", "10", "--eval-matches", "2", "--export", str(policy)]) == 0
        )
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("episodes")
    assert [line.split()[0] for line in lines[1:4]] == ["0", "10", "20"]
    assert all(line.count("%") == 2 for line in lines[1:4])
    assert lines[4].startswith("change in win rate since episode 0") and lines[4].count("(") == 3
    assert lines[-1].strip() == f"clubs evaluate {policy} --against heuristic --game clubs_whist-v1 --deals 200"
    done = clubs_in_process(
        ["evaluate", str(policy), "--against", "random", "--game", "clubs_whist-v1", "--deals", "30", "--json"]
    )
    assert done.status == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["agent"]["kind"] == "weights" and result["deals"]["played"] == 30


def test_the_training_example_exports_only_a_benchmark_environments_policy(capsys: pytest.CaptureFixture[str]) -> None:
    module = _training_example()
    with pytest.raises(SystemExit) as refused:
        module.main(["--env", "whist-1997", "--export", "p.npz"])
    assert refused.value.code == 2 and "--export writes a policy of a benchmark environment" in capsys.readouterr().err
