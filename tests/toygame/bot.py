"""High Card's heuristic bot: the highest legal card."""

from __future__ import annotations

import random
from typing import Any

from clubsuite.bots import register_bot
from clubsuite.engine import LegalActions


class HighestBot:
    """Plays its highest legal card."""

    name = "heuristic"

    def choose(self, view: Any, legal: LegalActions, rng: random.Random) -> Any:
        return max(legal, key=lambda c: c.rank)


register_bot("heuristic", HighestBot, "highcard")
