"""The ``store`` fixture's store is a copy of one made once per test process (``new_sqlite_store_file`` and
``new_postgres_store_database`` in ``conftest.py``): the copy must be exactly what a store made from nothing is, or
every server test would start from something ``clubs serve`` never makes."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

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


POSTGRES_SCHEMA = {
    "columns": "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default "
    "FROM information_schema.columns WHERE table_schema = 'public'",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    "constraints": "SELECT rel.relname, con.conname, pg_get_constraintdef(con.oid) FROM pg_constraint con "
    "JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace "
    "WHERE ns.nspname = 'public'",
    "sequences": "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public'",
    "functions": "SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p "
    "JOIN pg_namespace ns ON ns.oid = p.pronamespace WHERE ns.nspname = 'public'",
    "triggers": "SELECT event_object_table, trigger_name, action_statement FROM information_schema.triggers "
    "WHERE trigger_schema = 'public'",
}
"""What makes up a PostgreSQL store's schema: its tables' columns, indexes, constraints, sequences, functions and
triggers."""


def _postgres_contents(store: Store) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """A PostgreSQL store's schema (:data:`POSTGRES_SCHEMA`) and the rows of each of its tables."""
    with store.engine.connect() as conn:
        schema = {
            part: sorted(repr(tuple(row)) for row in conn.execute(text(query)))
            for part, query in POSTGRES_SCHEMA.items()
        }
        names = [row[0] for row in conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))]
        rows = {
            name: sorted(repr(tuple(row)) for row in conn.execute(text(f'SELECT * FROM "{name}"'))) for name in names
        }
    return schema, rows


@pytest.mark.backends("postgresql")
def test_the_store_fixture_s_postgresql_store_is_a_new_store_s_schema_and_rows(
    store: Store, store_backend: str, postgres: Any
) -> None:
    """Same tables, columns, indexes, constraints and migrations' version, and no rows but those a new store has."""
    assert store_backend == "postgresql"
    made = Store(postgres.new_database())
    try:
        copied, new = _postgres_contents(store), _postgres_contents(made)
    finally:
        made.close()
    assert copied == new
    schema, rows = new
    assert any("alembic_version" in column for column in schema["columns"])
    assert len(rows["alembic_version"]) == 1  # the copy is at the newest revision, as a new store is
