"""The bot protocol and the registry that builds bots by name for a game.

A bot is asked ``choose(view, legal, rng)`` whenever its seat is to act. ``view`` is that seat's view (never the
full state), ``legal`` the legal actions (supports ``in``, ``len``, iteration and indexing), ``rng`` an injected
``random.Random`` so that every bot decision is reproducible. The returned action must be one of ``legal``.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, runtime_checkable

from clubsuite.engine import LegalActions
from clubsuite.errors import InvalidOptionsError
from clubsuite.safetext import quoted

ActionT = TypeVar("ActionT")
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)


@runtime_checkable
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

BotFactory = Callable[..., SomeBot]
"""Builds a bot: called with no argument, or with the bot's settings object when it was registered with a
settings class."""
_FACTORIES: dict[tuple[str, str], tuple[BotFactory, type | None]] = {}
_ANY_GAME = "*"


def register_bot(name: str, factory: BotFactory, game: str = _ANY_GAME, settings: type | None = None) -> None:
    """Make ``make_bot(name, game)`` build bots with ``factory`` (``game="*"``: for every game).

    With ``settings`` (a frozen dataclass whose fields are declared with :func:`clubsuite.options.option`), the bot
    takes settings in the spec syntax of the rules options, ``name(key=value,...)``, and ``factory`` is called with
    the settings object (all defaults for a bare name).
    """
    _FACTORIES[(name, game)] = (factory, settings)


BOTS_ENTRY_POINT = "clubsuite.bots"
"""The entry-point group through which another installed package adds bots: each entry names a module that calls
:func:`register_bot` when imported."""


@runtime_checkable
class HasBots(Protocol):
    """A game's parts that have bots of its own."""

    def bots(self) -> types.ModuleType:
        """The module that registers the game's bots when imported (imported by the call)."""
        ...


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

    from clubsuite.engine import games

    importlib.import_module("clubsuite.bots.random_bot")
    for info in games():
        if isinstance(info.parts, HasBots):
            info.parts.bots()
    for module in ("pimc", "ismcts", "levels", "learned"):
        importlib.import_module(f"clubsuite.bots.{module}")
    for ep in importlib.metadata.entry_points(group=BOTS_ENTRY_POINT):
        importlib.import_module(ep.value)


def bot_names(game: str) -> list[str]:
    """The bot names available for ``game``."""
    _load()
    return sorted({n for (n, g) in _FACTORIES if g in (game, _ANY_GAME)})


def make_bot(spec: str, game: str) -> SomeBot:
    """A new bot from ``spec`` (a kind such as ``heuristic``, or a kind with settings such as
    ``pimc(samples=16,ms=200)``) for ``game``; raises :class:`InvalidOptionsError` naming the known kinds, or the
    bad setting and the bot's settings."""
    from clubsuite.options import build_options, split_spec

    _load()
    try:
        name, values = split_spec(spec)
    except InvalidOptionsError as exc:
        words = str(exc).replace("variant spec", "bot spec").replace("game(option=value)", "pimc(samples=16)")
        raise InvalidOptionsError(words) from None
    entry = _FACTORIES.get((name, game)) or _FACTORIES.get((name, _ANY_GAME))
    if entry is None:
        known = ", ".join(bot_names(game)) or "none"
        raise InvalidOptionsError(f"unknown bot {quoted(name)} for {game}; the bots are: {known}")
    factory, settings = entry
    if settings is None:
        if values:
            raise InvalidOptionsError(f"the bot {quoted(name)} takes no settings, got {quoted(spec)}")
        return factory()
    try:
        bot = factory(build_options(settings, values, spec))
        check = getattr(bot, "check_game", None)
        if check is not None:  # settings that only some games support are refused now, not at the first decision
            check(game)
    except InvalidOptionsError as exc:
        raise InvalidOptionsError(f"bot {quoted(spec)}: {exc}") from None
    return bot


def split_bot_list(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, keeping the commas inside a spec's parentheses:
    ``"pimc(samples=8,ms=100),heuristic"`` is two bots. Names are stripped; an empty one is kept (the caller
    names it)."""
    out: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    out.append("".join(current).strip())
    return out
