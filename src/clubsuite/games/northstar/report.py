"""The North Star's CLUBS balance report: points by finishing position, double or nothing and round length.

One report covers one player count (the simulation's): ``clubs simulate northstar --players N --report``. Each
simulated round is reduced to a :class:`NorthstarHandFacts` (read from :meth:`NorthstarHand.summary` and the round's
public events), which worker processes send back with the match outcome; :func:`northstar_report` counts them in
match and round order, so the report is the same for any number of workers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.northstar import NorthstarHand, NorthstarOptions, Passed, Played, Teams
from clubsuite.jsonform import JsonObject
from clubsuite.safetext import quoted
from clubsuite.sim.report import Bars, Points, Rate, ReportPart, facts_by_match, points_bars, rate_bars, text_table
from clubsuite.sim.stats import CONFIDENCE, SimResult

LAST = "last"
"""The position key of the player left holding cards when the round ends by NS-5."""
HELD = "held_at_team_end"
"""The position key of the players still holding cards when a team ended the round (NS-10)."""


class NorthstarHandFacts(NamedTuple):
    """What the balance report needs from one scored round of North Star's CLUBS: small and picklable."""

    out_order: tuple[int, ...]
    """The seats in the order they went out (NS-5)."""
    last: int
    """The seat left holding cards that had the last turn (NS-5), or -1 when a team ended the round (NS-10)."""
    team_out: int
    """The team whose players alone still held cards and scored nothing (NS-10), or -1."""
    doubled: tuple[int, ...]
    """The seats that called double or nothing (NS-8)."""
    scores: tuple[int, ...]
    """Each seat's points for the round."""
    plays: int
    """Plays of cards made in the round."""
    passes: int
    """Passes made in the round."""
    tricks: int
    """Tricks taken in the round."""

    def position(self, seat: int) -> str:
        """Where ``seat`` finished: ``"1"`` for the first out, ``"2"``..., :data:`LAST` or :data:`HELD`."""
        if seat in self.out_order:
            return str(self.out_order.index(seat) + 1)
        return LAST if seat == self.last else HELD


def hand_facts(hand: NorthstarHand) -> NorthstarHandFacts:
    """The report facts of a scored round, read from its summary and its events (all public); raises for a round
    that is not scored yet."""
    s = hand.summary()
    if not s["complete"]:
        raise InvalidOptionsError("a round counts in the balance report only once it is scored")
    return NorthstarHandFacts(
        out_order=tuple(s["out_order"]),
        last=-1 if s["last"] is None else s["last"],
        team_out=-1 if s["team_out"] is None else s["team_out"],
        doubled=tuple(s["doubled"]),
        scores=tuple(s["scores"]),
        plays=sum(1 for e in hand.history if isinstance(e, Played)),
        passes=sum(1 for e in hand.history if isinstance(e, Passed)),
        tricks=len(s["tricks"]),
    )


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... (player counts stop at 6)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"


def position_words(key: str, players: int) -> str:
    """The words for a finishing position in the report."""
    if key == LAST:
        return "last, left holding cards" + (" (scores clubs, NS-5)" if players == 2 else " (0 card, NS-5)")
    if key == HELD:
        return "holding cards when a team ended it (NS-10)"
    return f"{ordinal(int(key))} out"


def position_keys(players: int, teams: bool) -> tuple[str, ...]:
    """The finishing positions of a round, in report order: 1st out to the last to go out, then the player left
    holding cards (NS-5) or, in team games, the players holding cards when a team ended the round (NS-10)."""
    outs = tuple(str(k) for k in range(1, players))
    # NS-10 comes before NS-5: with teams the last player is always alone in their team, so rounds end by NS-10.
    return (*outs, HELD) if teams else (*outs, LAST)


def _points(values: Sequence[int]) -> Points:
    """The :class:`Points` of some samples."""
    return Points(len(values), sum(values), sum(v * v for v in values))


def _points_cells(p: Points) -> tuple[str, str, str]:
    """Table cells: samples, mean and standard deviation."""
    return (
        str(p.samples),
        "-" if p.mean is None else f"{p.mean:.2f}",
        "-" if p.sd is None else f"{p.sd:.2f}",
    )


@dataclass(frozen=True)
class DoubleStats:
    """Double or nothing over the simulation (NS-8)."""

    calls: Rate
    """Successful calls (the caller was the first out) out of all calls."""
    rounds_with_a_call: Rate
    """Rounds in which at least one player called, out of all rounds."""
    callers: Points
    """The round points of callers."""
    non_callers: Points
    """The round points of players who did not call."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account."""
        return {
            "calls": self.calls.trials,
            "successes": self.calls.count,
            "success": self.calls.to_json(),
            "rounds_with_a_call": self.rounds_with_a_call.to_json(),
            "points_of_callers": self.callers.to_json(),
            "points_of_non_callers": self.non_callers.to_json(),
        }


@dataclass(frozen=True)
class BotLine:
    """One bot entry's win rate next to its fair share."""

    label: str
    bot: str
    wins: Rate
    """Matches won out of matches played (a team's win counts for each member, NS-10)."""
    fair_share: float
    """The win rate of an even contest: 1 over the number of players, or of teams."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account."""
        return {"label": self.label, "bot": self.bot, "wins": self.wins.to_json(), "fair_share": self.fair_share}


@dataclass(frozen=True)
class NorthstarReport:
    """The counts of the North Star's CLUBS balance report over every round of a simulation of one player count."""

    spec: str
    """The canonical rules spec simulated."""
    players: int
    teams: str | None
    """The team play (``2x2``, ``3x2``, ``2x3``), or None without teams."""
    matches: int
    rounds: int
    by_position: dict[str, Points]
    """Round points by finishing position (keys of :func:`position_keys`)."""
    first_out_top: Rate
    """Rounds in which the first player out scored the round's most points, ties included."""
    first_out_top_alone: Rate
    """Rounds in which the first player out scored more than anyone else."""
    doubles: DoubleStats | None
    """Double or nothing (NS-8), or None when the variant does not play it."""
    plays: Points
    """Plays of cards per round."""
    passes: Points
    """Passes per round."""
    tricks: Points
    """Tricks per round."""
    rounds_per_match: Points
    team_ended: Rate | None
    """Rounds ended because only one team held cards (NS-10), or None without teams."""
    held_at_team_end: dict[int, int]
    """How many team-ended rounds left 1, 2, ... players holding cards (empty without teams)."""
    bots: tuple[BotLine, ...]

    def to_json(self) -> JsonObject:
        """A JSON-ready account of the whole report."""
        return {
            "spec": self.spec,
            "players": self.players,
            "teams": self.teams,
            "matches": self.matches,
            "rounds": self.rounds,
            "points_by_position": {
                key: {"position": position_words(key, self.players), **p.to_json()}
                for key, p in self.by_position.items()
            },
            "first_out_scores_most": self.first_out_top.to_json(),
            "first_out_scores_most_alone": self.first_out_top_alone.to_json(),
            "double_or_nothing": None if self.doubles is None else self.doubles.to_json(),
            "round_length": {
                "plays": self.plays.to_json(),
                "passes": self.passes.to_json(),
                "tricks": self.tricks.to_json(),
            },
            "rounds_per_match": self.rounds_per_match.to_json(),
            "team_ended_rounds": None if self.team_ended is None else self.team_ended.to_json(),
            "held_at_team_end": {str(k): v for k, v in self.held_at_team_end.items()} if self.teams else None,
            "bots": [b.to_json() for b in self.bots],
            "confidence_interval": CONFIDENCE,
        }

    def format_text(self) -> str:
        """The report as plain-text tables for people."""
        teams = f", teams {self.teams}" if self.teams else ""
        out = [
            f"Balance report: {self.players} players{teams} ({self.spec}), {self.rounds} rounds in {self.matches} "
            "matches",
            "",
            "Points per round by finishing position",
        ]
        out += text_table(
            ("position", "player-rounds", "mean", "sd"),
            [(position_words(k, self.players), *_points_cells(p)) for k, p in self.by_position.items()],
        )
        out += ["", "The first player out scores the round's most points"]
        rate_header = ("rounds", "yes", "rate", "95% CI (Wilson)")
        out += text_table(
            ("", *rate_header),
            [
                ("most points, ties included", *self.first_out_top.cells()),
                ("more than anyone else", *self.first_out_top_alone.cells()),
            ],
        )
        if self.doubles is not None:
            d = self.doubles
            out += ["", "Double or nothing (NS-8): a call succeeds when the caller is the first out"]
            out += text_table(
                ("", "trials", "count", "rate", "95% CI (Wilson)"),
                [("calls that succeeded", *d.calls.cells()), ("rounds with a call", *d.rounds_with_a_call.cells())],
            )
            out += [""]
            out += text_table(
                ("round points", "player-rounds", "mean", "sd"),
                [("callers", *_points_cells(d.callers)), ("non-callers", *_points_cells(d.non_callers))],
            )
        out += ["", "Round length and match length"]
        out += text_table(
            ("per round", "samples", "mean", "sd"),
            [
                ("plays", *_points_cells(self.plays)),
                ("passes", *_points_cells(self.passes)),
                ("tricks", *_points_cells(self.tricks)),
                ("rounds per match", *_points_cells(self.rounds_per_match)),
            ],
        )
        if self.team_ended is not None:
            out += ["", "Rounds ended by a team left alone holding cards (NS-10)"]
            out += text_table(("", *rate_header), [("team-ended rounds", *self.team_ended.cells())])
            held = ", ".join(f"{k} player{'s' if k > 1 else ''}: {v}" for k, v in self.held_at_team_end.items())
            out += [f"players left holding cards: {held or 'none'}"]
        share = self.bots[0].fair_share if self.bots else 0.0
        who = "a bot wins when its team wins" if self.teams else "one winner per match"
        out += ["", f"Win rates per bot (fair share {100 * share:.1f}%: {who})"]
        out += text_table(
            ("bot", "matches", "wins", "rate", "95% CI (Wilson)"),
            [(b.label, *b.wins.cells()) for b in self.bots],
        )
        return "\n".join(out)


def tally(
    matches: Iterable[Sequence[NorthstarHandFacts]],
    options: NorthstarOptions,
    bots: Sequence[BotLine] = (),
    spec: str = "northstar",
) -> NorthstarReport:
    """Count the report over the rounds' facts of each match, in the order given."""
    n = options.players
    has_teams = options.teams is not Teams.NONE
    keys = position_keys(n, has_teams)
    by_position: dict[str, list[int]] = {k: [] for k in keys}
    top = [0, 0]
    callers: list[int] = []
    non_callers: list[int] = []
    calls = [0, 0]
    rounds_called = 0
    plays: list[int] = []
    passes: list[int] = []
    tricks: list[int] = []
    lengths: list[int] = []
    team_ended = 0
    held: dict[int, int] = {}
    for match in matches:
        lengths.append(len(match))
        for f in match:
            for seat in range(n):
                by_position[f.position(seat)].append(f.scores[seat])
            first = f.out_order[0]
            best = max(f.scores)
            top[0] += f.scores[first] == best
            top[1] += f.scores[first] == best and f.scores.count(best) == 1
            if f.doubled:
                rounds_called += 1
                calls[0] += first in f.doubled
                calls[1] += len(f.doubled)
            for seat in range(n):
                (callers if seat in f.doubled else non_callers).append(f.scores[seat])
            plays.append(f.plays)
            passes.append(f.passes)
            tricks.append(f.tricks)
            if f.team_out >= 0:
                team_ended += 1
                left = n - len(f.out_order)
                held[left] = held.get(left, 0) + 1
    rounds = len(plays)
    doubles = None
    if options.double_or_nothing:
        doubles = DoubleStats(
            calls=Rate(calls[0], calls[1]),
            rounds_with_a_call=Rate(rounds_called, rounds),
            callers=_points(callers),
            non_callers=_points(non_callers),
        )
    return NorthstarReport(
        spec=spec,
        players=n,
        teams=options.teams.value if has_teams else None,
        matches=len(lengths),
        rounds=rounds,
        by_position={k: _points(v) for k, v in by_position.items()},
        first_out_top=Rate(top[0], rounds),
        first_out_top_alone=Rate(top[1], rounds),
        doubles=doubles,
        plays=_points(plays),
        passes=_points(passes),
        tricks=_points(tricks),
        rounds_per_match=_points(lengths),
        team_ended=Rate(team_ended, rounds) if has_teams else None,
        held_at_team_end=dict(sorted(held.items())),
        bots=tuple(bots),
    )


def northstar_report(result: SimResult) -> NorthstarReport:
    """The balance report of a North Star's CLUBS simulation run with ``hand_facts=True``, counted in match order."""
    per_match = facts_by_match(result, "northstar", "North Star's CLUBS", NorthstarHandFacts, "round")
    _, options = resolve(result.canonical_spec)
    if not isinstance(options, NorthstarOptions):
        raise InvalidOptionsError(f"{quoted(result.canonical_spec)} is not a spec of North Star's CLUBS")
    share = 1 / options.n_teams
    bots = [BotLine(e.label, e.bot, Rate(e.wins, e.matches), share) for e in result.entries]
    return tally(per_match, options, bots, result.canonical_spec)


def northstar_charts(report: object) -> tuple[Bars, ...]:
    """The CLUBS report's figures: points by finishing position, each bot's win rate, double or nothing."""
    if not isinstance(report, NorthstarReport):
        raise TypeError(f"not a North Star report: {report!r}")
    charts = [
        points_bars(
            "Points per round by finishing position (NS-5)",
            "mean points per round",
            [(position_words(k, report.players), p) for k, p in report.by_position.items()],
        ),
        rate_bars(
            "Win rate of each bot",
            "matches won (%)",
            [(line.label, line.wins) for line in report.bots],
            f"an even contest gives each {100 * report.bots[0].fair_share:.1f}%" if report.bots else "",
        ),
    ]
    if report.doubles is not None:
        charts.append(
            rate_bars(
                "Double or nothing (NS-8)",
                "share (%)",
                [
                    ("calls that succeeded", report.doubles.calls),
                    ("rounds with a call", report.doubles.rounds_with_a_call),
                ],
            )
        )
    return tuple(charts)


REPORT = ReportPart(
    hand_facts=hand_facts,
    build=northstar_report,
    facts_type=NorthstarHandFacts,
    charts=northstar_charts,
    summary="(one player count per run): points per round by finishing position, how often the first player out "
    "scores the most, double or nothing calls and successes, plays, passes and tricks per round, rounds per match, "
    "team-ended rounds, and each bot's win rate against its fair share.",
)
"""The registry part ``report``: the North Star's CLUBS balance report."""
