"""Clubs (whist group) in the guided first hand (:mod:`clubsuite.lesson`): the exchange (CW-4) said first, then
the tricks game's steps, on a deal chosen for them."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.whist.match import WhistMatch
from clubsuite.lesson import Lesson, phase_step, trick_say
from clubsuite.reasons import Reason, template

EXCHANGE = template(
    "whist.lesson_exchange", "Before the play, each player in turn keeps their hand or takes the bid hand, unseen, "
    "leaving their own in its place.", rule="CW-4"
)  # fmt: skip


def say(match: WhistMatch, seat: int, legal: Sequence[str], pointed: str) -> tuple[str, Reason]:
    """A step of whist's first hand: the exchange (CW-4) said, else a tricks game's step."""
    if match.view(seat).to_dict().get("phase") == "exchange":
        return phase_step(Reason(EXCHANGE), pointed)
    return trick_say(match, seat, legal, pointed)


LESSON = Lesson(seed=2028, ideas=("choose", "lead", "follow", "trump"), say=say)
"""The first hand of "Learn to play" Clubs (whist group)."""
