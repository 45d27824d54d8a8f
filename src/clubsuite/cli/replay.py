"""The ``clubs replay`` command: check a match record by replaying it and show what happened, as text or JSON.

The readable account is told hand by hand by the game's narrator (:mod:`clubsuite.narration`).
"""

from __future__ import annotations

import click

from clubsuite.cli.common import BYTE_SIZE, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.play import terminal_language
from clubsuite.errors import InvalidRecordError
from clubsuite.i18n import LANGUAGES
from clubsuite.narration import stream_text
from clubsuite.records import MAX_RECORD_BYTES, dumps_json, match_result_json, parse_record, read_record_bytes
from clubsuite.records.replay import Replay


@click.command("replay", cls=FillsHelp)
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON instead of a readable account.")
@click.option(
    "--max-size",
    type=BYTE_SIZE,
    default=MAX_RECORD_BYTES,
    metavar="SIZE",
    help="The largest record read (default 16M), in bytes or with a suffix K, M or G (powers of 1024); a larger "
    "one is refused with status 2 before it is replayed.",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    default=None,
    help="The language of the account (English, German, French, Dutch); default: CLUBS_LANG, else the locale, else "
    "English. The JSON result is the same in every language.",
)
@handle_errors
def replay_command(file: str, as_json: bool, max_size: int, lang: str | None) -> None:
    """Replay the match record FILE (- for standard input), checking every rule, and show what happened.

    The whole record is checked first; the account is then printed hand by hand as it is told. Exit status 2 with a
    message naming the hand, action, seat and rule if the record is malformed or breaks a rule (nothing else is
    printed then), and for a file that is not a regular file (a folder, a named pipe, a device) or is larger than
    --max-size.
    """
    language = lang.lower() if lang else terminal_language()
    data, source = read_record_bytes(file, max_size, hint="raise the limit with --max-size if you trust it")
    if not data.strip():
        raise InvalidRecordError(f"{source} is empty: expected a record (a JSON object)")
    record = parse_record(data, source)
    del data
    # First the whole record is checked, keeping no events, so that a broken record prints nothing but its error;
    # then it is replayed again and told hand by hand, so the account is never held whole.
    checked = Replay(record)
    for _ in checked.hands():
        pass
    checked.check_result()
    if as_json:
        data_json = match_result_json(checked.match, checked.variant, checked.options_json, checked.seats)
        click.echo(dumps_json(data_json), nl=False)
        return
    header = checked.checked
    del checked
    stream_text(Replay(record, header), lambda text: click.echo(text, nl=False), language)
