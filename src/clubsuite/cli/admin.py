"""The ``clubs admin`` commands: what a server's operator does by hand (no e-mail is needed to run a server, so a
forgotten password is reset here)."""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from clubsuite.cli.common import fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.serve import DEFAULT_DATA_DIR
from clubsuite.safetext import quoted


@click.group()
def admin_command() -> None:
    """What a server's operator does by hand: reset a player's password."""


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

    async def now(call: Callable[..., Any], *args: Any) -> Any:
        return call(*args)

    async def reset() -> None:
        accounts = Accounts(store, ServerLimits(hash_workers=1), now)
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
