"""Clubs (partnership): four players in two partnerships, a three-card pass, clubs trumps, the Ruby Dame.

Rules text ``clubs-partnership.txt`` (Clubs, version 5); rulings CP-1..CP-4. See ``docs/rules/partnership.md`` for
the rules as implemented.
"""

from __future__ import annotations

from clubsuite.engine import GameInfo, Match, Unit, register
from clubsuite.games.partnership.deal import PartnershipDeal
from clubsuite.games.partnership.events import (
    CardPlayed,
    CardsPassed,
    HandScored,
    HandStarted,
    MatchEnded,
    PassChosen,
    PlayStarted,
    TrickTaken,
)
from clubsuite.games.partnership.hand import (
    PASS_SIZE,
    RUBY_DAME,
    RUBY_DAME_POINTS,
    SWEEP_BONUS,
    TEAMS,
    Direction,
    PartnershipAction,
    PartnershipHand,
    Pass,
    PassChoices,
    ScoreLine,
    giver,
    pass_direction,
    receiver,
    score_lines,
    team_of,
)
from clubsuite.games.partnership.match import PartnershipMatch, match_type
from clubsuite.games.partnership.options import VARIANTS, PartnershipOptions
from clubsuite.games.partnership.parts import PARTS
from clubsuite.games.partnership.view import PartnershipView

__all__ = [
    "PASS_SIZE",
    "RUBY_DAME",
    "RUBY_DAME_POINTS",
    "SWEEP_BONUS",
    "TEAMS",
    "CardPlayed",
    "CardsPassed",
    "Direction",
    "HandScored",
    "HandStarted",
    "MatchEnded",
    "PartnershipAction",
    "PartnershipDeal",
    "PartnershipHand",
    "PartnershipMatch",
    "PartnershipOptions",
    "PartnershipView",
    "Pass",
    "PassChoices",
    "PassChosen",
    "PlayStarted",
    "ScoreLine",
    "TrickTaken",
    "giver",
    "pass_direction",
    "receiver",
    "score_lines",
    "team_of",
]


def _new_match(options: PartnershipOptions | None = None, first_dealer: int = 0) -> PartnershipMatch:
    return match_type()(options, first_dealer)


def _teams(options: PartnershipOptions) -> tuple[tuple[int, ...], ...]:
    return TEAMS


register(
    GameInfo(
        name="partnership",
        title="Clubs (partnership)",
        seats=(4,),
        options_class=PartnershipOptions,
        variants=VARIANTS,
        new_match=_new_match,
        deal_from_json=PartnershipDeal.from_json,
        deal_from_seed=PartnershipDeal.from_seed,
        teams_of=_teams,
        fixed_teams=True,
        summary="4 players in two partnerships, a three-card pass, the Ruby Dame",
        order=3,
        showcase=("QD", "AC", "KS", "7H"),
        examples=("partnership(target=200)",),
        draw_note="the partnership game has none: an exact tie at the target plays another hand, CP-4",
        win_note="win rate: matches the partnership won, the higher total once one reaches the target (CP-4); "
        "points/hand: the partnership's points (31 a hand, 36 with a sweep, CP-3)",
        # a tournament table's lengths of play; hands per match measured with the heuristic bots over 60 matches:
        # whole match 9.2 hands, target 50: 3.2, target 1: 1.0 (an exact tie plays on, CP-4)
        units={"hand": Unit({"target": "1"}, 4.0), "short": Unit({"target": "50"}, 11.0)},
        match_minutes=32.0,
        parts=PARTS,
    )
)


def _conforms(match: PartnershipMatch) -> Match[PartnershipAction, PartnershipView, PartnershipOptions]:
    """Type-level check that the partnership match satisfies the shared :class:`Match` protocol."""
    return match
