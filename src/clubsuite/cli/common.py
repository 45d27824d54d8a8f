"""What every ``clubs`` command shares: exit statuses, turning rule errors into clear messages and exit status 2,
and the checked types of numeric options (seeds, sizes, delays) so that no absurd value reaches the code."""

from __future__ import annotations

import functools
import math
import re
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, ParamSpec, TypeVar

import click

from clubsuite.errors import ClubsError
from clubsuite.safetext import quoted, safe_lines

P = ParamSpec("P")
R = TypeVar("R")

EXIT_UNFINISHED = 1
"""Exit status of ``clubs play`` when standard input ended before the match was over."""
EXIT_BAD_INPUT = 2
"""Exit status for bad input of every kind (options, records, arguments), as Click uses for usage errors."""
EXIT_WRITE_FAILED = 3
"""Exit status when something could not be written: the record of a game at its end (the file named by ``--save``
then holds what it held before), or standard output (a full disk, ``/dev/full``, a closed stream)."""
EXIT_INTERNAL = 70
"""Exit status of an internal error (a bug of clubsuite, never bad input), as ``EX_SOFTWARE`` of sysexits.h."""
EXIT_SIGNAL = 128
"""A command stopped by signal N exits with ``EXIT_SIGNAL + N`` (130 for Ctrl-C, 129 SIGHUP, 143 SIGTERM)."""

MAX_SEED = 2**64 - 1
"""The largest seed the command line takes: seeds are 0 to 2**64 - 1."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to standard error, escaped and cut (it may quote outside text), and exit."""
    click.echo(safe_lines(f"error: {message}"), err=True)
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
            sys.exit(EXIT_SIGNAL + signal.SIGINT)
        except BrokenPipeError:
            sys.exit(0)

    return wrapper


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
        raise InvalidOptionsError(f"--players {players} contradicts players={given} in the variant {quoted(spec)}")
    values["players"] = str(players)
    return f"{name}({','.join(f'{k}={v}' for k, v in values.items())})"


if TYPE_CHECKING:  # Click 8.2 made ParamType generic; older releases cannot subscript it at run time
    _IntParam = click.ParamType[int, object]  # any input: text from the command line, a number from Python
else:
    _IntParam = click.ParamType


class ByteSize(_IntParam):
    """A size in bytes: a whole number, optionally with a suffix K, M or G (powers of 1024, ``16M``, ``512K``)."""

    name = "size"
    _UNITS: ClassVar[dict[str, int]] = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}
    _PATTERN = re.compile(r"([0-9]{1,13})\s*([kmg]?)(?:i?b)?", re.IGNORECASE)
    LIMIT = 1024**4
    """The largest size taken (1 TiB): beyond it no record could be read into memory anyway."""

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The number of bytes, or a usage error naming the value."""
        if isinstance(value, int) and not isinstance(value, bool):
            size = value
        else:
            m = self._PATTERN.fullmatch(str(value).strip())
            if m is None:
                self.fail(f"{quoted(str(value))} is not a size: expected bytes, or a number with K, M or G", param, ctx)
            size = int(m.group(1)) * self._UNITS[m.group(2).lower()]
        if not 1 <= size <= self.LIMIT:
            self.fail(f"{quoted(str(value))}: a size is 1 byte to 1T", param, ctx)
        return size


BYTE_SIZE = ByteSize()


class FiniteFloatRange(click.FloatRange):
    """A float range that also refuses ``nan`` (a plain range lets it through: every comparison with it is false)."""

    # ``value`` is Any: Click declares FloatRange's input as a float, yet the command line gives text (and Python a
    # number), both of which FloatRange converts.
    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        """The number, or a usage error naming the option and the range."""
        number = super().convert(value, param, ctx)
        if isinstance(number, float) and math.isnan(number):
            self.fail(f"{quoted(str(value))} is not a number: expected {self._describe_range()}", param, ctx)
        return number
