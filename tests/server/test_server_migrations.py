"""The database's schema is versioned (Alembic): a database made before versioning, or by any earlier revision, comes
up current when a server opens it, its data kept; the migrated schema is exactly what the code reads (``dbschema``);
on SQLite and on PostgreSQL (a throwaway server)."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
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


def _revisions() -> list[str]:
    """Every revision, oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(migrate.config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


@pytest.fixture(params=["sqlite", "postgresql"])
def store_backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Makes the URL of a new empty database, named ``name``, on SQLite (in ``tmp_path``) and on PostgreSQL (the
    session's throwaway server): for a test that needs several."""

    def new(name: str) -> str:
        if request.param == "sqlite":
            return f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
        url: str = request.getfixturevalue("postgres").new_database()
        return url

    return new


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


STOPS_PER_RUN = 5
"""Earlier revisions a database is left at per run: the first and the one before the newest (the upgrade most
databases meet), and others drawn from the run's seed, so that the runs cover every stop between them."""


def earlier_stops(seed: int) -> list[str]:
    """The earlier revisions this run leaves a database at (:data:`STOPS_PER_RUN`), oldest first."""
    earlier = _revisions()[:-1]
    if len(earlier) <= STOPS_PER_RUN:
        return earlier
    kept = {earlier[0], earlier[-1]} | set(random.Random(seed).sample(earlier[1:-1], STOPS_PER_RUN - 2))
    return [step for step in earlier if step in kept]


def test_the_stops_of_a_run_are_the_first_the_last_before_the_newest_and_others_drawn() -> None:
    earlier = _revisions()[:-1]
    runs = [earlier_stops(seed) for seed in range(200)]
    assert all(len(stops) == min(STOPS_PER_RUN, len(earlier)) for stops in runs)
    assert all(stops[0] == earlier[0] and stops[-1] == earlier[-1] for stops in runs)
    assert {step for stops in runs for step in stops} == set(earlier)  # every stop, over the runs


def test_a_database_at_any_earlier_revision_is_brought_up_to_the_newest(
    tmp_path: Path, store_backend_url: Any, fresh_seed: int
) -> None:
    """Any step of the chain, on SQLite and on PostgreSQL: a database stopped at an earlier revision (as a release
    with it would have left it) comes up current. Each run tries some of them (:func:`earlier_stops`)."""
    for step in earlier_stops(fresh_seed):
        url = store_backend_url(step)
        engine = create_engine(_engine_url(url))
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


def test_every_revision_can_be_undone_down_to_an_empty_database_and_done_again(database_url: str) -> None:
    from alembic import command

    store = Store(database_url)
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


def _old_club_nights() -> dict[str, dict[str, Any]]:
    """Three club nights as revision 0012's code kept them (one JSON state each): one open, one in its second round
    (the first ended at both tables, the second at one), one over; their entrants an account, a guest and a bot."""
    from clubsuite.server.tokens import hash_token

    ann = {"id": "e-ann", "name": "Ann", "user_id": "u-ann", "token_hash": hash_token("ann-token")}
    bob = {"id": "e-bob", "name": "Bob", "user_id": None, "token_hash": hash_token("bob-token")}
    cleo = {"id": "e-cleo", "name": "Cleo", "user_id": None, "token_hash": hash_token("never given"), "bot": "easy"}
    settings = {"host": "Ann", "spec": "whist(target=3)", "tables": 2, "pairing": "swiss", "bot": "normal"}
    return {
        "n-open": {**settings, "rounds": 1, "bot_delay": 0.5, "entrants": [ann, bob], "played": []},
        "n-running": {
            **settings,
            "rounds": 2,
            "bot_delay": 0.0,
            "entrants": [ann, bob, cleo],
            "played": [
                {
                    "number": 1,
                    "tables": [
                        {"table": "t1", "seats": ["e-ann", None, None]},
                        {"table": "t2", "seats": ["e-bob", "e-cleo", None]},
                    ],
                },
                {
                    "number": 2,
                    "tables": [
                        {"table": "t3", "seats": ["e-bob", None, None]},
                        {"table": "t4", "seats": ["e-ann", "e-cleo", None]},
                    ],
                },
            ],
        },
        "n-over": {
            **settings,
            "rounds": 1,
            "bot_delay": 1.0,
            "entrants": [bob, ann],
            "played": [
                {
                    "number": 1,
                    "tables": [
                        {"table": "t6", "seats": ["e-bob", None, None]},
                        {"table": "t5", "seats": ["e-ann", None, None]},
                    ],
                }
            ],
        },
    }


def _write_old_club_nights(url: str, nights: dict[str, dict[str, Any]]) -> None:
    """Revision 0012's database with these club nights, an arena beside them, and the nights' tables: every table of
    a round made at the same moment (so that only the order the night kept orders them), t4 and t6 gone from the
    tables (a night keeps its tables' ids whatever became of them), and the matches that ended, with each seat's
    points per deal."""
    from clubsuite.server.store.dbschema import match_players, matches, tables, tournaments

    ended = {  # table -> (when its match ended, each seat's points per deal)
        "t1": (5.0, [[1, 0], [2, 2], [0, 0]]),
        "t2": (6.0, [[0, 0], [1, 3], [0, 0]]),
        "t3": (7.0, [[4], [0], [0]]),
        "t5": (20.0, [[0, 2], [0, 0], [0, 0]]),
        "t6": (21.0, [[1, 1], [0, 0], [0, 0]]),
    }
    made = {"t1": 3.0, "t2": 3.0, "t3": 6.5, "t5": 10.0}
    engine = create_engine(_engine_url(url))
    try:
        migrate.upgrade(engine, "0012")
        with engine.begin() as conn:
            clubnights = Table("clubnights", MetaData(), autoload_with=conn)
            for k, (night_id, state) in enumerate(nights.items()):
                conn.execute(
                    insert(clubnights).values(
                        id=night_id, host_id="u-ann", spec=state["spec"], state=json.dumps(state), created_at=1.0 + k
                    )
                )
            for table_id in ended:
                conn.execute(
                    insert(tables).values(
                        id=table_id,
                        game="whist",
                        settings="{}",
                        invite=table_id,
                        created_at=made.get(table_id, 0.0),
                        match_no=0,
                        closed=True,
                    )
                )
                at, points = ended[table_id]
                conn.execute(insert(matches).values(table_id=table_id, match_no=0, seed=1, started_at=0.0))
                for seat, hands in enumerate(points):
                    conn.execute(
                        insert(match_players).values(
                            table_id=table_id,
                            match_no=0,
                            seat=seat,
                            game="whist",
                            pool="whist",
                            name="x",
                            place=seat + 1,
                            points=sum(hands),
                            hand_points=json.dumps(hands),
                            won=seat == 0,
                            rated=False,
                            left=False,
                            finished_at=at,
                        )
                    )
            conn.execute(
                insert(tournaments).values(
                    id="arena",
                    format="arena",
                    host_id=None,
                    name="whist arena",
                    spec="whist",
                    settings='{"minutes": 30}',
                    state='{"round": 0}',
                    status="open",
                    created_at=1.0,
                    version=3,
                )
            )
    finally:
        engine.dispose()


def _club_night_views(store: Store) -> dict[str, Any]:
    """What the club nights' code and the tournaments' list make of the stored nights: each night's view, the seat
    each entrant's token finds, and the list's lines."""
    from serverkit import in_own_loop

    from clubsuite.server.community.clubnight import ClubNights
    from clubsuite.server.community.tournaments import Tournaments
    from clubsuite.server.store.handle import Database
    from clubsuite.server.table.hub import Hub

    async def main() -> dict[str, Any]:
        hub = Hub(Database(store))
        nights = ClubNights(hub.database, hub)
        views = {n: await nights.view(n) for n in ("n-open", "n-running", "n-over")}
        seats = {t: await nights.seat_of("n-running", t) for t in ("ann-token", "bob-token", "not a token")}
        listed = {row["id"]: row for row in await Tournaments(hub.database, hub).listing()}
        return {"views": views, "seats": seats, "listed": listed}

    return in_own_loop(main)


def test_club_nights_kept_as_one_json_state_come_over_to_the_tournaments_intact_and_go_back(database_url: str) -> None:
    """Revision 0013: every club night moves into the tournaments (format ``clubnight``) with its settings,
    entrants in their order (token hashes and bot levels kept), rounds and tables in their order; its standings are
    what they were; the lobby's list shows it open, running or over; going back gives every night's JSON state
    exactly as it was, and the arena beside them is left alone both ways."""
    from alembic import command

    from clubsuite.server.store.dbschema import tournament_entrants, tournaments

    old = _old_club_nights()
    _write_old_club_nights(database_url, old)
    store = Store(database_url)
    try:
        assert revision(store) == migrate.head()
        assert schema_differences(store) == []
        assert "clubnights" not in inspect(store.engine).get_table_names()
        got = _club_night_views(store)
        views = got["views"]
        assert views["n-open"]["entrants"] == ["Ann", "Bob"] and views["n-open"]["played"] == []
        assert views["n-open"]["host"] == "Ann" and views["n-open"]["rounds"] == 1
        running = views["n-running"]
        assert running["entrants"] == ["Ann", "Bob", "Cleo"] and running["bots"] == ["Cleo"]
        assert (running["game"], running["tables"], running["pairing"], running["bot"]) == (
            "whist(target=3)",
            2,
            "swiss",
            "normal",
        )
        assert running["played"] == [
            {"number": 1, "done": True, "tables": [["Ann", None, None], ["Bob", "Cleo", None]]},
            {"number": 2, "done": False, "tables": [["Bob", None, None], ["Ann", "Cleo", None]]},
        ]
        assert running["over"] is False
        # round 1 alone counts: seat 1 deal by deal (1, 0) against (0, 0), seat 2 (2, 2) against Cleo's (1, 3)
        shares = {r["name"]: (r["match_points"], r["most"], r["place"]) for r in running["standings"]}
        assert shares == {"Ann": (1.5, 2.0, 1), "Cleo": (1.0, 2.0, 2), "Bob": (0.5, 2.0, 3)}
        over = views["n-over"]
        assert over["entrants"] == ["Bob", "Ann"] and over["over"] is True
        assert over["played"][0]["tables"] == [["Bob", None, None], ["Ann", None, None]]
        assert {r["name"]: r["match_points"] for r in over["standings"]} == {"Bob": 1.0, "Ann": 1.0}
        assert got["seats"] == {
            "ann-token": {"entrant": "e-ann", "name": "Ann"},
            "bob-token": {"entrant": "e-bob", "name": "Bob"},
            "not a token": None,
        }
        listed = got["listed"]
        assert {n: (listed[n]["format"], listed[n]["status"], listed[n]["entrants"]) for n in old} == {
            "n-open": ("clubnight", "open", 2),
            "n-running": ("clubnight", "running", 3),
            "n-over": ("clubnight", "over", 2),
        }
        assert listed["n-running"]["round"] == 2 and listed["n-running"]["rounds"] == 2
        assert listed["n-over"]["ends_at"] == 21.0 and listed["n-running"]["starts_at"] == 3.0
        assert listed["arena"]["format"] == "arena" and listed["arena"]["version"] == 3
        bots = store.read(
            select(tournament_entrants.c.name, tournament_entrants.c.bot).where(
                tournament_entrants.c.tournament_id == "n-running"
            )
        )
        assert {r.name: r.bot for r in bots} == {"Ann": None, "Bob": None, "Cleo": "easy"}
        with store.engine.begin() as conn:
            command.downgrade(migrate.config(conn), "0012")
        with store.engine.connect() as conn:
            assert migrate.current(conn) == "0012"
            clubnights = Table("clubnights", MetaData(), autoload_with=conn)
            back = {r.id: r for r in conn.execute(select(clubnights))}
            left = [(r.id, r.format) for r in conn.execute(select(tournaments.c.id, tournaments.c.format))]
            entrants_left = conn.execute(select(tournament_entrants.c.tournament_id)).all()
        assert {n: json.loads(r.state) for n, r in back.items()} == old
        assert {n: (r.host_id, r.spec, r.created_at) for n, r in back.items()} == {
            n: ("u-ann", "whist(target=3)", 1.0 + k) for k, n in enumerate(old)
        }
        assert left == [("arena", "arena")] and entrants_left == []
    finally:
        store.close()
    store = Store(database_url)  # and up again
    try:
        assert _club_night_views(store)["views"]["n-running"] == running
    finally:
        store.close()


def test_puzzle_ratings_kept_before_glicko_come_over_as_they_read(database_url: str) -> None:
    """Revision 0017: a puzzle rating kept as OpenSkill's mean and uncertainty comes over to Glicko-2 as it read (the
        rating shown, one deviation on its scale within lichess's bounds, lichess's volatility), on SQLite and on
        PostgreSQL; undone, the ratings are there again as OpenSkill read them (a deviation raised to lichess's floor
    stays raised), and done again, as before."""
    from alembic import command

    url = database_url
    engine = create_engine(_engine_url(url))
    try:
        migrate.upgrade(engine, "0016")
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO puzzle_ratings (user_id, pool, mu, sigma, attempts, streak, best_streak, updated_at) "
                "VALUES ('u1', 'whist', 27.0, 8.333333333333334, 3, 0, 1, 0.0)"
            )
            conn.exec_driver_sql(
                "INSERT INTO puzzle_skills (puzzle, pool, mu, sigma, attempts, solved) "
                "VALUES ('abc', 'whist', 20.0, 0.5, 9, 4)"
            )
    finally:
        engine.dispose()
    store = Store(url)
    try:
        assert revision(store) == migrate.head() and schema_differences(store) == []
        with store.engine.connect() as conn:
            player = conn.exec_driver_sql("SELECT rating, deviation, volatility, attempts FROM puzzle_ratings").one()
            puzzle = conn.exec_driver_sql("SELECT rating, deviation, volatility, solved FROM puzzle_skills").one()
        assert tuple(player) == pytest.approx((1620.0, 500.0, 0.09, 3))  # a newcomer's 25/3 is lichess's 500
        assert tuple(puzzle) == pytest.approx((1200.0, 45.0, 0.09, 4))  # within lichess's bounds (45 to 500)
        with store.engine.begin() as conn:
            command.downgrade(migrate.config(conn), "0016")
        with store.engine.connect() as conn:
            assert migrate.current(conn) == "0016"
            player = conn.exec_driver_sql("SELECT mu, sigma, attempts FROM puzzle_ratings").one()
            puzzle = conn.exec_driver_sql("SELECT mu, sigma, solved FROM puzzle_skills").one()
        assert tuple(player) == pytest.approx((27.0, 8.333333333333334, 3), rel=1e-3)
        assert tuple(puzzle) == pytest.approx((20.0, 45.0 / 60.0, 4))  # the deviation raised to 45 stays raised
        migrate.upgrade(store.engine)
        with store.engine.connect() as conn:
            player = conn.exec_driver_sql("SELECT rating, deviation, volatility, attempts FROM puzzle_ratings").one()
        assert tuple(player) == pytest.approx((1620.0, 500.0, 0.09, 3))
    finally:
        store.close()


def test_reports_kept_before_revision_0016_count_for_nothing_and_undoing_it_keeps_them(database_url: str) -> None:
    """Revision 0016, on SQLite and on PostgreSQL: a report kept before it comes over counting for nothing
    (``counts`` NULL) and the counted invitations' table is there, empty; undone, the report stays as it was and the
    invitations' table goes, rows and all; done again, the schema is the code's."""
    from alembic import command

    from clubsuite.server.store.dbschema import invitations_sent, reports

    engine = create_engine(_engine_url(database_url))
    try:
        migrate.upgrade(engine, "0015")
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO reports (id, reporter_id, subject_id, kind, reason, context, created_at, status) "
                "VALUES ('r1', 'u-ann', 'u-bob', 'message', 'rude', '{}', 5.0, 'open')"
            )
    finally:
        engine.dispose()
    store = Store(database_url)
    try:
        assert revision(store) == migrate.head() and schema_differences(store) == []
        assert [tuple(r) for r in store.read(select(reports.c.id, reports.c.status, reports.c.counts))] == [
            ("r1", "open", None)
        ]
        assert store.read(select(invitations_sent)) == []
        store.write(lambda conn: conn.execute(insert(invitations_sent).values(id="i1", sender_id="u-ann", sent_at=9.0)))
        with store.engine.begin() as conn:
            command.downgrade(migrate.config(conn), "0015")
        with store.engine.connect() as conn:
            assert migrate.current(conn) == "0015"
            assert "invitations_sent" not in inspect(conn).get_table_names()
            assert "counts" not in {c["name"] for c in inspect(conn).get_columns("reports")}
            kept = conn.exec_driver_sql("SELECT id, reporter_id, subject_id, reason, status FROM reports").all()
        assert [tuple(r) for r in kept] == [("r1", "u-ann", "u-bob", "rude", "open")]
        migrate.upgrade(store.engine)
        assert revision(store) == migrate.head() and schema_differences(store) == []
    finally:
        store.close()
