"""``FreeMatch.play_out``: the search bots' play-outs play the card play's cards without building events; the match
must end exactly where ``apply`` would have left it, and refuse what ``apply`` refuses."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.cards import card
from clubsuite.engine import find_game
from clubsuite.errors import GameOverError, IllegalActionError
from clubsuite.games.free import FreeMatch, FreeOptions, Stage
from clubsuite.runner import deal_next


def _into_play(seed: int, extra: int, options: FreeOptions | None = None) -> FreeMatch:
    """A match of ``seed`` played by random choices into its card play, and ``extra`` cards further (fewer if the
    hand ends first)."""
    match = FreeMatch(options)
    deal_next(match, find_game("free")[0], seed)
    rng = random.Random(seed)
    while (hand := match.current) is not None and hand.stage is not Stage.PLAY:
        match.apply(rng.choice(list(match.legal_actions())))
    for _ in range(extra):
        if match.current is None:
            break
        match.apply(rng.choice(list(match.legal_actions())))
    return match


def _state(match: FreeMatch) -> tuple[Any, ...]:
    """Everything a play-out's result is read from, and every seat's view of it."""
    hand = match.hands[-1]
    return (
        tuple(match.totals),
        tuple(match.hand_scores),
        match.is_over,
        tuple(match.winners) if match.is_over else None,
        match.to_act,
        hand.stage,
        tuple(hand.hands),
        tuple(hand.trick),
        tuple(hand.tricks),
        tuple(hand.tricks_won),
        tuple(hand.taken),
        hand.leader,
        hand.scores,
        tuple(hand.action_log()),
        tuple(repr(match.view(seat).to_dict()) for seat in range(3)),
    )


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), extra=st.integers(0, 29), target=st.sampled_from([1, 60, 250]))
def test_fc1_fc7_fc8_fc9_a_play_out_ends_where_apply_would(seed: int, extra: int, target: int) -> None:
    """The rest of the hand played card by card through ``apply`` and all at once through ``play_out``: the same
    tricks, scores (FC-8), totals and end of the match (FC-9), and the same views for every seat."""
    start = _into_play(seed, extra, FreeOptions(target=target))
    if start.current is None:
        return
    by_apply, by_play_out = start.clone(), start.clone()
    rng = random.Random(seed)
    cards = []
    while by_apply.current is not None:
        cards.append(rng.choice(list(by_apply.legal_actions())))
        by_apply.apply(cards[-1])
    by_play_out.play_out(cards)
    assert _state(by_play_out) == _state(by_apply)


def test_a_play_out_refuses_a_card_the_rules_refuse_by_its_reason_after_the_cards_before_it() -> None:
    """The cards before the refused one are played; the refusal is apply's (the card not held)."""
    match = _into_play(7, 0)
    hand = match.current
    assert hand is not None and hand.to_act is not None
    lawful = match.legal_actions()[0]
    before = match.clone()
    before.apply(lawful)
    stranger = card("KS")  # an auction card: nobody holds it in the card play
    with pytest.raises(IllegalActionError, match="KS"):
        match.play_out([lawful, stranger])
    assert _state(match) == _state(before)


def test_a_play_out_outside_the_card_play_or_after_the_match_is_refused() -> None:
    """A play-out plays the card play only: a bid is apply's, and nothing follows the match's end (FC-9)."""
    match = FreeMatch()
    deal_next(match, find_game("free")[0], 3)
    with pytest.raises(ValueError, match="not a lawful card of the card play"):
        match.play_out([card("10S")])  # the auction's opening bid: apply's, not a play-out's
    over = FreeMatch(FreeOptions(target=1))
    deal_next(over, find_game("free")[0], 3)
    rng = random.Random(3)
    while over.current is not None:
        over.apply(rng.choice(list(over.legal_actions())))
    assert over.is_over
    with pytest.raises(GameOverError, match="the match is over"):
        over.play_out([card("2C")])
