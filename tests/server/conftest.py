"""Fixtures of the server tests: one definition of each server, store and cluster a test file asks for.

What each fixture gives:

- ``server``: a running :class:`serverkit.ThreadServer` of its own for the test, over ``store``, stopped after it.
  It has the defaults of :class:`~serverkit.ThreadServer` (the limits :data:`serverkit.ROOMY`, no other origins,
  host names or trusted proxies) unless the test asks for others with the ``server`` marker, whose keyword arguments
  are those of :class:`~serverkit.ThreadServer` (``limits``, ``origins``, ``hosts``, ``trusted``, ``bots_after``)::

      @pytest.mark.server(limits=replace(ROOMY, create_rate="3/minute"))
      def test_...(server: ThreadServer) -> None: ...

      pytestmark = pytest.mark.server(trusted=("127.0.0.1",))  # every test of the file

- ``store``: a new empty server store of its own for the test, closed after it (after ``server``, which is over
  it): SQLite in the test's ``tmp_path`` (``clubs.sqlite3``, as ``clubs serve`` keeps it) unless the ``backends``
  marker names others. ``pytestmark = pytest.mark.backends("sqlite", "postgresql")`` runs every test of the file
  that takes ``store`` (or ``server``) once on each back end, with ids ``[sqlite]`` and ``[postgresql]`` (the same
  as those of ``each_store`` in ``tests/conftest.py``); one name, ``pytest.mark.backends("postgresql")``, runs it
  on that back end alone, with no id. A PostgreSQL store is a new database of the session's throwaway server
  (``postgres`` in ``tests/conftest.py``), so that those tests skip only where PostgreSQL is not installed: a copy
  of a new store's database migrated once per test process, as a SQLite store is a copy of a new store's file.
- ``store_backend``: the back end ``store`` is on, ``"sqlite"`` or ``"postgresql"`` (what the ``backends`` marker
  chose).
- ``shared``: one running server for the tests of a module that ask for it (``shared_server``, module-scoped), on
  each back end of the module's ``backends`` marker in turn (SQLite alone without one), over a store made as
  ``store`` makes it; the tables a test made are closed after it (:func:`serverkit.its_tables_closed`), so that no
  bot plays them on while the module's next tests run. Only for tests that read nothing another test of the module
  made: each signs up accounts (and takes guests' names) of its own.
- ``web``: one running server for every test of a module, over SQLite in a folder of the module's, at the default
  options: for tests that only read what any server serves (pages, schemas) and change nothing another test reads.
- ``tournament_web``: a running server of the test's own, over SQLite in its ``tmp_path``, whose tournament director
  pauses neither between rounds nor before seating bots (the tournaments' browser tests).
- ``pushes``, ``mails``: a push service (recording what it is sent, answering as told) and an SMTP server (aiosmtpd)
  started on loopback for the test (:mod:`reminderkit`).
- ``two_nodes``: two ``clubs serve`` processes (:func:`proxykit.node`, named ``a`` and ``b``) over one new database
  of the session's PostgreSQL server, both serving: (first, second, the database's URL); both killed after the test.

``postgres``, ``database_url`` and ``each_store`` are in ``tests/conftest.py``, for the whole suite.

The helpers these are built from (the servers, the clients, the calls) are in :mod:`serverkit` and :mod:`proxykit`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from proxykit import Node, serving_pair
from reminderkit import mails, pushes  # noqa: F401 - fixtures: a push service and a mail server on loopback
from serverkit import ThreadServer, its_tables_closed

from clubsuite.server.community.directing import Director
from clubsuite.server.store.database import Store

if TYPE_CHECKING:
    from pgcluster import Cluster

BACKENDS = ("sqlite", "postgresql")
"""The back ends a store can be on, in the order a test runs on them."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``server`` and ``backends`` markers."""
    config.addinivalue_line(
        "markers",
        "server(**options): the ThreadServer the server fixture starts takes these keyword arguments "
        "(limits, origins, hosts, trusted, bots_after) instead of its defaults",
    )
    config.addinivalue_line(
        "markers",
        "backends(*names): the back ends the store fixture is on ('sqlite', 'postgresql'): the test runs once on "
        "each, or, for one name, on it alone; SQLite alone without the marker",
    )


def _backends(marker: pytest.Mark | None) -> tuple[str, ...]:
    """The back ends a ``backends`` marker names (SQLite alone without one); an unknown name is an error."""
    names = tuple(marker.args) if marker is not None else ("sqlite",)
    unknown = [name for name in names if name not in BACKENDS]
    if not names or unknown:
        raise pytest.UsageError(f"pytest.mark.backends takes some of {BACKENDS}, not {names}")
    return names


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that takes ``store`` (itself or through ``server``) or ``shared`` under a ``backends`` marker of several
    names runs once on each: ``store_backend`` (a test's) or ``shared_backend`` (its module's) is parametrized with
    those names."""
    names = _backends(metafunc.definition.get_closest_marker("backends"))
    if "store_backend" in metafunc.fixturenames and len(names) > 1:
        metafunc.parametrize("store_backend", names)
    if "shared_backend" in metafunc.fixturenames and len(names) > 1:
        metafunc.parametrize("shared_backend", names, scope="module")


@pytest.fixture(scope="module")
def shared_backend(request: pytest.FixtureRequest) -> str:
    """The one back end of the module's ``backends`` marker for ``shared_server``, SQLite without one (several names
    parametrize this fixture instead: :func:`pytest_generate_tests`)."""
    return _backends(request.node.get_closest_marker("backends"))[0]


@pytest.fixture
def store_backend(request: pytest.FixtureRequest) -> str:
    """The one back end of the test's ``backends`` marker, SQLite without one (several names parametrize this
    fixture instead: :func:`pytest_generate_tests`)."""
    return _backends(request.node.get_closest_marker("backends"))[0]


STORE_FILE = "clubs.sqlite3"
"""The name of a SQLite store's file in its folder (:meth:`Store.in_directory`)."""


@pytest.fixture(scope="session")
def new_sqlite_store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file of a new SQLite store, made once per test process by :meth:`Store.in_directory` (every migration
    run) and closed: ``store`` copies it rather than migrating a new file for every test (about 50 ms of CPU each,
    10 ms for a copy, over hundreds of tests). ``test_store_fixture.py`` holds the copy to a new store's schema and
    rows. Closing the last connection folds SQLite's write-ahead log into the file: nothing else is left beside it."""
    folder = tmp_path_factory.mktemp("new-store")
    Store.in_directory(folder).close()
    left = sorted(path.name for path in folder.iterdir())
    assert left == [STORE_FILE], f"a closed store left {left}"
    return folder / STORE_FILE


@pytest.fixture(scope="session")
def new_postgres_store_database(postgres: Cluster) -> str:
    """The URL of a new PostgreSQL store's database, made once per test process by :class:`Store` (every migration
    run) and closed: ``store`` copies it (:meth:`pgcluster.Cluster.copy_of`) rather than migrating a new database for
    every test (about a second each on a loaded machine, a fifth of that for a copy). Nothing else ever connects to
    it, as a copy needs. ``test_store_fixture.py`` holds the copy to a new store's schema and rows."""
    url = postgres.new_database()
    Store(url).close()
    return url


@pytest.fixture
def store(store_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Store]:
    """A new empty store on ``store_backend``: SQLite in ``tmp_path`` (a copy of :func:`new_sqlite_store_file`,
    opened as ``clubs serve`` opens its data directory's), or a new database of the session's PostgreSQL server (a
    copy of :func:`new_postgres_store_database`); closed after the test."""
    opened = _new_store(store_backend, tmp_path, request)
    try:
        yield opened
    finally:
        opened.close()


def _new_store(backend: str, folder: Path, request: pytest.FixtureRequest) -> Store:
    """A new empty store on ``backend``: a copy of :func:`new_sqlite_store_file` in ``folder``, opened as ``clubs
    serve`` opens its data directory's, or a copy of :func:`new_postgres_store_database`."""
    if backend == "sqlite":
        shutil.copyfile(request.getfixturevalue("new_sqlite_store_file"), folder / STORE_FILE)
        return Store.in_directory(folder)
    cluster: Cluster = request.getfixturevalue("postgres")
    return Store(cluster.copy_of(request.getfixturevalue("new_postgres_store_database")))


@pytest.fixture
def server(store: Store, request: pytest.FixtureRequest) -> Iterator[ThreadServer]:
    """A server of the test's own over ``store``, with the options of its ``server`` marker (the defaults of
    :class:`~serverkit.ThreadServer` without one)."""
    marker = request.node.get_closest_marker("server")
    with ThreadServer(store, **(marker.kwargs if marker is not None else {})) as running:
        yield running


@pytest.fixture(scope="module")
def shared_server(
    shared_backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ThreadServer]:
    """One server on ``shared_backend`` for the module's tests that ask for ``shared``, over a new store made as
    ``store`` makes one (a copy of a new SQLite file in a folder of the module's, or of a new PostgreSQL store's
    database), the server's replay and review workers started once for them all."""
    opened = _new_store(shared_backend, tmp_path_factory.mktemp(request.module.__name__), request)
    try:
        with ThreadServer(opened) as running:
            yield running
    finally:
        opened.close()


@pytest.fixture
def shared(shared_server: ThreadServer) -> Iterator[ThreadServer]:
    """The module's server (``shared_server``) for one test, the tables the test made closed after it."""
    with its_tables_closed(shared_server):
        yield shared_server


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the whole module, over SQLite, at the default options: only for tests that change nothing
    another test of the module reads."""
    with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("web"))) as running:
        yield running


@pytest.fixture
def tournament_web(tmp_path: Path) -> Iterator[ThreadServer]:
    """A server of the test's own whose tournament director seats the next round and fills seats with bots at once
    (no pause between rounds, no wait for people): for the tournaments' browser tests."""
    with ThreadServer(Store.in_directory(tmp_path)) as running:
        director: Director = running.server.config.app.state.director
        director.round_pause = 0.0
        director.bots_after = 0.0
        yield running


@pytest.fixture
def two_nodes(postgres: Cluster, tmp_path: Path) -> Iterator[tuple[Node, Node, str]]:
    """Two processes over one new database, both serving: (first, second, the database's URL). Both are killed
    after the test, the second first, whatever it did to them."""

    url = postgres.new_database()
    with serving_pair(tmp_path, url) as (first, second):
        yield first, second, url
