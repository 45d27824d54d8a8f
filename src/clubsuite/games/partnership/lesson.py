"""Clubs (partnership) in the guided first hand (:mod:`clubsuite.lesson`): the pass of three cards (CP-2) with why
these three, what a hand scores and the Ruby Dame (the queen of diamonds, 5 points: CP-3) once she is in sight, and
the tricks game's steps, on a deal chosen for them."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.partnership.match import PartnershipMatch
from clubsuite.jsonform import objects_in
from clubsuite.lesson import BOTH, Explained, Lesson, explained, suit_of, trick_say, why_template
from clubsuite.reasons import Reason, template

PASS_LEFT = template(
    "partnership.lesson_pass_left_rule", "Before the play, everyone passes three cards to the left, to an opponent: "
    "your partner sits opposite.", rule="CP-2"
)  # fmt: skip
PASS_RIGHT = template(
    "partnership.lesson_pass_right_rule", "Before the play, everyone passes three cards to the right, to an opponent: "
    "your partner sits opposite.", rule="CP-2"
)  # fmt: skip
RUBY = template(
    "partnership.lesson_ruby_rule", "Your side scores 1 for each trick and 1 for each club in it, and the {card}, the "
    "Ruby Dame, is worth 5 to the side that takes her.", rule="CP-3"
)  # fmt: skip
PASS_VOID = why_template(
    "partnership.lesson_why_pass_void", "Passing the {cards} leaves you without {suit}: when they are led, a club of "
    "yours can take the trick."
)  # fmt: skip
PASS_LOW = why_template(
    "partnership.lesson_why_pass", "The {cards} are the cards you will miss least; your clubs and best cards stay "
    "out of the opponent's hands."
)  # fmt: skip
RUBY_CARD = "QD"


def say(match: PartnershipMatch, seat: int, legal: Sequence[str], pointed: str, seen: frozenset[str]) -> Explained:
    """A step of the partnership game's first hand: the pass (CP-2) and why these cards; in the play, the Ruby
    Dame and the points (CP-3) the first time she is in the seat's hand, in the trick or pointed at, then a tricks
    game's step."""
    view = match.view(seat).to_dict()
    hand = str(view.get("hand", "")).split()
    if view.get("phase") == "pass":
        given = pointed.split()[1:]
        emptied = [
            s for s in {suit_of(c) for c in given} if s and not any(suit_of(c) == s for c in hand if c not in given)
        ]
        why = (
            Reason(PASS_VOID, cards=tuple(given), suit=emptied[0]) if emptied else Reason(PASS_LOW, cards=tuple(given))
        )
        rule = Reason(PASS_LEFT if view.get("pass") == "left" else PASS_RIGHT)
        return explained("pass", why, seen, [("pass", rule)])
    said = trick_say(match, seat, legal, pointed, seen)
    trick = [str(p["card"]) for p in objects_in(view.get("trick"))]
    if "ruby" not in seen and RUBY_CARD in (*hand, *trick):
        rule = (
            Reason(RUBY, card=RUBY_CARD)
            if said.rule is None
            else Reason(BOTH, reason=Reason(RUBY, card=RUBY_CARD), why_reason=said.rule)
        )
        return Explained(said.idea, said.why, rule, ("ruby", *said.told))
    return said


LESSON = Lesson(seed=2044, ideas=("pass", "ruby", "lead", "follow", "trump", "discard"), say=say)
"""The first hand of "Learn to play" Clubs (partnership)."""
