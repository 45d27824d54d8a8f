"""The database's schema is versioned (Alembic): a database made before versioning, or by any earlier revision, comes
up current when a server opens it, its data kept; the migrated schema is exactly what the code reads (``dbschema``);
on SQLite and on PostgreSQL (a throwaway server)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
    select,
)

import loopback
from clubsuite.server.store import migrate
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import metadata, users
from pgcluster import Cluster


def _engine_url(url: str) -> str:
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


def first_release_schema() -> MetaData:
    """The schema as the first release made it (``create_all`` of these four tables, no version table): frozen here
    as it was, so that the test keeps meaning "a database from before" whatever the code becomes."""
    meta = MetaData()
    Table(
        "tables",
        meta,
        Column("id", Text, primary_key=True),
        Column("game", Text, nullable=False),
        Column("settings", Text, nullable=False),
        Column("invite", Text, nullable=False, unique=True),
        Column("created_at", Float, nullable=False),
        Column("match_no", Integer, nullable=False),
        Column("closed", Boolean, nullable=False),
    )
    Table(
        "seats",
        meta,
        Column("table_id", Text, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("kind", Text, nullable=False),
        Column("bot", Text),
        Column("name", Text),
        Column("token_hash", Text),
        PrimaryKeyConstraint("table_id", "seat"),
        ForeignKeyConstraint(["table_id"], ["tables.id"]),
        Index("seats_by_token", "token_hash"),
    )
    Table(
        "matches",
        meta,
        Column("table_id", Text, nullable=False),
        Column("match_no", Integer, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("started_at", Float, nullable=False),
        Column("finished_at", Float),
        Column("record", Text),
        PrimaryKeyConstraint("table_id", "match_no"),
        ForeignKeyConstraint(["table_id"], ["tables.id"]),
    )
    Table(
        "actions",
        meta,
        Column("table_id", Text, nullable=False),
        Column("match_no", Integer, nullable=False),
        Column("seq", Integer, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("action", Text, nullable=False),
        Column("source", Text, nullable=False),
        Column("at", Float, nullable=False),
        PrimaryKeyConstraint("table_id", "match_no", "seq"),
        ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
    )
    return meta


def make_first_release_database(url: str) -> None:
    """A database as the first release left it: its tables, and one table with a seat taken, a match and an
    action."""
    meta = first_release_schema()
    engine = create_engine(_engine_url(url))
    try:
        meta.create_all(engine)
        with engine.begin() as conn:
            t = meta.tables
            conn.execute(
                insert(t["tables"]).values(
                    id="old",
                    game="whist",
                    settings='{"public": true}',
                    invite="code",
                    created_at=1.0,
                    match_no=0,
                    closed=False,
                )
            )
            conn.execute(insert(t["seats"]).values(table_id="old", seat=0, kind="person", name="Zoë", token_hash="h"))
            conn.execute(insert(t["matches"]).values(table_id="old", match_no=0, seed=7, started_at=1.5))
            conn.execute(
                insert(t["actions"]).values(
                    table_id="old", match_no=0, seq=0, seat=0, action="2C", source="seat", at=2.0
                )
            )
    finally:
        engine.dispose()


def schema_differences(store: Store) -> list[Any]:
    """What Alembic's comparison finds between the database and the schema the code reads (empty: the same)."""
    with store.engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def revision(store: Store) -> str | None:
    with store.engine.connect() as conn:
        return migrate.current(conn)


def test_a_database_from_before_versioning_comes_up_current_with_its_tables_and_data(database_url: str) -> None:
    make_first_release_database(database_url)
    store = Store(database_url)
    try:
        assert revision(store) == migrate.head()
        names = set(inspect(store.engine).get_table_names())
        assert {"tables", "seats", "matches", "actions", "users", "sessions", "ratings", "match_players"} <= names
        assert "reviews" in names  # revision 0008: the kept reviews
        old = store.table("old")
        assert old is not None and old.invite == "code" and old.settings == {"public": True}
        assert [(s.seat, s.name, s.token_hash) for s in store.seats("old")] == [(0, "Zoë", "h")]
        assert store.seat_by_token_hash("h") == ("old", 0)
        assert [(m.match_no, m.seed) for m in store.matches("old")] == [(0, 7)]
        assert [(a.seq, a.action) for a in store.actions("old", 0)] == [(0, "2C")]
        assert schema_differences(store) == []
    finally:
        store.close()


def test_a_new_database_is_made_by_the_migrations_exactly_as_the_code_reads_it(database_url: str) -> None:
    store = Store(database_url)
    try:
        assert revision(store) == migrate.head()
        assert schema_differences(store) == []
    finally:
        store.close()


def test_a_database_at_each_earlier_revision_is_brought_up_to_the_newest(tmp_path: Path) -> None:
    """Every step of the chain: a database stopped at any revision (as a release with it would have left it) comes
    up current."""
    steps = ["0001", "0002", "0003", "0004"]
    for step in steps:
        url = f"sqlite:///{tmp_path / f'at-{step}.sqlite3'}"
        engine = create_engine(url)
        try:
            migrate.upgrade(engine, step)
            with engine.connect() as conn:
                assert migrate.current(conn) == step
        finally:
            engine.dispose()
        store = Store(url)
        try:
            assert revision(store) == migrate.head()
            assert schema_differences(store) == []
        finally:
            store.close()


def test_every_revision_can_be_undone_down_to_an_empty_database_and_done_again(tmp_path: Path) -> None:
    from alembic import command

    url = f"sqlite:///{tmp_path / 'round.sqlite3'}"
    store = Store(url)
    try:
        with store.engine.begin() as conn:
            command.downgrade(migrate.config(conn), "base")
        assert set(inspect(store.engine).get_table_names()) <= {"alembic_version"}
        migrate.upgrade(store.engine)
        assert revision(store) == migrate.head()
        assert schema_differences(store) == []
    finally:
        store.close()


def test_accounts_made_before_the_one_name_key_all_stay_and_each_signs_in_under_its_own_name(database_url: str) -> None:
    """Revision 0007: ``Alice`` and ``ALICE``, two accounts under the earlier key, both stay; the older keeps the
    plain key (``alice``, ``Alice.`` and any new sign-up reach it, or are refused as taken) and the later one is set
    apart, reached under its exact name only."""
    from argon2 import PasswordHasher
    from serverkit import ThreadServer

    from clubsuite.server.limits import HASH_LANES, HASH_MEMORY_LEAST
    from clubsuite.server.tokens import name_key

    hasher = PasswordHasher(time_cost=1, memory_cost=HASH_MEMORY_LEAST, parallelism=HASH_LANES)
    engine = create_engine(_engine_url(database_url))
    try:
        migrate.upgrade(engine, "0006")
        with engine.begin() as conn:
            for user_id, name, old_key, made in [
                ("u-b", "ALICE", "allce", 2.0),  # the earlier key, which replaced I with l before folding case
                ("u-a", "Alice", "alice", 1.0),
                ("u-c", "Alíce", "alíce", 2.0),  # made at the same time as ALICE: the id decides
                ("u-d", "Bob", "bob", 3.0),
            ]:
                conn.execute(
                    insert(users).values(
                        id=user_id,
                        name=name,
                        name_key=old_key,
                        password_hash=hasher.hash(f"{name} password"),
                        created_at=made,
                    )
                )
            conn.execute(insert(users).values(id="u-e", name="deleted player", created_at=0.5, deleted_at=4.0))
    finally:
        engine.dispose()
    store = Store(database_url)
    try:
        keys = {r.id: r.name_key for r in store.read(select(users.c.id, users.c.name_key))}
        plain = name_key("Alice")
        assert keys == {"u-a": plain, "u-b": f"{plain}#u-b", "u-c": f"{plain}#u-c", "u-d": "bob", "u-e": None}
        with ThreadServer(store) as server:
            for typed, password, reached in [
                ("Alice", "Alice password", "Alice"),
                ("ALICE", "ALICE password", "ALICE"),
                ("Alíce", "Alíce password", "Alíce"),
                ("alice.", "Alice password", "Alice"),
                ("BOB", "Bob password", "Bob"),
            ]:
                with loopback.client(base_url=server.base, timeout=30) as b:
                    r = b.post("/account/login", json={"name": typed, "password": password})
                    assert r.status_code == 200, (typed, r.text)
                    assert b.get("/account").json()["name"] == reached
            r = loopback.post(f"{server.base}/account/signup", json={"name": "aLiCe", "password": "a new password"})
            assert r.status_code == 409 and r.json()["code"] == "name_taken"
    finally:
        store.close()


def test_servers_opening_one_new_postgresql_database_at_once_make_its_schema_once(postgres: Cluster) -> None:
    url = postgres.new_database()
    opened: list[Store] = []
    failed: list[BaseException] = []

    def open_one() -> None:
        try:
            opened.append(Store(url))
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    try:
        assert failed == [] and len(opened) == 4
        assert revision(opened[0]) == migrate.head()
    finally:
        for s in opened:
            s.close()
