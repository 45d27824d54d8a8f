"""The themes of a whist puzzle (the registry part ``themes``; see :mod:`clubsuite.puzzles.themes`).

What the answer changes, read from the hand played to its end along the answer's line and the next best card's:
the quota's fourth trick (a hand scores its tricks less four, CW-5), the match won, and what the answer does to its
trick (the themes every trick game shares); for a decision from the seat's own view, the exchange (CW-4).
"""

from __future__ import annotations

from clubsuite.cards import Card, card_at
from clubsuite.engine import Phase, SomeMatch
from clubsuite.games.whist.hand import QUOTA, Decision
from clubsuite.games.whist.match import WhistMatch
from clubsuite.puzzles.themes import Scene
from clubsuite.puzzles.tricks import LAST_TRICKS, TRICK_THEMES, TrickSeen, own_view_themes, trick_themes

N_SEATS = 3

THEMES = {
    "quota": (
        "quota trick",
        "with the answer the seat takes its fourth trick, its quota; with the next best card it does not",
    ),
    "fewest": (
        "fewest tricks",
        "the seat plays for as few tricks as it can: a score of minus the target wins too",
    ),
    "match": ("match won", "the answer wins the match; the next best card does not"),
    **TRICK_THEMES,
    "ending": ("last tricks", f"{LAST_TRICKS} tricks or fewer are left"),
    "exchange": ("take the bid hand", "the answer takes the bid hand"),
    "keep": ("keep your hand", "the answer keeps the hand dealt"),
}


def _whist(match: SomeMatch) -> WhistMatch:
    """``match`` as the whist match a whist scene holds (the compiled match class is a subclass)."""
    if not isinstance(match, WhistMatch):
        raise TypeError(f"not a whist match: {match!r}")
    return match


def _tricks(match: SomeMatch, hand: int) -> list[tuple[int, tuple[int, ...], int]]:
    return list(_whist(match).hands[hand].tricks)


def _won_match(end: SomeMatch | None, seat: int) -> bool:
    return end is not None and end.is_over and seat in end.winners


def themes(scene: Scene) -> set[str]:
    """The whist themes of ``scene`` (see the module docstring)."""
    found: set[str] = set()
    before, seat = scene.before, scene.seat
    if scene.measure == "fewest":
        found.add("fewest")
    if before.phase != Phase.PLAY:
        if scene.solution == Decision.EXCHANGE:
            found.add("exchange")
        elif scene.solution == Decision.KEEP:
            found.add("keep")
        return found
    h = len(before.hands) - 1
    done = len(_tricks(before, h))
    held = before.hands[h].hands
    if held[seat].bit_count() <= LAST_TRICKS:
        found.add("ending")
    legal = [a for a in before.legal_actions() if isinstance(a, Card)]
    if scene.line_end is not None:
        leader, cards, winner = _tricks(scene.line_end, h)[done]
        plays = tuple(((leader + k) % N_SEATS, card_at(c)) for k, c in enumerate(cards))
        found |= trick_themes(seat, (), TrickSeen(plays, winner), legal, lambda c: c.rank)
        mine = _whist(scene.line_end).hands[h].tricks_won[seat]
        if scene.other_end is not None:
            other = _whist(scene.other_end).hands[h].tricks_won[seat]
            if scene.measure == "tricks" and mine >= QUOTA > other:
                found.add("quota")
        if _won_match(scene.line_end, seat) and not _won_match(scene.other_end, seat):
            found.add("match")
    elif isinstance(scene.solution, Card):
        # a single-dummy answer: only the trick in progress is known (lead, discard)
        trick = _whist(before).hands[h].trick
        found |= own_view_themes(trick[0][1].suit if trick else None, scene.solution)
    return found
