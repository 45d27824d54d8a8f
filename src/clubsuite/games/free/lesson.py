"""Free Clubs in the guided first hand (:mod:`clubsuite.lesson`): the game's own ideas said where the hand meets
them, each with why the choice marked is good: the treasure chest and the seven tricks its winner needs, the
handicaps every bid card brings (FC-3, FC-5), the Joker (FC-4), the pass to the right (FC-2); then the tricks
game's steps (an ace is the lowest card of its suit, a nine the highest), on a deal chosen for them."""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.free.match import FreeMatch
from clubsuite.jsonform import JsonObject, objects_in
from clubsuite.lesson import Explained, Lesson, explained, suit_of, trick_say, why_template
from clubsuite.reasons import Reason, template

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9")
"""A suit's playing cards, lowest first: the ace is the lowest, the nine the highest."""
CHEST = template(
    "free.lesson_chest_rule", "The last bidder wins the six hidden cards of the treasure chest, then needs 7 of the "
    "10 tricks or loses 50 points.", rule="FC-3"
)  # fmt: skip
HANDICAP = template(
    "free.lesson_handicap_rule", "Each card bid is a handicap for its winner: a 10 costs a card of its suit, a jack "
    "the highest, a queen passes that one to the left, a king costs the three highest.",
    rule="FC-5",
)  # fmt: skip
JOKER = template(
    "free.lesson_joker_rule", "A Joker ends the auction at once: its bidder wins the chest and teams up with the last "
    "bidder to take all 10 tricks.", rule="FC-4"
)  # fmt: skip
PASS_RULE = template(
    "free.lesson_pass_rule", "Before the play, everyone passes one card to the player on their right, chosen before "
    "seeing what they receive.", rule="FC-2"
)  # fmt: skip
OPEN = why_template(
    "free.lesson_why_open", "You hold the {card}, the lowest auction card: its holder must open the auction with it."
)
STAY_OUT = why_template(
    "free.lesson_why_stay_out", "Your trick takers ({cards}) are too few for 7 tricks after a handicap, so pass: "
    "you may bid again later."
)  # fmt: skip
STAY_OUT_NONE = why_template(
    "free.lesson_why_stay_out_none", "You hold no clubs, nines or eights, the cards that take tricks, so pass and "
    "let the others pay for the chest."
)  # fmt: skip
NO_BID = why_template("free.lesson_why_no_bid", "None of your auction cards may be bid over the {card}, so you pass.")
BID = why_template(
    "free.lesson_why_bid", "Your trick takers ({cards}) can bear the handicap of the {card}: bid it and stay in "
    "the race for the chest."
)  # fmt: skip
BID_JOKER = why_template(
    "free.lesson_why_joker", "With the {card} you win the chest at once and share the contract with the last bidder."
)
TEN = why_template(
    "free.lesson_why_ten", "The 10 you bid costs you one {suit:one} of your choice: the {card}, your lowest, is the "
    "one you will miss least."
)  # fmt: skip
GIVE_LOW = why_template(
    "free.lesson_why_give_low", "The {card}, your lowest {suit:one}, is the card least likely to take a trick, and "
    "it earns no bonus as diamonds and the {bonus_card} do."
)  # fmt: skip
GIVE = why_template("free.lesson_why_give", "The {card} is the card you will miss least in the play.")


def trick_makers(hand: Sequence[str]) -> tuple[str, ...]:
    """The playing cards a newcomer counts on for tricks: the clubs (the trump), then the nines and eights."""
    clubs = [c for c in hand if suit_of(c) == "clubs"]
    high = [c for c in hand if c[:-1] in ("9", "8") and suit_of(c) != "clubs"]
    return (*clubs, *high)


def auction_why(view: JsonObject, legal: Sequence[str], pointed: str) -> Reason:
    """Why the bid or pass marked in the auction."""
    makers = trick_makers(str(view.get("hand", "")).split())
    if pointed.startswith("JK"):
        return Reason(BID_JOKER, card=pointed)
    if pointed != "pass":
        if "pass" not in legal:
            return Reason(OPEN, card=pointed)
        return Reason(BID, cards=makers, card=pointed)
    if legal == ["pass"]:
        auction = objects_in(view.get("auction"))
        bids = [b for b in auction if b.get("bid") != "pass"]
        return Reason(NO_BID, card=str(bids[-1]["bid"])) if bids else Reason(STAY_OUT, cards=makers)
    return Reason(STAY_OUT, cards=makers) if makers else Reason(STAY_OUT_NONE)


def say(match: FreeMatch, seat: int, legal: Sequence[str], pointed: str, seen: frozenset[str]) -> Explained:
    """A step of Free Clubs' first hand: in the auction the chest, the handicaps and the Joker (first the Joker
    where the seat holds one or one was bid), the Ten's discard, the pass, each with why; else a tricks game's
    step."""
    view = match.view(seat).to_dict()
    stage = view.get("stage")
    hand = str(view.get("hand", "")).split()
    if stage == "auction":
        rules = [("chest", Reason(CHEST)), ("handicap", Reason(HANDICAP)), ("joker", Reason(JOKER))]
        bid = [str(b.get("bid")) for b in objects_in(view.get("auction"))]
        if any(c.startswith("JK") for c in (*str(view.get("auction_hand", "")).split(), *bid)):
            rules.insert(1, rules.pop())  # the Joker in sight: said second, after the chest
        return explained("auction", auction_why(view, legal, pointed), seen, rules)
    if stage == "pass" or stage == "handicap":
        card = pointed
        suit = suit_of(card) or "clubs"
        mine = sorted((c for c in hand if suit_of(c) == suit), key=lambda c: RANKS.index(c[:-1]))
        if stage == "handicap":
            why = Reason(TEN, card=card, suit=suit) if card == mine[0] else Reason(GIVE, card=card)
            return explained("handicap", why, seen, [("handicap", Reason(HANDICAP))])
        low = card == mine[0] and suit != "diamonds" and card != "AH"
        why = Reason(GIVE_LOW, card=card, suit=suit, bonus_card="AH") if low else Reason(GIVE, card=card)
        return explained("pass", why, seen, [("pass", Reason(PASS_RULE))])
    return trick_say(match, seat, legal, pointed, seen, RANKS)


LESSON = Lesson(seed=2399, ideas=("chest", "handicap", "joker", "pass", "lead", "follow", "trump"), say=say)
"""The first hand of "Learn to play" Free Clubs."""
