"""Strength and speed of the heuristic Clubs (whist group) bot: win rate against other bots, decision time.

Run as ``python bench/bots_whist.py [--matches N] [--seed S] [--opponents random|heuristic] [--json]``.
The heuristic bot plays one seat against two opponents; the tested seat and the first dealer rotate over the
matches, every match is dealt from its own seed, and the bots draw from their own injected RNG, so a run is
reproducible. ``--cards`` adds the table behind the bot's card potentials: for the cards held when play starts,
how often each kind (club or plain card, by how many higher cards of its suit the opponents were expected to
hold) went on to take a trick, split by the goal the bot chose for the hand. The figures are for reading; the
test suite asserts only a conservative bound on the win rate.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field, fields
from typing import Any

from clubsuite.bots import RandomBot
from clubsuite.cards import SUIT_MASKS
from clubsuite.engine import Phase
from clubsuite.games.whist import WhistView
from clubsuite.games.whist.bot import (
    Goal,
    Knowledge,
    WhistHeuristicBot,
    best_goal,
    hand_estimate,
)
from clubsuite.games.whist.match import match_type


@dataclass
class Report:
    """What one run measured."""

    matches: int
    """Matches played."""
    opponents: str
    """The kind of the two other bots."""
    wins: int = 0
    """Matches the heuristic seat won (alone or with another winner, CW-5)."""
    draws: int = 0
    """Matches that ended with all three at a target (CW-5)."""
    hands: int = 0
    """Hands played over all matches."""
    decisions: int = 0
    """Decisions the heuristic bot made."""
    seconds: float = 0.0
    """Time the heuristic bot spent deciding, measured with ``time.perf_counter``."""
    slowest: float = 0.0
    """The slowest single decision, in seconds."""
    goals: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    """For each goal chosen at the first card of a hand, the tricks the bot then took in each such hand."""
    cards: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    """For each goal and kind of card held when play starts: [how many, how many took a trick]."""

    @property
    def win_rate(self) -> float:
        """Share of matches won by the heuristic seat."""
        return self.wins / self.matches

    def interval(self) -> tuple[float, float]:
        """An approximate 95% interval for the win rate (Wilson score interval)."""
        n, p, z = self.matches, self.win_rate, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form with the derived figures."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["goals"] = {goal: list(tricks) for goal, tricks in self.goals.items()}
        data["cards"] = {kind: list(counts) for kind, counts in sorted(self.cards.items())}
        data["win_rate"] = self.win_rate
        data["win_rate_95"] = list(self.interval())
        data["mean_decision_ms"] = 1000 * self.seconds / max(1, self.decisions)
        return data


def card_kind(k: Knowledge, index: int) -> str:
    """A card's row in the ``--cards`` table: club or plain, and the expected higher cards with the opponents."""
    higher = SUIT_MASKS[index // 13] & ~((2 << index) - 1) & ~k.hand
    expected = sum(k.at_opponent(i) for i in range(52) if higher >> i & 1)
    return f"{'club ' if index < 13 else 'plain'} higher~{min(4.0, round(expected * 2) / 2):.1f}"


def first_card(view: WhistView) -> tuple[str, dict[int, str]]:
    """At the bot's first card of a hand: the goal it plays for, and the kind of every card it holds."""
    k = Knowledge.from_view(view)
    goal, _ = best_goal(view.totals[view.seat], 0, hand_estimate(k, Goal.HIGH), hand_estimate(k, Goal.LOW), view.target)
    return goal.value, {c.index: f"{goal.value:4} {card_kind(k, c.index)}" for c in view.hand}


def cards_taken(view_seat: int, tricks: list[tuple[int, tuple[int, ...], int]]) -> set[int]:
    """The cards with which ``view_seat`` took a trick, from the completed tricks (leader, cards, winner)."""
    return {played[(view_seat - leader) % 3] for leader, played, winner in tricks if winner == view_seat}


def play(matches: int, seed: int, opponents: str) -> Report:
    """Play ``matches`` matches of the heuristic bot against two ``opponents`` and measure them."""
    report = Report(matches, opponents)
    for n in range(matches):
        seat = n % 3
        bots: list[Any] = [RandomBot() if opponents == "random" else WhistHeuristicBot() for _ in range(3)]
        bots[seat] = WhistHeuristicBot()
        rng = random.Random(seed * 1_000_003 + n)
        match = match_type()(first_dealer=(n // 3) % 3)
        while not match.is_over:
            match.deal(rng)
            goal = ""
            kinds: dict[int, str] = {}
            while (to_act := match.to_act) is not None:
                view = match.view(to_act)
                if to_act == seat and not goal and view.phase is Phase.PLAY:
                    goal, kinds = first_card(view)
                start = time.perf_counter()
                action = bots[to_act].choose(view, match.legal_actions(), rng)
                if to_act == seat:
                    spent = time.perf_counter() - start
                    report.seconds += spent
                    report.slowest = max(report.slowest, spent)
                    report.decisions += 1
                match.apply(action)
            hand = match.hands[-1]
            report.goals[goal].append(hand.tricks_won[seat])
            taken = cards_taken(seat, hand.tricks)
            for index, kind in kinds.items():
                report.cards[kind][0] += 1
                report.cards[kind][1] += index in taken
        report.hands += len(match.hands)
        report.wins += seat in match.winners
        report.draws += match.draw
    return report


def print_report(report: Report, show_cards: bool) -> None:
    """The figures as text."""
    low, high = report.interval()
    print(f"heuristic vs {report.opponents} x2: {report.matches} matches, seats and first dealer rotated")
    print(f"  win rate {report.win_rate:.3f} (95% {low:.3f}..{high:.3f}), draws {report.draws}")
    print(f"  hands per match {report.hands / report.matches:.1f}")
    print(
        f"  decisions {report.decisions}, mean {1000 * report.seconds / max(1, report.decisions):.3f} ms, "
        f"slowest {1000 * report.slowest:.2f} ms"
    )
    for goal, tricks in sorted(report.goals.items()):
        if goal:
            print(f"  goal {goal:4}: {len(tricks)} hands, {sum(tricks) / len(tricks):.2f} tricks on average")
    if show_cards:
        print("  share of cards held at the first card that took a trick:")
        for kind, (held, took) in sorted(report.cards.items()):
            if held >= 30:
                print(f"    {kind}: {took / held:.2f} of {held}")


def main(argv: list[str] | None = None) -> int:
    """Run the matches and print the figures (text or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=600, help="matches to play (default 600)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots' draws (default 0)")
    parser.add_argument("--opponents", choices=("random", "heuristic"), default="random", help="the two other bots")
    parser.add_argument("--cards", action="store_true", help="also print how often each kind of card took a trick")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: expected at least one match")
    report = play(args.matches, args.seed, args.opponents)
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2)
        print()
    else:
        print_report(report, args.cards)
    return 0


if __name__ == "__main__":
    sys.exit(main())
