"""Perft for Clubs (partnership): counts of legal action sequences from fixed positions, as in chess perft.

The expected counts in ``data/perft/partnership.txt`` were computed with the reference counter below, which
implements the pass (CP-2: three cards, all four choose before anything moves, left / right / none), the lead
(CP-1: any card, the dealer's left first), following suit (the text's rule) and the trick winner (CP-1) directly
over lists of cards, without the engine's code; the tests check that the engine counts the same, and the
reference recounts every count up to :data:`REFERENCE_LIMIT`. Run this module as a script to print the counts of
every position again (for a new position, or to check the file). The data file, the engine's count (over
``clone()``) and the report are the shared harness's (:mod:`conformance.perft`).
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from clubsuite.cards import Card, CardSet, cards
from clubsuite.games.partnership import Direction, PartnershipDeal, PartnershipHand, PartnershipMatch, Pass
from conformance.perft import DATA, Block, Reference, case_ids, case_params, cases, engine_perft, read_blocks, report

PARTNERSHIP_DATA = DATA / "partnership.txt"
REFERENCE_LIMIT = 100_000
"""The largest count the slow reference counter recomputes in the test run."""

CLUBS = 0


# -- the reference rules ------------------------------------------------------------------------------------
@dataclass
class RefState:
    """A hand as plain lists: written for clarity, not speed, and sharing no rules code with the engine."""

    hands: list[list[Card]]
    dealer: int
    direction: str
    """``left``, ``right`` or ``none`` (CP-2)."""
    chosen: dict[int, frozenset[Card]] = field(default_factory=dict)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    leader: int = -1
    tricks_played: int = 0

    def __post_init__(self) -> None:
        if self.leader < 0 and not self.in_pass:
            self.leader = (self.dealer + 1) % 4

    @property
    def in_pass(self) -> bool:
        """Whether some player still has to choose the cards to pass."""
        return self.direction != "none" and len(self.chosen) < 4 and self.tricks_played == 0 and not self.trick

    @property
    def over(self) -> bool:
        """Whether all thirteen tricks are done."""
        return self.tricks_played == 13

    @property
    def to_act(self) -> int:
        """The seat to act: choices run from the dealer's left round to the dealer, play goes clockwise."""
        if self.in_pass:
            return (self.dealer + 1 + len(self.chosen)) % 4
        return (self.leader + len(self.trick)) % 4

    def copy(self) -> RefState:
        """An independent copy."""
        return RefState(
            [list(h) for h in self.hands],
            self.dealer,
            self.direction,
            dict(self.chosen),
            list(self.trick),
            self.leader,
            self.tricks_played,
        )


RefAction = Card | frozenset[Card]


def ref_legal(state: RefState) -> list[RefAction]:
    """The legal actions, straight from the rule text and rulings CP-1 and CP-2."""
    if state.over:
        return []
    hand = state.hands[state.to_act]
    if state.in_pass:
        return [frozenset(combo) for combo in itertools.combinations(hand, 3)]
    if not state.trick:
        return list(hand)  # CP-1: any card may be led
    led = state.trick[0][1].suit
    same = [c for c in hand if c.suit == led]
    return same or list(hand)  # follow suit if able, else anything


def ref_apply(state: RefState, action: RefAction) -> RefState:
    """The state after a legal action (a new object)."""
    s = state.copy()
    seat = s.to_act
    if isinstance(action, frozenset):
        s.chosen[seat] = action
        if len(s.chosen) == 4:  # CP-2: the cards move only now, all at once
            step = 1 if s.direction == "left" else -1
            kept = [[c for c in s.hands[p] if c not in s.chosen[p]] for p in range(4)]
            for p in range(4):
                kept[(p + step) % 4].extend(s.chosen[p])
            s.hands = kept
            s.leader = (s.dealer + 1) % 4
        return s
    s.hands[seat] = [c for c in s.hands[seat] if c != action]
    s.trick.append((seat, action))
    if len(s.trick) == 4:
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
def read_action(token: str) -> Card | Pass:
    """An action of the data file: a card such as ``10H``, or a pass written ``pass:2C,7H,QS`` (no spaces)."""
    if token.startswith("pass:"):
        token = "pass " + token[5:].replace(",", " ")
    return PartnershipMatch.parse_action(token)


@dataclass
class Position:
    """One block of the data file."""

    name: str
    direction: str
    dealer: int
    deal: PartnershipDeal
    actions: list[str]
    counts: list[tuple[int, int]]
    """(depth, expected count) pairs."""

    @classmethod
    def of(cls, block: Block) -> Position:
        """The position a block describes (see the data file's header for its fields)."""
        hands = tuple(cards(block[f"seat{s}"]) for s in range(4))
        deal = PartnershipDeal(hands)  # type: ignore[arg-type]
        return cls(block.name, block["pass"], int(block["dealer"]), deal, block.get("actions").split(), block.counts)

    def engine_state(self) -> PartnershipHand:
        """The engine's hand after the recorded actions."""
        hand = PartnershipHand(self.deal, self.dealer, Direction(self.direction))
        for text in self.actions:
            hand.apply(read_action(text))
        return hand

    def reference_state(self) -> RefState:
        """The reference model's hand after the recorded actions (each checked legal by the reference rules)."""
        state = RefState([list(h) for h in self.deal.hands], self.dealer, self.direction)
        for text in self.actions:
            action = read_action(text)
            ref = frozenset(action.cards) if isinstance(action, Pass) else action
            assert ref in ref_legal(state), f"{self.name}: {text} is not legal by the reference rules"
            state = ref_apply(state, ref)
        return state

    @property
    def remaining(self) -> int:
        """How many actions the hand has left from this position."""
        total = 52 + (0 if self.direction == "none" else 4)
        return total - len(self.actions)


def read_positions(path: Path = PARTNERSHIP_DATA) -> list[Position]:
    """The positions of a data file (see its header for the format)."""
    return [Position.of(block) for block in read_blocks(path)]


POSITIONS = read_positions()
CASES = cases(POSITIONS)
LONG = {"pass-left-start-d3"}
"""The deepest counts, a second or more each in pure Python: run by ``make test``, not ``make check``."""


def test_perft_file_covers_the_pass_the_first_lead_and_the_end_of_the_hand() -> None:
    assert len(POSITIONS) >= 8
    assert len({p.name for p in POSITIONS}) == len(POSITIONS), "position names must be unique"
    assert {p.engine_state().phase.value for p in POSITIONS} == {"pass", "play"}
    assert {p.direction for p in POSITIONS} == {"left", "right", "none"}
    ends = [p for p in POSITIONS if p.remaining == max(d for d, _ in p.counts)]
    assert len(ends) >= 3


@pytest.mark.parametrize(("position", "depth", "expected"), case_params(CASES, LONG))
def test_engine_perft_matches_the_reference_counts(position: Position, depth: int, expected: int) -> None:
    assert engine_perft(position.engine_state(), depth) == expected


SMALL = cases(POSITIONS, most=REFERENCE_LIMIT)


@pytest.mark.parametrize(("position", "depth", "expected"), SMALL, ids=case_ids(SMALL))
def test_reference_counter_reproduces_the_counts(position: Position, depth: int, expected: int) -> None:
    assert REFERENCE.perft(position.reference_state(), depth) == expected


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_engine_and_reference_agree_on_the_position_itself(position: Position) -> None:
    hand = position.engine_state()
    ref = position.reference_state()
    assert hand.to_act == ref.to_act
    legal = hand.legal_actions()
    expected = ref_legal(ref)
    if isinstance(expected[0], frozenset):
        assert sorted(sorted(c.index for c in p.cards) for p in legal) == sorted(
            sorted(c.index for c in p)
            for p in expected  # type: ignore[union-attr]
        )
    else:
        assert list(legal) == sorted(expected, key=lambda c: c.index)  # type: ignore[union-attr]
    assert [CardSet(h) for h in hand.hands] == [CardSet(h) for h in ref.hands]


def test_counting_past_the_end_of_the_hand_finds_no_sequence() -> None:
    final = next(p for p in POSITIONS if p.remaining == max(d for d, _ in p.counts))
    assert engine_perft(final.engine_state(), final.remaining + 1) == 0
    assert REFERENCE.perft(final.reference_state(), final.remaining + 1) == 0


def main() -> None:
    """Print the reference counts of every position, and whether the engine agrees."""
    for line in report(read_positions(Path(sys.argv[1]) if len(sys.argv) > 1 else PARTNERSHIP_DATA), REFERENCE):
        print(line)


if __name__ == "__main__":
    main()
