"""The themes of a Free Clubs puzzle (the registry part ``themes``; see :mod:`clubsuite.puzzles.themes`).

What the answer changes, read from the hand played to its end along the answer's line and the next best card's:
the contract made (FC-4), the bonuses won (FC-8: the most diamonds, the ace of hearts, no spades), the match won,
and what the answer does to its trick (the themes every trick game shares); for a decision from the seat's own view,
the stage it is taken in (the auction, a Ten's discard, the one-card pass).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from clubsuite.cards import Card, card_at
from clubsuite.engine import SomeMatch
from clubsuite.games.free.hand import MAX_TRICKS, Stage, strength
from clubsuite.games.free.match import FreeMatch
from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.themes import Scene
from clubsuite.puzzles.tricks import LAST_TRICKS, TRICK_THEMES, TrickSeen, own_view_themes, trick_themes

THEMES = {
    "contract": ("contract", "with the answer the seat's side makes its contract; with the next best card it does not"),
    "joker_team": ("Joker team", "the seat plays in the Joker's team: ten tricks together or both lose fifty"),
    "diamonds": (
        "most diamonds",
        "the answer wins or shares the bonus for the most diamonds; the next best card does not",
    ),
    "ace_of_hearts": ("ace of hearts", "the answer takes the ace of hearts' bonus; the next best card does not"),
    "no_spades": ("no spades", "the answer keeps the bonus for taking no spade; the next best card does not"),
    "match": ("match won", "the answer wins the match; the next best card does not"),
    **TRICK_THEMES,
    "ending": ("last tricks", f"{LAST_TRICKS} tricks or fewer are left"),
    "auction": ("auction", "a decision of the auction"),
    "handicap": ("Ten's discard", "the card a Ten's handicap discards"),
    "pass": ("pass", "the card passed to the right before the play"),
}

_STAGES = {Stage.AUCTION: "auction", Stage.HANDICAP: "handicap", Stage.PASS: "pass"}


def _free(match: SomeMatch) -> FreeMatch:
    """``match`` as the Free Clubs match a Free Clubs scene holds."""
    if not isinstance(match, FreeMatch):
        raise TypeError(f"not a Free Clubs match: {match!r}")
    return match


def _summary(end: SomeMatch | None, hand: int) -> JsonObject:
    return end.hands[hand].summary() if end is not None else {}


def _won_match(end: SomeMatch | None, seat: int) -> bool:
    return end is not None and end.is_over and seat in end.winners


def _bonuses(summary: JsonObject, seat: int) -> set[str]:
    got: set[str] = set()
    bonuses = summary.get("bonuses") or {}
    if bonuses.get("most_diamonds") == seat or seat in bonuses.get("diamonds_tie", []):
        got.add("diamonds")
    if bonuses.get("ace_of_hearts") == seat:
        got.add("ace_of_hearts")
    if seat in bonuses.get("no_spades", []):
        got.add("no_spades")
    contract = summary.get("contract") or {}
    if seat in contract.get("team", []) and contract.get("made"):
        got.add("contract")
    return got


class PlayCounts(Protocol):
    """What :func:`tricks_left` reads of a hand."""

    @property
    def hands(self) -> Sequence[int]: ...

    @property
    def tricks(self) -> Sequence[object]: ...

    @property
    def trick(self) -> Sequence[tuple[int, int]]: ...


def tricks_left(hand: PlayCounts) -> int:
    """The tricks left to play in ``hand``, the one in progress included (FC-7): play stops after ten tricks, or when
    a trick ends with two players out of cards, so it is the fewer of the tricks left under the limit and the cards
    of the second shortest hand when the trick in progress began (the seats holding more play on regardless)."""
    in_trick = {s for s, _ in hand.trick}
    held = sorted(int(cards).bit_count() + (s in in_trick) for s, cards in enumerate(hand.hands))
    return min(MAX_TRICKS - len(hand.tricks), held[1])


def themes(scene: Scene) -> set[str]:
    """The Free Clubs themes of ``scene`` (see the module docstring)."""
    before, seat = scene.before, scene.seat
    h = len(before.hands) - 1
    hand = _free(before).hands[h]
    stage = _STAGES.get(hand.stage)
    if stage is not None:
        return {stage}
    found: set[str] = set()
    team = tuple(hand.team)
    side = team if seat in team and hand.partner >= 0 else (seat,)
    if len(side) == 2:
        found.add("joker_team")
    if tricks_left(hand) <= LAST_TRICKS:
        found.add("ending")
    if scene.line_end is not None:
        done = len(hand.tricks)
        plays, winner = _free(scene.line_end).hands[h].tricks[done]
        seen = TrickSeen(tuple((s, card_at(c)) for s, c in plays), winner)
        legal = [a for a in before.legal_actions() if isinstance(a, Card)]
        found |= trick_themes(seat, side, seen, legal, lambda c: strength(c.index))
        found |= _bonuses(_summary(scene.line_end, h), seat) - _bonuses(_summary(scene.other_end, h), seat)
        if _won_match(scene.line_end, seat) and not _won_match(scene.other_end, seat):
            found.add("match")
    elif isinstance(scene.solution, Card):
        # a single-dummy answer: only the trick in progress is known (lead, discard)
        trick = hand.trick
        found |= own_view_themes(card_at(trick[0][1]).suit if trick else None, scene.solution)
    return found
