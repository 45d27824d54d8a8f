"""The whist part ``vector``: tables in the compiled kernel (``vector.h``) for the vector environments
(:mod:`clubsuite.rl.tables`).

The kernel plays the random, heuristic and learned bots and seats played from outside; with any other bot, or where
the kernel is not built or is turned off, :func:`kernel_tables` returns None and the environments play on the
engine's path, with the same results (``tests/test_rl_vector.py``, ``tests/test_rl_selfplay.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.whist.bulk import CORE, LEAD_RULES
from clubsuite.games.whist.options import WhistOptions
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
    if core is None or kinds is None or not isinstance(options, WhistOptions):
        return None
    rule = LEAD_RULES[options.lead_after_exchange]
    tables: object = core.VectorTables(
        n, (options.target, rule), max_hands, reward == "points", -1 if seat is None else seat, kinds, (), layers
    )
    return tables
