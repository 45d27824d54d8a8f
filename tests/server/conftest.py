"""Fixtures of the server tests: a throwaway PostgreSQL server for the session (see :mod:`pgcluster`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pgcluster import Cluster, server_binaries


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A PostgreSQL server for the session; the tests that need it skip only where its binaries are missing."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed here")
    cluster = Cluster(binaries).start()
    try:
        yield cluster
    finally:
        cluster.stop()
