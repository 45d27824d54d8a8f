"""The Free Clubs balance report: contracts by bid, Joker teams, points by role and bonuses over simulated matches.

Each simulated hand is reduced to a :class:`FreeHandFacts` (read from :meth:`FreeHand.summary`, so only public
facts), which worker processes send back with the match outcome; :func:`free_report` counts them in match and
hand order, so the report is the same for any number of workers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from clubsuite.errors import InvalidOptionsError
from clubsuite.games.free.hand import TIERS, FreeHand
from clubsuite.jsonform import JsonObject
from clubsuite.sim.report import Bars, Points, Rate, ReportPart, facts_by_match, points_bars, rate_bars, text_table
from clubsuite.sim.stats import SimResult

ROLES = (
    ("lone_winner", "lone auction winner"),
    ("joker_bidder", "Joker bidder"),
    ("joker_partner", "Joker partner"),
    ("lone_defender", "defender against a lone winner"),
    ("joker_outsider", "outsider against a Joker team"),
)
"""The roles a player can have in a hand (key, words), in report order."""

BONUSES = (
    ("most_diamonds", "most diamonds, outright (+20)"),
    ("diamonds_tie", "most diamonds tied (+10 each)"),
    ("no_diamonds", "nobody took a diamond (no bonus)"),
    ("ace_of_hearts", "ace of hearts taken (+10)"),
    ("no_spades", "no spades, at least one player (+5)"),
)
"""The bonus outcomes counted per hand (key, words), in report order (FC-8)."""


class FreeHandFacts(NamedTuple):
    """What the balance report needs from one scored hand of Free Clubs: small and picklable."""

    winner: int
    """The auction winner's seat."""
    partner: int
    """The Joker partner's seat, or -1 for a lone winner (FC-4)."""
    bids: tuple[tuple[int, str], ...]
    """Every bid in the order made: (seat, card)."""
    top_tier: str
    """The tier of the highest (last) bid: one of :data:`TIERS`."""
    made: bool
    """Whether the contract was made: 7 tricks alone, all 10 as a Joker team (FC-4)."""
    tricks: tuple[int, int, int]
    """Tricks won by each seat."""
    scores: tuple[int, int, int]
    """Each seat's points for the hand."""
    most_diamonds: int
    """The seat that took the most diamonds outright, or -1 (FC-8)."""
    diamonds_tie: tuple[int, ...]
    """The seats tied for the most diamonds (empty without a tie)."""
    ace_of_hearts: int
    """The seat that took the ace of hearts, or -1 if nobody did."""
    no_spades: tuple[int, ...]
    """The seats that got the no-spades bonus."""

    @property
    def team(self) -> tuple[int, ...]:
        """The contract side: the winner, with the partner after a Joker."""
        return (self.winner,) if self.partner < 0 else (self.winner, self.partner)

    @property
    def team_bids(self) -> int:
        """How many cards the contract side bid (the Joker included): the handicaps it took on."""
        return sum(1 for seat, _ in self.bids if seat in self.team)


def hand_facts(hand: FreeHand) -> FreeHandFacts:
    """The report facts of a scored hand, read from its summary; raises for a hand that is not scored yet."""
    s = hand.summary()
    if not s["complete"]:
        raise InvalidOptionsError("a hand counts in the balance report only once it is scored")
    bonuses, contract = s["bonuses"], s["contract"]
    return FreeHandFacts(
        winner=s["winner"],
        partner=-1 if s["partner"] is None else s["partner"],
        bids=tuple((b["seat"], b["card"]) for b in s["bids"]),
        top_tier=s["top_tier"],
        made=bool(contract["made"]),
        tricks=(s["tricks_won"][0], s["tricks_won"][1], s["tricks_won"][2]),
        scores=(s["scores"][0], s["scores"][1], s["scores"][2]),
        most_diamonds=-1 if bonuses["most_diamonds"] is None else bonuses["most_diamonds"],
        diamonds_tie=tuple(bonuses["diamonds_tie"]),
        ace_of_hearts=-1 if bonuses["ace_of_hearts"] is None else bonuses["ace_of_hearts"],
        no_spades=tuple(bonuses["no_spades"]),
    )


@dataclass(frozen=True)
class FreeReport:
    """The counts of the Free Clubs balance report over every hand of a simulation."""

    hands: int
    """Hands counted (every hand of every match)."""
    by_tier: dict[str, Rate]
    """Contracts made by the tier of the highest bid, for every tier of :data:`TIERS`."""
    by_cards: dict[int, Rate]
    """Contracts made by how many cards the contract side bid, for each count that occurred (ascending)."""
    lone: Rate
    """Lone winners who took 7 tricks or more."""
    joker_all_ten: Rate
    """Joker teams who took all 10 tricks."""
    roles: dict[str, Points]
    """Points per hand by role (keys of :data:`ROLES`); each of the two defenders counts as one sample."""
    bonuses: dict[str, Rate]
    """Hands in which each bonus outcome happened (keys of :data:`BONUSES`)."""
    no_spades_players: Rate
    """Player-hands with the no-spades bonus, out of three per hand."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account of the whole report."""
        return {
            "hands": self.hands,
            "contract_by_top_tier": {tier: r.to_json() for tier, r in self.by_tier.items()},
            "contract_by_cards_bid": {str(n): r.to_json() for n, r in self.by_cards.items()},
            "lone_winner_made_7": self.lone.to_json(),
            "joker_team_took_all_10": self.joker_all_ten.to_json(),
            "points_per_hand_by_role": {key: self.roles[key].to_json() for key, _ in ROLES},
            "bonuses": {key: self.bonuses[key].to_json() for key, _ in BONUSES},
            "no_spades_players": self.no_spades_players.to_json(),
            "confidence_interval": "95% Wilson score interval",
        }

    def format_text(self) -> str:
        """The report as plain-text tables for people."""
        rate_header = ("hands", "made", "rate", "95% CI (Wilson)")
        out = [f"Balance report over {self.hands} hands", ""]
        out.append("Contract made (alone: 7 tricks; Joker team: all 10) by the highest bid's tier")
        out += text_table(("tier", *rate_header), [(tier, *r.cells()) for tier, r in self.by_tier.items()])
        out += ["", "Contract made by the number of cards the contract side bid (winner, and partner after a Joker)"]
        out += text_table(("cards", *rate_header), [(str(n), *r.cells()) for n, r in self.by_cards.items()])
        out += [""]
        out += text_table(
            ("contract", "hands", "made", "rate", "95% CI (Wilson)"),
            [("lone winner took 7+", *self.lone.cells()), ("Joker team took all 10", *self.joker_all_ten.cells())],
        )
        out += ["", "Mean points per hand by role (each defender counted separately)"]
        rows = []
        for key, words in ROLES:
            p = self.roles[key]
            rows.append(
                (
                    words,
                    str(p.samples),
                    "-" if p.mean is None else f"{p.mean:+.2f}",
                    "-" if p.sd is None else f"{p.sd:.2f}",
                )
            )
        out += text_table(("role", "hands", "mean", "sd"), rows)
        out += ["", "Bonuses (FC-8): hands in which each was won"]
        out += text_table(
            ("bonus", "hands", "won", "rate", "95% CI (Wilson)"),
            [
                *((words, *self.bonuses[key].cells()) for key, words in BONUSES),
                ("no spades, per player (+5)", *self.no_spades_players.cells()),
            ],
        )
        return "\n".join(out)


def tally(facts: Iterable[FreeHandFacts]) -> FreeReport:
    """Count the report over hands' facts, in the order given."""
    hands = 0
    tier_counts = {tier: [0, 0] for tier in TIERS}
    card_counts: dict[int, list[int]] = {}
    lone, joker = [0, 0], [0, 0]
    roles = {key: [0, 0, 0] for key, _ in ROLES}
    bonuses = {key: 0 for key, _ in BONUSES}
    no_spades_players = 0

    def add(role: str, points: int) -> None:
        r = roles[role]
        r[0] += 1
        r[1] += points
        r[2] += points * points

    for f in facts:
        hands += 1
        for counts in (tier_counts[f.top_tier], card_counts.setdefault(f.team_bids, [0, 0])):
            counts[0] += f.made
            counts[1] += 1
        others = [s for s in range(3) if s not in f.team]
        if f.partner < 0:
            lone[0] += f.made
            lone[1] += 1
            add("lone_winner", f.scores[f.winner])
            for s in others:
                add("lone_defender", f.scores[s])
        else:
            joker[0] += f.made
            joker[1] += 1
            add("joker_bidder", f.scores[f.winner])
            add("joker_partner", f.scores[f.partner])
            for s in others:
                add("joker_outsider", f.scores[s])
        bonuses["most_diamonds"] += f.most_diamonds >= 0
        bonuses["diamonds_tie"] += bool(f.diamonds_tie)
        bonuses["no_diamonds"] += f.most_diamonds < 0 and not f.diamonds_tie
        bonuses["ace_of_hearts"] += f.ace_of_hearts >= 0
        bonuses["no_spades"] += bool(f.no_spades)
        no_spades_players += len(f.no_spades)
    return FreeReport(
        hands=hands,
        by_tier={tier: Rate(made, n) for tier, (made, n) in tier_counts.items()},
        by_cards={n: Rate(card_counts[n][0], card_counts[n][1]) for n in sorted(card_counts)},
        lone=Rate(lone[0], lone[1]),
        joker_all_ten=Rate(joker[0], joker[1]),
        roles={key: Points(*roles[key]) for key, _ in ROLES},
        bonuses={key: Rate(bonuses[key], hands) for key, _ in BONUSES},
        no_spades_players=Rate(no_spades_players, 3 * hands),
    )


def free_report(result: SimResult) -> FreeReport:
    """The balance report of a Free Clubs simulation run with ``hand_facts=True``, counted in match order."""
    return tally(f for facts in facts_by_match(result, "free", "Free Clubs", FreeHandFacts) for f in facts)


def free_charts(report: object) -> tuple[Bars, ...]:
    """The Free Clubs report's figures: contracts made by top bid and by cards bid, points by role, bonuses."""
    if not isinstance(report, FreeReport):
        raise TypeError(f"not a Free Clubs report: {report!r}")
    return (
        rate_bars(
            "Contract made, by the highest bid's tier (FC-4)",
            "contracts made (%)",
            [(tier, r) for tier, r in report.by_tier.items()],
        ),
        rate_bars(
            "Contract made, by the cards the contract side bid",
            "contracts made (%)",
            [(f"{n} card{'' if n == 1 else 's'}", r) for n, r in report.by_cards.items()],
        ),
        points_bars(
            "Points per hand by role",
            "mean points per hand",
            [(words, report.roles[key]) for key, words in ROLES],
        ),
        rate_bars("Bonuses (FC-8)", "hands (%)", [(words, report.bonuses[key]) for key, words in BONUSES]),
    )


REPORT = ReportPart(
    hand_facts=hand_facts,
    build=free_report,
    facts_type=FreeHandFacts,
    charts=free_charts,
    summary="how often the auction winner makes the contract by the highest bid's tier and by the number of cards "
    "bid, how often Joker teams take all 10 tricks, mean points per hand by role, and how often each bonus is won.",
)
"""The registry part ``report``: the Free Clubs balance report."""
