"""Why a whist action is refused, as data (:mod:`clubsuite.reasons`): each template's code, ruling and English
words. The English is the engine's sentence, unchanged; other languages word the same code in their catalogs."""

from __future__ import annotations

from clubsuite.reasons import template

CLUB_MUST_BEAT = template(
    "whist.club_lead_must_beat",
    "{card} is illegal: you hold {legal_cards}, which beat the {top_card} so far, and on a club lead you must play "
    "a higher club if you can (CW-1)",
    rule="CW-1",
)
CLUB_MUST_FOLLOW = template(
    "whist.club_lead_must_follow",
    "{card} is illegal: you hold clubs ({legal_cards}) and must follow the club lead (CW-1)",
    rule="CW-1",
)
MUST_BEAT_LED = template(
    "whist.must_beat_led",
    "{card} is illegal: you hold {legal_cards}, which beat the {top_card}, the highest {led_suit:one} so far, and "
    "you must beat the highest card if you can (CW-1)",
    rule="CW-1",
)
MUST_FOLLOW = template(
    "whist.must_follow",
    "{card} is illegal: you must follow suit with a {led_suit:one} ({legal_cards}) (CW-1)",
    rule="CW-1",
)
MUST_TRUMP = template(
    "whist.must_trump",
    "{card} is illegal: you have no {led_suit} and hold clubs ({legal_cards}), which would win the trick, and you "
    "must win the trick if you can (CW-1)",
    rule="CW-1",
)
MUST_OVERTRUMP = template(
    "whist.must_overtrump",
    "{card} is illegal: you have no {led_suit} and hold {legal_cards}, which beat the {top_card} played, and you "
    "must win the trick if you can (CW-1)",
    rule="CW-1",
)
CLUBS_NOT_BROKEN = template(
    "whist.clubs_not_broken",
    "{card} is illegal: clubs are not broken and you hold other suits ({other_cards}); a club may be led only once "
    "clubs are broken or when you hold only clubs (CW-2)",
    rule="CW-2",
)
NOT_A_DECISION = template(
    "whist.not_a_decision",
    "{action} is not an exchange decision: seat {seat} must keep or exchange with the bid hand before play starts "
    "(CW-4)",
    rule="CW-4",
)
NOT_A_CARD = template(
    "whist.not_a_card",
    "{action} is not a card: the exchange round is over (CW-4) and seat {seat} must play a card (rule: each player "
    "plays one card to every trick)",
    rule="CW-4",
)
NOT_AN_ACTION = template(
    "whist.not_an_action",
    "{text} is not a whist action: expected keep, exchange or a card such as 10H or QC",
)
