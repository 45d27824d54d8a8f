"""The page's core stands alone: the rules, views, presentation, records, lessons, the bots up to ``hard``, the
offline table and the shipped puzzles import and play with the standard library alone, as in the page's Python.

The check runs ``tests/core_alone.py`` in a fresh interpreter started without its site packages (``-S``: NumPy,
Click, Rich, Babel, OpenSkill and the server's packages are not even on its path), on the very core the app ships
(``clubsuite.app.build.core_zip``, unpacked: a module the zip leaves out is missing here too), with clubsuite's
compiled modules refused too, and plays a whole match of every game against easy and normal bots (the easy table
coached: the lesson's steps), a hand against hard bots, each record replayed, and judges a shipped puzzle of every
pool."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from clubsuite.app.build import core_zip
from clubsuite.engine import games

ROOT = Path(__file__).resolve().parents[1]


def test_the_core_plays_every_game_offline_with_the_standard_library_alone(tmp_path: Path) -> None:
    with zipfile.ZipFile(io.BytesIO(core_zip())) as shipped:
        shipped.extractall(tmp_path / "core")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "core")}
    env.pop("PYTHONHOME", None)
    done = subprocess.run(
        [sys.executable, "-S", str(ROOT / "tests" / "core_alone.py")],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    for info in games():
        assert f"played {info.name} against easy bots: the match, with the lesson" in lines
        assert f"played {info.name} against normal bots: the match" in lines
        assert f"played {info.name} against hard bots: a hand" in lines
        assert any(line.startswith("puzzle ") and line.endswith(tuple("0123456789")) and info.name in line
                   for line in lines)  # fmt: skip
    assert json.loads(lines[-1]) == {"compiled": [], "outside": []}
