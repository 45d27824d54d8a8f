"""The whist balance report (``clubs simulate whist --report``): the exchange round and its payoff by seat order,
how the tricks fall, and how matches are won.

Seats are counted from the dealer: *first* decides first and leads when nobody exchanges (the dealer's left),
*second* next, then the *dealer* (CW-4). Matches are won at +target or at -target, or drawn (CW-5); the report
reads each match's final totals from its hands' scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.whist.hand import WhistHand
from clubsuite.games.whist.options import WhistOptions
from clubsuite.jsonform import JsonObject
from clubsuite.sim.report import Bars, Points, Rate, ReportPart, facts_by_match, points_bars, rate_bars, text_table
from clubsuite.sim.stats import SimResult

SEATS = 3
POSITIONS = (("first", "first to decide (dealer's left)"), ("second", "second to decide"), ("dealer", "the dealer"))
"""Where a seat decides in the exchange round (key, words), from the dealer (CW-4)."""
ENDINGS = (("high", "won at +target"), ("low", "won at -target"), ("both", "won at + and - at once"))
"""How a match's winners won (CW-5), with draws counted apart."""


class WhistHandFacts(NamedTuple):
    """What the whist balance report needs from one scored hand: small and picklable."""

    dealer: int
    """The dealer's seat."""
    exchanged: tuple[int, ...]
    """The seats that exchanged, in the order they decided (CW-4)."""
    tricks: tuple[int, int, int]
    """Tricks won by each seat."""
    scores: tuple[int, int, int]
    """Each seat's score for the hand: tricks minus four (CW-5)."""


def hand_facts(hand: WhistHand) -> WhistHandFacts:
    """The report facts of a scored hand, read from its summary; raises for a hand that is not scored yet."""
    s = hand.summary()
    if not s["complete"]:
        raise InvalidOptionsError("a hand counts in the balance report only once it is scored")
    return WhistHandFacts(
        dealer=int(s["dealer"]),
        exchanged=tuple(s["exchanged"]),
        tricks=(s["tricks_won"][0], s["tricks_won"][1], s["tricks_won"][2]),
        scores=(s["scores"][0], s["scores"][1], s["scores"][2]),
    )


def position(seat: int, dealer: int) -> str:
    """Where ``seat`` decides in the exchange round: ``first``, ``second`` or ``dealer``."""
    return POSITIONS[(seat - dealer - 1) % SEATS][0]


@dataclass(frozen=True)
class WhistReport:
    """The counts of the whist balance report."""

    hands: int
    """Hands counted."""
    matches: int
    """Matches counted."""
    target: int
    """The match target (CW-5)."""
    exchange_by_position: dict[str, Rate]
    """How often a seat exchanged, by where it decided."""
    points_by_choice: dict[str, Points]
    """Points per hand by where the seat decided and what it chose (``first kept``, ``dealer exchanged``...)."""
    exchanges_per_hand: dict[int, Rate]
    """Hands with 0, 1, 2 and 3 exchanges."""
    tricks: dict[int, Rate]
    """Player-hands with each number of tricks, 0 to 13."""
    endings: dict[str, Rate]
    """Matches by how they were won (:data:`ENDINGS`) and drawn (``draw``)."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account of the report."""
        return {
            "hands": self.hands,
            "matches": self.matches,
            "target": self.target,
            "exchange_by_position": {k: r.to_json() for k, r in self.exchange_by_position.items()},
            "points_by_choice": {k: p.to_json() for k, p in self.points_by_choice.items()},
            "exchanges_per_hand": {str(k): r.to_json() for k, r in self.exchanges_per_hand.items()},
            "tricks_per_player_hand": {str(k): r.to_json() for k, r in self.tricks.items()},
            "match_endings": {k: r.to_json() for k, r in self.endings.items()},
            "confidence_interval": "95% Wilson score interval",
        }

    def format_text(self) -> str:
        """The report as plain-text tables for people."""
        rate_header = ("count", "rate", "95% CI (Wilson)")
        out = [f"Balance report over {self.hands} hands of {self.matches} matches", ""]
        out.append("Exchanges (CW-4) by where the seat decides")
        rows = [(words, *self.exchange_by_position[k].cells()) for k, words in POSITIONS]
        out += text_table(("decides", "hands", *rate_header), rows)
        out += ["", "Mean points per hand by where the seat decided and what it chose"]
        out += text_table(
            ("seat and choice", "hands", "mean", "sd"),
            [
                (k, str(p.samples), "-" if p.mean is None else f"{p.mean:+.2f}", "-" if p.sd is None else f"{p.sd:.2f}")
                for k, p in self.points_by_choice.items()
            ],
        )
        out += ["", "Exchanges per hand"]
        out += text_table(
            ("exchanges", "hands", *rate_header), [(str(k), *r.cells()) for k, r in self.exchanges_per_hand.items()]
        )
        out += ["", "Tricks per player-hand (4 scores 0: the quota, CW-5)"]
        out += text_table(
            ("tricks", "player-hands", *rate_header), [(str(k), *r.cells()) for k, r in self.tricks.items()]
        )
        out += ["", f"How matches ended (target {self.target}, CW-5)"]
        words = dict(ENDINGS) | {"draw": "drawn: everyone at a target at once"}
        out += text_table(
            ("ending", "matches", *rate_header), [(words[k], *r.cells()) for k, r in self.endings.items()]
        )
        return "\n".join(out)


def tally(matches: Sequence[Sequence[WhistHandFacts]], target: int) -> WhistReport:
    """Count the report over every match's hands, in order."""
    exchange = {k: [0, 0] for k, _ in POSITIONS}
    choice: dict[str, list[int]] = {f"{k} {c}": [0, 0, 0] for k, _ in POSITIONS for c in ("kept", "exchanged")}
    per_hand = [0] * (SEATS + 1)
    tricks = [0] * 14
    endings = {k: 0 for k, _ in ENDINGS} | {"draw": 0}
    hands = 0
    for facts in matches:
        totals = [0] * SEATS
        for f in facts:
            hands += 1
            per_hand[len(f.exchanged)] += 1
            for seat in range(SEATS):
                where = position(seat, f.dealer)
                swapped = seat in f.exchanged
                exchange[where][0] += swapped
                exchange[where][1] += 1
                c = choice[f"{where} {'exchanged' if swapped else 'kept'}"]
                c[0] += 1
                c[1] += f.scores[seat]
                c[2] += f.scores[seat] ** 2
                tricks[f.tricks[seat]] += 1
                totals[seat] += f.scores[seat]
        if facts:
            high = [t >= target for t in totals]
            low = [t <= -target for t in totals]
            reached = [h or lo for h, lo in zip(high, low, strict=True)]
            if all(reached):
                endings["draw"] += 1
            elif any(high) and any(low):
                endings["both"] += 1
            elif any(high):
                endings["high"] += 1
            elif any(low):
                endings["low"] += 1
    n = len(matches)
    return WhistReport(
        hands=hands,
        matches=n,
        target=target,
        exchange_by_position={k: Rate(*exchange[k]) for k, _ in POSITIONS},
        points_by_choice={k: Points(*v) for k, v in choice.items()},
        exchanges_per_hand={k: Rate(per_hand[k], hands) for k in range(SEATS + 1)},
        tricks={k: Rate(tricks[k], SEATS * hands) for k in range(14)},
        endings={k: Rate(v, n) for k, v in endings.items()},
    )


def whist_report(result: SimResult) -> WhistReport:
    """The balance report of a whist simulation run with ``hand_facts=True``."""
    per_match = facts_by_match(result, "whist", "Clubs (whist group)", WhistHandFacts)
    _, options = resolve(result.canonical_spec)
    if not isinstance(options, WhistOptions):
        raise InvalidOptionsError(f"not whist options: {options!r}")
    return tally(per_match, options.target)


def whist_charts(report: object) -> tuple[Bars, ...]:
    """The whist report's figures: exchanges and their payoff by seat order, tricks, how matches end."""
    if not isinstance(report, WhistReport):
        raise TypeError(f"not a whist report: {report!r}")
    return (
        rate_bars(
            "Exchange rate by where the seat decides (CW-4)",
            "hands exchanged (%)",
            [(words, report.exchange_by_position[k]) for k, words in POSITIONS],
        ),
        points_bars(
            "Points per hand by seat order and choice",
            "mean points per hand (tricks - 4)",
            list(report.points_by_choice.items()),
        ),
        rate_bars(
            "Tricks per player-hand",
            "player-hands (%)",
            [(str(k), r) for k, r in report.tricks.items() if r.count],
        ),
        rate_bars(
            "How matches end (CW-5)",
            "matches (%)",
            [(words, report.endings[k]) for k, words in ENDINGS] + [("drawn", report.endings["draw"])],
        ),
    )


REPORT = ReportPart(
    hand_facts=hand_facts,
    build=whist_report,
    facts_type=WhistHandFacts,
    charts=whist_charts,
    summary="how often each seat exchanges, by where it decides, and its points per hand after keeping or "
    "exchanging; exchanges per hand; tricks per player-hand; and how matches end (won at +target, at -target, "
    "drawn).",
)
"""The registry part ``report``: the whist balance report."""
