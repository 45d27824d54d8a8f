"""A tournament's points and standings: what a finished table is worth to each entrant, the arena's streaks, the
Swiss tie-breaks, and the order they make.

Pure computation, like :mod:`.pairing`: the tournament reads each finished table's places from the store and hands
them here.

**Points by finishing place**, in the game's own terms: a table's *sides* are its seats, or its partnerships where
the game has them (partners share a place: :func:`clubsuite.ratings.finishing_ranks`). A side scores
2 points for every side that finished below it and 1 for every other side that finished level with it, so a table
of ``S`` sides hands out ``S * (S - 1)`` points to its sides in all, whatever happened; at two sides this is the
familiar 2 for a win, 1 for a draw, 0 for a loss. Partners each receive their side's points. A bot's seat scores for
nobody, but beating it counts. A *win* is what the table said: a seat its match named among the winners (where a
game's rules let two players win one match, both count a win); a table kept without its
winners counts a first place alone.

**Arena**: points as above, doubled while a player is *on fire*: after two wins in a row, every table is worth double
until one is not a win (the streak follows the order the tables ended in). Standings: points, then *performance*
(points per table before doubling), then rating; equal points and performance share a place.

**Swiss**: points as above; a bye is worth ``S - 1`` (half of a table's best, as a draw is worth half a win).
Tie-breaks, in order: *Buchholz* (over each table played, the mean final score of the other entrants at it:
who you met, how strong their tournament was; a table of bots only adds nothing), then wins, then rating. Equal
points, Buchholz and wins share a place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Played:
    """One finished table of a tournament."""

    seats: tuple[str | None, ...]
    """The entrant at each seat (``None``: a bot's seat)."""
    places: tuple[int, ...]
    """Each seat's finishing place, 1 the best; tied sides share a place, partners always do."""
    teams: tuple[tuple[int, ...], ...] = ()
    """The game's partnerships as seat tuples (a seat in none is a side alone)."""
    round: int = 0
    """The Swiss round it was played in (0 in an arena)."""
    winners: tuple[int, ...] | None = None
    """The seats the table named as winners (None: not known, a first place alone counts as the win)."""

    def __post_init__(self) -> None:
        if len(self.places) != len(self.seats):
            raise ValueError(f"{len(self.places)} places for {len(self.seats)} seats")
        for side in self.sides():
            if len({self.places[s] for s in side}) != 1:
                raise ValueError(f"partners {list(side)} must share a place, not {[self.places[s] for s in side]}")

    def sides(self) -> list[tuple[int, ...]]:
        """The table's sides: each team, and each seat in no team alone."""
        teamed = {s for team in self.teams for s in team}
        return [tuple(t) for t in self.teams] + [(s,) for s in range(len(self.seats)) if s not in teamed]

    def points(self, seat: int) -> int:
        """What ``seat``'s side scored (see the module): 2 per side below it, 1 per other side level with it."""
        mine = self.places[seat]
        own = next(side for side in self.sides() if seat in side)
        others = [self.places[side[0]] for side in self.sides() if side != own]
        return sum(2 if mine < theirs else 1 if mine == theirs else 0 for theirs in others)

    def won(self, seat: int) -> bool:
        """Whether ``seat``'s side won: named among the table's winners, as its page said (where they are not known,
        finished first alone)."""
        if self.winners is not None:
            return seat in self.winners
        own = next(side for side in self.sides() if seat in side)
        return all(self.places[seat] < self.places[side[0]] for side in self.sides() if side != own)

    def most(self) -> int:
        """The most a side can score at this table: 2 per other side."""
        return 2 * (len(self.sides()) - 1)


@dataclass
class Row:
    """An entrant's line in the standings."""

    entrant: str
    rating: int
    score: float = 0.0
    tables: int = 0
    wins: int = 0
    place: int = 0
    performance: float = 0.0
    """Arena: points per table before doubling."""
    fire: bool = False
    """Arena: on a streak of two wins or more (the next table counts double)."""
    buchholz: float = 0.0
    """Swiss: the mean final scores of the entrants met, summed over the tables."""
    byes: int = 0
    results: list[int] = field(default_factory=list)
    """Points of each table in order (doubled ones as counted), for the page's line of results."""


def _entrant_tables(games: Sequence[Played]) -> dict[str, list[tuple[Played, int]]]:
    mine: dict[str, list[tuple[Played, int]]] = {}
    for game in games:
        for seat, entrant in enumerate(game.seats):
            if entrant is not None:
                mine.setdefault(entrant, []).append((game, seat))
    return mine


def arena_standings(ratings: Mapping[str, int], games: Sequence[Played]) -> list[Row]:
    """The arena's standings (see the module) of the entrants rated in ``ratings``, from ``games`` in the order they
    ended."""
    rows = {e: Row(e, r) for e, r in ratings.items()}
    raw: dict[str, int] = dict.fromkeys(ratings, 0)
    for entrant, played in _entrant_tables(games).items():
        row = rows[entrant]
        streak = 0
        for game, seat in played:
            points = game.points(seat)
            counted = points * 2 if streak >= 2 else points
            streak = streak + 1 if game.won(seat) else 0
            row.score += counted
            row.tables += 1
            row.wins += game.won(seat)
            row.results.append(counted)
            raw[entrant] += points
        row.fire = streak >= 2
    for e, row in rows.items():
        row.performance = round(raw[e] / row.tables, 4) if row.tables else 0.0
    return _placed(list(rows.values()), lambda r: (r.score, r.performance))


def swiss_standings(
    ratings: Mapping[str, int], games: Sequence[Played], byes: Mapping[str, int], bye_points: int
) -> list[Row]:
    """The Swiss standings (see the module): ``byes[e]`` is how many byes ``e`` had, each worth ``bye_points``."""
    rows = {e: Row(e, r) for e, r in ratings.items()}
    played = _entrant_tables(games)
    for entrant, tables in played.items():
        row = rows[entrant]
        for game, seat in tables:
            points = game.points(seat)
            row.score += points
            row.tables += 1
            row.wins += game.won(seat)
            row.results.append(points)
    for e, count in byes.items():
        rows[e].byes = count
        rows[e].score += count * bye_points
    for entrant, tables in played.items():
        total = 0.0
        for game, seat in tables:
            others = [rows[o].score for s, o in enumerate(game.seats) if o is not None and s != seat]
            if others:
                total += sum(others) / len(others)
        rows[entrant].buchholz = round(total, 4)
    return _placed(list(rows.values()), lambda r: (r.score, r.buchholz, r.wins))


def _placed(rows: list[Row], key: Callable[[Row], tuple[float, ...]]) -> list[Row]:
    """``rows`` best first by ``key`` (then rating, then id, which only order them); equal keys share a place."""
    rows.sort(key=lambda r: (tuple(-k for k in key(r)), -r.rating, r.entrant))
    for i, row in enumerate(rows):
        row.place = rows[i - 1].place if i and key(rows[i - 1]) == key(row) else i + 1
    return rows
