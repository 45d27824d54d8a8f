"""A new puzzle's first rating: an estimate of how hard it is, before anyone has tried it.

Lichess starts a puzzle at a fixed rating and lets the attempts move it; a first estimate closer to the truth means
fewer players meet a puzzle far from their level while it settles. Ours is read from the suite's own players, each
deciding from the seat's own view as a person would (an exact puzzle shows every hand, so a person has more to go
on). Who finds the answer sets the band, so that a puzzle a habit solves is never rated as a hard one:

* the ``heuristic`` bot (a player who follows sound habits) finds it: from 1000, under 1400;
* the heuristic misses it and ``pimc`` (a search over the deals the seat cannot tell apart) finds it: from 1400;
* both miss it: from 1800;

then within the band, more for what makes it longer to solve: 20 for each legal action past two (more to choose
from, at most 200), for an exact puzzle 20 for each card the seat holds past one (longer to read to the end, at most
160), 100 for a single-dummy puzzle (what the others hold must be guessed, not read); at most 390 in all, so a
rating stays in its band: from 1000 to 2190. Each bot decides from a seed the puzzle's position gives, so the
estimate is the same every time (and ``pimc`` is asked only where the heuristic misses).
"""

from __future__ import annotations

import random

from clubsuite.bots.base import make_bot
from clubsuite.engine import SomeMatch
from clubsuite.puzzles.model import RATING_RANGE
from clubsuite.ratings import SHOWN_CENTRE, SHOWN_SCALE, START, Skill, rate

HABIT, SEARCH = "heuristic", "pimc(samples=16)"
"""The suite's players asked, the habit first."""
FOUND_BY_HABIT, FOUND_BY_SEARCH, FOUND_BY_NONE = 1000, 1400, 1800
"""Where each band starts: the heuristic finds the answer; only the search does; neither does."""
PER_ACTION, MOST_ACTIONS = 20, 200
PER_CARD, MOST_CARDS = 20, 160
SINGLE_DUMMY = 100
MOST_EXTRA = 390
"""The most the length of a puzzle adds within its band."""


def finds(spec: str, before: SomeMatch, solution: object, seed: int) -> bool:
    """Whether the bot ``spec``, deciding from the seat's view with the seed ``seed``, plays ``solution``."""
    seat = before.to_act
    assert seat is not None
    bot = make_bot(spec, before.game)
    return bool(bot.choose(before.view(seat), before.legal_actions(), random.Random(seed)) == solution)


def rating_from(before: SomeMatch, kind: str, habit_finds: bool, search_finds: bool) -> int:
    """The first rating of a puzzle of ``kind`` at ``before``, given which of the bots find its answer (see the
    module docstring)."""
    seat = before.to_act
    assert seat is not None
    base = FOUND_BY_HABIT if habit_finds else FOUND_BY_SEARCH if search_finds else FOUND_BY_NONE
    extra = min(MOST_ACTIONS, PER_ACTION * max(0, len(before.legal_actions()) - 2))
    if kind == "single_dummy":
        extra += SINGLE_DUMMY
    else:
        held = before.hands[-1].hands
        extra += min(MOST_CARDS, PER_CARD * max(0, held[seat].bit_count() - 1))
    return max(RATING_RANGE[0], min(RATING_RANGE[1], base + min(MOST_EXTRA, extra)))


def first_rating(before: SomeMatch, solution: object, kind: str, seed: int) -> int:
    """The first rating of a puzzle at ``before`` whose answer is ``solution`` (see the module docstring)."""
    if finds(HABIT, before, solution, seed):
        return rating_from(before, kind, True, True)
    return rating_from(before, kind, False, finds(SEARCH, before, solution, seed))


# -- attempts --------------------------------------------------------------------------------------------------------
#
# Every attempt is a rated game between the player and the puzzle (lichess rates puzzles so, with Glicko-2): solving
# it wins, a wrong answer loses, and both ratings move. The arithmetic is OpenSkill's Plackett-Luce model, the one
# the server rates matches with (clubsuite.ratings), on the same scale: a rating of 1500 is a mean
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
