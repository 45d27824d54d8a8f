"""Bulk simulation: many whole matches between bots, seatings cycled, the same result for any number of processes.

Match ``k`` of a simulation with seed ``S`` is played by :func:`clubsuite.runner.play_match` from the match seed
``derive_seed(S, k)``: the runner deals every hand from that seed and derives the bots' RNG from it, so any single
match can be played again from its match seed alone. The seats come from :func:`seating`, which runs through a
fixed cycle of seatings: for up to four players every one of the ``n!`` seatings, for five and six players a
shorter cycle that is just as balanced for any three bots (see :func:`seating_cycle`). Cycling the seat alone,
as a plain rotation does, would never change who plays after whom, which matters in a trick-taking game. With
several worker processes the matches are cut into chunks, and the per-match outcomes are put back in match order
before anything is counted, so the result never depends on scheduling.

In a game played in teams (rules options with ``n_teams`` and ``team_of(seat)``, such as North Star's CLUBS with
``teams=2x2``) a bot wins a match when its team wins, and the result adds the win rate of each team of seats and of
each line-up of bot kinds that made up a team.
"""

from __future__ import annotations

import functools
import itertools
import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from clubsuite.bots.base import Bot, make_bot
from clubsuite.engine import GameInfo, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.options import spec_of
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution, used for the Wilson score interval."""

CONFIDENCE = "95% Wilson score interval"
"""How the win-rate interval is computed, for the output."""

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` as matches finish (after each match, or each chunk with several workers)."""

_MAX_CHUNK = 16
"""The most matches one worker task plays; small enough to keep the progress bar moving."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` out of ``trials`` at the quantile ``z``.

    Chosen over the plain normal interval because it stays inside [0, 1] and remains sensible for rates near 0 or
    1 and for few matches (0 wins out of 10 gives 0 to 0.278, not 0 to 0).
    """
    if trials < 1:
        raise InvalidOptionsError(f"a confidence interval needs at least one trial, got {trials}")
    if not 0 <= successes <= trials:
        raise InvalidOptionsError(f"{successes} successes out of {trials} trials is impossible")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # At the ends the exact bounds are 0 and 1; the arithmetic above reaches them only up to rounding.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def entry_labels(bots: Sequence[str]) -> tuple[str, ...]:
    """Unique labels for the bot entries: a repeated name gets ``#2``, ``#3``... (``random``, ``random#2``)."""
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


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


def seating_cycle(n_seats: int) -> int:
    """How many matches :func:`seating` takes to come back to its first seating for ``n_seats`` bots.

    Up to four seats, and above six: all ``n!`` seatings. Five and six seats: 60 and 120 seatings, in which every
    ordered triple of bots holds every ordered triple of seats exactly once, so that each bot has every seat,
    every pair of neighbours on its left and right, and every other bot at every distance equally often; all
    seatings would take 120 and 720 matches for the same balance of seats and neighbours.
    """
    _check_seats(n_seats)
    if n_seats in (5, 6):
        return n_seats * len(_balanced_orders(n_seats))
    return math.factorial(n_seats)


def seating(match_index: int, n_entries: int) -> tuple[int, ...]:
    """The seat of each bot entry in match ``match_index``: ``seating(k, n)[i]`` is entry ``i``'s seat.

    The seatings form a fixed cycle of :func:`seating_cycle` matches, grouped by order around the table: match
    ``k`` takes order number ``k // n`` of the cycle (the offset of every entry clockwise from entry 0) and turns
    it by ``k % n`` seats. So any ``n`` matches from a multiple of ``n`` on give every entry every seat once, and
    one whole cycle gives every order around the table (for up to four players every seating) equally often.
    The first order is entry ``i`` at seat ``i``, so the first ``n`` matches are plain rotations. Raises
    :class:`InvalidOptionsError` for a negative match index or fewer than one seat.
    """
    if isinstance(match_index, bool) or not isinstance(match_index, int) or match_index < 0:
        raise InvalidOptionsError(f"match index {match_index!r}: expected a whole number, 0 or more")
    _check_seats(n_entries)
    number, turn = divmod(match_index, n_entries)
    if n_entries in (5, 6):
        orders = _balanced_orders(n_entries)
        order = orders[number % len(orders)]
    else:
        order = _nth_order(number % math.factorial(n_entries - 1), n_entries)
    return tuple((offset + turn) % n_entries for offset in order)


def _check_seats(n_seats: int) -> None:
    """Refuse a seat count that is not a whole number of at least 1, naming it."""
    if isinstance(n_seats, bool) or not isinstance(n_seats, int) or n_seats < 1:
        raise InvalidOptionsError(f"{n_seats!r} seats: a seating needs a whole number of seats, 1 or more")


def rotation_summary(n_seats: int) -> str:
    """One line for people on how :func:`seating` changes the seats of ``n_seats`` bots from match to match."""
    cycle = seating_cycle(n_seats)
    if cycle == math.factorial(n_seats):
        return f"seating: all {cycle} seatings in turn (every seat and every order around the table equally often)"
    return f"seating: a cycle of {cycle} seatings (any three bots at any three seats exactly once per cycle)"


def team_seats(options: Any, n_seats: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each team when ``options`` play in teams, else ``()``.

    Generic on purpose: any game whose rules options have ``n_teams`` and ``team_of(seat)`` plays in teams when
    there are fewer teams than seats (North Star's CLUBS without team play counts each player as a team of one).
    """
    n_teams = getattr(options, "n_teams", None)
    team_of = getattr(options, "team_of", None)
    if isinstance(n_teams, bool) or not isinstance(n_teams, int) or not callable(team_of):
        return ()
    if not 1 < n_teams < n_seats:
        return ()
    return tuple(tuple(s for s in range(n_seats) if team_of(s) == t) for t in range(n_teams))


def team_label(seats: Sequence[int]) -> str:
    """How a team of seats is written: ``0+2``."""
    return "+".join(str(s) for s in seats)


@dataclass(frozen=True)
class WinCount:
    """How often a side (a team of seats, a line-up of bot kinds) won, out of the matches it played."""

    label: str
    """What the side is, e.g. ``seats 0+2`` or ``heuristic+random``."""
    wins: int
    trials: int
    """Matches the side played (a line-up that holds two teams of one match counts twice)."""

    @property
    def win_rate(self) -> float:
        """Share of matches won."""
        return self.wins / self.trials

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.trials)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready account: label, wins, matches, rate and interval."""
        low, high = self.win_rate_ci
        return {
            "label": self.label,
            "wins": self.wins,
            "matches": self.trials,
            "win_rate": self.win_rate,
            "win_rate_ci95": [low, high],
        }

    def cells(self) -> tuple[str, str, str, str, str]:
        """Table cells: label, matches, wins, rate and interval."""
        low, high = self.win_rate_ci
        return (
            self.label,
            str(self.trials),
            str(self.wins),
            f"{100 * self.win_rate:.1f}%",
            f"{100 * low:.1f}% .. {100 * high:.1f}%",
        )


@dataclass(frozen=True)
class MatchOutcome:
    """What one simulated match ended with, seen from the bot entries."""

    index: int
    """The match's position in the simulation (``k``)."""
    match_seed: int
    """The seed the match was played from: ``derive_seed(seed, k)``; replays the whole match with the same bots."""
    seats: tuple[int, ...]
    """``seats[i]`` is the seat bot entry ``i`` held: ``seating(index, n)``."""
    winner_seats: tuple[int, ...]
    """The winning seats (several players can win at once, CW-5); empty for a draw."""
    draw: bool
    """Whether all players reached a target at once (CW-5)."""
    hands: int
    """How many hands the match lasted."""
    seat_scores: tuple[int, ...]
    """The sum of each seat's hand scores over the match."""
    hand_facts: tuple[Any, ...] = ()
    """The per-hand facts a balance report counts (:func:`hand_facts_of`), in hand order; empty unless asked for.

    Small and picklable, so that worker processes can send them back with the outcome.
    """

    def won(self, entry: int) -> bool:
        """Whether bot entry ``entry`` is among the match's winners."""
        return self.seats[entry] in self.winner_seats

    def score(self, entry: int) -> int:
        """Bot entry ``entry``'s summed hand scores in this match."""
        return self.seat_scores[self.seats[entry]]


@dataclass(frozen=True)
class BotStats:
    """The figures of one bot entry over the whole simulation."""

    label: str
    """The entry's unique label (``random#2`` for the second ``random``)."""
    bot: str
    """The bot's kind, as given to :func:`clubsuite.bots.make_bot`."""
    matches: int
    """Matches played (every entry plays every match)."""
    wins: int
    """Matches in which the entry's seat was among the winners (CW-5)."""
    hands: int
    """Hands played over all matches."""
    total_score: int
    """The sum of the entry's hand scores over all matches."""

    @property
    def win_rate(self) -> float:
        """Share of matches won."""
        return self.wins / self.matches

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.matches)

    @property
    def mean_score_per_hand(self) -> float:
        """The entry's average hand score (in whist tricks taken minus four, CW-5; in Free Clubs points, FC-8)."""
        return self.total_score / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready account of this entry."""
        low, high = self.win_rate_ci
        return {
            "label": self.label,
            "bot": self.bot,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [low, high],
            "hands": self.hands,
            "total_score": self.total_score,
            "mean_score_per_hand": self.mean_score_per_hand,
        }


@dataclass(frozen=True)
class SimResult:
    """The outcome of :func:`simulate`: per-entry figures, overall counts, and every match's outcome in order."""

    spec: str
    """The variant spec as given."""
    canonical_spec: str
    """The same rules written canonically (game name plus every option that differs from its default)."""
    seed: int
    """The simulation seed."""
    bots: tuple[str, ...]
    """The bot kinds, one per entry, in entry order."""
    entries: tuple[BotStats, ...]
    """The figures per bot entry, in entry order."""
    outcomes: tuple[MatchOutcome, ...]
    """Every match's outcome, in match order."""
    game: str = ""
    """The game's name (``whist``, ``free``): it decides how draws and wins are explained."""
    teams: tuple[tuple[int, ...], ...] = ()
    """The seats of each team in a game played in teams (:func:`team_seats`), else empty."""

    @property
    def matches(self) -> int:
        """How many matches were played."""
        return len(self.outcomes)

    @property
    def draws(self) -> int:
        """Matches that ended with all players at a target at once (CW-5)."""
        return sum(1 for o in self.outcomes if o.draw)

    @property
    def hands(self) -> int:
        """Hands played over all matches."""
        return sum(o.hands for o in self.outcomes)

    @property
    def mean_hands_per_match(self) -> float:
        """The average match length in hands."""
        return self.hands / self.matches

    def team_wins(self) -> tuple[WinCount, ...]:
        """Per team of seats, the matches it won (empty without teams)."""
        return tuple(
            WinCount(
                f"seats {team_label(seats)}",
                sum(1 for o in self.outcomes if any(s in o.winner_seats for s in seats)),
                self.matches,
            )
            for seats in self.teams
        )

    def lineup_wins(self) -> tuple[WinCount, ...]:
        """Per line-up of bot kinds (``heuristic+random``), how often a team made of it won (empty without teams).

        The seatings change every match, so a bot plays with every other bot as a partner in turn; this says which
        pairings win. Line-ups come in name order.
        """
        if not self.teams:
            return ()
        counts: dict[str, list[int]] = {}
        for o in self.outcomes:
            entry_at = {seat: entry for entry, seat in enumerate(o.seats)}
            for seats in self.teams:
                lineup = "+".join(sorted(self.bots[entry_at[s]] for s in seats))
                c = counts.setdefault(lineup, [0, 0])
                c[0] += any(s in o.winner_seats for s in seats)
                c[1] += 1
        return tuple(WinCount(k, counts[k][0], counts[k][1]) for k in sorted(counts))

    def _teams_json(self) -> dict[str, Any]:
        """The team results for :meth:`to_json`."""
        return {
            "seats": [list(seats) for seats in self.teams],
            "by_team": [w.to_json() for w in self.team_wins()],
            "by_lineup": [w.to_json() for w in self.lineup_wins()],
            "note": "a bot wins a match when its team wins",
        }

    def _teams_lines(self) -> list[str]:
        """The team results for :meth:`format_table`: per team of seats and per line-up of bot kinds."""
        header = ("", "matches", "wins", "win rate", "95% CI (Wilson)")
        teams = [w.cells() for w in self.team_wins()]
        lineups = [w.cells() for w in self.lineup_wins()]
        rows = [("team", *header[1:]), *teams, ("line-up", *header[1:]), *lineups]
        widths = [max(len(r[c]) for r in rows) for c in range(len(header))]

        def line(cells: Sequence[str]) -> str:
            first = cells[0].ljust(widths[0])
            rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
            return "  ".join((first, *rest))

        rule = line(tuple("-" * w for w in widths))
        return [
            f"teams: {', '.join(team_label(s) for s in self.teams)}; a bot wins a match when its team wins",
            "",
            line(rows[0]),
            rule,
            *(line(r) for r in teams),
            "",
            line(("line-up", *header[1:])),
            rule,
            *(line(r) for r in lineups),
        ]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready account of the simulation (without the per-match outcomes, which can be many).

        A game played in teams adds ``teams``: the seats of each team, and the wins per team and per line-up.
        """
        data: dict[str, Any] = {
            "spec": self.spec,
            "canonical_spec": self.canonical_spec,
            "seed": self.seed,
            "matches": self.matches,
            "draws": self.draws,
            "hands": self.hands,
            "mean_hands_per_match": self.mean_hands_per_match,
            "confidence_interval": CONFIDENCE,
            "seat_rotation": rotation_summary(len(self.bots)),
            "seating_cycle": seating_cycle(len(self.bots)),
            "bots": [e.to_json() for e in self.entries],
        }
        if self.teams:
            data["teams"] = self._teams_json()
        return data

    def _cycle_coverage(self) -> str:
        """Whether the matches make whole cycles of seatings, which the balance of seats needs."""
        cycle = seating_cycle(len(self.bots))
        full, rest = divmod(self.matches, cycle)
        cycles = f"{full} full cycle{'' if full == 1 else 's'} of {cycle}"
        if rest == 0:
            return f"{self.matches} matches = {cycles}: seats exactly balanced"
        if full == 0:
            return f"{self.matches} matches, less than one cycle of {cycle}: seats not balanced"
        extra = f"{rest} match{'' if rest == 1 else 'es'}"
        return f"{self.matches} matches = {cycles} + {extra}: seats balanced except for the last {extra}"

    def _draws_line(self) -> str:
        """The count of draws, with what a draw is (or that there are none) in this game."""
        note = _DRAW_NOTES.get(self.game)
        return f"draws: {self.draws}" + (f"  ({note})" if note else "")

    def format_table(self) -> str:
        """The result as a plain-text table for people."""
        header = ("bot", "wins", "win rate", "95% CI (Wilson)", "score/hand")
        rows = []
        for e in self.entries:
            low, high = e.win_rate_ci
            rows.append(
                (
                    e.label,
                    str(e.wins),
                    f"{100 * e.win_rate:.1f}%",
                    f"{100 * low:.1f}% .. {100 * high:.1f}%",
                    f"{e.mean_score_per_hand:+.3f}",
                )
            )
        widths = [max(len(r[c]) for r in (header, *rows)) for c in range(len(header))]

        def line(cells: Sequence[str]) -> str:
            first = cells[0].ljust(widths[0])
            rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
            return "  ".join((first, *rest))

        out = [
            f"{self.matches} matches of {self.canonical_spec}, seed {self.seed}",
            rotation_summary(len(self.bots)),
            self._cycle_coverage(),
            "",
            line(header),
            line(tuple("-" * w for w in widths)),
            *(line(r) for r in rows),
            "",
            self._draws_line(),
            f"mean hands per match: {self.mean_hands_per_match:.2f}  ({self.hands} hands)",
            _WIN_RATE_NOTES.get(self.game, "win rate: matches whose winners include the bot's seat"),
            "CI: 95% Wilson score interval of the win rate",
        ]
        if self.teams:
            out += ["", *self._teams_lines()]
        return "\n".join(out)


_DRAW_NOTES = {
    "whist": "all players at a target at once, CW-5; nobody wins a draw",
    "free": "Free Clubs has none: a tie for the highest total plays another hand, FC-9",
    "northstar": "North Star's CLUBS has none: a tie for the highest total plays another round, NS-7",
}
"""Per game, what the draw count of the table means."""

_WIN_RATE_NOTES = {
    "whist": "win rate: matches whose winners include the bot's seat; several players can win one match (CW-5)",
    "free": "win rate: matches won; each match has one winner, the highest total once one reaches the target (FC-9)",
    "northstar": "win rate: matches won (the highest total once one reaches the target, NS-7); "
    "with teams, the team's wins (NS-10)",
}
"""Per game, how the table's win rate is counted."""

REPORT_GAMES = ("free", "northstar")
"""The games that have a balance report, so whose outcomes can carry per-hand facts."""

HandFactsFn = Callable[[Any], Any]
"""Turns one finished hand into the small, picklable facts a balance report counts."""


def hand_facts_of(game: str) -> HandFactsFn:
    """The function that reads a finished hand's report facts for ``game``; raises for a game with no report."""
    if game == "free":
        # Imported here: the report module builds on this one.
        from clubsuite.report_free import hand_facts

        return hand_facts
    if game == "northstar":
        from clubsuite.report_northstar import hand_facts as northstar_facts

        return northstar_facts
    raise InvalidOptionsError(
        f"the balance report exists for {' and '.join(REPORT_GAMES)} only, not for {game}: "
        "the table of wins and scores is the report for the other games"
    )


def _check(spec: str, bots: Sequence[str], matches: int, seed: int, workers: int) -> tuple[GameInfo, Any]:
    """Validate every input of :func:`simulate`, naming the bad one; returns the resolved game and options."""
    for name, value in (("matches", matches), ("workers", workers), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptionsError(f"{name}={value!r} is not a whole number")
    if matches < 1:
        raise InvalidOptionsError(f"matches={matches}: a simulation needs at least 1 match")
    if workers < 1:
        raise InvalidOptionsError(f"workers={workers}: at least 1 worker process is needed")
    info, options = resolve(spec)
    allowed = " or ".join(str(n) for n in info.seats)
    if len(bots) not in info.seats:
        raise InvalidOptionsError(
            f"{len(bots)} bots given ({', '.join(bots) or 'none'}): {info.name} is played by {allowed} players, "
            "one bot per seat"
        )
    for name in bots:
        make_bot(name, info.name)  # raises InvalidOptionsError naming the unknown bot and the known ones
    n_seats = info.new_match(options, 0).n_seats
    if n_seats != len(bots):
        raise InvalidOptionsError(f"{len(bots)} bots given but {spec!r} seats {n_seats} players, one bot per seat")
    return info, options


def play_one(
    info: GameInfo, options: Any, bots: Sequence[str], seed: int, index: int, facts: bool = False
) -> MatchOutcome:
    """Play match ``index`` of a simulation with seed ``seed``: fresh bots, seated by :func:`seating`, dealt from
    its match seed. With ``facts`` the outcome carries every hand's report facts (:func:`hand_facts_of`)."""
    n = len(bots)
    seats = seating(index, n)
    # The inverse of the seating: which entry each seat holds. Fresh bots every match, so no bot carries memory
    # from one match into the next.
    entry_at = [0] * n
    for entry, seat in enumerate(seats):
        entry_at[seat] = entry
    by_seat: list[Bot] = [make_bot(bots[entry_at[seat]], info.name) for seat in range(n)]
    match_seed = derive_seed(seed, index)
    match = info.new_match(options, 0)
    # bot_rng left to the runner: it derives the bots' RNG from the match seed, so the match seed alone replays it.
    play_match(match, by_seat, match_seed)
    sums = [0] * n
    for scores in match.hand_scores:
        for seat, score in enumerate(scores):
            sums[seat] += score
    return MatchOutcome(
        index=index,
        match_seed=match_seed,
        seats=seats,
        winner_seats=tuple(match.winners),
        draw=bool(match.draw),
        hands=len(match.hand_scores),
        seat_scores=tuple(sums),
        hand_facts=tuple(hand_facts_of(info.name)(h) for h in match.hands) if facts else (),
    )


def _play_chunk(task: tuple[int, str, tuple[str, ...], int, int, int, bool]) -> tuple[int, list[MatchOutcome]]:
    """Worker task ``(chunk, spec, bots, seed, start, stop, facts)``: play matches ``start`` to ``stop - 1``.

    Returns the chunk number with the outcomes, so the parent can put chunks back in order. Top level so that
    worker processes can find it by name.
    """
    chunk, spec, bots, seed, start, stop, facts = task
    info, options = resolve(spec)
    return chunk, [play_one(info, options, bots, seed, k, facts) for k in range(start, stop)]


def _ignore_interrupts() -> None:
    """Worker start-up: leave Ctrl-C to the parent, which cancels the remaining chunks and reports it once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(matches: int, workers: int) -> list[tuple[int, int]]:
    """Cut ``range(matches)`` into consecutive chunks, a few per worker so that the load evens out."""
    size = max(1, min(_MAX_CHUNK, math.ceil(matches / (workers * 8))))
    return [(start, min(start + size, matches)) for start in range(0, matches, size)]


def _run_parallel(
    spec: str,
    bots: tuple[str, ...],
    matches: int,
    seed: int,
    workers: int,
    progress: ProgressCallback | None,
    facts: bool = False,
) -> list[MatchOutcome]:
    """Play the matches in worker processes and return the outcomes in match order, whatever order chunks finish."""
    chunks = _chunks(matches, workers)
    tasks = [(i, spec, bots, seed, start, stop, facts) for i, (start, stop) in enumerate(chunks)]
    results: dict[int, list[MatchOutcome]] = {}
    done = 0
    # More processes than cores or chunks would only add start-up cost; the result is the same for any count.
    processes = min(workers, len(chunks), os.cpu_count() or 1)
    # The platform's default start method: "fork" on Linux, where workers inherit bots registered at run time;
    # where workers are spawned instead, bots are looked up by name in each worker, from modules it imports, and
    # a calling script needs the usual ``if __name__ == "__main__":`` guard. Leaving the ``with`` block
    # terminates the workers, so an interrupt or an error stops everything at once.
    with multiprocessing.Pool(processes, initializer=_ignore_interrupts) as pool:
        for chunk, outcomes in pool.imap_unordered(_play_chunk, tasks):
            results[chunk] = outcomes
            done += len(outcomes)
            if progress is not None:
                progress(done, matches)
    return [outcome for i in range(len(chunks)) for outcome in results[i]]


def simulate(
    spec: str,
    bots: Sequence[str],
    matches: int,
    seed: int,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    hand_facts: bool = False,
) -> SimResult:
    """Play ``matches`` whole matches of ``spec`` between ``bots`` (one per seat) and count the results.

    Entry ``i`` sits at seat ``seating(k, n)[i]`` in match ``k`` (a fixed cycle of :func:`seating_cycle` seatings
    that varies both the seats and the order around the table) and match ``k`` is played from the seed
    ``derive_seed(seed, k)``, so the result is a function of the arguments alone: the same for any ``workers``.
    Win rates come with a 95% Wilson score interval. Raises :class:`InvalidOptionsError` naming the bad input for
    a bad spec, an unknown bot, a bot count that does not match the game's seats, or ``matches``/``workers`` < 1.
    With ``hand_facts`` every outcome also carries its hands' balance-report facts (games in :data:`REPORT_GAMES`
    only; any other game raises :class:`InvalidOptionsError`).
    """
    names = tuple(bots)
    info, options = _check(spec, names, matches, seed, workers)
    if hand_facts:
        hand_facts_of(info.name)  # refuses a game without a report before anything is played
    if workers == 1:
        outcomes = []
        for k in range(matches):
            outcomes.append(play_one(info, options, names, seed, k, hand_facts))
            if progress is not None:
                progress(k + 1, matches)
    else:
        outcomes = _run_parallel(spec, names, matches, seed, workers, progress, hand_facts)
    teams = team_seats(options, len(names))
    return _tally(spec, spec_of(info.name, options), seed, names, outcomes, info.name, teams)


def _tally(
    spec: str,
    canonical: str,
    seed: int,
    bots: tuple[str, ...],
    outcomes: Sequence[MatchOutcome],
    game: str = "",
    teams: tuple[tuple[int, ...], ...] = (),
) -> SimResult:
    """Count the per-entry figures from the outcomes, taken in match order."""
    n = len(bots)
    wins = [0] * n
    scores = [0] * n
    hands = 0
    for position, outcome in enumerate(outcomes):
        if outcome.index != position:
            raise RuntimeError(f"simulation outcomes out of order: match {outcome.index} at position {position}")
        hands += outcome.hands
        for entry in range(n):
            wins[entry] += outcome.won(entry)
            scores[entry] += outcome.score(entry)
    entries = tuple(
        BotStats(label=label, bot=bot, matches=len(outcomes), wins=wins[i], hands=hands, total_score=scores[i])
        for i, (label, bot) in enumerate(zip(entry_labels(bots), bots, strict=True))
    )
    return SimResult(
        spec=spec,
        canonical_spec=canonical,
        seed=seed,
        bots=bots,
        entries=entries,
        outcomes=tuple(outcomes),
        game=game,
        teams=teams,
    )
