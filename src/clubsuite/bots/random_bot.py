"""The random bot: a uniformly random legal action, for any game."""

from __future__ import annotations

import random
from math import floor
from typing import TypeVar

from clubsuite.bots.base import register_bot
from clubsuite.engine import LegalActions

ActionT = TypeVar("ActionT")


class RandomBot:
    """Plays a uniformly random legal action; ignores the view."""

    name = "random"

    def choose(self, view: object, legal: LegalActions[ActionT], rng: random.Random) -> ActionT:
        """Any legal action, each with the same chance."""
        # floor(random() * n) is uniform up to a 2**-53 bias and several times faster than randrange.
        return legal[floor(rng.random() * len(legal))]


register_bot("random", RandomBot)
