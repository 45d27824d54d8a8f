"""The lazy legal actions of North Star's CLUBS: counting, indexing and ``in`` answer exactly what the whole list
built by the generator answers (NS-3, NS-4, NS-8, NS-9, NS-11), in the generator's order, without building it."""

from __future__ import annotations

import random

import pytest

from clubsuite.cards import CardSet
from clubsuite.engine import resolve
from clubsuite.games.northstar import NorthstarMatch
from clubsuite.games.northstar.combos import (
    _BITS_OF,
    FIFTEENS,
    TOP,
    VALUE_MASKS,
    VALUES,
    Call,
    Kind,
    Play,
    _floors,
    _runs,
)
from clubsuite.games.northstar.legal import LegalPlays, generate

SPECS = [
    "northstar",
    "northstar(players=2)",
    "northstar(players=6)",
    "northstar(players=4,wild_fifteens=true)",
    "northstar(players=3,crazy=true)",
    "northstar(players=5,crazy=true,wild_fifteens=true)",
    "northstar(players=4,teams=2x2,double_or_nothing=true)",
]


def _positions(spec: str, seeds: int) -> list[NorthstarMatch]:
    """Matches stopped at decisions of seeded random play (copies, so each can be inspected on its own)."""
    info, options = resolve(spec)
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        match = info.new_match(options, 0)
        assert isinstance(match, NorthstarMatch)
        while not match.is_over and len(match.hands) < 2:
            if match.to_act is None:
                match.deal(rng)
                continue
            if rng.random() < 0.2:
                out.append(match.clone())
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    return out


def reference_plays(hand: int, prev: Play | None, wild: bool, crazy: bool) -> list[Play]:
    """Every play from ``hand`` that may follow ``prev``, listed eagerly in the fixed order the legal actions keep:
    the engine's generator before its legal actions became lazy, kept here as the reference for their order."""
    singles, sets, runs = _floors(prev, crazy)
    vm = VALUE_MASKS
    bits_of = _BITS_OF
    wilds: tuple[int, ...] = ()
    if wild and hand & FIFTEENS:
        wilds = bits_of[hand & FIFTEENS]
        hand &= ~FIFTEENS
    by_value = [()] + [bits_of[hand & vm[v]] for v in VALUES]
    out: list[Play] = []
    single, set_ = Kind.SINGLE, Kind.SET
    if singles:
        for v in range(singles[1], 16):
            for bit in by_value[v]:
                out.append(Play(CardSet.from_mask(bit), single, v))
            for bit in wilds:
                out.append(Play(CardSet.from_mask(bit), single, v))
    if sets:
        low_floor = min(sets.values())
        for v in range(low_floor, 16):
            items = wilds if wild and v == TOP else by_value[v] + wilds
            n = len(items)
            if n < 2:
                continue
            for pick in ([i for i in range(n) if p >> i & 1] for p in range(1, 1 << n)):
                k = len(pick)
                floor = sets.get(k)
                if floor is None or v < floor:
                    continue
                mask = 0
                for i in pick:
                    mask |= items[i]
                out.append(Play(CardSet.from_mask(mask), set_, v))
    if runs:
        if wilds:
            _runs(by_value, list(wilds), runs, out)
        else:
            _reference_plain_runs(by_value, runs, out)
    return out


def _reference_plain_runs(by_value: list[tuple[int, ...]], floors: dict[int, int], out: list[Play]) -> None:
    """Append the runs of the allowed sizes and tops when no wild 15 is involved (NS-3), by lowest value, then
    length. Only stretches of consecutive values the hand holds are walked, and only up to the longest size that
    may be played, so a lead costs what its runs cost and a follow what the runs of one size cost."""
    longest = max(floors)
    shortest = min(floors)
    run = Kind.RUN
    v = 1
    while v < 16:
        if not by_value[v]:
            v += 1
            continue
        start = v
        while v < 16 and by_value[v]:
            v += 1
        end = v - 1  # the hand holds every value from start to end
        for low in range(start, end - shortest + 2):
            masks = list(by_value[low])
            for high in range(low + 1, min(end, low + longest - 1) + 1):
                masks = [m | bit for m in masks for bit in by_value[high]]
                floor = floors.get(high - low + 1)
                if floor is not None and high >= floor:
                    for m in masks:
                        out.append(Play(CardSet.from_mask(m), run, high))


def _eager(match: NorthstarMatch) -> list[Play | Call]:
    """The legal actions as the generator lists them: the calls (NS-4, NS-8), then every play in its order."""
    cur, seat = match.current, match.to_act
    assert cur is not None and seat is not None
    options = match.options
    calls: list[Play | Call] = [Call.PASS] if cur.top is not None else []
    if options.double_or_nothing and not cur.doubled[seat] and not cur.started[seat]:
        calls.append(Call.DOUBLE)
    return calls + list(reference_plays(cur.hands[seat], cur.top, options.wild_fifteens, options.crazy))


@pytest.mark.parametrize("spec", SPECS)
def test_the_lazy_legal_actions_count_index_and_list_exactly_the_generated_ones_in_order(spec: str) -> None:
    for match in _positions(spec, 6):
        expected = _eager(match)
        legal = match.legal_actions()
        assert isinstance(legal, LegalPlays)
        assert len(legal) == len(expected)
        assert [legal[i] for i in range(len(legal))] == expected
        assert legal[-1] == expected[-1] and legal[1:3] == tuple(expected[1:3])
        assert list(legal) == expected and legal == tuple(expected)


@pytest.mark.parametrize("spec", SPECS)
def test_membership_agrees_with_the_list_and_with_explain_without_building_the_list(spec: str) -> None:
    rng = random.Random(3)
    for match in _positions(spec, 4):
        expected = _eager(match)
        cur, seat = match.current, match.to_act
        assert cur is not None and seat is not None
        # Candidates: the legal plays, and plays of the same cards read as another kind or top, or by another hand.
        candidates: list[object] = list(rng.sample(expected, min(len(expected), 30)))
        for play in [p for p in candidates if isinstance(p, Play)]:
            candidates.append(Play(play.cards, Kind.SET if play.kind is Kind.RUN else Kind.RUN, play.high))
            candidates.append(Play(play.cards, play.kind, play.high + 1))
        other = (seat + 1) % match.n_seats
        candidates += reference_plays(cur.hands[other], None, match.options.wild_fifteens, match.options.crazy)[:20]
        candidates += [Call.PASS, Call.DOUBLE, "pass", "nonsense"]
        legal = match.legal_actions()
        for action in candidates:
            assert (action in legal) == (action in expected), action
            if isinstance(action, (Play, Call)):
                assert (action in legal) == (match.explain(action) is None), action
        assert legal._items is None, "membership built the whole list"


def test_only_what_the_list_handed_out_is_applied_without_a_check() -> None:
    match = _positions("northstar", 1)[0]
    legal = match.legal_actions()
    given = legal[len(legal) - 1]
    assert legal.vouches(given)
    same_cards = Play(given.cards, given.kind, given.high) if isinstance(given, Play) else given
    assert isinstance(given, Call) or not legal.vouches(same_cards)  # an equal play built elsewhere is checked
    match.apply(same_cards)


@pytest.mark.parametrize("spec", SPECS)
def test_generate_lists_the_plays_of_the_legal_actions(spec: str) -> None:
    for match in _positions(spec, 3):
        cur, options = match.current, match.options
        assert cur is not None and match.to_act is not None
        plays = generate(cur.hands[match.to_act], cur.top, options.wild_fifteens, options.crazy)
        assert plays == [a for a in match.legal_actions() if isinstance(a, Play)]
