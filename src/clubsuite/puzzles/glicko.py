"""Puzzle ratings as lichess keeps them: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012) with
lichess's parameters, each attempt a game between the player and the puzzle.

A rating here is three numbers (:class:`Glicko`): the rating, its deviation (how unsure it is, one standard
deviation on the rating's scale) and its volatility (how erratic the player's results are). Lichess's choices,
kept as it keeps them (``docs/puzzles.md`` lists each with where it comes from):

* a newcomer is 1500, deviation 500, volatility 0.09; a new puzzle starts at its first rating with the same
  deviation and volatility (lichess starts a new puzzle at 1500: ours starts at the estimate the generator made);
* the system constant tau is 0.75, and each attempt is one rating period (the deviation widens by the volatility
  once before the result narrows it); the root of step 5 is sought to a tolerance of 0.000001;
* every rating is kept within bounds after each update: rating at least 400, deviation 45 to 500, volatility at most
  0.1 (lichess's ``cap``);
* a rating is **provisional** (shown with "?") while its deviation is 110 or more, and a player is **clueless**
  while theirs is 230 or more: a clueless player's attempt does not move the puzzle (a newcomer's first answers
  say little about the puzzle);
* the player's new rating is the average of the old and the Glicko-2 result weighted by how much the attempt
  says: fully for a puzzle chosen near the player's rating, less where the puzzle's own rating is provisional
  (0.8 for a win, 0.3 for a miss: a miss at a puzzle nobody has rated yet says little about the player);
* a puzzle's rating moves at most 700 in one attempt.

The arithmetic of Glicko-2 is written here rather than taken from a library: the most used Python package of it
(``glicko2`` 2.1.0) computes step 5's function with the player's rating where Glickman's paper has the deviation,
and the others are early releases. The steps follow the paper and are checked against its worked example.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale (1500-centred) and its own."""
CENTRE = 1500.0
TAU = 0.75
"""The system constant: how far one surprising result may move a volatility (lichess's)."""
TOLERANCE = 0.000001
"""Step 5's convergence tolerance (the paper's and lichess's)."""
MOST_ITERATIONS = 1000

MIN_RATING = 400.0
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
DEFAULT_VOLATILITY = 0.09
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is this or more is provisional: shown with "?"."""
CLUELESS_DEVIATION = 230.0
"""A player whose deviation is this or more does not move the puzzles they attempt."""
MAX_RATING_DELTA = 700.0
"""The most a puzzle's rating moves in one attempt."""
PROVISIONAL_PUZZLE_WIN, PROVISIONAL_PUZZLE_MISS = -0.2, -0.7
"""What the weight of an attempt at a puzzle whose own rating is provisional loses, for a win and for a miss."""
LEAST_WEIGHT = 0.1


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating on the familiar scale: the rating, its deviation and the volatility."""

    rating: float
    deviation: float
    volatility: float

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (shown with "?")."""
        return self.deviation >= PROVISIONAL_DEVIATION

    @property
    def clueless(self) -> bool:
        """Whether so little is known of the player that their attempts do not move a puzzle."""
        return self.deviation >= CLUELESS_DEVIATION

    def shown(self) -> tuple[int, int]:
        """What a person reads: ``(rating, plus_minus)``, the ± two deviations (about 95% sure)."""
        return round(self.rating), round(2 * self.deviation)

    def capped(self) -> Glicko:
        """Within lichess's bounds (rating at least 400, deviation 45 to 500, volatility at most 0.1)."""
        return Glicko(
            max(MIN_RATING, self.rating),
            min(MAX_DEVIATION, max(MIN_DEVIATION, self.deviation)),
            min(MAX_VOLATILITY, self.volatility),
        )

    def towards(self, other: Glicko, weight: float) -> Glicko:
        """The average of this rating and ``other``, ``weight`` of the way to ``other`` (each number alike)."""
        if weight >= 1:
            return other
        if weight <= 0:
            return self
        return Glicko(
            self.rating + (other.rating - self.rating) * weight,
            self.deviation + (other.deviation - self.deviation) * weight,
            self.volatility + (other.volatility - self.volatility) * weight,
        )

    def sane(self) -> bool:
        """Whether every number is one a rating can have (lichess's ``sanityCheck``)."""
        return (
            0 < self.rating < 4000
            and 0 < self.deviation < 1000
            and 0 < self.volatility < 2 * MAX_VOLATILITY
            and all(math.isfinite(x) for x in (self.rating, self.deviation, self.volatility))
        )


NEWCOMER = Glicko(CENTRE, MAX_DEVIATION, DEFAULT_VOLATILITY)
"""A player's rating before any rated attempt: 1500, deviation 500 (shown "1500?")."""


def new_puzzle(first_rating: int) -> Glicko:
    """A puzzle's rating before any rated attempt: its first rating, lichess's deviation and volatility for a new
    puzzle."""
    return Glicko(float(first_rating), MAX_DEVIATION, DEFAULT_VOLATILITY)


def rate(player: Glicko, results: list[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """The player's rating after one rating period with ``results`` (each an opponent and the player's score, 1 a
    win, 0 a loss), by Glicko-2's steps 2 to 8; no bounds are applied here."""
    mu, phi, sigma = (player.rating - CENTRE) / SCALE, player.deviation / SCALE, player.volatility
    seen = [((o.rating - CENTRE) / SCALE, o.deviation / SCALE, score) for o, score in results]

    def g(phi_j: float) -> float:
        return 1.0 / math.sqrt(1.0 + 3.0 * phi_j**2 / math.pi**2)

    def expected(mu_j: float, phi_j: float) -> float:
        return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))

    v = 1.0 / sum(g(p) ** 2 * expected(m, p) * (1.0 - expected(m, p)) for m, p, _ in seen)
    gains = sum(g(p) * (s - expected(m, p)) for m, p, s in seen)
    delta = v * gains
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * gains
    return Glicko(CENTRE + SCALE * new_mu, SCALE * new_phi, new_sigma)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of the paper's ``f`` found by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MOST_ITERATIONS):
        if abs(high - low) <= TOLERANCE:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def attempt(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after one rated attempt (``solved``: the first answer was right), as
    lichess rates a puzzle played from its rated mix (see the module docstring)."""
    player_in, puzzle_in = player.capped(), puzzle.capped()
    score = 1.0 if solved else 0.0
    player_out = rate(player_in, [(puzzle_in, score)]).capped()
    puzzle_raw = rate(puzzle_in, [(player_in, 1.0 - score)])
    puzzle_out = Glicko(
        min(puzzle.rating + MAX_RATING_DELTA, max(puzzle.rating - MAX_RATING_DELTA, puzzle_raw.rating)),
        puzzle_raw.deviation,
        puzzle_raw.volatility,
    ).capped()
    weight = 1.0
    if puzzle.provisional:
        weight += PROVISIONAL_PUZZLE_WIN if solved else PROVISIONAL_PUZZLE_MISS
    moved = player.towards(player_out, max(LEAST_WEIGHT, weight))
    player_after = moved if moved.sane() else player
    puzzle_after = puzzle if player.clueless or not puzzle_out.sane() else puzzle_out
    return player_after, puzzle_after
