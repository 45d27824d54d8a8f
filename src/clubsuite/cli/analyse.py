"""``clubs solve`` and ``clubs review``: analysis of a match record, readable or as JSON."""

from __future__ import annotations

import click

from clubsuite.analysis.positions import position_at
from clubsuite.analysis.review import ReviewSettings, review, review_text
from clubsuite.analysis.table import dd_table, dd_text
from clubsuite.cli.common import BYTE_SIZE, MAX_SEED, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.errors import InvalidRecordError
from clubsuite.jsonform import JsonObject
from clubsuite.records import MAX_RECORD_BYTES, dumps_json, parse_record, read_record_bytes
from clubsuite.solver import NodeLimitError

_MAX_SIZE_HELP = (
    "The largest record read (default 16M), in bytes or with a suffix K, M or G; a larger one is refused with status 2."
)


def read_record(file: str, max_size: int) -> JsonObject:
    """The record in ``file`` (- for standard input), read within ``max_size`` bytes; refused with a clear message
    when it is empty, not JSON or not an object."""
    data, source = read_record_bytes(file, max_size, hint="raise the limit with --max-size if you trust it")
    if not data.strip():
        raise InvalidRecordError(f"{source} is empty: expected a record (a JSON object)")
    record = parse_record(data, source)
    if not isinstance(record, dict):
        raise InvalidRecordError(f"{source}: expected a record (a JSON object)")
    return record


@click.command("solve", cls=FillsHelp)
@click.argument("file", metavar="FILE")
@click.option(
    "--hand",
    type=click.IntRange(min=1),
    default=None,
    help="The hand to stop in, counted from 1 as players count (1 to the number of hands; default: the last). The "
    "--json table keeps the record's hand numbers, from 0.",
)
@click.option(
    "--actions",
    type=click.IntRange(min=0),
    default=None,
    help="Stop after this many actions of that hand (default: where the record stops).",
)
@click.option(
    "--nodes",
    type=click.IntRange(1000, 1_000_000_000),
    default=20_000_000,
    show_default=True,
    help="The most positions the solver may search; past it the command stops with status 2.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--max-size", type=BYTE_SIZE, default=MAX_RECORD_BYTES, metavar="SIZE", help=_MAX_SIZE_HELP)
@handle_errors
def solve_command(file: str, hand: int | None, actions: int | None, nodes: int, as_json: bool, max_size: int) -> None:
    """The double-dummy table of the position where the record FILE (- for standard input) stops: for every legal
    card of the player to act, its exact value for the rest of the hand with every hand known, the others playing
    against it (its partner with it), for each of the game's measures. For the trick games, during the card play.

    Exit status 2 with a message if the record is broken, the position has no card to play, or the search passes
    --nodes.
    """
    match, _ = position_at(read_record(file, max_size), None if hand is None else hand - 1, actions)
    try:
        table = dd_table(match, nodes)
    except NodeLimitError:
        raise InvalidRecordError(
            f"the position needs more than --nodes {nodes} positions searched; raise --nodes or pick a later point "
            "with --actions"
        ) from None
    click.echo(dumps_json(table) if as_json else dd_text(table), nl=False)


@click.command("review", cls=FillsHelp)
@click.argument("file", metavar="FILE")
@click.option(
    "--seat",
    type=click.IntRange(min=1),
    default=None,
    help="The seat reviewed, counted from 1 as players count (1 to the number of players; default: the first "
    "person's). The --json output keeps the record's seat numbers, from 0.",
)
@click.option(
    "--samples", type=click.IntRange(1, 1000), default=16, show_default=True, help="Worlds searched per decision."
)
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="The search's seed.")
@click.option(
    "--threshold",
    type=click.FloatRange(0.1, 100),
    default=3.0,
    show_default=True,
    help="Mark a decision that costs at least this many percentage points of winning chance.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--max-size", type=BYTE_SIZE, default=MAX_RECORD_BYTES, metavar="SIZE", help=_MAX_SIZE_HELP)
@handle_errors
def review_command(
    file: str, seat: int | None, samples: int, seed: int, threshold: float, as_json: bool, max_size: int
) -> None:
    """Review every decision of one seat in the record FILE (- for standard input): the value of the action taken
    and of the best one, estimated by search from the seat's own view (what it could know), and, during the card
    play of the trick games, the exact count with every hand known (what was possible). Costly decisions are marked
    and the costs summed per hand.
    """
    record = read_record(file, max_size)
    if seat is not None:
        seat -= 1  # the engine's seat, from 0
    else:
        seats = record.get("seats")
        people = (
            [i for i, s in enumerate(seats) if isinstance(s, dict) and s.get("kind") == "person"]
            if isinstance(seats, list)
            else []
        )
        seat = people[0] if people else 0
    result = review(record, seat, ReviewSettings(samples=samples, seed=seed, threshold=threshold / 100))
    click.echo(dumps_json(result.to_json()) if as_json else review_text(result), nl=False)
