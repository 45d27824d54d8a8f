"""The Free Clubs part ``vector``: tables in the compiled kernel (``vector.h``) for the vector environments
(:mod:`clubsuite.rl.tables`).

The kernel plays the random, heuristic and learned bots and seats played from outside under the default table rules
(either reading of the no-spades bonus, FC-8, any target, FC-9); with any other bot, in table mode (option
``misplays``, FC-10, whose unlawful cards and calls only the engine plays), or where the kernel is not built or is
turned off, :func:`kernel_tables` returns None and the environments play on the engine's path, with the same results
(``tests/test_rl_vector.py``, ``tests/test_rl_selfplay.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.free.bot import heuristic_constants
from clubsuite.games.free.bulk import CORE
from clubsuite.games.free.options import FreeOptions
from clubsuite.native import kernel
from clubsuite.native.checks import seat_kinds


def kernel_tables(
    options: object,
    n: int,
    lineup: Sequence[str],
    seat: int | None,
    reward: str,
    max_hands: int,
    layers: Sequence[tuple[object, object]] | None,
) -> object | None:
    """The kernel's ``VectorTables`` for ``n`` tables with these settings (checked by the environment), or None."""
    core = kernel(CORE)
    kinds = seat_kinds(core, lineup)
    if core is None or kinds is None or not isinstance(options, FreeOptions) or options.misplays:
        return None
    tables: object = core.VectorTables(
        n,
        (options.target, int(options.no_spades_needs_a_trick)),
        max_hands,
        reward == "points",
        -1 if seat is None else seat,
        kinds,
        heuristic_constants(),
        layers,
    )
    return tables
