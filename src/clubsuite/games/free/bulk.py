"""The bulk part of Free Clubs: whole matches played in the compiled kernel (``_core``), for the lineups it knows,
exactly as :func:`clubsuite.runner.play_match` would play them from the same seeds.

The kernel (``core.h``, ``heuristic.h``) knows the random and the heuristic bot in any seats, under the default table
rules with either reading of the no-spades bonus (FC-8) and any target (FC-9). Table mode (option ``misplays``,
FC-10), where a card may be accepted against the rules and called later, and every other bot are left to the
engine: the function returns None, and :func:`clubsuite.sim.bulk.random_matches` plays through the engine.
``tests/free/test_native_free.py`` compares the kernel with the engine decision by decision, and
``tests/free/test_heuristic_free.py`` the heuristic bots' matches with the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.free.bot import heuristic_constants
from clubsuite.games.free.options import FreeOptions
from clubsuite.native import kernel
from clubsuite.runner import BulkResult

CORE = "clubsuite.games.free._core"
"""The compiled kernel's module."""


def compiled_matches(options: object, bots: Sequence[str], match_seeds: Sequence[int]) -> list[BulkResult] | None:
    """The matches of ``match_seeds`` played in the kernel with ``bots`` by seat; None where the kernel is not built,
    is turned off, or does not know this lineup or these options (table mode, FC-10)."""
    core = kernel(CORE)
    if (
        core is None
        or not isinstance(options, FreeOptions)
        or options.misplays
        or not all(0 <= seed < 1 << 64 for seed in match_seeds)
    ):
        return None
    if len(bots) != 3 or any(spec.strip() not in ("random", "heuristic") for spec in bots):
        return None
    heuristic = sum(1 << seat for seat, spec in enumerate(bots) if spec.strip() == "heuristic")
    rules = (options.target, options.no_spades_needs_a_trick)
    played = (
        core.bot_matches(match_seeds, *rules, heuristic, heuristic_constants())
        if heuristic
        else core.random_matches(match_seeds, *rules)
    )
    return [
        BulkResult(hands, totals, tuple(s for s in range(3) if winners >> s & 1), draw)
        for hands, totals, winners, draw in played
    ]
