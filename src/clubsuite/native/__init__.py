"""The compiled core: C kernels for the hot paths, with the pure-Python engine as the fallback.

A game may have a kernel, ``games/<game>/_core`` (Cython over C, built from ``_core.pyx`` and ``core.h`` by
``setup.py``; the random numbers and seeds every kernel shares are in ``native/kernel.h``), and every trick game
may use the shared exact solver, ``native/_solver`` (``native/solve.h``, the search of
:mod:`clubsuite.solver.search`; see :mod:`clubsuite.solver.compiled`). A kernel restates rules the Python engine
states first, and it draws exactly the random numbers the engine draws
(``random.Random`` and :func:`clubsuite.seeding.derive_seed`, reproduced bit for bit), so its results are the
engine's results, only sooner; each game's differential tests hold it to that, comparing every legal set, event
and score over thousands of random matches per variant.

Kernels are built when the package is installed, where Cython and a C compiler are at hand; where they cannot be
built the install goes on without them and every caller takes the Python path, with the same results. The
environment variable ``CLUBS_PURE_PYTHON=1`` makes every caller take the Python path even where the kernels are
built (to compare, or to rule them out when something looks wrong).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType


class KernelMismatchError(Exception):
    """A kernel and the engine disagreed (raised by the games' differential checks, ``games/<game>/differential.py``:
    a bug in the kernel, since the engine is the rules' source)."""


EV_NONE, EV_PLAY_STARTED, EV_TRICK, EV_SCORED = 0, 1, 2, 3
"""What a kernel's step reports beyond the action itself (the same codes in every game's ``core.h``)."""


def expect(agree: bool, seed: int, what: str) -> None:
    """Raise :class:`KernelMismatchError` naming the match seed and ``what`` differed, unless they ``agree``."""
    if not agree:
        raise KernelMismatchError(f"match seed {seed}: {what}")


PURE_ENV = "CLUBS_PURE_PYTHON"
"""The environment variable that, set to anything but empty or ``0``, turns the kernels off."""

_LOADED: dict[str, ModuleType | None] = {}


def pure_python() -> bool:
    """Whether the kernels are turned off by :data:`PURE_ENV` (read at every call, so a test can set it)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def compiled(module: str) -> ModuleType | None:
    """The compiled module ``module`` (e.g. a game's ``_core``) whether or not the kernels are turned off, or None
    where it is not built."""
    if module not in _LOADED:
        try:
            _LOADED[module] = importlib.import_module(module)
        except ImportError:  # not built here: no compiler at install time
            _LOADED[module] = None
    return _LOADED[module]


def kernel(module: str) -> ModuleType | None:
    """The compiled module ``module`` for use: None where it is not built or the kernels are turned off."""
    return None if pure_python() else compiled(module)


def built() -> dict[str, bool]:
    """For each game folder holding a kernel's source, whether its kernel is built here (for set-up messages and
    the benchmarks)."""
    games = Path(__file__).resolve().parent.parent / "games"
    return {
        source.parent.name: compiled(f"clubsuite.games.{source.parent.name}._core") is not None
        for source in sorted(games.glob("*/_core.pyx"))
    }
