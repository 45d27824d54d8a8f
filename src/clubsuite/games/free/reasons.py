"""Why a Free Clubs action is refused, as data (:mod:`clubsuite.reasons`): each template's code, ruling and English
words. The English is the engine's sentence, unchanged; other languages word the same code in their catalogs."""

from __future__ import annotations

from collections.abc import Mapping

from clubsuite.reasons import Template, template

# -- the auction (FC-3) -----------------------------------------------------------------------------------------
PASS_BEFORE_OPENING = template(
    "free.pass_before_opening",
    "pass is illegal: you hold {opening_card} and must open the auction with it (FC-3)",
    rule="FC-3",
)
NOT_AN_AUCTION_ACTION = template(
    "free.not_an_auction_action",
    "{action} is not an auction action: bid an auction card or pass (FC-3)",
    rule="FC-3",
)
NOT_AN_AUCTION_CARD = template(
    "free.not_an_auction_card",
    "{card} is not an auction card: bids are made with a Joker, King, Queen, Jack or Ten (FC-3)",
    rule="FC-3",
)
AUCTION_CARD_NOT_HELD = template(
    "free.auction_card_not_held",
    "{card} is not among your auction cards (FC-3)",
    rule="FC-3",
)
MUST_OPEN_WITH_TEN = template(
    "free.must_open_with_ten_of_spades",
    "{card} is illegal: the holder of {opening_card} must open the auction with it (FC-3)",
    rule="FC-3",
)
BID_NOT_HIGHER = template(
    "free.bid_not_higher",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; it is not higher (FC-3)",
    rule="FC-3",
)
BID_QUEEN_OVER_TEN = template(
    "free.bid_too_high_queen_over_ten",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; Q is more than one level above 10 (FC-3)",
    rule="FC-3",
)
BID_KING_OVER_TEN = template(
    "free.bid_too_high_king_over_ten",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; K is more than one level above 10 (FC-3)",
    rule="FC-3",
)
BID_JOKER_OVER_TEN = template(
    "free.bid_too_high_joker_over_ten",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; Joker is more than one level above 10 (FC-3)",
    rule="FC-3",
)
BID_KING_OVER_JACK = template(
    "free.bid_too_high_king_over_jack",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; K is more than one level above J (FC-3)",
    rule="FC-3",
)
BID_JOKER_OVER_JACK = template(
    "free.bid_too_high_joker_over_jack",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; Joker is more than one level above J (FC-3)",
    rule="FC-3",
)
BID_JOKER_OVER_QUEEN = template(
    "free.bid_too_high_joker_over_queen",
    "{card} is illegal: a bid must be higher than {last_card}, the most recent bid, and at most one level above "
    "it; Joker is more than one level above Q (FC-3)",
    rule="FC-3",
)

BID_TOO_HIGH: Mapping[tuple[int, int], Template] = {
    (2, 0): BID_QUEEN_OVER_TEN,
    (3, 0): BID_KING_OVER_TEN,
    (4, 0): BID_JOKER_OVER_TEN,
    (3, 1): BID_KING_OVER_JACK,
    (4, 1): BID_JOKER_OVER_JACK,
    (4, 2): BID_JOKER_OVER_QUEEN,
}
"""A bid more than one level above the most recent one, by (its level, the most recent bid's level): 0 for a Ten,
1 Jack, 2 Queen, 3 King, 4 Joker. A Joker ends the auction, so no bid ever follows one."""

# -- after the auction: the Ten's discard (FC-5), the pass (FC-2), play --------------------------------------------
NOT_A_CARD_TEN = template(
    "free.not_a_card_ten_discard",
    "{action} is not a card: the auction is over and seat {seat} must choose the card your bid of {bid_card} discards "
    "(FC-5)",
    rule="FC-5",
)
NOT_A_CARD_PASS = template(
    "free.not_a_card_pass",
    "{action} is not a card: the auction is over and seat {seat} must choose a card to pass to the right (FC-2)",
    rule="FC-2",
)
NOT_A_CARD_PLAY = template(
    "free.not_a_card_play",
    "{action} is not a card: the auction is over and seat {seat} must play a card to the trick",
)
TEN_DISCARD_SUIT = template(
    "free.ten_discard_suit",
    "{card} is illegal: your bid of {bid_card} discards one primary card of {suit} (A to 9) of your choice from "
    "your hand (FC-5)",
    rule="FC-5",
)
NOT_HELD_PASS = template(
    "free.not_held_pass",
    "{card} is not in your hand: you choose a card to pass to the right (FC-2) from the primary cards you hold",
    rule="FC-2",
)
NOT_HELD_PLAY = template(
    "free.not_held_play",
    "{card} is not in your hand: you play a card to the trick from the primary cards you hold",
)
MUST_FOLLOW = template(
    "free.must_follow",
    "{card} is illegal: {led_suit} were led and you hold {led_suit}, so you must follow suit (rule: follow suit if "
    "you can)",
)

# -- calls of misplays (FC-10) ----------------------------------------------------------------------------------
CALL_NEEDS_OPTION = template(
    "free.call_needs_option",
    "call {card} is refused: calling a misplay needs the table option misplays=true (FC-10)",
    rule="FC-10",
)
CALL_WITHOUT_CALLER = template(
    "free.call_without_caller",
    "call {card} is refused: a call must name the calling seat (FC-10)",
    rule="FC-10",
)
CALL_CALLER_NOT_A_SEAT = template(
    "free.call_caller_not_a_seat",
    "call {card} is refused: a call needs the calling seat (0, 1 or 2), got {caller_text} (FC-10)",
    rule="FC-10",
)
CALL_CALLER_MISMATCH = template(
    "free.call_caller_mismatch",
    "call {card} by {caller_seat} is refused: it names seat {caller_seat} as the caller, not seat {seat} (FC-10)",
    rule="FC-10",
)
CALL_BEFORE_DEAL = template(
    "free.call_before_deal",
    "call {card} is refused: no hand has been dealt yet (FC-10)",
    rule="FC-10",
)
CALL_NOT_ON_TABLE = template(
    "free.call_not_on_table",
    "call {card} is refused: {card} is not on the table of this hand; a call names a card played in the hand in "
    "progress, or in the hand just scored until the next deal (FC-10)",
    rule="FC-10",
)
CALL_OF_LEAD = template(
    "free.call_of_lead",
    "call {card} is refused: {card} led trick {n}; a lead cannot be a misplay (FC-10)",
    rule="FC-10",
)
CALL_FOLLOWED_SUIT = template(
    "free.call_followed_suit",
    "call {card} is refused: {card} followed the led suit ({led_suit}); only a card that did not follow suit can be "
    "called (FC-10)",
    rule="FC-10",
)
CALL_OWN_CARD = template(
    "free.call_own_card",
    "call {card} is refused: seat {seat} played {card}; only another player may call it (FC-10)",
    rule="FC-10",
)
CALL_ALREADY_CHECKED = template(
    "free.call_already_checked",
    "call {card} is refused: {card} has already been called and checked (FC-10)",
    rule="FC-10",
)

# -- notation ---------------------------------------------------------------------------------------------------
CALL_MALFORMED = template(
    "free.call_malformed",
    "{text} is not a call: expected call, one card and optionally by and the calling seat, e.g. call 7H or call 7H "
    "by 2 (FC-10)",
    rule="FC-10",
)
CALL_CARD_UNREADABLE = template(
    "free.call_card_unreadable",
    "{text} is not a call: {card_text} is not a card (expected e.g. call 7H)",
)
CALL_CALLER_UNREADABLE = template(
    "free.call_caller_unreadable",
    "{text} is not a call: the caller {caller_text} is not a seat (expected 0, 1 or 2) (FC-10)",
    rule="FC-10",
)
NOT_AN_ACTION = template(
    "free.not_an_action",
    "{text} is not a Free Clubs action: expected pass or a card such as KD, 10S, 7H or JK1",
)
