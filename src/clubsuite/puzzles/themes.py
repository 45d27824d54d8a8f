"""A puzzle's themes, found automatically, named by each game (its registry part ``themes``).

Lichess tags a chess puzzle by what its solution does (a fork, a pin, a back-rank mate) by looking at the solution's
line. A card game's themes are its own (a quota trick, a Ruby Dame kept, going out first), so each game names them:
its ``themes`` part is a module with ``THEMES`` (each theme's id, its name in a few words and one line saying what it
means, in the order a list of themes is shown) and ``themes(scene) -> Iterable[str]``, which reads a :class:`Scene`:
the puzzle's point, its answer, and for an exact puzzle the hand played to its end along the answer's line and
along the next best action's line, so a theme says what the answer changes ("with the answer the seat takes its
fourth trick; with the next best card it does not").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from clubsuite.engine import SomeMatch, find_game


@dataclass(frozen=True)
class Scene:
    """What a game's ``themes`` reads of one puzzle."""

    kind: str
    """``double_dummy``, ``endgame`` or ``single_dummy``."""
    measure: str
    """What the puzzle counts (a solver measure, ``round``, or the objective's measure for a single-dummy one)."""
    seat: int
    before: SomeMatch
    """The match at the puzzle's point (the seat to act)."""
    solution: object
    """The answer, as the engine reads it."""
    line_end: SomeMatch | None
    """The hand at its end after the answer and the line it starts (exact puzzles only)."""
    other: object | None
    """The next best action (exact puzzles only)."""
    other_end: SomeMatch | None
    """The hand at its end after the next best action and its line (exact puzzles only)."""
    after_mistake: bool
    """Whether the puzzle starts just after another side's mistake."""


class GameThemes(Protocol):
    """What a game gives to name its puzzles' themes (a module of the game's folder)."""

    @property
    def THEMES(self) -> Mapping[str, tuple[str, str]]:  # noqa: N802 (a module's constant)
        """Every theme the game can find: id to its name and what it means."""
        ...

    def themes(self, scene: Scene, /) -> Iterable[str]:
        """The ids of the themes of ``scene``."""
        ...


@runtime_checkable
class HasThemes(Protocol):
    """A game's parts that name its puzzles' themes."""

    def themes(self) -> GameThemes:
        """The game's themes."""
        ...


def _game_themes(game: str) -> GameThemes | None:
    parts = find_game(game)[0].parts
    return parts.themes() if isinstance(parts, HasThemes) else None


def theme_names(game: str) -> Mapping[str, tuple[str, str]]:
    """Every theme ``game`` can find, id to its name and what it means (empty where it finds none)."""
    part = _game_themes(game)
    return part.THEMES if part is not None else {}


def themes_of(scene: Scene) -> list[str]:
    """The themes of ``scene`` by its game, in the order the game lists its themes; a name the game does not
    declare is a bug in the game and raises."""
    part = _game_themes(scene.before.game)
    if part is None:
        return []
    known = part.THEMES
    found = set(part.themes(scene))
    unknown = found - set(known)
    if unknown:
        raise AssertionError(f"themes {sorted(unknown)} are not among the game's declared themes")
    return [name for name in known if name in found]
