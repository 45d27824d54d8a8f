"""Rule scenarios of Clubs (whist group) on exact deals, for every ruling CW-1..CW-5 and every rule of the text.

Each test names the rule it checks and looks at the legal actions, the resulting state and, for refused actions,
the message and the unchanged state.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from clubsuite.cards import STANDARD, CardSet, Suit, card, cards
from clubsuite.engine import Phase, resolve
from clubsuite.errors import GameOverError, IllegalActionError, NotYourTurnError
from clubsuite.games.whist import (
    Decided,
    Decision,
    HandScored,
    LeadAfterExchange,
    MatchEnded,
    PlayStarted,
    TrickTaken,
    WhistDeal,
    WhistHand,
    WhistMatch,
    WhistOptions,
)
from clubsuite.games.whist.hand import WhistPhase
from clubsuite.games.whist.match import CORE as _CORE
from clubsuite.games.whist.match import CompiledWhistMatch as _Compiled
from compiled_match_helpers import on_each_match_class
from whist_helpers import (
    cards_in_order,
    deal_of,
    first_legal,
    match_snapshot,
    play_cards,
    play_match,
    play_out,
    random_legal,
    rotate_deal,
    snapshot,
    start_hand,
)

_each_match_class = on_each_match_class(globals(), "WhistMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

# Every scenario below is dealt by seat 2 and nobody exchanges unless said otherwise, so seat 0 leads the first
# trick and the play runs 0, 1, 2. The bid hand is whatever the three hands leave.

MUST_BEAT = deal_of(
    "AH 10H AD KD QD JD 10D 9D 8D 7D 6D 5D 4D",
    "QH JH 5H AS KS QS JS 10S 9S 8S 7S 6S 5S",
    "KH 2H 4S 3S 2S 3D 2D 2C 3C 4C 5C 6C 7C",
)
"""Hearts to follow: seat 1 holds QH JH 5H, seat 2 holds KH 2H."""

CLUB_IN_TRICK = deal_of(
    "5H 6H 7H AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "4C 9C AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
    "2H 10H JH QH KH AC 2C 3C 3S 2S 4D 3D 2D",
)
"""Seat 1 has no hearts but two clubs; seat 2 follows hearts holding AC; seat 0 has neither spades nor clubs."""

OVERTRUMP = deal_of(
    "5H 2C 4C KC AD KD QD JD 10D 9D 8D 7D 6D",
    "6C 7C QC AS KS QS JS 10S 9S 8S 7S 6S 5S",
    "3C 5C 8C 9C 10C JC 4S 3S 2S 5D 4D 3D 2D",
)
"""Seats 1 and 2 have no hearts; seat 2's clubs beat seat 1's 6C and 7C but not its QC."""

ONLY_CLUBS = deal_of(
    "AH KH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",
    "QH JH AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
    "10H 9H KC AC AD KD QD JD 10D 9D 8D 7D 6D",
)
"""Seat 0 wins two heart tricks and then holds nothing but clubs; seat 1 has no clubs; seat 2 holds KC AC."""


def legal(hand: WhistHand) -> CardSet:
    """The legal cards of the seat to act."""
    actions = hand.legal_actions()
    assert isinstance(actions, CardSet)
    return actions


def assert_refused(
    state: WhistHand, action: object, error: type[Exception], *fragments: str, seat: int | None = None
) -> str:
    """Apply an action that must be refused: check the error class, the message and that nothing changed."""
    before = snapshot(state)
    with pytest.raises(error) as info:
        state.apply(action, seat)  # type: ignore[arg-type]
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert snapshot(state) == before
    return message


# -- CW-1: must beat ----------------------------------------------------------------------------------------
def test_cw1_must_beat_the_highest_card_of_the_led_suit_if_able() -> None:
    hand = start_hand(MUST_BEAT)
    play_cards(hand, "10H")
    assert legal(hand) == cards("JH QH")
    play_cards(hand, "JH")
    # The card to beat is now the jack, the highest so far, not the ten that was led.
    assert legal(hand) == cards("KH")


def test_cw1_must_beat_a_higher_second_card_too() -> None:
    hand = start_hand(MUST_BEAT)
    play_cards(hand, "10H QH")
    assert legal(hand) == cards("KH")


def test_cw1_refuses_a_lower_card_of_the_led_suit_when_able_to_beat() -> None:
    hand = start_hand(MUST_BEAT)
    play_cards(hand, "10H")
    assert_refused(hand, card("5H"), IllegalActionError, "5H", "CW-1", "JH QH")
    assert_refused(hand, card("AS"), IllegalActionError, "AS", "CW-1")


def test_cw1_any_card_of_the_led_suit_when_unable_to_beat() -> None:
    hand = start_hand(MUST_BEAT)
    play_cards(hand, "AH")
    assert legal(hand) == cards("QH JH 5H")
    assert_refused(hand, card("AS"), IllegalActionError, "AS", "CW-1")
    play_cards(hand, "5H")
    assert legal(hand) == cards("KH 2H")
    play_cards(hand, "2H")
    assert hand.tricks[-1] == (0, tuple(c.index for c in cards_in_order("AH 5H 2H")), 0)


def test_cw1_any_card_of_the_led_suit_once_a_club_is_in_a_plain_suit_trick() -> None:
    hand = start_hand(CLUB_IN_TRICK)
    play_cards(hand, "5H 4C")
    # Seat 2 could beat the five with KH but the club already wins the trick: every heart is legal, the AC is not.
    assert legal(hand) == cards("2H 10H JH QH KH")
    assert_refused(hand, card("AC"), IllegalActionError, "AC", "CW-1")


def test_cw1_void_in_the_led_suit_must_play_a_club_when_none_is_in_the_trick() -> None:
    hand = start_hand(CLUB_IN_TRICK)
    play_cards(hand, "5H")
    assert legal(hand) == cards("4C 9C")
    assert_refused(hand, card("AS"), IllegalActionError, "AS", "CW-1", "4C 9C")


def test_cw1_void_in_the_led_suit_without_clubs_may_play_anything() -> None:
    hand = start_hand(CLUB_IN_TRICK)
    play_cards(hand, "5H 4C KH")
    play_cards(hand, "4S 3S")
    assert hand.to_act == 0
    assert legal(hand) == CardSet(hand.hands[0])
    assert len(legal(hand)) == 12


def test_cw1_void_must_overtrump_a_club_in_the_trick_when_able() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H")
    assert legal(hand) == cards("6C 7C QC")
    play_cards(hand, "6C")
    assert legal(hand) == cards("8C 9C 10C JC")
    assert_refused(hand, card("3C"), IllegalActionError, "3C", "CW-1", "6C")
    assert_refused(hand, card("2D"), IllegalActionError, "2D", "CW-1")


def test_cw1_void_unable_to_overtrump_may_discard_anything_a_losing_club_included() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H QC")
    assert legal(hand) == CardSet(hand.hands[2])
    assert len(legal(hand)) == 13
    play_cards(hand, "3C")
    assert hand.tricks[-1][2] == 1  # the queen of clubs wins; the three of clubs was a legal losing club


def test_cw1_club_lead_must_be_beaten_by_a_higher_club_if_able() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H 6C 8C")
    assert hand.to_act == 2
    play_cards(hand, "3C")
    assert legal(hand) == cards("4C KC")
    assert_refused(hand, card("2C"), IllegalActionError, "2C", "CW-1", "4C KC")
    assert_refused(hand, card("AD"), IllegalActionError, "AD", "CW-1")


def test_cw1_club_lead_any_club_when_unable_to_beat() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H 6C 8C 3C KC")
    assert legal(hand) == cards("7C QC")
    assert_refused(hand, card("AS"), IllegalActionError, "AS", "CW-1")


def test_cw1_club_lead_anything_without_clubs() -> None:
    hand = start_hand(ONLY_CLUBS)
    play_cards(hand, "AH QH 10H KH JH 9H 2C")
    assert hand.to_act == 1
    assert legal(hand) == CardSet(hand.hands[1])
    assert len(legal(hand)) == 11


# -- CW-2: clubs broken -------------------------------------------------------------------------------------
def test_cw2_no_club_lead_before_clubs_are_broken() -> None:
    hand = start_hand(OVERTRUMP)
    assert not hand.clubs_broken
    assert legal(hand) == cards("5H AD KD QD JD 10D 9D 8D 7D 6D")
    assert_refused(hand, card("2C"), IllegalActionError, "2C", "CW-2")


def test_cw2_a_leader_holding_only_clubs_may_lead_one() -> None:
    hand = start_hand(ONLY_CLUBS)
    assert legal(hand) == cards("AH KH")
    play_cards(hand, "AH QH 10H KH JH 9H")
    assert hand.to_act == 0 and not hand.clubs_broken
    assert legal(hand) == cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC")


def test_cw2_a_forced_club_lead_breaks_clubs() -> None:
    hand = start_hand(ONLY_CLUBS)
    play_cards(hand, "AH QH 10H KH JH 9H 2C")
    assert hand.clubs_broken
    play_cards(hand, "4S")
    assert legal(hand) == cards("KC AC")
    play_cards(hand, "KC")
    # Seat 2 won with KC and now leads: it holds diamonds too, and may lead its AC because clubs are broken.
    assert hand.to_act == 2
    assert card("AC") in legal(hand)
    assert legal(hand) == CardSet(hand.hands[2])


def test_cw2_a_losing_club_played_to_a_plain_suit_trick_breaks_clubs() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H 6C")
    # Clubs are broken the moment the six of clubs is played, although the next player beats it.
    assert hand.clubs_broken
    play_cards(hand, "8C")
    assert hand.tricks[-1][2] == 2
    assert hand.to_act == 2
    assert legal(hand) == CardSet(hand.hands[2])
    assert card("3C") in legal(hand)


def test_cw2_a_club_discarded_under_a_higher_club_leaves_clubs_broken() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H QC 3C")
    assert hand.clubs_broken
    assert hand.to_act == 1
    assert card("7C") in legal(hand)


def test_cw2_clubs_stay_unbroken_while_every_player_follows_a_plain_suit() -> None:
    hand = start_hand(MUST_BEAT)
    play_cards(hand, "10H JH KH")
    assert not hand.clubs_broken
    assert hand.to_act == 2
    assert legal(hand) == cards("2H 4S 3S 2S 3D 2D")
    assert_refused(hand, card("7C"), IllegalActionError, "7C", "CW-2")


# -- the trick winner ---------------------------------------------------------------------------------------
def test_trick_is_won_by_the_highest_club_even_against_a_higher_card_of_the_led_suit() -> None:
    hand = start_hand(CLUB_IN_TRICK)
    events = hand.apply(card("5H")) + hand.apply(card("4C")) + hand.apply(card("KH"))
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert taken == [TrickTaken(1, 1, tuple(cards_in_order("5H 4C KH")))]
    assert hand.leader == hand.to_act == 1
    assert hand.tricks_won == [0, 1, 0]


def test_trick_is_won_by_the_highest_card_of_the_led_suit_not_a_higher_discard() -> None:
    hand = start_hand(CLUB_IN_TRICK)
    play_cards(hand, "5H 4C KH 4S 3S AD")
    assert hand.tricks[-1] == (1, tuple(c.index for c in cards_in_order("4S 3S AD")), 1)
    assert hand.to_act == 1


def test_trick_is_won_by_the_highest_of_several_clubs() -> None:
    hand = start_hand(OVERTRUMP)
    play_cards(hand, "5H 6C 8C 3C KC 7C")
    assert [t[2] for t in hand.tricks] == [2, 0]
    assert hand.tricks_won == [1, 0, 1]
    assert hand.leader == 0


# -- CW-3: who leads ----------------------------------------------------------------------------------------
def expected_leader(dealer: int, decisions: tuple[str, ...], rule: LeadAfterExchange) -> int:
    """The leader by CW-3, written out: eldest with no exchange, else the last exchanger or the one after."""
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    exchangers = [seat for seat, d in zip(order, decisions, strict=True) if d == "exchange"]
    if not exchangers:
        return (dealer + 1) % 3
    if rule is LeadAfterExchange.LAST_EXCHANGER:
        return exchangers[-1]
    return (exchangers[-1] + 1) % 3


def test_cw3_the_player_at_the_dealers_left_leads_when_nobody_exchanges() -> None:
    for dealer in range(3):
        for spec in ("whist", "whist-1997"):
            _, options = resolve(spec)
            hand = start_hand(MUST_BEAT, dealer, "keep keep keep", options)
            assert hand.to_act == hand.leader == (dealer + 1) % 3


def test_cw3_the_last_exchanger_leads_by_default() -> None:
    hand = start_hand(MUST_BEAT, 0, "exchange keep keep")
    assert hand.to_act == 1
    hand = start_hand(MUST_BEAT, 0, "exchange exchange keep")
    assert hand.to_act == 2
    hand = start_hand(MUST_BEAT, 0, "keep keep exchange")
    assert hand.to_act == 0  # the dealer exchanged last and leads


def test_cw3_the_player_left_of_the_last_exchanger_leads_in_the_1997_version() -> None:
    _, options = resolve("whist-1997")
    assert options.lead_after_exchange is LeadAfterExchange.LEFT_OF_LAST_EXCHANGER
    assert start_hand(MUST_BEAT, 0, "exchange keep keep", options).to_act == 2
    assert start_hand(MUST_BEAT, 0, "exchange exchange keep", options).to_act == 0
    assert start_hand(MUST_BEAT, 0, "keep keep exchange", options).to_act == 1


@pytest.mark.parametrize("rule", list(LeadAfterExchange))
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_cw3_leader_for_every_pattern_of_exchanges(rule: LeadAfterExchange, dealer: int) -> None:
    options = WhistOptions(lead_after_exchange=rule)
    for decisions in product(("keep", "exchange"), repeat=3):
        hand = WhistHand(MUST_BEAT, dealer, options)
        events: tuple[object, ...] = ()
        for d in decisions:
            events = hand.apply(Decision(d))
        leader = expected_leader(dealer, decisions, rule)
        assert PlayStarted(leader) in events
        assert hand.phase is Phase.PLAY
        assert hand.to_act == hand.leader == leader


# -- CW-4: the exchange -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_cw4_exchange_turns_run_from_the_dealers_left_round_to_the_dealer(dealer: int) -> None:
    hand = WhistHand(MUST_BEAT, dealer)
    seen = []
    for _ in range(3):
        assert hand.phase is WhistPhase.EXCHANGE
        assert tuple(hand.legal_actions()) == (Decision.KEEP, Decision.EXCHANGE)
        seen.append(hand.to_act)
        seat = hand.to_act
        assert seat is not None
        events = hand.apply(Decision.KEEP, seat)
        assert events[0] == Decided(seat, False)
    assert seen == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    assert hand.phase is Phase.PLAY


def test_cw4_an_exchanger_takes_the_bid_hand_and_leaves_their_own() -> None:
    hand = start_hand(MUST_BEAT, 2, "exchange keep keep")
    assert hand.hand_of(0) == MUST_BEAT.bid
    assert hand.bid == MUST_BEAT.hands[0]
    assert hand.hand_of(1) == MUST_BEAT.hands[1]
    assert hand.hand_of(2) == MUST_BEAT.hands[2]
    assert hand.given_up == {0: int(MUST_BEAT.hands[0])}


def test_cw4_a_second_exchanger_takes_the_first_exchangers_old_hand() -> None:
    hand = start_hand(MUST_BEAT, 2, "exchange keep exchange")
    assert hand.hand_of(0) == MUST_BEAT.bid
    assert hand.hand_of(2) == MUST_BEAT.hands[0]
    assert hand.bid == MUST_BEAT.hands[2]
    hand = start_hand(MUST_BEAT, 2, "exchange exchange exchange")
    assert [hand.hand_of(s) for s in range(3)] == [MUST_BEAT.bid, MUST_BEAT.hands[0], MUST_BEAT.hands[1]]
    assert hand.bid == MUST_BEAT.hands[2]


def test_cw4_each_player_decides_once() -> None:
    hand = start_hand(MUST_BEAT, 2, "keep exchange keep")
    assert hand.phase is Phase.PLAY
    assert [seat for seat, _ in hand.decisions] == [0, 1, 2]
    for decision in Decision:
        message = assert_refused(hand, decision, IllegalActionError, str(decision))
        assert "card" in message


def test_cw4_a_decision_out_of_turn_is_refused() -> None:
    hand = WhistHand(MUST_BEAT, 2)
    assert_refused(hand, Decision.EXCHANGE, NotYourTurnError, "seat 2", "seat 0", seat=2)
    assert_refused(hand, Decision.KEEP, NotYourTurnError, "seat 1", seat=1)


def test_cw4_a_card_during_the_exchange_round_is_refused() -> None:
    hand = WhistHand(MUST_BEAT, 2)
    assert_refused(hand, card("AH"), IllegalActionError, "AH", "CW-4")
    hand.apply(Decision.EXCHANGE)
    assert_refused(hand, card("QH"), IllegalActionError, "QH", "CW-4")


@pytest.mark.parametrize("decisions", [" ".join(p) for p in product(("keep", "exchange"), repeat=3)])
def test_cw4_the_exchange_conserves_the_cards(decisions: str) -> None:
    hand = start_hand(MUST_BEAT, 1, decisions)
    piles = [hand.hand_of(s) for s in range(3)] + [CardSet(hand.bid)]
    assert all(len(p) == 13 for p in piles)
    assert CardSet(piles[0] | piles[1] | piles[2] | piles[3]) == CardSet((1 << 52) - 1)
    # The piles are the four dealt hands, moved around.
    assert sorted(map(int, piles)) == sorted(map(int, (*MUST_BEAT.hands, MUST_BEAT.bid)))


# -- illegal actions in general -----------------------------------------------------------------------------
def test_a_card_not_in_the_hand_is_refused_and_named() -> None:
    hand = start_hand(MUST_BEAT)
    assert_refused(hand, card("KH"), IllegalActionError, "KH", "not in your hand")


def test_a_card_out_of_turn_is_refused() -> None:
    hand = start_hand(MUST_BEAT)
    message = assert_refused(hand, card("QH"), NotYourTurnError, "QH", "seat 0's turn", seat=1)
    assert "seat 1" in message


def test_nothing_may_be_played_after_the_hand_is_over() -> None:
    hand = start_hand(MUST_BEAT)
    play_out(hand, random_legal, random.Random(5))
    assert hand.is_over and hand.to_act is None
    assert tuple(hand.legal_actions()) == ()
    assert_refused(hand, card("AH"), GameOverError, "AH", "over")
    assert_refused(hand, Decision.KEEP, GameOverError, "over")


# -- CW-5 and scoring ---------------------------------------------------------------------------------------
SEVEN_TWO_FOUR = WhistDeal(
    (
        cards("6C 10C 2D 4D 10D AD 5H KH AH 6S QS KS AS"),
        cards("5C 7C 9C 5D 2H 7H 9H 2S 3S 4S 5S 9S 10S"),
        cards("2C 3C JC KC AC 6D JD 3H 4H 8H 10H QH 7S"),
    ),
    cards("4C 8C QC 3D 7D 8D 9D QD KD 6H JH 8S JS"),
)
"""Dealt by seat 0, nobody exchanging, each seat playing its lowest legal card: seats 0, 1, 2 take 7, 2 and 4
tricks (worked out once with the reference rules of the perft tests)."""

# Three more such deals, each with the tricks (seat 0, 1, 2) it gives when dealt by seat 0 and played the same way.
POLICY_DEALS = {
    (1, 4, 8): deal_of(
        "5C KC 3H 5H 6H 7H 9H QH AH 2S 4S 5S 7S",
        "7C 9C AC 3D 10D JD 2H 4H 10H JH 8S 9S JS",
        "3C 4C 6C 10C JC 8D 9D KD AD 8H 3S KS AS",
    ),
    (5, 0, 8): deal_of(
        "7C 9C KC 3D AD 4H JH KH 3S 5S 9S JS AS",
        "2C 3C JC 2D 4D 5D 8D JD KD 5H 8H 4S 7S",
        "6C 8C QC AC 6D 7D 10D 6H 9H 10H 2S 8S KS",
    ),
    (5, 8, 0): deal_of(
        "2C 4C 9C 5D 10D 2H 5H KH 3S 8S JS QS AS",
        "6C 7C QC KC AC 8D 6H 7H 8H 10H QH 4S 5S",
        "5C 8C 2D 3D 4D 7D 9D JD QD 3H 4H 9H 10S",
    ),
}

LEADER_TAKES_TWELVE_SEAT_2_ONE = deal_of(
    "2S 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H",
    "AS 2C 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
)
"""Dealt by seat 2: seat 0 must lead its only plain card 2S, seat 2 must win it with AS, then seat 0 trumps the
heart lead and wins every club trick after: 12, 0, 1 tricks whatever anyone chooses."""

LEADER_TAKES_TWELVE_SEAT_1_ONE = deal_of(
    "2S 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2C",
)
"""Dealt by seat 2: seat 1 must win the 2S lead with AS, then seat 0 takes every other trick: 12, 1, 0 tricks."""


def sweep(seat: int) -> WhistDeal:
    """A deal giving ``seat`` all thirteen clubs: it takes every trick, whoever leads and whatever is played."""
    suits = [" ".join(str(c) for c in STANDARD.cards if c.suit == s) for s in Suit]
    hands = ["", "", ""]
    for k in range(3):
        hands[(seat + k) % 3] = suits[k]  # clubs to ``seat``, diamonds and hearts to the others, spades in the bid
    return deal_of(*hands)


def deal_for(block: str | tuple[int, int, int], hand_index: int, first_dealer: int = 0) -> WhistDeal:
    """The deal of one hand of a scripted match: ``"sweepN"``, ``"T1"`` or ``"T2"`` (the eldest takes 12 and
    the player one or two seats further on takes the 13th trick), or the tricks of a policy deal."""
    dealer = (first_dealer + hand_index) % 3
    if isinstance(block, tuple):
        return rotate_deal(POLICY_DEALS[block], dealer)
    if block.startswith("sweep"):
        return sweep(int(block[5:]))
    eldest = (dealer + 1) % 3
    base = LEADER_TAKES_TWELVE_SEAT_1_ONE if block == "T1" else LEADER_TAKES_TWELVE_SEAT_2_ONE
    return rotate_deal(base, eldest)


def scripted_match(blocks: list[str | tuple[int, int, int]], options: WhistOptions | None = None) -> WhistMatch:
    """A match whose hands are the given blocks, checking CW-5 along the way: the match ends after the last
    hand and not before, and the sum of the totals rises by one each hand."""
    match = WhistMatch(options)
    for i, block in enumerate(blocks):
        assert not match.is_over, f"the match ended before hand {i}"
        play_match(match, [deal_for(block, i)])
        assert sum(match.totals) == i + 1
    assert match.is_over
    return match


def test_cw5_score_is_tricks_minus_four_the_texts_example_7_2_4() -> None:
    match = WhistMatch()
    match.deal(deal=SEVEN_TWO_FOUR)
    events: list[object] = []
    while match.current is not None:
        events.extend(match.apply(first_legal(match.legal_actions(), random.Random(0))))
    scored = [e for e in events if isinstance(e, HandScored)]
    assert scored == [HandScored((7, 2, 4), (3, -2, 0), (3, -2, 0))]
    assert match.hand_scores == [(3, -2, 0)]
    assert match.hands[0].tricks_won == [7, 2, 4]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_cw5_a_sweep_scores_plus_nine_and_minus_four_whatever_is_played(seat: int) -> None:
    for trial in range(5):
        hand = start_hand(sweep(seat), trial % 3)
        play_out(hand, random_legal, random.Random(trial))
        expected = [-4, -4, -4]
        expected[seat] = 9
        assert hand.scores == tuple(expected)


def test_cw5_the_twelve_trick_deals_are_forced() -> None:
    for trial in range(10):
        rng = random.Random(trial)
        for base, tricks in (
            (LEADER_TAKES_TWELVE_SEAT_2_ONE, [12, 0, 1]),
            (LEADER_TAKES_TWELVE_SEAT_1_ONE, [12, 1, 0]),
        ):
            hand = start_hand(base)
            play_out(hand, random_legal, rng)
            assert hand.tricks_won == tricks


def test_cw5_the_game_ends_when_a_player_reaches_plus_11() -> None:
    match = scripted_match(["sweep0", "T2", "sweep1", "sweep1"])
    assert match.hand_scores == [(9, -4, -4), (-4, -3, 8), (-4, 9, -4), (-4, 9, -4)]
    assert tuple(match.totals) == (-3, 11, -4)
    assert match.winners == (1,)
    assert not match.draw
    assert match.phase is Phase.OVER


def test_cw5_the_game_ends_when_a_player_reaches_minus_11() -> None:
    match = scripted_match(["sweep0", "sweep1", (1, 4, 8)])
    assert tuple(match.totals) == (5, 9, -11)
    assert match.winners == (2,)
    assert not match.draw


def test_cw5_two_winners_one_at_plus_and_one_at_minus_11() -> None:
    match = scripted_match(["sweep0", "sweep1", "T2"])
    assert tuple(match.totals) == (13, 1, -11)
    assert match.winners == (0, 2)
    assert not match.draw


def test_cw5_two_winners_both_at_plus_11() -> None:
    blocks: list[str | tuple[int, int, int]] = [
        "sweep0",
        "sweep1",
        "sweep2",
        "sweep0",
        "sweep1",
        "sweep2",
        "T1",
        "sweep2",
        "T2",
        "T1",
        "T2",
        (5, 0, 8),
    ]
    match = scripted_match(blocks)
    assert tuple(match.totals) == (-10, 11, 11)
    assert match.winners == (1, 2)
    assert not match.draw


def test_cw5_all_three_at_the_target_at_once_is_a_draw() -> None:
    blocks: list[str | tuple[int, int, int]] = ["sweep0", "sweep1", "sweep2", "sweep0", "sweep1", (5, 8, 0), "T2"]
    blocks.append((5, 0, 8))
    match = scripted_match(blocks)
    assert tuple(match.totals) == (11, 11, -14)
    assert match.draw
    assert match.winners == ()
    summary = match.summary()
    assert summary["draw"] is True and summary["winners"] == [] and summary["over"] is True


def test_cw5_the_end_is_announced_with_the_final_totals() -> None:
    match = WhistMatch(WhistOptions(target=9))
    match.deal(deal=sweep(2))
    events: list[object] = []
    while match.current is not None:
        events.extend(match.apply(first_legal(match.legal_actions(), random.Random(0))))
    assert events[-2:] == [HandScored((0, 0, 13), (-4, -4, 9), (-4, -4, 9)), MatchEnded((2,), False, (-4, -4, 9))]


def test_cw5_the_total_of_all_scores_rises_by_one_each_hand() -> None:
    match = WhistMatch(WhistOptions(target=1000))
    rng = random.Random(11)
    for i in range(12):
        match.deal(rng=rng)
        play_out(match, random_legal, rng)
        assert sum(match.hand_scores[-1]) == 1
        assert sum(match.totals) == i + 1


def test_cw5_the_deal_passes_to_the_left() -> None:
    for first in range(3):
        match = WhistMatch(WhistOptions(target=1000), first_dealer=first)
        rng = random.Random(first)
        for i in range(5):
            assert match.next_dealer == (first + i) % 3
            (started,) = match.deal(rng=rng)
            assert started.dealer == (first + i) % 3 and started.hand_number == i
            assert match.to_act == (first + i + 1) % 3  # the exchange starts at the dealer's left
            play_out(match, random_legal, rng)
        assert [h.dealer for h in match.hands] == [(first + i) % 3 for i in range(5)]


def test_cw5_target_option_moves_the_end() -> None:
    _, options = resolve("whist(target=9)")
    assert options.target == 9
    match = scripted_match(["sweep0"], options)
    assert match.winners == (0,)
    _, options = resolve("whist(target=10)")
    match = scripted_match(["sweep0", "sweep1", "T2"], options)  # 9 is short of 10; then 13 and -11
    assert tuple(match.totals) == (13, 1, -11)
    assert match.winners == (0, 2)


def test_cw5_a_sweep_draws_when_the_target_is_4() -> None:
    match = scripted_match(["sweep1"], WhistOptions(target=4))
    assert tuple(match.totals) == (-4, 9, -4)
    assert match.draw and match.winners == ()


def test_cw5_nothing_happens_after_the_match_is_over() -> None:
    match = scripted_match(["sweep0"], WhistOptions(target=9))
    before = match_snapshot(match)
    with pytest.raises(GameOverError, match="over"):
        match.apply(card("2C"))
    with pytest.raises(GameOverError, match="over"):
        match.deal(deal=sweep(0))
    assert match_snapshot(match) == before
    assert match.to_act is None and tuple(match.legal_actions()) == ()


def test_match_refuses_actions_between_hands_and_a_deal_during_a_hand() -> None:
    match = WhistMatch()
    with pytest.raises(IllegalActionError, match="deal first"):
        match.apply(Decision.KEEP)
    match.deal(deal=MUST_BEAT)
    before = match_snapshot(match)
    with pytest.raises(IllegalActionError, match="in progress"):
        match.deal(deal=MUST_BEAT)
    with pytest.raises(NotYourTurnError, match="seat 0"):
        match.apply(Decision.KEEP, seat=0)
    assert match_snapshot(match) == before
