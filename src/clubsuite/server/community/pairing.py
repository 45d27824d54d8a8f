"""Who sits with whom in a tournament: the arena's tables made as players come free, and a Swiss round's tables.

Pure computation over entrant ids, ratings and scores: no database, no clock of its own (the time is an argument), so
that every rule here is tested alone (``tests/server/test_tournament_pairing.py``, exact cases and Hypothesis
invariants) and the tournament only carries out what it returns.

**Arena** (:func:`arena_tables`): whoever is free is seated again at once. Of the people waiting, the ones who have
waited longest fill as many whole tables as they can (so that nobody is passed over by later arrivals); those are
grouped by rating, strongest first, so that people of like strength meet. When a group would be the very table a
member has just left, one member is swapped with the next group where that helps. Those left over (fewer than a
table) wait for the next pairing; where the tournament allows bots, someone who has waited ``bots_after`` seconds is
seated with the others left over and bots in the empty seats.

**Swiss** (:func:`swiss_round`): everyone plays every round. Entrants are ranked by score, then rating; tables are
made from the top of that order, each from the highest-ranked person not yet seated and the next ones below who have
met none of the table's people before (a depth-first search over that order, bounded in steps, and in depth to
:data:`SEARCH_PEOPLE` entrants: the first pairing it finds keeps tables as close in score as it can). When no
such pairing exists, or the search runs out of steps, a
greedy pairing takes at each seat the candidate who has met the table's people the fewest times, never completing a
table that sat together before where another candidate avoids it. A number of entrants that does not fill whole
tables leaves the lowest-ranked over: with bots allowed they sit at one last table with bots; without, they have a
*bye* this round (those with the fewest byes so far, the lowest-ranked first), which :mod:`.standings` scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

_Times = Callable[[str, str], int]
"""How many tables two entrants have shared."""

SEARCH_PEOPLE = 240
"""Entrants the depth-first search pairs at most (its depth grows with the tables): more go to the greedy pairing."""
SEARCH_STEPS = 20_000
"""Candidates the Swiss search looks at before it settles for the greedy pairing (a bound on its cost)."""


@dataclass(frozen=True)
class Waiting:
    """Someone free to be seated in an arena."""

    id: str
    rating: int
    since: float
    """When they came free (joined, or their last table ended)."""
    last: frozenset[str] = frozenset()
    """The people of the table they have just left (themselves included), or nothing."""


@dataclass(frozen=True)
class Ranked:
    """An entrant of a Swiss tournament as a round is paired."""

    id: str
    rating: int
    score: float = 0.0


@dataclass
class Pairing:
    """What a pairing came to: the tables (entrant ids by seat; ``None`` for a bot's seat), and who is left: still
    waiting in an arena, or with a bye in a Swiss round."""

    tables: list[tuple[str | None, ...]] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


def arena_tables(
    waiting: Sequence[Waiting],
    seats: int,
    now: float,
    bots_after: float | None = None,
    apart: frozenset[frozenset[str]] = frozenset(),
) -> Pairing:
    """Seat the arena's free people (see the module): whole tables of the longest waiting, grouped by rating; those
    left over wait, or (``bots_after`` set) sit with bots once the longest of them has waited that long. Two people
    of a pair in ``apart`` (one blocked the other) never sit at one table: one is swapped with someone of another
    table where that keeps every table clear, or else waits (and a bot takes the seat where the arena has bots,
    or the table's others wait too)."""
    _check_seats(seats)
    _check_unique([w.id for w in waiting])
    by_wait = sorted(waiting, key=lambda w: (w.since, -w.rating, w.id))
    whole = len(by_wait) // seats * seats
    chosen = sorted(by_wait[:whole], key=lambda w: (-w.rating, w.id))
    rest = by_wait[whole:]
    groups = [chosen[i : i + seats] for i in range(0, whole, seats)]
    for i in range(len(groups)):
        if _just_met(groups[i]) and len(groups) > 1:
            _swap_apart(groups, i if i + 1 < len(groups) else i - 1)
    held: list[Waiting] = []
    tables: list[list[Waiting | None]] = [list(g) for g in groups]
    if apart:
        tables, held = _kept_apart(groups, apart, bots_after is not None)
    out = Pairing([tuple(w.id if w is not None else None for w in g) for g in tables])
    if rest and bots_after is not None and now - rest[0].since >= bots_after:
        table: list[Waiting] = []
        for w in rest:  # those left over sit with bots, none with someone kept apart from them
            if _clashes([*table, w], apart):
                held.append(w)
            else:
                table.append(w)
        out.tables.append((*(w.id for w in table), *([None] * (seats - len(table)))))
    else:
        held.extend(rest)
    out.left = [w.id for w in sorted(held, key=lambda w: (w.since, -w.rating, w.id))]
    return out


def _clashes(group: Sequence[Waiting | None], apart: frozenset[frozenset[str]]) -> bool:
    ids = [w.id for w in group if w is not None]
    return any(frozenset((a, b)) in apart for i, a in enumerate(ids) for b in ids[i + 1 :])


def _kept_apart(
    groups: list[list[Waiting]], apart: frozenset[frozenset[str]], bots: bool
) -> tuple[list[list[Waiting | None]], list[Waiting]]:
    """The groups with no pair of ``apart`` at one table: a member of a clashing pair swapped with a member of
    another group where both groups are clear after it, or else taken out to wait (its seat a bot's where there are
    bots; without, the rest of its table waits too). Returns the groups and those who wait."""
    out: list[list[Waiting | None]] = [list(g) for g in groups]
    held: list[Waiting] = []
    for i, group in enumerate(out):
        while _clashes(group, apart):
            ids = [w for w in group if w is not None]
            pair = next((a, b) for k, a in enumerate(ids) for b in ids[k + 1 :] if frozenset((a.id, b.id)) in apart)
            mover = max(pair, key=lambda w: (w.since, w.id))  # the one who came free last moves
            swapped = False
            for j, other in enumerate(out):
                if j == i:
                    continue
                for candidate in other:
                    if candidate is None:
                        continue
                    mine = [candidate if w is mover else w for w in group]
                    theirs = [mover if w is candidate else w for w in other]
                    if not _clashes(mine, apart) and not _clashes(theirs, apart):
                        out[i], out[j] = group, other = mine, theirs
                        swapped = True
                        break
                if swapped:
                    break
            if swapped:
                continue
            held.append(mover)
            group[group.index(mover)] = None
            out[i] = group
    kept: list[list[Waiting | None]] = []
    for group in out:
        if None in group and not bots:
            held.extend(w for w in group if w is not None)
        elif any(w is not None for w in group):
            kept.append(group)
    return kept, held


def _just_met(group: Sequence[Waiting]) -> bool:
    """Whether a group is exactly the table one of its members has just left."""
    ids = frozenset(w.id for w in group)
    return any(w.last == ids for w in group)


def _swap_apart(groups: list[list[Waiting]], i: int) -> None:
    """Swap the weakest of group ``i`` with the strongest of group ``i + 1`` when that leaves neither group the
    table one of its members has just left."""
    a, b = groups[i], groups[i + 1]
    new_a, new_b = [*a[:-1], b[0]], [a[-1], *b[1:]]
    if not _just_met(new_a) and not _just_met(new_b):
        groups[i], groups[i + 1] = new_a, new_b


def swiss_round(
    entrants: Sequence[Ranked],
    seats: int,
    met: Mapping[str, Mapping[str, int]],
    byes: Mapping[str, int],
    tables_before: frozenset[frozenset[str]] = frozenset(),
    bots: bool = False,
    steps: int = SEARCH_STEPS,
) -> Pairing:
    """One Swiss round (see the module): ``met[a][b]`` is how many tables ``a`` and ``b`` have shared, ``byes[a]``
    how many byes ``a`` has had, ``tables_before`` the sets of entrants that have sat together at one table."""
    _check_seats(seats)
    _check_unique([e.id for e in entrants])
    order = [e.id for e in sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))]
    over = len(order) % seats
    left: list[str] = []
    if over and not bots:
        rank = {e: i for i, e in enumerate(order)}
        left = sorted(order, key=lambda e: (byes.get(e, 0), -rank[e]))[:over]
        order = [e for e in order if e not in set(left)]
        over = 0
    tail = order[len(order) - over :] if over else []
    paired = order[: len(order) - over]

    def times(a: str, b: str) -> int:
        return met.get(a, {}).get(b, 0)

    tables = _search(paired, seats, times, steps) if len(paired) <= SEARCH_PEOPLE else None
    if tables is None:
        tables = _greedy(paired, seats, times, tables_before)
    out: list[tuple[str | None, ...]] = [tuple(t) for t in tables]
    if tail:
        out.append((*tail, *([None] * (seats - len(tail)))))
    rank_of = {e: i for i, e in enumerate(order)}
    return Pairing(out, sorted(left, key=lambda e: rank_of.get(e, 0)))


class _OutOfStepsError(Exception):
    """The search looked at its share of candidates."""


def _search(order: list[str], seats: int, times: _Times, steps: int) -> list[list[str]] | None:
    """Tables of ``seats`` from ``order`` in which nobody has met anyone before, the first in the search's order (the
    top of the order together), or None (there is none, or the search ran out of ``steps``)."""
    budget = [steps]

    def fill(rest: list[str]) -> list[list[str]] | None:
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        return extend(rest, [head], others, 0)

    def extend(rest: list[str], table: list[str], others: list[str], start: int) -> list[list[str]] | None:
        if len(table) == seats:
            taken = set(table)
            below = fill([p for p in rest if p not in taken])
            return None if below is None else [table, *below]
        for i in range(start, len(others)):
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfStepsError
            candidate = others[i]
            if any(times(candidate, t) for t in table):
                continue
            found = extend(rest, [*table, candidate], others, i + 1)
            if found is not None:
                return found
        return None

    try:
        return fill(order)
    except _OutOfStepsError:
        return None


def _greedy(order: list[str], seats: int, times: _Times, before: frozenset[frozenset[str]]) -> list[list[str]]:
    """Tables from the top of ``order``, each seat taking the candidate who has met the table's people the fewest
    times (the higher-ranked on equal counts), never completing a table that sat together before while another
    candidate would not."""
    rest = list(order)
    tables: list[list[str]] = []
    while rest:
        table = [rest.pop(0)]
        while len(table) < seats:
            last = len(table) == seats - 1

            def cost(c: str, table: list[str] = table, last: bool = last) -> tuple[int, int]:
                repeat = last and frozenset([*table, c]) in before
                return (int(repeat), sum(times(c, t) for t in table))

            best = min(range(len(rest)), key=lambda i: (cost(rest[i]), i))
            table.append(rest.pop(best))
        tables.append(table)
    return tables


def _check_seats(seats: int) -> None:
    if type(seats) is not int or seats < 2:
        raise ValueError(f"a table of a tournament has at least two seats, not {seats!r}")


def _check_unique(ids: list[str]) -> None:
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
