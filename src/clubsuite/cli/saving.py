"""``--save`` for ``clubs play`` and ``clubs watch``: the file checked before the game starts, the record written
atomically at the end, when the player quits, when standard input ends and when a signal stops the game, and the
one line on standard error that says how the game ended and where its record went."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from clubsuite.cli.common import EXIT_SIGNAL, EXIT_UNFINISHED, EXIT_WRITE_FAILED, fail
from clubsuite.cli.stopping import Stopped
from clubsuite.records.files import PATH_SHOWN, path_text, save_problem
from clubsuite.safetext import shown

if TYPE_CHECKING:
    from clubsuite.engine import SomeMatch
    from clubsuite.tui.table import SomeTable


def check_save_path(path: Path | None) -> None:
    """Refuse an unusable --save path before the game starts, not after it is played (status 2)."""
    if path is None:
        return
    problem = save_problem(path)
    if problem is not None:
        fail(f"--save {path_text(path)}: {problem}")


@dataclass
class Saver:
    """Where and how the record of the game is written: at its end, when the player quits, when the input ends and
    when a signal stops the game."""

    path: Path | None
    seats: list[dict[str, str]]
    seed: int

    def save(self, match: SomeMatch) -> str | None:
        """Write the record of ``match`` as it stands, atomically; the file's name in words, or None without
        --save. A write that fails ends the command with status 3; the file then holds what it held before."""
        if self.path is None:
            return None
        from clubsuite.records import record_from_match, save_record

        try:
            save_record(record_from_match(match, seats=self.seats, seed=self.seed, seeded_hands=True), self.path)
        except OSError as exc:
            fail(
                f"cannot save the record to {path_text(self.path)}: {exc.strerror or exc}; the file is as it was "
                "before",
                EXIT_WRITE_FAILED,
            )
        return path_text(self.path)


def save_and_say(saver: Saver, match: SomeMatch, table: SomeTable) -> None:
    """Save the record at the end or when the player quits, and say where it went."""
    where = saver.save(match)
    if where is not None:
        name = shown(str(saver.path), PATH_SHOWN)
        table.say(table.tr("Record saved to {name} (replay it with: clubs replay {name})", name=name))


def stopped(saver: Saver, match: SomeMatch, stop: Stopped, table: SomeTable) -> NoReturn:
    """End a game stopped by a signal: save what was played (with --save) and exit with 128 + the signal."""
    name = stop.name
    signum = stop.signum
    where = saver.save(match)
    if table.prompt_open:
        table.say()
    table.say(table.tr("Game stopped by {name} before the end.", name=name))
    saved = f"; the game so far is saved in {where}" if where else ""
    click.echo(f"clubs: stopped by {name}{saved}", err=True)
    sys.exit(EXIT_SIGNAL + signum)


def input_ended(saver: Saver, match: SomeMatch, table: SomeTable) -> NoReturn:
    """End a game whose standard input ended before the match was over: save it (with --save), say so, status 1."""
    table.say(table.tr("Game stopped before the end (the input ended)."))
    where = saver.save(match)
    saved = f"; the game so far is saved in {where}" if where else ""
    click.echo(f"clubs: standard input ended before the match was over{saved}", err=True)
    sys.exit(EXIT_UNFINISHED)
