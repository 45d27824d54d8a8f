"""What a spectator of Clubs (partnership) is shown: who has chosen a pass and the cards played, never the three
cards passed (CP-2)."""

from __future__ import annotations

import random

from partnership_helpers import random_legal

from clubsuite.cards import CardSet
from clubsuite.games.partnership import PartnershipMatch
from clubsuite.games.partnership.spectator import public_dict
from knowable import cards_named, knowable_cards


def test_cp2_passed_cards_show_to_giver_and_receiver_and_never_to_the_spectator() -> None:
    rng = random.Random(3)
    match = PartnershipMatch()
    match.deal(rng)
    for chosen in range(4):
        shown = public_dict(match)
        assert shown["chosen"] == list(match.current.pass_choices) and len(shown["chosen"]) == chosen
        assert shown["given"] is None and shown["received"] is None and cards_named(shown, "partnership") == set()
        match.apply(random_legal(match.legal_actions(), rng))
    hand = match.current
    assert hand is not None and shown["pass"] == "left"
    for giver in range(4):
        cards = {str(c) for c in CardSet(hand.passed[giver])}
        receiver = (giver + 1) % 4  # CP-2: the first hand passes left
        assert match.view(receiver).to_dict()["received"] == str(CardSet(hand.passed[giver]))
        assert cards <= knowable_cards(match, receiver) and not cards & knowable_cards(match, None)
    shown = public_dict(match)
    assert shown["given"] is None and shown["received"] is None and "known_cards" not in shown
    assert shown["partner"] is None and shown["pass_to"] is None and shown["pass_from"] is None
    assert cards_named(shown, "partnership") == set()
