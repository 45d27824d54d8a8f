"""The ratings of rated matches: who finished where, how each person's skill moves, and the number a person reads.

This module is pure computation: it reads a finished match's summary and the players' skills and returns new
skills, with no database and no web code, so that the arithmetic of ratings can be tested alone and the server only
stores what it returns. It is the one place ratings are computed: the server's rated matches, the puzzles' ratings,
the terminal's puzzle command and the bots' calibration (``clubs calibrate``) all read it.

A skill is a belief about how well someone plays: a mean (``mu``) and how unsure that mean still is (``sigma``).
After a match the skills move with OpenSkill's Plackett-Luce model (the Weng-Lin Bayesian approximation), which
reads a whole finishing order at once, ties and teams included, so a four-player match is one piece of evidence and
not six invented two-player games. Ratings are kept per *pool* (a game at a seat count), because being good at a
game for two says little about the same game for six.

The steps of rating a match are :func:`finishing_ranks` (the order the match ended in), :func:`rate` (the new
skills), then :func:`shown` (what a person reads) and :func:`conservative` (what a leaderboard sorts by).
``docs/ratings.md`` explains the choices for players and operators.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clubsuite import engine

if TYPE_CHECKING:  # OpenSkill is read when a rating is updated: a table's pool and a shown number need none of it
    from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Skill:
    """What the ratings believe about one person in one pool: a mean skill and how unsure it still is.

    ``mu`` is the most likely skill and ``sigma`` the standard deviation of the belief (on OpenSkill's scale, where a
    newcomer is 25 and 25/3). Both are kept exactly as the model returns them; only :func:`shown` rounds, so that
    rounding never accumulates from match to match.
    """

    mu: float
    """The mean of the belief: the skill the person most likely has."""
    sigma: float
    """The standard deviation of the belief: large for a newcomer, shrinking as matches tell more."""


_MU = 25.0
"""OpenSkill's default mean for a newcomer (the scale every other number here is measured on)."""
_SIGMA = 25.0 / 3.0
"""OpenSkill's default uncertainty for a newcomer: a third of the mean, so that the newcomer's conservative rating,
mu - 3 sigma, is exactly zero."""

START = Skill(_MU, _SIGMA)
"""The skill of a newcomer to a pool: OpenSkill's defaults, mu 25 and sigma 25/3 (shown as 1500 ± 1000)."""

SKILL_LIMIT = 1000.0
"""The largest ``abs(mu)`` and ``sigma`` that :func:`rate` accepts. Real play keeps mu within a few dozen points of
25 and sigma below its starting 25/3; the limit only keeps a corrupted value from reaching the model's exponentials,
and within it the model's arithmetic cannot overflow for sides of up to four players."""

PROVISIONAL_MATCHES = 10
"""A person's rating in a pool is *provisional* (shown with a "?", kept off the leaderboard) until it rests on this
many rated matches. After one match it moves by hundreds of points either way; after ten three-player matches at
random places its ± has come down from 1000 to about 580 and each further match moves it far less (docs/ratings.md).
Bots are never provisional: their ratings start from their calibration."""


def provisional(matches: int) -> bool:
    """Whether a person's rating that rests on ``matches`` rated matches is still provisional."""
    return matches < PROVISIONAL_MATCHES


SHOWN_CENTRE = 1500
"""The shown rating of a mean skill of 25, a newcomer's: the familiar middle of Elo-style ladders."""
SHOWN_SCALE = 60
"""Shown points per unit of ``mu``: 60 makes a newcomer's two-sigma spread (2 x 25/3 = 16.7 units) exactly 1000."""


def model() -> PlackettLuce:
    """A fresh OpenSkill Plackett-Luce model with its default settings (a fresh one per use: OpenSkill's ``rate()``
    may change its model's settings)."""
    from openskill.models import PlackettLuce  # here: the page's offline core reads pools without OpenSkill

    return PlackettLuce()


def pool(info: engine.SomeGame, options: object) -> str:
    """The rating pool a table plays in: the game's name, with ``-{n}p`` added (``-4p`` for four seats) when the
    game allows more than one seat count.

    A game's shape changes with the number of seats (a two-player duel and a six-player table reward different
    play), so each count keeps ratings of its own. Variants and house rules share their game's pool: they change
    details, not what being good at the game means. A game with one seat count needs no suffix: its pool is named
    by the game alone. Options of another game are refused with :class:`TypeError`.
    """
    if not isinstance(options, info.options_class):
        raise TypeError(
            f"the options of game {info.name!r} must be {info.options_class.__name__}, not {type(options).__name__}"
        )
    if len(info.seats) > 1:
        return f"{info.name}-{info.n_seats(options)}p"
    return info.name


def finishing_ranks(
    summary: Mapping[str, object],
    n_seats: int,
    teams: Sequence[Sequence[int]],
    left: Collection[int] = (),
) -> list[int]:
    """The rank each seat finished at (0 is best, equal ranks for ties), read from a finished match's ``summary()``.

    The order is: the winners first, all at rank 0 whatever their totals (in a game where a total of -11 wins as
    surely as +11, both rank 0); then everyone else by total, highest first, equal totals sharing a rank; then the
    seats in ``left`` (people who left a rated match), all sharing the last rank, below everyone and below every
    tie, even with the most points or a win, so that leaving a match one is losing never protects a rating. A draw
    (``"draw": true``, no winners) has no winners to put first, so it ranks by totals alone; so does a match cut
    short with neither winners nor a draw (when someone left, say).

    Partners are ranked as one side and always share their side's rank: a team's total is the sum of its members'
    totals (the team's score where partners score apart; where each partner carries the team's score, the sum is a
    multiple of it, which orders teams of equal size the same), a team wins if its members are among the winners,
    and a team with a leaver finishes last as a whole. ``teams`` is the game's teams as seat tuples; a seat in no
    team (or every seat, when ``teams`` is empty) is a side alone.

    Ranks are competition ranks counted in sides ("1224"): a seat's rank is the number of sides that finished
    strictly ahead of its side. Two sides tied for first are both 0 and the next side is 2, so a rank always says
    how many sides did better. :func:`rate` reads only the order and the ties, so dense ranks would rate the same.
    """
    if type(n_seats) is not int or n_seats < 1:
        raise ValueError(f"the number of seats must be a whole number of at least 1, not {n_seats!r}")
    totals = _totals(summary, n_seats)
    draw = summary.get("draw")
    if not isinstance(draw, bool):
        raise ValueError(f"the summary's 'draw' must be true or false, not {draw!r}")
    winners = _seats(summary.get("winners"), n_seats, "the summary's 'winners'")
    if draw and winners:
        raise ValueError(f"the summary is a draw and yet names winners {sorted(winners)}: a draw has no winners")
    leavers = _seats(left, n_seats, "the seats that left")
    sides = match_sides(n_seats, teams)

    keys: list[tuple[int, float] | None] = []  # per side: None for a side with a leaver, else (won, total)
    for side in sides:
        if not leavers.isdisjoint(side):
            keys.append(None)
        elif not winners.isdisjoint(side):
            keys.append((1, 0))
        else:
            keys.append((0, sum(totals[s] for s in side)))
    staying = [key for key in keys if key is not None]
    ranks = [0] * n_seats
    for side, key in zip(sides, keys, strict=True):
        rank = len(staying) if key is None else sum(1 for other in staying if other > key)
        for seat in side:
            ranks[seat] = rank
    return ranks


def rate(skills: Sequence[Skill], ranks: Sequence[int], teams: Sequence[Sequence[int]]) -> list[Skill]:
    """The new skill of every seat after one match, by OpenSkill's Plackett-Luce model.

    ``skills`` and ``ranks`` are per seat (``ranks`` as :func:`finishing_ranks` gives them: lower is better, equal
    for a tie; only their order and ties matter). Each team of ``teams`` is rated as one side whose members keep
    their own skills: the team's strength is the sum of its members', and each member's mean moves in the team's
    direction by a share that grows with how unsure that member's own skill is. Every seat in no team is a side
    alone (everyone, when ``teams`` is empty). Partners must share a rank.

    The result is deterministic and the arguments are left untouched. Every returned sigma is positive and finite:
    the model never lets one match cut a sigma below a hundredth of what it was. Each match first widens every
    sigma by a small amount (the model's ``tau``, 25/300) before the result narrows it, so that ratings keep
    following people who improve; for someone already very certain the widening can outweigh what one match tells,
    and their sigma then grows a hair.

    Refused with :class:`ValueError`: lengths that differ, fewer than two sides, a skill that is not finite or is
    outside :data:`SKILL_LIMIT` (or a sigma that is not positive), a rank that is not a whole number, partners with
    different ranks, a seat of ``teams`` that is not a seat or is in two teams, and sides so far apart that the
    model's arithmetic would overflow (impossible within the limit for sides of up to four players).
    """
    n_seats = len(skills)
    if len(ranks) != n_seats:
        raise ValueError(f"{len(ranks)} ranks for {n_seats} skills: give one rank per seat")
    for seat, skill in enumerate(skills):
        _check_skill(seat, skill)
    for seat, rank in enumerate(ranks):
        if type(rank) is not int:
            raise ValueError(f"the rank of seat {seat} must be a whole number, not {rank!r}")
    sides = match_sides(n_seats, teams)
    if len(sides) < 2:
        raise ValueError(f"a match needs at least two sides to rate, not {len(sides)}")
    side_ranks = []
    for side in sides:
        found = {ranks[s] for s in side}
        if len(found) > 1:
            raise ValueError(f"partners {list(side)} must share a rank, not {sorted(found)}")
        side_ranks.append(ranks[side[0]])
    order = sorted(set(side_ranks))
    dense = [float(order.index(r)) for r in side_ranks]  # small exact numbers: openskill truncates ranks to int

    fresh = model()
    before = [[fresh.rating(skills[s].mu, skills[s].sigma) for s in side] for side in sides]
    try:
        after = fresh.rate(before, ranks=dense)
    except (ArithmeticError, ValueError) as exc:
        raise ValueError(f"these skills are too far apart for the model to compare: {exc}") from exc
    out = list(skills)
    for side, rated in zip(sides, after, strict=True):
        for seat, new in zip(side, rated, strict=True):
            if not (math.isfinite(new.mu) and math.isfinite(new.sigma) and new.sigma > 0):
                raise ValueError(f"these skills are too far apart for the model to compare (seat {seat} got {new})")
            out[seat] = Skill(float(new.mu), float(new.sigma))
    return out


def shown(skill: Skill) -> tuple[int, int]:
    """What a person reads: ``(rating, plus_minus)``, as in "1500 ± 1000".

    The scale is ``rating = round(1500 + 60 * (mu - 25))`` and ``plus_minus = round(2 * 60 * sigma)``: the mean
    moved to the familiar 1500 of Elo-style ladders and stretched so that one unit of OpenSkill's mean is 60 points,
    and the ± is two standard deviations, so the true strength lies within ``rating ± plus_minus`` with about 95%
    confidence. A newcomer reads 1500 ± 1000; the ± narrows with every match that tells something. Only this
    function rounds: the stored skill keeps every digit.
    """
    if not (math.isfinite(skill.mu) and math.isfinite(skill.sigma)):
        raise ValueError(f"cannot show a skill that is not finite: {skill}")
    return round(shown_rating(skill.mu)), round(shown_margin(skill.sigma))


def shown_rating(mu: float) -> float:
    """A mean skill on the shown scale, unrounded: ``1500 + 60 (mu - 25)`` (what :func:`shown` rounds; a
    calibration reports it with its decimals)."""
    return SHOWN_CENTRE + SHOWN_SCALE * (mu - _MU)


def shown_margin(sigma: float) -> float:
    """An uncertainty on the shown scale, unrounded: ``2 x 60 sigma``, the ``±`` that :func:`shown` rounds."""
    return 2 * SHOWN_SCALE * sigma


def conservative(skill: Skill) -> float:
    """The skill a leaderboard sorts by: ``mu - 3 * sigma``, a value the true skill exceeds with about 99.9% belief.

    Sorting by the mean alone would put at the top whoever won their first two matches, whose mean is high only
    because little is known; subtracting three sigmas makes a place at the top something earned by many results. A
    newcomer's conservative skill is exactly 0 (25 - 3 x 25/3), and it rises both with winning and with playing
    (each match narrows sigma). It is OpenSkill's ``ordinal()``.
    """
    return skill.mu - 3.0 * skill.sigma


# -- checking what comes in ------------------------------------------------------------------------------------------
def _check_skill(seat: int, skill: Skill) -> None:
    """Refuse a skill the model cannot take (see :func:`rate`)."""
    mu, sigma = skill.mu, skill.sigma
    for name, value in (("mu", mu), ("sigma", sigma)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"the {name} of seat {seat} must be a finite number, not {value!r}")
    if abs(mu) > SKILL_LIMIT:
        raise ValueError(f"the mu of seat {seat} must be within ±{SKILL_LIMIT:g}, not {mu!r}")
    if not 0 < sigma <= SKILL_LIMIT:
        raise ValueError(f"the sigma of seat {seat} must be above 0 and at most {SKILL_LIMIT:g}, not {sigma!r}")


def match_sides(n_seats: int, teams: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The sides of a match: each team, then each seat in no team alone (what a place is counted among); refuses a
    team that is not of seats."""
    taken: set[int] = set()
    sides: list[tuple[int, ...]] = []
    for team in teams:
        members = tuple(team)
        if not members:
            raise ValueError("a team must have at least one seat")
        for seat in members:
            if type(seat) is not int or not 0 <= seat < n_seats:
                raise ValueError(f"team {list(members)} names {seat!r}, which is not a seat (0 to {n_seats - 1})")
            if seat in taken:
                raise ValueError(f"seat {seat} is in two teams")
            taken.add(seat)
        sides.append(members)
    sides.extend((seat,) for seat in range(n_seats) if seat not in taken)
    return sides


def _seats(value: object, n_seats: int, what: str) -> frozenset[int]:
    """A collection of seats, each checked to be a seat."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Collection):
        raise ValueError(f"{what} must be a list of seats, not {value!r}")
    for seat in value:
        if type(seat) is not int or not 0 <= seat < n_seats:
            raise ValueError(f"{what} include {seat!r}, which is not a seat (0 to {n_seats - 1})")
    return frozenset(value)


def _totals(summary: Mapping[str, object], n_seats: int) -> list[float]:
    """The summary's totals, one finite number per seat."""
    totals = summary.get("totals")
    if not isinstance(totals, Sequence) or isinstance(totals, str | bytes) or len(totals) != n_seats:
        raise ValueError(f"the summary's 'totals' must be a list of {n_seats} numbers, not {totals!r}")
    for value in totals:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"the summary's 'totals' must be finite numbers, not {value!r}")
    return list(totals)
