"""Tournament points and standings (``server/community/standings``): points by finishing place, the arena's streak,
Swiss byes and tie-breaks, as exact cases and as invariants (Hypothesis: the points always add up)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.server.community.standings import Played, arena_standings, swiss_standings


def test_two_sides_score_two_for_a_win_one_for_a_draw_nothing_for_a_loss() -> None:
    win = Played(("a", "b"), (1, 2))
    assert (win.points(0), win.points(1)) == (2, 0)
    draw = Played(("a", "b"), (1, 1))
    assert (draw.points(0), draw.points(1)) == (1, 1)
    assert win.won(0) and not win.won(1) and not draw.won(0)


def test_four_seats_score_by_the_sides_finished_below_and_level() -> None:
    table = Played(("a", "b", "c", "d"), (1, 2, 2, 4))
    assert [table.points(s) for s in range(4)] == [6, 3, 3, 0]
    assert table.most() == 6


def test_partners_each_score_their_sides_points() -> None:
    table = Played(("a", "b", "c", "d"), (1, 2, 1, 2), teams=((0, 2), (1, 3)))
    assert [table.points(s) for s in range(4)] == [2, 0, 2, 0]
    assert table.won(0) and table.won(2) and table.most() == 2


def test_partners_with_different_places_are_refused() -> None:
    with pytest.raises(ValueError, match="must share a place"):
        Played(("a", "b", "c", "d"), (1, 2, 3, 4), teams=((0, 2), (1, 3)))


def test_arena_doubles_points_after_two_wins_in_a_row_until_a_table_is_not_won() -> None:
    games = [
        Played(("a", "b"), (1, 2)),  # win: 2
        Played(("a", "c"), (1, 2)),  # win: 2, now on fire
        Played(("a", "b"), (1, 2)),  # win, doubled: 4
        Played(("a", "c"), (1, 1)),  # draw, doubled: 2; the streak ends
        Played(("a", "b"), (1, 2)),  # win: 2
    ]
    rows = {r.entrant: r for r in arena_standings({"a": 1500, "b": 1500, "c": 1500}, games)}
    assert rows["a"].results == [2, 2, 4, 2, 2] and rows["a"].score == 12
    assert rows["a"].wins == 4 and not rows["a"].fire and rows["a"].performance == 1.8
    assert rows["c"].results == [0, 1] and rows["b"].score == 0


def test_arena_bot_seats_score_for_nobody() -> None:
    rows = arena_standings({"a": 1500}, [Played(("a", None, None), (2, 1, 3))])
    assert rows[0].score == 2 and rows[0].tables == 1


def test_arena_places_by_points_then_performance_and_shares_equal_places() -> None:
    games = [Played(("a", "b"), (1, 2)), Played(("c", "d"), (1, 2)), Played(("e", None), (1, 2))]
    rows = arena_standings({"a": 1400, "b": 1500, "c": 1600, "d": 1500, "e": 1000, "f": 2000}, games)
    assert [(r.entrant, r.place) for r in rows] == [("c", 1), ("a", 1), ("e", 1), ("f", 4), ("b", 4), ("d", 4)]


def test_swiss_bye_is_worth_half_a_tables_best_and_buchholz_breaks_ties() -> None:
    games = [
        Played(("a", "b"), (1, 2), round=1),
        Played(("c", "d"), (1, 2), round=1),
        Played(("a", "c"), (1, 2), round=2),
        Played(("b", "d"), (2, 1), round=2),
    ]
    rows = swiss_standings({"a": 1500, "b": 1500, "c": 1500, "d": 1500, "e": 1500}, games, {"e": 2}, bye_points=1)
    by = {r.entrant: r for r in rows}
    assert (by["a"].score, by["b"].score, by["c"].score, by["d"].score, by["e"].score) == (4, 0, 2, 2, 2)
    assert by["c"].buchholz == 6.0 and by["d"].buchholz == 2.0 and by["e"].buchholz == 0.0  # c met a (4) and d (2)
    assert [r.entrant for r in rows] == ["a", "c", "d", "e", "b"]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]


@st.composite
def tables(draw: st.DrawFn) -> Played:
    n = draw(st.integers(2, 5))
    teams = ((0, 2), (1, 3)) if n == 4 and draw(st.booleans()) else ()
    seats = tuple(draw(st.sampled_from(["a", "b", "c", "d", "e", "f", None])) for _ in range(n))
    seats = tuple(s if s is None or seats.index(s) == i else None for i, s in enumerate(seats))  # one seat each
    places = [draw(st.integers(1, n)) for _ in range(n)]
    for team in teams:
        for s in team:
            places[s] = places[team[0]]
    return Played(seats, tuple(places), teams)


@given(st.lists(tables(), max_size=12))
@settings(max_examples=300, deadline=None)
def test_every_table_hands_out_s_times_s_minus_one_points_and_standings_add_them_up(games: list[Played]) -> None:
    for game in games:
        sides = game.sides()
        assert sum(game.points(side[0]) for side in sides) == len(sides) * (len(sides) - 1)
        assert sum(game.won(side[0]) for side in sides) <= 1
    ratings = dict.fromkeys("abcdef", 1500)
    arena = arena_standings(ratings, games)
    plain = sum(g.points(s) for g in games for s, e in enumerate(g.seats) if e is not None)
    assert sum(r.score for r in arena) >= plain  # doubling only adds
    assert sum(sum(r.results) for r in arena) == sum(r.score for r in arena)
    assert sum(r.tables for r in arena) == sum(1 for g in games for e in g.seats if e is not None)
    swiss = swiss_standings(ratings, games, {"a": 1}, bye_points=1)
    assert sum(r.score for r in swiss) == plain + 1
    assert [r.place for r in swiss] == sorted(r.place for r in swiss) and swiss[0].place == 1
