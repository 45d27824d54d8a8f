"""The offline app for the browser tests: built once from ``node_modules/pyodide`` (which ``npm ci`` installs), and
served by a real clubs server at ``/app/`` or as a static site by Python's plain file server (no server of ours).
A test module takes the fixtures by importing them (``from appkit import app_base as app_base``)."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from serverkit import ThreadServer, wait_until

from clubsuite.app import build, runtime
from clubsuite.server.store.database import Store
from pgcluster import free_port

ROOT = Path(__file__).resolve().parents[2]


def built_app(folder: Path) -> Path:
    """The app built into ``folder``."""
    given = ROOT / "node_modules" / "pyodide"
    assert given.is_dir(), "node_modules/pyodide is missing: npm ci (make typecheck) installs it"
    build.build(folder, runtime.obtain(given, url=None))
    return folder


def listening(port: int) -> bool:
    """Whether something accepts connections on the loopback ``port``."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def static_site(folder: Path) -> Iterator[str]:
    """``folder`` served by ``python -m http.server`` on a loopback port: its address (stopped on leaving)."""
    port = free_port()
    served = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: listening(port), 60, "the static file server did not start")
        yield f"http://127.0.0.1:{port}/"
    finally:
        served.terminate()
        served.wait(30)


@pytest.fixture(scope="session")
def app_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app built once for the session."""
    return built_app(tmp_path_factory.mktemp("app"))


@pytest.fixture(params=["clubs serve", "a static file server"])
def app_base(request: pytest.FixtureRequest, app_folder: Path, tmp_path: Path) -> Iterator[str]:
    """Where the app is served: by a real clubs server at ``/app/``, or by Python's plain static file server."""
    if request.param == "clubs serve":
        with ThreadServer(Store.in_directory(tmp_path / "db"), offline_app=app_folder) as server:
            yield f"{server.base}/app/"
    else:
        with static_site(app_folder) as base:
            yield base
