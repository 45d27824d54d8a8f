"""The bulk part of Clubs (whist group): whole matches played in the compiled kernel (``_core``), for the lineups
it knows, exactly as :func:`clubsuite.runner.play_match` would play them from the same seeds.

The kernel has two bots, the random bot and the heuristic bot (``heuristic.h``, its exchange decision sampling bid
hands as ``random.Random.sample`` does), in any seats; a lineup with any other bot is left to the engine (the
function returns None, and :func:`clubsuite.sim.bulk.random_matches` plays through the engine).
``tests/whist/test_native_whist.py`` compares the kernel with the engine decision by decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.whist.match import CORE as CORE  # the kernel's module, named where the match uses it
from clubsuite.games.whist.options import LeadAfterExchange, WhistOptions
from clubsuite.native import kernel
from clubsuite.runner import BulkResult

LEAD_RULES = {LeadAfterExchange.LAST_EXCHANGER: 0, LeadAfterExchange.LEFT_OF_LAST_EXCHANGER: 1}
"""The kernel's number for each reading of CW-3 (core.h)."""


BOT_KINDS = {"random": 0, "heuristic": 1}
"""The bots the kernel plays, by their number in heuristic.h."""


def compiled_matches(options: object, bots: Sequence[str], match_seeds: Sequence[int]) -> list[BulkResult] | None:
    """The matches of ``match_seeds`` played in the kernel with ``bots`` by seat; None where the kernel is not built,
    is turned off, or does not have one of the bots (it has the random and the heuristic bot)."""
    core = kernel(CORE)
    if core is None or not all(0 <= seed < 1 << 64 for seed in match_seeds) or not isinstance(options, WhistOptions):
        return None
    kinds = tuple(BOT_KINDS.get(spec.strip(), -1) for spec in bots)
    if -1 in kinds or len(kinds) != 3:
        return None
    rule = LEAD_RULES[options.lead_after_exchange]
    if set(kinds) == {BOT_KINDS["random"]}:
        played = core.random_matches(match_seeds, options.target, rule)
    else:
        played = core.bot_matches(match_seeds, options.target, rule, (kinds[0], kinds[1], kinds[2]))
    return [
        BulkResult(hands, totals, tuple(s for s in range(3) if winners >> s & 1), draw)
        for hands, totals, winners, draw in played
    ]
