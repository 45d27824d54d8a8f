"""Perft for Free Clubs: counts of legal action sequences from fixed positions, as in chess perft.

The expected counts in ``data/perft/free.txt`` were computed once with the reference rules below, written from the
rules text and rulings FC-1 to FC-7 over card names (strings such as ``10S``, ``7H``, ``JK1``), without the engine's
masks, bid tables or legality code: the auction's order and levels (FC-3), the Joker's team (FC-4), the handicaps in
bid order with the Ten's chosen discard (FC-5), the pass before play to the right (FC-2), the leads (FC-6) and the
end of the hand (FC-7). The tests check that the engine counts the same. The data file, the engine's count and the
report are the shared harness's (:mod:`conformance.perft`). Run this module as a script to print the counts again.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from clubsuite.engine import resolve
from clubsuite.games.free import FreeDeal, FreeHand, FreeMatch, FreeOptions
from clubsuite.games.free.hand import FreePhase
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

FREE_DATA = DATA / "free.txt"

# -- the reference rules ------------------------------------------------------------------------------------
BID_ORDER = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"]
"""FC-3: the auction cards below the Jokers, lowest first (within a level: spades, hearts, diamonds, clubs)."""
JOKERS = ("JK1", "JK2")
PLAY_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9"]
"""The primary ranks, lowest first: the ace is the lowest card of its suit."""
PASS = "pass"


def bid_rank(card: str) -> int:
    """The place of an auction card in the bidding order (a Joker above every King)."""
    return len(BID_ORDER) if card in JOKERS else BID_ORDER.index(card)


def level(card: str) -> int:
    """FC-3's levels: 0 for a Ten, 1 Jack, 2 Queen, 3 King, 4 Joker."""
    return 4 if card in JOKERS else bid_rank(card) // 4


def suit_of(card: str) -> str:
    """The suit letter of a card."""
    return card[-1]


def height(card: str) -> int:
    """How high a primary card plays in its suit."""
    return PLAY_ORDER.index(card[:-1])


@dataclass
class RefState:
    """A hand as plain lists of card names: written for clarity, not speed, and sharing no code with the engine."""

    auction: list[list[str]]
    hands: list[list[str]]
    chest: list[str]
    turn: int
    stage: str = "auction"
    """``auction``, ``ten`` (a Ten's discard is awaited), ``pass``, ``play`` or ``over``."""
    bids: list[tuple[int, str]] = field(default_factory=list)
    passes_in_a_row: int = 0
    winner: int = -1
    partner: int = -1
    pending: list[tuple[int, str]] = field(default_factory=list)
    passers: list[int] = field(default_factory=list)
    chosen: list[tuple[int, str]] = field(default_factory=list)
    trick: list[tuple[int, str]] = field(default_factory=list)
    in_trick: list[int] = field(default_factory=list)
    tricks: int = 0

    def copy(self) -> RefState:
        """An independent copy."""
        return replace(
            self,
            auction=[list(a) for a in self.auction],
            hands=[list(h) for h in self.hands],
            bids=list(self.bids),
            pending=list(self.pending),
            passers=list(self.passers),
            chosen=list(self.chosen),
            trick=list(self.trick),
            in_trick=list(self.in_trick),
        )


def start(auction: list[list[str]], hands: list[list[str]], chest: list[str]) -> RefState:
    """The hand before the first bid: the holder of 10S opens (FC-3)."""
    opener = next(seat for seat in range(3) if "10S" in auction[seat])
    return RefState([list(a) for a in auction], [list(h) for h in hands], list(chest), opener)


def ref_legal(s: RefState) -> Sequence[str]:
    """The legal actions in notation, straight from the rule texts and rulings FC-1 to FC-7."""
    if s.stage == "over":
        return []
    if s.stage == "auction":
        if not s.bids:
            return ["10S"]
        last = s.bids[-1][1]
        higher = [c for c in s.auction[s.turn] if bid_rank(c) > bid_rank(last) and level(c) <= level(last) + 1]
        return [*higher, PASS]
    hand = s.hands[s.turn]
    if s.stage == "ten":
        return [c for c in hand if suit_of(c) == suit_of(s.pending[0][1])]
    if s.stage == "pass" or not s.trick:
        return list(hand)
    follow = [c for c in hand if suit_of(c) == suit_of(s.trick[0][1])]
    return follow or list(hand)


def ref_apply(state: RefState, action: str) -> RefState:
    """The state after a legal action (a new object)."""
    s = state.copy()
    seat = s.turn
    if s.stage == "auction":
        if action == PASS:
            s.passes_in_a_row += 1
            if s.passes_in_a_row == 2:
                _end_auction(s, s.bids[-1][0], -1)
            else:
                s.turn = (seat + 1) % 3
            return s
        s.auction[seat].remove(action)
        s.bids.append((seat, action))
        s.passes_in_a_row = 0
        if action in JOKERS:
            _end_auction(s, seat, s.bids[-2][0])
        else:
            s.turn = (seat + 1) % 3
        return s
    s.hands[seat].remove(action)
    if s.stage == "ten":
        s.pending.pop(0)
        _handicaps(s)
    elif s.stage == "pass":
        s.hands[seat].append(action)  # nothing moves until everyone has chosen (FC-2)
        s.chosen.append((seat, action))
        if len(s.chosen) < len(s.passers):
            s.turn = s.passers[len(s.chosen)]
        else:
            for giver, card in s.chosen:
                s.hands[giver].remove(card)
                s.hands[(giver - 1) % 3].append(card)  # to the right
            _start_play(s)
    else:
        s.trick.append((seat, action))
        if len(s.trick) < len(s.in_trick):
            s.turn = s.in_trick[len(s.trick)]
        else:
            _take_trick(s)
    return s


def _end_auction(s: RefState, winner: int, partner: int) -> None:
    """FC-4/FC-5: the winner takes the chest; the team's bids become handicaps in bid order."""
    s.winner, s.partner = winner, partner
    s.hands[winner] += s.chest
    team = {winner, partner}
    s.pending = [(seat, card) for seat, card in s.bids if seat in team and card not in JOKERS]
    _handicaps(s)


def _highest(hand: list[str], suit: str, n: int) -> list[str]:
    return sorted((c for c in hand if suit_of(c) == suit), key=height, reverse=True)[:n]


def _handicaps(s: RefState) -> None:
    """Carry out pending handicaps until a Ten asks for a choice (FC-5), then go on to the pass."""
    while s.pending:
        seat, bid = s.pending[0]
        suit = suit_of(bid)
        if level(bid) == 0:
            if any(suit_of(c) == suit for c in s.hands[seat]):
                s.stage, s.turn = "ten", seat
                return
        elif level(bid) == 1:
            for c in _highest(s.hands[seat], suit, 1):
                s.hands[seat].remove(c)
        elif level(bid) == 2:
            for c in _highest(s.hands[seat], suit, 1):
                s.hands[seat].remove(c)
                s.hands[(seat + 1) % 3].append(c)  # a Queen passes to the left (FC-2)
        else:
            for c in _highest(s.hands[seat], suit, 3):
                s.hands[seat].remove(c)
        s.pending.pop(0)
    w = s.winner
    s.passers = [p for p in ((w + 1) % 3, (w + 2) % 3, w) if s.hands[p]]
    if s.passers:
        s.stage, s.turn = "pass", s.passers[0]
    else:
        _start_play(s)


def _empty(s: RefState) -> int:
    return sum(1 for h in s.hands if not h)


def _first_with_cards(s: RefState, seat: int) -> int:
    return next(p for p in (seat, (seat + 1) % 3, (seat + 2) % 3) if s.hands[p])


def _begin(s: RefState, leader: int) -> None:
    s.stage, s.turn, s.trick = "play", leader, []
    s.in_trick = [p for p in (leader, (leader + 1) % 3, (leader + 2) % 3) if s.hands[p]]


def _start_play(s: RefState) -> None:
    """FC-6: the player after the winner leads, or the one player outside a Joker team; FC-7 if two are empty."""
    if _empty(s) >= 2:
        s.stage = "over"
        return
    first = (s.winner + 1) % 3 if s.partner < 0 else 3 - s.winner - s.partner
    _begin(s, _first_with_cards(s, first))


def _take_trick(s: RefState) -> None:
    """The highest club wins, else the highest card of the led suit; FC-7 ends the hand."""
    clubs = [(height(c), p) for p, c in s.trick if suit_of(c) == "C"]
    led = suit_of(s.trick[0][1])
    winner = max(clubs or [(height(c), p) for p, c in s.trick if suit_of(c) == led])[1]
    s.tricks += 1
    if s.tricks == 10 or _empty(s) >= 2:
        s.stage, s.trick = "over", []
        return
    _begin(s, _first_with_cards(s, winner))


REFERENCE = Reference(ref_legal, ref_apply)
"""The reference counter: these rules, counted by the shared harness."""


# -- the data file ------------------------------------------------------------------------------------------
@dataclass
class Position:
    """One block of the data file."""

    name: str
    spec: str
    dealer: int
    auction: list[list[str]]
    primary: list[list[str]]
    chest: list[str]
    actions: list[str]
    counts: list[tuple[int, int]]
    """(depth, expected count) pairs."""

    @classmethod
    def of(cls, block: Block) -> Position:
        """The position a block describes (see the data file's header for its fields)."""
        return cls(
            block.name,
            block["spec"],
            int(block["dealer"]),
            [block[f"auction{s}"].split() for s in range(3)],
            [block[f"primary{s}"].split() for s in range(3)],
            block["chest"].split(),
            block.get("actions").split(),
            block.counts,
        )

    def options(self) -> FreeOptions:
        """The rules options of the spec."""
        _, options = resolve(self.spec)
        assert isinstance(options, FreeOptions)
        return options

    def engine_state(self) -> FreeHand:
        """The engine's hand after the recorded actions."""
        deal = FreeDeal.from_json(
            {"auction": [" ".join(a) for a in self.auction], "primary": [" ".join(p) for p in self.primary]}
            | {"chest": " ".join(self.chest)}
        )
        hand = FreeHand(deal, self.dealer, self.options())
        for text in self.actions:
            hand.apply(FreeMatch.parse_action(text))
        return hand

    def reference_state(self) -> RefState:
        """The reference model's hand after the recorded actions (each checked legal by the reference rules)."""
        state = start(self.auction, self.primary, self.chest)
        for text in self.actions:
            assert text in ref_legal(state), f"{self.name}: {text} is not legal by the reference rules"
            state = ref_apply(state, text)
        return state


def read_positions(path: Path = FREE_DATA) -> list[Position]:
    """The positions of a data file (see its header for the format)."""
    return [Position.of(block) for block in read_blocks(path)]


POSITIONS = read_positions()
CASES = cases(POSITIONS)
LONG = {"mid-trick-late-d9", "mid-trick-late-d10", "mid-trick-late-d11"}
"""The deepest counts, a second or more each in pure Python: run by ``make test``, not ``make check``."""
ENGINE = EngineCounts(CASES, LONG)
"""The engine's counts of the cases, each position walked once for all its depths."""


def _notation(hand: FreeHand) -> list[str]:
    return sorted(FreeMatch.format_action(a) for a in hand.legal_actions())


@pytest.mark.long
def test_perft_file_covers_every_stage_of_a_hand_and_a_joker_team() -> None:
    assert len(POSITIONS) >= 8
    assert len({p.name for p in POSITIONS}) == len(POSITIONS), "position names must be unique"
    phases = {str(p.engine_state().phase) for p in POSITIONS}
    assert {str(FreePhase.AUCTION), str(FreePhase.HANDICAP), str(FreePhase.PASS), "play"} <= phases
    assert any(p.reference_state().partner >= 0 for p in POSITIONS if p.reference_state().stage != "auction")
    # Some positions count to the last card of the hand: one depth further finds nothing. Looked for among the
    # positions with the fewest lines at their deepest count first, and only until two are found (one depth past a
    # position that goes on costs many times its deepest count).
    ends = 0
    for p in sorted(POSITIONS, key=lambda p: max(p.counts)[1]):
        ends += engine_perft(p.engine_state(), max(d for d, _ in p.counts) + 1) == 0
        if ends >= 2:
            break
    assert ends >= 2


@pytest.mark.parametrize(("position", "depth", "expected"), case_params(CASES, LONG))
def test_engine_perft_matches_the_reference_counts(position: Position, depth: int, expected: int) -> None:
    """The engine's count at ``depth``, from the one walk of the position that counts every depth of its group
    (:class:`conformance.perft.EngineCounts`)."""
    assert ENGINE.count(position, depth) == expected


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_engine_and_reference_agree_on_the_position_itself(position: Position) -> None:
    hand = position.engine_state()
    ref = position.reference_state()
    assert hand.to_act == ref.turn
    assert _notation(hand) == sorted(ref_legal(ref))
    assert [sorted(str(c) for c in hand.hand_of(s)) for s in range(3)] == [sorted(h) for h in ref.hands]
    assert hand.team == tuple(p for p in (ref.winner, ref.partner) if p >= 0)


SMALL = cases(POSITIONS, most=5000)


@pytest.mark.parametrize(("position", "depth", "expected"), SMALL, ids=case_ids(SMALL))
def test_reference_counter_reproduces_the_small_counts(position: Position, depth: int, expected: int) -> None:
    assert REFERENCE.perft(position.reference_state(), depth) == expected


def main() -> None:
    """Print the reference counts of every position, and whether the engine agrees."""
    for line in report(read_positions(Path(sys.argv[1]) if len(sys.argv) > 1 else FREE_DATA), REFERENCE):
        print(line)


if __name__ == "__main__":
    main()
