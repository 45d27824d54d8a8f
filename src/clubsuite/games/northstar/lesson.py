"""North Star's CLUBS in the guided first hand (:mod:`clubsuite.lesson`): the game's own ideas said where the round
meets them, each with why the play marked is good: going out and the bonus cards (NS-5, NS-1), the points of the
clubs taken (NS-2), who starts a trick plays a single, a set or a run (NS-3), who follows beats the last play or
passes and stays in the trick (NS-3, NS-4; Crazy CLUBS: NS-11), a play with a 15 takes the trick at once (NS-4),
the last player with cards has one last turn (NS-5), double or nothing (NS-8)."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.northstar.combos import Call, Play, wins_at_once
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.jsonform import objects_in
from clubsuite.lesson import Explained, Lesson, cards_of, explained, suit_of, why_template
from clubsuite.reasons import Reason, template

GOING_OUT = template(
    "northstar.lesson_going_out_rule", "Get rid of your cards: whoever still holds cards at the end scores nothing "
    "for the round.", rule="NS-5"
)  # fmt: skip
BONUS = template(
    "northstar.lesson_bonus_rule", "Each player who plays their last card takes the highest bonus card left, worth "
    "its points.", rule="NS-5"
)  # fmt: skip
CLUB_POINTS = template(
    "northstar.lesson_club_points_rule", "Only clubs score: each club in the tricks you take is worth points, a low "
    "club more than a high one.", rule="NS-2"
)  # fmt: skip
LEAD = template(
    "northstar.lesson_lead_rule", "Whoever starts a trick must play: one card, a set of cards of one number, or a "
    "run of numbers in a row.", rule="NS-3"
)  # fmt: skip
BEAT = template(
    "northstar.lesson_beat_rule", "To beat the last play, play as many cards of the same kind with a higher top card.",
    rule="NS-3",
)  # fmt: skip
BEAT_CRAZY = template(
    "northstar.lesson_beat_crazy_rule", "To beat the last play, play the same kind with more cards, or as many with "
    "a higher top card.", rule="NS-11"
)  # fmt: skip
PASS = template(
    "northstar.lesson_pass_rule", "Passing never puts you out of the trick: it goes on until everyone else has "
    "passed after the last play.", rule="NS-4"
)  # fmt: skip
FIFTEEN = template(
    "northstar.lesson_fifteen_rule", "A play with a 15 in it takes the trick at once.", rule="NS-4"
)  # fmt: skip
LAST = template(
    "northstar.lesson_last_rule", "Everyone else is out of cards: this is your last turn of the round, to take the "
    "trick or pass, and then the round ends.", rule="NS-5"
)  # fmt: skip
DOUBLE = template(
    "northstar.lesson_double_rule", "Before your first card you may call double or nothing: first to go out, your "
    "round's points count twice; otherwise you score nothing.", rule="NS-8"
)  # fmt: skip
KEEP = why_template(
    "northstar.lesson_why_keep", "Beating the {trick_cards} would use up your {play_cards}: pass, and you may "
    "still play later in this trick."
)  # fmt: skip
CANNOT = why_template(
    "northstar.lesson_why_cannot", "Nothing in your hand beats the {trick_cards}, so you pass, and you stay in the "
    "trick."
)  # fmt: skip
LEAD_LOW = why_template(
    "northstar.lesson_why_lead_low", "The {cards} is your lowest card: play it now, while you choose the kind, as a "
    "low single is hard to be rid of later."
)  # fmt: skip
LEAD_MANY = why_template(
    "northstar.lesson_why_lead_many", "With {cards} several cards leave your hand in one play, which brings you "
    "closer to going out."
)  # fmt: skip
LEAD_ONE = why_template(
    "northstar.lesson_why_lead_one", "The {cards} fits no set or run of yours, so it is best played alone while you "
    "choose the kind."
)  # fmt: skip
BEAT_LOW = why_template(
    "northstar.lesson_why_beat_low", "{cards}: the lowest play of yours that beats the {trick_cards}, so your higher "
    "cards stay for later."
)  # fmt: skip
BEAT_ANY = why_template(
    "northstar.lesson_why_beat", "{cards} beats the {trick_cards} and brings you closer to going out."
)
TAKE = why_template(
    "northstar.lesson_why_fifteen", "With {cards} you take the trick at once and start the next one."
)  # fmt: skip
LAST_TAKE = why_template(
    "northstar.lesson_why_last_take", "Take the trick with {cards}: you score nothing this round anyway, but its "
    "clubs then score for nobody else."
)  # fmt: skip
LAST_PASS = why_template(
    "northstar.lesson_why_last_pass", "You score nothing this round whatever you do, and nothing you hold beats the "
    "{trick_cards}, so pass."
)  # fmt: skip
CALL = why_template(
    "northstar.lesson_why_double", "Your hand looks quick to play out, so the bet is worth making before your first "
    "card."
)  # fmt: skip


def lowest_beat(match: NorthstarMatch, legal: Sequence[str]) -> str | None:
    """The lowest play among ``legal`` (fewest cards, then the lowest top card), or None where none is a play."""
    plays = [(match.parse_action(a), a) for a in legal if a not in ("pass", "double")]
    found = [(p.size, p.high, a) for p, a in plays if isinstance(p, Play)]
    return min(found)[2] if found else None


def say(match: NorthstarMatch, seat: int, legal: Sequence[str], pointed: str, seen: frozenset[str]) -> Explained:
    """What a step of North Star's first hand says (:data:`clubsuite.lesson.SayFn`): going out and the bonus cards
    first, the points of clubs once a club is in sight, then the moment's rule (once each) and why this play."""
    action = match.parse_action(pointed)
    crazy = match.options.crazy
    view = match.view(seat).to_dict()
    trick = objects_in(view.get("trick"))
    last = cards_of(str(trick[-1]["play"])) if trick else ()
    shown = (*cards_of(pointed), *(c for p in trick for c in cards_of(str(p["play"]))))
    rules: list[tuple[str, Reason]] = [("going_out", Reason(GOING_OUT)), ("bonus", Reason(BONUS))]
    if any(suit_of(c) == "clubs" for c in shown):
        rules.append(("club_points", Reason(CLUB_POINTS)))
    lowest = lowest_beat(match, legal)
    if view.get("last_turn") == seat:  # NS-5: the round ends after this turn, whatever it is
        why = (
            Reason(LAST_TAKE, cards=cards_of(pointed))
            if isinstance(action, Play)
            else Reason(LAST_PASS, trick_cards=last)
        )
        return explained("last", why, seen, [("last", Reason(LAST))])
    if action is Call.PASS:
        if lowest is not None:
            why = Reason(KEEP, trick_cards=last, play_cards=cards_of(lowest))
        else:
            why = Reason(CANNOT, trick_cards=last)
        return explained("pass", why, seen, [*rules, ("pass", Reason(PASS))])
    if not isinstance(action, Play):
        return explained("double", Reason(CALL), seen, [("double", Reason(DOUBLE)), *rules])
    cards = cards_of(pointed)
    if wins_at_once(action, crazy):
        return explained("fifteen", Reason(TAKE, cards=cards), seen, [*rules, ("fifteen", Reason(FIFTEEN))])
    if not trick:
        values = [int(c[:-1]) for c in str(view.get("hand", "")).split()]
        if action.size > 1:
            why = Reason(LEAD_MANY, cards=cards)
        elif action.high == min(values):
            why = Reason(LEAD_LOW, cards=cards)
        else:
            why = Reason(LEAD_ONE, cards=cards)
        return explained("lead", why, seen, [*rules, ("lead", Reason(LEAD))])
    why = (
        Reason(BEAT_LOW, cards=cards, trick_cards=last)
        if pointed == lowest
        else Reason(BEAT_ANY, cards=cards, trick_cards=last)
    )
    return explained("beat", why, seen, [*rules, ("beat", Reason(BEAT_CRAZY if crazy else BEAT))])


LESSON = Lesson(seed=2031, ideas=("going_out", "bonus", "club_points", "lead", "beat", "pass", "fifteen"), say=say)
"""The first hand of "Learn to play" North Star's CLUBS."""
