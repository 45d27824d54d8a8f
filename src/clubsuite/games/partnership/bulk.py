"""The bulk part of Clubs (partnership): whole matches played in the compiled kernel (``_core``), for the lineups it
knows, exactly as :func:`clubsuite.runner.play_match` would play them from the same seeds.

The kernel knows the random and the heuristic bot in any seats (``heuristic.h``: bot.py's heuristic bot restated);
any other lineup is left to the engine (the function returns None, and :func:`clubsuite.sim.bulk.random_matches`
plays through the engine). ``tests/partnership/test_native_partnership.py`` compares the kernel with the engine
decision by decision, and its matches of heuristic bots with the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.partnership.deal import N_SEATS
from clubsuite.games.partnership.hand import TEAMS
from clubsuite.games.partnership.match import CORE as CORE  # the kernel's module, named where the match uses it
from clubsuite.games.partnership.options import PartnershipOptions
from clubsuite.native import kernel
from clubsuite.runner import BulkResult


def compiled_matches(options: object, bots: Sequence[str], match_seeds: Sequence[int]) -> list[BulkResult] | None:
    """The matches of ``match_seeds`` played in the kernel with ``bots`` by seat; None where the kernel is not built,
    is turned off, or does not know this lineup."""
    core = kernel(CORE)
    if (
        core is None
        or not all(0 <= seed < 1 << 64 for seed in match_seeds)
        or not isinstance(options, PartnershipOptions)
    ):
        return None
    if len(bots) != N_SEATS or any(spec.strip() not in ("random", "heuristic") for spec in bots):
        return None
    heuristic = sum(1 << seat for seat, spec in enumerate(bots) if spec.strip() == "heuristic")
    played = (
        core.bot_matches(match_seeds, options.target, heuristic)
        if heuristic
        else core.random_matches(match_seeds, options.target)
    )
    return [
        BulkResult(hands, (totals[0], totals[1], totals[0], totals[1]), TEAMS[winner], False)
        for hands, totals, winner in played
    ]
