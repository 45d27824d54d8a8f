"""Bulk simulation: many whole matches between bots, seatings cycled, the same result for any number of processes.

Match ``k`` of a simulation with seed ``S`` is played by :func:`clubsuite.runner.play_match` from the match seed
``derive_seed(S, k)``: the runner deals every hand from that seed and derives the bots' RNG from it, so any single
match can be played again from its match seed alone. The seats come from :func:`clubsuite.seating.seating`, a
fixed cycle of seatings that changes who plays after whom as well as who sits where (see :mod:`clubsuite.seating`).
With several worker processes the matches are cut into chunks, and the per-match outcomes are put back in match
order before anything is counted, so the result never depends on scheduling.

Teams are counted in two ways. In a game of fixed partnerships (the game declares its teams, such as the
partnership game) the seatings keep partners together and the result is also counted per partnership. In a game
whose rules options may make teams (options with ``n_teams`` and ``team_of(seat)``, such as North Star's CLUBS with
``teams=2x2``) every seating is used, a bot wins a match when its team wins, and the result adds the win rate of
each team of seats and of each line-up of bot kinds that made up a team.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from clubsuite.bots.base import Bot, make_bot
from clubsuite.engine import GameInfo, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.options import spec_of
from clubsuite.runner import play_match
from clubsuite.safetext import quoted
from clubsuite.seating import Teams, rotation_summary, seating, seating_cycle
from clubsuite.seeding import derive_seed

__all__ = [
    "CONFIDENCE",
    "BotStats",
    "MatchOutcome",
    "SimResult",
    "TeamStats",
    "Teams",
    "entry_labels",
    "play_one",
    "rotation_summary",
    "seating",
    "seating_cycle",
    "simulate",
    "team_lineup",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution, used for the Wilson score interval."""

CONFIDENCE = "95% Wilson score interval"
"""How the win-rate interval is computed, for the output."""

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` as matches finish (after each match, or each chunk with several workers)."""

MAX_MATCHES = 1_000_000
"""The most matches one simulation plays: a million outcomes are kept for the tally and the reports (a few hundred
MB), and a million matches already give win rates to within a tenth of a percentage point."""
MAX_WORKERS = 1024
"""The most worker processes asked for (the pool never starts more than there are cores anyway)."""

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


class _Rated:
    """The win rate of a record of ``wins`` out of ``matches`` (what every table row of a simulation shows)."""

    wins: int
    matches: int

    @property
    def win_rate(self) -> float:
        """Share of matches won."""
        return self.wins / self.matches

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.matches)


class _Scored(_Rated):
    """A :class:`_Rated` record that also sums the scores of its ``hands``."""

    hands: int
    total_score: int

    @property
    def mean_score_per_hand(self) -> float:
        """The average score per hand (whist: tricks minus four, CW-5; Free Clubs and CLUBS: points; partnership:
        the partnership's points, CP-3)."""
        return self.total_score / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class WinCount(_Rated):
    """How often a side (a team of seats, a line-up of bot kinds) won, out of the matches it played."""

    label: str
    """What the side is, e.g. ``seats 0+2`` or ``heuristic+random``."""
    wins: int
    matches: int
    """Matches the side played (a line-up that holds two teams of one match counts twice)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready account: label, wins, matches, rate and interval."""
        low, high = self.win_rate_ci
        return {
            "label": self.label,
            "wins": self.wins,
            "matches": self.matches,
            "win_rate": self.win_rate,
            "win_rate_ci95": [low, high],
        }

    def cells(self) -> tuple[str, str, str, str, str]:
        """Table cells: label, matches, wins, rate and interval."""
        low, high = self.win_rate_ci
        return (
            self.label,
            str(self.matches),
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
class BotStats(_Scored):
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
class TeamStats(_Scored):
    """The figures of one team of bot entries (a partnership) over the whole simulation."""

    label: str
    """The team's label: its bots' names joined with ``+`` (``heuristic+heuristic``), made unique with ``#2``."""
    entries: tuple[int, ...]
    """The bot entries of the team."""
    bots: tuple[str, ...]
    """Their kinds, in entry order."""
    matches: int
    """Matches played."""
    wins: int
    """Matches the team won."""
    hands: int
    """Hands played over all matches."""
    total_score: int
    """The sum of the team's hand scores (a partnership's points, CP-3) over all matches."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready account of this team."""
        low, high = self.win_rate_ci
        return {
            "label": self.label,
            "entries": list(self.entries),
            "bots": list(self.bots),
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
    teams: Teams = ()
    """For a game of fixed partnerships, the bot entries of each team (entry ``i`` sits at seat ``i`` in match 0,
    so these are the game's seat teams); empty otherwise."""
    seat_teams: tuple[tuple[int, ...], ...] = ()
    """The seats of each team in a game whose rules options make teams (:func:`team_seats`), else empty."""

    @property
    def team_stats(self) -> tuple[TeamStats, ...]:
        """The figures per team (empty for a game without teams): a team wins when its seats are the winners."""
        labels = entry_labels(["+".join(self.bots[i] for i in team) for team in self.teams])
        out = []
        for label, team in zip(labels, self.teams, strict=True):
            first = self.entries[team[0]]
            out.append(
                TeamStats(
                    label=label,
                    entries=team,
                    bots=tuple(self.bots[i] for i in team),
                    matches=first.matches,
                    wins=first.wins,
                    hands=first.hands,
                    total_score=first.total_score,
                )
            )
        return tuple(out)

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
            for seats in self.seat_teams
        )

    def lineup_wins(self) -> tuple[WinCount, ...]:
        """Per line-up of bot kinds (``heuristic+random``), how often a team made of it won (empty without teams).

        The seatings change every match, so a bot plays with every other bot as a partner in turn; this says which
        pairings win. Line-ups come in name order.
        """
        if not self.seat_teams:
            return ()
        counts: dict[str, list[int]] = {}
        for o in self.outcomes:
            entry_at = {seat: entry for entry, seat in enumerate(o.seats)}
            for seats in self.seat_teams:
                lineup = "+".join(sorted(self.bots[entry_at[s]] for s in seats))
                c = counts.setdefault(lineup, [0, 0])
                c[0] += any(s in o.winner_seats for s in seats)
                c[1] += 1
        return tuple(WinCount(k, counts[k][0], counts[k][1]) for k in sorted(counts))

    def _teams_json(self) -> dict[str, Any]:
        """The team results for :meth:`to_json`."""
        return {
            "seats": [list(seats) for seats in self.seat_teams],
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
            f"teams: {', '.join(team_label(s) for s in self.seat_teams)}; a bot wins a match when its team wins",
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

        A game of fixed partnerships adds ``teams``: each partnership's figures. A game whose options make teams adds
        ``teams``: the seats of each team, and the wins per team and per line-up.
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
            "seat_rotation": rotation_summary(len(self.bots), self.teams),
            "seating_cycle": seating_cycle(len(self.bots), self.teams),
            "bots": [e.to_json() for e in self.entries],
            **({"teams": [t.to_json() for t in self.team_stats]} if self.teams else {}),
        }
        if self.seat_teams:
            data["teams"] = self._teams_json()
        return data

    def _cycle_coverage(self) -> str:
        """Whether the matches make whole cycles of seatings, which the balance of seats needs."""
        cycle = seating_cycle(len(self.bots), self.teams)
        full, rest = divmod(self.matches, cycle)
        cycles = f"{full} full cycle{'' if full == 1 else 's'} of {cycle}"
        if rest == 0:
            return f"{self.matches} matches = {cycles}: seats exactly balanced"
        if full == 0:
            return f"{self.matches} matches, less than one cycle of {cycle}: seats not balanced"
        extra = f"{rest} match{'' if rest == 1 else 'es'}"
        return f"{self.matches} matches = {cycles} + {extra}: seats balanced except for the last {extra}"

    def _members_lines(self) -> list[str]:
        """For a game of teams, which bot entries make each team (and so which played as partners)."""
        labels = entry_labels(self.bots)
        return [f"team {t.label}: {' and '.join(labels[i] for i in t.entries)}" for t in self.team_stats]

    def _draws_line(self) -> str:
        """The count of draws, with what a draw is (or that there are none) in this game."""
        note = _DRAW_NOTES.get(self.game)
        return f"draws: {self.draws}" + (f"  ({note})" if note else "")

    def format_table(self) -> str:
        """The result as a plain-text table for people."""
        header = ("bot", "wins", "win rate", "95% CI (Wilson)", "score/hand")
        stats: Sequence[BotStats | TeamStats] = self.entries
        if self.teams:
            header = ("team", "wins", "win rate", "95% CI (Wilson)", "points/hand")
            stats = self.team_stats
        rows = []
        for e in stats:
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
            *(self._members_lines()),
            rotation_summary(len(self.bots), self.teams),
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
        if self.seat_teams:
            out += ["", *self._teams_lines()]
        return "\n".join(out)


_DRAW_NOTES = {
    "whist": "all players at a target at once, CW-5; nobody wins a draw",
    "free": "Free Clubs has none: a tie for the highest total plays another hand, FC-9",
    "partnership": "the partnership game has none: an exact tie at the target plays another hand, CP-4",
    "northstar": "North Star's CLUBS has none: a tie for the highest total plays another round, NS-7",
}
"""Per game, what the draw count of the table means."""

_WIN_RATE_NOTES = {
    "whist": "win rate: matches whose winners include the bot's seat; several players can win one match (CW-5)",
    "free": "win rate: matches won; each match has one winner, the highest total once one reaches the target (FC-9)",
    "partnership": (
        "win rate: matches the partnership won, the higher total once one reaches the target (CP-4); "
        "points/hand: the partnership's points (31 a hand, 36 with a sweep, CP-3)"
    ),
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


def team_lineup(info: GameInfo, bots: Sequence[str]) -> tuple[str, ...]:
    """The bot of every seat: as given, or, for a game of teams given one bot per team, each repeated for every
    seat of its team (``heuristic,random`` -> heuristic at seats 0 and 2, random at 1 and 3)."""
    teams = info.teams
    if teams and len(bots) == len(teams) and len(bots) not in info.seats:
        lineup = [""] * sum(len(t) for t in teams)
        for name, team in zip(bots, teams, strict=True):
            for seat in team:
                lineup[seat] = name
        return tuple(lineup)
    return tuple(bots)


def _check(
    spec: str, bots: Sequence[str], matches: int, seed: int, workers: int
) -> tuple[GameInfo, Any, tuple[str, ...]]:
    """Validate every input of :func:`simulate`, naming the bad one; returns the resolved game and options, and
    the bot of every seat (:func:`team_lineup`)."""
    for name, value in (("matches", matches), ("workers", workers), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptionsError(f"{name}={value!r} is not a whole number")
    if matches < 1:
        raise InvalidOptionsError(f"matches={matches}: a simulation needs at least 1 match")
    if matches > MAX_MATCHES:
        raise InvalidOptionsError(
            f"matches={matches:,}: a simulation plays at most {MAX_MATCHES:,} matches in one run (its outcomes are "
            "kept in memory); run several seeds and add up the counts for more"
        )
    if workers < 1:
        raise InvalidOptionsError(f"workers={workers}: at least 1 worker process is needed")
    if workers > MAX_WORKERS:
        raise InvalidOptionsError(f"workers={workers:,}: at most {MAX_WORKERS} worker processes")
    if not 0 <= seed < 2**64:
        raise InvalidOptionsError(f"seed={seed}: a simulation seed is a whole number from 0 to 2**64 - 1")
    info, options = resolve(spec)
    bots = team_lineup(info, bots)
    allowed = " or ".join(str(n) for n in info.seats)
    if len(bots) not in info.seats:
        per_team = f", or one per partnership ({len(info.teams)})" if info.teams else ""
        raise InvalidOptionsError(
            f"{len(bots)} bots given ({', '.join(bots) or 'none'}): {info.name} is played by {allowed} players, "
            f"one bot per seat{per_team}"
        )
    for name in bots:
        make_bot(name, info.name)  # raises InvalidOptionsError naming the unknown bot and the known ones
    n_seats = info.new_match(options, 0).n_seats
    if n_seats != len(bots):
        raise InvalidOptionsError(
            f"{len(bots)} bots given but {quoted(spec)} seats {n_seats} players, one bot per seat"
        )
    return info, options, tuple(bots)


def play_one(
    info: GameInfo, options: Any, bots: Sequence[str], seed: int, index: int, facts: bool = False
) -> MatchOutcome:
    """Play match ``index`` of a simulation with seed ``seed``: fresh bots, seated by :func:`seating`, dealt from
    its match seed. With ``facts`` the outcome carries every hand's report facts (:func:`hand_facts_of`)."""
    n = len(bots)
    seats = seating(index, n, info.teams)
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
    """Worker start-up: leave Ctrl-C to the parent, which cancels the remaining chunks and reports it once; a
    worker sent SIGTERM or SIGHUP itself just ends (the parent's handlers, inherited by a fork, are undone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def _chunk_size(matches: int, workers: int) -> int:
    """How many matches one worker task plays: a few tasks per worker so that the load evens out."""
    return max(1, min(_MAX_CHUNK, math.ceil(matches / (workers * 8))))


def _chunks(matches: int, workers: int) -> Iterator[tuple[int, int]]:
    """Cut ``range(matches)`` into consecutive chunks, made one at a time as the workers take them (the pool reads
    tasks only as fast as its pipe to the workers drains), so nothing is built up front for a long run."""
    size = _chunk_size(matches, workers)
    return ((start, min(start + size, matches)) for start in range(0, matches, size))


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
    n_chunks = math.ceil(matches / _chunk_size(matches, workers))
    tasks = ((i, spec, bots, seed, start, stop, facts) for i, (start, stop) in enumerate(_chunks(matches, workers)))
    results: dict[int, list[MatchOutcome]] = {}
    done = 0
    # More processes than cores or chunks would only add start-up cost; the result is the same for any count.
    processes = min(workers, n_chunks, os.cpu_count() or 1)
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
    return [outcome for i in range(n_chunks) for outcome in results[i]]


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
    Win rates come with a 95% Wilson score interval. In a game of fixed partnerships (``GameInfo.teams``) the
    seatings keep partners together, one bot per partnership may be given for all its seats, and the result also
    counts per team (:attr:`SimResult.team_stats`). Raises :class:`InvalidOptionsError` naming the bad input for
    a bad spec, an unknown bot, a bot count that does not match the game's seats, or ``matches``/``workers`` < 1.
    With ``hand_facts`` every outcome also carries its hands' balance-report facts (games in :data:`REPORT_GAMES`
    only; any other game raises :class:`InvalidOptionsError`).
    """
    info, options, names = _check(spec, tuple(bots), matches, seed, workers)
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
    seat_teams = () if info.teams else team_seats(options, len(names))
    return _tally(spec, spec_of(info.name, options), seed, names, outcomes, info.name, info.teams, seat_teams)


def _tally(
    spec: str,
    canonical: str,
    seed: int,
    bots: tuple[str, ...],
    outcomes: Sequence[MatchOutcome],
    game: str = "",
    teams: Teams = (),
    seat_teams: tuple[tuple[int, ...], ...] = (),
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
        seat_teams=seat_teams,
    )
