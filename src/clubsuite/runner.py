"""Driving a match with bots: the loop every outer room (watch, simulate, benchmarks) shares.

Deals come from the match seed (hand ``i`` is dealt from :func:`clubsuite.seeding.hand_seed`), so a match played
here can be written as a seeded record and replayed exactly; bots draw from their own injected RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from clubsuite.bots.base import SomeBot
from clubsuite.engine import Events, Match, SomeGame, SomeMatch, View, find_game
from clubsuite.seeding import derive_seed, hand_seed

EventSink = Callable[[SomeMatch, Events], None]
"""Called as ``sink(match, events)`` after every deal and every action."""


class BulkResult(NamedTuple):
    """How a match played by bots ended: what a simulation counts, from a game's bulk part (a compiled kernel
    playing the match exactly as :func:`play_match` would) or from the engine."""

    hands: int
    """Hands played."""
    totals: tuple[int, ...]
    """Each seat's total: the sum of its hand scores."""
    winner_seats: tuple[int, ...]
    """The winning seats in seat order; empty for a draw."""
    draw: bool
    """Whether the match was drawn."""


MatchT = TypeVar("MatchT", bound=Match[object, View, object])


def deal_next(match: SomeMatch, info: SomeGame, match_seed: int) -> Events:
    """Deal the match's next hand from the match seed."""
    index = len(match.hands)
    return match.deal(deal=info.deal_from_seed(hand_seed(match_seed, index), match.next_dealer))


def play_match(
    match: MatchT,
    bots: Sequence[SomeBot],
    match_seed: int,
    bot_rng: random.Random | None = None,
    on_events: EventSink | None = None,
    max_hands: int | None = None,
) -> MatchT:
    """Play ``match`` to its end (or ``max_hands`` more hands) with one bot per seat; returns the match."""
    info, _ = find_game(match.game)
    rng = bot_rng if bot_rng is not None else random.Random(derive_seed(match_seed, 0x5EED))
    played = 0
    while not match.is_over and (max_hands is None or played < max_hands):
        events = deal_next(match, info, match_seed)
        if on_events is not None:
            on_events(match, events)
        while match.to_act is not None:
            seat = match.to_act
            action = bots[seat].choose(match.view(seat), match.legal_actions(), rng)
            events = match.apply(action)
            if on_events is not None:
                on_events(match, events)
        played += 1
    return match
