"""The public API of the whist engine refuses bad input cleanly: options, deals, seats, notation, views."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from clubsuite.cards import STANDARD, card, cards
from clubsuite.errors import ClubsError, IllegalActionError, InvalidDealError, InvalidOptionsError
from clubsuite.games.whist import Decision, LeadAfterExchange, PlayStarted, WhistDeal, WhistHand, WhistMatch
from clubsuite.games.whist import WhistOptions as Options
from clubsuite.games.whist.match import CORE as _CORE
from clubsuite.games.whist.match import CompiledWhistMatch as _Compiled
from clubsuite.options import build_options, option, spec_of
from compiled_match_helpers import on_each_match_class
from whist_helpers import deal_of

_each_match_class = on_each_match_class(globals(), "WhistMatch", _Compiled, _CORE)
"""Every test here runs on the engine's match and on the compiled one."""

DEAL = deal_of(
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
)


def test_cw3_option_given_as_text_behaves_as_the_named_rule() -> None:
    """CW-3: an option written as its text is the same rule as the enum member, not a silent other rule."""
    for text, member in (("last_exchanger", 0), ("left_of_last_exchanger", 1)):
        options = Options(lead_after_exchange=text)  # type: ignore[arg-type]
        assert options.lead_after_exchange is list(LeadAfterExchange)[member]
        match = WhistMatch(options, first_dealer=0)
        match.deal(deal=DEAL)
        events = [*match.apply(Decision.EXCHANGE), *match.apply(Decision.KEEP), *match.apply(Decision.KEEP)]
        assert PlayStarted(1 + member) in events  # seat 1 exchanged; 1997: its left-hand neighbour leads


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"lead_after_exchange": "bogus"}, "CW-3"),
        ({"target": True}, "CW-5"),
        ({"target": 2.0}, "CW-5"),
        ({"target": 0}, "CW-5"),
    ],
)
def test_bad_option_values_are_refused_with_the_ruling(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(InvalidOptionsError, match=needle):
        Options(**kwargs)  # type: ignore[arg-type]


def test_table_options_are_written_with_slashes_in_a_spec() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Table:
        points: tuple[int, ...] = option((3, 2, 1), "points by value")

    parsed = build_options(Table, {"points": "5/4/3/2"})
    assert parsed.points == (5, 4, 3, 2)
    assert spec_of("demo", parsed) == "demo(points=5/4/3/2)"
    with pytest.raises(InvalidOptionsError, match=r"points\[1\]"):
        build_options(Table, {"points": "5/x"})


def test_deal_needs_three_hands_and_a_seat_for_the_dealer() -> None:
    with pytest.raises(InvalidDealError, match="three hands"):
        WhistDeal((DEAL.hands[0], DEAL.hands[1]), DEAL.bid)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionsError, match="dealer"):
        WhistHand(DEAL, dealer=5)
    with pytest.raises(InvalidOptionsError, match="first dealer"):
        WhistMatch(first_dealer=1.0)  # type: ignore[arg-type]


def test_a_view_cannot_be_turned_to_another_seat() -> None:
    """Hidden information: a view is bound to its seat for good."""
    match = WhistMatch()
    match.deal(deal=DEAL)
    view = match.view(0)
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]
    assert view.hand == DEAL.hands[0]


def test_actions_may_be_given_in_notation_and_agree_with_legality() -> None:
    match = WhistMatch(first_dealer=2)
    match.deal(deal=DEAL)
    assert "keep" in match.legal_actions()
    match.apply("keep")
    match.apply("k")
    match.apply("keep")
    assert match.to_act == 0
    match.apply("2c")  # seat 0 holds only clubs, so a club lead is allowed (CW-2)
    assert match.hands[-1].trick_indices == (card("2C").index,)
    with pytest.raises(ClubsError, match="'zz' is not a whist action"):
        match.apply("zz")


def test_explain_for_another_seat_says_only_whose_turn_it_is() -> None:
    """A reason may name the cards of the seat to act, so another seat is only told it is not its turn."""
    match = WhistMatch(first_dealer=2)
    match.deal(deal=DEAL)
    for _ in range(3):
        match.apply(Decision.KEEP)
    reason = match.explain(card("AD"), seat=1)
    assert reason == "it is seat 0's turn, not seat 1's"
    assert match.explain("2C", seat=0) is None


def test_every_refusal_cites_a_rule() -> None:
    """An illegal action is refused with the rule it breaks: a ruling id or the basic rule in words."""
    rng = random.Random(7)
    for _ in range(30):
        match = WhistMatch()
        match.deal(rng=rng)
        while match.to_act is not None:
            legal = match.legal_actions()
            for candidate in [*STANDARD.cards[:: rng.randrange(5, 11)], Decision.KEEP]:
                if candidate in legal:
                    continue
                with pytest.raises(IllegalActionError) as info:
                    match.apply(candidate)
                message = str(info.value)
                assert "(CW-" in message or "(rule:" in message, message
            match.apply(legal[rng.randrange(len(legal))])


def test_card_with_emoji_presentation_selector_is_read() -> None:
    assert card("10♥\ufe0f") == card("10H")
    assert cards("A♠\ufe0f K♣") == cards("AS KC")
