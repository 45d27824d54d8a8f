"""Strength and speed of the heuristic bot for North Star's CLUBS: win rates against other bots, decision time.

Run as ``python bench/bots_northstar.py [--spec SPEC ...] [--matches N] [--seed S] [--opponents random|heuristic]
[--json]``. For each spec one heuristic bot plays against ``players - 1`` opponents; a control run puts a random bot
in the same harness instead, so its win rate shows the share a bot without skill gets there. The seats and the
order around the table go through the same balanced cycle as ``clubs simulate`` (:func:`clubsuite.sim.seating`),
every match is dealt from its own seed and the bots draw from the match's RNG, so a run is reproducible. With
teams the win rate is the share of matches the bot's team won (its partners are opponents' kind). Decision times
are measured around the heuristic bot's ``choose`` with ``time.perf_counter``, over all its decisions and over those
with more than one legal action; they are for reading only (the test suite never asserts on time).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from clubsuite.bots import RandomBot
from clubsuite.engine import resolve
from clubsuite.games.northstar.bot import NorthstarHeuristic
from clubsuite.runner import play_match
from clubsuite.seeding import derive_seed
from clubsuite.sim import seating, wilson_interval

DEFAULT_SPECS = (
    "northstar(players=2)",
    "northstar(players=3)",
    "northstar",
    "northstar(players=5)",
    "northstar(players=6)",
    "northstar-teams",
    "northstar(players=6,teams=3x2)",
    "northstar(players=6,teams=2x3)",
    "northstar-double",
    "northstar-wild",
    "northstar-crazy",
    "northstar-2013",
)


class TimedBot:
    """Wraps a bot and adds up the time its decisions take."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.decisions = 0
        self.slowest = 0.0
        self.choice_seconds = 0.0
        """Time spent on decisions with more than one legal action."""
        self.choices = 0
        """Decisions with more than one legal action."""

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        """The inner bot's choice, timed."""
        start = time.perf_counter()
        action = self.inner.choose(view, legal, rng)
        spent = time.perf_counter() - start
        self.seconds += spent
        self.decisions += 1
        self.slowest = max(self.slowest, spent)
        if len(legal) > 1:
            self.choice_seconds += spent
            self.choices += 1
        return action


@dataclass
class Line:
    """The figures of one spec."""

    spec: str
    players: int
    matches: int
    wins: int
    control_wins: int
    share: float
    decisions: int
    seconds: float
    slowest: float
    choices: int
    choice_seconds: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form with the derived figures."""
        low, high = wilson_interval(self.wins, self.matches)
        c_low, c_high = wilson_interval(self.control_wins, self.matches)
        return {
            "spec": self.spec,
            "players": self.players,
            "matches": self.matches,
            "share": self.share,
            "win_rate": self.wins / self.matches,
            "win_rate_ci95": [low, high],
            "control_win_rate": self.control_wins / self.matches,
            "control_ci95": [c_low, c_high],
            "decisions": self.decisions,
            "mean_decision_ms": 1000 * self.seconds / max(1, self.decisions),
            "choices": self.choices,
            "mean_choice_ms": 1000 * self.choice_seconds / max(1, self.choices),
            "slowest_decision_ms": 1000 * self.slowest,
        }


def play(spec: str, matches: int, seed: int, opponents: str, tested: str) -> tuple[int, TimedBot | None, float, int]:
    """Play ``matches`` matches with the ``tested`` bot (heuristic or random) at entry 0; returns its wins, its
    timer, its share of wins by chance and the player count."""
    info, options = resolve(spec)
    n = options.players
    teams = options.n_teams
    timer: TimedBot | None = None
    wins = 0
    for k in range(matches):
        seats = seating(k, n)
        bots: list[Any] = [None] * n
        for entry, seat in enumerate(seats):
            if entry == 0:
                if tested == "heuristic":
                    timer = timer or TimedBot(NorthstarHeuristic())
                    bots[seat] = timer
                else:
                    bots[seat] = RandomBot()
            else:
                bots[seat] = NorthstarHeuristic() if opponents == "heuristic" else RandomBot()
        match = info.new_match(options, 0)
        play_match(match, bots, derive_seed(seed, k))
        wins += seats[0] in match.winners
    return wins, timer, 1 / teams, n


def run(spec: str, matches: int, seed: int, opponents: str) -> Line:
    """The heuristic's figures for one spec, with the random control."""
    wins, timer, share, n = play(spec, matches, seed, opponents, "heuristic")
    control, _, _, _ = play(spec, matches, seed, opponents, "random")
    assert timer is not None
    return Line(
        spec,
        n,
        matches,
        wins,
        control,
        share,
        timer.decisions,
        timer.seconds,
        timer.slowest,
        timer.choices,
        timer.choice_seconds,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the matches and print the figures (text or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--spec", action="append", help="a variant spec (repeatable; default: a set of variants)")
    parser.add_argument("--matches", type=int, default=240, help="matches per spec (default 240)")
    parser.add_argument("--seed", type=int, default=1, help="simulation seed (default 1)")
    parser.add_argument("--opponents", choices=("random", "heuristic"), default="random", help="the other bots")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches needs at least one match")
    lines = [run(spec, args.matches, args.seed, args.opponents) for spec in args.spec or DEFAULT_SPECS]
    if args.json:
        json.dump([line.to_json() for line in lines], sys.stdout, indent=2)
        print()
        return 0
    print(f"heuristic vs {args.opponents}, {args.matches} matches per spec, seed {args.seed} (95% Wilson intervals)")
    print(
        f"{'spec':44} {'share':>6} {'heuristic':>22} {'random control':>22} {'ms/decision':>11} {'ms/choice':>9} "
        f"{'slowest':>7}"
    )
    for line in lines:
        data = line.to_json()
        low, high = data["win_rate_ci95"]
        c_low, c_high = data["control_ci95"]
        print(
            f"{line.spec:44} {line.share:6.3f} {data['win_rate']:6.3f} ({low:.3f}..{high:.3f}) "
            f"{data['control_win_rate']:6.3f} ({c_low:.3f}..{c_high:.3f}) {data['mean_decision_ms']:11.3f} "
            f"{data['mean_choice_ms']:9.3f} {data['slowest_decision_ms']:7.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
