"""The browser tests' leak check reads its oracle in a safe order: the page first, the server's match after.

What a seat may know only grows during a match, so the match read after the page allows everything the page could
have been shown; read before, a card a bot plays while the page is being read would pass for a leak. The page here
is a stand-in whose reading is the moment a bot plays: the card it shows was in another seat's hand a moment
before.
"""

from __future__ import annotations

import random
from typing import Any

from browserkit import Watched, assert_no_leak

from clubsuite.cards import CardSet
from clubsuite.engine import SomeMatch, resolve
from clubsuite.runner import deal_next
from knowable import knowable_cards


class PageWhereABotPlays:
    """A page whose reading is the moment seat 1 plays a card: it shows that card."""

    def __init__(self, match: SomeMatch) -> None:
        self.match = match
        self.shown: str | None = None

    def evaluate(self, _script: str) -> dict[str, Any]:
        card = next(iter(self.match.legal_actions()))
        self.match.apply(card)
        self.shown = str(card)
        return {"marks": [self.shown], "text": "", "labels": []}


def whist_with_seat_1_to_play() -> SomeMatch:
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    deal_next(match, info, 5)
    rng = random.Random(5)
    while not (match.to_act == 1 and isinstance(match.legal_actions(), CardSet)):
        legal = list(match.legal_actions())
        match.apply(legal[rng.randrange(len(legal))])
    return match


def test_the_leak_check_reads_the_match_after_the_page() -> None:
    match = whist_with_seat_1_to_play()
    before = knowable_cards(match, 0)
    page = PageWhereABotPlays(match)
    watched = Watched(page, seat=0)
    assert assert_no_leak(watched, lambda: match, "whist") == 1  # the card played while the page was read is public
    assert page.shown is not None and page.shown not in before  # read first, the oracle would have cried leak
