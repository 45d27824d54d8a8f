"""North Star's CLUBS in the guided first hand (:mod:`clubsuite.lesson`): who starts a trick must play (a single, a
set or a run, NS-3), who follows beats the last play or passes and stays in the trick (NS-3, NS-4; Crazy CLUBS:
NS-11), a play with a 15 takes the trick at once (NS-4), and the last player with cards has one last turn (NS-5)."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.northstar.combos import Call, Play, wins_at_once
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.lesson import CHOOSE, Lesson, cards_of
from clubsuite.reasons import Reason, template

LEAD = template(
    "northstar.lesson_lead", "You start this trick, so you must play: one card, a set of cards of one number, or a "
    "run of numbers in a row. Play {cards}.", rule="NS-3"
)  # fmt: skip
BEAT = template(
    "northstar.lesson_beat", "To beat the last play, play as many cards of the same kind, with a higher top card. "
    "Play {cards}.", rule="NS-3"
)  # fmt: skip
BEAT_CRAZY = template(
    "northstar.lesson_beat_crazy", "To beat the last play, play the same kind with more cards, or as many with a "
    "higher top card. Play {cards}.", rule="NS-11"
)  # fmt: skip
FIFTEEN = template(
    "northstar.lesson_fifteen", "A play with a 15 in it takes the trick at once. Play {cards}.", rule="NS-4"
)
CANNOT = template(
    "northstar.lesson_cannot", "None of your cards beats the last play, so you pass: you stay in the trick, and "
    "the next one may be yours.", rule="NS-4"
)  # fmt: skip
LAST = template(
    "northstar.lesson_last", "Everyone else is out of cards: this is your last turn of the round, to take the trick "
    "or pass, and then the round ends.", rule="NS-5"
)  # fmt: skip
KEEP = template(
    "northstar.lesson_keep", "You could beat the last play, but you may pass and keep your cards for later: "
    "passing never puts you out of the trick.", rule="NS-4"
)  # fmt: skip


def say(match: NorthstarMatch, seat: int, legal: Sequence[str], pointed: str) -> tuple[str, Reason]:
    """What a step of North Star's first hand says (:data:`clubsuite.lesson.SayFn`)."""
    action = match.parse_action(pointed)
    crazy = match.options.crazy
    view = match.view(seat).to_dict()
    if view.get("last_turn") == seat:  # NS-5: the round ends after this turn, whatever it is
        return "last", Reason(LAST)
    if action is Call.PASS:
        plays = [a for a in legal if a not in ("pass", "double")]
        return "pass", Reason(KEEP if plays else CANNOT)
    if not isinstance(action, Play):
        return "choose", Reason(CHOOSE)
    cards = cards_of(pointed)
    if wins_at_once(action, crazy):
        return "fifteen", Reason(FIFTEEN, cards=cards)
    if not view.get("trick"):
        return "lead", Reason(LEAD, cards=cards)
    return "beat", Reason(BEAT_CRAZY if crazy else BEAT, cards=cards)


LESSON = Lesson(seed=2031, ideas=("lead", "beat", "pass", "fifteen"), say=say)
"""The first hand of "Learn to play" North Star's CLUBS."""
