"""``--save FILE`` for the long benchmark runs: every finished unit (a deal, a hand) appended to a JSON-lines file as
soon as it is played, and the units already there taken instead of playing them again.

A run of hours is done over several sittings, or in parts on several machines, with the same result as one run:
each unit is seeded by its own number, so which process plays it, and when, changes nothing. A line is ``{"key":
..., "commit": ..., "deal": {...}}``: the key says what the unit was played with (a unit saved with other
settings does not count), the commit which code played it, and the unit's own dict holds its number under
``"deal"`` (the name the OpenSpiel comparison's files were first written with; ``bench/mistakes.py`` numbers hands
there). Used by ``bench/vs_openspiel.py`` and ``bench/mistakes.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any


class Saved:
    """The units of a ``--save`` file by key and number, and the commits that played them; ``path`` None keeps
    them in memory only. A file whose last line was cut off (a run stopped while writing) loses that line, and its
    unit is played again; any other bad line refuses the file, naming the line."""

    def __init__(self, path: Path | None, label: str = "bench") -> None:
        self.path = path
        self.deals: dict[str, dict[int, dict[str, Any]]] = {}
        self.commits: dict[str, set[str]] = {}
        self.commit = checkout_commit()
        self._lock = threading.Lock()
        if path is None:
            return
        if not path.parent.is_dir():
            raise ValueError(f"{path}: no such folder to write it in")
        text = path.read_text() if path.exists() else ""
        lines = text.splitlines()
        if lines and not text.endswith("\n"):  # a run stopped in the middle of writing its last unit
            print(f"[{label}] {path}: the last line is unfinished; it is played again", file=sys.stderr)
            lines.pop()
            path.write_text("".join(line + "\n" for line in lines))
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key, deal = entry["key"], entry["deal"]
                self.deals.setdefault(key, {})[int(deal["deal"])] = deal
                self.commits.setdefault(key, set()).add(str(entry.get("commit", "unknown")))
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}, line {number}: not a saved result ({e})") from None
        with path.open("a"):
            pass  # refuse a file that cannot be written now, not after the first unit

    def get(self, key: str, deal: int) -> dict[str, Any] | None:
        """The saved result of this unit in this group, if any."""
        return self.deals.get(key, {}).get(deal)

    def add(self, key: str, deal: dict[str, Any]) -> None:
        """Keep a finished unit (its number under ``"deal"``), on disk at once, with the commit of the code that
        played it (safe to call from the thread that completes a worker's task)."""
        with self._lock:
            self.deals.setdefault(key, {})[deal["deal"]] = deal
            self.commits.setdefault(key, set()).add(self.commit)
            if self.path is not None:
                with self.path.open("a") as f:
                    f.write(json.dumps({"key": key, "commit": self.commit, "deal": deal}) + "\n")


def checkout_commit() -> str:
    """The git commit of the code that plays ("unknown" outside a git checkout), with ``+`` when the work tree has
    changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if head.returncode != 0:
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")
