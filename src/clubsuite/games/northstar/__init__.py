"""North Star's CLUBS: the climbing game for 2 to 6 players, with its five variants.

Rules text ``northstar-clubs.txt`` (the rulebook in German, English, French and Dutch); rulings NS-1..NS-11. See
``docs/rules/northstar.md`` for the rules as implemented.
"""

from __future__ import annotations

from clubsuite.engine import GameInfo, Match, Unit, register
from clubsuite.games.northstar.combos import Call, Kind, NorthstarAction, Play, beats, generate, parse_play
from clubsuite.games.northstar.deal import NorthstarDeal, NorthstarShuffle, deal_from_shuffle
from clubsuite.games.northstar.events import (
    DoubleCalled,
    HandScored,
    HandStarted,
    LastTurn,
    MatchEnded,
    Passed,
    Played,
    RoundEnded,
    TrickWon,
    WentOut,
)
from clubsuite.games.northstar.hand import (
    BONUS_CARDS,
    NorthstarHand,
    NorthstarLegal,
    ScoreLine,
    club_points,
)
from clubsuite.games.northstar.match import NorthstarMatch, match_type
from clubsuite.games.northstar.options import VARIANTS, Leftover, NorthstarOptions, Teams
from clubsuite.games.northstar.parts import PARTS
from clubsuite.games.northstar.view import NorthstarView

__all__ = [
    "BONUS_CARDS",
    "Call",
    "DoubleCalled",
    "HandScored",
    "HandStarted",
    "Kind",
    "LastTurn",
    "Leftover",
    "MatchEnded",
    "NorthstarAction",
    "NorthstarDeal",
    "NorthstarHand",
    "NorthstarLegal",
    "NorthstarMatch",
    "NorthstarOptions",
    "NorthstarShuffle",
    "NorthstarView",
    "Passed",
    "Play",
    "Played",
    "RoundEnded",
    "ScoreLine",
    "Teams",
    "TrickWon",
    "WentOut",
    "beats",
    "club_points",
    "deal_from_shuffle",
    "generate",
    "parse_play",
]


def _new_match(options: NorthstarOptions | None = None, first_dealer: int = 0) -> NorthstarMatch:
    return match_type()(options, first_dealer)


def _players(options: NorthstarOptions) -> int:
    return options.players


def _teams(options: NorthstarOptions) -> tuple[tuple[int, ...], ...]:
    """The teams of seats under team play (NS-10); none when everyone plays alone."""
    if options.teams is Teams.NONE:
        return ()
    return tuple(tuple(s for s in range(options.players) if options.team_of(s) == t) for t in range(options.n_teams))


register(
    GameInfo(
        name="northstar",
        title="CLUBS (North Star)",
        seats=(2, 3, 4, 5, 6),
        options_class=NorthstarOptions,
        variants=VARIANTS,
        new_match=_new_match,
        deal_from_json=NorthstarDeal.from_json,
        deal_from_seed=NorthstarShuffle.from_seed,
        summary="a climbing game for 2 to 6 players, alone or in teams",
        order=2,
        showcase=("13S", "14H", "15C", "15D"),
        examples=("northstar(players=6,teams=2x3,wild_fifteens=true)",),
        seat_count=_players,
        teams_of=_teams,
        draw_note="North Star's CLUBS has none: a tie for the highest total plays another round, NS-7",
        win_note="win rate: matches won (the highest total once one reaches the target, NS-7); "
        "with teams, the team's wins (NS-10)",
        # a tournament table's lengths of play; hands per match measured with the heuristic bots over 60 matches:
        # whole match 5.4 rounds, target 20: 2.2, target 1: 1.1 (a tied top plays on, NS-7)
        units={"hand": Unit({"target": "1"}, 3.0), "short": Unit({"target": "20"}, 6.0)},
        match_minutes=14.0,
        parts=PARTS,
    )
)


def _conforms(match: NorthstarMatch) -> Match[NorthstarAction, NorthstarView, NorthstarOptions]:
    """Type-level check that the match satisfies the shared :class:`Match` protocol."""
    return match
