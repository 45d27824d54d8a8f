"""Clubs (whist group) in the guided first hand (:mod:`clubsuite.lesson`): the exchange (CW-4) and the four tricks
a hand must take to score (CW-5) said first, with why the hand is kept or given up; then the tricks game's steps,
on a deal chosen for them."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.whist.match import WhistMatch
from clubsuite.lesson import Explained, Lesson, explained, suit_of, trick_say, why_template
from clubsuite.reasons import Reason, template

EXCHANGE = template(
    "whist.lesson_exchange_rule", "Before the play, each player in turn keeps their hand or swaps it, unseen, for "
    "the bid hand.", rule="CW-4"
)  # fmt: skip
QUOTA = template(
    "whist.lesson_quota_rule", "Each trick you take over four scores a point; each one short of four costs one.",
    rule="CW-5",
)  # fmt: skip
KEEP = why_template(
    "whist.lesson_why_keep", "Your clubs and high cards ({cards}) promise four tricks or more, so keep this hand."
)  # fmt: skip
TAKE = why_template(
    "whist.lesson_why_take", "Your clubs and high cards ({cards}) are few for four tricks, so try the bid hand."
)  # fmt: skip
TAKE_NOTHING = why_template(
    "whist.lesson_why_take_nothing", "With no clubs and no aces or kings you can hardly take four tricks, so try "
    "the bid hand."
)  # fmt: skip


def strength(hand: Sequence[str]) -> tuple[str, ...]:
    """The cards that make tricks, as a newcomer counts them: the clubs (the trump), then aces and kings."""
    clubs = [c for c in hand if suit_of(c) == "clubs"]
    high = [c for c in hand if c[:-1] in ("A", "K") and suit_of(c) != "clubs"]
    return (*clubs, *high)


def say(match: WhistMatch, seat: int, legal: Sequence[str], pointed: str, seen: frozenset[str]) -> Explained:
    """A step of whist's first hand: the exchange and the quota (CW-4, CW-5), why keep or take the bid hand; else
    a tricks game's step."""
    view = match.view(seat).to_dict()
    if view.get("phase") == "exchange":
        cards = strength(str(view.get("hand", "")).split())
        if pointed == "keep":
            why = Reason(KEEP, cards=cards)
        else:
            why = Reason(TAKE, cards=cards) if cards else Reason(TAKE_NOTHING)
        return explained("exchange", why, seen, [("exchange", Reason(EXCHANGE)), ("quota", Reason(QUOTA))])
    return trick_say(match, seat, legal, pointed, seen)


LESSON = Lesson(seed=2153, ideas=("exchange", "quota", "lead", "follow", "trump"), say=say)
"""The first hand of "Learn to play" Clubs (whist group)."""
