"""``clubs app``: the offline app, built as a folder of static files, and the Pyodide it runs fetched ahead."""

from __future__ import annotations

from pathlib import Path

import click

from clubsuite.cli.common import handle_errors
from clubsuite.cli.describe import FillsHelp, FillsHelpGroup

PYODIDE_HELP = (
    "Pyodide's files: a folder (node_modules/pyodide after npm ci) or the npm package's .tgz; "
    "default: the cache, else the npm registry."
)


@click.group("app", cls=FillsHelpGroup)
def app_command() -> None:
    """The offline app: every game against bots, the lessons and the puzzles in the browser with no network; its
    rules run in the page (Python in WebAssembly: Pyodide)."""


@app_command.command("build", cls=FillsHelp)
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path, file_okay=False))
@click.option("--pyodide", type=click.Path(path_type=Path), default=None, help=PYODIDE_HELP)
@click.option("--offline", is_flag=True, help="Never download: use --pyodide or the cache only.")
@handle_errors
def build_command(folder: Path, pyodide: Path | None, offline: bool) -> None:
    """Write the app into DIR (empty, or an earlier build's): static files any web server serves as they are.

    DIR then holds the pages, clubsuite's core, Pyodide and a service worker; opened once, the app plays with no
    network and can be installed. Pyodide is read from --pyodide, else the cache, else downloaded from the npm
    registry (each file checked against its pinned SHA-256)."""
    from clubsuite.app import build, runtime

    files = runtime.obtain(pyodide, url=None if offline else runtime.TARBALL)
    about = build.build(folder, files)
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    click.echo(f"built the app into {folder}: build {about['build']}, {len(about['files'])} files, {total:,} bytes")  # type: ignore[arg-type]


@app_command.command("fetch", cls=FillsHelp)
@click.option("--pyodide", type=click.Path(path_type=Path), default=None, help=PYODIDE_HELP)
@handle_errors
def fetch_command(pyodide: Path | None) -> None:
    """Put Pyodide's pinned files in the cache (from --pyodide, or the npm registry), for builds with no network
    and for clubs serve's /app."""
    from clubsuite.app import runtime

    files = runtime.obtain(pyodide)
    if pyodide is not None:
        runtime.store(files, runtime.cache_dir())
    click.echo(f"Pyodide {runtime.VERSION} is in {runtime.cache_dir()} ({sum(map(len, files.values())):,} bytes)")
