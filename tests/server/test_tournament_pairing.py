"""Tournament pairing (``server/community/pairing``): the arena's tables as people come free, a Swiss round's tables,
byes and bot tables, as exact cases and as invariants over random fields (Hypothesis: a hundred fields a property, new
ones each run, so that many runs try more of them than one long one)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.server.community.pairing import Ranked, Waiting, arena_tables, swiss_round


def test_arena_seats_the_longest_waiting_in_whole_tables_grouped_by_rating() -> None:
    waiting = [
        Waiting("a", 1500, since=1.0),
        Waiting("b", 1900, since=2.0),
        Waiting("c", 1200, since=3.0),
        Waiting("d", 1800, since=4.0),
        Waiting("late", 2000, since=9.0),  # came last: waits for the next table
    ]
    out = arena_tables(waiting, seats=2, now=10.0)
    assert out.tables == [("b", "d"), ("a", "c")]
    assert out.left == ["late"]


def test_arena_seats_the_ones_left_over_with_bots_once_they_have_waited_long_enough() -> None:
    waiting = [Waiting("a", 1500, since=0.0), Waiting("b", 1400, since=5.0)]
    assert arena_tables(waiting, seats=3, now=10.0, bots_after=20.0).left == ["a", "b"]
    out = arena_tables(waiting, seats=3, now=20.0, bots_after=20.0)
    assert out.tables == [("a", "b", None)] and out.left == []
    assert arena_tables(waiting, seats=3, now=1000.0).tables == []  # no bots: they wait


def test_arena_avoids_seating_a_table_again_that_has_just_ended() -> None:
    ab, cd = frozenset("ab"), frozenset("cd")
    waiting = [
        Waiting("a", 2000, 0.0, ab),
        Waiting("b", 1900, 0.0, ab),
        Waiting("c", 1800, 0.0, cd),
        Waiting("d", 1700, 0.0, cd),
    ]
    out = arena_tables(waiting, seats=2, now=1.0)
    assert sorted(map(frozenset, out.tables)) == sorted([frozenset("ac"), frozenset("bd")])
    alone = arena_tables(waiting[:2], seats=2, now=1.0)  # no one else is free: they meet again
    assert alone.tables == [("a", "b")]


def test_swiss_pairs_by_score_then_rating() -> None:
    field = [Ranked("a", 1500, 4), Ranked("b", 1700, 2), Ranked("c", 1600, 2), Ranked("d", 2000, 0)]
    out = swiss_round(field, 2, met={}, byes={})
    assert out.tables == [("a", "b"), ("c", "d")] and out.left == []


def test_swiss_avoids_a_rematch_where_another_pairing_exists() -> None:
    field = [Ranked("a", 1500, 4), Ranked("b", 1700, 2), Ranked("c", 1600, 2), Ranked("d", 2000, 0)]
    met = {"a": {"b": 1}, "b": {"a": 1}}
    out = swiss_round(field, 2, met=met, byes={})
    assert out.tables == [("a", "c"), ("b", "d")]


def test_swiss_meets_again_only_when_nothing_else_is_possible() -> None:
    field = [Ranked("a", 1500, 2), Ranked("b", 1400, 0)]
    out = swiss_round(field, 2, met={"a": {"b": 3}, "b": {"a": 3}}, byes={})
    assert out.tables == [("a", "b")]


def test_swiss_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    field = [Ranked("a", 1500, 4), Ranked("b", 1700, 2), Ranked("c", 1600, 0)]
    assert swiss_round(field, 2, met={}, byes={}).left == ["c"]
    assert swiss_round(field, 2, met={}, byes={"c": 1}).left == ["b"]


def test_swiss_with_bots_seats_the_lowest_ranked_with_bots_instead_of_a_bye() -> None:
    field = [Ranked("a", 1500, 4), Ranked("b", 1700, 2), Ranked("c", 1600, 0), Ranked("d", 1000, 0)]
    out = swiss_round(field, 3, met={}, byes={}, bots=True)
    assert out.tables == [("a", "b", "c"), ("d", None, None)] and out.left == []


def test_swiss_greedy_fallback_avoids_a_table_that_sat_together_before() -> None:
    # everyone has met everyone: no pairing without a meeting, but the table {a, b} is avoidable
    people = "abcd"
    met = {p: {q: 1 for q in people if q != p} for p in people}
    field = [Ranked(p, 1500, 0) for p in people]
    out = swiss_round(field, 2, met=met, byes={}, tables_before=frozenset({frozenset("ab"), frozenset("cd")}))
    assert frozenset("ab") not in map(frozenset, out.tables)
    assert frozenset("cd") not in map(frozenset, out.tables)


@pytest.mark.parametrize("bad", [1, 0, True])
def test_pairing_refuses_a_table_of_fewer_than_two_seats(bad: int) -> None:
    with pytest.raises(ValueError, match="at least two seats"):
        swiss_round([Ranked("a", 1500)], bad, met={}, byes={})
    with pytest.raises(ValueError, match="at least two seats"):
        arena_tables([Waiting("a", 1500, 0.0)], bad, now=0.0)


def test_pairing_refuses_an_entrant_listed_twice() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        swiss_round([Ranked("a", 1500), Ranked("a", 1400)], 2, met={}, byes={})


# -- invariants ---------------------------------------------------------------------------------------------------

ids = st.lists(st.text("abcdefghijklmnop", min_size=1, max_size=3), unique=True, max_size=24)


@st.composite
def arena_fields(draw: st.DrawFn) -> tuple[list[Waiting], int, float | None]:
    people = draw(ids)
    seats = draw(st.integers(2, 5))
    waiting = []
    for p in people:
        last = draw(st.sets(st.sampled_from(people), max_size=seats)) if people else set()
        waiting.append(Waiting(p, draw(st.integers(0, 3000)), draw(st.floats(0, 100)), frozenset(last | {p})))
    return waiting, seats, draw(st.none() | st.floats(0, 100))


@given(arena_fields(), st.floats(0, 200))
@settings(max_examples=100, deadline=None)
def test_arena_seats_everyone_at_most_once_and_leaves_no_table_unformed(
    case: tuple[list[Waiting], int, float | None], now: float
) -> None:
    waiting, seats, bots_after = case
    out = arena_tables(waiting, seats, now, bots_after)
    seated = [p for t in out.tables for p in t if p is not None]
    assert len(seated) == len(set(seated)), "someone seated twice"
    assert set(seated) | set(out.left) == {w.id for w in waiting} and not set(seated) & set(out.left)
    assert all(len(t) == seats for t in out.tables)
    assert len(out.left) < seats, "a whole table was left waiting"
    assert sum(1 for t in out.tables if None in t) <= 1
    if bots_after is None:
        assert all(None not in t for t in out.tables)
    elif out.left:
        assert all(now - w.since < bots_after for w in waiting if w.id in out.left)


@st.composite
def swiss_fields(draw: st.DrawFn) -> tuple[list[Ranked], int, dict[str, dict[str, int]], dict[str, int], bool]:
    people = draw(ids)
    seats = draw(st.integers(2, 4))
    field = [Ranked(p, draw(st.integers(0, 3000)), draw(st.integers(0, 12))) for p in people]
    met: dict[str, dict[str, int]] = {}
    for a, b in itertools.combinations(people, 2):
        if draw(st.booleans()):
            n = draw(st.integers(1, 2))
            met.setdefault(a, {})[b] = n
            met.setdefault(b, {})[a] = n
    byes = {p: draw(st.integers(0, 2)) for p in people}
    return field, seats, met, byes, draw(st.booleans())


@given(swiss_fields())
@settings(max_examples=100, deadline=None)
def test_swiss_seats_everyone_once_a_round_or_gives_the_fewest_byes(
    case: tuple[list[Ranked], int, dict[str, dict[str, int]], dict[str, int], bool],
) -> None:
    field, seats, met, byes, bots = case
    out = swiss_round(field, seats, met, byes, bots=bots)
    seated = [p for t in out.tables for p in t if p is not None]
    everyone = {e.id for e in field}
    assert len(seated) == len(set(seated)), "someone seated twice in a round"
    assert set(seated) | set(out.left) == everyone and not set(seated) & set(out.left)
    assert all(len(t) == seats for t in out.tables)
    if bots:
        assert not out.left and sum(1 for t in out.tables if None in t) <= (1 if len(field) % seats else 0)
    else:
        assert len(out.left) == len(field) % seats and all(None not in t for t in out.tables)
        if out.left:  # nobody with a bye had more byes than someone who played
            assert max(byes[p] for p in out.left) <= min((byes[p] for p in seated), default=99)


def _no_meeting_pairing_exists(people: list[str], seats: int, met: dict[str, dict[str, int]]) -> bool:
    if not people:
        return True
    head, rest = people[0], people[1:]
    for others in itertools.combinations(rest, seats - 1):
        table = (head, *others)
        fresh = all(not met.get(a, {}).get(b) for a, b in itertools.combinations(table, 2))
        if fresh and _no_meeting_pairing_exists([p for p in rest if p not in others], seats, met):
            return True
    return False


@given(swiss_fields())
@settings(max_examples=100, deadline=None)
def test_swiss_finds_a_round_without_rematches_whenever_one_exists(
    case: tuple[list[Ranked], int, dict[str, dict[str, int]], dict[str, int], bool],
) -> None:
    field, seats, met, byes, _ = case
    field = field[: 12 - 12 % seats]  # whole tables, small enough to check every pairing
    field = field[: len(field) - len(field) % seats]
    out = swiss_round(field, seats, met, byes)
    rematches = sum(1 for t in out.tables for a, b in itertools.combinations(t, 2) if a and b and met.get(a, {}).get(b))
    if _no_meeting_pairing_exists([e.id for e in field], seats, met):
        assert rematches == 0


def test_arena_never_seats_two_people_one_of_whom_blocked_the_other() -> None:
    waiting = [Waiting(p, 2000 - 100 * i, 0.0) for i, p in enumerate("abcd")]
    apart = frozenset({frozenset("ab")})
    out = arena_tables(waiting, seats=2, now=1.0, apart=apart)
    assert sorted(map(frozenset, out.tables)) == sorted([frozenset("ac"), frozenset("bd")])  # swapped apart
    alone = arena_tables(waiting[:2], seats=2, now=1.0, apart=apart)
    assert alone.tables == [] and sorted(alone.left) == ["a", "b"]  # nobody else: they wait
    with_bots = arena_tables(waiting[:2], seats=2, now=1.0, bots_after=0.0, apart=apart)
    assert sorted(with_bots.tables) == [("a", None)] and with_bots.left == ["b"]


@given(arena_fields(), st.floats(0, 200), st.data())
@settings(max_examples=100, deadline=None)
def test_arena_keeps_blocked_pairs_apart_and_seats_everyone_at_most_once(
    case: tuple[list[Waiting], int, float | None], now: float, data: st.DataObject
) -> None:
    waiting, seats, bots_after = case
    ids = [w.id for w in waiting]
    pairs = data.draw(st.sets(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=10)) if ids else set()
    apart = frozenset(frozenset(p) for p in pairs if p[0] != p[1])
    out = arena_tables(waiting, seats, now, bots_after, apart)
    seated = [p for t in out.tables for p in t if p is not None]
    assert len(seated) == len(set(seated)) and set(seated) | set(out.left) == set(ids)
    assert not set(seated) & set(out.left) and all(len(t) == seats for t in out.tables)
    for t in out.tables:
        people = [p for p in t if p is not None]
        assert not any(frozenset((a, b)) in apart for i, a in enumerate(people) for b in people[i + 1 :])
    if not apart:
        assert len(out.left) < seats
