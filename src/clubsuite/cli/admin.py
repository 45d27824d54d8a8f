"""The ``clubs admin`` commands: what a server's operator does by hand (no e-mail is needed to run a server, so a
forgotten password is reset here)."""

from __future__ import annotations

import asyncio
import secrets
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from clubsuite.cli.common import fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.serve import DEFAULT_DATA_DIR
from clubsuite.safetext import quoted

if TYPE_CHECKING:  # the server's packages are an extra: imported where a command needs them
    from clubsuite.server.community.tournaments import TournamentSettings
    from clubsuite.server.people.moderation import Moderation
    from clubsuite.server.store.database import Store

T = TypeVar("T")


@click.group()
def admin_command() -> None:
    """What a server's operator does by hand: reset a player's password, read the players' reports and act on them,
    name the moderators."""


def _database_options(command: Callable[..., None]) -> Callable[..., None]:
    command = click.option(
        "--data-dir",
        default=DEFAULT_DATA_DIR,
        show_default=True,
        type=click.Path(file_okay=False),
        help="where the server's default SQLite database lives",
    )(command)
    return click.option(
        "--db",
        "db_url",
        default=None,
        metavar="URL",
        envvar="CLUBS_DB",
        help="the server's database URL, as given to clubs serve --db (also read from CLUBS_DB)",
    )(command)


@admin_command.command("reset-password", cls=FillsHelp)
@click.argument("name")
@click.option(
    "--password-stdin",
    is_flag=True,
    help="read the new password from the first line of standard input (default: make one and print it)",
)
@_database_options
@handle_errors
def reset_password_command(name: str, password_stdin: bool, db_url: str | None, data_dir: str) -> None:
    """Give the account NAME a new password and sign it out everywhere (every session ends).

    The new password is made at random and printed (tell it to the player, who can change it once signed in), or
    read from standard input with --password-stdin. The server may be running: the change takes effect at once."""
    try:
        from clubsuite.server.limits import ServerLimits
        from clubsuite.server.people.accounts import AccountRefused, Accounts, check_password
        from clubsuite.server.store.database import Store, StoreError
        from clubsuite.server.store.handle import InlineDatabase
    except ImportError as exc:
        fail(f"the server needs its packages ({exc.name} is missing): pip install 'clubsuite[server]'")
    if password_stdin:
        line = sys.stdin.readline(1100).rstrip("\r\n")
        password = line
    else:
        password = secrets.token_urlsafe(12)
    if not db_url and not (Path(data_dir) / "clubs.sqlite3").is_file():
        fail(f"there is no server database in {quoted(data_dir)}: give the server's --data-dir or --db")
    try:
        store = Store(db_url) if db_url else Store.in_directory(Path(data_dir))
    except StoreError as exc:
        fail(str(exc))

    async def reset() -> None:
        accounts = Accounts(InlineDatabase(store), ServerLimits(hash_workers=1))
        try:
            user = await accounts.user_by_name(name)
            if user is None:
                fail(f"there is no account {quoted(name)} in {store.url_for_display}")
            await accounts.set_password(user.id, check_password(password, user.name), keep=None)
        finally:
            accounts.close()

    try:
        asyncio.run(reset())
    except AccountRefused as exc:
        fail(f"the new password: {exc}")
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    click.echo(f"the password of {quoted(name)} is reset; every session of the account has ended")
    if not password_stdin:
        click.echo(f"new password: {password}")


def _open_store(db_url: str | None, data_dir: str) -> Store:
    """The server's store, or a clear failure (the packages missing, no database there, the database refusing)."""
    try:
        from clubsuite.server.store.database import Store, StoreError
    except ImportError as exc:
        fail(f"the server needs its packages ({exc.name} is missing): pip install 'clubsuite[server]'")
    if not db_url and not (Path(data_dir) / "clubs.sqlite3").is_file():
        fail(f"there is no server database in {quoted(data_dir)}: give the server's --data-dir or --db")
    try:
        return Store(db_url) if db_url else Store.in_directory(Path(data_dir))
    except StoreError as exc:
        fail(str(exc))


def _safety(store: Store) -> Moderation:
    """The moderation of ``store`` (its calls run in this thread: a command does one thing at a time)."""
    from clubsuite.server.people.moderation import Moderation
    from clubsuite.server.people.notices import Notices
    from clubsuite.server.people.relations import Relations
    from clubsuite.server.store.handle import InlineDatabase

    database = InlineDatabase(store)
    relations = Relations(database)
    return Moderation(database, relations, Notices(database, relations))


def _run(store: Store, work: Callable[[], Coroutine[object, object, T]]) -> T:
    """Run ``work()`` (a coroutine) over ``store``, turning a refusal or the database's failure into a message."""
    from clubsuite.server.people.relations import RelationRefused
    from clubsuite.server.store.database import StoreError

    try:
        return asyncio.run(work())
    except RelationRefused as exc:
        fail(str(exc))
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()


def _line(text: object, limit: int = 200) -> str:
    """Text a player wrote, shown safely on one line."""
    return quoted(str(text), limit)


@admin_command.command("reports", cls=FillsHelp)
@click.option("--closed", is_flag=True, help="list the reports dealt with (newest first) instead of the open ones")
@_database_options
@handle_errors
def reports_command(closed: bool, db_url: str | None, data_dir: str) -> None:
    """List the players' reports: open ones oldest first, each with its id, who reported whom, why, and the message
    with the lines around it as the server kept them. Act on one with clubs admin act."""
    from clubsuite.server.store.dbschema import ReportStatus

    store = _open_store(db_url, data_dir)
    moderation = _safety(store)
    found = _run(store, lambda: moderation.queue(ReportStatus.CLOSED if closed else ReportStatus.OPEN))
    if not found:
        click.echo("no closed reports" if closed else "no open reports")
        return
    for r in found:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r["at"]))
        click.echo(
            f"{r['id']}  {when} UTC  {r['kind']}: {_line(r['subject'], 40)} reported by {_line(r['reporter'], 40)}"
            f" ({r['open_reports']} open)"
        )
        if r["reason"]:
            click.echo(f"    why: {_line(r['reason'])}")
        context = r["context"]
        for said in context.get("lines", []):
            mark = ">" if said.get("id") == context.get("line", {}).get("id") else " "
            click.echo(f"  {mark} {_line(said.get('name'), 40)}: {_line(said.get('text'))}")
        if context.get("name"):
            click.echo(f"    name: {_line(context['name'], 40)}")
        if r["status"] == "closed":
            click.echo(f"    dealt with: {r['outcome']} by {_line(r['handled_by'] or 'the operator', 40)}")


@admin_command.command("act", cls=FillsHelp)
@click.argument("report")
@click.argument("action", type=click.Choice(["warn", "mute", "chat_ban", "close", "dismiss"]))
@click.option("--hours", type=click.FloatRange(min=0, min_open=True), default=None, help="a mute's length, in hours")
@click.option("--reason", default="", help="why, as the player is told (plain words)")
@_database_options
@handle_errors
def act_command(report: str, action: str, hours: float | None, reason: str, db_url: str | None, data_dir: str) -> None:
    """Act on the report REPORT (its id from clubs admin reports): warn the player, mute them for --hours, ban them
    from chat, close their account (every session ends; they can no longer sign in; the name stays taken), or
    dismiss the report. Every open report of the same player is closed with it; the player is told what and why.
    Ids are made never to begin with "-"; one from an older database that does goes after "--", options first:
    clubs admin act --hours 2 -- -Ab3 mute."""
    store = _open_store(db_url, data_dir)
    moderation = _safety(store)
    done = _run(store, lambda: moderation.act(report, action, None, reason, hours))
    click.echo(f"report {quoted(report, 40)}: {done['action']}")


@admin_command.command("moderator", cls=FillsHelp)
@click.argument("name")
@click.option("--remove", is_flag=True, help="no longer a moderator")
@_database_options
@handle_errors
def moderator_command(name: str, remove: bool, db_url: str | None, data_dir: str) -> None:
    """Make the account NAME a moderator (it sees the reports on the page /moderation and acts on them), or, with
    --remove, no longer one."""
    store = _open_store(db_url, data_dir)
    moderation = _safety(store)

    async def work() -> str:
        found, shown = await moderation.relations.account(name)
        await moderation.set_moderator(found, not remove)
        return str(shown)

    shown = _run(store, work)
    click.echo(f"{quoted(shown, 40)} is {'no longer ' if remove else ''}a moderator")


@admin_command.command("tournament", cls=FillsHelp)
@click.argument("kind", type=click.Choice(["arena", "swiss"]))
@click.argument("game")
@click.option(
    "--starts", required=True, metavar="WHEN", help="when it starts: YYYY-MM-DD HH:MM in UTC, or +MINUTES from now"
)
@click.option("--name", default=None, help="what it is called (default: the game and the kind)")
@click.option("--minutes", type=int, default=None, help="an arena's length, 5 to 240 (default 30)")
@click.option("--rounds", type=int, default=None, help="a Swiss tournament's rounds, 1 to 15 (default 5)")
@click.option("--rated", is_flag=True, help="its tables count for ratings")
@click.option("--no-bots", is_flag=True, help="no bots fill a short table (an arena's player then waits)")
@click.option(
    "--bot",
    default="normal",
    show_default=True,
    help="the level of the bots that fill short tables; a searching level (hard, expert, pimc, ismcts) plays at no "
    "more tables at once than the server's --search-tables-per-address, the strongest instant bot at the others",
)
@click.option(
    "--unit",
    type=click.Choice(["hand", "short", "match"]),
    default=None,
    help="what each table plays: one hand, a short match or a whole match (default: an arena one hand, a Swiss "
    "tournament a short match)",
)
@_database_options
@handle_errors
def tournament_command(
    kind: str,
    game: str,
    starts: str,
    name: str | None,
    minutes: int | None,
    rounds: int | None,
    rated: bool,
    no_bots: bool,
    bot: str,
    unit: str | None,
    db_url: str | None,
    data_dir: str,
) -> None:
    """Schedule the site's own tournament: an arena or a Swiss tournament of GAME (a game's name, a variant or a
    rules spec) that starts by itself at --starts. It is listed in every lobby with a countdown, and people join it
    before it starts. Run it from cron for a regular calendar (docs/server.md, "Tournaments")."""
    import calendar

    from clubsuite.errors import ClubsError

    now = time.time()
    try:
        if starts.startswith("+"):
            at = now + 60 * float(starts[1:])
        else:
            at = float(calendar.timegm(time.strptime(starts, "%Y-%m-%d %H:%M")))
    except ValueError:
        fail(f"--starts {quoted(starts, 40)}: expected YYYY-MM-DD HH:MM (UTC) or +MINUTES")
    try:
        from clubsuite.server.community.tournaments import TournamentSettings
    except ImportError as exc:
        fail(f"the server needs its packages ({exc.name} is missing): pip install 'clubsuite[server]'")
    try:
        settings = TournamentSettings.read(
            kind, game, name, minutes, rounds, rated, not no_bots, bot, 0.5, at, now=now, unit=unit
        )
    except ClubsError as exc:
        fail(str(exc))
    store = _open_store(db_url, data_dir)
    made = _run(store, lambda: _schedule(store, settings))
    click.echo(
        f"tournament {made}: {quoted(settings.name, 60)} starts {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(at))}"
    )


async def _schedule(store: Store, settings: TournamentSettings) -> str:
    """Keep a scheduled tournament (the operator's: no host); its id."""
    from clubsuite.server.community.tournaments import new_tournament

    return str(store.write(lambda conn: new_tournament(conn, None, settings, time.time())))
