"""Tests of the heuristic Clubs (partnership) bot: legal play, the pass, partnership play, no hidden reads, strength.

Positions are set up in the third hand of a match, the one without a pass (CP-2), on exact deals; the bot is asked
through the seat's view, as in a real match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from partnership_helpers import pdeal, play

from clubsuite.bots import RandomBot, make_bot
from clubsuite.cards import CLUBS_MASK, SUIT_MASKS, CardSet, card, cards
from clubsuite.errors import IllegalActionError
from clubsuite.games.partnership import PartnershipDeal, PartnershipMatch, Pass, PassChoices
from clubsuite.games.partnership.bot import PartnershipHeuristicBot
from clubsuite.runner import play_match

FILLER = PartnershipDeal.from_seed(1)


def third_hand(deal: PartnershipDeal, leader: int) -> PartnershipMatch:
    """A match whose third hand (no pass, CP-2) is ``deal``, dealt so that ``leader`` leads its first trick."""
    match = PartnershipMatch(first_dealer=(leader - 3) % 4)
    for _ in range(2):
        match.deal(deal=FILLER)
        while match.current is not None:
            match.apply(match.legal_actions()[0])
    match.deal(deal=deal)
    assert match.to_act == leader
    return match


def bot_choice(match: PartnershipMatch, seed: int = 1) -> Any:
    """What the heuristic bot plays for the seat to act, checked to be legal."""
    seat = match.to_act
    assert seat is not None
    legal = match.legal_actions()
    action = PartnershipHeuristicBot().choose(match.view(seat), legal, random.Random(seed))
    assert action in legal
    return action


# -- registry and legality ---------------------------------------------------------------------------------------
def test_heuristic_bot_is_registered_for_partnership() -> None:
    assert isinstance(make_bot("heuristic", "partnership"), PartnershipHeuristicBot)
    assert isinstance(make_bot("random", "partnership"), RandomBot)


def test_bot_asked_to_act_with_no_legal_action_says_so() -> None:
    match = third_hand(FILLER, 0)
    with pytest.raises(IllegalActionError, match="no legal action"):
        PartnershipHeuristicBot().choose(match.view(1), CardSet(0), random.Random(0))


@pytest.mark.parametrize("seed", range(4))
def test_cp1_cp2_heuristic_bots_only_choose_legal_actions_in_whole_matches(seed: int) -> None:
    rng = random.Random(seed)
    bots: list[Any] = [PartnershipHeuristicBot(), RandomBot(), PartnershipHeuristicBot(), PartnershipHeuristicBot()]
    match = PartnershipMatch(first_dealer=seed % 4)
    while not match.is_over:
        match.deal(rng=rng)
        while match.to_act is not None:
            seat = match.to_act
            legal = match.legal_actions()
            action = bots[seat].choose(match.view(seat), legal, rng)
            assert action in legal, f"seat {seat} chose {action}"
            match.apply(action)


# -- the pass (CP-2) ---------------------------------------------------------------------------------------------
def pass_choice(hand: str) -> CardSet:
    """The three cards the bot passes from ``hand`` (seat 1, first to choose in the first hand)."""
    deal = pdeal("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", hand, "2D 3D 4D 5D 6D 7D 8D 9D 10D JD KD AD 2H")
    match = PartnershipMatch()
    match.deal(deal=deal)
    action = bot_choice(match)
    assert isinstance(action, Pass) and isinstance(match.legal_actions(), PassChoices)
    return action.cards


def test_cp2_the_pass_gives_low_cards_and_empties_a_short_suit_to_ruff_with_its_clubs() -> None:
    # Three low spades are the only spades: passing them leaves a void for the clubs to ruff.
    given = pass_choice("QD 3H 4H 5H 6H 7H 8H KH AH 2S 3S 4S 5S")
    assert given == cards("2S 3S 4S") or given == cards("3S 4S 5S") or given & SUIT_MASKS[3] == int(given)


def test_cp2_the_pass_keeps_clubs_and_the_ruby_dame_when_low_plain_cards_can_go() -> None:
    deal = pdeal(
        "AC KC QC 2D 3D 9H 10H JH 2S 3S 9S 10S JS",
        "2C 3C 4C QD 4D 5D 2H 3H 4H 4S 5S 6S 7S",
        "5C 6C 7C 8C 5H 6H 7H 8H 8S QS KS AS 6D",
    )
    match = PartnershipMatch()
    match.deal(deal=deal)
    for _ in range(4):
        action = bot_choice(match)
        assert isinstance(action, Pass)
        assert not int(action.cards) & (CLUBS_MASK | card("QD").bit), f"passed {action}"
        match.apply(action)


# -- card play for the partnership -------------------------------------------------------------------------------
def test_the_bot_does_not_overtake_a_partner_whose_card_holds_the_trick() -> None:
    # Seat 2 leads the king of spades; seat 0 holds the ace, so the king holds against seat 1, who still holds
    # spades: seat 0 plays low and keeps its ace.
    deal = pdeal(
        "AS 3S 2C 3C 2D 3D 4D 2H 3H 4H 5H 6H 7H",
        "QS JS 10S 4C 5C 5D 6D 7D 8H 9H 10H JH QH",
        "KS 9S 8S 6C 7C 8D 9D 10D KH AH 8C 9C 10C",
    )
    match = third_hand(deal, 2)
    play(match, "KS")
    play(match, match.legal_actions()[0].__str__())  # seat 3 follows with its lowest legal card
    assert match.to_act == 0
    assert bot_choice(match) == card("3S")


def test_the_bot_gives_the_ruby_dame_to_the_partners_winning_trick() -> None:
    # Seat 1 leads a spade, the partner (seat 2) takes it with the ace, seat 3 follows; seat 0 has no spade.
    deal = pdeal(
        "QD 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
        "5S 6S 7S 8S 2C 3C 4C 8D 9D 10D 8H 9H 10H",
        "AS KS QS JS 5C 6C 7C JD KD AD JH QH KH",
    )
    match = third_hand(deal, 1)
    play(match, "5S AS")
    play(match, str(match.legal_actions()[0]))
    assert match.to_act == 0
    assert bot_choice(match) == card("QD")


def test_the_bot_feeds_a_club_to_the_partners_safe_trick_rather_than_a_worthless_card() -> None:
    deal = pdeal(
        "2C 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
        "5S 6S 7S 8S 3C 4C 5C 8D 9D 10D 8H 9H 10H",
        "AS KS QS JS 6C 7C 8C JD QD AD JH QH KH",
    )
    match = third_hand(deal, 1)
    play(match, "5S AS")
    play(match, str(match.legal_actions()[0]))
    assert bot_choice(match) == card("2C")  # a club point for the partnership, the trick stays on this side


def test_the_bot_keeps_points_off_an_opponents_trick_and_wins_cheaply_when_it_can() -> None:
    deal = pdeal(
        "QD 2C 3C 2D 3D 4D 2H 3H 4H 5H 6H 7H 8H",
        "KS 6S 7S 8S 4C 5C 6C 8D 9D 10D 9H 10H JH",
        "2S 3S 4S 5S 7C 8C 9C JD KD AD QH KH AH",
    )
    # Seat 1 leads the king of spades, seat 2 and seat 3 follow low; seat 0 has no spade and cannot beat it
    # without a club: it ruffs with its lowest club rather than give the trick away.
    match = third_hand(deal, 1)
    play(match, "KS 2S")
    play(match, str(match.legal_actions()[0]))
    assert bot_choice(match) == card("2C")


def test_the_bot_sheds_a_worthless_card_when_the_opponents_take_the_trick_anyway() -> None:
    deal = pdeal(
        "QD 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
        "AS 6S 7S 8S 4C 5C 6C 8D 9D 10D 9H 10H JH",
        "2S 3S 4S 5S 7C 8C 9C JD KD AD QH KH AH",
    )
    match = third_hand(deal, 1)
    play(match, "AS 2S")
    play(match, str(match.legal_actions()[0]))
    choice = bot_choice(match)
    assert choice != card("QD") and choice.suit != 0  # no club and no Ruby Dame on the opponents' trick
    assert choice == card("2D") or choice == card("2H")


def test_the_bot_leads_through_the_left_opponent_to_the_partners_void() -> None:
    # Seat 0 wins the first trick with the ace of hearts; its partner (seat 2) showed it has no heart. Seat 0
    # holds no sure winner, so it leads a heart for the partner to ruff, rather than a spade or a diamond into
    # the opponents' high cards.
    deal = pdeal(
        "AH 4H 5H 6H 2D 3D 4D 2S 3S 4S 5S 6S 7S",
        "2H 7H 8H 9H 10H 8S 9S 2C 3C 4C KD QD AD",
        "AC KC QC JC 10C 9C 8C 7C 5D 6D 7D 8D 9D",
    )
    match = third_hand(deal, 0)
    play(match, "AH 2H 5D")
    play(match, str(match.legal_actions()[0]))
    assert match.to_act == 0 and match.view(0).voids()[2]
    choice = bot_choice(match)
    assert choice.suit == 2, f"led {choice}"


# -- what the bot reads ------------------------------------------------------------------------------------------
def same_choice_on_a_swapped_deal(seed: int) -> bool | None:
    """From a seeded position, swap two cards the seat to act cannot see between two other hands of the deal,
    replay the same actions, and compare the bot's choices; None when no such swap keeps the actions legal."""
    rng = random.Random(seed)
    deal = PartnershipDeal.random(rng)
    match = third_hand(deal, 0)
    for _ in range(rng.randrange(0, 30)):
        match.apply(match.legal_actions()[rng.randrange(len(match.legal_actions()))])
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    hidden = list(view.unseen())
    hands = [int(h) for h in deal.hands]
    for a in hidden[:6]:
        for b in hidden[:6]:
            sa = next(s for s in range(4) if hands[s] >> a.index & 1)
            sb = next(s for s in range(4) if hands[s] >> b.index & 1)
            if sa == sb:
                continue
            swapped = list(hands)
            swapped[sa] ^= a.bit | b.bit
            swapped[sb] ^= a.bit | b.bit
            other = third_hand(PartnershipDeal(tuple(CardSet(h) for h in swapped)), 0)  # type: ignore[arg-type]
            try:
                for action in match.hands[-1].action_log():
                    other.apply(action)
            except IllegalActionError:
                continue
            assert other.view(seat).to_dict() == view.to_dict()
            mine = PartnershipHeuristicBot().choose(view, match.legal_actions(), random.Random(0))
            theirs = PartnershipHeuristicBot().choose(other.view(seat), other.legal_actions(), random.Random(0))
            return bool(mine == theirs)
    return None


def test_bot_choice_depends_only_on_what_the_seat_can_see() -> None:
    """Two deals that differ only in cards the seat cannot see give the same view and the same choice."""
    results = [same_choice_on_a_swapped_deal(seed) for seed in range(12)]
    assert all(r is not False for r in results)
    assert results.count(True) >= 6


# -- strength ----------------------------------------------------------------------------------------------------
STRENGTH_MATCHES = 24
"""Three cycles of the eight seatings that keep partners together (every seat, both orders round the table)."""


def team_win_rate(tested: str, other: str) -> float:
    """The share of fixed-seed matches the ``tested`` partnership wins against an ``other`` partnership."""
    wins = 0
    for n in range(STRENGTH_MATCHES):
        team = n % 2
        bots = [make_bot(tested if s % 2 == team else other, "partnership") for s in range(4)]
        match = play_match(PartnershipMatch(first_dealer=(n // 2) % 4), bots, 2000 + n)
        wins += match.winners[0] % 2 == team
    return wins / STRENGTH_MATCHES


@pytest.mark.long
def test_cp3_cp4_heuristic_partnership_beats_a_random_one_clearly() -> None:
    assert team_win_rate("heuristic", "random") >= 0.9


def test_cp4_random_partnership_against_random_wins_about_half() -> None:
    # Control for the test above: the same matches with random bots on both sides.
    assert 0.2 <= team_win_rate("random", "random") <= 0.8
