"""``clubs puzzles``: make puzzles from bot matches, export and check sets, count what a set holds, list themes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from clubsuite.cli.analyse import read_record
from clubsuite.cli.common import BYTE_SIZE, MAX_SEED, handle_errors
from clubsuite.cli.describe import FillsHelp, FillsHelpGroup
from clubsuite.engine import find_game
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.puzzles.check import check_puzzle
from clubsuite.puzzles.fromrecords import record_puzzles
from clubsuite.puzzles.make import MakeSettings, run
from clubsuite.puzzles.model import KINDS, Puzzle, dumps_line, read_set, write_set
from clubsuite.puzzles.sets import shipped
from clubsuite.puzzles.themes import theme_names
from clubsuite.records import MAX_RECORD_BYTES


@click.group("puzzles", cls=FillsHelpGroup)
def puzzles_command() -> None:
    """Puzzles from real games: make them from bot matches, export the shipped sets, check and count a set."""


def _split(text: str) -> tuple[str, ...]:
    return tuple(t.strip() for t in text.split(",") if t.strip())


@puzzles_command.command("make", cls=FillsHelp)
@click.argument("game", metavar="GAME")
@click.option("--count", type=click.IntRange(1, 1_000_000), default=100, show_default=True, help="Puzzles wanted.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="Seed of the matches.")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="The JSON-lines file.")
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes playing.")
@click.option(
    "--kinds",
    default=",".join(KINDS),
    show_default=True,
    help="The kinds looked for, comma-separated (those the game cannot have are skipped).",
)
@click.option("--bots", default="heuristic", show_default=True, help="The bots playing, seat by seat, comma-separated.")
@click.option("--max-matches", type=click.IntRange(1, 10_000_000), default=None, help="Stop after this many matches.")
@click.option("--per-hand", type=click.IntRange(1, 100), default=1, show_default=True, help="Most puzzles per hand.")
@click.option(
    "--common-every",
    type=click.IntRange(1, 1_000_000),
    default=1,
    show_default=True,
    help="Keep a puzzle of two actions, or one the heuristic bot solves, one time in this many.",
)
@click.option("--resume", is_flag=True, help="Go on with --out where a run with the same settings stopped.")
@handle_errors
def make_command(
    game: str,
    count: int,
    seed: int,
    out: Path,
    workers: int,
    kinds: str,
    bots: str,
    max_matches: int | None,
    per_hand: int,
    common_every: int,
    resume: bool,
) -> None:
    """Play matches of GAME (a game or a rules spec naming its options) with bots and write the puzzles
    found in them to --out, one JSON object a line, until --count are written (or --max-matches are played). Match
    i is dealt and played from the seed derive_seed(--seed, i), so a run is the same with any number of workers;
    a run stopped part way goes on with --resume. docs/puzzles.md says what makes a puzzle.
    """
    settings = MakeSettings(
        game, seed, _split(kinds), _split(bots) or ("heuristic",), per_hand, common_every=common_every
    )
    bar: list[int] = [0]

    def progress(matches: int, written: int) -> None:
        if written != bar[0] or matches % 10 == 0:
            click.echo(f"{matches} matches, {written} puzzles", err=True)
            bar[0] = written

    written = run(settings, count, out, workers, max_matches, resume, progress)
    click.echo(f"{written} puzzles in {out}")


@puzzles_command.command("from", cls=FillsHelp)
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="The JSON-lines file.")
@click.option(
    "--seat",
    "seats",
    type=click.IntRange(min=1),
    multiple=True,
    help="Only the decisions of this seat, counted from 1 as players count (1 to the number of players; repeat for "
    "several; default: every seat). The puzzles written keep the record's seat numbers, from 0.",
)
@click.option("--missed", is_flag=True, help="Only where the action taken was not the answer: a player's mistakes.")
@click.option(
    "--kinds",
    default=",".join(KINDS),
    show_default=True,
    help="The kinds looked for, comma-separated (those the game cannot have are skipped).",
)
@click.option("--per-hand", type=click.IntRange(1, 100), default=1, show_default=True, help="Most puzzles per hand.")
@click.option(
    "--every",
    type=click.IntRange(1, 1000),
    default=8,
    show_default=True,
    help="Look for a single-dummy puzzle at one decision in N (the search is costly; 1: every decision).",
)
@click.option("--max-size", type=BYTE_SIZE, default=MAX_RECORD_BYTES, metavar="SIZE", help="The largest record read.")
@handle_errors
def from_command(
    files: tuple[str, ...],
    out: Path,
    seats: tuple[int, ...],
    missed: bool,
    kinds: str,
    per_hand: int,
    every: int,
    max_size: int,
) -> None:
    """Find puzzles in finished matches: the records FILE... (- for standard input) replayed, every decision looked
    at as clubs puzzles make looks at a bot match's, the puzzles written to --out as JSON lines. With --seat and
    --missed, a player's own puzzles: the positions where that seat did not find the answer.
    """
    if out.exists():
        raise InvalidOptionsError(f"--out: {out} exists; choose another file")
    settings = MakeSettings("", kinds=_split(kinds), per_hand=per_hand, single_every=every)
    found: list[Puzzle] = []
    for file in files:
        record = read_record(file, max_size)
        wanted = {seat - 1 for seat in seats} or None  # the engine's seats, from 0
        found += record_puzzles(record, settings, wanted, missed, f"the record {Path(file).name}")
    try:
        write_set(found, out)
    except OSError as exc:
        raise InvalidOptionsError(f"--out: cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"{len(found)} puzzles in {out}")


@puzzles_command.command("export", cls=FillsHelp)
@click.argument("game", metavar="GAME")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default=None, help="Default: standard output.")
@handle_errors
def export_command(game: str, out: Path | None) -> None:
    """Write the puzzles shipped for GAME (every seat count, or the one a rules spec names) as JSON lines, each with
    its record, point, seat, kind, measure and solution, so that anyone can check one with clubs solve.
    """
    lines = "".join(dumps_line(p) + "\n" for p in shipped(game))
    if out is None:
        click.echo(lines, nl=False)
        return
    try:
        out.write_text(lines, encoding="utf-8")
    except OSError as exc:
        raise InvalidOptionsError(f"--out: cannot write {out}: {exc.strerror or exc}") from None


@puzzles_command.command("check", cls=FillsHelp)
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True), metavar="FILE")
@click.option("--every", type=click.IntRange(1, 1_000_000), default=1, show_default=True, help="Check one in N.")
@handle_errors
def check_command(file: Path, every: int) -> None:
    """Check the puzzles of the set FILE against their source: each record replayed to its point, the same judge
    asked again (the exact values, or the same search on the same worlds), each line played out. Exit status 2
    naming the first puzzle that does not hold.
    """
    puzzles = read_set(file)
    checked = 0
    for k, p in enumerate(puzzles):
        if k % every == 0:
            check_puzzle(p)
            checked += 1
    click.echo(f"{checked} of {len(puzzles)} puzzles checked: all hold")


def stats_of(puzzles: list[Puzzle]) -> dict[str, object]:
    """What a set holds: counts by variant, kind, theme and rating band, and the ratings' range."""
    bands = Counter(
        "under 1400" if p.rating < 1400 else "1800 and over" if p.rating >= 1800 else "1400-1799" for p in puzzles
    )
    return {
        "puzzles": len(puzzles),
        "variants": dict(Counter(p.variant for p in puzzles)),
        "kinds": dict(Counter(p.kind for p in puzzles)),
        "themes": dict(Counter(t for p in puzzles for t in p.themes).most_common()),
        "ratings": dict(sorted(bands.items())),
        "after_a_mistake": sum(1 for p in puzzles if p.mistake is not None),
        "lowest": min((p.rating for p in puzzles), default=None),
        "highest": max((p.rating for p in puzzles), default=None),
    }


@puzzles_command.command("stats", cls=FillsHelp)
@click.argument("source", metavar="FILE|GAME")
@handle_errors
def stats_command(source: str) -> None:
    """Count what a set holds (a file, or the sets shipped for a game) by kind, theme and rating, as JSON."""
    path = Path(source)
    try:
        puzzles = read_set(path) if path.suffix in (".jsonl", ".gz") or path.exists() else shipped(source)
    except ClubsError:
        raise
    click.echo(json.dumps(stats_of(puzzles), indent=2))


@puzzles_command.command("themes", cls=FillsHelp)
@click.argument("game", metavar="GAME")
@handle_errors
def themes_command(game: str) -> None:
    """List the themes GAME's puzzles are tagged with, and what each means."""
    info, _ = find_game(game.split("(")[0])
    names = theme_names(info.name)
    if not names:
        raise InvalidOptionsError(f"{info.title} names no puzzle themes")
    for theme, (name, meaning) in names.items():
        click.echo(f"{theme:<14} {name}: {meaning}")
