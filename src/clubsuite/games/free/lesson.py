"""Free Clubs in the guided first hand (:mod:`clubsuite.lesson`): the auction (FC-3) and the pass (FC-2) said
first, then the tricks game's steps, on a deal chosen for them."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.free.match import FreeMatch
from clubsuite.lesson import Lesson, phase_step, trick_say
from clubsuite.reasons import Reason, template

AUCTION = template(
    "free.lesson_auction", "In the auction you bid a card higher than the last bid, at most one rank above it, or "
    "pass and stay in; two passes in a row end it, and the last bidder wins the treasure chest.", rule="FC-3"
)  # fmt: skip
PASS = template(
    "free.lesson_pass", "Before the play, everyone passes one card to the player on their right, chosen before "
    "seeing what they receive.", rule="FC-2"
)  # fmt: skip


def say(match: FreeMatch, seat: int, legal: Sequence[str], pointed: str) -> tuple[str, Reason]:
    """A step of Free Clubs' first hand: the auction (FC-3) and the general pass (FC-2) said, else a tricks game's
    step."""
    stage = match.view(seat).to_dict().get("stage")
    if stage == "auction":
        return phase_step(Reason(AUCTION), pointed)
    if stage == "pass":
        return phase_step(Reason(PASS), pointed)
    return trick_say(match, seat, legal, pointed)


LESSON = Lesson(seed=2035, ideas=("choose", "lead", "follow", "trump"), say=say)
"""The first hand of "Learn to play" Free Clubs."""
