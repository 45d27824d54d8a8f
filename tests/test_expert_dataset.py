"""The dataset of ``expert`` games (``tools/expert_dataset.py``, docs/learning.md): the shipped sample holds what its
pinned hashes say, reads as positions do, keeps the search's values where the step allows an id, and is made again
exactly by the same command."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from clubsuite.learning.positions import read_shards
from clubsuite.rl.benchmarks import find_env

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("expert_dataset", ROOT / "tools" / "expert_dataset.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["expert_dataset"] = module
    spec.loader.exec_module(module)
    return module


def test_every_shipped_sample_file_holds_what_its_pinned_hash_says() -> None:
    tool = _tool()
    pins = json.loads(tool.PINS.read_text(encoding="utf-8"))[f"{tool.SAMPLE_GAMES} games"]
    assert sorted(pins) == sorted(tool.ENVS)
    for env, files in pins.items():
        for name, digest in files.items():
            assert tool.content_sha256(tool.SAMPLE / env / "expert" / name) == digest, (env, name)


def test_the_sample_reads_as_positions_with_a_value_for_the_ids_a_step_allows() -> None:
    tool = _tool()
    for env_id in tool.ENVS:
        folder = tool.SAMPLE / env_id / "expert"
        data, about = read_shards(folder, find_env(env_id))
        assert len(data) > 10 and "teacher=expert" in about
        (path,) = folder.glob("games-*.npz")
        with np.load(path, allow_pickle=False) as arrays:
            value, mask = arrays["value"], arrays["mask"].astype(bool)
        assert np.isnan(value[~mask]).all()
        assert np.isfinite(np.where(mask, value, np.nan)).any(axis=1).all()  # the search valued a way on, at least


def test_the_same_command_makes_the_sample_again_exactly(tmp_path: Path) -> None:
    """The positions are the same on every machine: Free Clubs' two games made again hash as pinned."""
    tool = _tool()
    (made,) = tool.make("clubs_free-v1", tool.SAMPLE_GAMES, tmp_path, 1)
    pins = json.loads(tool.PINS.read_text(encoding="utf-8"))[f"{tool.SAMPLE_GAMES} games"]
    assert tool.content_sha256(made) == pins["clubs_free-v1"][made.name]
