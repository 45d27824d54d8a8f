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


def _choose_in_c() -> None:
    """Draw in C where the compiled core is built (``native/_cards.random_choose``: the same draw, the same action),
    unless ``CLUBS_PURE_PYTHON`` is set when this module is imported: at a random bot's every decision the call
    costs as much as the rules."""
    from clubsuite.native import compiled, pure_python

    module = None if pure_python() else compiled("clubsuite.native._cards")
    if module is not None:
        module.install_choose(RandomBot)


_choose_in_c()
