"""The partnership balance report (``clubs simulate partnership --report``): what the deal and the pass direction are
worth, where the points come from, and how often the Ruby Dame and sweeps fall.

The two partnerships of a hand are told apart by the deal: the *dealer's side* (the dealer and partner) and the
*leading side* (the dealer's left, who leads the first trick, and partner). Points are a partnership's points of
the hand (CP-3: a trick, a club, five for the Ruby Dame, five for a sweep).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from clubsuite.errors import InvalidOptionsError
from clubsuite.games.partnership.hand import CYCLE, PartnershipHand
from clubsuite.jsonform import JsonObject
from clubsuite.sim.report import Bars, Points, Rate, ReportPart, facts_by_match, points_bars, rate_bars, text_table
from clubsuite.sim.stats import SimResult

SIDES = (("dealer", "dealer's side"), ("leader", "leading side"))
"""The two partnerships of a hand, from the deal."""
SOURCES = (("tricks", "tricks"), ("clubs", "clubs"), ("ruby_dame", "Ruby Dame"), ("sweep", "sweep"))
"""Where a partnership's points come from (CP-3)."""


class PartnershipHandFacts(NamedTuple):
    """What the partnership balance report needs from one scored hand: small and picklable."""

    dealer: int
    """The dealer's seat."""
    direction: str
    """Where the cards were passed: left, right or none (CP-2)."""
    lines: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    """Each partnership's points by source (tricks, clubs, Ruby Dame, sweep); partnership 0 holds seats 0 and 2."""


def hand_facts(hand: PartnershipHand) -> PartnershipHandFacts:
    """The report facts of a scored hand; raises for a hand that is not scored yet."""
    s = hand.summary()
    if not s["complete"]:
        raise InvalidOptionsError("a hand counts in the balance report only once it is scored")
    a, b = hand.score_lines()
    return PartnershipHandFacts(
        dealer=int(s["dealer"]),
        direction=str(s["pass"]),
        lines=((a.tricks, a.clubs, a.ruby_dame, a.sweep), (b.tricks, b.clubs, b.ruby_dame, b.sweep)),
    )


@dataclass(frozen=True)
class PartnershipReport:
    """The counts of the partnership balance report."""

    hands: int
    """Hands counted."""
    points: dict[str, Points]
    """Points per hand of each side (:data:`SIDES`), by pass direction (``dealer left``...) and overall."""
    sources: dict[str, Points]
    """Points per hand and partnership by source (:data:`SOURCES`)."""
    ruby_dame: dict[str, Rate]
    """Hands in which each side took the Ruby Dame."""
    sweeps: dict[str, Rate]
    """Hands in which each side took all 13 tricks."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account of the report."""
        return {
            "hands": self.hands,
            "points_per_hand": {k: p.to_json() for k, p in self.points.items()},
            "points_by_source": {k: p.to_json() for k, p in self.sources.items()},
            "ruby_dame_taken": {k: r.to_json() for k, r in self.ruby_dame.items()},
            "sweeps": {k: r.to_json() for k, r in self.sweeps.items()},
            "confidence_interval": "95% Wilson score interval",
        }

    def format_text(self) -> str:
        """The report as plain-text tables for people."""
        out = [f"Balance report over {self.hands} hands", ""]
        out.append("Points per hand of each side, by pass direction (CP-2) and overall (CP-3)")
        out += text_table(("side and pass", "hands", "mean", "sd"), [_points_row(k, p) for k, p in self.points.items()])
        out += ["", "Points per hand and partnership by source (CP-3)"]
        out += text_table(("source", "samples", "mean", "sd"), [_points_row(k, p) for k, p in self.sources.items()])
        out += [""]
        rows = [(f"{words} took the Ruby Dame", *self.ruby_dame[k].cells()) for k, words in SIDES]
        rows += [(f"{words} swept", *self.sweeps[k].cells()) for k, words in SIDES]
        out += text_table(("", "hands", "count", "rate", "95% CI (Wilson)"), rows)
        return "\n".join(out)


def _points_row(key: str, p: Points) -> tuple[str, str, str, str]:
    return (key, str(p.samples), "-" if p.mean is None else f"{p.mean:+.2f}", "-" if p.sd is None else f"{p.sd:.2f}")


def tally(facts: Iterable[PartnershipHandFacts]) -> PartnershipReport:
    """Count the report over hands' facts."""
    directions = [d.value for d in CYCLE]
    points = {f"{words}, pass {d}": [0, 0, 0] for _, words in SIDES for d in directions}
    points |= {f"{words}, all hands": [0, 0, 0] for _, words in SIDES}
    sources = {words: [0, 0, 0] for _, words in SOURCES}
    ruby = {k: 0 for k, _ in SIDES}
    sweeps = {k: 0 for k, _ in SIDES}
    hands = 0

    def add(counts: list[int], value: int) -> None:
        counts[0] += 1
        counts[1] += value
        counts[2] += value * value

    for f in facts:
        hands += 1
        dealer_team = f.dealer % 2
        for key, words in SIDES:
            line = f.lines[dealer_team if key == "dealer" else 1 - dealer_team]
            add(points[f"{words}, pass {f.direction}"], sum(line))
            add(points[f"{words}, all hands"], sum(line))
            ruby[key] += line[2] > 0
            sweeps[key] += line[3] > 0
            for (_, source), value in zip(SOURCES, line, strict=True):
                add(sources[source], value)
    return PartnershipReport(
        hands=hands,
        points={k: Points(*v) for k, v in points.items()},
        sources={k: Points(*v) for k, v in sources.items()},
        ruby_dame={k: Rate(v, hands) for k, v in ruby.items()},
        sweeps={k: Rate(v, hands) for k, v in sweeps.items()},
    )


def partnership_report(result: SimResult) -> PartnershipReport:
    """The balance report of a partnership simulation run with ``hand_facts=True``."""
    return tally(
        f for facts in facts_by_match(result, "partnership", "Clubs (partnership)", PartnershipHandFacts) for f in facts
    )


def partnership_charts(report: object) -> tuple[Bars, ...]:
    """The report's figures: each side's points by pass direction, points by source, Ruby Dame and sweeps."""
    if not isinstance(report, PartnershipReport):
        raise TypeError(f"not a partnership report: {report!r}")
    return (
        points_bars(
            "Points per hand of each side, by pass direction (CP-2)",
            "mean points per hand",
            list(report.points.items()),
        ),
        points_bars("Points per hand and partnership, by source (CP-3)", "mean points", list(report.sources.items())),
        rate_bars(
            "Ruby Dame and sweeps, by side",
            "hands (%)",
            [(f"{words}: Ruby Dame", report.ruby_dame[k]) for k, words in SIDES]
            + [(f"{words}: sweep", report.sweeps[k]) for k, words in SIDES],
        ),
    )


REPORT = ReportPart(
    hand_facts=hand_facts,
    build=partnership_report,
    facts_type=PartnershipHandFacts,
    charts=partnership_charts,
    summary="each side's points per hand (the dealer's and the leading partnership) by pass direction, points by "
    "source (tricks, clubs, Ruby Dame, sweeps), and how often each side takes the Ruby Dame or sweeps.",
)
"""The registry part ``report``: the partnership balance report."""
