"""The figures of a simulation: win rates with their Wilson intervals, per bot entry, per team, per match.

What a draw or a win is differs between games: the table explains its counts with the game's own notes from its
registry entry (:attr:`clubsuite.engine.GameInfo.draw_note` and ``win_note``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from clubsuite.engine import find_game
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.sim.seating import Teams, rotation_summary, seating_cycle

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution, used for the Wilson score interval."""

CONFIDENCE = "95% Wilson score interval"
"""How the win-rate interval is computed, for the output."""


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


def paired_mean(diffs: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of per-cycle differences and its 95% interval (normal approximation, mean +- 1.96 standard errors;
    at least two differences)."""
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    half = Z95 * math.sqrt(var / len(diffs))
    return mean, (mean - half, mean + half)


def entry_labels(bots: Sequence[str]) -> tuple[str, ...]:
    """Unique labels for the bot entries: a repeated name gets ``#2``, ``#3``... (``random``, ``random#2``)."""
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


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
        """The average score per hand, as the game scores a hand (for a team: the team's score)."""
        return self.total_score / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class WinCount(_Rated):
    """How often a side (a team of seats, a line-up of bot kinds) won, out of the matches it played."""

    label: str
    """What the side is, e.g. ``seats 0+2`` or ``heuristic+random``."""
    wins: int
    matches: int
    """Matches the side played (a line-up that holds two teams of one match counts twice)."""

    def to_json(self) -> JsonObject:
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
class Thinking:
    """How long a bot thought: its decisions, their summed wall-clock seconds, the slowest one, and their summed CPU
    seconds (the thinking thread's: what a decision cost, whatever else the machine was doing).

    Times differ from run to run and from machine to machine, so they are measured only when asked for (``clubs
    simulate --timing``) and never take part in comparing two results.
    """

    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    cpu: float = 0.0
    cpu_decisions: int = 0
    """The decisions whose CPU time was measured (a part file written before CPU time was measured has none)."""

    def __add__(self, other: Thinking) -> Thinking:
        return Thinking(
            self.decisions + other.decisions,
            self.seconds + other.seconds,
            max(self.slowest, other.slowest),
            self.cpu + other.cpu,
            self.cpu_decisions + other.cpu_decisions,
        )

    @property
    def ms_per_decision(self) -> float:
        """The mean wall time of a decision in milliseconds (0 without decisions)."""
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    @property
    def cpu_ms_per_decision(self) -> float | None:
        """The mean CPU time of a decision in milliseconds, over the decisions where it was measured (None: none)."""
        return 1000 * self.cpu / self.cpu_decisions if self.cpu_decisions else None

    def to_json(self) -> JsonObject:
        """A JSON-ready account: decisions, mean and slowest wall time and mean CPU time in milliseconds."""
        return {
            "decisions": self.decisions,
            "ms_per_decision": self.ms_per_decision,
            "slowest_ms": 1000 * self.slowest,
            "cpu_ms_per_decision": self.cpu_ms_per_decision,
        }


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
    """The winning seats (several players can win at once in some games); empty for a draw."""
    draw: bool
    """Whether the match ended in a draw (a game that has draws)."""
    hands: int
    """How many hands the match lasted."""
    seat_scores: tuple[int, ...]
    """The sum of each seat's hand scores over the match."""
    hand_facts: tuple[tuple[object, ...], ...] = ()
    """The per-hand facts a balance report counts (:func:`hand_facts_of`), in hand order; empty unless asked for.

    Small and picklable, so that worker processes can send them back with the outcome.
    """
    thinking: tuple[Thinking, ...] = field(default=(), compare=False)
    """Per seat, how long its bot thought (empty unless timing was asked for; never compared)."""

    def thinking_of(self, entry: int) -> Thinking:
        """Bot entry ``entry``'s thinking time in this match (nothing when it was not measured)."""
        return self.thinking[self.seats[entry]] if self.thinking else Thinking()

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
    """Matches in which the entry's seat was among the winners ."""
    hands: int
    """Hands played over all matches."""
    total_score: int
    """The sum of the entry's hand scores over all matches."""
    thinking: Thinking | None = field(default=None, compare=False)
    """How long the bot thought over all matches (None unless timing was asked for; never compared)."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account of this entry (with ``thinking`` where it was timed)."""
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
            **({"thinking": self.thinking.to_json()} if self.thinking is not None else {}),
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
    """The sum of the team's hand scores  over all matches."""

    def to_json(self) -> JsonObject:
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
    """The game's name : it decides how draws and wins are explained."""
    teams: Teams = ()
    """For a game of fixed partnerships, the bot entries of each team (entry ``i`` sits at seat ``i`` in match 0,
    so these are the game's seat teams); empty otherwise."""
    seat_teams: tuple[tuple[int, ...], ...] = ()
    """The seats of each team in a game whose rules options make teams (:func:`team_seats`), else empty."""
    duplicate: bool = False
    """Whether the matches of each cycle of seatings were dealt the same cards (duplicate deals)."""

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
        """Matches that ended in a draw."""
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

    def _teams_json(self) -> JsonObject:
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

    def to_json(self) -> JsonObject:
        """A JSON-ready account of the simulation (without the per-match outcomes, which can be many).

        A game of fixed partnerships adds ``teams``: each partnership's figures. A game whose options make teams adds
        ``teams``: the seats of each team, and the wins per team and per line-up.
        """
        data: JsonObject = {
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
            "duplicate": self.duplicate,
            "versus_first": self.versus_first(),
            "bots": [e.to_json() for e in self.entries],
            **({"teams": [t.to_json() for t in self.team_stats]} if self.teams else {}),
        }
        if self.seat_teams:
            data["teams"] = self._teams_json()
        return data

    def versus_first(self) -> list[JsonObject]:
        """The first bot against each other entry (in a game of partnerships, each other partnership), paired by
        cycle of seatings: per full cycle the difference of their win rates and of their points per hand (the
        game's hand scores summed over the cycle's matches, divided by the cycle's hands), then the mean difference
        over the cycles with a 95% interval (normal approximation, mean +- 1.96 standard errors). Each cycle gives
        both bots every seat, and with duplicate deals the same cards, so the pairing takes the seats' and the
        cards' luck out of the comparison. Empty with fewer than two full cycles."""
        cycle = seating_cycle(len(self.bots), self.teams)
        cycles = len(self.outcomes) // cycle
        if cycles < 2:
            return []
        labels = entry_labels(self.bots)
        team_of = {e: frozenset(t) for t in self.teams for e in t}
        done = {team_of.get(0, frozenset({0}))}
        out: list[JsonObject] = []
        for other in range(1, len(self.bots)):
            team = team_of.get(other, frozenset({other}))
            if team in done:
                continue  # a partner of the first bot, or a team already compared
            done.add(team)
            wins, points = [], []
            for c in range(cycles):
                group = self.outcomes[c * cycle : (c + 1) * cycle]
                wins.append(sum(int(o.won(0)) - int(o.won(other)) for o in group) / cycle)
                hands = sum(o.hands for o in group)
                points.append(sum(o.score(0) - o.score(other) for o in group) / hands if hands else 0.0)
            win_mean, win_ci = paired_mean(wins)
            point_mean, point_ci = paired_mean(points)
            out.append(
                {
                    "first": labels[0],
                    "other": labels[other],
                    "cycles": cycles,
                    "win_rate_difference": win_mean,
                    "ci95": list(win_ci),
                    "points_per_hand_difference": point_mean,
                    "points_per_hand_ci95": list(point_ci),
                }
            )
        return out

    def _versus_lines(self) -> list[str]:
        return [
            f"{v['first']} v {v['other']}: win rate {float(v['win_rate_difference']):+.1%} "
            f"(95% CI {float(v['ci95'][0]):+.1%} .. {float(v['ci95'][1]):+.1%}), "
            f"points per hand {float(v['points_per_hand_difference']):+.2f} "
            f"(95% CI {float(v['points_per_hand_ci95'][0]):+.2f} .. {float(v['points_per_hand_ci95'][1]):+.2f}), "
            f"paired over {v['cycles']} cycles"
            for v in self.versus_first()
        ]

    def _thinking_lines(self) -> list[str]:
        """Each bot's thinking time per decision, where it was timed (wall clock: it differs from run to run)."""
        timed = [(e.label, e.thinking) for e in self.entries if e.thinking is not None]
        if not timed:
            return []
        width = max(len(label) for label, _ in timed)
        return [
            "thinking time per decision (wall clock and CPU, this run):",
            *(
                f"  {label.ljust(width)}  {t.ms_per_decision:8.1f} ms mean, {1000 * t.slowest:8.1f} ms slowest, "
                f"{_cpu_words(t.cpu_ms_per_decision)}, {t.decisions} decisions"
                for label, t in timed
            ),
        ]

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
        note = _game_notes(self.game)[0]
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
            *(
                ["duplicate deals: the matches of each cycle of seatings are dealt the same cards"]
                if self.duplicate
                else []
            ),
            "",
            line(header),
            line(tuple("-" * w for w in widths)),
            *(line(r) for r in rows),
            "",
            self._draws_line(),
            f"mean hands per match: {self.mean_hands_per_match:.2f}  ({self.hands} hands)",
            _game_notes(self.game)[1] or "win rate: matches whose winners include the bot's seat",
            "CI: 95% Wilson score interval of the win rate",
            *self._versus_lines(),
            *self._thinking_lines(),
        ]
        if self.seat_teams:
            out += ["", *self._teams_lines()]
        return "\n".join(out)


def _game_notes(game: str) -> tuple[str, str]:
    """The registry's notes on draws and wins for ``game`` (empty for an unknown name)."""
    try:
        info, _ = find_game(game)
    except InvalidOptionsError:
        return "", ""
    return info.draw_note, info.win_note


def _cpu_words(ms: float | None) -> str:
    """The mean CPU time of a decision as the timing table shows it."""
    return "     CPU not measured" if ms is None else f"{ms:8.1f} ms CPU mean"
