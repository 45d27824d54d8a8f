"""Fixtures of the server's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import database_url

from clubsuite.server.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def each_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A new empty store, once on SQLite and once on PostgreSQL (the session's throwaway server): the tests that
    take it run on both."""
    opened = Store(database_url(request, tmp_path))
    try:
        yield opened
    finally:
        opened.close()
