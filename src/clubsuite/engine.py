"""The shapes every game shares: phases, the game protocol, and the registry that names the games.

A game is a *match* (a sequence of hands until the game's end condition) made of *hands* that move through
explicit :class:`Phase` values. Each game module provides a match class satisfying :class:`Match`; every caller
(terminal, bots, records, simulation) asks that one object which actions are legal and applies actions to it, so
no rule is implemented twice. Dealing is an explicit step fed by an injected RNG or a given deal, so every match
replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from clubsuite.errors import InvalidOptionsError
from clubsuite.safetext import quoted


class Phase(StrEnum):
    """Where a match stands; each game uses the phases that fit it."""

    DEAL = "deal"
    """Waiting for the next deal (an explicit chance step)."""
    EXCHANGE = "exchange"
    """Clubs (whist group): each player in turn keeps or exchanges with the bid hand (CW-4)."""
    AUCTION = "auction"
    """Free Clubs: bidding handicaps."""
    HANDICAP = "handicap"
    """Free Clubs: resolving the handicaps the auction cost (FC-5)."""
    PASS = "pass"
    """Passing cards before play."""
    PLAY = "play"
    """Trick play."""
    OVER = "over"
    """The match has ended."""


@runtime_checkable
class LegalActions(Protocol):
    """What ``legal_actions()`` returns: supports ``in``, ``len``, iteration and indexing by position."""

    def __contains__(self, item: object) -> bool: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __getitem__(self, index: int) -> Any: ...


class Hand(Protocol):
    """One hand of a match, as the records and the screens read it."""

    @property
    def deal(self) -> Any:
        """The deal as dealt; has ``to_json()`` for records."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def action_log(self) -> list[Any]:
        """Every action applied to the hand, in order."""
        ...

    def summary(self) -> dict[str, Any]:
        """A JSON-ready account of the hand."""
        ...


class Match(Protocol):
    """The interface every game's match object offers to the outer layers."""

    game: str
    n_seats: int
    options: Any
    first_dealer: int
    totals: list[int]
    winners: tuple[int, ...]
    draw: bool

    @property
    def hands(self) -> Sequence[Hand]:
        """Every hand dealt so far; the last may be in progress."""
        ...

    @property
    def hand_scores(self) -> Sequence[tuple[int, ...]]:
        """The per-seat scores of every completed hand."""
        ...

    @property
    def next_dealer(self) -> int:
        """The seat that deals the next hand."""
        ...

    def explain(self, action: Any, seat: int | None = None) -> str | None:
        """Why ``action`` by ``seat`` (default: the seat to act) is illegal now, or None if it is legal."""
        ...

    def summary(self) -> dict[str, Any]:
        """A JSON-ready account of the match so far."""
        ...

    @property
    def phase(self) -> Phase:
        """Where the match stands."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None (between hands, or the match is over)."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game's end condition has been met."""
        ...

    def deal(self, rng: random.Random | None = None, deal: Any = None) -> tuple[Any, ...]:
        """Start the next hand with a given deal or one drawn from ``rng``; returns the events."""
        ...

    def legal_actions(self) -> LegalActions:
        """The legal actions of the seat to act (empty when nobody is to act)."""
        ...

    def apply(self, action: Any, seat: int | None = None) -> tuple[Any, ...]:
        """Apply an action (or its notation) of the seat to act; returns the events, changes nothing on error."""
        ...

    def view(self, seat: int) -> Any:
        """What ``seat`` may know: its own cards and the public table, never another hidden hand."""
        ...

    def parse_action(self, text: str) -> Any:
        """Read an action from its notation."""
        ...

    def format_action(self, action: Any) -> str:
        """The canonical notation of an action."""
        ...


@dataclass(frozen=True)
class GameInfo:
    """A registry entry: how to build and describe one game."""

    name: str
    """The game's spec name (``whist``)."""
    title: str
    """The game's full name for people."""
    seats: tuple[int, ...]
    """The seat counts the game allows."""
    options_class: type[Any]
    """The frozen options dataclass."""
    variants: Mapping[str, Mapping[str, str]]
    """Named variants: spec name -> preset option values."""
    new_match: Callable[..., Match]
    """``new_match(options, first_dealer=0)`` -> a match object."""
    deal_from_json: Callable[[Any], Any] = field(repr=False)
    """Reads an explicit deal from its record form."""
    deal_from_seed: Callable[[int, int], Any] = field(repr=False)
    """``deal_from_seed(seed, dealer)``: the deal a seed gives (see :mod:`clubsuite.seeding`)."""
    teams: tuple[tuple[int, ...], ...] = ()
    """The fixed partnerships as seat tuples (``((0, 2), (1, 3))``), or empty when everyone plays alone; the
    partners of a team share its score and win together, which simulation reports per team."""


_REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    """Add a game (and its named variants) to the registry."""
    _REGISTRY[info.name] = info


def games() -> Sequence[GameInfo]:
    """The registered games."""
    _load_games()
    return tuple(_REGISTRY.values())


def _load_games() -> None:
    # Importing the game packages registers them; done lazily so the core stays import-light.
    import importlib

    for module in (
        "clubsuite.games.whist",
        "clubsuite.games.free",
        "clubsuite.games.northstar",
        "clubsuite.games.partnership",
    ):
        importlib.import_module(module)


def find_game(spec_name: str) -> tuple[GameInfo, Mapping[str, str]]:
    """The game a spec name refers to (a game name or one of its variants) and the variant's presets."""
    _load_games()
    for info in _REGISTRY.values():
        if spec_name == info.name:
            return info, {}
        if spec_name in info.variants:
            return info, info.variants[spec_name]
    names = []
    for info in _REGISTRY.values():
        names.append(info.name)
        names.extend(info.variants)
    raise InvalidOptionsError(f"unknown game or variant {quoted(spec_name)}; known: {', '.join(names)}")


def resolve(spec: str) -> tuple[GameInfo, Any]:
    """Read a spec such as ``whist-1997(target=9)`` into its game and options object."""
    from clubsuite.options import build_options, split_spec

    name, values = split_spec(spec)
    info, presets = find_game(name)
    merged = dict(presets)
    merged.update(values)
    return info, build_options(info.options_class, merged, spec)
