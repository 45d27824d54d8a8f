"""What a partnership table shows and asks (:mod:`clubsuite.present`): beside the cards, the teams (CP-3), the
partner, this hand's pass (CP-2) and the cards passed and received; to the seat to act, what it is asked (the pass,
the lead, following: CP-1) and each action's label."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.partnership import events as pc
from clubsuite.games.partnership.hand import PassChoices, receiver
from clubsuite.present import (
    HAND_OVER,
    ITEMS,
    MATCH,
    SEAT,
    SEATS_POINTS,
    TO_POINTS,
    Asked,
    Fact,
    Known,
    Recorded,
    Said,
    Shown,
    dealer_fact,
    match_ended,
    passed_words,
    play_label,
    seat_items,
    suit_key,
    team_badges,
    team_fact,
    told,
    trick_front,
    tricks_words,
)
from clubsuite.reasons import Reason, template

GIVEN = template("partnership.shown_given", "You passed", rule="CP-2")
RECEIVED = template("partnership.shown_received", "You received", rule="CP-2")
PARTNER = template("partnership.shown_partner", "Partner", rule="CP-3")
PASS = template("partnership.shown_pass", "Pass", rule="CP-2")
NO_PASS = template("partnership.shown_no_pass", "none this hand", rule="CP-2")
PASS_TO = template("partnership.shown_pass_to", "three cards {direction_reason}", rule="CP-2")
DIRECTIONS = {
    "left": template("partnership.shown_left", "to the left"),
    "right": template("partnership.shown_right", "to the right"),
}
"""Where this hand's three cards go (CP-2)."""


def teams(n: int) -> tuple[tuple[int, ...], ...]:
    """The two partnerships: partners sit opposite (CP-3)."""
    return tuple(tuple(s for s in range(n) if s % 2 == team) for team in range(2))


def shown(view: Mapping[str, Any], options: object = None) -> Shown:
    """What a partnership view shows beside the cards."""
    n = len(view["hand_sizes"])
    pairs = teams(n)
    known = []
    if view.get("given"):
        known.append(Known(Reason(GIVEN), view["given"]))
    if view.get("received"):
        known.append(Known(Reason(RECEIVED), view["received"]))
    facts = list(dealer_fact(view))
    if view.get("partner") is not None:
        facts.append(Fact(Reason(PARTNER), (Reason(SEAT, seat=view["partner"]),)))
    direction = DIRECTIONS.get(view.get("pass") or "none")
    facts.append(
        Fact(Reason(PASS), (Reason(PASS_TO, direction_reason=Reason(direction)) if direction else Reason(NO_PASS),))
    )
    facts.extend(team_fact(view, pairs))
    facts.append(Fact(Reason(MATCH), (Reason(TO_POINTS, target=view["target"]),)))
    return Shown(
        badges=team_badges(n, pairs),
        stats=((),) * n,
        front=trick_front(view),
        known=tuple(known),
        teams=pairs,
        facts=tuple(facts),
    )


# -- what the seat to act is asked ------------------------------------------------------------------------------------
_AFTER = " (an opponent), then confirm. Nobody receives cards before all four have chosen."
CHOOSE_PASS = {
    "left": template("partnership.ask_pass_left", "Choose three cards to pass to the player on your left" + _AFTER),
    "right": template("partnership.ask_pass_right", "Choose three cards to pass to the player on your right" + _AFTER),
}
PASS_LABEL = {
    "left": template("partnership.label_pass_left", "Pass {cards} to the player on your left", rule="CP-2"),
    "right": template("partnership.label_pass_right", "Pass {cards} to the player on your right", rule="CP-2"),
}
LEAD = template("partnership.ask_lead", "Your lead: play any card (clubs may be led at any time).", rule="CP-1")
FOLLOW = template("partnership.ask_follow", "{led_suit:cap} were led: play a {led_suit:one}.", rule="CP-1")
CLUBS_LED_NONE = template("partnership.ask_clubs_led_none", "Clubs were led and you have none: play any card.")
VOID = template("partnership.ask_void", "You have no {led_suit}: play any card (a club would trump).", rule="CP-1")


def asked(view: Mapping[str, Any], options: object, legal: Sequence[str]) -> Asked:
    """What the seat to act is asked: the three cards to pass (CP-2), its lead or how to follow (CP-1)."""
    if view.get("phase") == "pass":
        return Asked((Reason(CHOOSE_PASS[view["pass"]]),), "CP-2")  # a hand with a pass passes left or right
    trick = view.get("trick") or []
    if not trick:
        return Asked((Reason(LEAD),), "CP-1")
    led = trick[0]["card"][-1]
    hand = (view.get("hand") or "").split()
    if not view.get("hand") or any(c.endswith(led) for c in hand):
        return Asked((Reason(FOLLOW, led_suit=suit_key(led)),), "CP-1")
    if led == "C":
        return Asked((Reason(CLUBS_LED_NONE),), "CP-1")
    return Asked((Reason(VOID, led_suit=suit_key(led)),), "CP-1")


def label(view: Mapping[str, Any], action: str) -> Reason:
    """An action as its button says it: three cards passed (to whom, CP-2), or a play."""
    cards = tuple(t for t in action.split() if t.lower() not in ("pass", "p"))
    if view.get("phase") == "pass":
        return Reason(PASS_LABEL[view["pass"]], cards=cards)
    return play_label(action)


# -- what happened, told ----------------------------------------------------------------------------------------------
DEALT_NO_PASS = template(
    "partnership.said_dealt_no_pass", "Hand {number} is dealt by {seat}; no cards are passed this hand."
)
DEALT_NO_PASS_YOU = template(
    "partnership.said_dealt_no_pass_you", "Hand {number} is dealt by you; no cards are passed this hand."
)
DEALT_PASS = template(
    "partnership.said_dealt_pass",
    "Hand {number} is dealt by {seat}; everyone passes three cards {direction_reason} this hand.",
    rule="CP-2",
)
DEALT_PASS_YOU = template(
    "partnership.said_dealt_pass_you",
    "Hand {number} is dealt by you; everyone passes three cards {direction_reason} this hand.",
    rule="CP-2",
)
CHOSEN = template("partnership.said_chosen", "{seat} has chosen their cards to pass.", rule="CP-2")
CHOSEN_YOU = template("partnership.said_chosen_you", "You have chosen your cards to pass.", rule="CP-2")
PASSED = template("partnership.said_passed", "Everyone's three cards go {direction_reason}.", rule="CP-2")
TRANSFER = template("partnership.said_transfer", "{from_seat} \u2192 {to_seat}: {cards}", rule="CP-2")
"""The three cards one seat passed another, as someone who sees every card reads them (a spectator at the terminal,
which shows every hand as dealt; the page's spectator sees no passed card): the seat that gave them, the seat that
received them, the cards."""


def said(ev: Mapping[str, Any], view: Mapping[str, Any]) -> Said | None:
    """The partnership's own events told: a hand dealt with its pass, the pass (CP-2), a hand's points per
    partnership (CP-3), the match's end with the partnerships' totals."""
    kind = ev["type"]
    if kind == pc.HandStarted.wire and ev.get("direction"):
        seat, number = ev["dealer"], ev["hand_number"] + 1
        direction = DIRECTIONS.get(ev["direction"])
        if direction is None:
            return told(
                seat,
                (Reason(DEALT_NO_PASS, number=number, seat=seat),),
                (Reason(DEALT_NO_PASS_YOU, number=number),),
                "deal",
            )
        where = Reason(direction)
        return told(
            seat,
            (Reason(DEALT_PASS, number=number, seat=seat, direction_reason=where),),
            (Reason(DEALT_PASS_YOU, number=number, direction_reason=where),),
            "deal",
        )
    if kind == pc.PassChosen.wire:
        return told(ev["seat"], (Reason(CHOSEN, seat=ev["seat"]),), (Reason(CHOSEN_YOU),))
    if kind == pc.CardsPassed.wire:
        direction = DIRECTIONS.get(ev["direction"])
        return Said((Reason(PASSED, direction_reason=Reason(direction)),)) if direction else None
    pairs = teams(len(ev.get("scores") or ev.get("totals") or ()))
    if kind == pc.HandScored.wire and ev.get("team_scores"):
        points = tuple(
            Reason(SEATS_POINTS, seats=seats, points=str(v)) for seats, v in zip(pairs, ev["team_scores"], strict=False)
        )
        tricks = seat_items(ev["tricks"], sign=False)
        return Said((Reason(HAND_OVER, point_items=points, trick_items=tricks),), kind="scored")
    if kind == pc.MatchEnded.wire and len(ev.get("totals") or ()) == 4:
        totals = tuple(
            Reason(SEATS_POINTS, seats=seats, points=str(ev["totals"][team])) for team, seats in enumerate(pairs)
        )
        return match_ended(ev, totals)
    return None


SIDE_SCORED = template(
    "partnership.said_side_scored", "{seats} score {n} point", plural="{seats} score {n} points", count="n", rule="CP-3"
)


def account(hand: Mapping[str, Any]) -> Said:
    """A hand in plain words: the tricks each took, each partnership's points (CP-3); told to each seat with
    "you"."""
    tricks = list(hand.get("tricks_won") or ())
    points = []
    if hand.get("team_scores"):
        pairs = teams(len(tricks) or 4)
        items = tuple(
            Reason(SIDE_SCORED, seats=seats, n=v) for seats, v in zip(pairs, hand["team_scores"], strict=False)
        )
        points.append(Reason(ITEMS, point_items=items))
    if not tricks:
        return Said(tuple(points))
    return Said((tricks_words(tricks), *points), {s: (tricks_words(tricks, s), *points) for s in range(len(tricks))})


# -- what a record holds beyond the events (clubs replay's account) ---------------------------------------------------
RECORD_LEGAL_PASS = template("partnership.said_record_legal_pass", "legal: pass any three of {cards}", rule="CP-2")
"""The legal actions while passing (hundreds of ways to choose three cards): the cards they are chosen from."""


def recorded(hand: Any, ev: Event) -> list[Recorded]:
    """What a record holds beyond ``ev`` (a partnership hand): the cards each player passed (CP-2), hidden from the
    others at the table, once all four have chosen."""
    if not isinstance(ev, pc.CardsPassed):
        return []
    moves = [
        (g, receiver(g, hand.direction), tuple(str(c) for c in CardSet(hand.passed[g]))) for g in hand.pass_choices
    ]
    return [(passed_words(moves), 2)]


def recorded_legal(legal: Any) -> Reason | None:
    """A pass at the end of an unfinished record is any three cards of the hand (286 of them, CP-2): said so rather
    than listed; a play's legal cards are listed one by one (None)."""
    if isinstance(legal, PassChoices):
        return Reason(RECORD_LEGAL_PASS, cards=tuple(str(c) for c in CardSet(legal.hand)))
    return None
