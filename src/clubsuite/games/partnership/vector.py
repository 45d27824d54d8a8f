"""The partnership part ``vector``: tables of one learner against bots in the compiled kernel (``vector.h``), for
:class:`clubsuite.rl.vector.ClubsVectorEnv`.

The kernel has the random and the heuristic bot; with any other opponent, or where the kernel is not built or is
turned off, :func:`kernel_tables` returns None and the environment plays on the engine's path, with the same
results (``tests/test_rl_vector.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.partnership.bulk import CORE
from clubsuite.games.partnership.options import PartnershipOptions
from clubsuite.native import kernel

BOT_KINDS = {"random": 0, "heuristic": 1}
"""The bots the kernel plays, by their number in vector.h."""


def kernel_tables(
    options: object, n: int, opponents: Sequence[str], seat: int | None, reward: str, max_hands: int
) -> object | None:
    """The kernel's ``VectorTables`` for ``n`` tables with these settings (checked by the environment), or None."""
    core = kernel(CORE)
    if core is None or not isinstance(options, PartnershipOptions):
        return None
    kinds = [BOT_KINDS.get(name, -1) for name in opponents]
    if -1 in kinds:
        return None
    tables: object = core.VectorTables(
        n, (options.target,), max_hands, reward == "points", -1 if seat is None else seat, kinds
    )
    return tables
