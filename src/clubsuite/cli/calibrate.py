"""The ``clubs calibrate`` command: the bot levels' ratings on the scale people are rated on, from matches between
them (see :mod:`clubsuite.sim.calibration` for the method and ``docs/bots.md`` for the results)."""

from __future__ import annotations

import datetime
import json
import shlex
from pathlib import Path

import click

from clubsuite import ratings
from clubsuite.bots.base import split_bot_list
from clubsuite.cli.common import EXIT_WRITE_FAILED, MAX_SEED, FiniteFloatRange, fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.simulate import check_writable, choose_spec
from clubsuite.jsonform import JsonObject
from clubsuite.records.files import path_text, write_atomically
from clubsuite.safetext import quoted, safe_lines
from clubsuite.sim.calibration import (
    ANCHOR,
    DEFAULT_CYCLES,
    Calibration,
    check,
    figure_png,
    pyplot,
)
from clubsuite.sim.calibration import calibrate as run_calibration
from clubsuite.sim.running import MAX_MATCHES, MAX_WORKERS

DEFAULT_LEVELS = "easy,normal,hard,expert"
"""The levels calibrated when ``--levels`` is not given: all four that people meet."""
MAX_TIME_LIMIT = 30 * 24 * 3600.0
"""The longest ``--time-limit`` taken: thirty days."""


def _progress(done: int, planned: int, seconds: float) -> None:
    """One line on standard error per cycle played."""
    click.echo(f"cycle {done} of {planned} played ({seconds:.0f} s so far)", err=True)


def _command_line(
    game: str, players: int | None, levels: list[str], matches: int, seed: int, time_limit: float | None
) -> str:
    """The command that plays the same matches, every option that changes them spelled out."""
    words = ["clubs", "calibrate", game]
    if players is not None:
        words += ["--players", str(players)]
    words += ["--levels", ",".join(levels), "--matches", str(matches), "--seed", str(seed)]
    if time_limit is not None:
        words += ["--time-limit", f"{time_limit:g}"]
    return shlex.join(words)


def result_json(result: Calibration, pool: str, command: str) -> JsonObject:
    """The JSON ``--out`` writes: the pool first, then the run's provenance and each level's rating."""
    body = result.to_json()
    return {
        "pool": pool,
        "spec": body.pop("spec"),
        "matches": body.pop("matches"),
        "cycles": body.pop("cycles"),
        "seed": body.pop("seed"),
        "command": command,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        **body,
    }


def format_table(data: JsonObject) -> str:
    """The result for people: each level's shown rating, its 95% interval and its skill."""
    levels = data["levels"]
    if not isinstance(levels, dict):
        raise TypeError(f"a calibration's levels are an object, not {levels!r}")
    lines = [
        f"{data['spec']} (pool {data['pool']}): {data['matches']} matches in {data['cycles']} cycles, "
        f"seed {data['seed']}",
        f"{'level':<26} {'rating':>6}  {'95% interval':<14} {'mu':>7} {'sigma':>6} {'se':>6} {'matches':>7}",
    ]
    for name, level in levels.items():
        interval = "anchor" if name == ANCHOR else f"{level['low']} .. {level['high']}"
        lines.append(
            f"{name:<26} {level['shown']:>6}  {interval:<14} {level['mu']:>7.2f} {level['sigma']:>6.2f} "
            f"{level['se']:>6.2f} {level['matches']:>7}"
        )
    lines.append(
        f"1500 is a newcomer's rating, where {ANCHOR} is pinned; 60 points per unit of mu. sigma is the starting "
        "uncertainty for the server, se the bootstrap standard error over cycles."
    )
    return "\n".join(lines)


@click.command(cls=FillsHelp, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@click.option(
    "--levels",
    default=DEFAULT_LEVELS,
    show_default=True,
    help=f"The levels (or any bots of the game) to rate, comma-separated, 2 to 6 of them, {ANCHOR} among them: "
    "it anchors the scale.",
)
@click.option(
    "--players",
    type=int,
    default=None,
    help="The number of players, for games that let you choose it ({players}).",
)
@click.option(
    "--matches",
    type=click.IntRange(1, MAX_MATCHES),
    default=None,
    help=f"How many matches: a whole number of cycles, at least two (the size of a cycle depends on the levels and "
    f"the seats; an error names it). [default: {DEFAULT_CYCLES} cycles]",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=0,
    show_default=True,
    help="Seed, 0 to 2**64 - 1: cycle c is dealt from a seed derived from it and c.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help=f"Worker processes (1 to {MAX_WORKERS}, no more than there are cores); the matches are the same for any "
    "number.",
)
@click.option(
    "--time-limit",
    type=FiniteFloatRange(0, MAX_TIME_LIMIT, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Start no cycle that would end past this many seconds (judged from the cycles so far; at least two cycles "
    "are always played) and fit the whole cycles played.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the result as JSON to this file.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Draw each level's rating with its 95% interval to this PNG file (Matplotlib, the extra plots).",
)
@handle_errors
def calibrate_command(
    game: str,
    levels: str,
    players: int | None,
    matches: int | None,
    seed: int,
    workers: int,
    time_limit: float | None,
    out: Path | None,
    plot: Path | None,
) -> None:
    """Rate bot levels of GAME ({game_names}, or a variant such as {a_variant}) on the scale the server rates
    people on, by matches between them, so that a level can start its rating where it belongs.

    Tables of the game's seat count are filled from the levels in rotation (every choice of levels when there are
    at least as many as sides, else the levels in turn; in a game of partnerships both partners are one level).
    Each cycle deals one set of cards, and every line-up plays it from every seat, so the luck of the cards
    cancels out. The finishing orders are rated with OpenSkill's Plackett-Luce model, as the server rates people,
    in several passes over the matches in shuffled orders, averaged; the normal level is pinned at 1500, a
    newcomer's rating. The 95% intervals come from a bootstrap over whole cycles.

    Prints a table; --out writes the JSON (pool, spec, matches, cycles, seed, command, date, and per level mu,
    sigma, se, shown, low, high), --plot a figure. One line per cycle goes to standard error. Needs OpenSkill
    (the extra server).
    """
    spec = choose_spec(game, None, players)
    names = split_bot_list(levels)
    if out is not None:
        check_writable("--out", out)
    if plot is not None:
        check_writable("--plot", plot)
        pyplot()  # refuses before anything is played when Matplotlib is missing
    ratings.model()  # refuses before anything is played when OpenSkill is missing
    info, options, table, total = check(spec, names, matches, seed, workers)
    pool = ratings.pool(info, options)
    cycles = total // table.per_cycle
    click.echo(
        safe_lines(
            f"calibrating {', '.join(names)} at {quoted(spec)} (pool {pool}): {len(table.lineups)} line-up"
            f"{'s' if len(table.lineups) != 1 else ''}, cycles of {table.per_cycle} matches, {cycles} cycles "
            f"({total} matches), seed {seed}"
        ),
        err=True,
    )
    result = run_calibration(spec, names, total, seed, workers, time_limit, _progress)
    if result.cycles < cycles:
        click.echo(f"the time limit stopped the run after {result.cycles} of {cycles} cycles", err=True)
    data = result_json(result, pool, _command_line(game, players, names, total, seed, time_limit))
    if out is not None:
        _write(out, (json.dumps(data, indent=2) + "\n").encode(), "the result")
    if plot is not None:
        _write(plot, figure_png([data]), "the figure")
    click.echo(safe_lines(format_table(data)))


def _write(path: Path, content: bytes, what: str) -> None:
    """Write a file whole or not at all (status 3 when it cannot be written), and say so on standard error."""
    try:
        write_atomically(path, content)
    except OSError as exc:
        fail(f"cannot write {what} to {path_text(path)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
    click.echo(safe_lines(f"{what} written to {path_text(path)}"), err=True)
