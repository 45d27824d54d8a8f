"""The ``clubs serve`` command: the online game server (lobby over HTTP, tables over WebSockets)."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import re
import resource
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import click

from clubsuite.cli.common import fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.errors import ClubsError
from clubsuite.safetext import quoted
from clubsuite.server.logs import LOG_FORMATS

DEFAULT_PORT = 8000
DEFAULT_DATA_DIR = "clubs-data"
"""Where ``clubs serve`` keeps its SQLite database unless told otherwise (the checkout's ``.gitignore`` names it)."""
ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
"""An origin as a browser sends it: scheme, host and port."""
HOST = re.compile(r"(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")
"""A host name, or a wildcard for every name under one."""
NODE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
"""A node's name: printable, short, the same in logs and in the database."""
SPARE_FILES = 256
"""Open files the server needs besides its connections (the database, logs, the replay workers' pipes)."""


def open_files(connections: int) -> None:
    """Let the process open enough files for ``connections`` and its own: the soft limit raised towards the hard
    one. Where the system allows fewer, the server still runs, and says so (it would refuse connections when out of
    files, never crash)."""
    needed = connections + SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if target < needed:
        logging.getLogger("clubsuite.server").warning(
            "this system lets the server open %d files: --max-connections %d needs %d (raise ulimit -n)",
            target,
            connections,
            needed,
        )


def limit_options(command: Callable[..., None]) -> Callable[..., None]:
    """One flag for each of the server's limits, with its default and its one-line description."""
    from clubsuite.server.limits import ServerLimits, flag

    for f in reversed(fields(ServerLimits)):
        default = f.default
        command = click.option(
            flag(f.name), f.name, default=default, show_default=True, type=type(default), help=f.metadata["help"]
        )(command)
    return command


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
    envvar="CLUBS_DB",
    help="database URL: sqlite:///FILE or postgresql://USER@HOST/NAME (default: a SQLite file in --data-dir; "
    "also read from CLUBS_DB, which keeps a password out of the process list)",
)
@click.option(
    "--data-dir",
    default=DEFAULT_DATA_DIR,
    show_default=True,
    type=click.Path(file_okay=False),
    help="where the default SQLite database lives (made when missing)",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
    help="how much the server logs (on standard error)",
)
@click.option(
    "--log-format",
    "log_format",
    default="auto",
    show_default=True,
    type=click.Choice(LOG_FORMATS),
    help="plain lines for a person or one JSON object per line for a log collector; auto: plain on a terminal",
)
@click.option(
    "--trusted-proxy",
    "trusted",
    multiple=True,
    metavar="ADDRESS",
    help="a reverse proxy (an IP address or network) whose X-Forwarded-For names the client's address (repeat for "
    "several; default: none, each client is known by the address it connects from)",
)
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    help="another site whose pages may use this server, as https://host[:port] (repeat for several; default: "
    "this server's own pages only)",
)
@click.option(
    "--allow-host",
    "hosts",
    multiple=True,
    metavar="NAME",
    help="a name the server is reached by besides its IP addresses and localhost, such as clubs.example.org or "
    "*.example.org (repeat for several); requests for any other name are refused",
)
@click.option(
    "--rated-bots-after",
    "bots_after",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0, 3600),
    help="seconds a player waits in the rated queue for people before bots of the nearest rating fill the table",
)
@click.option(
    "--node",
    default=None,
    metavar="NAME",
    help="this process's name among the server processes sharing one PostgreSQL database (default: HOST:PORT)",
)
@click.option(
    "--advertise",
    default=None,
    metavar="URL",
    help="where the other server processes reach this one, as http://host:port (default: http://HOST:PORT, with "
    "127.0.0.1 for a server listening on every address)",
)
@click.option(
    "--lease-seconds",
    default=3.0,
    show_default=True,
    type=click.FloatRange(0.5, 600),
    help="how long a table stays this process's without being renewed: when a process dies, another one takes its "
    'tables over within about this long (docs/server.md, "Several processes")',
)
@click.option(
    "--metrics-port",
    default=None,
    type=click.IntRange(0, 65535),
    metavar="PORT",
    help="serve the operators' figures (GET /metrics, the Prometheus text format) on this port, apart from the "
    "public one: nothing else is served there, and the public port has no /metrics (default: not served; 0: a "
    'port the system picks; docs/server.md, "Operations")',
)
@click.option(
    "--metrics-host",
    default="127.0.0.1",
    show_default=True,
    help="address the figures' port listens on: keep it loopback or a private network the scraper reaches",
)
@click.option(
    "--words",
    "words_dir",
    default=None,
    type=click.Path(file_okay=False, exists=True),
    metavar="DIR",
    help="the words refused in names and chat: DIR/<lang>.txt (en, de, fr, nl; one word a line) replaces the "
    'shipped list of that language (docs/server.md, "Keeping people safe")',
)
@click.option(
    "--app",
    "app_dir",
    default=None,
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="serve the offline app clubs app build wrote into DIR at /app, linked from the lobby (default: built into "
    "the data folder at start where Pyodide is in the cache: clubs app fetch; else not served)",
)
@limit_options
@handle_errors
def serve_command(
    host: str,
    port: int,
    db_url: str | None,
    data_dir: str,
    log_level: str,
    log_format: str,
    trusted: tuple[str, ...],
    origins: tuple[str, ...],
    hosts: tuple[str, ...],
    bots_after: float,
    node: str | None,
    advertise: str | None,
    lease_seconds: float,
    metrics_port: int | None,
    metrics_host: str,
    words_dir: str | None,
    app_dir: str | None,
    **limits: Any,  # one keyword per ServerLimits field, each of its field's type (Click converts the flags)
) -> None:
    """Run the game server: make tables, take seats, play online with bots filling empty seats.

    It faces strangers within limits (sizes, times, counts and rates per address), each of them a flag below with
    the default a small club can run unchanged; docs/server.md gives their reasons. Stop it with Ctrl-C or SIGTERM:
    the action being written is finished, clients are told, and every table is rebuilt from the database when the
    server starts again. See docs/server.md and docs/protocol.md.
    """
    try:
        from clubsuite.server import decency
        from clubsuite.server.http.app import ClubsServer, create_app
        from clubsuite.server.http.serving import InternalListener, listen, uvicorn_config
        from clubsuite.server.limits import ServerLimits
        from clubsuite.server.logs import configure_logging
        from clubsuite.server.store.database import Store, StoreError
        from clubsuite.server.store.ownership import Ownership, default_node_name
    except ImportError as exc:
        fail(f"the server needs its packages ({exc.name} is missing): pip install 'clubsuite[server]'")
    try:
        chosen = ServerLimits(**limits)
    except ClubsError as exc:
        fail(str(exc))
    for origin in origins:
        if not ORIGIN.fullmatch(origin):
            fail(f"--allow-origin {quoted(origin)}: expected http://host or https://host, with a port if not the usual")
    for proxy in trusted:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            fail(f"--trusted-proxy {quoted(proxy)}: expected an IP address or network, such as 127.0.0.1 or 10.0.0.0/8")
    for name in hosts:
        if not HOST.fullmatch(name):
            fail(f"--allow-host {quoted(name)}: expected a name such as clubs.example.org or *.example.org")
    if node is not None and not NODE.fullmatch(node):
        fail(f"--node {quoted(node)}: expected 1 to 64 letters, digits, dots, dashes, underscores or colons")
    if advertise is not None and not ORIGIN.fullmatch(advertise):
        fail(f"--advertise {quoted(advertise)}: expected http://host:port, where the other processes reach this one")
    try:
        decency.configure(Path(words_dir) if words_dir is not None else None)
    except (ClubsError, OSError, UnicodeDecodeError) as exc:
        fail(f"--words {quoted(words_dir or '')}: {exc}")
    reached = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host if ":" not in host else f"[{host}]"
    configure_logging(log_level, log_format)
    try:
        store = Store(db_url) if db_url else Store.in_directory(Path(data_dir))
    except StoreError as exc:
        fail(str(exc))
    ownership = Ownership(
        store,
        node or default_node_name(host, port),
        advertise or f"http://{reached}:{port}",
        lease_seconds,
    )
    try:
        ownership.register()  # before listening: a second process on a SQLite database is refused here, plainly
    except StoreError as exc:
        store.close()
        fail(str(exc))
    internal_socket = None
    if metrics_port is not None:
        try:
            internal_socket = listen(metrics_host, metrics_port)
        except OSError as exc:
            store.close()
            fail(f"--metrics-host {quoted(metrics_host)} --metrics-port {metrics_port}: cannot listen there ({exc})")
    open_files(chosen.max_connections)
    offline = offline_app(app_dir, Path(data_dir))
    app = create_app(store, chosen, origins, hosts, bots_after, ownership, offline)
    config = uvicorn_config(
        app,
        chosen,
        host,
        port,
        trusted,
        log_config=None,
        log_level=log_level,
    )
    internal = None
    if internal_socket is not None:
        internal = InternalListener(app.state.internal, chosen, internal_socket, log_config=None, log_level=log_level)
    server = ClubsServer(config, app.state.hub, internal)
    # The event loop shares the interpreter with the database and bot threads: a shorter switch interval keeps a
    # thread that holds the interpreter from delaying the loop's next message by up to the default 5 ms.
    sys.setswitchinterval(0.001)
    # On this machine only, the page is shown at localhost: the same server, and a name a browser lets passkeys use.
    shown = "localhost" if host in ("127.0.0.1", "::1") else host if ":" not in host else f"[{host}]"
    logging.getLogger("clubsuite.server").info("database %s", store.url_for_display)
    if port:
        click.echo(f"clubs serve: http://{shown}:{port}/ (API schema: /openapi.json) - Ctrl-C stops it", err=True)
    if internal is not None:
        click.echo(f"clubs serve: the figures at {internal.address}, for the operators only", err=True)
    server.run()


def offline_app(given: str | None, data_dir: Path) -> Path | None:
    """The offline app's folder to serve at ``/app``: ``--app DIR`` (which must hold a build), else one built into
    ``DATA_DIR/app`` now where Pyodide is in the cache (never downloaded at start), else none (said in the log)."""
    from clubsuite.app import build, runtime

    if given is not None:
        folder = Path(given)
        if not (folder / "build.json").is_file():
            fail(f"--app {quoted(given)}: no app there (clubs app build {quoted(given)} writes one)")
        return folder
    try:
        files = runtime.obtain(None, url=None)
    except ClubsError as exc:
        logging.getLogger("clubsuite.server").info("the offline app is not served: %s", exc)
        return None
    folder = data_dir / "app"
    try:
        build.build(folder, files)
    except ClubsError as exc:
        logging.getLogger("clubsuite.server").warning("the offline app is not served: %s", exc)
        return None
    return folder
