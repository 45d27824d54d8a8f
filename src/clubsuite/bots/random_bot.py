"""The random bot: a uniformly random legal action, for any game."""

from __future__ import annotations

import random
from math import floor
from typing import TYPE_CHECKING, TypeVar

from clubsuite.bots.base import register_bot
from clubsuite.engine import LegalActions
from clubsuite.native import compiled, pure_python

ActionT = TypeVar("ActionT")


def python_choose(self: RandomBot, view: object, legal: LegalActions[ActionT], rng: random.Random) -> ActionT:
    """Any legal action, each with the same chance: the Python statement of :meth:`RandomBot.choose`, which the
    compiled core (``native/_cards.random_choose``) follows."""
    # floor(random() * n) is uniform up to a 2**-53 bias and several times faster than randrange.
    return legal[floor(rng.random() * len(legal))]


_CARDS = None if pure_python() else compiled("clubsuite.native._cards")
"""The compiled card paths where built, unless ``CLUBS_PURE_PYTHON`` is set when this module is imported: the draw
is then made in C (at a random bot's every decision the call costs as much as the rules)."""


class RandomBot:
    """Plays a uniformly random legal action; ignores the view."""

    name = "random"

    if TYPE_CHECKING:

        def choose(self, view: object, legal: LegalActions[ActionT], rng: random.Random) -> ActionT:
            """Any legal action, each with the same chance."""
            ...

    else:
        choose = python_choose if _CARDS is None else _CARDS.random_choose


register_bot("random", RandomBot)
