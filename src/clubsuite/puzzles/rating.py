"""A new puzzle's first rating: an estimate of how hard it is, before anyone has tried it.

Lichess starts a puzzle at a fixed rating and lets the attempts move it; a first estimate closer to the truth means
fewer players meet a puzzle far from their level while it settles. Ours is read from the suite's own players, each
deciding from the seat's own view as a person would (an exact puzzle shows every hand, so a person has more to go
on; that is why each miss counts for less than it would for a player who sees all):

* 1000 to start;
* 300 more if the ``heuristic`` bot (a player who follows sound habits) does not find the answer, and 300 more if
  ``pimc`` (a search over the deals the seat cannot tell apart) does not;
* 20 for each legal action past two (more to choose from), at most 200;
* for an exact puzzle, 20 for each card the seat holds past one (longer to read to the end), at most 160;
* 100 more for a single-dummy puzzle (what the others hold must be guessed, not read).

So a first rating runs from 1000 (a habit finds it among two cards) to 1960. Each bot decides from a seed the
puzzle's position gives, so the estimate is the same every time.
"""

from __future__ import annotations

import random

from clubsuite.bots.base import make_bot
from clubsuite.engine import SomeMatch
from clubsuite.puzzles.model import RATING_RANGE
from clubsuite.server.people.ratings import SHOWN_CENTRE, SHOWN_SCALE, START, Skill, rate

BASE = 1000
MISS = {"heuristic": 300, "pimc(samples=16)": 300}
"""What each bot's miss adds (the bots are asked in this order)."""
PER_ACTION, MOST_ACTIONS = 20, 200
PER_CARD, MOST_CARDS = 20, 160
SINGLE_DUMMY = 100


def first_rating(before: SomeMatch, solution: object, kind: str, seed: int) -> int:
    """The first rating of a puzzle at ``before`` whose answer is ``solution`` (see the module docstring)."""
    seat = before.to_act
    assert seat is not None
    legal = before.legal_actions()
    rating = BASE
    for spec, miss in MISS.items():
        bot = make_bot(spec, before.game)
        choice = bot.choose(before.view(seat), legal, random.Random(seed))
        if choice != solution:
            rating += miss
    rating += min(MOST_ACTIONS, PER_ACTION * max(0, len(legal) - 2))
    if kind == "single_dummy":
        rating += SINGLE_DUMMY
    else:
        held: list[int] = before.hands[-1].hands  # type: ignore[attr-defined]
        rating += min(MOST_CARDS, PER_CARD * max(0, int(held[seat]).bit_count() - 1))
    return max(RATING_RANGE[0], min(RATING_RANGE[1], rating))


# -- attempts --------------------------------------------------------------------------------------------------------
#
# Every attempt is a rated game between the player and the puzzle (lichess rates puzzles so, with Glicko-2): solving
# it wins, a wrong answer loses, and both ratings move. The arithmetic is OpenSkill's Plackett-Luce model, the one
# the server rates matches with (clubsuite.server.people.ratings), on the same scale: a rating of 1500 is a mean
# skill of 25 and 60 rating points are one unit of it.

PUZZLE_SIGMA = 25.0 / 6.0
"""How unsure a new puzzle's first rating is: half a new player's (the first estimate says something), shown as
± 500."""


def puzzle_skill(rating: int) -> Skill:
    """A new puzzle's skill from its first rating."""
    return Skill(START.mu + (rating - SHOWN_CENTRE) / SHOWN_SCALE, PUZZLE_SIGMA)


def attempt(player: Skill, puzzle: Skill, solved: bool) -> tuple[Skill, Skill]:
    """The player's and the puzzle's skills after one attempt (``solved``: the first answer given was right)."""
    after = rate([player, puzzle], [0, 1] if solved else [1, 0], ())
    return after[0], after[1]
