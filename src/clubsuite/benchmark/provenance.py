"""Where an evaluation was obtained, as its JSON names it: the code (the package's version and, in a git checkout,
its commit), the versions of what it ran on, and the machine. Another lab reading a result can then tell whether
its own run is of the same code, and why its CPU figures differ."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

from clubsuite import __version__
from clubsuite.jsonform import JsonObject
from clubsuite.native import built, pure_python

GIT_TIMEOUT_S = 10.0
"""The longest a ``git`` call may take (a checkout on a slow disk): past it the commit is not named."""


def source_commit() -> str | None:
    """The commit of the git checkout the package runs from (``+changes`` after it where tracked files differ from
    it), or None where it is not run from one (an installed wheel) or git is not there."""
    root = Path(__file__).resolve().parents[3]  # src/clubsuite/benchmark/provenance.py -> the checkout
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=GIT_TIMEOUT_S
        )
        changed = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    commit = head.stdout.strip()
    if head.returncode != 0 or len(commit) != 40:
        return None
    return commit + ("+changes" if changed.returncode != 0 or changed.stdout.strip() else "")


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _processor() -> str:
    """The processor's model name (Linux's ``/proc/cpuinfo``), else what :mod:`platform` says."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@functools.cache
def provenance() -> JsonObject:
    """The code, the versions and the machine of this process (see the module docstring): worked out once a process
    (the code a process runs does not change)."""
    return {
        "commit": source_commit(),
        "versions": {
            "clubsuite": __version__,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "numpy": _version("numpy"),
            "compiled_kernels": [] if pure_python() else [game for game, here in built().items() if here],
        },
        "machine": {
            "system": platform.system(),
            "release": platform.release(),
            "architecture": platform.machine(),
            "processor": _processor(),
            "cores": os.cpu_count(),
        },
    }
