"""The themes of a partnership puzzle (the registry part ``themes``; see :mod:`clubsuite.puzzles.themes`).

What the answer changes for the seat's partnership, read from the hand played to its end along the answer's line
and the next best card's (CP-3): the Ruby Dame's five points, the sweep of all thirteen tricks, more clubs taken,
the match won; and what the answer does to its trick (the themes every trick game shares).
"""

from __future__ import annotations

from clubsuite.cards import Card, card_at
from clubsuite.engine import Phase, SomeMatch
from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.puzzles.themes import Scene
from clubsuite.puzzles.tricks import LAST_TRICKS, TRICK_THEMES, TrickSeen, own_view_themes, trick_themes

N_SEATS = 4

THEMES = {
    "ruby_dame": (
        "Ruby Dame",
        "with the answer the seat's side takes the Ruby Dame (five points); with the next best card it does not",
    ),
    "sweep": (
        "every trick",
        "the answer keeps every trick for the seat's side (five more points); the next best card does not",
    ),
    "clubs": ("clubs", "the answer takes more clubs for the seat's side than the next best card (a point each)"),
    "match": ("match won", "the answer wins the match; the next best card does not"),
    **TRICK_THEMES,
    "ending": ("last tricks", f"{LAST_TRICKS} tricks or fewer are left"),
    "pass": ("pass", "the three cards passed before the play"),
}


def _partnership(match: SomeMatch) -> PartnershipMatch:
    """``match`` as the partnership match a partnership scene holds (the compiled match class is a subclass)."""
    if not isinstance(match, PartnershipMatch):
        raise TypeError(f"not a partnership match: {match!r}")
    return match


def _points(end: SomeMatch | None, hand: int, team: int) -> dict[str, int]:
    if end is None:
        return {}
    points = end.hands[hand].summary()["team_points"][team]
    if not isinstance(points, dict):
        raise TypeError(f"a partnership's points are an object, not {points!r}")
    return dict(points)


def _won_match(end: SomeMatch | None, seat: int) -> bool:
    return end is not None and end.is_over and seat in end.winners


def themes(scene: Scene) -> set[str]:
    """The partnership themes of ``scene`` (see the module docstring)."""
    before, seat = scene.before, scene.seat
    if before.phase != Phase.PLAY:
        return {"pass"}
    found: set[str] = set()
    h = len(before.hands) - 1
    hand = _partnership(before).hands[h]
    if hand.hands[seat].bit_count() <= LAST_TRICKS:
        found.add("ending")
    if scene.line_end is not None:
        done = len(hand.tricks)
        leader, cards, winner = _partnership(scene.line_end).hands[h].tricks[done]
        plays = tuple(((leader + k) % N_SEATS, card_at(c)) for k, c in enumerate(cards))
        legal = [a for a in before.legal_actions() if isinstance(a, Card)]
        partner = (seat + 2) % N_SEATS
        found |= trick_themes(seat, (partner,), TrickSeen(plays, winner), legal, lambda c: c.rank)
        team = seat % 2
        mine, other = _points(scene.line_end, h, team), _points(scene.other_end, h, team)
        if mine["ruby_dame"] > other.get("ruby_dame", 0):
            found.add("ruby_dame")
        if mine["sweep"] > other.get("sweep", 0):
            found.add("sweep")
        if mine["clubs"] > other.get("clubs", mine["clubs"]):
            found.add("clubs")
        if _won_match(scene.line_end, seat) and not _won_match(scene.other_end, seat):
            found.add("match")
    elif isinstance(scene.solution, Card):
        # a single-dummy answer: only the trick in progress is known (lead, discard)
        trick = hand.trick
        found |= own_view_themes(trick[0][1].suit if trick else None, scene.solution)
    return found
