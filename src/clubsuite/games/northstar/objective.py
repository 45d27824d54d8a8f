"""What search bots maximize in North Star's CLUBS: the chance that the seat's team (or the seat alone) has the
highest total once one reaches the target (NS-7, NS-10).

A race of the team totals (each player a team of one without team play) to the target:
:func:`clubsuite.bots.objective.race_share` with a team's mean points in a round (7.4 per player, measured with
heuristic bots) and their spread. There is no exact solver for a climbing game: search bots play rounds out.
"""

from __future__ import annotations

from clubsuite.bots.objective import match_result, race_share
from clubsuite.engine import SomeMatch
from clubsuite.games.northstar.match import NorthstarMatch

GAIN_PER_PLAYER = 7.4
"""Mean points of a player in a round."""
SPREAD_PER_PLAYER = 5.5
"""Standard deviation of a player's points in a round."""


class NorthstarObjective:
    """The North Star objective (see the module docstring)."""

    measures: tuple[str, ...] = ()
    solve_in_search = False

    def value(self, match: SomeMatch, seat: int) -> float:
        """After a round: the result, or the race share of the team totals."""
        done = match_result(match, seat, 0.0)
        if done is not None:
            return done
        assert isinstance(match, NorthstarMatch)
        opts = match.options
        size = match.n_seats / opts.n_teams
        return race_share(
            match.team_totals, opts.team_of(seat), opts.goal, GAIN_PER_PLAYER * size, SPREAD_PER_PLAYER * size**0.5
        )

    def value_of_count(self, match: SomeMatch, seat: int, measure: str, count: int) -> float:
        """Never asked: the game has no solver measures."""
        raise NotImplementedError("North Star's CLUBS has no exact solver")


OBJECTIVE = NorthstarObjective()
