"""Tests of the heuristic Free Clubs bot: always legal, sensible bids and plays, no hidden reads, real strength."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.bots import make_bot
from clubsuite.cards import STANDARD_WITH_JOKERS, CardSet, card, cards
from clubsuite.games.free import Call, FreeDeal, FreeMatch, Stage
from clubsuite.games.free.bot import FreeHeuristicBot
from clubsuite.games.free.deal import PRIMARY_MASK
from clubsuite.runner import play_match
from clubsuite.sim import simulate

J = STANDARD_WITH_JOKERS


def deal_of(a0: str, a1: str, a2: str, p0: str, p1: str, p2: str) -> FreeDeal:
    """A deal from each seat's auction and primary cards; the chest is the six primary cards nobody was given."""
    primary = (cards(p0), cards(p1), cards(p2))
    chest = CardSet(PRIMARY_MASK) - (primary[0] | primary[1] | primary[2])
    return FreeDeal((J.parse_set(a0), J.parse_set(a1), J.parse_set(a2)), primary, chest)


def bot_choice(match: FreeMatch, seed: int = 1) -> Any:
    """What the heuristic bot chooses for the seat to act."""
    seat = match.to_act
    assert seat is not None
    return FreeHeuristicBot().choose(match.view(seat), match.legal_actions(), random.Random(seed))


class CheckedBot:
    """Wraps the heuristic bot and asserts that every action it returns is legal."""

    name = "heuristic"

    def __init__(self) -> None:
        self.inner = FreeHeuristicBot()
        self.decisions = 0

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        """The inner bot's choice, checked against ``legal``."""
        action = self.inner.choose(view, legal, rng)
        assert action in legal, f"{action} is not legal at stage {view.stage}: {list(legal)}"
        self.decisions += 1
        return action


def test_heuristic_is_registered_for_free_clubs() -> None:
    assert isinstance(make_bot("heuristic", "free"), FreeHeuristicBot)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_heuristic_bot_only_makes_legal_moves_in_whole_matches(seed: int) -> None:
    bots = [CheckedBot() for _ in range(3)]
    match = play_match(FreeMatch(first_dealer=seed % 3), bots, seed)
    assert match.is_over
    assert all(b.decisions > 0 for b in bots)


# Seat 0 holds 10S and opens (FC-3); seat 1 then chooses between passing and bidding a Ten or a Jack.
AUCTION_CARDS = ("10S KS KH JK1 QS QH", "10C 10D 10H JS JD JH", "JC QC QD KC KD JK2")


def test_fc3_passes_with_a_hopeless_hand() -> None:
    deal = deal_of(
        *AUCTION_CARDS,
        "9C 8C 7C 6C 9D 8D 7D 9H 8H 7H",
        "AC AD 2D 3D AH 2H 3H AS 2S 3S",
        "2C 3C 4C 5C 4D 5D 6D 4S 5S 6S",
    )
    match = FreeMatch()
    match.deal(deal=deal)
    match.apply("10S")
    assert bot_choice(match) is Call.PASS


def test_fc3_bids_with_a_strong_hand_keeping_the_cheapest_handicap() -> None:
    deal = deal_of(
        *AUCTION_CARDS,
        "AC AD 2D 3D AH 2H 3H AS 2S 3S",
        "9C 8C 7C 6C 5C 9D 8D 9H 8H 9S",
        "2C 3C 4C 4D 5D 6D 4H 5H 6H 4S",
    )
    match = FreeMatch()
    match.deal(deal=deal)
    match.apply("10S")
    choice = bot_choice(match)
    # A Ten throws a low card of its suit; a Jack would throw the nine: the bot bids a Ten.
    assert choice in (card("10C"), card("10D"), card("10H"))


def winner_position() -> FreeMatch:
    """Seat 0 wins the auction with 10S and discards 2S; everyone passes a club; seat 1 leads 4H, seat 2 plays 6H."""
    deal = deal_of(
        *AUCTION_CARDS,
        "7H 8H 9H AH 9C 8C 7C 6C 5C 2S",
        "4H 5H 3C 4C AD 2D 3D AS 3S 4S",
        "6H 2H 2C AC 4D 5D 6D 5S 6S 7S",
    )  # the chest: 3H 7D 8D 9D 8S 9S
    match = FreeMatch()
    match.deal(deal=deal)
    for action in ("10S", "pass", "pass", "2S", "3C", "2C", "5C", "4H", "6H"):
        match.apply(action)
    return match


def test_auction_winner_as_last_player_wins_with_its_cheapest_winning_card() -> None:
    match = winner_position()
    assert match.to_act == 0
    assert {card("7H"), card("8H"), card("9H")} <= set(match.legal_actions())
    assert bot_choice(match) == card("7H")


def test_fc5_ten_discard_throws_the_lowest_card_of_its_suit() -> None:
    deal = deal_of(
        *AUCTION_CARDS,
        "7H 8H 9H AH 9C 8C 7C 6C 9S 2S",
        "4H 5H 3C 4C AD 2D 3D AS 3S 4S",
        "6H 2H 2C AC 4D 5D 6D 5S 6S 7S",
    )
    match = FreeMatch()
    match.deal(deal=deal)
    for action in ("10S", "pass", "pass"):
        match.apply(action)
    assert match.current is not None and match.current.stage is Stage.HANDICAP
    # The chest holds 8S, so the spades are 2S 8S 9S: the two is the card to lose.
    assert card("8S") in match.legal_actions()
    assert bot_choice(match) == card("2S")


def test_fc2_pass_to_the_right_keeps_the_ace_of_hearts_and_the_trumps() -> None:
    match = winner_position()
    fresh = FreeMatch()
    assert match.current is not None
    fresh.deal(deal=match.current.deal)
    for action in ("10S", "pass", "pass"):
        fresh.apply(action)
    fresh.apply(bot_choice(fresh))
    assert fresh.current is not None and fresh.current.stage is Stage.PASS
    choice = bot_choice(fresh)  # seat 1: AD 2D 3D AS 3S 4S 3C 4C 4H 5H
    assert choice in cards("AS 3S 4S 4H")


def swap_hidden(match: FreeMatch, seat: int, rng: random.Random) -> FreeMatch:
    """A copy of ``match`` in which the two other seats swapped cards ``seat`` cannot see (same sizes, same view)."""
    other = copy.deepcopy(match)
    hand = other.current
    assert hand is not None
    a, b = (s for s in range(3) if s != seat)
    known = 0
    for giver, _, c in hand.passed:
        if giver == seat:
            known |= 1 << c
    pool_a = [i for i in range(54) if hand.hands[a] >> i & 1 and not known >> i & 1]
    pool_b = [i for i in range(54) if hand.hands[b] >> i & 1 and not known >> i & 1]
    n = min(len(pool_a), len(pool_b), 3)
    for i, j in zip(rng.sample(pool_a, n), rng.sample(pool_b, n), strict=True):
        hand.hands[a] ^= 1 << i | 1 << j
        hand.hands[b] ^= 1 << i | 1 << j
    return other


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 40))
def test_choice_depends_only_on_the_view(seed: int, stop: int) -> None:
    """Swapping cards the seat cannot see between the other two hands never changes its choice."""
    rng = random.Random(seed)
    match = FreeMatch()
    match.deal(deal=FreeDeal.from_seed(seed))
    bot = FreeHeuristicBot()
    for _ in range(stop):
        seat = match.to_act
        if seat is None:
            break
        match.apply(bot.choose(match.view(seat), match.legal_actions(), rng))
    seat = match.to_act
    if seat is None:
        return
    other = swap_hidden(match, seat, rng)
    assert other.view(seat).to_dict() == match.view(seat).to_dict()
    assert bot_choice(other, seed) == bot_choice(match, seed)


def test_heuristic_wins_clearly_more_than_its_share_against_random_bots() -> None:
    # Measured with this seed: 119 wins of 120; a random bot in the same seat wins 42 (its third, 95% CI 0.27-0.44).
    result = simulate("free", ["heuristic", "random", "random"], matches=120, seed=2024)
    assert result.entries[0].win_rate >= 0.6
    control = simulate("free", ["random", "random", "random"], matches=120, seed=2024)
    assert control.entries[0].win_rate < 0.6
