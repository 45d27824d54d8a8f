"""A hostile file of positions costs no more memory than it holds and is refused naming the file and the rule (as a
weights file is, ``test_weights_file_bounds``): a shard may come from anyone (a folder of positions shared with a
paper), so each ``.npy`` header is checked (its dimensions not negative, the environment's widths, at most
``MAX_STEPS_PER_GAME`` rows for each game the file's name covers, one count of rows in all) before its numbers are
read, and the numbers are read as they come, never into room a header merely claimed. Memory is measured with
``tracemalloc``, never with a clock."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clubsuite.coding import coding_for, env_layout
from clubsuite.learning.positions import MAX_STEPS_PER_GAME, read_shards, write_shard
from clubsuite.rl.benchmarks import ENVS
from test_weights_file_bounds import peak_of

WHIST = ENVS["clubs_whist-v1"]
MB = 1 << 20
BOUND = 24 * MB
"""The most a refusal may cost (a few pieces of an entry, the archive's directory, the messages)."""


def widths() -> tuple[int, int]:
    """The whist environment's observation size and action count."""
    coding = coding_for(*WHIST.resolved())
    return env_layout(coding).size, coding.action_count


def entry(array: Any) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, array)
    return out.getvalue()


def shard(folder: Path, arrays: dict[str, bytes], name: str = "games-0000000-0000001.npz") -> Path:
    """A file of positions holding ``arrays`` (the ``.npy`` bytes of each entry, by name), deflated."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for key, data in arrays.items():
            archive.writestr(f"{key}.npy", data)
    return path


def good(rows: int = 3) -> dict[str, bytes]:
    """The entries of a well-made shard of ``rows`` steps (every target a distribution over its mask)."""
    size, actions = widths()
    mask = np.zeros((rows, actions), np.uint8)
    mask[:, 0] = 1
    return {
        "obs": entry(np.zeros((rows, size), np.float16)),
        "mask": entry(mask),
        "target": entry(mask.astype(np.float16)),
        "game": entry(np.zeros(rows, np.int32)),
        "about": entry(np.frombuffer(b"clubs_whist-v1 teacher=heuristic explore=0", np.uint8)),
    }


def lying(shape: tuple[int, ...], descr: str = "<f2", zeros_mb: int = 0) -> bytes:
    """An entry whose header claims ``shape``, followed by ``zeros_mb`` MB of zeros."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": descr, "fortran_order": False, "shape": shape})
    return header.getvalue() + bytes(zeros_mb * MB)


def test_a_well_made_shard_is_read_back(tmp_path: Path) -> None:
    shard(tmp_path, good())
    data, about = read_shards(tmp_path, WHIST)
    assert len(data) == 3 and about == "clubs_whist-v1 teacher=heuristic explore=0"


def test_a_shard_written_by_the_project_is_read_back(tmp_path: Path) -> None:
    from clubsuite.learning.positions import play_games

    steps = play_games(WHIST.id, "heuristic", 0, 1, 0)  # game 0
    write_shard(tmp_path / "games-0000000-0000000.npz", steps, WHIST, "heuristic", 0)
    data, _ = read_shards(tmp_path, WHIST)
    assert len(data) == len(steps.game) > 0


@pytest.mark.parametrize(
    ("key", "shape", "rule"),
    [
        ("obs", (-1, 650), "a negative dimension"),
        ("obs", (3, 7), "not steps x"),  # another environment's width
        ("game", (2 * MAX_STEPS_PER_GAME + 1,), "more than"),  # the name covers two games
        ("target", (4, 54), "where the others hold"),  # rows that disagree
        ("obs", (1 << 40, 650), "more than"),  # claims terabytes, holds a few bytes
    ],
)
def test_a_header_that_does_not_fit_the_environment_or_the_games_is_refused_before_its_numbers_are_read(
    tmp_path: Path, key: str, shape: tuple[int, ...], rule: str
) -> None:
    size, actions = widths()
    fixed = tuple(size if d == 650 else actions if d == 54 else d for d in shape)
    arrays = good()
    arrays[key] = lying(fixed)
    path = shard(tmp_path, arrays)
    said, peak = peak_of(lambda: read_shards(tmp_path, WHIST))
    assert str(path) in said and key in said and rule in said, said
    assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"


def test_a_header_claiming_more_rows_than_its_entry_holds_costs_only_what_it_holds(tmp_path: Path) -> None:
    size, _ = widths()
    arrays = good()
    rows = 2 * MAX_STEPS_PER_GAME  # allowed by the name (two games): about 13 MB claimed, 1 MB held
    arrays["obs"] = lying((rows, size), zeros_mb=1)
    path = shard(tmp_path, arrays)
    said, peak = peak_of(lambda: read_shards(tmp_path, WHIST))
    assert str(path) in said and "fewer numbers than its header says" in said, said
    assert peak < 8 * MB, f"refusing it held {peak / MB:.0f} MB"


@pytest.mark.parametrize(
    ("arrays", "rule"),
    [
        ({"code": entry(np.zeros(3, np.uint8))}, "is not one a file of positions holds"),
        ({"about": entry(np.zeros(5000, np.uint8))}, "is not short text"),
        ({"obs": entry(np.array(["x"], dtype=object))}, "not a plain array"),
    ],
)
def test_an_entry_a_shard_never_holds_is_refused_naming_it(tmp_path: Path, arrays: dict[str, bytes], rule: str) -> None:
    base = good()
    if "code" in arrays:
        del base["about"]  # as many entries as a shard has, one of them not a shard's
    shard(tmp_path, {**base, **arrays})
    said, _ = peak_of(lambda: read_shards(tmp_path, WHIST))
    assert rule in said, said


def test_a_file_that_is_no_archive_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "games-0000000-0000001.npz"
    path.write_bytes(b"not a zip at all" * 100)
    said, _ = peak_of(lambda: read_shards(tmp_path, WHIST))
    assert str(path) in said and "not a NumPy .npz archive" in said, said


def test_a_file_whose_name_covers_more_games_than_a_shard_holds_is_refused_unread(tmp_path: Path) -> None:
    path = shard(tmp_path, good(), name="games-0000000-9999999.npz")
    said, peak = peak_of(lambda: read_shards(tmp_path, WHIST))
    assert str(path) in said and "more than a file holds (10,000)" in said, said
    assert peak < MB


@pytest.mark.long
def test_an_entry_compressed_otherwise_than_numpy_writes_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    """zipfile inflates a bzip2 entry a whole block at a time: 64 MB of zeros (well over the bound) in under a
    hundred bytes would be inflated at once to read a header of eight."""
    path = tmp_path / "games-0000000-0000001.npz"
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as archive,
        archive.open("obs.npy", "w", force_zip64=True) as member,
    ):
        member.write(lying((3, widths()[0])))
        for _ in range(64):
            member.write(bytes(MB))
    assert path.stat().st_size < 64 * 1024
    said, peak = peak_of(lambda: read_shards(tmp_path, WHIST))
    assert str(path) in said and "compressed otherwise than NumPy writes" in said, said
    assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"
