"""The examples keep working: each runs at a tiny size."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.long
def test_the_training_example_prints_a_learning_curve() -> None:
    spec = importlib.util.spec_from_file_location("train_whist", EXAMPLES / "train_whist.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert module.main(["--episodes", "20", "--eval-every", "10", "--eval-matches", "2"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("hands")
    assert [line.split()[0] for line in lines[1:4]] == ["0", "10", "20"]
    assert all(line.count("%") == 2 for line in lines[1:4])
    assert lines[4].startswith("change in win rate since hand 0") and lines[4].count("(") == 3
