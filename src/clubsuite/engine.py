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
from typing import Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from clubsuite.errors import InvalidOptionsError
from clubsuite.events import Event
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.safetext import quoted


class Phase(StrEnum):
    """The phases every game shares. A game whose hands pass through more (an exchange, an auction) declares them as
    a ``StrEnum`` of its own; a phase is read as its string value (``"play"``), so the two kinds compare naturally."""

    DEAL = "deal"
    """Waiting for the next deal (an explicit chance step)."""
    PLAY = "play"
    """The play of the hand (tricks, or the climbing rounds)."""
    OVER = "over"
    """The match has ended."""


ActionT_co = TypeVar("ActionT_co", covariant=True)
"""A game's action type (a card, a bid, a play...)."""
ViewT_co = TypeVar("ViewT_co", bound="View", covariant=True)
"""A game's per-seat view type."""
OptionsT_co = TypeVar("OptionsT_co", covariant=True)
"""A game's options type."""

Events = tuple[Event, ...]
"""What ``deal`` and ``apply`` return: the game's events, in order."""


@runtime_checkable
class LegalActions(Protocol[ActionT_co]):
    """What ``legal_actions()`` returns: supports ``in``, ``len``, iteration and indexing by position."""

    def __contains__(self, item: object, /) -> bool: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[ActionT_co]: ...

    def __getitem__(self, index: int, /) -> ActionT_co: ...


class Deal(Protocol):
    """A deal as the records read it."""

    def to_json(self) -> JsonObject:
        """The record form of the deal."""
        ...


class Hand(Protocol):
    """One hand of a match, as the records and the screens read it."""

    @property
    def deal(self) -> Deal:
        """The deal as dealt."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def hands(self) -> Sequence[int]:
        """The cards each seat holds now, as card masks (one per seat): what puzzles, endgame search and themes
        count."""
        ...

    def action_log(self) -> Sequence[object]:
        """Every action applied to the hand, in order."""
        ...

    def summary(self) -> JsonObject:
        """A JSON-ready account of the hand."""
        ...


class View(Protocol):
    """What one seat may know, as the outer layers read it (a game's view offers much more to its own bots)."""

    @property
    def seat(self) -> int:
        """The seat whose knowledge this is."""
        ...

    def to_dict(self) -> JsonObject:
        """The view as JSON: only what the seat may know."""
        ...


class Match(Protocol[ActionT_co, ViewT_co, OptionsT_co]):
    """The interface every game's match object offers to the outer layers, generic over the game's action, view
    and options types.

    Every parameter is covariant: the outer layers hand back only what the match gave them (a legal action, the
    notation a person typed), and ``apply``/``explain`` take any object because refusing a wrong one with a
    rule-citing message is part of their contract. So every game's match is a :data:`SomeMatch`, the type of code
    that works for any game.
    """

    @property
    def game(self) -> str:
        """The registered game name."""
        ...

    @property
    def n_seats(self) -> int: ...

    @property
    def options(self) -> OptionsT_co:
        """The rules options the match plays by."""
        ...

    @property
    def first_dealer(self) -> int: ...

    @property
    def totals(self) -> Sequence[int]:
        """The running totals by seat."""
        ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def draw(self) -> bool: ...

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

    def explain(self, action: object, seat: int | None = None) -> str | None:
        """Why ``action`` by ``seat`` (default: the seat to act) is illegal now, or None if it is legal."""
        ...

    def summary(self) -> JsonObject:
        """A JSON-ready account of the match so far."""
        ...

    @property
    def phase(self) -> StrEnum:
        """Where the match stands: a shared :class:`Phase` or one of the game's own phases."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None (between hands, or the match is over)."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game's end condition has been met."""
        ...

    def deal(self, rng: random.Random | None = None, deal: object = None) -> Events:
        """Start the next hand with a given deal or one drawn from ``rng``; returns the events."""
        ...

    def legal_actions(self) -> LegalActions[ActionT_co]:
        """The legal actions of the seat to act (empty when nobody is to act)."""
        ...

    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action (or its notation) of the seat to act; returns the events, changes nothing on error."""
        ...

    def view(self, seat: int) -> ViewT_co:
        """What ``seat`` may know: its own cards and the public table, never another hidden hand."""
        ...

    def parse_action(self, text: str) -> ActionT_co:
        """Read an action from its notation."""
        ...

    def format_action(self, action: object) -> str:
        """The canonical notation of an action."""
        ...

    def clone(self) -> Self:
        """An independent copy."""
        ...

    def release(self) -> None:
        """Let go of the live views of a match that will not be read again, so that its memory is freed at once."""
        ...

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A complete state ``seat`` cannot tell from this one, every card it cannot see drawn again."""
        ...

    def hand_so_far(self) -> Iterator[tuple[Self, object]]:
        """The hand in progress replayed from its deal on a copy: before each of its actions, the copy as it stood
        then and the action taken (read the copy at each step; it changes as the iteration goes on)."""
        ...


SomeMatch = Match[object, View, object]
"""A match of any game: what code that serves every game (records, simulation, the command line) works with."""


Teams = tuple[tuple[int, ...], ...]
"""Teams as seat tuples (``((0, 2), (1, 3))``); empty when everyone plays alone."""


OptionsT = TypeVar("OptionsT")


def _no_teams(options: object) -> Teams:
    return ()


def _never(options: object) -> bool:
    return False


@dataclass(frozen=True)
class Unit:
    """A length of play a tournament table may be given instead of a whole match: option values that make the match
    end sooner (a lower target), and about how long it lasts with people at the table."""

    options: Mapping[str, str]
    """The option values it sets over the tournament's own, as a spec writes them."""
    minutes: float
    """About how long it takes people to play: the mean number of hands it lasts (measured with the heuristic bots)
    times a hand's usual length."""


class GameParts:
    """A game's outer parts: what the layers above the rules read of it (the terminal screen, the bots, what a page
    shows and says, the record schema, the spectator's view, the balance report, the compiled kernels' entries, the
    benchmark's environments...). A game subclasses this in its own ``parts`` module with one method per part it
    has, named after the part's role; each method imports its part when called and gives it, so that the rules are
    read without the parts' imports. A part the game lacks is a method it does not define.

    The layer that reads a part declares its method as a :class:`typing.Protocol` (``HasScreen``, ``HasSchema``...,
    each beside the code that reads it) and asks for it with ``isinstance``; the game's ``parts`` module checks, for
    the type checker, that its object is each protocol it means to be. So a part's type is checked where it is
    written and where it is read, and no layer below the one reading a part needs to know of it."""

    __slots__ = ()


@dataclass(frozen=True)
class GameInfo(Generic[OptionsT]):
    """A registry entry: everything the outer layers need to know of one game, declared by the game itself.

    The rules side (options, seats, teams, the match factory, deals) is given as values and functions; the outer
    parts (the terminal screen, the bots, the balance report, the record schema, the spectator's view) are methods of
    its :attr:`parts`, each importing its part only when an outer layer calls it, so that reading the rules never
    imports a screen.
    """

    name: str
    """The game's spec name, as written in specs and records."""
    title: str
    """The game's full name for people."""
    seats: tuple[int, ...]
    """The seat counts the game allows; the first is the default."""
    options_class: type[OptionsT]
    """The frozen options dataclass."""
    variants: Mapping[str, Mapping[str, str]]
    """Named variants: spec name -> preset option values."""
    new_match: Callable[[OptionsT, int], SomeMatch]
    """``new_match(options, first_dealer)`` -> a match object."""
    deal_from_json: Callable[[JsonValue], object] = field(repr=False)
    """Reads an explicit deal from its record form (what ``match.deal(deal=...)`` takes)."""
    deal_from_seed: Callable[[int, int], object] = field(repr=False)
    """``deal_from_seed(seed, dealer)``: the deal a seed gives (see :mod:`clubsuite.seeding`)."""
    summary: str = ""
    """One line for people: what the game is (the command line's help lists it)."""
    order: int = 1000
    """Where the game comes in lists (lowest first; then by name); the first game is the command line's default."""
    seat_count: Callable[[OptionsT], int] | None = field(default=None, repr=False)
    """The number of seats the given options play with, for a game where it is an option; default: ``seats[0]``."""
    teams_of: Callable[[OptionsT], Teams] = field(default=_no_teams, repr=False)
    """The teams the given options make (``()``: everyone plays alone). The one team model of every game: partners
    share a score and win together."""
    fixed_teams: bool = False
    """Whether the teams are fixed by the game rather than chosen by options (a partnership game): simulation
    then keeps partners together in every seating and takes one bot per team."""
    accepts_misplays: Callable[[OptionsT], bool] = field(default=_never, repr=False)
    """Whether the given options make ``apply`` accept actions that ``legal_actions()`` does not list: a table mode
    in which a player may break a rule and another may call it. ``legal_actions()`` still lists only the lawful
    actions (bots never misplay); ``explain`` and ``apply`` agree on what is accepted."""
    draw_note: str = ""
    """What a draw is in this game, or that there is none (simulation explains its count of draws with it)."""
    win_note: str = ""
    """How a win is counted in this game (simulation explains its win rates with it)."""
    examples: tuple[str, ...] = ()
    """Rules specs that show the game's options (the command line's help quotes the first)."""
    showcase: tuple[str, ...] = ()
    """A few cards in the game's notation that picture it (drawn on its tile in the lobby): its trumps, its
    characteristic cards."""
    units: Mapping[str, Unit] = field(default_factory=dict, repr=False)
    """The lengths of play a tournament table may have besides the whole match (``match``), by name: ``hand`` (one
    hand, another only where the game's rule for a tie asks for it) and ``short`` (a short match)."""
    match_minutes: float = 0.0
    """About how long a whole match with the default options takes people (0: not known)."""
    parts: GameParts = field(default_factory=lambda: GameParts(), repr=False)
    """The game's outer parts (:class:`GameParts`): one method per part it has, each importing its part when called,
    so that reading the rules never imports a screen."""

    def n_seats(self, options: OptionsT) -> int:
        """How many seats ``options`` play with."""
        return self.seat_count(options) if self.seat_count is not None else self.seats[0]

    @property
    def teams(self) -> Teams:
        """The fixed partnerships (empty unless :attr:`fixed_teams`): the teams of the default options."""
        return self.teams_of(self.options_class()) if self.fixed_teams else ()


GAMES_ENTRY_POINT = "clubsuite.games"
"""The entry-point group through which another installed package adds a game: each entry names a module that
calls :func:`register` when imported."""

SomeGame = GameInfo[Any]
"""A registry entry of any game: which game a name means is known only when the name is read, so its options type is
dynamic here (each entry's own fields agree with one another)."""

_REGISTRY: dict[str, SomeGame] = {}
_LOAD_PROBLEMS: list[str] = []
_loaded = False


def register(info: GameInfo[OptionsT]) -> None:
    """Add a game (and its named variants) to the registry; a name or variant already taken is refused."""
    taken = {n: i.name for i in _REGISTRY.values() if i.name != info.name for n in (i.name, *i.variants)}
    for n in (info.name, *info.variants):
        if n in taken:
            raise InvalidOptionsError(f"game {quoted(info.name)} cannot use the name {quoted(n)}: {taken[n]} has it")
    _REGISTRY[info.name] = info


def games() -> Sequence[SomeGame]:
    """The registered games, in :attr:`GameInfo.order`."""
    _load_games()
    return tuple(sorted(_REGISTRY.values(), key=lambda i: (i.order, i.name)))


def default_game() -> SomeGame:
    """The game the command line plays when none is named: the first in order."""
    return games()[0]


def _load_games() -> None:
    """Discover the games once: every package under :mod:`clubsuite.games`, then every module named in the
    :data:`GAMES_ENTRY_POINT` group of an installed package. Importing a game's package registers it; a package
    that fails to import is left out and its problem kept to name it when the game is asked for (:func:`find_game`)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import importlib.metadata
    import pkgutil

    import clubsuite.games as package

    names = [m.name for m in pkgutil.iter_modules(package.__path__, package.__name__ + ".") if m.ispkg]
    names += [ep.value for ep in importlib.metadata.entry_points(group=GAMES_ENTRY_POINT)]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # a third-party game must not stop the others
            _LOAD_PROBLEMS.append(f"the game module {quoted(name)} could not be loaded: {type(exc).__name__}: {exc}")


def find_game(spec_name: str) -> tuple[SomeGame, Mapping[str, str]]:
    """The game a spec name refers to (a game name or one of its variants) and the variant's presets."""
    _load_games()
    for info in _REGISTRY.values():
        if spec_name == info.name:
            return info, {}
        if spec_name in info.variants:
            return info, info.variants[spec_name]
    names = []
    for info in games():
        names.append(info.name)
        names.extend(info.variants)
    problems = "".join(f"; {p}" for p in _LOAD_PROBLEMS)
    raise InvalidOptionsError(f"unknown game or variant {quoted(spec_name)}; known: {', '.join(names)}{problems}")


def resolve(spec: str) -> tuple[SomeGame, object]:
    """Read a spec such as ``name-variant(option=value)`` into its game and options object."""
    from clubsuite.options import build_options, split_spec

    name, values = split_spec(spec)
    info, presets = find_game(name)
    merged = dict(presets)
    merged.update(values)
    return info, build_options(info.options_class, merged, spec)
