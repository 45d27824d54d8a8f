"""Evaluation files (``clubs evaluate --out``) read back, for ``--resume`` and for ``clubs evaluate compare``: every
check made before anything in the file is used, and every refusal naming the file and what is wrong.

A file comes from anywhere (another lab, a download): it is read at most :data:`MAX_KEPT_BYTES` unpacked, parsed as
JSON, and each deal it holds is checked (:func:`clubsuite.benchmark.evaluate.deal_from_json`: numbers in range, a
result that is what its scores make, the hash of its actions).
"""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from clubsuite.benchmark.evaluate import DealResult, deal_from_json
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.records.files import path_text

MAX_KEPT_BYTES = 512 * 1024 * 1024
"""The most an evaluation file read back may hold, unpacked (10,000 deals with every decision's CPU take some tens
of MB)."""
MAX_SIDES = 16
"""The most sides a file may name (the games have up to 8 seats)."""


@dataclass
class Kept:
    """An evaluation file read back: its JSON (less its deals) and its deals by number."""

    data: JsonObject
    deals: dict[int, DealResult]


def read_json(path: Path, where: str) -> JsonObject:
    """The evaluation file at ``path`` as JSON, read within bounds (``where`` begins every refusal)."""
    try:
        with gzip.open(path) if path.name.endswith(".gz") else path.open("rb") as f:
            raw = f.read(MAX_KEPT_BYTES + 1)
        if len(raw) > MAX_KEPT_BYTES:
            raise InvalidOptionsError(f"{where} holds more than {MAX_KEPT_BYTES // (1024 * 1024)} MB")
        data = json.loads(raw)
    except OSError as exc:  # gzip's BadGzipFile is one
        raise InvalidOptionsError(f"{where} cannot be read: {exc.strerror or exc}") from None
    except (ValueError, RecursionError, EOFError, zlib.error):
        raise InvalidOptionsError(f"{where} is damaged or not JSON") from None
    if not isinstance(data, dict) or data.get("format") != "clubsuite-evaluation" or data.get("version") != 1:
        raise InvalidOptionsError(f"{where} is not an evaluation written by clubs evaluate --out")
    return data


def sides_count(data: JsonObject, where: str) -> int:
    """How many sides the file's evaluation has (its ``sides``: a list of seat lists), checked."""
    sides = data.get("sides")
    if (
        not isinstance(sides, list)
        or not 2 <= len(sides) <= MAX_SIDES
        or not all(isinstance(side, list) and side and all(isinstance(s, int) for s in side) for side in sides)
    ):
        raise InvalidOptionsError(f"{where}: its sides are not a list of 2 to {MAX_SIDES} lists of seats")
    return len(sides)


def read_deals(data: JsonObject, sides: int, where: str) -> dict[int, DealResult]:
    """The deals of the file's ``per_deal``, by number, each checked; a deal held twice is refused."""
    entries = data.get("per_deal")
    if not isinstance(entries, list):
        raise InvalidOptionsError(f"{where} holds no deals (per_deal): it was not written with --out")
    kept: dict[int, DealResult] = {}
    for entry in entries:
        try:
            deal = deal_from_json(entry, sides)
        except ValueError as exc:
            raise InvalidOptionsError(f"{where}: {exc}") from None
        if deal.deal in kept:
            raise InvalidOptionsError(f"{where} holds deal {deal.deal} twice")
        kept[deal.deal] = deal
    return kept


def read_evaluation(path: Path, where: str | None = None) -> Kept:
    """The evaluation file at ``path`` with its deals, every check made (``where`` begins every refusal: the file's
    name where None)."""
    where = where if where is not None else path_text(path)
    data = read_json(path, where)
    deals = read_deals(data, sides_count(data, where), where)
    return Kept({k: v for k, v in data.items() if k != "per_deal"}, deals)
