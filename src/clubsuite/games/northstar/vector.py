"""The North Star part ``vector``: tables in the compiled kernel (``vector.h``) for the vector environments
(:mod:`clubsuite.rl.tables`).

The kernel plays the random bot, the heuristic bot (its weights chosen as the registered bot chooses them, for Crazy
CLUBS or not), the learned bot and seats played from outside under every rules option (2 to 6 players, teams, double
or nothing, wild 15s, Crazy CLUBS, either reading of the kept pack, any club points and goal); with any other bot, or
where the kernel is not built or is turned off, :func:`kernel_tables` returns None and the environments play on the
engine's path, with the same results (``tests/test_rl_vector.py``, ``tests/test_rl_selfplay.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.northstar.bot import CRAZY_WEIGHTS, PLAIN_WEIGHTS
from clubsuite.games.northstar.bulk import CORE, kernel_options
from clubsuite.games.northstar.options import NorthstarOptions
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
    if core is None or kinds is None or not isinstance(options, NorthstarOptions):
        return None
    weights = CRAZY_WEIGHTS if options.crazy else PLAIN_WEIGHTS  # as the registered bot chooses them
    tables: object = core.VectorTables(
        n,
        kernel_options(options),
        max_hands,
        reward == "points",
        -1 if seat is None else seat,
        kinds,
        [getattr(weights, name) for name in core.WEIGHT_FIELDS],
        layers,
    )
    return tables
