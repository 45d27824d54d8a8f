"""Levels for people: ``easy``, ``normal``, ``hard`` and ``expert``, each a bot and a budget, for every game.

=========  ==========================================================================================
``easy``   the heuristic bot with slips (a beatable opponent): a newcomer's habit where the game's heuristic offers
           one, as often as it says; elsewhere a random legal action in one decision of three
``normal`` the heuristic bot: rule-based, instant
``hard``   ``pimc(samples=8,ms=10000)``: determinized search over 8 worlds, some 50 ms a decision on one core
``expert`` ``pimc(samples=32,ms=30000)``: the same search over 32 worlds, some 250 ms a decision (both times in
           Python; a game's compiled kernels make the same decisions some ten times sooner)
=========  ==========================================================================================

A level's budget is **work** (worlds; the solver's own limit is nodes), so a level plays the same on a busy machine
as on a quiet one, only slower: its strength does not depend on the load. The wall-time setting is a cap for the
person waiting, set several times above the slowest decisions measured (``docs/bots.md``, "Levels"); a search it
stops ends after the world in progress. The strength ladder in ``docs/bots.md`` measures each step. A game without a
heuristic bot uses the random bot where the table says heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from clubsuite.bots.base import SomeBot, bot_names, make_bot, register_bot
from clubsuite.engine import LegalActions, games

LEVELS: dict[str, str] = {
    "easy": "easy",
    "normal": "heuristic",
    "hard": "pimc(samples=8,ms=10000)",
    "expert": "pimc(samples=32,ms=30000)",
}
"""Each level's bot spec (``easy`` is its own bot, below)."""
SEARCHING = frozenset({"pimc", "ismcts", "hard", "expert"})
"""The bots (and levels) that search at every decision, for a tenth of a second up to a few seconds of CPU: a server
runs them apart from the instant ones and bounds how many tables one person may give them."""
EASY_SLIPS = 3
"""The easy bot slips once in this many decisions, on average, unless the game's heuristic says otherwise."""


def searches(name: str) -> bool:
    """Whether the bot ``name`` (a name or a spec) searches at every decision."""
    return name.split("(", 1)[0].strip() in SEARCHING


def lobby_order(names: list[str]) -> list[str]:
    """Bot names as a person should meet them: the levels first, easiest first, then the kinds by name."""
    return [n for n in LEVELS if n in names] + [n for n in names if n not in LEVELS]


class EasyBot:
    """The heuristic bot with slips, in about one decision of :data:`EASY_SLIPS`: a newcomer's habit where the
    game's heuristic bot offers one (its ``slip`` method, the same signature as ``choose``), a random legal action
    elsewhere; a heuristic that offers a slip may also say how often (``easy_slips``: once in that many decisions).

    A newcomer's habit is a legal move with a reason a newcomer would give (in a trick game: take every trick you can,
    with your highest card, whatever the score); a random action is one nobody would choose. A game's heuristic offers a
    slip where random ones cost too little to make the level weaker (``docs/bots.md``, "Calibrated ratings").
    """

    def __init__(self, game: str) -> None:
        self.name = "easy"
        self.inner = make_bot("heuristic" if "heuristic" in bot_names(game) else "random", game)
        self.habit: Callable[[object, LegalActions[object], random.Random], object] | None = getattr(
            self.inner, "slip", None
        )
        self.every: int = getattr(self.inner, "easy_slips", EASY_SLIPS)

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """A slip or the heuristic's choice."""
        if rng.randrange(self.every) == 0:
            if self.habit is not None:
                return self.habit(view, legal, rng)
            return legal[rng.randrange(len(legal))]
        return self.inner.choose(view, legal, rng)


def _easy(game: str) -> Callable[[], SomeBot]:
    return lambda: EasyBot(game)


def _level(game: str, spec: str) -> Callable[[], SomeBot]:
    return lambda: make_bot(spec, game)


for _info in games():
    _game = _info.name
    register_bot("easy", _easy(_game), _game)
    for _level_name, _spec in LEVELS.items():
        if _level_name != "easy":
            register_bot(_level_name, _level(_game, _spec), _game)
