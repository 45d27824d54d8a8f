"""Perft for North Star's CLUBS: counts of legal plays and of legal action sequences, as in chess perft.

The expected counts in ``data/perft/northstar.txt`` were computed with the reference below, written from the rule
text and rulings NS-3..NS-5, NS-8..NS-11 over plain lists of cards: its plays come from brute force over every subset
of the hand and every value the wild 15s in it may stand for, and never from ``combos.generate``; its round is a
small state machine of its own. The tests check that the engine counts the same. The data file, the engine's count
(over ``clone()``) and the report are the shared harness's (:mod:`conformance.perft`). Run this module as a script to
print the counts of every position again (for a new position, or to check the file).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, pairwise
from pathlib import Path

import pytest

from clubsuite.cards import Card, CardSet
from clubsuite.engine import resolve
from clubsuite.games.northstar import Call, NorthstarDeal, NorthstarHand, NorthstarOptions, Play, generate, parse_play
from clubsuite.games.northstar.combos import NORTHSTAR
from conformance.perft import DATA, Reference, case_ids, cases, engine_perft, read_blocks, report

NORTHSTAR_DATA = DATA / "northstar.txt"

RefPlay = tuple[int, str, int]
"""A play of the reference: (mask of the cards, kind ``single``/``set``/``run``, the value of its top card)."""
RefAction = RefPlay | str
"""A play, ``pass`` or ``double``."""


# -- the reference plays ------------------------------------------------------------------------------------
def classify(values: Sequence[int]) -> tuple[str, int] | None:
    """The kind and top value of cards standing for ``values`` (NS-3), or None if they make no play."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return "single", ordered[0]
    if ordered[0] == ordered[-1]:
        return "set", ordered[0]
    if all(b == a + 1 for a, b in pairwise(ordered)):
        return "run", ordered[-1]  # consecutive values 1..15: a run never wraps from 15 to 1
    return None


@lru_cache(maxsize=4096)
def ref_all_plays(hand: frozenset[Card], wild: bool) -> frozenset[RefPlay]:
    """Every single, set and run the hand can make: every subset of it, with every value its 15s may take (NS-9).

    The 15s of a subset are interchangeable (which one takes which value changes neither the kind nor the top), so
    each multiset of values for them is tried once.
    """
    out: set[RefPlay] = set()
    cards = sorted(hand)
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            mask = sum(1 << c.index for c in subset)
            if wild:
                naturals = [c.rank for c in subset if c.rank != 15]
                jokers = size - len(naturals)
            else:
                naturals, jokers = [c.rank for c in subset], 0
            for values in combinations_with_replacement(range(1, 16), jokers):
                shape = classify(naturals + list(values))
                if shape is not None:
                    out.add((mask, shape[0], shape[1]))
    return frozenset(out)


def ref_beats(play: RefPlay, prev: RefPlay, crazy: bool) -> bool:
    """Whether ``play`` may follow ``prev``: same kind, as many cards, a higher top (NS-3); Crazy CLUBS: a single is
    a set of one, and more cards of the same kind, or as many with a higher top, beat (NS-11)."""
    size, prev_size = play[0].bit_count(), prev[0].bit_count()
    if crazy:
        if (play[1] == "run") != (prev[1] == "run"):
            return False
        return size > prev_size or (size == prev_size and play[2] > prev[2])
    return play[1] == prev[1] and size == prev_size and play[2] > prev[2]


def ref_plays(hand: frozenset[Card], prev: RefPlay | None, wild: bool, crazy: bool) -> set[RefPlay]:
    """The plays the hand may make now: any when leading, else those that beat ``prev``."""
    every = ref_all_plays(hand, wild)
    if prev is None:
        return set(every)
    return {p for p in every if ref_beats(p, prev, crazy)}


# -- the reference round ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RefRound:
    """A round as plain values: written for clarity, not speed, and sharing no code with the engine."""

    hands: tuple[frozenset[Card], ...]
    to_act: int
    team_count: int
    """0 without teams; else the number of teams (the team of a seat is the seat modulo it)."""
    wild: bool
    crazy: bool
    double: bool
    top: RefPlay | None = None
    top_seat: int = -1
    passed: frozenset[int] = frozenset()
    last_turn: bool = False
    over: bool = False
    doubled: frozenset[int] = field(default_factory=frozenset)
    started: frozenset[int] = field(default_factory=frozenset)

    def holders(self) -> list[int]:
        """The seats holding cards."""
        return [s for s, h in enumerate(self.hands) if h]

    def next_holder(self, seat: int) -> int:
        """The next seat clockwise that holds cards (players without cards are skipped)."""
        n = len(self.hands)
        return next((seat + k) % n for k in range(1, n + 1) if self.hands[(seat + k) % n])


def ref_legal(state: RefRound) -> list[RefAction]:
    """The legal actions: pass when following (the leader must play, NS-4), double before one's first card (NS-8),
    and the plays."""
    if state.over:
        return []
    seat = state.to_act
    acts: list[RefAction] = []
    if state.top is not None:
        acts.append("pass")
    if state.double and seat not in state.doubled and seat not in state.started:
        acts.append("double")
    acts.extend(sorted(ref_plays(state.hands[seat], state.top, state.wild, state.crazy)))
    return acts


def ref_apply(state: RefRound, action: RefAction) -> RefRound:
    """The round after a legal action (NS-4, NS-5, NS-8, NS-10)."""
    seat = state.to_act
    if action == "double":
        return replace(state, doubled=state.doubled | {seat})  # the call does not use the turn
    if action == "pass":
        if state.last_turn:
            return replace(state, over=True)  # the last player lets the final trick go: the round ends
        passed = state.passed | {seat}
        others = {s for s in state.holders() if s != state.top_seat}
        if others <= passed:
            winner = state.top_seat
            leader = winner if state.hands[winner] else state.next_holder(winner)
            return replace(state, top=None, top_seat=-1, passed=frozenset(), to_act=leader)
        return replace(state, passed=passed, to_act=state.next_holder(seat))
    assert isinstance(action, tuple)
    mask, _, high = action
    hands = list(state.hands)
    hands[seat] = frozenset(c for c in hands[seat] if not mask >> c.index & 1)
    s = replace(state, hands=tuple(hands), started=state.started | {seat})
    if state.last_turn:
        return replace(s, over=True)  # the last player's final play takes the trick and ends the round
    top: RefPlay | None = action
    if high == 15 and not state.crazy:
        top = None  # a 15 (standing for itself) takes the trick at once; not in Crazy CLUBS
    s = replace(s, top=top, top_seat=seat, passed=frozenset())
    holders = s.holders()
    if state.team_count and len({h % state.team_count for h in holders}) == 1:
        return replace(s, over=True)  # only one team holds cards: the round ends at once
    if len(holders) == 1:
        if top is None:
            return replace(s, over=True)
        return replace(s, last_turn=True, to_act=holders[0])
    if top is None:
        return replace(s, to_act=seat if hands[seat] else s.next_holder(seat))
    return replace(s, to_act=s.next_holder(seat))


REFERENCE = Reference(ref_legal, ref_apply)
"""The reference counter: this round, counted by the shared harness."""


# -- the engine ---------------------------------------------------------------------------------------------
def key(action: Play | Call) -> RefAction:
    """An engine action in the reference's terms."""
    if isinstance(action, Call):
        return action.value
    return (int(action.cards), action.kind.value, action.high)


def read_action(text: str, wild: bool) -> Play | Call:
    """An action of the data file: ``pass``, ``double`` or a play with every card named."""
    word = text.strip()
    if word in ("pass", "double"):
        return Call(word)
    return parse_play(word, wild)


# -- the data file ------------------------------------------------------------------------------------------
@dataclass
class PlaysCase:
    """A ``hand`` block: the number of legal plays of one hand, leading or following ``prev``."""

    name: str
    options: NorthstarOptions
    hand: CardSet
    prev: Play | None
    expected: int


@dataclass
class Position:
    """A ``seat0``... block: a round after some actions, and counts of legal action sequences from there."""

    name: str
    options: NorthstarOptions
    dealer: int
    deal: NorthstarDeal
    actions: list[str]
    counts: list[tuple[int, int]]
    """(depth, expected count) pairs."""

    def engine_state(self) -> NorthstarHand:
        """The engine's round after the recorded actions."""
        hand = NorthstarHand(self.deal, self.dealer, self.options)
        for text in self.actions:
            hand.apply(read_action(text, self.options.wild_fifteens))
        return hand

    def reference_state(self) -> RefRound:
        """The reference's round after the recorded actions (each checked legal by the reference rules)."""
        opts = self.options
        state = RefRound(
            hands=tuple(frozenset(h) for h in self.deal.hands),
            to_act=(self.dealer + 1) % opts.players,
            team_count=opts.n_teams if opts.teams.value != "none" else 0,
            wild=opts.wild_fifteens,
            crazy=opts.crazy,
            double=opts.double_or_nothing,
        )
        for text in self.actions:
            action = key(read_action(text, opts.wild_fifteens))
            assert action in ref_legal(state), f"{self.name}: {text} is not legal by the reference rules"
            state = ref_apply(state, action)
        return state


def options_of(spec: str) -> NorthstarOptions:
    """The rules options of a spec."""
    _, options = resolve(spec)
    assert isinstance(options, NorthstarOptions)
    return options


def read_data(path: Path = NORTHSTAR_DATA) -> tuple[list[PlaysCase], list[Position]]:
    """Read the data file (see its header for the format): the blocks of one hand, then the blocks of a round."""
    plays: list[PlaysCase] = []
    positions: list[Position] = []
    for block in read_blocks(path):
        options = options_of(block["spec"])
        if "hand" in block.fields:
            prev = None if block["prev"] == "none" else parse_play(block["prev"], options.wild_fifteens)
            hand = NORTHSTAR.parse_set(block["hand"])
            plays.append(PlaysCase(block.name, options, hand, prev, int(block["plays"])))
            continue
        hands = tuple(NORTHSTAR.parse_set(block[f"seat{s}"]) for s in range(options.players))
        actions = [a.strip() for a in block.get("actions").split(";") if a.strip()]
        deal = NorthstarDeal(hands)
        positions.append(Position(block.name, options, int(block["dealer"]), deal, actions, block.counts))
    return plays, positions


PLAYS, POSITIONS = read_data()
CASES = cases(POSITIONS)


def test_perft_file_covers_leads_follows_and_every_variant() -> None:
    names = [c.name for c in PLAYS] + [p.name for p in POSITIONS]
    assert len(names) == len(set(names)), "block names must be unique"
    flavours = {(c.options.wild_fifteens, c.options.crazy, c.prev is None) for c in PLAYS}
    assert flavours == {(w, c, lead) for w in (False, True) for c in (False, True) for lead in (False, True)}
    assert {p.options.players for p in POSITIONS} >= {2, 3, 4}
    assert any(p.options.double_or_nothing for p in POSITIONS)
    assert any(p.options.teams.value != "none" for p in POSITIONS)
    assert any(p.options.wild_fifteens and p.options.crazy for p in POSITIONS)
    # Some positions count every sequence to the end of the round: one action deeper there is none.
    assert sum(1 for p in POSITIONS if p.counts[-1][1] == 0) >= 3


@pytest.mark.parametrize("case", PLAYS, ids=[c.name for c in PLAYS])
def test_ns3_ns9_ns11_engine_generates_the_reference_plays(case: PlaysCase) -> None:
    opts = case.options
    plays = generate(int(case.hand), case.prev, opts.wild_fifteens, opts.crazy)
    assert len(plays) == case.expected
    assert len(set(plays)) == len(plays), "a play is listed twice"
    prev = None if case.prev is None else key(case.prev)
    assert prev is None or isinstance(prev, tuple)
    reference = ref_plays(frozenset(case.hand), prev, opts.wild_fifteens, opts.crazy)
    assert {key(p) for p in plays} == reference
    assert len(reference) == case.expected


@pytest.mark.parametrize(("position", "depth", "expected"), CASES, ids=case_ids(CASES))
def test_engine_perft_matches_the_reference_counts(position: Position, depth: int, expected: int) -> None:
    assert engine_perft(position.engine_state(), depth) == expected


@pytest.mark.parametrize(("position", "depth", "expected"), CASES, ids=case_ids(CASES))
def test_reference_counter_reproduces_the_counts(position: Position, depth: int, expected: int) -> None:
    assert REFERENCE.perft(position.reference_state(), depth) == expected


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_engine_and_reference_agree_on_the_position_itself(position: Position) -> None:
    hand = position.engine_state()
    ref = position.reference_state()
    assert hand.to_act == ref.to_act
    legal = [key(a) for a in hand.legal_actions()]
    calls = [a for a in legal if isinstance(a, str)]
    assert legal[: len(calls)] == calls == [a for a in ref_legal(ref) if isinstance(a, str)]  # pass, double first
    assert len(legal) == len(set(legal)) and set(legal) == set(ref_legal(ref))
    assert [frozenset(CardSet(h)) for h in hand.hands] == list(ref.hands)
    assert (hand.last_turn is not None) == ref.last_turn


def main() -> None:
    """Print the reference counts of every block, and whether the engine agrees."""
    plays, positions = read_data(Path(sys.argv[1]) if len(sys.argv) > 1 else NORTHSTAR_DATA)
    for case in plays:
        opts = case.options
        prev = None if case.prev is None else key(case.prev)
        assert prev is None or isinstance(prev, tuple)
        ref = len(ref_plays(frozenset(case.hand), prev, opts.wild_fifteens, opts.crazy))
        eng = len(generate(int(case.hand), case.prev, opts.wild_fifteens, opts.crazy))
        flag = "ok" if ref == eng == case.expected else "DIFFERS"
        print(f"{case.name} plays: reference {ref} engine {eng} file {case.expected} {flag}")
    for line in report(positions, REFERENCE):
        print(line)


if __name__ == "__main__":
    main()
