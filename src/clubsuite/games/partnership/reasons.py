"""Why a partnership action is refused, as data (:mod:`clubsuite.reasons`): each template's code, ruling and English
words. The English is the engine's sentence, unchanged; other languages word the same code in their catalogs."""

from __future__ import annotations

from clubsuite.reasons import template

# -- the pass (CP-2) ----------------------------------------------------------------------------------------------
NOT_A_PASS_LEFT = template(
    "partnership.not_a_pass_left",
    "{action} is not a pass: before play seat {seat} passes three cards to the left, to seat {to_seat} (CP-2); "
    "write pass and three cards of your hand",
    rule="CP-2",
)
NOT_A_PASS_RIGHT = template(
    "partnership.not_a_pass_right",
    "{action} is not a pass: before play seat {seat} passes three cards to the right, to seat {to_seat} (CP-2); "
    "write pass and three cards of your hand",
    rule="CP-2",
)
PASS_NOT_A_SET = template(
    "partnership.pass_not_a_set",
    "{action} is not a pass: a pass holds a set of three cards, e.g. pass 2C 7H QS (CP-2)",
    rule="CP-2",
)
PASS_OFF_DECK = template(
    "partnership.pass_off_deck",
    "{action} is not a pass: it names cards that are not in the 52-card deck (CP-2)",
    rule="CP-2",
)
PASS_NOT_THREE = template(
    "partnership.pass_not_three_cards",
    "{action} names {count} card: each player passes exactly three (CP-2)",
    rule="CP-2",
    plural="{action} names {count} cards: each player passes exactly three (CP-2)",
    count="count",
)
PASS_NOT_HELD = template(
    "partnership.pass_not_held",
    "{action} is illegal: {missing_cards} is not in your hand (rule: you pass cards you hold; cards received come "
    "only after all four have chosen, CP-2)",
    rule="CP-2",
    plural="{action} is illegal: {missing_cards} are not in your hand (rule: you pass cards you hold; cards "
    "received come only after all four have chosen, CP-2)",
    count="missing_count",
)

# -- trick play (CP-1) --------------------------------------------------------------------------------------------
NO_PASS_THIS_HAND = template(
    "partnership.no_pass_this_hand",
    "{action} is refused: no cards are passed in this hand (CP-2: left, right, then no pass); seat {seat} must "
    "play a card to the trick",
    rule="CP-2",
)
PASS_IS_OVER = template(
    "partnership.pass_is_over",
    "{action} is refused: the pass of this hand is over (CP-2); seat {seat} must play a card to the trick",
    rule="CP-2",
)
NOT_A_CARD = template(
    "partnership.not_a_card",
    "{action} is not a card: seat {seat} must play a card to the trick",
)
MUST_FOLLOW = template(
    "partnership.must_follow",
    "{card} is illegal: {led_suit} were led and you hold {led_suit} ({legal_cards}), so you must follow suit "
    "(rule: a player must follow the suit led if able)",
)

# -- notation -----------------------------------------------------------------------------------------------------
NOT_AN_ACTION = template(
    "partnership.not_an_action",
    "{text} is not a partnership action: expected a card such as 10H or QC, or pass and three cards such as "
    "pass 2C 7H QS",
)
PASS_NAMES_NO_CARDS = template(
    "partnership.pass_names_no_cards",
    "{text} names no cards: write pass and the three cards to pass, e.g. pass 2C 7H QS (CP-2)",
    rule="CP-2",
)
PASS_WORD_NOT_A_CARD = template(
    "partnership.pass_word_not_a_card",
    "{text} is not a pass: {word} is not a card (expected e.g. pass 2C 7H QS)",
)
PASS_CARD_TWICE = template(
    "partnership.pass_card_twice",
    "{text} is not a pass: {card} is named twice (CP-2: three different cards)",
    rule="CP-2",
)
