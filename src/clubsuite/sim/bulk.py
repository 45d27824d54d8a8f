"""Matches played in a game's compiled kernel where it has one for the lineup: the same outcomes, sooner.

A game's ``bulk`` part (``compiled_matches(options, bots, match_seeds)``, see :mod:`clubsuite.native`) plays
whole matches exactly as :func:`clubsuite.runner.play_match` would from the same seeds, or returns None when it
cannot (no kernel built, kernels turned off, a bot the kernel does not have); the engine then plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from clubsuite.engine import SomeGame, load_part
from clubsuite.runner import BulkResult
from clubsuite.seeding import derive_seed

CompiledMatches = Callable[[object, Sequence[str], Sequence[int]], "list[BulkResult] | None"]


def compiled_matches(
    info: SomeGame, options: object, bots: Sequence[str], match_seeds: Sequence[int]
) -> list[BulkResult] | None:
    """The matches of ``match_seeds`` played by ``bots`` (by seat) in the game's kernel, or None where it has none
    for them here."""
    part = load_part(info, "bulk")
    if part is None:
        return None
    play: CompiledMatches = part  # type: ignore[assignment]
    return play(options, bots, match_seeds)


def seeds_of(first_seed: int, matches: int) -> list[int]:
    """The match seeds ``derive_seed(first_seed, k)`` for k below ``matches``: those a simulation plays."""
    return [derive_seed(first_seed, k) for k in range(matches)]
