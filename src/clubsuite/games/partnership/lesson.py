"""Clubs (partnership) in the guided first hand (:mod:`clubsuite.lesson`): the pass of three cards (CP-2) said
first, then the tricks game's steps, on a deal chosen for them."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.lesson import Lesson, phase_step, trick_say
from clubsuite.reasons import Reason, template

PASS_LEFT = template(
    "partnership.lesson_pass_left", "Before the play, everyone passes three cards to the player on their left, "
    "chosen before any are received.", rule="CP-2"
)  # fmt: skip
PASS_RIGHT = template(
    "partnership.lesson_pass_right", "Before the play, everyone passes three cards to the player on their right, "
    "chosen before any are received.", rule="CP-2"
)  # fmt: skip


def say(match: PartnershipMatch, seat: int, legal: Sequence[str], pointed: str) -> tuple[str, Reason]:
    """A step of the partnership game's first hand: the pass of three cards (CP-2) said, else a tricks game's
    step."""
    view = match.view(seat).to_dict()
    if view.get("phase") == "pass":
        return phase_step(Reason(PASS_LEFT if view.get("pass") == "left" else PASS_RIGHT), pointed)
    return trick_say(match, seat, legal, pointed)


LESSON = Lesson(seed=2027, ideas=("choose", "lead", "follow", "trump", "discard"), say=say)
"""The first hand of "Learn to play" Clubs (partnership)."""
