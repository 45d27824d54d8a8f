"""Rated matches on a real server: a finished match writes every seat's place and points in the commit of its last
action; at a rated table the players' and the bots' ratings move (one pool per game), a bot level playing several
seats moves once, an account that leaves finishes last, and an unrated table moves no rating."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from serverkit import Client, ThreadServer, get, new_table
from sqlalchemy import select
from test_server_play import play_out

import loopback
from clubsuite.ratings import START
from clubsuite.records.replay import replay
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import leavers, match_players, rating_history, ratings

PASSWORD = "correct horse battery"
GAME = "whist(target=3)"


pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""


def account(server: ThreadServer, name: str) -> tuple[httpx.Client, str, dict[str, str]]:
    """A signed-up browser: (client, account id, the CSRF header)."""
    b = loopback.client(base_url=server.base, timeout=30)
    r = b.post("/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return b, r.json()["id"], {"X-CSRF-Token": r.json()["csrf"]}


def join(b: httpx.Client, table: str, headers: dict[str, str]) -> str:
    r = b.post(f"/tables/{table}/join", json={}, headers=headers)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def rows(store: Store, table: Any, table_id: str | None = None) -> list[Any]:
    query = select(table)
    if table_id is not None:
        query = query.where(table.c.table_id == table_id)
    return store.read(query)


def test_a_rated_match_moves_its_players_and_bots_ratings_and_keeps_every_seats_result(
    server: ThreadServer, store: Store
) -> None:
    b, ann, headers = account(server, "Ann")
    table = new_table(
        server.base,
        GAME,
        [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        rated=True,
    )["id"]
    token = join(b, table, headers)
    client = Client(server.base, table, token)
    try:
        end = play_out({0: client}, random.Random(3))
    finally:
        client.close()
    result = replay(get(server.base, f"/tables/{table}/record.json"))
    totals, winners = end["view"]["totals"], list(result.match.winners)
    # Written with the last action: there when the end is announced.
    seats = sorted(rows(store, match_players, table), key=lambda r: r.seat)
    assert [(r.seat, r.user_id, r.points, r.won, r.rated, r.left) for r in seats] == [
        (i, ann if i == 0 else None, float(totals[i]), i in winners, True, False) for i in range(3)
    ]
    for r in seats:  # places follow the result: a winner is first, no one placed above someone with more points
        if r.won:
            assert r.place == 1
        for other in seats:
            if not r.won and not other.won and other.points > r.points:
                assert other.place < r.place
    rated = {r.subject: r for r in rows(store, ratings)}
    assert set(rated) == {f"user:{ann}", "bot:random"}
    assert {r.pool for r in rated.values()} == {"whist"}
    assert rated["bot:random"].matches == 1  # two seats of one match: one result for the level
    mine = rated[f"user:{ann}"]
    assert mine.matches == 1 and mine.sigma < START.sigma
    place = seats[0].place
    if place == 1:
        assert mine.mu > START.mu
    elif all(r.place < place for r in seats[1:]):
        assert mine.mu < START.mu
    assert len(rows(store, rating_history, table)) == 2


def test_an_account_that_leaves_a_rated_match_finishes_it_last(server: ThreadServer, store: Store) -> None:
    ann_b, _, ann_h = account(server, "Ann")
    bob_b, bob, bob_h = account(server, "Bob")
    table = new_table(
        server.base,
        GAME,
        [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}],
        rated=True,
        grace=0,  # Bob never connects: his bot plays his turns until he leaves
    )["id"]
    # Ann is connected before Bob's join starts the match: with grace 0 a seat nobody holds is played by its bot at
    # once, so a match starting before her socket opens could be over before she sees it.
    client = Client(server.base, table, join(ann_b, table, ann_h))
    try:
        client.until(lambda m: m["type"] == "state")
        bob_token = join(bob_b, table, bob_h)
        acted = False
        while True:  # until an action is in: a rated match left before its first action is no match at all
            seen = client.until(lambda m: m["type"] in ("state", "update"))
            if seen["version"] >= 1:
                break
            if seen["to_act"] == 0 and seen.get("legal") and not acted:
                client.send({"type": "act", "action": seen["legal"][0], "version": seen["version"]})
                acted = True
        r = bob_b.post(f"/tables/{table}/leave", json={"token": bob_token}, headers=bob_h)
        assert r.status_code == 200, r.text
        refused = bob_b.post(f"/tables/{table}/join", json={}, headers=bob_h)
        assert refused.status_code == 409 and refused.json()["code"] == "rated_in_play"
        play_out({0: client}, random.Random(5))
    finally:
        client.close()
    assert [(r.seat, r.user_id) for r in rows(store, leavers, table)] == [(1, bob)]
    seats = {r.seat: r for r in rows(store, match_players, table)}
    assert seats[1].user_id == bob and seats[1].left and not seats[1].won and seats[1].name == "Bob"
    assert seats[1].place == 3 and all(seats[s].place < 3 for s in (0, 2))
    rated = {r.subject: r for r in rows(store, ratings)}
    assert rated[f"user:{bob}"].mu < START.mu


def test_an_unrated_match_keeps_its_history_and_moves_no_rating(server: ThreadServer, store: Store) -> None:
    b, ann, headers = account(server, "Ann")
    table = new_table(
        server.base, GAME, [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    )["id"]
    client = Client(server.base, table, join(b, table, headers))
    try:
        play_out({0: client}, random.Random(4))
    finally:
        client.close()
    seats = rows(store, match_players, table)
    assert len(seats) == 3 and not any(r.rated for r in seats)
    assert next(r for r in seats if r.seat == 0).user_id == ann
    assert rows(store, ratings) == [] and rows(store, rating_history) == []
