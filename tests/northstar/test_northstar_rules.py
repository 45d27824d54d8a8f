"""Rule scenarios of North Star's CLUBS on exact deals, one or more per ruling NS-1..NS-11 and per rule of the text.

Every scenario builds its deal card by card (``NorthstarDeal`` from ``NORTHSTAR.parse_set``) so that the rule under
test is the only thing that decides what happens. Unless a test says otherwise the last seat deals, so seat 0 leads.
Refused actions are checked to name the rule and to leave the whole state as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from clubsuite.cards import CardSet, Suit
from clubsuite.engine import resolve
from clubsuite.errors import (
    GameOverError,
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
    InvalidOptionsError,
    NotYourTurnError,
)
from clubsuite.games.northstar import (
    BONUS_CARDS,
    Call,
    DoubleCalled,
    HandScored,
    HandStarted,
    Kind,
    LastTurn,
    Leftover,
    MatchEnded,
    NorthstarDeal,
    NorthstarMatch,
    NorthstarOptions,
    NorthstarShuffle,
    Passed,
    Play,
    Played,
    RoundEnded,
    Teams,
    TrickWon,
    WentOut,
    beats,
    club_points,
    deal_from_shuffle,
    generate,
    parse_play,
)
from clubsuite.games.northstar.combos import CLUB_MASK, DECK_MASK, NORTHSTAR, VALUE_MASKS
from clubsuite.games.northstar.match import CORE as _CORE
from clubsuite.games.northstar.match import CompiledNorthstarMatch as _Compiled
from clubsuite.games.northstar.options import DEFAULT_CLUB_POINTS
from compiled_match_helpers import on_each_match_class

_each_match_class = on_each_match_class(globals(), "NorthstarMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

SUIT_LETTERS = "CDHS"


# -- helpers ------------------------------------------------------------------------------------------------
def span(low: int, high: int, suit: str) -> str:
    """The cards ``low`` to ``high`` of one suit in notation, e.g. ``span(1, 3, "C") == "1C 2C 3C"``."""
    return " ".join(f"{v}{suit}" for v in range(low, high + 1))


def cs(text: str) -> CardSet:
    """A set of North Star cards from notation."""
    return NORTHSTAR.parse_set(text)


def deal_of(*hands: str) -> NorthstarDeal:
    """An explicit deal: the hands of seats 0, 1, ... in notation (ten cards each)."""
    return NorthstarDeal(tuple(cs(h) for h in hands))


def new_match(*hands: str, first_dealer: int | None = None, **options: Any) -> NorthstarMatch:
    """A match of ``len(hands)`` players with the given options, its first round dealt from ``hands``.

    By default the last seat deals, so seat 0 leads the first trick.
    """
    opts = NorthstarOptions(players=len(hands), **options)
    match = NorthstarMatch(opts, len(hands) - 1 if first_dealer is None else first_dealer)
    match.deal(deal=deal_of(*hands))
    return match


def act(match: NorthstarMatch, *notations: str) -> list[Any]:
    """Apply the actions in order, each by the seat to act; returns all their events."""
    events: list[Any] = []
    for text in notations:
        events.extend(match.apply(text))
    return events


def pass_until_taken(match: NorthstarMatch) -> list[Any]:
    """Everyone passes until the trick in progress is taken (or the round ends); returns the events."""
    events: list[Any] = []
    while match.current is not None and match.current.top is not None:
        events.extend(match.apply(Call.PASS))
    return events


def dump_round(match: NorthstarMatch) -> list[Any]:
    """Play the round out: a leader plays its longest play (the first of them), every follower passes."""
    events: list[Any] = []
    while match.current is not None:
        legal = match.legal_actions()
        if Call.PASS in legal:
            events.extend(match.apply(Call.PASS))
            continue
        plays = [a for a in legal if isinstance(a, Play)]
        events.extend(match.apply(max(plays, key=lambda p: p.size)))
    return events


def lowest_round(match: NorthstarMatch) -> None:
    """Play the round out quickly: a leader plays its first legal play (a low single), every follower passes."""
    while match.current is not None:
        legal = match.legal_actions()
        match.apply(Call.PASS if Call.PASS in legal else next(a for a in legal if isinstance(a, Play)))


def snapshot(match: NorthstarMatch) -> tuple[Any, ...]:
    """Everything observable about the match and its round, to check that a refused action changed nothing."""
    cur = match.current
    round_state: tuple[Any, ...] = ()
    if cur is not None:
        round_state = (
            tuple(cur.hands),
            tuple(cur.won),
            tuple(cur.bonus),
            tuple(cur.out_order),
            tuple(cur.doubled),
            tuple(cur.started),
            tuple(cur.trick),
            cur.top,
            cur.top_seat,
            cur.passes,
            tuple(cur.tricks),
            cur.to_act,
            cur.last_turn,
            cur.ended,
            cur.scores,
            tuple(cur.history),
            tuple(cur.action_log()),
            cur.legal_actions(),
        )
    return (
        match.phase,
        match.to_act,
        tuple(match.totals),
        tuple(match.hand_scores),
        match.winners,
        match.is_over,
        len(match.hands),
        tuple(match.packs),
        round_state,
    )


def refused(
    match: NorthstarMatch, action: str | Any, error: type[Exception], *words: str, seat: int | None = None
) -> str:
    """Apply ``action``, expecting ``error`` with every one of ``words`` in its message and the state unchanged."""
    before = snapshot(match)
    with pytest.raises(error) as info:
        match.apply(action, seat)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert snapshot(match) == before
    return message


def of_type(events: list[Any], kind: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


# The quick 3-player deal: each seat holds a ten-card run of one suit, so a leader can go out in one play that
# nobody can beat (a run to 10 is beaten only by a ten-card run to 11 or more).
Q3 = (span(1, 10, "C"), span(1, 10, "D"), span(1, 10, "H"))


# -- Everywhere --------------------------------------------------------------------------------------------
def test_everywhere_the_deal_passes_left_and_the_dealers_left_leads() -> None:
    match = NorthstarMatch(NorthstarOptions(players=3, leftover=Leftover.RESHUFFLE, target=1000), first_dealer=1)
    for round_no in range(3):
        events = match.deal(deal=deal_of(*Q3))
        assert events == (HandStarted(round_no, (1 + round_no) % 3),)
        assert match.to_act == (2 + round_no) % 3
        lowest_round(match)


def test_everywhere_play_goes_clockwise_skipping_players_without_cards() -> None:
    # Four players: seat 0 goes out; the next trick runs 1, 2, 3, 1 (seat 0 is skipped) and needs two passes.
    match = new_match(span(1, 10, "C"), span(1, 10, "D"), span(1, 10, "H"), span(1, 10, "S"))
    act(match, span(1, 10, "C"), "pass", "pass", "pass")
    assert match.to_act == 1
    act(match, "1D")
    assert match.to_act == 2
    act(match, "pass")
    assert match.to_act == 3
    events = act(match, "pass")
    assert of_type(events, TrickWon) == [TrickWon(1, cs("1D"), False)]
    assert match.to_act == 1


# -- NS-1 Deck and bonus cards -----------------------------------------------------------------------------
def test_ns1_the_deck_has_60_cards_valued_1_to_15_in_four_suits() -> None:
    assert len(NORTHSTAR) == 60
    assert {c.rank for c in NORTHSTAR.cards} == set(range(1, 16))
    assert {c.suit for c in NORTHSTAR.cards} == set(Suit)
    assert int(NORTHSTAR.mask) == DECK_MASK
    assert all(len(CardSet.from_mask(VALUE_MASKS[v])) == 4 for v in range(1, 16))


def test_ns1_bonus_cards_by_player_count_highest_first() -> None:
    # The 0 card goes to the last player with 3 or more players; it is not among the cards taken by going out.
    assert BONUS_CARDS == {6: (12, 10, 8, 5, 2), 5: (10, 8, 5, 2), 4: (8, 5, 2), 3: (5, 2), 2: (5,)}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ns1_ns5_bonus_cards_are_taken_in_order_by_the_players_going_out(players: int) -> None:
    # Seats 0.. n-2 go out one after the other with plays nobody can beat; the last seat is left holding cards.
    runs = [span(1, 10, s) for s in SUIT_LETTERS]
    hands = [*runs[: players - 1], span(11, 15, "C") + " " + span(11, 15, "D")]
    if players == 6:
        hands = [*runs, span(11, 15, "C") + " " + span(11, 15, "D"), span(11, 15, "H") + " " + span(11, 15, "S")]
    match = new_match(*hands)
    events = dump_round(match)
    expected = {6: (12, 10, 8, 5, 2), 5: (10, 8, 5, 2), 4: (8, 5, 2), 3: (5, 2), 2: (5,)}[players]
    went_out = of_type(events, WentOut)
    assert [(e.seat, e.bonus) for e in went_out] == list(enumerate(expected))
    hand = match.hands[-1]
    last = players - 1
    assert hand.ended == RoundEnded(last, None)
    if players == 2:
        assert hand.bonus == [5, None]  # CLUBS for 2: the 5 is the only bonus card; no 0 card
    else:
        assert hand.bonus == [*expected, 0]
        assert hand.scores is not None and hand.scores[last] == 0


# -- NS-2 Club points --------------------------------------------------------------------------------------
def test_ns2_only_clubs_score_by_the_provisional_default_table() -> None:
    assert DEFAULT_CLUB_POINTS == (3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1)
    for v in range(1, 16):
        assert club_points(int(cs(f"{v}C")), DEFAULT_CLUB_POINTS) == (3 if v <= 5 else 2 if v <= 10 else 1)
        for suit in "DHS":
            assert club_points(int(cs(f"{v}{suit}")), DEFAULT_CLUB_POINTS) == 0
    assert club_points(int(cs("15C")), DEFAULT_CLUB_POINTS) == 1  # the 15 of clubs scores 1
    assert club_points(CLUB_MASK, DEFAULT_CLUB_POINTS) == 30
    assert club_points(DECK_MASK, DEFAULT_CLUB_POINTS) == 30


def test_ns2_the_round_score_is_clubs_won_plus_the_bonus_card() -> None:
    match = new_match(*Q3)
    events = dump_round(match)
    # Seat 0 wins 1C..10C (5 x 3 + 5 x 2 = 25) and the 5; seat 1 wins diamonds and the 2; seat 2 takes the 0.
    assert of_type(events, HandScored) == [HandScored((30, 2, 0), (30, 2, 0), (30, 2, 0))]


def test_ns2_a_replaced_club_points_table_changes_the_score() -> None:
    table = tuple(range(1, 16))  # the club of value v scores v
    match = new_match(*Q3, club_points=table)
    dump_round(match)
    assert match.hand_scores == [(55 + 5, 2, 0)]
    _, options = resolve("northstar(players=3,club_points=1/2/3/4/5/6/7/8/9/10/11/12/13/14/15)")
    assert isinstance(options, NorthstarOptions) and options.club_points == table


@pytest.mark.parametrize("bad", [(1, 2, 3), (3,) * 14 + (-1,), (3,) * 14 + ("1",)])
def test_ns2_a_club_points_table_is_fifteen_whole_numbers(bad: tuple[Any, ...]) -> None:
    with pytest.raises(InvalidOptionsError, match="NS-2"):
        NorthstarOptions(club_points=bad)


# -- NS-3 Combinations -------------------------------------------------------------------------------------
def test_ns3_single_set_and_run_are_the_three_kinds() -> None:
    assert parse_play("7H", wild=False) == Play(cs("7H"), Kind.SINGLE, 7)
    assert parse_play("7C 7H", wild=False) == Play(cs("7C 7H"), Kind.SET, 7)
    assert parse_play("4H 5C 6D", wild=False) == Play(cs("4H 5C 6D"), Kind.RUN, 6)
    assert parse_play("4H 5C 6D", wild=False).low == 4


def test_ns3_a_15_inside_a_run_is_part_of_the_run_and_wins_at_once() -> None:
    assert parse_play("13C 14D 15H", wild=False) == Play(cs("13C 14D 15H"), Kind.RUN, 15)
    match = new_match("13C 14D 15H 1C 2C 3C 4C 5C 6C 7C", span(1, 10, "D"), span(1, 10, "H"))
    events = act(match, "13C 14D 15H")
    assert of_type(events, TrickWon) == [TrickWon(0, cs("13C 14D 15H"), True)]
    assert match.to_act == 0  # the winner leads again


def test_ns3_a_set_of_four() -> None:
    assert parse_play("7C 7D 7H 7S", wild=False) == Play(cs("7C 7D 7H 7S"), Kind.SET, 7)
    plays = generate(int(cs("7C 7D 7H 7S 1C")), None, wild=False, crazy=False)
    sets = [p for p in plays if p.kind is Kind.SET]
    assert len(sets) == 6 + 4 + 1  # the pairs, threes and the four of the four 7s
    match = new_match("7C 7D 7H 7S " + span(1, 6, "C"), span(8, 15, "D") + " 1D 2D", span(8, 15, "H") + " 1H 2H")
    events = act(match, "7C 7D 7H 7S")
    assert of_type(events, Played) == [Played(0, Play(cs("7C 7D 7H 7S"), Kind.SET, 7))]


def test_ns3_runs_mix_suits_and_do_not_wrap_from_15_to_1() -> None:
    with pytest.raises(InvalidNotationError, match="not a single, set or run"):
        parse_play("14C 15D 1H", wild=False)
    with pytest.raises(InvalidNotationError, match="not a single, set or run"):
        parse_play("15D 1H", wild=False)
    with pytest.raises(InvalidNotationError, match="not a single, set or run"):
        parse_play("4H 6D", wild=False)  # a gap
    runs = [p for p in generate(int(cs("14C 15D 1H 2S")), None, wild=False, crazy=False) if p.kind is Kind.RUN]
    assert sorted(str(p) for p in runs) == sorted(["1H 2S", "14C 15D"])


# A deal for the follow rules: seat 0 leads the pair of 9s; seat 1 holds plays of every wrong shape.
FOLLOW = (
    "9C 9D 2C 3C 4C 5C 6C 7C 8C 1S",
    "9H 9S 7D 7H 6D 10D 10H 10S 12C 12D",
    "11C 11D 11H 1C 1D 1H 13C 13D 13H 2S",
)


def test_ns3_a_follow_must_be_the_same_kind() -> None:
    match = new_match(*FOLLOW)
    act(match, "9C 9D")
    message = refused(match, "6D 7D", IllegalActionError, "same kind", "NS-3")
    assert match.explain("6D 7D") == message  # the reason given and the refusal never disagree
    refused(match, "12C", IllegalActionError, "same kind", "NS-3")


def test_ns3_a_follow_must_have_as_many_cards() -> None:
    match = new_match(*FOLLOW)
    act(match, "9C 9D")
    refused(match, "10D 10H 10S", IllegalActionError, "as many cards", "NS-3")


def test_ns3_a_follow_needs_a_strictly_higher_top_card() -> None:
    match = new_match(*FOLLOW)
    act(match, "9C 9D")
    refused(match, "9H 9S", IllegalActionError, "higher than 9", "NS-3")  # equal is not enough
    refused(match, "7D 7H", IllegalActionError, "higher than 9", "NS-3")
    events = act(match, "10D 10H")
    assert of_type(events, Played) == [Played(1, Play(cs("10D 10H"), Kind.SET, 10))]


def test_ns3_a_play_out_of_turn_is_refused() -> None:
    match = new_match(*FOLLOW)
    act(match, "9C 9D")
    refused(match, "11C 11D", NotYourTurnError, "seat 1's turn", "seat 2 tried 11C 11D", seat=2)
    refused(match, "pass", NotYourTurnError, seat=0)
    assert match.explain("11C 11D", seat=2) == "it is seat 1's turn, not seat 2's"


def test_ns3_cards_not_held_are_refused() -> None:
    match = new_match(*FOLLOW)
    act(match, "9C 9D")
    refused(match, "11C 11D", IllegalActionError, "you do not hold 11C 11D")
    refused(match, "9C 9D", IllegalActionError, "you do not hold")  # already played


def test_ns3_the_legal_follows_are_exactly_the_higher_plays_of_the_same_shape() -> None:
    match = new_match(*FOLLOW)
    act(match, "9C 9D")
    assert match.legal_notation() == ["pass", "10D 10H", "10D 10S", "10H 10S", "12C 12D"]


# -- NS-4 Tricks -------------------------------------------------------------------------------------------
TRICKS = (
    "2C 3C 4C 5C 1D 2D 3D 4D 5D 6D",
    "7D 15D 8C 9C 10C 11C 12C 13C 14C 1H",
    "6C 7C 2H 3H 4H 5H 6H 7H 8H 9H",
)


def test_ns4_a_play_with_a_15_wins_the_trick_at_once() -> None:
    match = new_match(*TRICKS)
    events = act(match, "2C", "15D")
    assert of_type(events, TrickWon) == [TrickWon(1, cs("2C 15D"), True)]
    assert match.to_act == 1 and match.current is not None and match.current.top is None
    assert match.current.won[1] == int(cs("2C 15D"))


def test_ns4_passing_does_not_drop_a_player_from_the_trick() -> None:
    match = new_match(*TRICKS)
    events = act(match, "2C", "pass", "6C", "pass", "8C")  # seat 1 passes, then plays in the same trick
    assert of_type(events, Played)[-1] == Played(1, Play(cs("8C"), Kind.SINGLE, 8))
    assert of_type(events, TrickWon) == []


def test_ns4_the_trick_goes_to_the_last_player_once_every_other_holder_passed() -> None:
    match = new_match(*TRICKS)
    events = act(match, "2C", "8C", "pass")
    assert of_type(events, TrickWon) == []  # one pass of two is not enough
    events = act(match, "pass")
    assert events == [Passed(0), TrickWon(1, cs("2C 8C"), False)]
    assert match.to_act == 1  # the winner leads any kind
    assert Call.PASS not in match.legal_actions()
    assert {a.kind for a in match.legal_actions() if isinstance(a, Play)} == {Kind.SINGLE, Kind.RUN}


def test_ns4_the_player_who_starts_a_trick_cannot_pass() -> None:
    match = new_match(*TRICKS)
    assert Call.PASS not in match.legal_actions()
    message = refused(match, "pass", IllegalActionError, "must play", "NS-4")
    assert match.explain(Call.PASS) == message


def test_ns4_a_winner_with_no_cards_hands_the_lead_to_the_next_holder() -> None:
    match = new_match(*Q3)
    events = act(match, span(1, 10, "C"), "pass", "pass")
    assert of_type(events, TrickWon) == [TrickWon(0, cs(span(1, 10, "C")), False)]
    assert match.to_act == 1


# -- NS-5 Going out and the end of the round ---------------------------------------------------------------
def test_ns5_going_out_takes_the_highest_bonus_and_wins_the_trick_when_all_others_pass() -> None:
    match = new_match(*Q3)
    events = act(match, span(1, 10, "C"))
    assert events[1] == WentOut(0, 5)
    events = act(match, "pass", "pass")
    assert of_type(events, TrickWon) == [TrickWon(0, cs(span(1, 10, "C")), False)]
    assert match.current is not None and match.current.out_order == [0]


def test_ns5_the_last_player_may_pass_on_the_final_trick_and_takes_the_0_card() -> None:
    match = new_match(*Q3)
    act(match, span(1, 10, "C"), "pass", "pass")
    events = act(match, span(1, 10, "D"))
    assert events[1:] == [WentOut(1, 2), LastTurn(2)]
    assert match.to_act == 2 and match.legal_actions() == (Call.PASS,)
    events = act(match, "pass")
    assert events[:3] == [Passed(2), TrickWon(1, cs(span(1, 10, "D")), False), RoundEnded(2, None)]
    hand = match.hands[-1]
    assert hand.bonus == [5, 2, 0]
    assert hand.scores == (30, 2, 0)


def test_ns5_the_last_player_may_win_the_final_trick_but_scores_nothing_even_with_an_empty_hand() -> None:
    # Seat 2's last turn beats the run with its whole hand, clubs included: it takes the trick and still scores 0.
    match = new_match(span(1, 10, "C"), span(1, 10, "D"), span(2, 10, "H") + " 11C")
    act(match, span(1, 10, "C"), "pass", "pass", span(1, 10, "D"))
    assert match.to_act == 2
    events = act(match, span(2, 10, "H") + " 11C")
    assert of_type(events, WentOut) == []  # the last player takes the 0 card, not a bonus
    assert of_type(events, TrickWon) == [TrickWon(2, cs(span(1, 10, "D") + " " + span(2, 10, "H") + " 11C"), False)]
    assert of_type(events, RoundEnded) == [RoundEnded(2, None)]
    hand = match.hands[-1]
    assert hand.hands[2] == 0 and hand.bonus[2] == 0
    assert club_points(hand.won[2], DEFAULT_CLUB_POINTS) == 1  # it won the 11C ...
    assert hand.scores == (30, 2, 0)  # ... and scores nothing


def test_ns5_with_no_trick_in_progress_the_round_simply_ends() -> None:
    # Seat 1 goes out with a run to 15 over seat 0's run: the 15 takes the trick at once, nothing is left to play.
    match = new_match(span(1, 10, "C"), span(6, 15, "D"), span(1, 10, "H"))
    events = act(match, span(1, 10, "C"), span(6, 15, "D"))
    assert of_type(events, LastTurn) == []
    assert of_type(events, WentOut) == [WentOut(0, 5), WentOut(1, 2)]
    assert of_type(events, TrickWon) == [TrickWon(1, cs(span(1, 10, "C") + " " + span(6, 15, "D")), True)]
    assert of_type(events, RoundEnded) == [RoundEnded(2, None)]
    assert match.hand_scores == [(5, 25 + 2, 0)]


def test_ns5_two_players_first_out_takes_the_5_and_the_other_scores_its_clubs() -> None:
    match = new_match("3C " + span(1, 9, "D"), "15C " + span(1, 9, "H"))
    act(match, span(1, 9, "D"), "pass")  # seat 1's 1H..9H does not beat it: to 9 is not higher than 9
    events = act(match, "3C")
    assert events[1:] == [WentOut(0, 5), LastTurn(1)]
    events = act(match, "15C")
    assert of_type(events, TrickWon) == [TrickWon(1, cs("3C 15C"), True)]
    assert of_type(events, RoundEnded) == [RoundEnded(1, None)]
    hand = match.hands[-1]
    assert hand.bonus == [5, None]  # no 0 card in the game for 2
    assert hand.scores == (5, 3 + 1)


# -- NS-6 Leftover cards -----------------------------------------------------------------------------------
def test_ns6_next_round_deals_the_undealt_cards_before_shuffling_the_discards_in() -> None:
    match = NorthstarMatch(NorthstarOptions(players=2, target=100000), first_dealer=1)
    dealt: list[int] = []
    for seed in range(5):
        match.deal(deal=NorthstarShuffle.from_seed(seed))
        dealt.append(match.hands[-1].deal.cards)
        lowest_round(match)
    assert match.packs == [(60, 0), (40, 20), (20, 40), (0, 60), (40, 20)]
    # Rounds 1-3 use disjoint cards (the whole pack); round 4 starts a new shuffle, round 5 takes its leftovers.
    assert dealt[0] | dealt[1] | dealt[2] == DECK_MASK
    assert dealt[0] & dealt[1] == dealt[1] & dealt[2] == dealt[0] & dealt[2] == 0
    assert dealt[4] & dealt[3] == 0


def test_ns6_with_too_few_undealt_cards_all_of_them_are_dealt_then_discards() -> None:
    match = NorthstarMatch(NorthstarOptions(players=4), first_dealer=3)
    match.deal(deal=NorthstarShuffle.from_seed(1))
    first = match.hands[-1].deal.cards
    lowest_round(match)
    match.deal(deal=NorthstarShuffle.from_seed(2))
    second = match.hands[-1].deal.cards
    undealt = DECK_MASK & ~first
    assert second & undealt == undealt  # all 20 undealt cards, then 20 of the 40 discards
    assert (second & first).bit_count() == 20
    assert match.packs == [(60, 0), (20, 40)]


def test_ns6_an_explicit_deal_of_cards_already_in_play_is_refused() -> None:
    match = new_match(span(1, 10, "C"), span(1, 10, "D"))
    lowest_round(match)
    before = snapshot(match)
    with pytest.raises(InvalidDealError, match="NS-6") as info:
        match.deal(deal=deal_of(span(1, 10, "H"), span(1, 9, "S") + " 1C"))
    assert "1C" in str(info.value)
    assert snapshot(match) == before
    match.deal(deal=deal_of(span(1, 10, "H"), span(1, 10, "S")))  # from the undealt cards: accepted
    assert match.packs == [(60, 0), (40, 20)]


def test_ns6_an_explicit_deal_leaving_out_an_undealt_card_is_refused_when_they_run_short() -> None:
    hands = (span(1, 10, "C"), span(1, 10, "D"), span(1, 10, "H"), span(1, 10, "S"))
    match = new_match(*hands)
    lowest_round(match)
    # Undealt: 11..15 of every suit (20 cards). A deal must hold all of them plus 20 of the discards.
    good = [span(11, 15, s) + " " + span(1, 5, s) for s in SUIT_LETTERS]
    bad = (*good[:3], span(11, 14, "S") + " " + span(1, 6, "S"))
    before = snapshot(match)
    with pytest.raises(InvalidDealError, match="NS-6") as info:
        match.deal(deal=deal_of(*bad))
    assert "15S" in str(info.value)
    assert snapshot(match) == before
    match.deal(deal=deal_of(*good))
    assert match.packs == [(60, 0), (20, 40)]


def test_ns6_reshuffle_deals_from_all_60_cards_every_round() -> None:
    match = new_match(*Q3, leftover=Leftover.RESHUFFLE)
    lowest_round(match)
    match.deal(deal=deal_of(*Q3))  # the same cards again: allowed after a full shuffle
    assert match.packs == [(60, 0), (60, 0)]
    assert resolve("northstar-2013")[1] == NorthstarOptions(leftover=Leftover.RESHUFFLE)


def test_ns1_ns6_a_shuffle_deals_ten_distinct_cards_to_each_player_from_the_pack_it_is_given() -> None:
    shuffle = NorthstarShuffle.from_seed(7)
    assert sorted(shuffle.order) == sorted(NorthstarShuffle.from_seed(8).order)  # every card once
    for players in range(2, 7):
        deal = deal_from_shuffle(shuffle, players, 0, DECK_MASK, 0)
        assert NorthstarDeal(deal.hands) == deal  # what the checked constructor accepts, and equal to it
        assert deal.cards.bit_count() == 10 * players


def test_ns1_ns6_dealing_from_a_pack_that_is_not_one_is_refused() -> None:
    shuffle = NorthstarShuffle.from_seed(7)
    half = VALUE_MASKS[1] | VALUE_MASKS[2]
    with pytest.raises(InvalidDealError, match="NS-6"):
        deal_from_shuffle(shuffle, 3, 0, DECK_MASK, half)  # a card both undealt and discarded
    with pytest.raises(InvalidDealError, match="NS-6"):
        deal_from_shuffle(shuffle, 3, 0, DECK_MASK | 1, 0)  # not a North Star card
    with pytest.raises(InvalidDealError, match="NS-1"):
        deal_from_shuffle(shuffle, 7, 0, DECK_MASK, 0)
    with pytest.raises(InvalidDealError, match="only 8 cards"):
        deal_from_shuffle(shuffle, 2, 0, half, 0)


# -- NS-7 Game end -----------------------------------------------------------------------------------------
def test_ns7_the_game_ends_after_the_round_in_which_a_total_reaches_50() -> None:
    # Each round the leader holds the clubs run and scores 30: 30, 32, 32, then seat 0 reaches 62.
    match = NorthstarMatch(NorthstarOptions(players=3, leftover=Leftover.RESHUFFLE), first_dealer=2)
    results = []
    for round_no in range(4):
        leader = (round_no + 0) % 3
        hands = [""] * 3
        for k in range(3):
            hands[(leader + k) % 3] = Q3[k]
        match.deal(deal=deal_of(*hands))
        events = dump_round(match)
        results.append((tuple(match.totals), of_type(events, MatchEnded)))
    assert results[:3] == [((30, 2, 0), []), ((30, 32, 2), []), ((32, 32, 32), [])]
    assert results[3] == ((62, 34, 32), [MatchEnded((0,), False, (62, 34, 32))])
    assert match.is_over and match.winners == (0,)
    with pytest.raises(GameOverError):
        match.deal(deal=deal_of(*Q3))


def test_ns7_a_tie_at_the_top_plays_another_round() -> None:
    # Clubs 1..10 score nothing and 11C scores 3: seat 0 makes 0 + 8 and seat 1 makes 3 + 5, a tie at 8.
    table = (0,) * 10 + (3, 0, 0, 0, 0)
    hands = [span(1, 10, "C"), span(2, 10, "D") + " 11C", span(1, 10, "H"), span(11, 15, "H") + " " + span(11, 15, "S")]
    match = new_match(*hands, club_points=table, target=8, leftover=Leftover.RESHUFFLE)
    events = dump_round(match)
    assert match.totals == [8, 8, 2, 0]
    assert of_type(events, MatchEnded) == [] and not match.is_over
    match.deal(deal=deal_of(hands[3], hands[0], hands[1], hands[2]))  # seat 1 leads with the first hand
    events = dump_round(match)
    assert match.totals == [8, 16, 10, 2]
    assert of_type(events, MatchEnded) == [MatchEnded((1,), False, (8, 16, 10, 2))]


def test_ns7_the_target_option_replaces_50() -> None:
    assert NorthstarOptions().goal == 50
    assert NorthstarOptions(target=20).goal == 20
    match = new_match(*Q3, target=20)
    events = dump_round(match)
    assert of_type(events, MatchEnded) == [MatchEnded((0,), False, (30, 2, 0))]


# -- NS-8 Double or nothing --------------------------------------------------------------------------------
def test_ns8_double_is_called_before_the_first_card_and_does_not_use_the_turn() -> None:
    match = new_match(*Q3, double_or_nothing=True)
    assert match.legal_actions()[0] is Call.DOUBLE
    assert match.apply("double") == (DoubleCalled(0),)
    assert match.to_act == 0
    assert Call.DOUBLE not in match.legal_actions()
    refused(match, "double", IllegalActionError, "already called", "NS-8")


def test_ns8_double_may_be_called_after_passing_but_not_after_playing() -> None:
    match = new_match(*Q3, double_or_nothing=True)
    act(match, "1C", "pass", "2H", "pass")  # seat 1 passed once and has not played yet
    assert match.to_act == 1 and Call.DOUBLE in match.legal_actions()
    assert act(match, "double") == [DoubleCalled(1)]
    assert match.to_act == 1  # the call did not use the turn
    act(match, "3D", "pass", "pass")  # seat 1 wins the trick and leads
    assert match.to_act == 1
    refused(match, "double", IllegalActionError, "already called", "NS-8")
    match = new_match(*Q3, double_or_nothing=True)
    act(match, "1C", "2D", "pass", "pass")  # seat 1 has played a card and leads the next trick
    assert match.to_act == 1 and Call.DOUBLE not in match.legal_actions()
    refused(match, "double", IllegalActionError, "before you play your first card", "NS-8")


def test_ns8_double_is_refused_without_the_option() -> None:
    match = new_match(*Q3)
    assert Call.DOUBLE not in match.legal_actions()
    refused(match, "double", IllegalActionError, "double_or_nothing", "NS-8")


def test_ns8_a_successful_double_doubles_clubs_and_bonus() -> None:
    match = new_match(*Q3, double_or_nothing=True)
    act(match, "double")
    dump_round(match)
    assert match.hand_scores == [(2 * (25 + 5), 2, 0)]


def test_ns8_a_failed_double_scores_nothing_and_several_may_call() -> None:
    match = new_match(*Q3, double_or_nothing=True)
    act(match, span(1, 10, "C"), "double", "pass", "pass")  # seat 1 calls, then passes on the same turn
    dump_round(match)
    assert match.hand_scores == [(30, 0, 0)]  # seat 1 would have scored 2
    match = new_match(*Q3, double_or_nothing=True)
    act(match, "double", span(1, 10, "C"), "double", "pass", "double", "pass")
    assert match.current is not None and match.current.doubled == [True, True, True]
    dump_round(match)
    assert match.hand_scores == [(60, 0, 0)]  # only the first out doubles; every other caller scores 0


def test_ns8_the_last_player_may_call_double_harmlessly() -> None:
    match = new_match(*Q3, double_or_nothing=True)
    act(match, span(1, 10, "C"), "pass", "pass", span(1, 10, "D"))
    assert match.to_act == 2 and match.legal_actions() == (Call.PASS, Call.DOUBLE)
    act(match, "double", "pass")
    assert match.hand_scores == [(30, 2, 0)]


# -- NS-9 Wild 15s -----------------------------------------------------------------------------------------
WILD = (
    "7C 7D 7H 7S 15C 2C 3C 4C 5C 6C",
    "15D 15H 1D 2D 3D 4D 5D 6D 8D 9D",
    "15S 1H 2H 3H 4H 5H 6H 8H 9H 10H",
)


def test_ns9_a_15_may_stand_for_another_value_only_with_the_option() -> None:
    play = parse_play("7H 15S=7", wild=True)
    assert play == Play(cs("7H 15S"), Kind.SET, 7) and str(play) == "7H 15S=7"
    with pytest.raises(InvalidNotationError, match="wild_fifteens"):
        parse_play("7H 15S=7", wild=False)
    assert Play(cs("7C 15C"), Kind.SET, 7) in generate(int(cs("7C 15C")), None, wild=True, crazy=False)
    assert Play(cs("7C 15C"), Kind.SET, 7) not in generate(int(cs("7C 15C")), None, wild=False, crazy=False)


def test_ns9_sets_may_have_more_than_four_cards() -> None:
    match = new_match(*WILD, wild_fifteens=True)
    five = Play(cs("7C 7D 7H 7S 15C"), Kind.SET, 7)
    assert five in match.legal_actions()
    events = act(match, "7C 7D 7H 7S 15C=7")
    assert of_type(events, Played) == [Played(0, five)]
    assert of_type(events, TrickWon) == []  # the 15 stands for a 7: no win at once


def test_ns9_a_play_may_be_made_of_wild_15s_alone() -> None:
    match = new_match(*WILD, wild_fifteens=True)
    act(match, "2C", "15D=3")  # a single wild 15 standing for 3
    legal = match.legal_actions()
    assert Play(cs("15S"), Kind.SINGLE, 4) in legal and Play(cs("15S"), Kind.SINGLE, 15) in legal
    plays = generate(int(cs("15D 15H 1D")), None, wild=True, crazy=False)
    assert Play(cs("15D 15H"), Kind.SET, 7) in plays
    assert Play(cs("15D 15H"), Kind.RUN, 4) in plays  # 15D=3 15H=4
    assert Play(cs("15D 15H"), Kind.SET, 15) in plays
    assert Play(cs("15D 15H 1D"), Kind.RUN, 3) in plays
    assert parse_play("15D=3 15H=4", wild=True) == Play(cs("15D 15H"), Kind.RUN, 4)


def test_ns9_a_15_played_as_a_15_wins_at_once() -> None:
    match = new_match(*WILD, wild_fifteens=True)
    events = act(match, "2C", "15D")
    assert of_type(events, TrickWon) == [TrickWon(1, cs("2C 15D"), True)]


def test_ns9_a_15_standing_for_another_value_does_not_win_at_once() -> None:
    match = new_match(*WILD, wild_fifteens=True)
    events = act(match, "2C", "15D=9")
    assert of_type(events, TrickWon) == []
    assert match.current is not None and match.current.top == Play(cs("15D"), Kind.SINGLE, 9)
    refused(match, "9H", IllegalActionError, "higher than 9", "NS-3")
    act(match, "10H")


def test_ns9_scoring_is_unchanged() -> None:
    # The 15 of clubs stands for a 10 in seat 0's run and still scores 1, not the 2 of a 10.
    hands = (span(1, 9, "C") + " 15C", span(1, 10, "D"), span(1, 10, "H"))
    match = new_match(*hands, wild_fifteens=True)
    act(match, span(1, 9, "C") + " 15C=10")
    dump_round(match)
    assert match.hand_scores == [(5 * 3 + 4 * 2 + 1 + 5, 2, 0)]


# -- NS-10 Teams -------------------------------------------------------------------------------------------
def test_ns10_team_members_sit_alternately() -> None:
    two = NorthstarOptions(players=4, teams=Teams.TWO_BY_TWO)
    assert [two.team_of(s) for s in range(4)] == [0, 1, 0, 1] and two.n_teams == 2
    three_pairs = NorthstarOptions(players=6, teams=Teams.THREE_BY_TWO)
    assert [three_pairs.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2] and three_pairs.n_teams == 3
    two_threes = NorthstarOptions(players=6, teams=Teams.TWO_BY_THREE)
    assert [two_threes.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1] and two_threes.n_teams == 2


def test_ns10_teams_play_to_100_or_150() -> None:
    assert NorthstarOptions(players=4, teams=Teams.TWO_BY_TWO).goal == 100
    assert NorthstarOptions(players=6, teams=Teams.THREE_BY_TWO).goal == 100
    assert NorthstarOptions(players=6, teams=Teams.TWO_BY_THREE).goal == 150
    assert NorthstarOptions(players=4, teams=Teams.TWO_BY_TWO, target=30).goal == 30


@pytest.mark.parametrize(("players", "teams"), [(3, "2x2"), (5, "2x2"), (4, "3x2"), (4, "2x3"), (5, "2x3")])
def test_ns10_team_shapes_need_their_player_count(players: int, teams: str) -> None:
    with pytest.raises(InvalidOptionsError, match="NS-10"):
        NorthstarOptions(players=players, teams=Teams(teams))


# Four players in two teams (seats 0+2 and 1+3).
TEAM_HANDS = (
    span(1, 10, "C"),
    span(1, 10, "D"),
    "15H " + span(2, 10, "H"),
    span(11, 15, "C") + " " + span(11, 15, "D"),
)


def test_ns10_the_round_ends_at_once_when_only_one_teams_players_hold_cards() -> None:
    match = new_match(*TEAM_HANDS, teams=Teams.TWO_BY_TWO)
    act(match, span(1, 10, "C"), "pass", "pass", "pass", "1D", "15H")  # seat 2 takes the lead with its 15
    events = act(match, span(2, 10, "H"))  # seat 2 goes out: only seats 1 and 3 (team 1) hold cards
    assert of_type(events, WentOut) == [WentOut(2, 5)]
    assert of_type(events, LastTurn) == []
    # The unfinished trick goes to the player who made its last play; the 2 and the 0 are not handed out.
    assert of_type(events, TrickWon) == [TrickWon(2, cs(span(2, 10, "H")), False)]
    assert of_type(events, RoundEnded) == [RoundEnded(None, 1)]
    hand = match.hands[-1]
    assert hand.bonus == [8, None, 5, None]
    assert match.hand_scores == [(25 + 8, 0, 5, 0)]
    assert match.team_totals == (38, 0)


def test_ns10_the_team_left_holding_scores_nothing_bonus_cards_included() -> None:
    # Seat 1 of team 1 goes out second with the 5; when seats 0 and 2 are out too, team 1 still scores 0.
    hands = (span(1, 10, "C"), span(1, 10, "D"), span(1, 10, "H"), span(11, 15, "C") + " " + span(11, 15, "D"))
    match = new_match(*hands, teams=Teams.TWO_BY_TWO)
    events = dump_round(match)
    assert [(e.seat, e.bonus) for e in of_type(events, WentOut)] == [(0, 8), (1, 5), (2, 2)]
    # Only seat 3 is left: the team check comes first, so there is no last turn and no 0 card.
    assert of_type(events, LastTurn) == []
    assert of_type(events, RoundEnded) == [RoundEnded(None, 1)]
    assert match.hands[-1].bonus == [8, 5, 2, None]
    assert match.hand_scores == [(25 + 8, 0, 2, 0)]
    assert of_type(events, HandScored)[0].team_totals == (35, 0)


def test_ns10_six_players_in_three_pairs() -> None:
    runs = [span(1, 10, s) for s in SUIT_LETTERS]
    hands = [*runs, span(11, 15, "C") + " " + span(11, 15, "D"), span(11, 15, "H") + " " + span(11, 15, "S")]
    match = new_match(*hands, teams=Teams.THREE_BY_TWO)
    events = dump_round(match)
    assert [(e.seat, e.bonus) for e in of_type(events, WentOut)] == [(0, 12), (1, 10), (2, 8), (3, 5), (4, 2)]
    assert of_type(events, RoundEnded) == [RoundEnded(None, 2)]
    scores = match.hand_scores[0]
    assert scores[2] == scores[5] == 0  # team 2 (seats 2 and 5) scores nothing, seat 2's 8 included
    assert match.hands[-1].bonus[5] is None and scores[0] == 25 + 12
    assert match.team_totals == (scores[0] + scores[3], scores[1] + scores[4], 0)


# -- NS-11 Crazy CLUBS -------------------------------------------------------------------------------------
CRAZY = (
    "15C 5C 6C 14C 2C 4C 7C 8C 9C 10C",
    "3C 3D 3S 15D 4D 5D 6D 7D 1D 2D",
    "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
)


def test_ns11_a_15_does_not_win_at_once() -> None:
    match = new_match(*CRAZY, crazy=True)
    events = act(match, "15C")
    assert of_type(events, TrickWon) == [] and match.to_act == 1


def test_ns11_a_single_is_beaten_by_a_longer_set() -> None:
    match = new_match(*CRAZY, crazy=True)
    act(match, "15C")
    assert Play(cs("3C 3D"), Kind.SET, 3) in match.legal_actions()
    events = act(match, "3C 3D")
    assert of_type(events, Played)[-1] == Played(1, Play(cs("3C 3D"), Kind.SET, 3))
    refused(match, "10H", IllegalActionError, "NS-11")  # fewer cards never beat


def test_ns11_a_single_cannot_be_beaten_by_a_run() -> None:
    match = new_match(*CRAZY, crazy=True)
    act(match, "2C")
    refused(match, "4D 5D 6D", IllegalActionError, "follow with a single or a set", "NS-11")
    assert all(not isinstance(a, Play) or a.kind is not Kind.RUN for a in match.legal_actions())


def test_ns11_a_run_is_beaten_by_a_longer_run_with_a_lower_top() -> None:
    match = new_match(*CRAZY, crazy=True)
    events = act(match, "14C 15C")
    assert of_type(events, TrickWon) == []
    events = act(match, "1D 2D 3D")
    assert of_type(events, Played)[-1] == Played(1, Play(cs("1D 2D 3D"), Kind.RUN, 3))
    refused(match, "3H", IllegalActionError, "follow with a run", "NS-11")
    assert beats(parse_play("1H 2H 3H", wild=False), parse_play("14C 15D", wild=False), crazy=True)
    assert not beats(parse_play("1H 2H 3H", wild=False), parse_play("14C 15D", wild=False), crazy=False)


def test_ns11_as_many_cards_need_a_higher_top() -> None:
    match = new_match(*CRAZY, crazy=True)
    act(match, "5C 6C")
    refused(match, "4D 5D", IllegalActionError, "higher than 6", "NS-11")
    refused(match, "3C 3D", IllegalActionError, "follow with a run", "NS-11")  # a set never beats a run
    act(match, "6D 7D")


def test_ns11_the_examples_of_the_text() -> None:
    single_15 = parse_play("15C", wild=False)
    assert beats(parse_play("3C 3D", wild=False), single_15, crazy=True)  # "a 15 single can be beaten by 3, 3"
    assert not beats(parse_play("3C 3D", wild=False), single_15, crazy=False)
    assert beats(parse_play("4D 4H 4S", wild=False), parse_play("9C 9D", wild=False), crazy=True)
    assert not beats(parse_play("15D", wild=False), parse_play("9C 9D", wild=False), crazy=True)
    assert not beats(parse_play("4D 5D", wild=False), parse_play("9C", wild=False), crazy=True)
    assert beats(parse_play("10D", wild=False), parse_play("9C", wild=False), crazy=True)


# -- Notation ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{}, {"wild_fifteens": True}, {"crazy": True}, {"wild_fifteens": True, "crazy": True, "double_or_nothing": True}],
)
def test_notation_every_legal_action_reads_back_as_itself(options: dict[str, Any]) -> None:
    match = new_match(*WILD, **options)
    for moves in ([], ["2C"], ["5C 6C"], ["7C 7D"]):
        m = new_match(*WILD, **options)
        act(m, *moves)
        for action in m.legal_actions():
            assert m.parse_action(m.format_action(action)) == action
    assert match.format_action(Call.PASS) == "pass" and match.format_action(Call.DOUBLE) == "double"


def test_notation_accepts_dashes_symbols_and_lower_case() -> None:
    assert parse_play("4H-5C-6D", wild=False) == parse_play("4H 5C 6D", wild=False)
    assert parse_play("7\u2665 7c", wild=False) == parse_play("7C 7H", wild=False)
    assert parse_play("15s=7 7h", wild=True) == Play(cs("7H 15S"), Kind.SET, 7)


def test_notation_bare_values_are_read_against_the_hand_of_the_seat_to_act() -> None:
    match = new_match("7C 7H 4S 5S 6C 1C 2C 3C 8S 9S", span(1, 10, "D"), span(8, 15, "H") + " 1H 2H")
    assert match.parse_action("7 7") == Play(cs("7C 7H"), Kind.SET, 7)
    assert match.parse_action("4-5-6") == Play(cs("4S 5S 6C"), Kind.RUN, 6)
    assert match.parse_action("p") is Call.PASS
    events = act(match, "4 5 6")
    assert of_type(events, Played) == [Played(0, Play(cs("4S 5S 6C"), Kind.RUN, 6))]


def test_notation_an_ambiguous_bare_value_is_refused_with_the_choices() -> None:
    match = new_match("7C 7H 4S 5S 6C 1C 2C 3C 8S 9S", span(1, 10, "D"), span(8, 15, "H") + " 1H 2H")
    message = refused(match, "7", InvalidNotationError, "ambiguous", "7C 7H", "'7'")
    assert "e.g. 7C" in message
    refused(match, "11", InvalidNotationError, "value 11", "you hold none")
    with pytest.raises(InvalidNotationError, match="without a suit"):
        parse_play("7 7", wild=False)


@pytest.mark.parametrize("text", ["7X", "16C", "0H", "hello", "7C 7C", "15S=7 7H", "", "7H=8", "4H 6D"])
def test_notation_malformed_input_is_refused_naming_it(text: str) -> None:
    match = new_match(*WILD)
    before = snapshot(match)
    with pytest.raises(InvalidNotationError) as info:
        match.apply(text)
    message = str(info.value)
    if text:
        assert text.split()[0].upper() in message.upper()
    else:
        assert "empty" in message
    assert snapshot(match) == before
    assert match.explain(text) == message


@pytest.mark.parametrize("cards", [None, [1], "7H", True, -1, 1 << 3])
def test_ns3_a_play_object_that_holds_no_north_star_cards_is_refused_without_change(cards: Any) -> None:
    match = new_match(*FOLLOW)
    before = match.summary()
    bad = Play(cards, Kind.SINGLE, 7)
    reason = match.explain(bad)
    assert reason is not None
    with pytest.raises(IllegalActionError):
        match.apply(bad)
    assert match.summary() == before


def test_ns3_a_play_built_with_the_kind_name_is_kept_in_canonical_form() -> None:
    match = new_match(*FOLLOW)
    seat = match.to_act
    card = next(iter(CardSet(match.current.hands[seat])))
    match.apply(Play(int(card.bit), "single", card.rank))  # type: ignore[arg-type]
    top = match.current.top
    assert top is not None and type(top.kind) is Kind and type(top.cards) is CardSet
