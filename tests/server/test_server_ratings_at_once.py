"""Rated matches ending at once: each moves the ratings it shares with the other (a bot level plays at many tables)
from what the other wrote, so neither move is lost and neither match's last action is refused.

PostgreSQL only: there several database threads (and processes) write at once, and the second match's transaction
is made to reach the ratings while the first still holds them. SQLite writes one transaction at a time."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import pytest
from serverkit import wait_until
from sqlalchemy import insert, select, text

from clubsuite.server.people.results import Outcome, SeatAtEnd
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import matches, rating_history, ratings, tables

pytestmark = pytest.mark.backends("postgresql")
"""The store is a new database of the session's PostgreSQL server (see the module's docstring for why)."""


def outcome(store: Store, table_id: str, person: str) -> Outcome:
    """A finished rated match of a new table: ``person`` first, then a normal bot, then a hard one."""

    def work(conn: Any) -> None:
        conn.execute(
            insert(tables).values(
                id=table_id, game="whist", settings="{}", invite=table_id, created_at=0, match_no=0, closed=False
            )
        )
        conn.execute(insert(matches).values(table_id=table_id, match_no=0, seed=1, started_at=0))

    store.write(work)
    seats = (
        SeatAtEnd(0, "person", person, person, "normal"),
        SeatAtEnd(1, "bot", "Normal", None, "normal"),
        SeatAtEnd(2, "bot", "Hard", None, "hard"),
    )
    summary = {"totals": [10, 5, 0], "winners": [0], "draw": False, "hands": []}
    return Outcome(table_id, 0, 1.0, "whist", "whist", True, (), summary, seats)


def waiting_on_a_lock(store: Store) -> bool:
    """Whether a transaction of the store's database waits for a row another holds."""
    query = text(
        "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()"
    )
    with store.engine.connect() as conn:
        return bool(conn.execute(query).scalar())


@pytest.mark.parametrize("rated_before", [True, False], ids=["rated-bots", "new-bots"])
def test_two_rated_matches_ending_at_once_both_move_the_ratings_they_share(store: Store, rated_before: bool) -> None:
    if rated_before:
        store.write(
            lambda conn: conn.execute(
                insert(ratings),
                [
                    {"pool": "whist", "subject": s, "mu": 25.0, "sigma": 5.0, "matches": 5, "updated_at": 0}
                    for s in ("bot:normal", "bot:hard")
                ],
            )
        )
    first, second = outcome(store, "t1", "ann"), outcome(store, "t2", "bob")
    with store.engine.connect() as conn:
        ending = conn.begin()
        first.write(conn)  # the first match's last transaction, not yet committed
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            other = pool.submit(store.write, second.write)
            wait_until(
                lambda: other.done() or waiting_on_a_lock(store), 60, "the second match never reached the ratings"
            )
            ending.commit()
            other.result(timeout=60)  # written too, not refused
    counted = {r.subject: r.matches for r in store.read(select(ratings))}
    before = 5 if rated_before else 0
    assert counted == {"bot:normal": before + 2, "bot:hard": before + 2, "user:ann": 1, "user:bob": 1}
    moves = store.read(
        select(rating_history.c.table_id, rating_history.c.mu)
        .where(rating_history.c.subject == "bot:normal")
        .order_by(rating_history.c.table_id)
    )
    stored = store.read(select(ratings.c.mu).where(ratings.c.subject == "bot:normal"))[0].mu
    assert [m.table_id for m in moves] == ["t1", "t2"] and moves[1].mu == stored  # the second moved from the first
    assert moves[0].mu != moves[1].mu
