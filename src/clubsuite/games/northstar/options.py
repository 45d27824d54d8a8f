"""Rules options of North Star's CLUBS: player count, teams, the variants of the rulebook, club points, leftovers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from clubsuite.errors import InvalidOptionsError
from clubsuite.options import option

MIN_PLAYERS = 2
MAX_PLAYERS = 6

DEFAULT_CLUB_POINTS = (3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1)
"""Provisional points of the clubs 1..15 (NS-2): the printed values are not in our sources."""


class Leftover(StrEnum):
    """What happens to the cards not dealt in a round (NS-6)."""

    NEXT_ROUND = "next_round"
    """They are dealt first in the next round; the discards are shuffled in only when they run short (HUCH 2017)."""
    RESHUFFLE = "reshuffle"
    """All 60 cards are shuffled before every round (North Star 2013)."""


class Teams(StrEnum):
    """Team play (NS-10): teams of players sitting alternately."""

    NONE = "none"
    """Everyone plays for themselves."""
    TWO_BY_TWO = "2x2"
    """Four players in two teams of two (seats 0+2 and 1+3), to 100."""
    THREE_BY_TWO = "3x2"
    """Six players in three teams of two (seats 0+3, 1+4, 2+5), to 100."""
    TWO_BY_THREE = "2x3"
    """Six players in two teams of three (seats 0+2+4 and 1+3+5), to 150."""


_TEAM_SHAPE = {Teams.TWO_BY_TWO: (4, 2, 100), Teams.THREE_BY_TWO: (6, 3, 100), Teams.TWO_BY_THREE: (6, 2, 150)}
"""Team play: players needed, number of teams, the rulebook's target (NS-10)."""


@dataclass(frozen=True, kw_only=True)
class NorthstarOptions:
    """The rules options of North Star's CLUBS. The defaults are the rulebook's basic game as read by NS-1..NS-11."""

    players: int = option(4, "the number of players, 2 to 6; the bonus cards depend on it", "NS-1")
    teams: Teams = option(Teams.NONE, "team play: none, 2x2 (4 players), 3x2 or 2x3 (6 players)", "NS-10")
    double_or_nothing: bool = option(
        False, "a player may call double or nothing before playing their first card of the round", "NS-8"
    )
    wild_fifteens: bool = option(False, "a 15 may stand for any value", "NS-9")
    crazy: bool = option(False, "Crazy CLUBS: a 15 does not win at once and a longer play beats a shorter one", "NS-11")
    leftover: Leftover = option(
        Leftover.NEXT_ROUND, "undealt cards: next_round (dealt first next round) or reshuffle (every round)", "NS-6"
    )
    club_points: tuple[int, ...] = option(
        DEFAULT_CLUB_POINTS, "the points of the clubs 1..15 (15 numbers; provisional default)", "NS-2"
    )
    target: int = option(0, "the game ends after a round once a total reaches it; 0: 50, teams 100 or 150", "NS-7")

    def __post_init__(self) -> None:
        # The engine relies on exact types: a stray string or number must never reach it.
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidOptionsError(f"option players={self.players!r}: expected 2 to 6 players (NS-1)")
        for name, ruling in (("double_or_nothing", "NS-8"), ("wild_fifteens", "NS-9"), ("crazy", "NS-11")):
            if type(getattr(self, name)) is not bool:
                raise InvalidOptionsError(f"option {name}={getattr(self, name)!r}: expected true or false ({ruling})")
        for name, enum, ruling in (("teams", Teams, "NS-10"), ("leftover", Leftover, "NS-6")):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, enum(value))
            except ValueError:
                allowed = ", ".join(m.value for m in enum)
                raise InvalidOptionsError(f"option {name}={value!r}: expected one of {allowed} ({ruling})") from None
        if self.teams is not Teams.NONE and _TEAM_SHAPE[self.teams][0] != self.players:
            need = _TEAM_SHAPE[self.teams][0]
            raise InvalidOptionsError(
                f"option teams={self.teams.value} needs players={need}, not players={self.players} (NS-10)"
            )
        points = self.club_points
        if (
            not isinstance(points, tuple)
            or len(points) != 15
            or any(type(p) is not int or not 0 <= p <= 100 for p in points)
        ):
            raise InvalidOptionsError(
                f"option club_points={points!r}: expected 15 whole numbers 0..100, the points of the clubs 1 to 15, "
                "written 3/3/3/3/3/2/2/2/2/2/1/1/1/1/1 in a spec (NS-2)"
            )
        if type(self.target) is not int or not 0 <= self.target <= 100000:
            raise InvalidOptionsError(
                f"option target={self.target!r}: expected a whole number 1..100000, or 0 for the rulebook's (NS-7)"
            )

    @property
    def n_teams(self) -> int:
        """How many teams play (each player alone counts as a team of one without team play)."""
        return self.players if self.teams is Teams.NONE else _TEAM_SHAPE[self.teams][1]

    def team_of(self, seat: int) -> int:
        """The team of ``seat``: members sit alternately, so it is the seat modulo the number of teams (NS-10)."""
        return seat % self.n_teams

    @property
    def goal(self) -> int:
        """The score that ends the game: ``target``, or the rulebook's 50 (teams: 100, or 150 for 2x3) (NS-7, NS-10)."""
        if self.target:
            return self.target
        return 50 if self.teams is Teams.NONE else _TEAM_SHAPE[self.teams][2]


#: Named variants: the rulebook's variants and editions as presets (they combine with any other option).
VARIANTS: dict[str, dict[str, str]] = {
    "northstar-2013": {"leftover": Leftover.RESHUFFLE.value},
    "northstar-double": {"double_or_nothing": "true"},
    "northstar-wild": {"wild_fifteens": "true"},
    "northstar-crazy": {"crazy": "true"},
    "northstar-duel": {"players": "2"},
    "northstar-teams": {"players": "4", "teams": Teams.TWO_BY_TWO.value},
}
