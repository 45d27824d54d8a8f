"""Clubs (whist group): three players, the bid hand, clubs always trumps, a quota of four tricks.

Rules texts ``clubs-whist.txt`` (the default) and ``clubs-whist-1997.txt`` (variant ``whist-1997``); rulings
CW-1..CW-5. See ``docs/rules/whist.md`` for the rules as implemented.
"""

from __future__ import annotations

from clubsuite.engine import GameInfo, Match, Unit, register
from clubsuite.games.whist.deal import WhistDeal
from clubsuite.games.whist.events import (
    CardPlayed,
    Decided,
    HandScored,
    HandStarted,
    MatchEnded,
    PlayStarted,
    TrickTaken,
)
from clubsuite.games.whist.hand import QUOTA, Decision, WhistAction, WhistHand
from clubsuite.games.whist.match import WhistMatch, match_type
from clubsuite.games.whist.options import VARIANTS, LeadAfterExchange, WhistOptions
from clubsuite.games.whist.parts import PARTS
from clubsuite.games.whist.view import WhistView

__all__ = [
    "QUOTA",
    "CardPlayed",
    "Decided",
    "Decision",
    "HandScored",
    "HandStarted",
    "LeadAfterExchange",
    "MatchEnded",
    "PlayStarted",
    "TrickTaken",
    "WhistAction",
    "WhistDeal",
    "WhistHand",
    "WhistMatch",
    "WhistOptions",
    "WhistView",
]


def _new_match(options: WhistOptions | None = None, first_dealer: int = 0) -> WhistMatch:
    return match_type()(options, first_dealer)


register(
    GameInfo(
        name="whist",
        title="Clubs (whist group)",
        seats=(3,),
        options_class=WhistOptions,
        variants=VARIANTS,
        new_match=_new_match,
        deal_from_json=WhistDeal.from_json,
        deal_from_seed=WhistDeal.from_seed,
        summary="3 players, the bid hand, clubs always trumps, a quota of four tricks",
        order=0,
        showcase=("AC", "KC", "QC", "JC"),
        examples=("whist(lead_after_exchange=left_of_last_exchanger)", "whist-1997(target=9)"),
        draw_note="all players at a target at once, CW-5; nobody wins a draw",
        win_note="win rate: matches whose winners include the bot's seat; several players can win one match (CW-5)",
        # a tournament table's lengths of play; hands per match measured with the heuristic bots over 60 matches:
        # whole match 4.9 hands, target 5: 2.3, target 1: 1.0
        units={"hand": Unit({"target": "1"}, 3.0), "short": Unit({"target": "5"}, 7.0)},
        match_minutes=15.0,
        parts=PARTS,
    )
)


def _conforms(match: WhistMatch) -> Match[WhistAction, WhistView, WhistOptions]:
    """Type-level check that the whist match satisfies the shared :class:`Match` protocol."""
    return match
