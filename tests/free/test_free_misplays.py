"""Table mode of Free Clubs (option misplays, ruling FC-10): misplays, calls and the four penalty stages."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from clubsuite.cards import STANDARD_WITH_JOKERS as J
from clubsuite.cards import CardSet, card, cards
from clubsuite.engine import resolve
from clubsuite.errors import IllegalActionError, InvalidNotationError, InvalidOptionsError, InvalidRecordError
from clubsuite.games.free import FreeDeal, FreeMatch, FreeOptions
from clubsuite.games.free.deal import PRIMARY_MASK
from clubsuite.games.free.events import CardPlayed, HandRescored, HandScored, MisplayCalled, TrickTaken
from clubsuite.games.free.hand import MisplayCall
from clubsuite.records import record_from_match, replay

# Seat 0 opens with 10S; after "10S pass JH pass QH pass pass" seat 1 wins with QH (the chest: the six spades
# 4S..9S) and sends its 9H to seat 2; the pass "5H AC 2S" then leaves, with seat 2 to lead:
#   seat 0: 2C 3C 2D 3D AD 3H 4H AH 2S AS
#   seat 1: 4C 5C 6C 4D 5D 6D 2H 5H 3S 4S 5S 6S 7S 8S 9S   (the auction winner: seven tricks or -50)
#   seat 2: 7C 8C 9C AC 7D 8D 9D 6H 7H 8H 9H
DEAL = FreeDeal(
    (J.parse_set("10S 10C 10D 10H JC JD"), J.parse_set("JS QH JK1 QC QD QS"), J.parse_set("JH KH KC KD KS JK2")),
    (
        cards("AC 2C 3C AD 2D 3D AH 3H 4H AS"),
        cards("4C 5C 6C 4D 5D 6D 9H 2H 2S 3S"),
        cards("7C 8C 9C 7D 8D 9D 8H 7H 6H 5H"),
    ),
    CardSet(PRIMARY_MASK)
    - (cards("AC 2C 3C AD 2D 3D AH 3H 4H AS") | cards("4C 5C 6C 4D 5D 6D 9H 2H 2S 3S"))
    - cards("7C 8C 9C 7D 8D 9D 8H 7H 6H 5H"),
)
TO_PLAY = "10S pass JH pass QH pass pass 5H AC 2S"


def run(match: FreeMatch, text: str) -> list[Any]:
    """Apply the actions of the seats to act, written in notation, in order; returns all the events."""
    events: list[Any] = []
    for token in text.split():
        events.extend(match.apply(token))
    return events


def table(target: int = 250) -> FreeMatch:
    """A match in table mode at the start of play on DEAL, seat 2 to lead."""
    match = FreeMatch(FreeOptions(misplays=True, target=target))
    match.deal(deal=DEAL)
    run(match, TO_PLAY)
    return match


def finish(match: FreeMatch) -> None:
    """Play the first legal card until the hand is scored."""
    while match.current is not None:
        match.apply(match.legal_actions()[0])


def state(match: FreeMatch) -> Any:
    """Everything a refused action must leave unchanged."""
    hands = [copy.deepcopy({k: v for k, v in vars(h).items() if k not in ("deal", "options")}) for h in match.hands]
    return hands, list(match.totals), list(match.hand_scores), match.is_over, match.winners, match.to_act


def assert_refused(match: FreeMatch, action: str, seat: int | None, *words: str) -> None:
    """The action is refused with a message naming ``words``, and nothing changes."""
    before = state(match)
    assert match.explain(action, seat) is not None
    with pytest.raises(IllegalActionError) as err:
        match.apply(action, seat=seat)
    for w in words:
        assert w in str(err.value)
    assert state(match) == before


def test_fc10_option_is_off_by_default_and_read_from_a_spec() -> None:
    assert FreeOptions().misplays is False
    _, options = resolve("free(misplays=true)")
    assert options == FreeOptions(misplays=True)
    with pytest.raises(InvalidOptionsError, match=r"misplays=.yes.*FC-10"):
        FreeOptions(misplays="yes")  # type: ignore[arg-type]


def test_fc10_option_off_refuses_an_illegal_card_and_any_call_as_before() -> None:
    match = FreeMatch()
    match.deal(deal=DEAL)
    run(match, TO_PLAY + " 7D")
    assert_refused(match, "AH", None, "you must follow suit")
    run(match, "AD 4D")
    assert_refused(match, "call AD", 1, "misplays=true", "FC-10")
    assert "misplays" not in match.view(0).to_dict()


def test_fc10_a_misplay_is_accepted_and_shown_only_to_the_misplayer() -> None:
    match = table()
    run(match, "7D")
    assert match.legal_actions() == cards("AD 2D 3D")  # the lawful cards are still what a bot is offered
    events = match.apply("AH")
    assert events == (CardPlayed(0, card("AH")),)  # exactly what a lawful card announces
    assert match.view(0).misplays == ((0, card("AH"), None),)
    assert match.view(1).misplays == () and match.view(2).misplays == ()
    assert match.view(1).to_dict()["misplays"] == [] and match.view(2).to_dict()["misplays"] == []


def test_fc10_stage1_call_before_the_next_card_returns_the_card_without_penalty() -> None:
    match = table()
    run(match, "7D AH")
    assert match.to_act == 1
    events = match.apply("call AH", seat=1)
    assert events == (MisplayCalled(1, 0, card("AH"), 1),)
    hand = match.current
    assert hand is not None
    assert hand.hand_of(0) == cards("2C 3C 2D 3D AD 3H 4H AH 2S AS")  # the card is back
    assert match.to_act == 0 and hand.trick == [(2, card("7D").index)]
    # the record of the hand keeps the misplayed card and the call, so a replay undoes it the same way
    assert [str(a) for a in hand.action_log()[-3:]] == ["7D", "AH", "call AH by 1"]
    run(match, "AD 4D")
    assert hand.tricks[0][1] == 2
    assert all(v.misplays == ((0, card("AH"), 1),) for v in (match.view(s) for s in range(3)))
    assert hand.misplays[0].called == 1


def test_fc10_stage1_covers_a_misplay_that_completed_a_trick() -> None:
    match = table()
    run(match, "7D AD 4C")  # seat 1 holds diamonds and trumps: the trick is full, nobody has led again
    hand = match.current
    assert hand is not None and hand.tricks_won == [0, 1, 0]
    match.apply("call 4C", seat=2)
    assert hand.tricks == [] and hand.tricks_won == [0, 0, 0] and hand.to_act == 1
    assert card("4C") in hand.hand_of(1)
    run(match, "6D")
    assert hand.tricks[0][1] == 2


def test_fc10_stage2_call_after_another_card_takes_the_trick_from_the_misplayer() -> None:
    match = table()
    run(match, "7D 2C 4D")  # seat 0 trumps instead of following: it would win the trick
    hand = match.current
    assert hand is not None and hand.tricks_won == [1, 0, 0] and match.to_act == 0
    events = match.apply("call 2C", seat=2)
    assert events == (MisplayCalled(2, 0, card("2C"), 2),)
    # the card stays in the trick; the second-best card, 7D, takes it, and its holder leads next
    assert hand.tricks[0] == (((2, card("7D").index), (0, card("2C").index), (1, card("4D").index)), 2)
    assert hand.tricks_won == [0, 0, 1] and match.to_act == 2
    assert card("2C") not in hand.hand_of(0) and card("2C").index not in CardSet(hand.taken[0])
    assert card("2C") in CardSet(hand.taken[2])


def test_fc10_stage3_call_after_the_trick_is_taken_forfeits_positive_points() -> None:
    plain = table()
    called = table()
    for match in (plain, called):
        run(match, "7D AD 4C 5C")  # seat 1, the auction winner, trumps while holding diamonds, then leads again
    events = called.apply("call 4C", seat=0)
    assert events == (MisplayCalled(0, 1, card("4C"), 3),)
    hand = called.current
    assert hand is not None and hand.tricks_won == [0, 1, 0]  # the trick stays where it went
    finish(plain)
    finish(called)
    assert called.hand_scores[0][0] == plain.hand_scores[0][0]
    assert called.hand_scores[0][2] == plain.hand_scores[0][2]
    assert called.hands[0].tricks_won == plain.hands[0].tricks_won
    won = plain.hands[0].tricks_won[1]
    assert won < 7 and plain.hand_scores[0][1] == -35  # FC-4: short of seven; its tricks and bonuses still count
    assert called.hand_scores[0][1] == -50  # no positive points; the missed contract still costs 50


def test_fc10_stage3_call_after_the_hand_but_before_the_next_deal_rescores_it() -> None:
    match = table()
    run(match, "7D 2C 4D")  # seat 0 misplays and keeps the trick
    finish(match)
    assert match.current is None and match.to_act is None
    before = match.hand_scores[0]
    assert before[0] > 0
    events = match.apply("call 2C", seat=1)
    assert events[0] == MisplayCalled(1, 0, card("2C"), 3)
    after = (0, before[1], before[2])  # seat 0 won no auction: no contract, so nothing at all
    assert events[1] == HandRescored(after, after)
    assert match.hand_scores == [after] and tuple(match.totals) == after


def test_fc10_stage4_call_after_the_next_deal_is_refused_whatever_the_card_was() -> None:
    # Once the next hand is dealt a misplay goes unpunished; the refusal does not say whether it was one.
    match = table()
    run(match, "AC 2C 4C 3S 7C 2D")  # 7C was lawful (seat 2 held no spades); 2D a misplay (seat 0 held 2S AS)
    finish(match)
    match.deal(deal=DEAL)
    misplay = match.explain("call 2D", 1)
    lawful = match.explain("call 7C", 1)
    assert misplay is not None and lawful is not None
    assert misplay.replace("2D", "XX") == lawful.replace("7C", "XX")
    assert_refused(match, "call 2D", 1, "not on the table of this hand", "until the next deal", "FC-10")
    run(match, TO_PLAY + " 7D 2C")  # the same card misplayed again in the new hand is a new misplay
    assert match.apply("call 2C", seat=1)[0] == MisplayCalled(1, 0, card("2C"), 1)


def test_fc10_wrong_calls_are_refused_and_change_nothing() -> None:
    match = table()
    run(match, "7D AH")
    assert_refused(match, "call 7D", 1, "7D led trick 1; a lead cannot be a misplay", "FC-10")
    assert_refused(match, "call 9C", 1, "9C is not on the table of this hand", "FC-10")
    assert_refused(match, "call AH", 0, "only another player may call it", "FC-10")
    assert_refused(match, "call AH", None, "calling seat", "FC-10")
    match.apply("call AH", seat=2)
    assert_refused(match, "call AH", 1, "not on the table")  # the card went back: nothing on the table
    run(match, "2D 4D")
    assert_refused(match, "call 4D", 2, "4D followed the led suit (diamonds)", "FC-10")
    run(match, "AC 2C 4C 3S 7C")
    match.apply("call 7C", seat=1)  # lawful: checked in public, and a second call is refused like any other
    assert_refused(match, "call 7C", 0, "7C has already been called and checked", "FC-10")
    assert match.explain("call XY", 1) == "'call XY' is not a call: 'XY' is not a card (expected e.g. call 7H)"
    with pytest.raises(InvalidNotationError, match="'call XY' is not a call"):
        match.apply("call XY", seat=1)


def test_fc10_a_called_misplay_that_ends_the_match_is_judged_again() -> None:
    match = table(target=1)
    run(match, "7D 2C 4D")
    finish(match)
    scores = match.hand_scores[0]
    assert match.is_over
    events = match.apply("call 2C", seat=1)
    totals = (0, scores[1], scores[2])
    assert HandRescored(totals, totals) in events
    top = max(totals)
    leaders = [s for s in range(3) if totals[s] == top]
    assert match.is_over == (len(leaders) == 1 and top >= 1)
    assert not any(isinstance(e, (HandScored, TrickTaken)) for e in events)


def replayed(match: FreeMatch) -> FreeMatch:
    """The match rebuilt from its record; the record's stated result is checked by the replay itself."""
    result = replay(record_from_match(match))
    rebuilt: FreeMatch = result.match
    return rebuilt


def assert_same_scores(a: FreeMatch, b: FreeMatch) -> None:
    """Two matches agree on every hand's score, the totals, the result and each hand's record."""
    assert a.hand_scores == b.hand_scores and a.totals == b.totals
    assert (a.is_over, a.winners) == (b.is_over, b.winners)
    assert [h.action_log() for h in a.hands] == [h.action_log() for h in b.hands]


def test_fc10_call_notation_names_the_caller_and_reads_back() -> None:
    call = FreeMatch.parse_action("call 7H by 2")
    assert call == MisplayCall(card("7H"), 2) and FreeMatch.format_action(call) == "call 7H by 2"
    assert FreeMatch.parse_action("CALL th by 0") == MisplayCall(card("10H"), 0)
    assert FreeMatch.parse_action("call 7H") == MisplayCall(card("7H")) and str(MisplayCall(card("7H"))) == "call 7H"
    with pytest.raises(
        InvalidNotationError, match=r"'call 7H by 5' is not a call: the caller '5' is not a seat.*FC-10"
    ):
        FreeMatch.parse_action("call 7H by 5")
    with pytest.raises(InvalidNotationError, match=r"'call 7H to 1' is not a call.*FC-10"):
        FreeMatch.parse_action("call 7H to 1")


def test_fc10_a_call_naming_its_caller_is_applied_for_that_seat() -> None:
    match = table()
    run(match, "7D AH")
    assert_refused(match, "call AH by 1", 2, "names seat 1 as the caller, not seat 2", "FC-10")
    assert_refused(match, "call AH by 0", None, "only another player may call it", "FC-10")
    assert match.explain("call AH by 1") is None
    assert match.apply(MisplayCall(card("AH"), 1)) == (MisplayCalled(1, 0, card("AH"), 1),)


def test_fc10_record_round_trip_stage1_call_replays_the_returned_card() -> None:
    match = table()
    run(match, "7D AH")
    match.apply("call AH by 1")
    run(match, "AD 4D")
    finish(match)
    record = record_from_match(match)
    actions = record["hands"][0]["actions"]
    assert actions[actions.index("AH") + 1] == "call AH by 1"
    rebuilt = replayed(match)
    assert_same_scores(match, rebuilt)
    assert rebuilt.hands[0].misplays[0].called == 1


def test_fc10_record_round_trip_stage2_call_replays_the_retaken_trick() -> None:
    match = table()
    run(match, "7D 2C 4D")
    match.apply("call 2C", seat=2)
    finish(match)
    plain = table()
    run(plain, "7D 2C 4D")
    finish(plain)
    assert plain.hand_scores != match.hand_scores  # the call changed the hand, so the replay must carry it
    assert "call 2C by 2" in record_from_match(match)["hands"][0]["actions"]
    rebuilt = replayed(match)
    assert_same_scores(match, rebuilt)
    assert rebuilt.hands[0].tricks[0][1] == 2


def test_fc10_record_round_trip_stage3_calls_during_and_after_the_hand() -> None:
    during = table()
    run(during, "7D AD 4C 5C")
    during.apply("call 4C", seat=0)
    finish(during)
    assert during.hand_scores[0][1] == -50
    assert_same_scores(during, replayed(during))

    after = table()
    run(after, "7D 2C 4D")
    finish(after)
    after.apply("call 2C", seat=1)  # after the hand was scored: the last action of that hand's record
    after.deal(deal=DEAL)
    run(after, TO_PLAY + " 7D")
    record = record_from_match(after)
    assert record["hands"][0]["actions"][-1] == "call 2C by 1"
    assert "call 2C by 1" not in record["hands"][1]["actions"]
    rebuilt = replayed(after)
    assert_same_scores(after, rebuilt)
    assert rebuilt.hand_scores[0][0] == 0 and rebuilt.to_act == after.to_act


def test_fc10_record_with_a_call_that_reopens_an_ended_match_replays() -> None:
    match = table(target=1)
    run(match, "7D 2C 4D")
    finish(match)
    match.apply("call 2C", seat=1)
    assert_same_scores(match, replayed(match))


def test_fc10_replay_refuses_a_call_by_a_bad_caller_naming_hand_action_and_seat() -> None:
    match = table()
    run(match, "7D AH")
    match.apply("call AH", seat=1)
    finish(match)
    record = record_from_match(match)
    del record["result"]
    actions = record["hands"][0]["actions"]
    j = actions.index("call AH by 1")
    actions[j] = "call AH by 0"  # the misplayer may not call its own misplay
    with pytest.raises(InvalidRecordError) as err:
        replay(record)
    text = str(err.value)
    assert f"hand 1, action {j + 1} (overall {j + 1}), seat 1" in text
    assert "only another player may call it" in text and "FC-10" in text
    actions[j] = "call AH by 7"
    with pytest.raises(InvalidRecordError, match=rf"hand 1, action {j + 1}, seat 2: .*not a seat.*FC-10"):
        replay(record)


def test_fc10_replay_refuses_a_card_after_the_end_of_the_hand_even_in_table_mode() -> None:
    match = table()
    finish(match)
    record = record_from_match(match)
    del record["result"]
    n = len(record["hands"][0]["actions"])
    record["hands"][0]["actions"].append("7D")
    with pytest.raises(InvalidRecordError, match=rf"hand 1, action {n + 1} .*'7D' comes after the end of the hand"):
        replay(record)
    record["hands"][0]["actions"][-1] = "call 7D by 1"  # a call there is read, and refused by the rules
    with pytest.raises(InvalidRecordError, match=r"call 7D is refused: 7D led trick \d+; a lead cannot be a misplay"):
        replay(record)
