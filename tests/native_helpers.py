"""The compiled kernels in the tests: a kernel module whether or not CLUBS_PURE_PYTHON is set, or a skip where it is
not built (no C compiler at install time); CI sets CLUBS_REQUIRE_NATIVE=1, which turns the skip into a failure, so
that a kernel that failed to build cannot hide behind skipped tests."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from clubsuite.native import compiled


def kernel_or_skip(module: str) -> ModuleType:
    """The compiled module ``module`` (a game's ``_core``)."""
    core = compiled(module)
    if core is None:
        if os.environ.get("CLUBS_REQUIRE_NATIVE"):
            pytest.fail(f"{module} is not built (CLUBS_REQUIRE_NATIVE is set): see the install log")
        pytest.skip(f"{module} is not built here (no C compiler at install time)")
    return core


def printed_without_the_compiled_core(code: str) -> list[str]:
    """What the Python ``code`` prints, run in a new interpreter with the kernels turned off (CLUBS_PURE_PYTHON=1:
    the setting is read as the package loads), split into words."""
    import subprocess
    import sys

    env = {**os.environ, "CLUBS_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, timeout=300
    )
    return done.stdout.split()
