"""Perft for Clubs (whist group): counts of legal action sequences from fixed positions, as in chess perft.

The expected counts in ``data/perft/whist.txt`` were computed once with the reference rules below, which
implement the exchange (CW-3, CW-4), must-beat (CW-1) and clubs-broken (CW-2) rules directly over lists of
cards, without the engine's legality code; the tests check that the engine counts the same. The data file, the
engine's count and the report are the shared harness's (:mod:`conformance.perft`). Run this module as a script to
print the counts of every position again (for a new position, or to check the file).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from clubsuite.cards import Card, cards
from clubsuite.engine import resolve
from clubsuite.games.whist import Decision, LeadAfterExchange, WhistDeal, WhistHand, WhistMatch, WhistOptions
from conformance.perft import (
    DATA,
    Block,
    EngineCounts,
    Reference,
    case_ids,
    case_params,
    cases,
    engine_perft,
    read_blocks,
    report,
)

WHIST_DATA = DATA / "whist.txt"

CLUBS = 0


# -- the reference rules ------------------------------------------------------------------------------------
@dataclass
class RefState:
    """A hand as plain lists: written for clarity, not speed, and sharing no legality code with the engine."""

    hands: list[list[Card]]
    bid: list[Card]
    dealer: int
    left_of_last: bool
    """True when the player after the last exchanger leads (the 1997 text), False for the last exchanger."""
    decided: int = 0
    exchangers: list[int] = field(default_factory=list)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    leader: int = -1
    broken: bool = False
    tricks_played: int = 0

    @property
    def in_exchange(self) -> bool:
        """Whether some player still has to keep or exchange."""
        return self.decided < 3

    @property
    def over(self) -> bool:
        """Whether all thirteen tricks are done."""
        return self.tricks_played == 13

    @property
    def to_act(self) -> int:
        """The seat to act: exchange turns run from the dealer's left round to the dealer, play goes clockwise."""
        if self.in_exchange:
            return (self.dealer + 1 + self.decided) % 3
        return (self.leader + len(self.trick)) % 3

    def copy(self) -> RefState:
        """An independent copy."""
        return RefState(
            [list(h) for h in self.hands],
            list(self.bid),
            self.dealer,
            self.left_of_last,
            self.decided,
            list(self.exchangers),
            list(self.trick),
            self.leader,
            self.broken,
            self.tricks_played,
        )


def ref_legal(state: RefState) -> Sequence[Card | Decision]:
    """The legal actions, straight from the rule texts and rulings CW-1 and CW-2."""
    if state.over:
        return []
    if state.in_exchange:
        return [Decision.KEEP, Decision.EXCHANGE]
    hand = state.hands[state.to_act]
    if not state.trick:
        non_clubs = [c for c in hand if c.suit != CLUBS]
        if state.broken or not non_clubs:
            return list(hand)
        return list(non_clubs)
    played = [c for _, c in state.trick]
    led = played[0].suit
    clubs_in_trick = [c.rank for c in played if c.suit == CLUBS]
    my_clubs = [c for c in hand if c.suit == CLUBS]
    if led == CLUBS:
        higher = [c for c in my_clubs if c.rank > max(clubs_in_trick)]
        return higher or my_clubs or list(hand)
    same_suit = [c for c in hand if c.suit == led]
    if same_suit:
        if clubs_in_trick:
            return same_suit
        best = max(c.rank for c in played if c.suit == led)
        return [c for c in same_suit if c.rank > best] or same_suit
    if not clubs_in_trick:
        return my_clubs or list(hand)
    return [c for c in my_clubs if c.rank > max(clubs_in_trick)] or list(hand)


def ref_apply(state: RefState, action: Card | Decision) -> RefState:
    """The state after a legal action (a new object)."""
    s = state.copy()
    seat = s.to_act
    if s.in_exchange:
        if action == Decision.EXCHANGE:
            s.hands[seat], s.bid = s.bid, s.hands[seat]
            s.exchangers.append(seat)
        s.decided += 1
        if s.decided == 3:
            if not s.exchangers:
                s.leader = (s.dealer + 1) % 3
            elif s.left_of_last:
                s.leader = (s.exchangers[-1] + 1) % 3
            else:
                s.leader = s.exchangers[-1]
        return s
    assert isinstance(action, Card)
    s.hands[seat] = [c for c in s.hands[seat] if c != action]
    if action.suit == CLUBS and (not s.trick or s.trick[0][1].suit != CLUBS):
        s.broken = True
    s.trick.append((seat, action))
    if len(s.trick) == 3:
        led = s.trick[0][1].suit
        clubs = [(c.rank, who) for who, c in s.trick if c.suit == CLUBS]
        if clubs:
            s.leader = max(clubs)[1]
        else:
            s.leader = max((c.rank, who) for who, c in s.trick if c.suit == led)[1]
        s.trick = []
        s.tricks_played += 1
    return s


REFERENCE = Reference(ref_legal, ref_apply)
"""The reference counter: these rules, counted by the shared harness."""


# -- the data file ------------------------------------------------------------------------------------------
@dataclass
class Position:
    """One block of the data file."""

    name: str
    spec: str
    dealer: int
    deal: WhistDeal
    actions: list[str]
    counts: list[tuple[int, int]]
    """(depth, expected count) pairs."""

    @classmethod
    def of(cls, block: Block) -> Position:
        """The position a block describes (see the data file's header for its fields)."""
        hands = (cards(block["seat0"]), cards(block["seat1"]), cards(block["seat2"]))
        deal = WhistDeal(hands, cards(block["bid"]))
        return cls(block.name, block["spec"], int(block["dealer"]), deal, block.get("actions").split(), block.counts)

    def options(self) -> WhistOptions:
        """The rules options of the spec."""
        _, options = resolve(self.spec)
        assert isinstance(options, WhistOptions)
        return options

    def engine_state(self) -> WhistHand:
        """The engine's hand after the recorded actions."""
        hand = WhistHand(self.deal, self.dealer, self.options())
        for text in self.actions:
            hand.apply(WhistMatch.parse_action(text))
        return hand

    def reference_state(self) -> RefState:
        """The reference model's hand after the recorded actions (each checked legal by the reference rules)."""
        left = self.options().lead_after_exchange is LeadAfterExchange.LEFT_OF_LAST_EXCHANGER
        state = RefState([list(h) for h in self.deal.hands], list(self.deal.bid), self.dealer, left)
        for text in self.actions:
            action = WhistMatch.parse_action(text)
            assert action in ref_legal(state), f"{self.name}: {text} is not legal by the reference rules"
            state = ref_apply(state, action)
        return state


def read_positions(path: Path = WHIST_DATA) -> list[Position]:
    """The positions of a data file (see its header for the format)."""
    return [Position.of(block) for block in read_blocks(path)]


POSITIONS = read_positions()
CASES = cases(POSITIONS)
LONG = {f"last-five-tricks-d{depth}" for depth in range(11, 16)}
"""The deepest counts, a second or more each in pure Python: run by ``make test``, not ``make check``."""
ENGINE = EngineCounts(CASES, LONG)
"""The engine's counts of the cases, each position walked once for all its depths."""


def test_perft_file_has_positions_from_the_exchange_the_first_lead_and_the_end_of_the_hand() -> None:
    assert len(POSITIONS) >= 6
    names = {p.name for p in POSITIONS}
    assert len(names) == len(POSITIONS), "position names must be unique"
    phases = {p.engine_state().phase.value for p in POSITIONS}
    assert phases == {"exchange", "play"}
    # Some positions run to the end of the hand: their deepest count reaches the last card.
    ends = [p for p in POSITIONS if 3 * 13 + 3 - len(p.actions) == max(d for d, _ in p.counts)]
    assert len(ends) >= 3


@pytest.mark.parametrize(("position", "depth", "expected"), case_params(CASES, LONG))
def test_engine_perft_matches_the_reference_counts(position: Position, depth: int, expected: int) -> None:
    """The engine's count at ``depth``, from the one walk of the position that counts every depth of its group
    (:class:`conformance.perft.EngineCounts`)."""
    assert ENGINE.count(position, depth) == expected


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_engine_and_reference_agree_on_the_position_itself(position: Position) -> None:
    hand = position.engine_state()
    ref = position.reference_state()
    assert hand.to_act == ref.to_act
    assert list(hand.legal_actions()) == sorted(ref_legal(ref), key=_order)
    assert [list(h) for h in map(cards_of, hand.hands)] == [sorted(h) for h in ref.hands]
    assert hand.clubs_broken == ref.broken


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in index order."""
    from clubsuite.cards import CardSet

    return list(CardSet(mask))


def _order(action: Card | Decision) -> tuple[int, int]:
    """The engine's order of legal actions: keep before exchange, cards by index."""
    if isinstance(action, Decision):
        return (0, 0 if action is Decision.KEEP else 1)
    return (1, action.index)


SMALL = cases(POSITIONS, most=3000)


@pytest.mark.parametrize(("position", "depth", "expected"), SMALL, ids=case_ids(SMALL))
def test_reference_counter_reproduces_the_small_counts(position: Position, depth: int, expected: int) -> None:
    assert REFERENCE.perft(position.reference_state(), depth) == expected


def test_counting_past_the_end_of_the_hand_finds_no_sequence() -> None:
    final = next(p for p in POSITIONS if 3 * 13 + 3 - len(p.actions) == max(d for d, _ in p.counts))
    remaining = 3 * 13 + 3 - len(final.actions)
    assert engine_perft(final.engine_state(), remaining + 1) == 0
    assert REFERENCE.perft(final.reference_state(), remaining + 1) == 0


def main() -> None:
    """Print the reference counts of every position, and whether the engine agrees."""
    for line in report(read_positions(Path(sys.argv[1]) if len(sys.argv) > 1 else WHIST_DATA), REFERENCE):
        print(line)


if __name__ == "__main__":
    main()
