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
        parts={
            "screen": "clubsuite.games.whist.screen:WhistTable",
            "lesson": "clubsuite.games.whist.lesson:LESSON",
            "shown": "clubsuite.games.whist.present:shown",
            "asked": "clubsuite.games.whist.present:asked",
            "label": "clubsuite.games.whist.present:label",
            "said": "clubsuite.games.whist.present:said",
            "account": "clubsuite.games.whist.present:account",
            "rulings": "clubsuite.games.whist.why:RULINGS",
            "themes": "clubsuite.games.whist.themes",
            "benchmark": "clubsuite.games.whist.benchmark:ENVS",
            "narrator": "clubsuite.games.whist.narration:WhistNarrator",
            "bots": "clubsuite.games.whist.bot",
            "schema": "clubsuite.games.whist.schema:SCHEMA",
            "spectator": "clubsuite.games.whist.spectator:public_dict",
            "words": "clubsuite.games.whist.words:WORDS",
            "objective": "clubsuite.games.whist.objective:OBJECTIVE",
            "fitted_objective": "clubsuite.games.whist.objective:FITTED_OBJECTIVE",
            "hidden": "clubsuite.games.whist.spectator:hidden_piles",
            "solver": "clubsuite.games.whist.solving:SOLVING",
            "rl": "clubsuite.games.whist.rl:coding",
            "report": "clubsuite.games.whist.report:REPORT",
            "bulk": "clubsuite.games.whist.bulk:compiled_matches",
            "playout": "clubsuite.games.whist.playout:compiled_finish",
            "vector": "clubsuite.games.whist.vector:kernel_tables",
        },
    )
)


def _conforms(match: WhistMatch) -> Match[WhistAction, WhistView, WhistOptions]:
    """Type-level check that the whist match satisfies the shared :class:`Match` protocol."""
    return match
