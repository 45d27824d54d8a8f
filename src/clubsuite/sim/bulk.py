"""Matches played in a game's compiled kernel where it has one for the lineup: the same outcomes, sooner.

A game's ``bulk`` part (``compiled_matches(options, bots, match_seeds)``, see :mod:`clubsuite.native`) plays
whole matches exactly as :func:`clubsuite.runner.play_match` would from the same seeds, the first hand dealt by seat
0 as a simulation deals it (``info.new_match(options, 0)``), or returns None when it
cannot (no kernel built, kernels turned off, a bot the kernel does not have); the engine then plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from clubsuite.bots.random_bot import RandomBot
from clubsuite.engine import SomeGame
from clubsuite.runner import BulkResult, play_match
from clubsuite.seeding import derive_seed

CompiledMatches = Callable[[object, Sequence[str], Sequence[int]], "list[BulkResult] | None"]
"""A game's whole matches in its compiled kernel (its part ``bulk``): ``(options, bots, match_seeds)`` played exactly
as the engine would, or None where the kernel cannot play them."""


@runtime_checkable
class HasBulk(Protocol):
    """A game's parts that play whole matches in its compiled kernel."""

    def bulk(self) -> CompiledMatches:
        """The kernel's matches."""
        ...


def compiled_matches(
    info: SomeGame, options: object, bots: Sequence[str], match_seeds: Sequence[int]
) -> list[BulkResult] | None:
    """The matches of ``match_seeds`` played by ``bots`` (by seat) in the game's kernel, or None where it has none
    for them here."""
    if not isinstance(info.parts, HasBulk):
        return None
    return info.parts.bulk()(options, bots, match_seeds)


def engine_random_match(info: SomeGame, options: object, match_seed: int) -> BulkResult:
    """One match with the random bot in every seat, through the engine: what a kernel is held to, and its
    fallback."""
    match = info.new_match(options, 0)
    play_match(match, [RandomBot()] * match.n_seats, match_seed)
    return BulkResult(len(match.hand_scores), tuple(match.totals), tuple(match.winners), bool(match.draw))


def random_matches(info: SomeGame, options: object, match_seeds: Sequence[int]) -> list[BulkResult]:
    """Matches with the random bot in every seat: in the game's kernel where it has one, through the engine
    otherwise (the same results either way)."""
    n = info.new_match(options, 0).n_seats
    played = compiled_matches(info, options, ["random"] * n, match_seeds)
    if played is not None:
        return played
    return [engine_random_match(info, options, seed) for seed in match_seeds]


def seeds_of(first_seed: int, matches: int) -> list[int]:
    """The match seeds ``derive_seed(first_seed, k)`` for k below ``matches``: those a simulation plays."""
    return [derive_seed(first_seed, k) for k in range(matches)]
