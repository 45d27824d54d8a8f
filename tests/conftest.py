"""The whole suite's fixtures and settings: generous HTTP timeouts, Hypothesis without clocks, long tests first, a
throwaway PostgreSQL server for the storage tests, and the browser's launch and clean-up.

Plain helpers live in modules of their own (``whist_helpers``, ``timeouts``, ``cli_helpers``, ...): a test module
imports those, never ``conftest`` (a ``conftest.py`` of a sub-folder would take that module name).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from timeouts import HTTP_TIMEOUT


@pytest.fixture(scope="session", autouse=True)
def _generous_http_timeouts() -> Iterator[None]:
    """The module functions ``httpx.get``, ``httpx.post``, ... wait :data:`HTTP_TIMEOUT` seconds by default in every
    test (a call that passes ``timeout=`` keeps its own)."""
    import httpx

    with pytest.MonkeyPatch.context() as patch:
        for name in ("request", "stream", "get", "options", "head", "post", "put", "patch", "delete"):
            patch.setattr(httpx, name, functools.partial(getattr(httpx, name), timeout=HTTP_TIMEOUT))
        yield


def pytest_configure(config: pytest.Config) -> None:
    """The suite's own marker: ``long``."""
    config.addinivalue_line(
        "markers",
        "long: runs for many seconds (a whole match in a browser, thousands of random matches against the engine): "
        "started first, so that it never ends the run on one worker while the other waits",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, the others after them, each group in its own order. pytest-xdist hands the
    tests out in this order (the same in every worker): the long ones start at once, and the short ones fill the gaps
    and end the run together."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection left alive (the test modules, their imports, thousands of items) is set aside from the cycle
    collector for the run (:func:`gc.freeze`), as ``clubs serve`` does with its start-up: every full collection
    walked it again. About 3% of a CPU-bound test file's time (tests/free: 3.0 s of collections per worker ->
    2.3 s). Nothing a test makes is frozen, so what a test checks of the collector is unchanged."""
    gc.collect()
    gc.freeze()


settings.register_profile("clubsuite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("clubsuite")
"""Hypothesis without its clocks: no deadline for an example and no complaint that drawing inputs is slow, both of
which a loaded machine trips (a test may still set its own). What a property test checks never depends on speed."""


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the session (:mod:`pgcluster`); the tests that need it skip only where
    PostgreSQL's server binaries are not installed."""
    from pgcluster import Cluster, server_binaries

    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed here")
    cluster = Cluster(binaries).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new empty database, once SQLite and once PostgreSQL (the session's throwaway server)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'clubs.sqlite3'}"
    url: str = request.getfixturevalue("postgres").new_database()
    return url


@pytest.fixture
def each_store(database_url: str) -> Iterator[Any]:
    """A new empty server store, once on SQLite and once on PostgreSQL (the session's throwaway server): the tests
    that take it run on both."""
    from clubsuite.server.store.database import Store

    opened = Store(database_url)
    try:
        yield opened
    finally:
        opened.close()


# -- the real-browser tests ---------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright launches Debian's Chromium (installed when missing: ``tests/server/browserkit.py``)."""
    from browserkit import LAUNCH_ARGS, chromium  # tests/server, on the path once its tests are collected

    return {**browser_type_launch_args, "executable_path": chromium(), "args": LAUNCH_ARGS}


@pytest.fixture(autouse=True)
def _close_the_test_s_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """The browser contexts a test opened are closed after it, with their pages and sockets: the browser lives for
    the whole session, and pages left open keep reconnecting to servers that are gone, taking the cores the later
    tests need. Contexts opened before the test (by a module's fixture) are left to it."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()
