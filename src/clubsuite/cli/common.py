"""What every ``clubs`` command shares: turning rule errors into clear messages and exit status 2."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

import click

from clubsuite.errors import ClubsError

P = ParamSpec("P")
R = TypeVar("R")

EXIT_BAD_INPUT = 2
"""Exit status for bad input of every kind (options, records, arguments), as Click uses for usage errors."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to standard error and exit with ``code``."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Run a command so that a :class:`ClubsError` becomes a one-line message and exit status 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ClubsError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(0)

    return wrapper


def parse_seat(value: Any, n_seats: int) -> int:
    """Check a seat number given on the command line."""
    if not isinstance(value, int) or value not in range(n_seats):
        raise click.BadParameter(f"{value} is not a seat: expected 0..{n_seats - 1}")
    return value


def with_players(spec: str, players: int | None) -> str:
    """The variant spec with ``players=N`` added, for ``--players N`` (games whose player count is an option).

    Refuses a count the spec already sets differently, and a game without a player-count option.
    """
    if players is None:
        return spec
    from clubsuite.engine import find_game
    from clubsuite.errors import InvalidOptionsError
    from clubsuite.options import split_spec

    name, values = split_spec(spec)
    info, presets = find_game(name)
    if "players" not in info.options_class.__dataclass_fields__:
        raise InvalidOptionsError(
            f"--players {players}: {info.title} is always played by {' or '.join(map(str, info.seats))} players"
        )
    given = values.get("players", presets.get("players"))
    if given is not None and given != str(players):
        raise InvalidOptionsError(f"--players {players} contradicts players={given} in the variant {spec!r}")
    values["players"] = str(players)
    return f"{name}({','.join(f'{k}={v}' for k, v in values.items())})"
