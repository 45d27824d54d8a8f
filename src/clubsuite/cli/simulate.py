"""The ``clubs simulate`` command: many bot-against-bot matches, then win rates with confidence intervals."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from clubsuite.bots.base import bot_names, split_bot_list
from clubsuite.cli.common import EXIT_WRITE_FAILED, MAX_SEED, fail, handle_errors, with_players
from clubsuite.cli.describe import FillsHelp
from clubsuite.engine import SomeGame, find_game, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.options import split_spec
from clubsuite.records.files import parse_record, path_text, read_record_bytes, save_problem, write_atomically
from clubsuite.safetext import quoted, safe_lines
from clubsuite.sim import (
    MAX_MATCHES,
    MAX_WORKERS,
    ProgressCallback,
    build_report,
    report_games,
    report_titles,
    simulate,
)
from clubsuite.sim.cluster import simulate_on_dask
from clubsuite.sim.html import html_report
from clubsuite.sim.parts import (
    MAX_PART_BYTES,
    SimPart,
    merge_parts,
    parse_shard,
    part_from_json,
    shard_range,
    simulate_part,
)
from clubsuite.sim.stats import SimResult

DEFAULT_BOTS = "heuristic,random,random"
"""The default line-up of a three-player game: the heuristic bot against two random bots."""


def parse_bots(text: str) -> list[str]:
    """Read ``--bots`` (comma-separated bot specs such as ``heuristic`` or ``pimc(samples=8,ms=100)``), refusing
    empty names so a stray comma is reported, not ignored."""
    names = split_bot_list(text)
    empty = [str(position) for position, name in enumerate(names, start=1) if not name]
    if empty:
        which = f"name {empty[0]}" if len(empty) == 1 else f"names {', '.join(empty[:-1])} and {empty[-1]}"
        raise InvalidOptionsError(
            f"--bots {quoted(text)}: {which} of {len(names)} {'is' if len(empty) == 1 else 'are'} empty; expected "
            f"one bot name per seat separated by commas, e.g. {DEFAULT_BOTS}"
        )
    return names


def choose_spec(game: str, variant: str | None, players: int | None = None) -> str:
    """The spec to simulate: ``--variant`` when given (it must be a spec of GAME's game), else GAME itself, with
    ``players=N`` added for ``--players N`` (before the rules are checked, so that a variant such as
    ``game(teams=...)`` can get the players it needs)."""
    if variant is None:
        spec = with_players(game, players)
        resolve(spec)
        return spec
    info, _ = find_game(split_spec(game)[0]) if players is not None else resolve(game)
    spec = with_players(variant, players)
    variant_info, _ = resolve(spec)
    if variant_info.name != info.name:
        raise InvalidOptionsError(
            f"--variant {quoted(variant)} is a spec of {variant_info.name}, but the game given is {quoted(game)} "
            f"({info.name})"
        )
    return spec


def default_bots(info: SomeGame, n_seats: int) -> list[str]:
    """The line-up when ``--bots`` is not given: the game's heuristic bot (``random`` while the game has none)
    against random bots, one per seat (for three players ``heuristic,random,random``, :data:`DEFAULT_BOTS`); in a
    game of partnerships one name per partnership, the heuristic pair against random pairs."""
    first = "heuristic" if "heuristic" in bot_names(info.name) else "random"
    if info.fixed_teams:
        return [first] + ["random"] * (len(info.teams) - 1)
    return [first] + ["random"] * (n_seats - 1)


def check_bot_count(spec: str, names: list[str], n_seats: int, players: int | None, options: object) -> None:
    """Refuse a ``--bots`` list that does not give one bot per seat of a game whose player count is an option,
    saying how to choose the count (the simulation itself checks the games with a fixed count)."""
    if len(names) == n_seats or info_has_fixed_seats(spec):
        return
    how = "give one bot per seat" if players is not None else f"give one bot per seat, or --players {len(names)}"
    raise InvalidOptionsError(
        f"{len(names)} bots given ({', '.join(names)}) but {quoted(spec)} seats {n_seats} players: {how}"
    )


def info_has_fixed_seats(spec: str) -> bool:
    """Whether the game of ``spec`` has one seat count (the simulation itself then checks the bot count)."""
    info, _ = resolve(spec)
    return info.seat_count is None


class _LazyProgress:
    """A Rich progress bar on standard error, started at the first report and stopped by :meth:`close`.

    Starting late keeps the drawing thread out of the way while worker processes are being started.
    """

    def __init__(self, console: Console, total: int) -> None:
        self._console = console
        self._total = total
        self._bar: tuple[Progress, TaskID] | None = None
        """The bar and its task, once started."""

    def __call__(self, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` matches have finished."""
        if self._bar is None:
            progress = Progress(
                TextColumn("simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=self._console,
                transient=True,
            )
            progress.start()
            self._bar = (progress, progress.add_task("matches", total=self._total))
        progress, task = self._bar
        progress.update(task, completed=done, total=total)

    def close(self) -> None:
        """Remove the bar (it is transient) so that only the results remain on screen."""
        if self._bar is not None:
            self._bar[0].stop()


@click.command(cls=FillsHelp, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@click.option(
    "--bots",
    default=None,
    help="One bot per seat, comma-separated, no empty names; a name may repeat; a bot may carry settings, such as "
    "pimc(samples=8,ms=100); for {partnership_games} also one "
    "per partnership. The seating changes every match. "
    f"[default: {DEFAULT_BOTS}; for other player counts the heuristic bot, or random where the game has none, "
    "and random bots; heuristic,random (two partnerships) for {partnership_games}]",
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
    default=120,
    show_default=True,
    help=f"How many whole matches to play (1 to {MAX_MATCHES:,}).",
)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Duplicate deals: every seating of a cycle plays the same cards, so card luck cancels out of a comparison "
    "of bots (use a multiple of the cycle for --matches).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=0,
    show_default=True,
    help="Simulation seed, 0 to 2**64 - 1: the same seed gives the same result.",
)
@click.option("--variant", default=None, help="A full rules spec overriding GAME, e.g. {examples}.")
@click.option(
    "--workers",
    type=click.IntRange(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help=f"Worker processes (1 to {MAX_WORKERS}, no more than there are cores are started); the result is the "
    "same for any number.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on standard output.")
@click.option(
    "--timing",
    is_flag=True,
    help="Also time every bot's decisions (mean and slowest wall time, mean CPU time: they differ from run to run, "
    "unlike everything else in the result).",
)
@click.option(
    "--report",
    is_flag=True,
    help="{report_games}: add the balance report (see below).",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the result as one self-contained HTML page with plots (and the balance report, for the "
    "games that have one) to this file.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Where the matches are played: worker processes on this machine, or a Dask cluster (the extra dask): "
    "the one at --scheduler, or a local one of --workers processes.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="The Dask scheduler to send the matches to, such as tcp://10.0.0.5:8786 (with --backend dask).",
)
@click.option(
    "--shard",
    default=None,
    metavar="I/N",
    help="Play only part I of N (counted from 1) of the matches and write its outcomes to --out; clubs merge "
    "combines the N part files into the result the whole run gives.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the outcomes to this part file (of the part --shard names, or of the whole run) instead of "
    "printing the result.",
)
@handle_errors
def simulate_command(
    game: str,
    bots: str | None,
    players: int | None,
    matches: int,
    duplicate: bool,
    seed: int,
    variant: str | None,
    workers: int,
    as_json: bool,
    timing: bool,
    report: bool,
    html_file: Path | None,
    backend: str,
    scheduler: str | None,
    shard: str | None,
    out: Path | None,
) -> None:
    """Play many matches of GAME ({game_names}, or a variant such as {a_variant}) between bots and report how
    each bot (or each partnership) did.

    Per bot: matches won (several players can win one match; nobody wins a draw), the win rate with its 95%
    Wilson score interval, and the mean score per hand; overall: draws and mean hands per match.

    Seating: the bots go through a fixed cycle of seatings, one per match, each order around the table turned
    through every seat before the next order. Up to four bots it is all n! seatings (6 for three bots), so every
    bot holds every seat and every order around the table comes up equally often; five or six bots use a cycle of
    60 or 120 seatings that puts any three bots at any three seats exactly once. In {partnership_games} the
    cycle is the 8 seatings that keep partners together, and the table reports each partnership (wins, win rate
    with its interval, points per hand). A --matches that is a multiple of the cycle balances the seats exactly.

    Match k is dealt from a seed derived from --seed and k, so the result is the same for any --workers; with
    --duplicate, from a seed derived from --seed and the number of its cycle of seatings, so every seating of a
    cycle plays the same deals.

    --players N sets the player count of a game that has one ({players}); the default --bots is then the
    game's heuristic bot (random where it has none) and N - 1 random bots. In games played in teams a bot wins
    when its team wins, and the table adds the win rate of each team of seats and of each line-up of bot kinds.

    --report adds the balance report over every hand, with --json as the "report" field. {reports}

    Parts: --shard I/N --out FILE plays only the I-th of N consecutive slices of the matches and writes their
    outcomes to FILE, so that one run can be spread over machines or over time (a job array of any scheduler);
    clubs merge FILE... then prints exactly what the whole run would have printed. --backend dask does the same on
    a Dask cluster: it cuts the run into parts, plays them on the cluster's workers and merges them, with the same
    result as one process.
    """
    spec = choose_spec(game, variant, players)
    info, options = resolve(spec)
    n_seats = info.n_seats(options)
    names = default_bots(info, n_seats) if bots is None else parse_bots(bots)
    check_bot_count(spec, names, n_seats, players, options)
    if report and info.name not in report_games():
        with_report = ", ".join(f"clubs simulate {name} --report" for name in report_games())
        raise InvalidOptionsError(
            f"--report: the balance report exists for {report_titles()} only ({with_report}), "
            f"not for {quoted(game)}; the table without --report is the report for {info.name}"
        )
    if scheduler is not None and backend != "dask":
        raise InvalidOptionsError(f"--scheduler {quoted(scheduler)}: a scheduler is for --backend dask")
    if backend == "dask" and out is not None:
        raise InvalidOptionsError(
            "--backend dask plays the whole run and merges it itself; --shard and --out are for running the parts "
            "yourself"
        )
    if html_file is not None:
        if out is not None:
            raise InvalidOptionsError("--html draws the whole run's result; for a part, give it to clubs merge")
        check_writable("--html", html_file)
        report = report or info.name in report_games()
    if shard is not None and out is None:
        raise InvalidOptionsError(f"--shard {quoted(shard)}: a part is written to a file; give --out FILE too")
    part, parts = (1, 1) if shard is None else parse_shard(shard)
    if out is not None:
        shard_range(matches, part, parts)  # refuses more parts than matches before anything is played
        check_writable("--out", out)
    console = Console(stderr=True)
    bar = _LazyProgress(console, matches) if console.is_terminal and not as_json else None
    progress: ProgressCallback | None = bar
    try:
        if out is not None:
            made = simulate_part(spec, names, matches, seed, part, parts, workers, progress, report, duplicate, timing)
        elif backend == "dask":
            result = simulate_on_dask(
                spec,
                names,
                matches,
                seed,
                scheduler=scheduler,
                workers=workers,
                progress=progress,
                hand_facts=report,
                duplicate=duplicate,
                timing=timing,
            )
        else:
            result = simulate(
                spec,
                names,
                matches,
                seed,
                workers=workers,
                progress=progress,
                hand_facts=report,
                duplicate=duplicate,
                timing=timing,
            )
    finally:
        if bar is not None:
            bar.close()
    if out is not None:
        _write_part(made, out, as_json)
        return
    show_result(result, report, as_json, html_file)


def check_writable(option: str, path: Path) -> None:
    """Refuse a file that cannot be written before anything is played."""
    problem = save_problem(path)
    if problem is not None:
        raise InvalidOptionsError(f"{option} {path_text(path)}: {problem}")


def _write_part(made: SimPart, out: Path, as_json: bool) -> None:
    """Write a part file and say what it holds (status 3 if it cannot be written; the file is then as it was)."""
    try:
        write_atomically(out, json.dumps(made.to_json(), separators=(",", ":")).encode())
    except OSError as exc:
        fail(f"cannot write the part to {path_text(out)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
    played = made.played
    if as_json:
        summary = {"file": str(out), "part": made.part, "parts": made.parts, "matches": made.matches}
        click.echo(json.dumps({**summary, "first_match": played.start, "last_match": played.stop - 1}, indent=2))
        return
    click.echo(
        safe_lines(
            f"part {made.part} of {made.parts}: matches {played.start} to {played.stop - 1} of {made.matches} "
            f"written to {path_text(out)}; clubs merge with all {made.parts} part files gives the result"
        )
    )


def show_result(result: SimResult, report: bool, as_json: bool, html_file: Path | None = None) -> None:
    """Print a simulation's result (and its balance report with ``report``): a table, or JSON with ``as_json``;
    with ``html_file`` also write the HTML page (status 3 if it cannot be written)."""
    balance = build_report(result) if report else None
    if html_file is not None:
        page = html_report(result, balance)
        try:
            write_atomically(html_file, page.encode("utf-8"))
        except OSError as exc:
            fail(f"cannot write the HTML report to {path_text(html_file)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
        click.echo(safe_lines(f"HTML report written to {path_text(html_file)}"), err=True)
    if as_json:
        data = result.to_json()
        if balance is not None:
            data["report"] = balance.to_json()
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(safe_lines(result.format_table()))  # it names the spec as given, which may hold odd spaces
        if balance is not None:
            click.echo("")
            click.echo(safe_lines(balance.format_text()))


@click.command(cls=FillsHelp, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on standard output.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the result as one self-contained HTML page with plots to this file.",
)
@handle_errors
def merge_command(files: tuple[Path, ...], as_json: bool, html_file: Path | None) -> None:
    """Combine the part files of one run of clubs simulate --shard I/N --out FILE into its result, printed as
    clubs simulate prints it (with the balance report when the parts were played with --report).

    Every part of the run must be given once, in any order. Every file is checked: parts of different runs, a part
    given twice, a missing part and a damaged file are refused, naming the file.
    """
    if html_file is not None:
        check_writable("--html", html_file)
    parts = [(path_text(f), read_part(f)) for f in files]
    result = merge_parts(parts)
    show_result(result, parts[0][1].hand_facts, as_json, html_file)


def read_part(path: Path) -> SimPart:
    """A part file read and checked (:func:`part_from_json`), at most :data:`MAX_PART_BYTES` of it."""
    data, source = read_record_bytes(
        path, MAX_PART_BYTES, "a part file that large is not one this program wrote", kind="part file"
    )
    return part_from_json(parse_record(data, source), source)
