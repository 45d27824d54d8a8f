"""A hostile weights file costs no more memory than its checked size (issue 69, item 11): the file's size is
checked before a byte is read or hashed, every ``.npy`` header is checked (dimensions not negative, their product
in Python's integers, the total bounded) before its numbers are read, and a compressed entry is read in bounded
pieces, refused as soon as it holds more than its header said. Memory is measured with ``tracemalloc`` (NumPy and
Python both report to it), never with a clock."""

from __future__ import annotations

import io
import json
import os
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_helpers import clubs_in_process
from clubsuite.bots import policy as weights
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.agents import agent
from clubsuite.rl.benchmarks import ENVS

WHIST = ENVS["clubs_whist-v1"]
MB = 1 << 20
ZEROS_MB = 160
"""How much a hostile entry inflates to: far above what a check may cost (:data:`BOUND`), well under the
largest file read (so only the reading of the entry, not the file's size, can refuse it)."""
BOUND = 24 * MB
"""The most a refusal may cost (a few pieces of an entry, the archive's directory, the messages)."""


def meta() -> bytes:
    """The ``.npy`` bytes of a good ``meta`` entry."""
    out = io.BytesIO()
    head = {"format": "clubsuite-policy", "version": 1, "env": WHIST.id, "layers": 1}
    np.lib.format.write_array(out, np.frombuffer(json.dumps(head).encode(), np.uint8))
    return out.getvalue()


def hostile(path: Path, shape: tuple[int, ...], zeros_mb: int = ZEROS_MB, descr: str = "<f4") -> Path:
    """A small archive whose ``w0`` entry's header claims ``shape`` and whose numbers are ``zeros_mb`` MB of
    zeros deflated at the fastest level (under a megabyte on disk)."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": descr, "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("meta.npy", meta())
        with archive.open("w0.npy", "w", force_zip64=True) as member:
            member.write(header.getvalue())
            piece = bytes(MB)
            for _ in range(zeros_mb):
                member.write(piece)
    assert path.stat().st_size < 2 * MB
    return path


def peak_of(call: Callable[[], Any]) -> tuple[str, int]:
    """The refusal ``call`` raises, and the most memory it held on the way."""
    tracemalloc.start()
    try:
        with pytest.raises(InvalidOptionsError) as refused:
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return str(refused.value), peak


@pytest.mark.parametrize(
    ("shape", "rule"),
    [
        ((-1, 4), "a negative dimension"),
        ((3, 6148914691236517205), "more than"),  # 3 x that is 2**64 - 1: -1 in 64-bit integers
        ((1 << 62, 4), "more than"),  # 2**64 bytes: 0 in 64-bit integers
    ],
)
def test_a_header_with_a_negative_or_wrapping_shape_is_refused_before_its_numbers_are_read(
    tmp_path: Path, shape: tuple[int, ...], rule: str
) -> None:
    path = hostile(tmp_path / "hostile.npz", shape)
    said, peak = peak_of(lambda: agent(str(path), WHIST))
    assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"
    assert "hostile.npz" in said and rule in said and "w0" in said, said


def test_an_entry_that_inflates_past_its_header_is_refused_after_reading_no_more_than_the_header_said(
    tmp_path: Path,
) -> None:
    path = hostile(tmp_path / "long.npz", (4, 4))  # 64 bytes said, 160 MB there
    said, peak = peak_of(lambda: agent(str(path), WHIST))
    assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"
    assert "long.npz" in said and "more than its header says" in said and "w0" in said, said


def test_an_entry_shorter_than_its_header_is_refused(tmp_path: Path) -> None:
    path = hostile(tmp_path / "short.npz", (1024, 1024), zeros_mb=1)  # 4 MB said, 1 MB there
    said, _ = peak_of(lambda: agent(str(path), WHIST))
    assert "short.npz" in said and "fewer numbers than its header says" in said, said


def test_an_entry_of_another_type_is_refused_before_its_numbers_are_read(tmp_path: Path) -> None:
    path = hostile(tmp_path / "complex.npz", (1024,), zeros_mb=1, descr="<c16")
    said, _ = peak_of(lambda: agent(str(path), WHIST))
    assert "not a plain array of float32 numbers" in said, said


def raw_member(path: Path, body: bytes, spaces_mb: int = 0) -> Path:
    """A small archive with a good ``meta`` whose ``w0`` entry is ``body`` followed by ``spaces_mb`` MB of deflated
    spaces (what a ``.npy`` header is padded with), deflated at the fastest level."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("meta.npy", meta())
        with archive.open("w0.npy", "w", force_zip64=True) as member:
            member.write(body)
            piece = b" " * MB
            for _ in range(spaces_mb):
                member.write(piece)
    assert path.stat().st_size < 2 * MB
    return path


def test_a_npy_header_that_claims_a_huge_length_is_refused_before_it_is_read(tmp_path: Path) -> None:
    claim = 300 * MB  # a version 2.0 header's length is four bytes: up to 4 GiB
    path = raw_member(tmp_path / "long-header.npz", b"\x93NUMPY\x02\x00" + claim.to_bytes(4, "little"), ZEROS_MB)
    said, peak = peak_of(lambda: agent(str(path), WHIST))
    assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"
    assert "long-header.npz" in said and "w0" in said and "longer than 10,000 bytes" in said, said


@pytest.mark.parametrize(
    ("said_length", "rule"),
    [
        (9_000, "ends inside its .npy header"),  # within the bound, past the entry's end
        (60_000, "longer than 10,000 bytes"),  # a version 1.0 length (two bytes) past the bound
    ],
)
def test_a_version_1_npy_header_longer_than_its_entry_or_the_bound_is_refused(
    tmp_path: Path, said_length: int, rule: str
) -> None:
    body = b"\x93NUMPY\x01\x00" + said_length.to_bytes(2, "little") + b"{'descr': '<f4', " + b" " * 100
    path = raw_member(tmp_path / "cut.npz", body)
    said, peak = peak_of(lambda: agent(str(path), WHIST))
    assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"
    assert "cut.npz" in said and "w0" in said and rule in said, said


def test_a_huge_sparse_file_is_refused_by_its_size_before_a_byte_is_read_or_hashed(tmp_path: Path) -> None:
    path = tmp_path / "sparse.npz"
    with path.open("wb") as f:
        f.truncate(2 << 30)  # 2 GB that take no room on the disk
    said, peak = peak_of(lambda: agent(str(path), WHIST))
    assert "sparse.npz" in said and "larger than 64 MB" in said, said
    assert peak < MB, f"refusing it held {peak / MB:.0f} MB"


def test_a_weights_file_that_is_not_a_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.npz"
    os.mkfifo(fifo)
    with pytest.raises(InvalidOptionsError, match="not a regular file"):
        weights.weights_bytes(fifo)  # opening a pipe to read would wait for a writer


def test_a_huge_archive_directory_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for k in range(20_000):
            archive.writestr(f"{k}.npy", b"")
    said, peak = peak_of(lambda: agent(str(path), WHIST))
    assert "many.npz" in said and "directory" in said, said
    assert peak < 4 * MB, f"refusing it held {peak / MB:.0f} MB"


@pytest.mark.parametrize("shape", [(-1, 4), (3, 6148914691236517205)])
def test_clubs_evaluate_refuses_a_hostile_weights_file_with_status_2_and_no_traceback(
    tmp_path: Path, shape: tuple[int, ...]
) -> None:
    path = hostile(tmp_path / "hostile.npz", shape)
    done = clubs_in_process(["evaluate", str(path), "--deals", "30"])
    assert done.status == 2 and "weights file" in done.stderr and "hostile.npz" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_good_weights_file_is_still_read_whole(tmp_path: Path) -> None:
    from test_benchmark import policy_layers

    path = tmp_path / "good.npz"
    weights.write_policy(path, WHIST.id, policy_layers(WHIST.id))
    made = agent(str(path), WHIST)
    assert made.kind == "weights" and made.sha256 is not None
    policy = made.make(WHIST)
    assert [w.shape for w, _ in policy.policy.layers] == [w.shape for w, _ in policy_layers(WHIST.id)]


@pytest.mark.long
def test_an_entry_compressed_otherwise_than_numpy_writes_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    """zipfile inflates a bzip2 or LZMA entry a whole block at a time, however little is asked of it: 64 MB of
    zeros (well over the bound; fewer to compress than :data:`ZEROS_MB`) come out whole from the first read."""
    for method in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        path = tmp_path / f"packed-{method}.npz"
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False, "shape": (8, 8)})
        with zipfile.ZipFile(path, "w", method) as archive:
            archive.writestr("meta.npy", meta())
            with archive.open("w0.npy", "w", force_zip64=True) as member:
                member.write(header.getvalue())
                for _ in range(64):
                    member.write(bytes(MB))
        said, peak = peak_of(lambda path=path: agent(str(path), WHIST))
        assert path.name in said and "compressed otherwise than NumPy writes" in said, said
        assert peak < BOUND, f"refusing it held {peak / MB:.0f} MB"
