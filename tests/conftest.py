"""The whole suite's fixtures and settings: generous HTTP timeouts, Hypothesis without clocks, long tests first, a
throwaway PostgreSQL server for the storage tests, and the browser's launch and clean-up.

Plain helpers live in modules of their own (``whist_helpers``, ``timeouts``, ``cli_helpers``, ...): a test module
imports those, never ``conftest`` (a ``conftest.py`` of a sub-folder would take that module name).
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import cpu_times
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


MARKERS = {
    "long": "runs for a second or more among the tests make check would otherwise run (a deep perft count, a frozen "
    "evaluation), or for many seconds among the others (a whole match in a browser, thousands of random matches "
    "against the engine): started first, so that it never ends the run on one worker while the other waits, and "
    "left out of make check",
    "browser": "drives a real browser (from the fixture: pytest-playwright's browser, page or context)",
    "postgres": "needs the throwaway PostgreSQL server (from the fixture: postgres)",
    "cluster": "starts several server processes (from the fixtures: two_nodes, a site behind HAProxy)",
    "live": "starts a real server or store of the online server (from any fixture of tests/server)",
    "differential": "compares a compiled kernel with the engine over random matches from a seed drawn for the run "
    "(from the fixture: fresh_seed)",
    "cli": "runs the clubs command (or another program) as a separate process (from the test's code, or a helper "
    "of its module it calls: it names subprocess, Popen or clubs_process)",
}
"""The suite's markers. All but ``long`` are put on a test from what it uses (:func:`marks_of`), never by hand, so
that ``make check`` (``-m "not (browser or postgres or cluster or live or differential or long or cli)"``) keeps
the fast tests: rules, records, views, presentation and units."""

CLUSTER_FIXTURES = {"two_nodes", "site", "pair"}


def pytest_configure(config: pytest.Config) -> None:
    """The suite's own markers (:data:`MARKERS`)."""
    for name, words in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {words}")


def marks_of(item: pytest.Item) -> set[str]:
    """The markers a test takes from what it uses: its fixtures (those it asks for and theirs) and, for ``cli``,
    whether it starts processes."""
    info = getattr(item, "_fixtureinfo", None)
    names = set(getattr(item, "fixturenames", ()))
    marks: set[str] = set()
    for name in names:
        defs = info.name2fixturedefs.get(name, ()) if info is not None else ()
        for fixturedef in defs:
            module = getattr(fixturedef.func, "__module__", "") or ""
            if name in ("browser", "page", "context") and module.startswith("pytest_playwright"):
                marks.add("browser")
            if str(fixturedef.baseid).startswith("tests/server") or module in ("serverkit", "proxykit"):
                marks.add("live")
    params = getattr(getattr(item, "callspec", None), "params", {})
    backends = item.get_closest_marker("backends")
    on_postgres = "postgresql" in (params.get(n) for n in ("database_url", "store_backend", "shared_backend")) or (
        backends is not None
        and tuple(backends.args) == ("postgresql",)
        and bool({"store_backend", "shared_backend"} & names)
    )
    if "postgres" in names or on_postgres:
        marks.add("postgres")  # asked for, or a back end parametrized to it (its server is asked for late)
    if names & CLUSTER_FIXTURES and "postgres" in names:
        marks.add("cluster")
    if "fresh_seed" in names:
        marks.add("differential")
    function = getattr(item, "function", None)
    if function is not None and _starts_processes(function.__code__, vars(item.module), 3):
        marks.add("cli")
    return marks


PROCESS_NAMES = frozenset({"subprocess", "clubs_process", "Popen"})
"""Names whose use in a test (or in a helper of its module it calls) starts a separate process."""


def _starts_processes(code: Any, namespace: dict[str, Any], depth: int) -> bool:
    """Whether ``code`` (a test's, with its nested functions) names :data:`PROCESS_NAMES`, or calls a function of
    its module that does (``depth`` calls deep)."""
    names = set(code.co_names) | {c for const in code.co_consts if hasattr(const, "co_names") for c in const.co_names}
    if names & PROCESS_NAMES:
        return True
    for const in code.co_consts:
        if hasattr(const, "co_names") and _starts_processes(const, namespace, depth):
            return True
    if depth > 0:
        for name in names:
            helper = namespace.get(name)
            inner = getattr(helper, "__code__", None)
            same_module = getattr(helper, "__module__", None) == namespace.get("__name__")
            if inner is not None and same_module and _starts_processes(inner, namespace, depth - 1):
                return True
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test marked from what it uses (:func:`marks_of`); then the tests marked ``long`` first, the others after
    them, each group in its own order. pytest-xdist hands the tests out in this order (the same in every worker):
    the long ones start at once, and the short ones fill the gaps and end the run together."""
    for item in items:
        for name in sorted(marks_of(item)):
            item.add_marker(name)
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def run_seed(config: pytest.Config) -> int:
    """The seed of this run: ``CLUBS_SEED`` where set (to play a run again), else drawn once for the run (the same
    in every worker process: made from pytest-xdist's id of the run)."""
    import hashlib
    import os
    import secrets

    given = os.environ.get("CLUBS_SEED", "").strip()
    if given:
        if not given.isdigit() or int(given) >= 2**32:
            raise pytest.UsageError(f"CLUBS_SEED={given!r}: a whole number from 0 to 4294967295")
        return int(given)
    cached: int | None = getattr(config, "_clubs_run_seed", None)
    if cached is None:
        uid = getattr(config, "workerinput", {}).get("testrunuid")
        cached = int.from_bytes(hashlib.sha256(uid.encode()).digest()[:4], "big") if uid else secrets.randbits(32)
        config._clubs_run_seed = cached  # type: ignore[attr-defined]
    return cached


@pytest.fixture
def fresh_seed(request: pytest.FixtureRequest) -> int:
    """The run's seed (:func:`run_seed`): the differential tests play a fixed number of random matches from it, so
    that each run covers other deals than the last. It is printed with the test's output, and a failure's report
    names it."""
    seed = run_seed(request.config)
    request.node.user_properties.append(("seed", seed))
    print(f"{request.node.nodeid}: seed {seed} (run again with CLUBS_SEED={seed})")
    return seed


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Where ``CLUBS_TEST_CPU=1``: the CPU used so far, read as the test's set-up begins (:mod:`cpu_times`)."""
    if cpu_times.ENABLED:
        item.stash[_CPU_AT_START] = cpu_times.tree_cpu_seconds()


_CPU_AT_START = pytest.StashKey[float]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test that drew a seed (:func:`fresh_seed`) names it in its report. Where ``CLUBS_TEST_CPU=1``, the
    test's CPU seconds (:mod:`cpu_times`) are among its properties from its tear-down's report on (the JUnit report
    takes them from there)."""
    if call.when == "teardown" and _CPU_AT_START in item.stash:
        used = cpu_times.tree_cpu_seconds() - item.stash[_CPU_AT_START]
        item.user_properties.append((cpu_times.PROPERTY, f"{used:.2f}"))
    outcome = yield
    report = outcome.get_result()
    seeds = [value for key, value in item.user_properties if key == "seed"]
    if report.failed and seeds:
        report.sections.append(("seed", f"drawn seed {seeds[0]}: run again with CLUBS_SEED={seeds[0]}"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection left alive (the test modules, their imports, thousands of items) is set aside from the cycle
    collector for the run (:func:`gc.freeze`), as ``clubs serve`` does with its start-up: every full collection
    walked it again. About 3% of a CPU-bound test file's time (tests/free: 3.0 s of collections per worker ->
    2.3 s). Nothing a test makes is frozen, so what a test checks of the collector is unchanged."""
    gc.collect()
    gc.freeze()


settings.register_profile("clubsuite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("check", parent=settings.get_profile("clubsuite"), max_examples=20)
settings.load_profile(os.environ.get("CLUBS_HYPOTHESIS", "clubsuite"))
"""Hypothesis without its clocks: no deadline for an example and no complaint that drawing inputs is slow, both of
which a loaded machine trips (a test may still set its own). What a property test checks never depends on speed.
``CLUBS_HYPOTHESIS=check`` (``make check``) tries 20 examples a property instead of 100: the inner loop's quick look;
``make test`` and CI try them all."""


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
    """pytest-playwright launches Debian's Chromium, its headless shell unless ``--headed`` (installed when missing:
    ``tests/server/browserkit.py``)."""
    from browserkit import LAUNCH_ARGS, chromium  # tests/server, on the path once its tests are collected

    headless = bool(browser_type_launch_args.get("headless", True))
    return {**browser_type_launch_args, "executable_path": chromium(headless), "args": LAUNCH_ARGS}


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
