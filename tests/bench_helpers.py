"""Loading a script of ``bench/`` as a module in the tests (the scripts are not part of the package), and running
its ``main`` for its JSON."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name: str, register: bool = False) -> Any:
    """``bench/<name>.py`` as a module; ``register`` also puts it in ``sys.modules`` under its name (so that the
    processes a script spawns can unpickle its tasks; the caller removes it again, for example by monkeypatch)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))  # as when the script is run: its sibling modules (``saved``) import by name
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_json(module: Any, args: list[str]) -> dict[str, Any]:
    """``module.main(args)`` (which must print JSON and return 0), its output parsed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert module.main(args) == 0
    result: dict[str, Any] = json.loads(out.getvalue())
    return result
