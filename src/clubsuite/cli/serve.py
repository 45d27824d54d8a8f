"""The ``clubs serve`` command: the online game server (lobby over HTTP, tables over WebSockets)."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
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
PUSH_CONTACT = re.compile(r"mailto:[^@\s]+@[A-Za-z0-9.-]+|https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/\S*)?")
"""The operator's contact as VAPID takes it (RFC 8292: a mailto: or https: URI)."""
SITE_URL = re.compile(
    r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?"
)
"""The site's address for links: scheme, host, port and a path."""
MAIL_FROM = re.compile(r"[^\r\n<>@]*<[^\s<>@]+@[A-Za-z0-9.-]+>|[^\s<>@]+@[A-Za-z0-9.-]+")
"""A sender: an address, or a name and an address in angle brackets (one line)."""
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
@click.option(
    "--push-contact",
    default=None,
    metavar="CONTACT",
    help="your contact, mailto:you@example.org or https://..., sent to the push services with every push: "
    "Web Push reminders are offered only when it is given",
)
@click.option(
    "--push-host",
    "push_hosts",
    multiple=True,
    metavar="ORIGIN",
    help="a push service besides the browsers' own that reminders may be sent to, as https://host[:port] "
    "(repeat for several)",
)
@click.option(
    "--smtp-host",
    default=None,
    metavar="HOST",
    help="the mail server e-mail reminders go through: the daily e-mail is offered only when it is given",
)
@click.option(
    "--smtp-port", default=25, show_default=True, type=click.IntRange(1, 65535), help="the mail server's port"
)
@click.option("--smtp-starttls", is_flag=True, help="switch to TLS (STARTTLS) before sending mail")
@click.option(
    "--smtp-user",
    default=None,
    metavar="NAME",
    help="the name to sign in to the mail server with; its password is read from CLUBS_SMTP_PASSWORD",
)
@click.option(
    "--mail-from",
    default="clubsuite <clubs@localhost>",
    show_default=True,
    metavar="ADDRESS",
    help="the sender of the e-mails",
)
@click.option(
    "--site-url",
    default=None,
    metavar="URL",
    help="the site's address as players reach it, for the links in e-mails and pushes (default: http://localhost:PORT)",
)
@click.option(
    "--turn-tables-per-account",
    default=30,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="turn-based tables one account may sit at whose match is not over",
)
@click.option(
    "--vacation-days",
    default=30,
    show_default=True,
    type=click.IntRange(1, 365),
    help="days of vacation a player may take in any 365 days (their turn-based clocks stop meanwhile)",
)
@click.option(
    "--turn-sweep",
    default=15.0,
    show_default=True,
    type=click.FloatRange(0.05, 3600.0),
    metavar="SECONDS",
    help="how often the turn-based clocks that ran out, the e-mails due and the reminders waiting are looked for",
)
@click.option(
    "--turn-park",
    default=60.0,
    show_default=True,
    type=click.FloatRange(0.1, 86400.0),
    metavar="SECONDS",
    help="how long a turn-based table nobody is at stays in memory before it is kept in the database only",
)
@click.option(
    "--test-clock",
    is_flag=True,
    help="for tests only: the turn-based clocks read an offset of the database's time kept in the database itself, "
    "so that a test can make days pass (never on a real site: whoever writes the database could run every clock "
    "out)",
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
    push_contact: str | None,
    push_hosts: tuple[str, ...],
    smtp_host: str | None,
    smtp_port: int,
    smtp_starttls: bool,
    smtp_user: str | None,
    mail_from: str,
    site_url: str | None,
    turn_tables_per_account: int,
    vacation_days: int,
    turn_sweep: float,
    turn_park: float,
    test_clock: bool,
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
        from clubsuite.server.turns.config import TurnConfig
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
    if push_contact is not None and not PUSH_CONTACT.fullmatch(push_contact):
        fail(f"--push-contact {quoted(push_contact)}: expected mailto:you@example.org or https://your.site")
    for origin in push_hosts:
        if not ORIGIN.fullmatch(origin):
            fail(f"--push-host {quoted(origin)}: expected https://host, with a port if not the usual")
    if site_url is not None and not SITE_URL.fullmatch(site_url):
        fail(f"--site-url {quoted(site_url)}: expected http://host or https://host, with a port and a path if any")
    if not MAIL_FROM.fullmatch(mail_from):
        fail(f"--mail-from {quoted(mail_from)}: expected an address, or a name and <address>")
    turn_config = TurnConfig(
        test_clock=test_clock,
        sweep_every=turn_sweep,
        park_after=turn_park,
        tables_per_account=turn_tables_per_account,
        vacation_days=vacation_days,
        push_contact=push_contact,
        push_hosts=push_hosts,
        smtp_host=smtp_host,
        smtp_port=smtp_port,
        smtp_starttls=smtp_starttls,
        smtp_user=smtp_user,
        smtp_password=os.environ.get("CLUBS_SMTP_PASSWORD") or None,
        mail_from=mail_from,
        site_url=site_url or f"http://localhost:{port}",
    )
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
    app = create_app(store, chosen, origins, hosts, bots_after, ownership, offline, turn_config)
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
