"""What a spectator of Clubs (whist group) is shown: the exchange decisions and the cards played, never the bid hand
nor what an exchange showed the exchanger (CW-4)."""

from __future__ import annotations

from clubsuite.cards import CardSet
from clubsuite.games.whist import WhistMatch
from clubsuite.games.whist.spectator import public_dict
from knowable import cards_named, knowable_cards
from whist_helpers import deal_of, play_cards


def exchanged_match() -> WhistMatch:
    """Seat 2 deals; seat 0 exchanges its diamonds for the clubs of the bid hand, seats 1 and 2 keep; seat 0, the last
    exchanger, leads (CW-3)."""
    match = WhistMatch(first_dealer=2)
    match.deal(
        deal=deal_of(
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        )
    )
    for decision in ("exchange", "keep", "keep"):
        match.apply(decision)
    return match


def test_cw4_the_exchangers_view_knows_the_hand_it_left_and_the_spectator_knows_neither() -> None:
    match = exchanged_match()
    left = CardSet.parse("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    mine = match.view(0).to_dict()
    assert mine["known_cards"] == {"bid": str(left)}
    shown = public_dict(match)
    assert "known_cards" not in shown and shown["hand"] is None
    assert shown["decisions"] == [
        {"seat": 0, "exchanged": True},
        {"seat": 1, "exchanged": False},
        {"seat": 2, "exchanged": False},
    ]
    assert cards_named(shown, "whist") == set()
    # the oracle: seat 0 saw both hands (CW-4), the others only their own, the table nothing yet
    assert knowable_cards(match, 0) == {str(c) for c in left | match.current.hands[0]}
    assert knowable_cards(match, None) == set()


def test_cw4_the_spectator_sees_the_cards_played_and_the_hand_sizes_only() -> None:
    match = exchanged_match()
    lead = match.legal_actions()[0]
    play_cards(match, str(lead))
    shown = public_dict(match)
    assert cards_named(shown, "whist") == {str(lead)}
    assert shown["trick"] == [{"seat": 0, "card": str(lead)}] and shown["hand_sizes"] == [12, 13, 13]
    assert shown["bid_size"] == 13 and "legal" not in shown
