"""The Free Clubs part ``vector``: tables of one learner against bots in the compiled kernel (``vector.h``), for
:class:`clubsuite.rl.vector.ClubsVectorEnv`.

The kernel has the random and the heuristic bot under the default table rules (either reading of the no-spades
bonus, FC-8, any target, FC-9); with any other opponent, in table mode (option ``misplays``, FC-10, whose unlawful
cards and calls only the engine plays), or where the kernel is not built or is turned off, :func:`kernel_tables`
returns None and the environment plays on the engine's path, with the same results (``tests/test_rl_vector.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.free.bot import heuristic_constants
from clubsuite.games.free.bulk import CORE
from clubsuite.games.free.options import FreeOptions
from clubsuite.native import kernel

BOT_KINDS = {"random": 0, "heuristic": 1}
"""The bots the kernel plays, by their number in vector.h."""


def kernel_tables(
    options: object, n: int, opponents: Sequence[str], seat: int | None, reward: str, max_hands: int
) -> object | None:
    """The kernel's ``VectorTables`` for ``n`` tables with these settings (checked by the environment), or None."""
    core = kernel(CORE)
    if core is None or not isinstance(options, FreeOptions) or options.misplays:
        return None
    kinds = [BOT_KINDS.get(name, -1) for name in opponents]
    if -1 in kinds:
        return None
    tables: object = core.VectorTables(
        n,
        (options.target, int(options.no_spades_needs_a_trick)),
        max_hands,
        reward == "points",
        -1 if seat is None else seat,
        kinds,
        heuristic_constants(),
    )
    return tables
