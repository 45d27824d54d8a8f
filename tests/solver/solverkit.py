"""Helpers of the solver tests: random end positions of every trick game, and the referee the solver is checked
against, a brute-force minimax that plays every legal line through the engine itself (its legality, its trick
winners, its scores) with no pruning, no table and no shortcut."""

from __future__ import annotations

import random

from clubsuite.engine import Phase, SomeMatch, resolve
from clubsuite.runner import deal_next

TRICK_GAMES = ("whist", "partnership", "free")


def ending(game: str, seed: int, tricks_left: int) -> SomeMatch:
    """A match of ``game`` played at random (every decision uniform among the legal ones) until about
    ``tricks_left`` tricks remain, stopped at a card to play (possibly in the middle of a trick)."""
    info, options = resolve(game)
    rng = random.Random(seed)
    while True:
        match = info.new_match(options, 0)
        deal_next(match, info, rng.randrange(1 << 30))
        n = match.n_seats
        stop = tricks_left * n - rng.randrange(n)
        while match.to_act is not None and (match.phase != Phase.PLAY or _cards_left(match) > stop):
            match.apply(rng.choice(list(match.legal_actions())))
        if match.to_act is not None and match.phase == Phase.PLAY:
            return match


def _cards_left(match: SomeMatch) -> int:
    hand = match.hands[-1]
    return sum(h.bit_count() for h in hand.hands)  # type: ignore[attr-defined]


def side_of(match: SomeMatch, measure: str) -> tuple[int, ...]:
    """The seats playing for the seat to act: itself; its partner in the partnership game; its Joker partner in
    Free Clubs (FC-4)."""
    seat = match.to_act
    assert seat is not None
    if match.game == "partnership":
        return (seat % 2, seat % 2 + 2)
    if match.game == "free":
        hand = match.hands[-1]
        team = hand.team  # type: ignore[attr-defined]
        return tuple(team) if seat in team and hand.partner >= 0 else (seat,)  # type: ignore[attr-defined]
    return (seat,)


def final_count(match: SomeMatch, measure: str, seat: int, side: tuple[int, ...]) -> int:
    """The measure read from the engine's own account of a finished hand."""
    hand = match.hands[-1]
    tricks = hand.tricks_won  # type: ignore[attr-defined]
    if match.game == "whist":
        return int(tricks[seat])
    if measure == "points":
        if match.game == "partnership":
            return int(hand.team_scores[seat % 2])  # type: ignore[attr-defined]
        return int(hand.scores[seat])  # type: ignore[attr-defined]
    return sum(tricks[s] for s in side)


def minimax(match: SomeMatch, measure: str, seat: int, side: tuple[int, ...], maximize: bool) -> int:
    """The value of the rest of the hand by trying every legal line: the side picks its best, the others their
    worst for it."""
    hand = match.hands[-1]
    if hand.scores is not None:  # type: ignore[attr-defined]
        return final_count(match, measure, seat, side)
    values = []
    for action in list(match.legal_actions()):
        child = match.clone()
        child.apply(action)
        values.append(minimax(child, measure, seat, side, maximize))
    ours = match.to_act in side
    return max(values) if ours == maximize else min(values)


def referee_values(match: SomeMatch, measure: str, maximize: bool) -> dict[object, int]:
    """The brute-force value of each legal action of the seat to act."""
    seat = match.to_act
    assert seat is not None
    side = side_of(match, measure)
    out = {}
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        out[action] = minimax(child, measure, seat, side, maximize)
    return out
