"""The ``clubs serve`` command: the online game server (lobby over HTTP, tables over WebSockets)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click

from clubsuite.cli.common import fail, handle_errors
from clubsuite.cli.describe import FillsHelp

DEFAULT_PORT = 8000


@click.command(cls=FillsHelp)
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (0.0.0.0: every one)")
@click.option(
    "--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535), help="port (0: any free one)"
)
@click.option(
    "--db",
    "db_url",
    default=None,
    metavar="URL",
    help="database URL: sqlite:///FILE or postgresql://USER@HOST/NAME (default: a SQLite file in --data-dir)",
)
@click.option(
    "--data-dir",
    default="clubs-data",
    show_default=True,
    type=click.Path(file_okay=False),
    help="where the default SQLite database lives (made when missing)",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
    help="how much the server logs (one JSON object per line on standard error)",
)
@handle_errors
def serve_command(host: str, port: int, db_url: str | None, data_dir: str, log_level: str) -> None:
    """Run the game server: make tables, take seats, play online with bots filling empty seats.

    Stop it with Ctrl-C or SIGTERM: the action being written is finished, clients are told, and every table is
    rebuilt from the database when the server starts again. See docs/server.md and docs/protocol.md.
    """
    try:
        import uvicorn

        from clubsuite.server.app import ClubsServer, create_app
        from clubsuite.server.logs import configure_logging
        from clubsuite.server.store import Store, StoreError
    except ImportError as exc:
        fail(f"the server needs its packages ({exc.name} is missing): pip install 'clubsuite[server]'")
    configure_logging(log_level)
    try:
        store = Store(db_url) if db_url else Store.in_directory(Path(data_dir))
    except StoreError as exc:
        fail(str(exc))
    app = create_app(store)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        log_level=log_level,
        lifespan="on",
        ws_per_message_deflate=False,  # messages are small; compressing each costs more CPU than it saves
    )
    server = ClubsServer(config, app.state.hub)
    # The event loop shares the interpreter with the database and bot threads: a shorter switch interval keeps a
    # thread that holds the interpreter from delaying the loop's next message by up to the default 5 ms.
    sys.setswitchinterval(0.001)
    shown = host if ":" not in host else f"[{host}]"
    logging.getLogger("clubsuite.server").info("database %s", store.url_for_display)
    if port:
        click.echo(f"clubs serve: http://{shown}:{port}/ (API schema: /openapi.json) - Ctrl-C stops it", err=True)
    server.run()
