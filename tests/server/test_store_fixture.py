"""The ``store`` fixture's SQLite store is a copy of one made once per test process (``new_sqlite_store_file`` in
``conftest.py``): the copy must be exactly what a store made from nothing is, or every server test would start from
something ``clubs serve`` never makes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from clubsuite.server.store.database import Store


def _contents(path: Path) -> tuple[list[tuple[object, ...]], dict[str, list[tuple[object, ...]]]]:
    """A SQLite file's schema (every table, index and trigger, as written) and the rows of each of its tables."""
    with sqlite3.connect(path) as db:
        schema = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        rows = {
            str(name): sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    return schema, rows


def test_the_store_fixture_s_sqlite_store_is_a_new_store_s_schema_and_rows(
    store: Store, store_backend: str, tmp_path: Path
) -> None:
    """Same tables, indexes and migrations' version, and no rows but those a new store has."""
    assert store_backend == "sqlite"
    made = Path(str(tmp_path) + "-new")
    Store.in_directory(made).close()
    copied, new = _contents(tmp_path / "clubs.sqlite3"), _contents(made / "clubs.sqlite3")
    assert copied == new
    schema, rows = new
    assert any(name == "alembic_version" for _, name, _, _ in schema)
    assert len(rows["alembic_version"]) == 1  # the copy is at the newest revision, as a new store is
