"""Parts of a docs page written from the code (the protocol's schemas, the server's limits): the text between two
markers, replaced whole by ``python -m MODULE --write [PAGE]``; a test checks that the page and the code agree."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def write_block(path: Path, block: str, begin: str, end: str) -> bool:
    """Put ``block`` (its markers included) into the page between ``begin`` and ``end``; whether the page changed."""
    text = path.read_text(encoding="utf-8")
    start, stop = text.index(begin), text.index(end) + len(end)
    new = text[:start] + block + text[stop:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: Sequence[str], module: str, page: str, write: Callable[[Path], bool]) -> None:
    """The ``--write [PAGE]`` command of ``module``: writes its block into ``PAGE`` (``page`` by default)."""
    if list(argv[:1]) != ["--write"]:
        sys.exit(f"usage: python -m {module} --write [{page}]")
    print("written" if write(Path(argv[1] if len(argv) > 1 else page)) else "unchanged")
