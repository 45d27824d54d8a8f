"""The command line's help texts about the games, written from the registry so they name every game installed.

A command's help (and an option's) may hold placeholders such as ``{games}``; :func:`fill_help` replaces them once
the commands are added, so the texts follow the registered games, a game added by another package included.
"""

from __future__ import annotations

from collections.abc import Mapping

import click

from clubsuite.engine import SomeGame, default_game, games
from clubsuite.sim.report import report_part, report_titles


def _or_list(items: list[str]) -> str:
    """``a, b or c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _seat_range(info: SomeGame) -> str:
    """``2 to 6`` or ``3``."""
    low, high = min(info.seats), max(info.seats)
    return str(low) if low == high else f"{low} to {high}"


def game_list() -> str:
    """Every game with what it is and its named variants, for the group's help."""
    parts = []
    for info in games():
        variants = f"; variants {', '.join(info.variants)}" if info.variants else ""
        players = f", --players N ({_seat_range(info)})" if info.seat_count is not None else ""
        parts.append(f"{info.name} ({info.title}: {info.summary}{players}{variants})")
    return "; ".join(parts)


def default_game_name() -> str:
    """The game played when GAME is not given: the registry's first."""
    return default_game().name


def game_names() -> str:
    """The games' spec names, ``a, b or c``."""
    return _or_list([info.name for info in games()])


def players_help() -> str:
    """For ``--players``: the games whose player count is an option, with their ranges and defaults."""
    chosen = [
        f"{i.name}: {_seat_range(i)}; default {i.n_seats(i.options_class())}"
        for i in games()
        if i.seat_count is not None
    ]
    return "; ".join(chosen) if chosen else "no installed game has one"


def examples() -> str:
    """A few rules specs from the games' own examples, quoted for a shell."""
    specs = [spec for info in games() for spec in info.examples[:1]]
    return " or ".join(f"'{s}'" for s in specs[:2]) if specs else "'GAME(option=value)'"


def move_list() -> str:
    """How a move is entered in each game that has a screen."""
    from clubsuite.tui.table import screen_class

    parts = []
    for info in games():
        screen = screen_class(info)
        if screen is not None:
            parts.append(f"{info.name}: {screen.move_help}")
    return "; ".join(parts)


def report_list() -> str:
    """Each balance report: the game's title and what the report counts."""
    lines = []
    for info in games():
        part = report_part(info)
        if part is not None:
            lines.append(f"{info.title}: {part.summary}")
    return " ".join(lines) if lines else "No installed game has a balance report."


def report_games_titles() -> str:
    """The titles of the games with a balance report."""
    return report_titles() or "none of the installed games"


def partnership_games() -> str:
    """The games of fixed partnerships, by name, or ``a game of fixed partnerships`` when none is installed."""
    names = [info.name for info in games() if info.fixed_teams]
    return f"a game of fixed partnerships ({', '.join(names)})" if names else "a game of fixed partnerships"


def values() -> Mapping[str, str]:
    """Every placeholder and its text."""
    first = default_game()
    variant = next(iter(first.variants), first.name)
    return {
        "games": game_list(),
        "game_names": game_names(),
        "default_game": first.name,
        "a_variant": variant,
        "players": players_help(),
        "examples": examples(),
        "reports": report_list(),
        "moves": move_list(),
        "report_games": report_games_titles(),
        "partnership_games": partnership_games(),
    }


class FillsHelp(click.Command):
    """A command whose help is written from the registry when it is shown (see :func:`fill_help`)."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Fill the placeholders, then write the help as usual."""
        fill_help(self)
        super().format_help(ctx, formatter)


class FillsHelpGroup(click.Group):
    """A group whose help (and its commands') is written from the registry when it is shown."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Fill the placeholders, then write the help as usual."""
        fill_help(self)
        super().format_help(ctx, formatter)


def fill_help(command: click.Command, texts: Mapping[str, str] | None = None) -> None:
    """Replace the placeholders in the help of ``command``, its options and (for a group) its subcommands."""
    texts = values() if texts is None else texts
    if command.help:
        command.help = _fill(command.help, texts)
    for param in command.params:
        if isinstance(param, click.Option) and param.help:
            param.help = _fill(param.help, texts)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            fill_help(sub, texts)


def _fill(text: str, texts: Mapping[str, str]) -> str:
    for key, value in texts.items():
        text = text.replace("{" + key + "}", value)
    return text
