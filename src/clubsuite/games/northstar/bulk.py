"""The bulk part of North Star's CLUBS: whole matches played in the compiled kernel (``_core``), for the lineups it
knows, exactly as :func:`clubsuite.runner.play_match` would play them from the same seeds.

The kernel knows the random and the heuristic bot in any seats (``heuristic.h``: bot.py's heuristic bot restated),
and every rules option: 2 to 6 players, teams (NS-10), double or nothing (NS-8), wild 15s (NS-9), Crazy CLUBS
(NS-11), both readings of the kept pack (NS-6), any club points (NS-2) and target (NS-7). Any other lineup is left
to the engine (the function returns None, and :func:`clubsuite.sim.bulk.random_matches` plays through the engine).
``tests/northstar/test_native_northstar.py`` compares the kernel with the engine decision by decision, and
``tests/northstar/test_heuristic_northstar.py`` the heuristic bots' matches with the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.northstar.bot import CRAZY_WEIGHTS, PLAIN_WEIGHTS
from clubsuite.games.northstar.match import CORE as CORE  # the kernel's module, named where the match uses it
from clubsuite.games.northstar.options import Leftover, NorthstarOptions, Teams
from clubsuite.native import kernel
from clubsuite.runner import BulkResult

KNOWN_BOTS = frozenset({"random", "heuristic"})
"""The bots the kernel plays (bot specs as written)."""

KernelOptions = tuple[int, int, int, int, int, int, int, int, tuple[int, ...]]
"""The rules options as the kernel takes them (``_core.pyx``): players, teams (the number of them; the players
without team play), team play, double or nothing, wild 15s, Crazy CLUBS, the leftover rule (0 next_round,
1 reshuffle), the goal and the club points."""


def kernel_options(options: NorthstarOptions) -> KernelOptions:
    """``options`` as numbers for the kernel."""
    return (
        options.players,
        options.n_teams,
        int(options.teams is not Teams.NONE),
        int(options.double_or_nothing),
        int(options.wild_fifteens),
        int(options.crazy),
        int(options.leftover is Leftover.RESHUFFLE),
        options.goal,
        tuple(options.club_points),
    )


def compiled_matches(options: object, bots: Sequence[str], match_seeds: Sequence[int]) -> list[BulkResult] | None:
    """The matches of ``match_seeds`` played in the kernel with ``bots`` by seat; None where the kernel is not built,
    is turned off, or does not know this lineup (any bot but the random and the heuristic one)."""
    core = kernel(CORE)
    if (
        core is None
        or not isinstance(options, NorthstarOptions)
        or not all(0 <= seed < 1 << 64 for seed in match_seeds)
        or len(bots) != options.players
        or any(spec.strip() not in KNOWN_BOTS for spec in bots)
    ):
        return None
    n = options.players
    heuristic = sum(1 << seat for seat, spec in enumerate(bots) if spec.strip() == "heuristic")
    if heuristic:
        weights = CRAZY_WEIGHTS if options.crazy else PLAIN_WEIGHTS  # as the registered bot chooses them
        played = core.bot_matches(match_seeds, kernel_options(options), heuristic, weights)
    else:
        played = core.random_matches(match_seeds, kernel_options(options))
    return [
        BulkResult(rounds, totals, tuple(s for s in range(n) if winners >> s & 1), draw)
        for rounds, totals, winners, draw in played
    ]
