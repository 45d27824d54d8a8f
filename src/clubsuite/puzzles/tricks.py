"""Themes every trick game of the suite shares, read from the trick an exact puzzle's answer is played to.

The trick games agree on what wins a trick (the highest club, else the highest card of the suit led; see
:mod:`clubsuite.solver.model`), so what an answer does to its trick reads the same in each: it leads, it wins a
trick led in another suit with a club (``ruff``), it throws a card of a third suit (``discard``), or it follows low
and lets the trick go to the other side while holding a card of the suit that could have taken it (``duck``: a card
over the one that won the trick; the seat's highest card overtaken, or a trick ruffed, is no duck). Each game
converts its own trick to a :class:`TrickSeen` and says how strong a card is within its suit (an ace may be low).

A single-dummy puzzle has no line (what the others hold is not known), so only what the answer does to the trick in
progress can be said of it: it leads, or it throws a card of a third suit (:func:`own_view_themes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from clubsuite.cards import Card, Suit

TRICK_THEMES = {
    "lead": ("lead", "the answer leads the trick"),
    "ruff": ("ruff", "the answer wins a trick led in another suit with a club"),
    "discard": ("discard", "the answer throws a card of a third suit, neither following nor ruffing"),
    "duck": (
        "duck",
        "the answer follows low and lets the trick go, though a card of the suit could have taken it",
    ),
}
"""The shared themes, each with what it means (a game lists them among its own)."""

LAST_TRICKS = 3
"""A puzzle with this many tricks left or fewer is an ``ending`` (short to read, every card counted)."""


@dataclass(frozen=True)
class TrickSeen:
    """One trick as played: its plays in order, the first being the lead, and who won it."""

    plays: tuple[tuple[int, Card], ...]
    winner: int


def trick_themes(
    seat: int,
    side: Iterable[int],
    trick: TrickSeen,
    legal: Iterable[Card],
    strength: Callable[[Card], int],
) -> set[str]:
    """The shared themes of the card ``seat`` played to ``trick`` (the answer), for the seats of its ``side``,
    given the cards it could legally play and how strong a card is within its suit."""
    found: set[str] = set()
    ours = set(side) | {seat}
    played = next(card for s, card in trick.plays if s == seat)
    led = trick.plays[0][1].suit
    if trick.plays[0][0] == seat:
        return {"lead"}
    if played.suit != led:
        if played.suit == Suit.CLUBS and trick.winner == seat:
            found.add("ruff")
        elif played.suit != Suit.CLUBS:
            found.add("discard")
        return found
    if trick.winner in ours:
        return found
    # Who was winning when the seat played, and with what: a duck lets a trick go that a card of the suit could
    # have taken from the other side.
    before = trick.plays[: next(k for k, (s, _) in enumerate(trick.plays) if s == seat)]
    clubs = [(strength(c), s, c) for s, c in before if c.suit == Suit.CLUBS]
    if led != Suit.CLUBS and clubs:
        return found  # the trick was ruffed: no card of the suit led could take it
    _, top_seat, _ = max(clubs if clubs else [(strength(c), s, c) for s, c in before if c.suit == led])
    if top_seat in ours:
        return found  # the side was winning already: playing low is no duck
    won_with = next(c for s, c in trick.plays if s == trick.winner)
    if won_with.suit != led:
        return found  # ruffed after the seat: no card of the suit led could have taken it
    # a card of the suit that could have taken the trick: one over the card that won it (so the answer, below it,
    # was not the seat's highest: the seat's highest card overtaken is no duck)
    if any(c.suit == led and strength(c) > strength(won_with) for c in legal):
        found.add("duck")
    return found


def own_view_themes(led: Suit | None, played: Card) -> set[str]:
    """The shared themes a single-dummy answer ``played`` shows in the trick in progress, whose led suit is ``led``
    (None: the seat leads): ``lead``, or ``discard`` for a card of a third suit (neither the suit led nor a club).
    Whether a club played to another suit's trick wins it (``ruff``), or a low card lets it go (``duck``), depends on
    cards the seat cannot see, so neither is said."""
    if led is None:
        return {"lead"}
    if played.suit != led and played.suit != Suit.CLUBS:
        return {"discard"}
    return set()
