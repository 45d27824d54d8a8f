"""What the ``clubs learn`` commands share (:mod:`clubsuite.cli.learn`, :mod:`clubsuite.cli.learn_ppo`): the
options of a weights file to train, one BLAS thread, how a record names a path, ``--hidden``'s widths."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import click

from clubsuite.benchmark.evaluate import BLAS_THREADS
from clubsuite.errors import InvalidOptionsError

MAX_HIDDEN = 4
"""The most hidden layers ``--hidden`` may give."""
MAX_WIDTH = 1024
"""The widest hidden layer ``--hidden`` may give."""


def weights_options(f: Callable[..., None]) -> Callable[..., None]:
    """``--hidden``, ``--seed`` and ``--out``, as both training commands take them."""
    f = click.option(
        "--out",
        type=click.Path(path_type=Path, dir_okay=False),
        required=True,
        help="The weights file to write (.npz); its training record goes beside it (.json).",
    )(f)
    f = click.option(
        "--seed", type=click.IntRange(0, 2**32 - 1), default=0, show_default=True, help="The training seed."
    )(f)
    return click.option("--hidden", default="256,128", show_default=True, help="The widths of the hidden layers.")(f)


def one_blas_thread() -> None:
    """One BLAS thread, set before NumPy loads: a training's CPU is one core's, and a run repeats exactly."""
    for name in BLAS_THREADS:  # before NumPy loads, here and in the workers spawned from here
        os.environ.setdefault(name, "1")


def shown(path: Path) -> str:
    """A path as a training record names it: as given where it is relative, else its name alone (a record never
    holds where a machine keeps its files)."""
    return str(path) if not path.is_absolute() else path.name


def widths_of(text: str) -> tuple[int, ...]:
    """``--hidden``: widths separated by commas."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise InvalidOptionsError(
            f"--hidden {text!r}: widths of hidden layers separated by commas, like 256,128"
        ) from None
    if not 1 <= len(widths) <= MAX_HIDDEN or not all(1 <= w <= MAX_WIDTH for w in widths):
        raise InvalidOptionsError(
            f"--hidden {text!r}: from 1 to {MAX_HIDDEN} hidden layers, each from 1 to {MAX_WIDTH} wide"
        )
    return widths
