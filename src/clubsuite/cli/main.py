"""The ``clubs`` command: a group of subcommands (play, watch, simulate, merge, replay, serve, solve, review), and
the frame every run goes through so that no input of any kind ends in a traceback or drives the terminal.

:func:`run` prepares the output streams for any terminal encoding (symbols fall back to letters where the encoding
cannot show them), shows Click's usage errors escaped and cut to a readable length (they quote arguments, which
come from outside), and turns an unexpected exception, a bug, into one line and exit status 70 rather than a
traceback (``CLUBS_DEBUG=1`` shows the traceback for a bug report).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import importlib
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from typing import IO, cast

import click

from clubsuite import __version__
from clubsuite.cli.common import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_SIGNAL, EXIT_WRITE_FAILED
from clubsuite.cli.describe import FillsHelpGroup
from clubsuite.cli.stopping import Stopped, StopSignals
from clubsuite.safetext import safe_lines

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("clubsuite.cli.play", "play_command"),
    "watch": ("clubsuite.cli.play", "watch_command"),
    "simulate": ("clubsuite.cli.simulate", "simulate_command"),
    "merge": ("clubsuite.cli.simulate", "merge_command"),
    "calibrate": ("clubsuite.cli.calibrate", "calibrate_command"),
    "evaluate": ("clubsuite.cli.evaluate", "evaluate_command"),
    "learn": ("clubsuite.cli.learn", "learn_command"),
    "replay": ("clubsuite.cli.replay", "replay_command"),
    "serve": ("clubsuite.cli.serve", "serve_command"),
    "admin": ("clubsuite.cli.admin", "admin_command"),
    "solve": ("clubsuite.cli.analyse", "solve_command"),
    "review": ("clubsuite.cli.analyse", "review_command"),
    "puzzle": ("clubsuite.cli.puzzle", "puzzle_command"),
    "puzzles": ("clubsuite.cli.puzzles", "puzzles_command"),
    "app": ("clubsuite.cli.app", "app_command"),
}
"""Each subcommand's module and name there. A run imports only the module of the command it runs (all of them
for the group's help): ``clubs play`` no longer loads the server's and the calibration's code first, a third of a
short command's start."""


class CommandsOnDemand(FillsHelpGroup):
    """The ``clubs`` group, importing a subcommand's module when the command is asked for (Click's lazily loaded
    subcommands): after :func:`run` has set up the stop signals, so a Ctrl-C during the import ends the run cleanly
    too."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, in the order of the help (Click's: sorted)."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, its module imported the first time; None for a name that is no command."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(module), name), cmd_name)
        return self.commands.get(cmd_name)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Every command imported (the help lists them all, filled from the registry), then the help."""
        _add_commands()
        super().format_help(ctx, formatter)


@click.group(cls=CommandsOnDemand, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="clubs")
def cli() -> None:
    """Play, watch, simulate, replay and serve the card games called Clubs.

    Games: {games}. Rules options are given as a spec, e.g. --variant {examples}.

    Exit status: 0 done; 1 standard input ended before a played match was over; 2 bad input of any kind (an
    argument, an option, a record, a file that cannot be used); 3 something could not be written (the record at the
    end of a game, or standard output); 128 + N stopped by signal N (130 for Ctrl-C), after saving the game so far
    with --save.
    """


def _add_commands() -> None:
    """Import every command now (the help lists them all; a test forking a child that may not read the package's
    files imports them first)."""
    for name in COMMANDS:
        cli.get_command(click.Context(cli), name)


FALLBACK_HANDLER = "clubsuite-fallback"
"""The codec error handler set on standard output and error: letters for the symbols a terminal cannot show."""

_FALLBACK = {
    "\u2663": "C",  # the suit symbols, filled and outlined, as their letters
    "\u2666": "D",
    "\u2665": "H",
    "\u2660": "S",
    "\u2667": "C",
    "\u2662": "D",
    "\u2661": "H",
    "\u2664": "S",
    "\ufe0f": "",
    "\u00b7": "-",  # the middle dot between the parts of a status line
    "\u2192": "->",
    "\u00b1": "+/-",
    "\u2026": "...",
    "\u2014": "--",
    "\u2013": "-",
}
USAGE_LINE = 400
"""The most characters of one line of a usage error (Click quotes the bad argument whole)."""


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: what to write for characters the stream's encoding cannot encode.

    The suit symbols and the few typographic signs of the screens become ASCII look-alikes; anything else becomes
    its escape (``\\u00eb``), which every encoding can write.
    """
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start : exc.end]
    out = "".join(_FALLBACK.get(c, c.encode("ascii", "backslashreplace").decode("ascii")) for c in text)
    return out, exc.end


codecs.register_error(FALLBACK_HANDLER, _fallback)


def prepare_streams() -> bool:
    """Make standard output and error write in any encoding: a character the encoding lacks falls back to letters
    or an escape instead of raising UnicodeEncodeError (``PYTHONIOENCODING=ascii``, an old terminal). A closed
    standard input reads as empty, a closed standard error as nowhere; False if standard output is closed."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - it lives as long as the process
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=FALLBACK_HANDLER)
    return sys.stdout is not None


class _SafeStream:
    """A text stream that escapes outside text in what it is given (see :func:`safe_lines`) before writing it."""

    def __init__(self, stream: IO[str], line_limit: int) -> None:
        self._stream = stream
        self._limit = line_limit

    def write(self, text: str) -> int:
        """Write ``text`` escaped, each line cut to the limit."""
        return self._stream.write(safe_lines(text, self._limit))

    def __getattr__(self, name: str) -> object:
        """Everything else (flush, isatty, encoding...) as the wrapped stream has it."""
        return getattr(self._stream, name)


def _internal_error(exc: BaseException) -> int:
    """Report a bug in one line (the traceback only with CLUBS_DEBUG=1); the exit status 70."""
    if os.environ.get("CLUBS_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    detail = safe_lines(f"{type(exc).__name__}: {exc}", USAGE_LINE).splitlines()[0] if str(exc) else type(exc).__name__
    click.echo(
        f"clubs: internal error ({detail}); this is a bug in clubsuite, not in your input: please report it with "
        "the command that caused it (CLUBS_DEBUG=1 shows the details)",
        err=True,
    )
    return EXIT_INTERNAL


WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EBADF, errno.EDQUOT, errno.EROFS})
"""The errors of a write that failed for a reason outside the program (a full disk, a file-size limit)."""


def _write_failed(exc: OSError) -> int:
    """Report output that could not be written, in one line; the exit status 3."""
    with contextlib.suppress(OSError, ValueError):
        click.echo(f"clubs: cannot write the output: {exc.strerror or exc}", err=True)
    return EXIT_WRITE_FAILED


def run(argv: Sequence[str] | None = None) -> int:
    """Run the ``clubs`` command with ``argv`` (default: the process's arguments) and return its exit status.

    Every ending is a status and at most a few lines on standard error: usage errors (status 2) are escaped and
    cut, a stop signal is 128 + N, a closed output pipe status 0, output that cannot be written (a full disk, a
    closed standard output) status 3, a bug status 70.
    """
    if not prepare_streams():
        click.echo("clubs: standard output is closed: there is nowhere to write", err=True)
        return EXIT_WRITE_FAILED
    with StopSignals():
        try:
            status = cli.main(args=argv, prog_name="clubs", standalone_mode=False)
        except Stopped as stop:
            click.echo(f"clubs: stopped by {stop.name}", err=True)
            return EXIT_SIGNAL + stop.signum
        except click.ClickException as exc:
            exc.show(file=cast(IO[str], _SafeStream(sys.stderr, USAGE_LINE)))
            return int(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("interrupted", err=True)
            return EXIT_SIGNAL + signal.SIGINT
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                return exc.code or 0
            click.echo(safe_lines(str(exc.code)), err=True)
            return EXIT_BAD_INPUT
        except BrokenPipeError:
            return 0
        except OSError as exc:
            if exc.errno in WRITE_ERRORS:
                return _write_failed(exc)
            return _internal_error(exc)
        except Exception as exc:
            return _internal_error(exc)
        return status if isinstance(status, int) else 0


def main() -> None:
    """Entry point of the ``clubs`` console script: :func:`run`, then what is still buffered is written out (a
    failure there is a write failure too, status 3)."""
    status = run()
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError as exc:
        status = status or _write_failed(exc)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the interpreter's own last flush finds nothing to fail
    sys.exit(status)
