"""Rule scenarios of Free Clubs on exact deals: the auction (FC-3, FC-4), handicaps (FC-5), the pass (FC-2), play
(FC-1, FC-6, FC-7), scoring (FC-4, FC-8), the game end (FC-9), views and records.

Each test names the rule it checks; refused actions are checked for their message and for the unchanged state.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from clubsuite.cards import STANDARD_WITH_JOKERS, CardSet, card, card_at, cards
from clubsuite.engine import Phase, resolve
from clubsuite.errors import (
    GameOverError,
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
    InvalidOptionsError,
    NotYourTurnError,
)
from clubsuite.games.free import (
    AuctionWon,
    Call,
    FreeDeal,
    FreeHand,
    FreeMatch,
    FreeOptions,
    HandicapResolved,
    MatchEnded,
    Stage,
    bid_tier,
    bid_value,
    score_hand,
)
from clubsuite.games.free.deal import PRIMARY_MASK
from clubsuite.games.free.hand import FreePhase
from clubsuite.records import record_from_match, replay

J = STANDARD_WITH_JOKERS


def deal_of(a0: str, a1: str, a2: str, p0: str, p1: str, p2: str) -> FreeDeal:
    """A deal from each seat's auction and primary cards; the chest is the six primary cards nobody was given."""
    primary = (cards(p0), cards(p1), cards(p2))
    chest = CardSet(PRIMARY_MASK) - (primary[0] | primary[1] | primary[2])
    return FreeDeal((J.parse_set(a0), J.parse_set(a1), J.parse_set(a2)), primary, chest)


# Deal A: seat 0 opens with 10S; seat 1 holds QH and JK1, seat 2 JH and KH.
DEAL_A = deal_of(
    "10S 10C 10D 10H JC JD",
    "JS QH JK1 QC QD QS",
    "JH KH KC KD KS JK2",
    "AC 2C 3C AD 2D 3D AH 3H 4H AS",
    "4C 5C 6C 4D 5D 6D 9H 2H 2S 3S",
    "7C 8C 9C 7D 8D 9D 8H 7H 6H 5H",
)  # the chest: 4S 5S 6S 7S 8S 9S

# Deal B: seat 0 holds no primary spade and only two hearts; the chest holds no spade.
DEAL_B = deal_of(
    "10S KH 10C 10D 10H JC",
    "JS JD JH QC QD QH",
    "QS KC KD KS JK1 JK2",
    "AC 2C 3C 4C AD 2D 3D 4D AH 2H",
    "3H 4H 5H 6H AS 2S 3S 4S 5S 6S",
    "7H 8H 9H 7S 8S 9S 8C 9C 8D 9D",
)  # the chest: 5C 6C 7C 5D 6D 7D

# Deal D: a Joker team whose handicaps leave seat 0 with one card and seat 1 with nine.
DEAL_D = deal_of(
    "10S JH QH KH KC 10C",
    "JS QS KS KD JK1 10D",
    "10H JC JD QC QD JK2",
    "AS 9H 8H 7H 6H 5H 9C 8C 7C AD",
    "9S 8S 7S 6S 5S 9D 8D 7D 6C 5C",
    "AC 6D 5D 4D 3D 2D AH 4S 3S 2S",
)  # the chest: 4C 3C 2C 4H 3H 2H
AUCTION_D = "10S JS pass JH QS pass QH KS pass KH KD pass KC JK1"


def run(state: FreeHand | FreeMatch, text: str) -> list[Any]:
    """Apply actions written in notation, in order; returns all the events."""
    events: list[Any] = []
    for token in text.split():
        events.extend(state.apply(FreeMatch.parse_action(token)))
    return events


def snapshot(hand: FreeHand) -> Any:
    """Everything a refused action must leave unchanged."""
    return copy.deepcopy({k: v for k, v in vars(hand).items() if k not in ("deal", "options")})


def first_legal(hand: FreeHand) -> None:
    """Play the first legal action until the hand is over."""
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])


def assert_refused(hand: FreeHand, action: str, *words: str) -> None:
    """The action is refused with a message naming it and ``words``, and the state does not change."""
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as err:
        hand.apply(FreeMatch.parse_action(action))
    assert str(err.value).startswith(action)
    for w in words:
        assert w in str(err.value)
    assert snapshot(hand) == before


# -- the deal --------------------------------------------------------------------------------------------------
def test_deal_gives_six_auction_ten_primary_cards_and_a_six_card_chest() -> None:
    deal = FreeDeal.from_seed(5, dealer=1)
    everything = deal.chest
    for s in range(3):
        assert len(deal.auction[s]) == 6 and len(deal.primary[s]) == 10
        assert all(c.kind == "joker" or 10 <= c.rank <= 13 for c in deal.auction[s])
        assert all(c.rank <= 9 or c.rank == 14 for c in deal.primary[s])
        everything = everything | deal.auction[s] | deal.primary[s]
    assert len(deal.chest) == 6 and everything == J.mask
    assert FreeDeal.from_seed(5, dealer=1) == deal and FreeDeal.from_json(deal.to_json()) == deal


def test_deal_from_json_names_the_bad_field() -> None:
    data = DEAL_A.to_json()
    data["primary"][2] = data["primary"][2].replace("5H", "KH")
    with pytest.raises(InvalidDealError, match=r"deal.primary\[2\] holds KH, which are not primary cards"):
        FreeDeal.from_json(data)
    bad = DEAL_A.to_json()
    bad["chest"] = "4S 5S 6S 7S 8S XX"
    with pytest.raises(InvalidDealError, match=r"in deal\.chest"):
        FreeDeal.from_json(bad)
    short = DEAL_A.to_json()
    short["auction"][0] = "10S 10C 10D 10H JC"
    with pytest.raises(InvalidDealError, match=r"deal.auction\[0\] has 5 cards"):
        FreeDeal.from_json(short)


# -- the auction -----------------------------------------------------------------------------------------------
def test_fc3_bidding_order_is_joker_kings_queens_jacks_tens_clubs_highest() -> None:
    order = ["10S", "10H", "10D", "10C", "JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC", "JK1"]
    values = [bid_value(J.parse(t).index) for t in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [bid_tier(J.parse(t).index) for t in ("10C", "JS", "QS", "KC", "JK2")] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("last", "legal", "illegal"),
    [
        ("10S", "10H 10C JS JC", "QS KC JK1"),
        ("JD", "JC QS QH QD QC", "10H JS JD KS JK1"),  # FC-3: QS over JD is legal
        ("QC", "KS KC", "QD JC JK1"),
        ("KS", "KH KC JK1", "QC KS"),
        ("KC", "JK1", "KD"),
    ],
)
def test_fc3_bid_must_be_higher_and_at_most_one_level_above(last: str, legal: str, illegal: str) -> None:
    last_i = J.parse(last).index
    for text in legal.split():
        i = J.parse(text).index
        assert bid_value(i) > bid_value(last_i) and bid_tier(i) <= bid_tier(last_i) + 1, text
    for text in illegal.split():
        i = J.parse(text).index
        assert not (bid_value(i) > bid_value(last_i) and bid_tier(i) <= bid_tier(last_i) + 1), text


def test_fc3_holder_of_ten_of_spades_must_open_with_it() -> None:
    hand = FreeHand(DEAL_A, dealer=0)
    assert hand.stage is Stage.AUCTION and hand.phase is FreePhase.AUCTION
    assert hand.to_act == 0 and list(hand.legal_actions()) == [card("10S")]
    assert_refused(hand, "pass", "must open the auction with it (FC-3)")
    assert_refused(hand, "10C", "holder of 10S must open the auction with it (FC-3)")
    moved = FreeHand(deal_of(*(DEAL_A.to_json()["auction"][k] for k in (1, 2, 0)), *DEAL_A.to_json()["primary"]))
    assert moved.to_act == 2  # the opener is whoever holds 10S, whoever dealt


def test_fc3_legal_bids_follow_the_most_recent_bid_and_pass_is_always_open() -> None:
    hand = FreeHand(DEAL_A, dealer=0)
    run(hand, "10S")
    assert set(hand.legal_actions()) == {card("JS"), Call.PASS}  # seat 1: JS; QH, QC, ... jump two levels
    assert_refused(hand, "QH", "higher than 10S, the most recent bid", "Q is more than one level above 10", "(FC-3)")
    assert_refused(hand, "KH", "not among your auction cards (FC-3)")
    assert_refused(hand, "7H", "not an auction card")
    run(hand, "JS")
    assert set(hand.legal_actions()) == {card("JH"), Call.PASS}  # seat 2: JH over JS; kings jump two levels
    assert_refused(hand, "KS", "K is more than one level above J")


def test_fc3_two_passes_in_a_row_end_the_auction_and_a_pass_does_not_exclude() -> None:
    hand = FreeHand(DEAL_A, dealer=0)
    run(hand, "10S pass JH pass")
    assert hand.to_act == 1 and card("QH") in hand.legal_actions()  # seat 1 passed before and re-enters
    events = run(hand, "QH pass pass")
    assert AuctionWon(1, None, card("QH")) in events
    assert hand.winner == 1 and hand.partner == -1 and hand.auction_cards == [0, 0, 0]


def test_fc3_opening_then_two_passes_wins_with_the_ten_of_spades() -> None:
    hand = FreeHand(DEAL_A, dealer=0)
    run(hand, "10S pass pass")
    assert hand.winner == 0 and hand.stage is Stage.HANDICAP and hand.phase is FreePhase.HANDICAP


def test_fc3_player_with_no_auction_cards_left_can_only_pass() -> None:
    hand = FreeHand(DEAL_D)
    run(hand, "10S JS pass JH QS pass QH KS pass KH KD pass")
    assert hand.to_act == 0
    run(hand, "KC")
    assert hand.to_act == 1
    hand2 = FreeHand(DEAL_D)
    run(hand2, "10S JS pass JH QS pass QH KS pass KH KD pass KC")
    # seat 2 passed every time and still holds its cards; seat 0 has bid five of six and holds only 10C
    assert hand2.auction_cards[0] == int(J.parse_set("10C"))


def test_fc4_joker_ends_the_auction_at_once_and_partners_the_king_bidder() -> None:
    hand = FreeHand(DEAL_D)
    events = run(hand, AUCTION_D)
    assert AuctionWon(1, 0, J.parse("JK1")) in events
    assert hand.winner == 1 and hand.partner == 0 and hand.team == (1, 0)
    assert hand.stage is Stage.HANDICAP and hand.to_act == 0  # seat 0's 10S comes first (FC-5)


def test_fc4_joker_needs_a_king_before_it() -> None:
    hand_q = FreeHand(DEAL_D)
    run(hand_q, "10S JS pass JH QS pass QH")
    assert J.parse("JK1") not in hand_q.legal_actions()
    assert_refused(hand_q, "JK1", "Joker is more than one level above Q")


# -- handicaps -------------------------------------------------------------------------------------------------
def test_fc5_ten_discard_is_the_players_choice_among_primary_cards_of_its_suit() -> None:
    hand = FreeHand(DEAL_A)
    events = run(hand, "10S pass pass")
    assert any(type(e).__name__ == "ChestTaken" for e in events)
    assert hand.hand_of(0) == cards("AC 2C 3C AD 2D 3D AH 3H 4H AS 4S 5S 6S 7S 8S 9S")  # the chest first
    assert hand.legal_actions() == cards("AS 4S 5S 6S 7S 8S 9S")
    assert_refused(hand, "AH", "your bid of 10S discards one primary card of spades", "(FC-5)")
    events = run(hand, "6S")
    assert HandicapResolved(0, card("10S"), 1, None) in events
    assert hand.discards[0] == int(cards("6S")) and hand.stage is Stage.PASS


def test_fc5_ten_with_no_card_of_its_suit_does_nothing_and_king_takes_what_there_is() -> None:
    hand = FreeHand(DEAL_B)
    events = run(hand, "10S JS QS KH pass pass")
    assert hand.winner == 0
    resolved = [e for e in events if isinstance(e, HandicapResolved)]
    assert resolved == [HandicapResolved(0, card("10S"), 0, None), HandicapResolved(0, card("KH"), 2, None)]
    assert hand.discards[0] == int(cards("AH 2H"))  # only two hearts: both go, the ace included
    assert hand.hand_of(0) == cards("AC 2C 3C 4C 5C 6C 7C AD 2D 3D 4D 5D 6D 7D")
    assert hand.stage is Stage.PASS  # no choice was needed


def test_fc5_jack_discards_highest_queen_passes_highest_left_king_discards_three_highest() -> None:
    hand = FreeHand(DEAL_A)
    events = run(hand, "10S pass JH pass QH pass pass")
    assert hand.winner == 1
    assert HandicapResolved(1, card("QH"), 1, 2) in events  # FC-2: the Queen passes to the left neighbour
    assert hand.passed == [(1, 2, card("9H").index)]  # 9H is seat 1's highest heart
    assert card("9H") in hand.hand_of(2) and card("9H") not in hand.hand_of(1)


def test_fc5_handicaps_run_in_bid_order_across_the_joker_team_with_queen_cards_counting() -> None:
    hand = FreeHand(DEAL_A)
    run(hand, "10S JS JH pass QH KH pass JK1")
    assert hand.winner == 1 and hand.partner == 2
    resolved = [(s, str(card_at(b)), removed.bit_count(), to) for s, b, removed, to in hand.handicaps]
    assert resolved == [(1, "JS", 1, -1), (2, "JH", 1, -1), (1, "QH", 1, 2), (2, "KH", 3, -1)]
    # seat 1's JS took the chest's 9S; seat 2's JH its own 8H before seat 1's Queen sent it 9H, which the King
    # then took with 7H and 6H (FC-5: a card received by a Queen counts for later handicaps)
    assert hand.discards[1] == int(cards("9S"))
    assert hand.discards[2] == int(cards("8H 9H 7H 6H"))
    assert hand.hand_of(2) == cards("7C 8C 9C 7D 8D 9D 5H")


# -- the pass before play --------------------------------------------------------------------------------------
def test_fc2_pass_goes_to_the_right_and_moves_only_when_everyone_has_chosen() -> None:
    hand = FreeHand(DEAL_A)
    run(hand, "10S pass JH pass QH pass pass")
    assert hand.stage is Stage.PASS and hand.phase is FreePhase.PASS
    assert hand.pass_order == [2, 0, 1]  # starting at the auction winner's left
    before = [hand.hand_of(s) for s in range(3)]
    run(hand, "5H AC")
    assert [hand.hand_of(s) for s in range(3)] == before  # nothing moves until all have chosen
    assert_refused(hand, "5H", "not in your hand")
    run(hand, "2S")
    assert hand.hand_of(1) == before[1] - cards("2S") | cards("5H")  # seat 2 gave to its right, seat 1
    assert hand.hand_of(0) == before[0] - cards("AC") | cards("2S")
    assert hand.hand_of(2) == before[2] - cards("5H") | cards("AC")
    assert hand.stage is Stage.PLAY and hand.to_act == 2  # FC-1: the player after the auction winner leads


# -- play ------------------------------------------------------------------------------------------------------
def test_fc1_follow_suit_clubs_trump_ace_lowest_nine_highest() -> None:
    hand = FreeHand(DEAL_A)
    run(hand, "10S pass JH pass QH pass pass 5H AC 2S")
    assert hand.legal_actions() == hand.hand_of(2)  # the leader may lead anything, clubs too
    run(hand, "7D")
    assert hand.legal_actions() == cards("AD 2D 3D")
    assert_refused(hand, "AH", "you must follow suit")
    run(hand, "AD")
    assert hand.legal_actions() == cards("4D 5D 6D")
    run(hand, "4D")
    assert hand.tricks[-1][1] == 2  # 7D beats 4D and AD: the ace is lowest
    run(hand, "9H")  # seat 2 leads its 9H: seat 0 has hearts
    run(hand, "AH")
    assert hand.legal_actions() == cards("2H 5H")
    run(hand, "2H")
    assert hand.tricks[-1][1] == 2


def test_fc1_club_trumps_a_higher_card_of_the_led_suit() -> None:
    hand = FreeHand(DEAL_D)
    run(hand, AUCTION_D + " AS AC AD 2C")  # 10S discard AS; the pass: seat 2 AC, seat 0 AD, seat 1 2C
    assert hand.stage is Stage.PLAY and hand.leader == 2  # FC-6: the one player outside the Joker team
    assert hand.hand_of(0) == cards("2C")
    run(hand, "6D 2C")
    assert hand.to_act == 1 and hand.legal_actions() == hand.hand_of(1)  # seat 1 holds no diamond: anything
    run(hand, "8H")
    assert hand.tricks[0] == (((2, card("6D").index), (0, card("2C").index), (1, card("8H").index)), 0)


def test_fc6_fc7_empty_hands_are_skipped_and_two_empty_hands_end_the_hand_early() -> None:
    hand = FreeHand(DEAL_D)
    run(hand, AUCTION_D + " AS")
    assert hand.hand_of(0) == cards("AD")
    assert hand.hand_of(1) == cards("2C 3C 4C 5C 6C 2H 3H 4H 8H")
    assert len(hand.hand_of(2)) == 11  # its own ten and seat 1's 8S from the QS
    run(hand, "AC AD 2C 6D 2C 8H")
    trick1 = hand.tricks[0]
    assert trick1[1] == 0  # seat 0 trumps with its last card
    assert hand.to_act == 1 and hand.leader == 1  # FC-6: seat 0 has no card; the next seat clockwise leads
    while not hand.is_over:
        assert len(hand.trick) < 2 or hand.trick[0][0] == 1  # seat 0 is skipped: two-card tricks
        hand.apply(hand.legal_actions()[0])
    assert all(len(plays) == 2 for plays, _ in hand.tricks[1:])
    assert len(hand.tricks) == 9 and hand.hands[0] == 0 and hand.hands[1] == 0 and len(hand.hand_of(2)) == 2
    # FC-4: the Joker team did not take all ten tricks (only nine were played): -50 for each member
    assert hand.scores is not None
    without_contract = score_hand(hand.tricks_won, hand.taken, -1, -1, FreeOptions())
    assert [a - b for a, b in zip(hand.scores, without_contract, strict=True)] == [-50, -50, 0]


# -- scoring ---------------------------------------------------------------------------------------------------
def test_fc4_solo_winner_under_seven_tricks_scores_minus_fifty() -> None:
    taken = [int(cards("2S")), int(cards("3S")), int(cards("4S"))]
    assert score_hand([6, 3, 1], taken, 0, -1, FreeOptions()) == (60 - 50, 30, 10)
    assert score_hand([7, 2, 1], taken, 0, -1, FreeOptions()) == (70, 20, 10)


def test_fc4_joker_team_under_ten_tricks_scores_minus_fifty_each() -> None:
    taken = [int(cards("2S")), int(cards("3S")), int(cards("4S"))]
    assert score_hand([6, 3, 1], taken, 0, 1, FreeOptions()) == (60 - 50, 30 - 50, 10)
    assert score_hand([3, 7, 0], taken, 0, 1, FreeOptions()) == (30, 70, 0)  # no 7-trick contract of its own


def test_fc8_most_diamonds_twenty_ties_ten_each_nobody_with_diamonds_nobody() -> None:
    spade = int(cards("2S 3S 4S"))
    one = [int(cards("2D 3D")) | spade, int(cards("4D")) | spade, spade]
    assert score_hand([0, 0, 0], one, 0, -1, FreeOptions()) == (20 - 50, 0, 0)
    tie = [int(cards("2D 3D")) | spade, int(cards("4D 5D")) | spade, int(cards("6D")) | spade]
    assert score_hand([0, 0, 0], tie, 0, -1, FreeOptions()) == (10 - 50, 10, 0)
    none = [spade, spade, spade]
    assert score_hand([7, 2, 1], none, 0, -1, FreeOptions()) == (70, 20, 10)


def test_fc8_ace_of_hearts_ten_and_no_spades_five_with_its_option() -> None:
    taken = [int(cards("AH 2C")), int(cards("2S")), 0]
    assert score_hand([7, 2, 0], taken, 0, -1, FreeOptions()) == (70 + 10 + 5, 20, 5)
    strict = FreeOptions(no_spades_needs_a_trick=True)
    assert score_hand([7, 2, 0], taken, 0, -1, strict) == (70 + 10 + 5, 20, 0)


# -- the game --------------------------------------------------------------------------------------------------
def scores_of_deal_d() -> tuple[int, ...]:
    match = FreeMatch()
    match.deal(deal=DEAL_D)
    run(match, AUCTION_D + " AS")
    while match.current is not None:
        match.apply(match.legal_actions()[0])
    return match.hand_scores[0]


def test_fc9_highest_total_wins_once_a_total_reaches_the_target() -> None:
    s = scores_of_deal_d()
    match = FreeMatch(FreeOptions(target=100))
    match.totals = [200 - s[0], 0 - s[1], 150 - s[2]]
    match.deal(deal=DEAL_D)
    run(match, AUCTION_D + " AS")
    events: list[Any] = []
    while match.current is not None:
        events.extend(match.apply(match.legal_actions()[0]))
    assert match.is_over and match.winners == (0,) and not match.draw
    assert MatchEnded((0,), False, (200, 0, 150)) in events
    with pytest.raises(GameOverError):
        match.deal(deal=DEAL_D)


def test_fc9_tied_top_plays_another_hand() -> None:
    s = scores_of_deal_d()
    match = FreeMatch(FreeOptions(target=100))
    match.totals = [300 - s[0], 300 - s[1], 10 - s[2]]
    match.deal(deal=DEAL_D)
    run(match, AUCTION_D + " AS")
    while match.current is not None:
        match.apply(match.legal_actions()[0])
    assert match.totals == [300, 300, 10] and not match.is_over and match.phase is Phase.DEAL
    assert match.next_dealer == 1


# -- errors and notation ---------------------------------------------------------------------------------------
def test_illegal_actions_leave_the_state_unchanged_and_say_why() -> None:
    match = FreeMatch()
    match.deal(deal=DEAL_A)
    hand = match.current
    assert hand is not None
    before = snapshot(hand)
    with pytest.raises(NotYourTurnError, match="seat 1 tried 10S, but it is seat 0's turn"):
        match.apply("10S", seat=1)
    with pytest.raises(InvalidNotationError, match="'XY' is not a Free Clubs action"):
        match.apply("XY")
    assert match.explain("pass") == "pass is illegal: you hold 10S and must open the auction with it (FC-3)"
    assert match.explain("10S", seat=2) == "it is seat 0's turn, not seat 2's"
    assert snapshot(hand) == before


def test_options_are_read_from_a_spec_and_checked() -> None:
    info, options = resolve("free(no_spades_needs_a_trick=true,target=300)")
    assert info.title == "Free Clubs" and options == FreeOptions(no_spades_needs_a_trick=True, target=300)
    assert resolve("free(misplays=true)")[1] == FreeOptions(misplays=True)  # FC-10 table mode
    with pytest.raises(InvalidOptionsError, match="target=0 is out of range"):
        FreeOptions(target=0)


def test_parse_and_format_actions() -> None:
    assert FreeMatch.parse_action(" PASS ") is Call.PASS
    assert FreeMatch.parse_action("jk1") == J.parse("JK1")
    assert FreeMatch.parse_action("T♠") == card("10S")
    assert [FreeMatch.format_action(a) for a in (Call.PASS, card("10H"), J.parse("JK2"))] == ["pass", "10H", "JK2"]


# -- views -----------------------------------------------------------------------------------------------------
def test_views_show_own_cards_all_bids_and_never_other_hidden_cards() -> None:
    match = FreeMatch()
    match.deal(deal=DEAL_A)
    run(match, "10S JS JH pass QH KH pass JK1")  # seat 1 takes the chest; seat 1's QH sends 9H to seat 2
    hand = match.current
    assert hand is not None
    run(match, "5H AC")  # the pass: seat 2 chose 5H, seat 0 AC; seat 1 still to choose
    v0, v1, v2 = (match.view(s) for s in range(3))
    assert v1.chest == DEAL_A.chest and v0.chest is None and v2.chest is None
    assert [(s, str(c)) for s, c in v0.calls][:3] == [(0, "10S"), (1, "JS"), (2, "JH")]
    assert v0.discards == CardSet() and v2.discards == cards("8H 9H 7H 6H") and v1.discards == cards("9S")
    assert v2.transfers == ((1, 2, card("9H")),) and v1.transfers == ((1, 2, card("9H")),) and v0.transfers == ()
    assert v0.pass_choice == card("AC") and v2.pass_choice == card("5H") and v1.pass_choice is None
    for v in (v0, v1, v2):
        d = v.to_dict()
        assert d["seat"] == v.seat and d["hand"] == str(hand.hand_of(v.seat))
        mine = (
            hand.hands[v.seat]
            | hand.discards[v.seat]
            | (int(DEAL_A.chest) if v.seat == 1 else 0)
            | sum(1 << c for g, r, c in hand.passed if v.seat in (g, r))
            | (1 << hand.pass_choices[v.seat] if v.seat in hand.pass_choices else 0)
        )
        text = str(d)
        for c in CardSet(PRIMARY_MASK - mine):
            assert f"'{c}'" not in text and f" {c}'" not in text and f"'{c} " not in text and f" {c} " not in text, (
                v.seat,
                c,
            )
    with pytest.raises(AttributeError):
        v0.seat = 1  # type: ignore[misc]


# -- records ---------------------------------------------------------------------------------------------------
def test_record_of_a_free_clubs_match_replays_to_the_same_state() -> None:
    rng = random.Random(11)
    match = FreeMatch(FreeOptions(target=60))
    while not match.is_over:
        match.deal(rng)
        while match.current is not None:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    record = record_from_match(match)
    result = replay(record)
    assert result.match.totals == match.totals and result.match.winners == match.winners
    assert [h.action_log() for h in result.match.hands] == [h.action_log() for h in match.hands]
    assert record["hands"][0]["actions"][0] == "10S"
