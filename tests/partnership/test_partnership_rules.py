"""Rule scenarios of Clubs (partnership) on exact deals: CP-1 (leads and trick winner), the follow-suit rule of the
text, CP-2 (the pass cycle), CP-3 (points per partnership) and CP-4 (the game to 150, ties), dealer rotation, and
how every illegal action is refused."""

from __future__ import annotations

import random
from typing import Any

import pytest
from partnership_helpers import (
    first_legal,
    match_snapshot,
    no_pass_hand,
    pass_of,
    pdeal,
    play,
    play_out,
    random_legal,
    snapshot,
)

from clubsuite.cards import CLUBS_MASK, CardSet, card, cards
from clubsuite.engine import Phase, resolve
from clubsuite.errors import (
    ClubsError,
    GameOverError,
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionsError,
    NotYourTurnError,
)
from clubsuite.games.partnership import (
    CardsPassed,
    Direction,
    HandScored,
    HandStarted,
    MatchEnded,
    PartnershipMatch,
    PartnershipOptions,
    Pass,
    PassChosen,
    PlayStarted,
    TrickTaken,
    pass_direction,
)
from clubsuite.games.partnership.hand import PartnershipPhase
from clubsuite.games.partnership.match import CORE as _CORE
from clubsuite.games.partnership.match import CompiledPartnershipMatch as _Compiled
from clubsuite.seeding import derive_seed, hand_seed
from compiled_match_helpers import on_each_match_class

_each_match_class = on_each_match_class(globals(), "PartnershipMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

# Seat 3 holds no spade; seat 0 holds the queen of diamonds.
DEAL = pdeal(
    "AC 2C AD QD 2D AH 3H 2H AS 5S 4S 3S 2S",
    "KC 3C KD 4D 3D KH 5H 4H KS 9S 8S 7S 6S",
    "QC 6C 5C 4C JD 6D 5D QH 7H 6H QS JS 10S",
)


# -- CP-1: leads and the trick winner ----------------------------------------------------------------------------
def test_cp1_any_card_may_be_led_a_club_at_the_first_trick_too() -> None:
    hand = no_pass_hand(DEAL)
    assert hand.to_act == 0
    assert hand.legal_actions() == DEAL.hands[0]
    play(hand, "2C")  # no "clubs broken" rule here, unlike whist
    assert hand.trick == ((0, card("2C")),)


def test_cp1_the_player_at_the_dealers_left_leads_the_first_trick() -> None:
    for dealer in range(4):
        hand = no_pass_hand(DEAL, dealer)
        assert hand.phase is Phase.PLAY
        assert hand.leader == hand.to_act == (dealer + 1) % 4


def test_cp1_the_highest_club_takes_the_trick_over_the_suit_led() -> None:
    hand = no_pass_hand(DEAL)
    events = []
    for c in ("AS", "6S", "10S", "7C"):  # seat 3 has no spade and trumps with a low club
        events.extend(hand.apply(card(c)))
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert taken == [TrickTaken(3, 1, tuple(card(c) for c in ("AS", "6S", "10S", "7C")))]
    assert hand.leader == hand.to_act == 3  # the winner leads the next trick


def test_cp1_the_highest_club_wins_among_clubs() -> None:
    hand = no_pass_hand(DEAL)
    play(hand, "2C 3C QC JC")
    assert hand.tricks[-1][2] == 2


def test_cp1_without_a_club_the_highest_card_of_the_suit_led_wins_and_another_suit_never_does() -> None:
    hand = no_pass_hand(DEAL)
    play(hand, "2S 6S QS 10D")  # seat 3 discards a diamond, higher in rank than nothing led
    assert hand.tricks[-1][2] == 2
    play(hand, "QH 10H 3H 4H")  # seat 2 leads; hearts only: the queen wins
    assert hand.tricks[-1][2] == 2


# -- the follow-suit rule of the text (section 7) ----------------------------------------------------------------
def test_rule7_a_player_holding_the_suit_led_must_follow_it() -> None:
    hand = no_pass_hand(DEAL)
    play(hand, "AS")
    assert hand.legal_actions() == cards("KS 9S 8S 7S 6S")
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(card("KH"))
    message = str(info.value)
    assert message == hand.explain(card("KH"))
    assert message.startswith("KH is illegal: spades were led and you hold spades (6S 7S 8S 9S KS)")
    assert "(rule: a player must follow the suit led if able)" in message
    assert snapshot(hand) == before


def test_rule7_a_player_without_the_suit_led_may_play_any_card() -> None:
    hand = no_pass_hand(DEAL)
    play(hand, "AS 6S 10S")
    assert hand.to_act == 3
    assert hand.legal_actions() == DEAL.hands[3]


# -- CP-2: the pass ---------------------------------------------------------------------------------------------
def test_cp2_the_pass_cycle_is_left_right_none_from_the_first_hand_of_the_game() -> None:
    assert [pass_direction(i) for i in range(7)] == [
        Direction.LEFT,
        Direction.RIGHT,
        Direction.NONE,
        Direction.LEFT,
        Direction.RIGHT,
        Direction.NONE,
        Direction.LEFT,
    ]


@pytest.mark.parametrize("first_dealer", [0, 2])
def test_cp2_cards_go_left_then_right_then_nowhere_then_left_again(first_dealer: int) -> None:
    match = PartnershipMatch(first_dealer=first_dealer)
    where = []
    for index in range(4):
        events = match.deal(deal=DEAL)
        assert events[0] == HandStarted(index, (first_dealer + index) % 4, pass_direction(index).value)
        hand = match.current
        assert hand is not None
        if index % 3 == 2:
            # CP-2: no pass on the third hand; play starts at once with the player at the dealer's left (CP-1).
            assert hand.phase is Phase.PLAY and events[1:] == (PlayStarted((hand.dealer + 1) % 4),)
            where.append("none")
        else:
            assert hand.phase is PartnershipPhase.PASS
            chosen = {}
            for _ in range(4):
                seat = match.to_act
                assert seat is not None
                chosen[seat] = int(match.legal_actions()[0].cards)  # the three lowest cards
                last = match.apply(match.legal_actions()[0])
            assert last[1:] == (CardsPassed(pass_direction(index).value), PlayStarted((hand.dealer + 1) % 4))
            step = 1 if index % 3 == 0 else -1
            for seat in range(4):
                to = (seat + step) % 4
                assert chosen[seat] & hand.hands[to] == chosen[seat]
                assert not chosen[seat] & hand.hands[seat]
            assert [h.bit_count() for h in hand.hands] == [13] * 4
            where.append("left" if step == 1 else "right")
        play_out(match)
    assert where == ["left", "right", "none", "left"]


def test_cp2_pass_choices_start_at_the_dealers_left_and_nothing_moves_until_all_four_chose() -> None:
    match = PartnershipMatch()  # seat 0 deals: seat 1 chooses first
    match.deal(deal=DEAL)
    hand = match.current
    assert hand is not None
    order = []
    for text in ("pass KC 3C KD", "pass 4C 5C 6C", "pass 7C 8C 9C", "pass 2C AD QD"):
        order.append(match.to_act)
        before = tuple(hand.hands)
        events = match.apply(text)
        if len(order) < 4:
            assert events == (PassChosen(order[-1]),)
            assert tuple(hand.hands) == before  # CP-2: chosen, not yet given
    assert order == [1, 2, 3, 0]
    assert hand.hands[2] & int(cards("KC 3C KD")) == int(cards("KC 3C KD"))


def test_cp2_a_card_about_to_be_received_cannot_be_passed_on() -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    match.apply("pass KC 3C KD")  # seat 1 to seat 2
    before = match_snapshot(match)
    with pytest.raises(IllegalActionError) as info:
        match.apply("pass KC 4C 5C")  # seat 2 does not hold KC yet
    message = str(info.value)
    assert message == match.explain("pass KC 4C 5C")
    assert "KC is not in your hand" in message and "CP-2" in message
    assert match_snapshot(match) == before
    view = match.view(2)
    assert view.received is None and view.given is None
    assert match.view(1).given == cards("KC 3C KD")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("pass 2C", "names 1 card: each player passes exactly three (CP-2)"),
        ("pass 2C AD QD AS", "names 4 cards: each player passes exactly three (CP-2)"),
        ("AC", "AC is not a pass: before play seat 1 passes three cards to the left, to seat 2 (CP-2)"),
    ],
)
def test_cp2_a_pass_is_exactly_three_cards_of_the_hand(text: str, fragment: str) -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    match.apply("pass KC 3C KD")
    match.apply("pass 4C 5C 6C")
    match.apply("pass JC 10C 9C")  # seat 3
    assert match.to_act == 0
    before = match_snapshot(match)
    with pytest.raises(IllegalActionError) as info:
        match.apply(text)
    assert fragment.replace("seat 1", "seat 0").replace("seat 2", "seat 1") in str(info.value)
    assert str(info.value) == match.explain(text)
    assert match_snapshot(match) == before


def test_cp2_a_pass_naming_a_card_twice_or_no_card_is_not_read() -> None:
    with pytest.raises(InvalidNotationError, match="2C is named twice"):
        PartnershipMatch.parse_action("pass 2C 2C 3C")
    with pytest.raises(InvalidNotationError, match="names no cards"):
        PartnershipMatch.parse_action("pass")
    with pytest.raises(InvalidNotationError, match="'ZZ' is not a partnership action"):
        PartnershipMatch.parse_action("ZZ")
    assert PartnershipMatch.parse_action("p qs, 7h 2c") == Pass(cards("2C 7H QS"))
    assert PartnershipMatch.parse_action("2C 7H QS") == Pass(cards("2C 7H QS"))
    assert str(Pass(cards("QS 2C 7H"))) == "pass 2C 7H QS"


def test_cp2_no_pass_is_taken_in_a_no_pass_hand_or_after_the_pass() -> None:
    hand = no_pass_hand(DEAL)
    reason = hand.explain(pass_of("2C AD QD"))
    assert reason is not None and "no cards are passed in this hand (CP-2" in reason
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    for text in ("pass KC 3C KD", "pass 4C 5C 6C", "pass JC 10C 9C", "pass 2C AD QD"):
        match.apply(text)
    with pytest.raises(IllegalActionError, match=r"the pass of this hand is over \(CP-2\)"):
        match.apply("pass 2C AH 3H")


# -- CP-3: points per partnership --------------------------------------------------------------------------------
def test_cp3_the_ruby_dame_scores_five_for_the_partnership_that_takes_it() -> None:
    hand = no_pass_hand(DEAL)
    play(hand, "QD KD 5D 7D")  # seat 1 takes the queen of diamonds with the king
    assert hand.tricks[-1][2] == 1
    lines = hand.score_lines()
    assert lines[1].ruby_dame == 5 and lines[0].ruby_dame == 0
    assert lines[1].total == 1 + 5
    play_out(hand)
    assert hand.score_lines()[1].ruby_dame == 5 and hand.score_lines()[0].ruby_dame == 0


def test_cp3_a_hand_is_worth_31_points_a_trick_and_a_club_each_and_five_for_the_ruby_dame() -> None:
    hand = no_pass_hand(DEAL)
    events: list[Any] = []
    while not hand.is_over:
        events.extend(hand.apply(first_legal(hand.legal_actions(), random.Random(0))))
    scored = events[-1]
    assert isinstance(scored, HandScored)
    lines = hand.score_lines()
    assert sum(line.tricks for line in lines) == 13
    assert sum(line.clubs for line in lines) == 13
    assert sum(line.ruby_dame for line in lines) == 5
    assert sum(line.sweep for line in lines) == 0
    assert sum(scored.team_scores) == 31
    assert scored.scores == (scored.team_scores[0], scored.team_scores[1]) * 2  # partners share the score
    for team, line in enumerate(lines):
        taken = hand.taken[team] | hand.taken[team + 2]
        assert line.clubs == (taken & CLUBS_MASK).bit_count()


# Seats 0 and 2 hold every club and every plain card from the jack up, and the ten of diamonds: whoever leads
# and whatever anyone plays, they take every trick.
SWEEP = pdeal(
    "AC QC 10C 8C 6C 4C 2C AD KD AH KH AS KS",
    "9D 8D 7D 6D 9H 8H 7H 6H 9S 8S 7S 6S 10H",
    "KC JC 9C 7C 5C 3C QD JD 10D QH JH QS JS",
)


def test_cp3_a_partnership_taking_all_13_tricks_scores_36_however_the_partners_share_them() -> None:
    for seed in range(12):
        hand = no_pass_hand(SWEEP, dealer=seed % 4)
        play_out(hand, random_legal, random.Random(seed))
        assert hand.tricks_won[0] + hand.tricks_won[2] == 13
        assert hand.team_scores == (36, 0)  # 13 tricks + 13 clubs + 5 for the Ruby Dame + 5 for taking all
        lines = hand.score_lines()
        assert lines[0] == (13, 13, 5, 5) and lines[1] == (0, 0, 0, 0)
    # The partners share the tricks: the bonus is the partnership's.
    shared = no_pass_hand(SWEEP)
    play(shared, "2C 9D KC 2D")  # seat 0 leads low and its partner takes the trick
    play(shared, "QD 3D AD 6D")  # seat 2 leads the Ruby Dame and seat 0 takes it
    play_out(shared, random_legal, random.Random(1))
    assert shared.tricks_won[0] >= 1 and shared.tricks_won[2] >= 1
    assert shared.team_scores == (36, 0)


# -- CP-4: the game to 150 --------------------------------------------------------------------------------------
def _one_hand_result() -> tuple[int, int]:
    """The partnership points of the first hand of a match on DEAL with the first legal actions."""
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    play_out(match)
    return match.team_totals


def test_cp4_the_first_partnership_to_reach_the_target_wins() -> None:
    first = _one_hand_result()
    low, high = sorted(first)
    match = PartnershipMatch(PartnershipOptions(target=high))
    match.deal(deal=DEAL)
    events: list[Any] = []
    while match.current is not None:
        events.extend(match.apply(match.legal_actions()[0]))
    winner = first.index(high)
    assert match.is_over and match.winners == ((0, 2), (1, 3))[winner]
    assert events[-1] == MatchEnded(match.winners, False, tuple(match.totals))
    with pytest.raises(GameOverError):
        match.deal(deal=DEAL)
    # One point short: the match goes on.
    match = PartnershipMatch(PartnershipOptions(target=high + 1))
    match.deal(deal=DEAL)
    play_out(match)
    assert not match.is_over and match.winners == ()
    assert low < high


def test_cp4_when_both_partnerships_reach_the_target_the_higher_total_wins() -> None:
    first = _one_hand_result()
    match = PartnershipMatch(PartnershipOptions(target=min(first)))
    match.deal(deal=DEAL)
    play_out(match)
    assert match.is_over
    assert match.winners == ((0, 2), (1, 3))[first.index(max(first))]


def _tie_match() -> tuple[PartnershipMatch, list[tuple[int, int]]]:
    """Random play from match seed 68: its tenth hand leaves both partnerships at 155 (the golden record
    ``partnership-seeded-tie`` is the same match)."""
    info, options = resolve("partnership")
    match = info.new_match(options, 0)
    rng = random.Random(derive_seed(68, 1))
    after = []
    while not match.is_over:
        match.deal(deal=info.deal_from_seed(hand_seed(68, len(match.hands)), match.next_dealer))
        play_out(match, random_legal, rng)
        after.append(match.team_totals)
    return match, after


def test_cp4_an_exact_tie_at_150_or_more_plays_another_hand() -> None:
    match, after = _tie_match()
    assert after[9][0] == after[9][1] >= 150  # a tie after the tenth hand: nobody wins yet
    assert all(max(t) < 150 for t in after[:9])
    assert len(after) == 11 and match.is_over  # the eleventh hand decides it
    final = after[10]
    assert final[0] != final[1]
    assert match.winners == ((0, 2), (1, 3))[final.index(max(final))]


def test_cp4_target_is_an_option_with_a_range() -> None:
    assert PartnershipOptions().target == 150
    assert resolve("partnership(target=60)")[1] == PartnershipOptions(target=60)
    for bad in (0, 100001):
        with pytest.raises(InvalidOptionsError, match="CP-4"):
            PartnershipOptions(target=bad)
    with pytest.raises(InvalidOptionsError, match="CP-4"):
        PartnershipOptions(target="150")  # type: ignore[arg-type]


# -- dealer rotation, turns, the end -----------------------------------------------------------------------------
def test_the_deal_passes_to_the_left_after_each_hand() -> None:
    match = PartnershipMatch(first_dealer=3)
    for index in range(5):
        assert match.next_dealer == (3 + index) % 4
        match.deal(rng=random.Random(index))
        hand = match.current
        assert hand is not None and hand.dealer == (3 + index) % 4
        play_out(match)
    assert [h.dealer for h in match.hands] == [3, 0, 1, 2, 3]


def test_acting_out_of_turn_and_after_the_hand_is_refused_without_change() -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    before = match_snapshot(match)
    with pytest.raises(NotYourTurnError, match="seat 2 tried pass 4C 5C 6C, but it is seat 1's turn"):
        match.apply("pass 4C 5C 6C", seat=2)
    assert match.explain("pass 4C 5C 6C", seat=2) == "it is seat 1's turn, not seat 2's"
    assert match_snapshot(match) == before
    play_out(match)
    with pytest.raises(IllegalActionError, match="no hand is in progress"):
        match.apply("2C")


def _third_hand_spade_led() -> PartnershipMatch:
    """A match in its third hand (no pass, CP-2) on DEAL, seat 3 dealing: seat 0 has led AS, seat 1 follows."""
    match = PartnershipMatch(first_dealer=1)
    for _ in range(2):
        match.deal(deal=DEAL)
        play_out(match)
    match.deal(deal=DEAL)
    play(match, "AS")
    return match


ILLEGAL_IN_PLAY = [
    ("9D", "9D is not in your hand (rule: you play a card you hold)"),
    ("KH", "KH is illegal: spades were led and you hold spades (6S 7S 8S 9S KS), so you must follow suit"),
    ("pass 6S 7S 8S", "pass 6S 7S 8S is refused: no cards are passed in this hand (CP-2: left, right, then no pass)"),
]


@pytest.mark.parametrize(("text", "reason"), ILLEGAL_IN_PLAY)
def test_every_illegal_play_raises_its_reason_naming_input_and_rule_and_changes_nothing(text: str, reason: str) -> None:
    match = _third_hand_spade_led()
    assert match.to_act == 1
    before = match_snapshot(match)
    with pytest.raises(IllegalActionError) as info:
        match.apply(text)
    message = str(info.value)
    assert message.startswith(reason)
    assert message == match.explain(text) == match.explain(match.parse_action(text), seat=1)
    assert "(rule:" in message or "(CP-" in message
    assert match_snapshot(match) == before
    assert isinstance(info.value, ClubsError)


@pytest.mark.parametrize("cards", [None, [1, 2, 3], "2C 3C 4C", True, -1, 1 << 60])
def test_cp2_a_pass_object_that_holds_no_cards_of_the_deck_is_refused_without_change(cards: Any) -> None:
    match = PartnershipMatch()
    match.deal(deal=DEAL)
    before = match_snapshot(match)
    bad = Pass(cards)
    reason = match.explain(bad)
    assert reason is not None and "CP-2" in reason
    with pytest.raises(IllegalActionError, match="CP-2"):
        match.apply(bad)
    assert match_snapshot(match) == before


@pytest.mark.parametrize("mask", [1 << 60, 1 << 60 | 1, 1 << 200])
def test_cp2_a_pass_of_cards_of_no_deck_in_the_card_play_is_refused_by_its_reason(mask: int) -> None:
    """A card set built from a stray mask (bits that are no card) is written with those bits as ``#index``, so the
    card play's refusal of any pass can still name it."""
    match = _third_hand_spade_led()
    before = match_snapshot(match)
    bad = Pass(CardSet.from_mask(mask))
    reason = match.explain(bad)
    assert reason is not None and reason.startswith("pass ") and "#" in reason and "(CP-2" in reason
    with pytest.raises(IllegalActionError, match="CP-2"):
        match.apply(bad)
    assert match_snapshot(match) == before
