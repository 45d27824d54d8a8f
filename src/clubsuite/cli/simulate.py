"""The ``clubs simulate`` command: many bot-against-bot matches, then win rates with confidence intervals."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from clubsuite.cli.common import handle_errors
from clubsuite.engine import GameInfo, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.report_free import free_report
from clubsuite.sim import REPORT_GAMES, ProgressCallback, simulate

DEFAULT_BOTS = "heuristic,random,random"
"""The default line-up of a three-player game: the heuristic bot against two random bots."""


def default_bots(info: GameInfo) -> str:
    """The default ``--bots`` of a game: the heuristic bot in the first seat and random bots in the others; in a
    game of partnerships one name per partnership, the heuristic pair against random pairs."""
    if info.teams:
        return ",".join(["heuristic"] + ["random"] * (len(info.teams) - 1))
    return ",".join(["heuristic"] + ["random"] * (info.seats[0] - 1))


def parse_bots(text: str) -> list[str]:
    """Read ``--bots`` (comma-separated bot names), refusing empty names so a stray comma is reported, not ignored."""
    names = [part.strip() for part in text.split(",")]
    empty = [str(position) for position, name in enumerate(names, start=1) if not name]
    if empty:
        which = f"name {empty[0]}" if len(empty) == 1 else f"names {', '.join(empty[:-1])} and {empty[-1]}"
        raise InvalidOptionsError(
            f"--bots {text!r}: {which} of {len(names)} {'is' if len(empty) == 1 else 'are'} empty; expected one bot "
            f"name per seat separated by commas, e.g. {DEFAULT_BOTS}"
        )
    return names


def choose_spec(game: str, variant: str | None) -> str:
    """The spec to simulate: ``--variant`` when given (it must be a spec of GAME's game), else GAME itself."""
    info, _ = resolve(game)
    if variant is None:
        return game
    variant_info, _ = resolve(variant)
    if variant_info.name != info.name:
        raise InvalidOptionsError(
            f"--variant {variant!r} is a spec of {variant_info.name}, but the game given is {game!r} ({info.name})"
        )
    return variant


class _LazyProgress:
    """A Rich progress bar on standard error, started at the first report and stopped by :meth:`close`.

    Starting late keeps the drawing thread out of the way while worker processes are being started.
    """

    def __init__(self, console: Console, total: int) -> None:
        self._console = console
        self._total = total
        self._progress: Progress | None = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` matches have finished."""
        if self._progress is None:
            self._progress = Progress(
                TextColumn("simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("matches", total=self._total)
        self._progress.update(self._task, completed=done, total=total)

    def close(self) -> None:
        """Remove the bar (it is transient) so that only the results remain on screen."""
        if self._progress is not None:
            self._progress.stop()


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@click.option(
    "--bots",
    default=None,
    help=(
        "One bot per seat, comma-separated, no empty names; a name may repeat; for the partnership game also one "
        "per partnership. The seating changes every match. [default: heuristic,random,random for three players; "
        "heuristic,random (two partnerships) for partnership]"
    ),
)
@click.option("--matches", default=120, show_default=True, help="How many whole matches to play (at least 1).")
@click.option("--seed", default=0, show_default=True, help="Simulation seed: the same seed gives the same result.")
@click.option("--variant", default=None, help="A full rules spec overriding GAME, e.g. 'whist-1997(target=9)'.")
@click.option(
    "--workers",
    default=1,
    show_default=True,
    help="Worker processes; the result is the same for any number.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on standard output.")
@click.option(
    "--report",
    is_flag=True,
    help="Free Clubs only: add the balance report (contracts by bid, Joker teams, points by role, bonuses).",
)
@handle_errors
def simulate_command(
    game: str,
    bots: str | None,
    matches: int,
    seed: int,
    variant: str | None,
    workers: int,
    as_json: bool,
    report: bool,
) -> None:
    """Play many matches of GAME (e.g. whist, whist-1997, free, partnership) between bots and report how each bot
    (or each partnership) did.

    Per bot: matches won (several players can win one match; nobody wins a draw), the win rate with its 95%
    Wilson score interval, and the mean score per hand; overall: draws and mean hands per match.

    Seating: the bots go through a fixed cycle of seatings, one per match, each order around the table turned
    through every seat before the next order. Up to four bots it is all n! seatings (6 for three bots), so every
    bot holds every seat and every order around the table comes up equally often; five or six bots use a cycle of
    60 or 120 seatings that puts any three bots at any three seats exactly once. In the partnership game the
    cycle is the 8 seatings that keep partners together, and the table reports each partnership (wins, win rate
    with its interval, points per hand). A --matches that is a multiple of the cycle balances the seats exactly.

    Match k is dealt from a seed derived from --seed and k, so the result is the same for any --workers.

    --report (Free Clubs only) adds the balance report over every hand: how often the auction winner makes the
    contract by the highest bid's tier and by the number of cards bid, how often Joker teams take all 10 tricks,
    mean points per hand by role, and how often each bonus is won; with --json it is the "report" field.
    """
    spec = choose_spec(game, variant)
    info, _ = resolve(spec)
    names = parse_bots(bots if bots is not None else default_bots(info))
    if report and info.name not in REPORT_GAMES:
        raise InvalidOptionsError(
            f"--report: the balance report exists for Free Clubs only (clubs simulate free --report), not for "
            f"{game!r}; the table without --report is the report for {info.name}"
        )
    console = Console(stderr=True)
    bar = _LazyProgress(console, matches) if console.is_terminal and not as_json else None
    progress: ProgressCallback | None = bar
    try:
        result = simulate(spec, names, matches, seed, workers=workers, progress=progress, hand_facts=report)
    finally:
        if bar is not None:
            bar.close()
    balance = free_report(result) if report else None
    if as_json:
        data = result.to_json()
        if balance is not None:
            data["report"] = balance.to_json()
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(result.format_table())
        if balance is not None:
            click.echo("")
            click.echo(balance.format_text())
