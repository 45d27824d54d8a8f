"""The bot protocol and the registry that builds bots by name for a game.

A bot is asked ``choose(view, legal, rng)`` whenever its seat is to act. ``view`` is that seat's view (never the
full state), ``legal`` the legal actions (supports ``in``, ``len``, iteration and indexing), ``rng`` an injected
``random.Random`` so that every bot decision is reproducible. The returned action must be one of ``legal``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from clubsuite.engine import LegalActions
from clubsuite.errors import InvalidOptionsError
from clubsuite.safetext import quoted

ActionT = TypeVar("ActionT")
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)


class Bot(Protocol[ActionT, ViewT_contra]):
    """Anything that picks an action for a seat from what that seat may see: generic over the game's action and
    view types (a bot for every game, like the random one, is generic in its ``choose``)."""

    @property
    def name(self) -> str:
        """The bot's registered kind."""
        ...

    def choose(self, view: ViewT_contra, legal: LegalActions[ActionT], rng: random.Random) -> ActionT:
        """Pick one of ``legal``."""
        ...


SomeBot = Bot[Any, Any]
"""A bot of any game, as the registry builds it from a game's name: which game (hence which action and view types)
is known only at run time; the registry hands a game only its own bots and the bots for every game."""

BotFactory = Callable[[], SomeBot]
_FACTORIES: dict[tuple[str, str], BotFactory] = {}
_ANY_GAME = "*"


def register_bot(name: str, factory: BotFactory, game: str = _ANY_GAME) -> None:
    """Make ``make_bot(name, game)`` build bots with ``factory`` (``game="*"``: for every game)."""
    _FACTORIES[(name, game)] = factory


BOTS_ENTRY_POINT = "clubsuite.bots"
"""The entry-point group through which another installed package adds bots: each entry names a module that calls
:func:`register_bot` when imported."""

_loaded = False


def _load() -> None:
    """Import the bot modules once: the random bot, each registered game's ``bots`` part, and the modules of the
    :data:`BOTS_ENTRY_POINT` group (done lazily, as the bot modules import this one)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import importlib.metadata

    from clubsuite.engine import games, load_part

    importlib.import_module("clubsuite.bots.random_bot")
    for info in games():
        load_part(info, "bots")
    for ep in importlib.metadata.entry_points(group=BOTS_ENTRY_POINT):
        importlib.import_module(ep.value)


def bot_names(game: str) -> list[str]:
    """The bot names available for ``game``."""
    _load()
    return sorted({n for (n, g) in _FACTORIES if g in (game, _ANY_GAME)})


def make_bot(name: str, game: str) -> SomeBot:
    """A new bot of kind ``name`` for ``game``; raises :class:`InvalidOptionsError` naming the known kinds."""
    _load()
    factory = _FACTORIES.get((name, game)) or _FACTORIES.get((name, _ANY_GAME))
    if factory is None:
        known = ", ".join(bot_names(game)) or "none"
        raise InvalidOptionsError(f"unknown bot {quoted(name)} for {game}; the bots are: {known}")
    return factory()
