"""The lazy legal actions of North Star's CLUBS: counting, indexing and ``in`` answer exactly what the whole list
built by the generator answers (NS-3, NS-4, NS-8, NS-9, NS-11), in the generator's order, without building it."""

from __future__ import annotations

import random

import pytest

from clubsuite.engine import resolve
from clubsuite.games.northstar import NorthstarMatch
from clubsuite.games.northstar.combos import Call, Kind, Play, generate
from clubsuite.games.northstar.legal import LegalPlays

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


def _eager(match: NorthstarMatch) -> list[Play | Call]:
    """The legal actions as the generator lists them: the calls (NS-4, NS-8), then every play in its order."""
    cur, seat = match.current, match.to_act
    assert cur is not None and seat is not None
    options = match.options
    calls: list[Play | Call] = [Call.PASS] if cur.top is not None else []
    if options.double_or_nothing and not cur.doubled[seat] and not cur.started[seat]:
        calls.append(Call.DOUBLE)
    return calls + list(generate(cur.hands[seat], cur.top, options.wild_fifteens, options.crazy))


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
        candidates += generate(cur.hands[other], None, match.options.wild_fifteens, match.options.crazy)[:20]
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
