"""Free Clubs: three players, an auction of handicaps, the treasure chest, Joker teams and a 7-trick contract.

Rules text ``free-clubs.txt``; rulings FC-1..FC-10 (FC-10's table mode is the option ``misplays``). See
``docs/rules/free.md`` for the rules as implemented.
"""

from __future__ import annotations

from clubsuite.engine import GameInfo, Match, Unit, register
from clubsuite.games.free.deal import FreeDeal
from clubsuite.games.free.events import (
    AuctionPassed,
    AuctionWon,
    BidMade,
    CardPlayed,
    CardsPassed,
    ChestTaken,
    HandicapResolved,
    HandScored,
    HandStarted,
    MatchEnded,
    PassStarted,
    PlayStarted,
    TrickTaken,
)
from clubsuite.games.free.hand import (
    Call,
    FreeAction,
    FreeHand,
    MisplayCall,
    Stage,
    bid_tier,
    bid_value,
    score_hand,
)
from clubsuite.games.free.match import FreeMatch
from clubsuite.games.free.options import VARIANTS, FreeOptions
from clubsuite.games.free.parts import PARTS
from clubsuite.games.free.view import FreeView

__all__ = [
    "AuctionPassed",
    "AuctionWon",
    "BidMade",
    "Call",
    "CardPlayed",
    "CardsPassed",
    "ChestTaken",
    "FreeAction",
    "FreeDeal",
    "FreeHand",
    "FreeMatch",
    "FreeOptions",
    "FreeView",
    "HandScored",
    "HandStarted",
    "HandicapResolved",
    "MatchEnded",
    "PassStarted",
    "PlayStarted",
    "Stage",
    "TrickTaken",
    "bid_tier",
    "bid_value",
    "score_hand",
]


def _new_match(options: FreeOptions | None = None, first_dealer: int = 0) -> FreeMatch:
    return FreeMatch(options, first_dealer)


def _misplays(options: FreeOptions) -> bool:
    return options.misplays  # FC-10: table mode accepts a card that fails to follow suit


register(
    GameInfo(
        name="free",
        title="Free Clubs",
        seats=(3,),
        options_class=FreeOptions,
        variants=VARIANTS,
        new_match=_new_match,
        deal_from_json=FreeDeal.from_json,
        deal_from_seed=FreeDeal.from_seed,
        summary="3 players, an auction of handicaps, the treasure chest, Joker teams",
        order=1,
        accepts_misplays=_misplays,
        showcase=("10S", "JK1", "AH", "KD"),
        examples=("free(misplays=true)", "free(no_spades_needs_a_trick=true,target=300)"),
        draw_note="Free Clubs has none: a tie for the highest total plays another hand, FC-9",
        win_note="win rate: matches won; each match has one winner, the highest total once one reaches the target "
        "(FC-9)",
        # a tournament table's lengths of play; hands per match measured with the heuristic bots over 60 matches:
        # whole match 6.5 hands, target 100: 2.4, target 1: 1.03 (a tie for the top plays on, FC-9)
        units={"hand": Unit({"target": "1"}, 3.0), "short": Unit({"target": "100"}, 7.0)},
        match_minutes=20.0,
        parts=PARTS,
    )
)


def _conforms(match: FreeMatch) -> Match[FreeAction | MisplayCall, FreeView, FreeOptions]:
    """Type-level check that the Free Clubs match satisfies the shared :class:`Match` protocol."""
    return match
