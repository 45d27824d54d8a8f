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
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast


class KernelMismatchError(Exception):
    """A kernel and the engine disagreed (raised by the games' differential checks, ``games/<game>/differential.py``:
    a bug in the kernel, since the engine is the rules' source)."""


EV_NONE, EV_PLAY_STARTED, EV_TRICK, EV_SCORED = 0, 1, 2, 3
"""What a kernel's step reports beyond the action itself (the same codes in every game's ``core.h``)."""


def expect(agree: bool, seed: int, what: str | Callable[[], str]) -> None:
    """Raise :class:`KernelMismatchError` naming the match seed and ``what`` differed, unless they ``agree``
    (``what`` may be a function that words it, called only then: the checks run millions of times)."""
    if not agree:
        raise KernelMismatchError(f"match seed {seed}: {what if isinstance(what, str) else what()}")


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


def finish_in_kernel(
    match: object, spec: str, match_type: type, chosen: Callable[[Any], Iterable[object] | None]
) -> bool:
    """A game's ``playout`` part, the same in every game: where ``spec`` is the heuristic bot and ``match`` is of
    ``match_type``, ``chosen(match)`` asks the game's kernel for every action left in the hand (None where the kernel
    cannot play it: not built, turned off, no hand in progress) and each is applied to ``match`` through its own
    ``apply``, which checks it and scores the hand as always. False, with ``match`` untouched, when the engine is to
    play the hand instead."""
    if spec.strip() != "heuristic" or not isinstance(match, match_type):
        return False
    actions = chosen(match)
    if actions is None:
        return False
    apply = cast("Any", match).apply
    for action in actions:
        apply(action)
    return True


M = TypeVar("M")


def compiled_match_class(module: str, python: type[M]) -> type[M] | None:
    """The compiled match class of the game whose kernel is ``module`` (``native/compiled_match.pxi``): a subclass of
    the engine's ``python`` class whose hands are compiled and whose ``apply``, ``legal_actions``, ``view`` and
    ``to_act`` take the common case in C; None where the kernel is not built, or ``CLUBS_PURE_PYTHON`` is set when
    the game's match module is imported (the kernel is then not even loaded). Made once; the engine's class is left
    as it is defined."""
    core = kernel(module)
    return None if core is None else cast(type[M], core.match_class(python))


def match_class_for(python: type[M], compiled_class: type[M] | None) -> type[M]:
    """The class a new match is made of: ``compiled_class`` where the kernel is built, unless
    ``CLUBS_PURE_PYTHON`` is set when the match is made; the engine's ``python`` class otherwise. The two behave the
    same in every respect but speed (each game's ``tests/<game>/test_compiled_hand_<game>.py``)."""
    return python if compiled_class is None or pure_python() else compiled_class
