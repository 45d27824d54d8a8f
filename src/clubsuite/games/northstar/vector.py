"""The North Star part ``vector``: tables of one learner against bots in the compiled kernel (``vector.h``), for
:class:`clubsuite.rl.vector.ClubsVectorEnv`.

The kernel has the random and the heuristic bot (its weights chosen as the registered bot chooses them, for Crazy
CLUBS or not) under every rules option (2 to 6 players, teams, double or nothing, wild 15s, Crazy CLUBS, either
reading of the kept pack, any club points and goal); with any other opponent, or where the kernel is not built or is
turned off, :func:`kernel_tables` returns None and the environment plays on the engine's path, with the same results
(``tests/test_rl_vector.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.northstar.bot import CRAZY_WEIGHTS, PLAIN_WEIGHTS
from clubsuite.games.northstar.bulk import CORE, kernel_options
from clubsuite.games.northstar.options import NorthstarOptions
from clubsuite.native import kernel

BOT_KINDS = {"random": 0, "heuristic": 1}
"""The bots the kernel plays, by their number in vector.h."""


def kernel_tables(
    options: object, n: int, opponents: Sequence[str], seat: int | None, reward: str, max_hands: int
) -> object | None:
    """The kernel's ``VectorTables`` for ``n`` tables with these settings (checked by the environment), or None."""
    core = kernel(CORE)
    if core is None or not isinstance(options, NorthstarOptions):
        return None
    kinds = [BOT_KINDS.get(name, -1) for name in opponents]
    if -1 in kinds:
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
    )
    return tables
