"""Seatings for simulation: which seat each bot entry takes in each match, in a fixed, balanced cycle.

In a trick-taking game it matters who plays after whom, so turning the bots one seat per match is not enough: the
cycle also changes the order round the table. Up to four bots (and above six) it holds every seating; for five and
six bots a shorter cycle that puts any three bots at any three seats exactly once; in a game of fixed partnerships
every seating that keeps partners together.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

from clubsuite.errors import InvalidOptionsError


@functools.cache
def _balanced_orders(n_seats: int) -> tuple[tuple[int, ...], ...]:
    """The orders around the table used for five or six seats, each as the offset of every entry from entry 0.

    Five seats: the even permutations (the alternating group), six seats: the maps ``x -> (ax + b) / (cx + d)``
    of the projective line over the integers mod 5, relabelled so that one of its 6-cycles is the move to the next
    seat. Both sets of seatings contain the rotations and put every ordered triple of entries on every ordered
    triple of seats exactly once, with ``n (n - 1) (n - 2)`` seatings, the fewest that can do so; the orders are
    the seatings that put entry 0 at seat 0, sorted.
    """
    if n_seats == 5:
        seatings = {p for p in itertools.permutations(range(5)) if _is_even(p)}
    elif n_seats == 6:
        seatings = _projective_line_seatings()
    else:
        raise ValueError(f"no balanced set of orders is defined for {n_seats} seats")
    return tuple(sorted(p for p in seatings if p[0] == 0))


def _is_even(perm: Sequence[int]) -> bool:
    """Whether the permutation ``perm`` (of ``0..n-1``) has an even number of inversions."""
    inversions = sum(1 for i, j in itertools.combinations(range(len(perm)), 2) if perm[i] > perm[j])
    return inversions % 2 == 0


def _projective_line_seatings() -> set[tuple[int, ...]]:
    """The 120 seatings of six entries given by the invertible maps ``x -> (ax + b) / (cx + d)`` mod 5.

    The six points are the residues 0 to 4 and infinity (written 5). One of the maps cycles all six points; the
    points are renumbered along that cycle (point 0 first) so that it becomes the move to the next seat, and then
    both entries and seats are numbered by point: the seating of a map sends entry ``i`` to the seat of its image.
    """
    infinity = 5

    def image(a: int, b: int, c: int, d: int, x: int) -> int:
        """Where ``(ax + b) / (cx + d)`` sends the point ``x`` of the projective line mod 5."""
        numerator, denominator = (a, c) if x == infinity else ((a * x + b) % 5, (c * x + d) % 5)
        return infinity if denominator == 0 else numerator * pow(denominator, -1, 5) % 5

    maps = {
        tuple(image(a, b, c, d, x) for x in range(6))
        for a, b, c, d in itertools.product(range(5), repeat=4)
        if (a * d - b * c) % 5
    }
    step = min(m for m in maps if _cycle_length(m, 0) == 6)
    seat_of = [0] * 6
    point = 0
    for seat in range(6):
        seat_of[point] = seat
        point = step[point]
    point_at = sorted(range(6), key=lambda p: seat_of[p])
    return {tuple(seat_of[m[point_at[entry]]] for entry in range(6)) for m in maps}


def _cycle_length(perm: Sequence[int], start: int) -> int:
    """How many steps of ``perm`` bring ``start`` back to itself."""
    steps, point = 1, perm[start]
    while point != start:
        steps, point = steps + 1, perm[point]
    return steps


def _nth_order(rank: int, n_seats: int) -> tuple[int, ...]:
    """The ``rank``-th (from 0) order of ``n_seats`` entries with entry 0 at offset 0, in lexicographic order.

    Computed directly (factorial number system) so that large tables never list all ``(n - 1)!`` orders.
    """
    rest = list(range(1, n_seats))
    order = [0]
    for left in range(n_seats - 1, 0, -1):
        position, rank = divmod(rank, math.factorial(left - 1))
        order.append(rest.pop(position))
    return tuple(order)


Teams = tuple[tuple[int, ...], ...]
"""Fixed partnerships as seat tuples (``((0, 2), (1, 3))``); empty when everyone plays alone."""


@functools.cache
def _team_orders(n_seats: int, teams: Teams) -> tuple[tuple[int, ...], ...]:
    """The orders around the table that keep every team together, entry 0 at offset 0, sorted.

    Entry ``i`` belongs to the team of seat ``i`` (the first seating); an order keeps the teams together when the
    entries of each team land on the seats of one team. The teams must be unchanged by a turn of the table (as
    partners sitting opposite or alternately are), so that every turn of such an order keeps them together too.
    """
    groups = {frozenset(team) for team in teams}
    if sorted(seat for team in teams for seat in team) != list(range(n_seats)):
        raise InvalidOptionsError(f"teams {teams} do not split the {n_seats} seats into partnerships")
    if {frozenset((seat + 1) % n_seats for seat in team) for team in teams} != groups:
        raise InvalidOptionsError(f"teams {teams} change when the table turns: seatings cannot keep them together")
    return tuple(
        p
        for p in itertools.permutations(range(n_seats))
        if p[0] == 0 and {frozenset(p[i] for i in team) for team in teams} == groups
    )


def seating_cycle(n_seats: int, teams: Teams = ()) -> int:
    """How many matches :func:`seating` takes to come back to its first seating for ``n_seats`` bots.

    Up to four seats, and above six: all ``n!`` seatings. Five and six seats: 60 and 120 seatings, in which every
    ordered triple of bots holds every ordered triple of seats exactly once, so that each bot has every seat,
    every pair of neighbours on its left and right, and every other bot at every distance equally often; all
    seatings would take 120 and 720 matches for the same balance of seats and neighbours. With ``teams``, every
    seating that keeps the partners together: 8 for two partnerships of two (every bot in every seat, and each
    partnership's bots in both orders round the table).
    """
    _check_seats(n_seats)
    if teams:
        return n_seats * len(_team_orders(n_seats, teams))
    if n_seats in (5, 6):
        return n_seats * len(_balanced_orders(n_seats))
    return math.factorial(n_seats)


def seating(match_index: int, n_entries: int, teams: Teams = ()) -> tuple[int, ...]:
    """The seat of each bot entry in match ``match_index``: ``seating(k, n)[i]`` is entry ``i``'s seat.

    The seatings form a fixed cycle of :func:`seating_cycle` matches, grouped by order around the table: match
    ``k`` takes order number ``k // n`` of the cycle (the offset of every entry clockwise from entry 0) and turns
    it by ``k % n`` seats. So any ``n`` matches from a multiple of ``n`` on give every entry every seat once, and
    one whole cycle gives every order around the table (for up to four players every seating) equally often.
    The first order is entry ``i`` at seat ``i``, so the first ``n`` matches are plain rotations. Raises
    :class:`InvalidOptionsError` for a negative match index or fewer than one seat. With ``teams`` (seat tuples:
    entry ``i`` plays for the team of seat ``i``) only the orders that keep every team together are used.
    """
    if isinstance(match_index, bool) or not isinstance(match_index, int) or match_index < 0:
        raise InvalidOptionsError(f"match index {match_index!r}: expected a whole number, 0 or more")
    _check_seats(n_entries)
    number, turn = divmod(match_index, n_entries)
    if teams:
        orders = _team_orders(n_entries, teams)
        order = orders[number % len(orders)]
    elif n_entries in (5, 6):
        orders = _balanced_orders(n_entries)
        order = orders[number % len(orders)]
    else:
        order = _nth_order(number % math.factorial(n_entries - 1), n_entries)
    return tuple((offset + turn) % n_entries for offset in order)


def _check_seats(n_seats: int) -> None:
    """Refuse a seat count that is not a whole number of at least 1, naming it."""
    if isinstance(n_seats, bool) or not isinstance(n_seats, int) or n_seats < 1:
        raise InvalidOptionsError(f"{n_seats!r} seats: a seating needs a whole number of seats, 1 or more")


def rotation_summary(n_seats: int, teams: Teams = ()) -> str:
    """One line for people on how :func:`seating` changes the seats of ``n_seats`` bots from match to match."""
    cycle = seating_cycle(n_seats, teams)
    if teams:
        return (
            f"seating: all {cycle} seatings that keep partners together in turn (every seat and both orders of "
            "each partnership round the table equally often)"
        )
    if cycle == math.factorial(n_seats):
        return f"seating: all {cycle} seatings in turn (every seat and every order around the table equally often)"
    return f"seating: a cycle of {cycle} seatings (any three bots at any three seats exactly once per cycle)"
