"""Profiles, histories, rating paths, leaderboards and the bots' ratings on a real server, after real matches: what
is public is shown, a private table's matches only to their own player, a deleted account disappears and its
matches read "deleted player"."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from serverkit import Client, ThreadServer, new_table
from sqlalchemy import select, update
from test_server_play import play_out
from test_server_rated import PASSWORD, account, join

import loopback
from clubsuite.ratings import PROVISIONAL_MATCHES
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import ratings, users

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
GAME = "whist(target=1)"
"""The matches played here: whole whist matches, a hand or so each. What these tests read of a match (its place in a
profile, a history and the ratings, its record, replay, review and results) is the same for any length."""


pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""

# The tests that take ``shared`` (one server of the module's: tests/server/conftest.py) read only what they made
# themselves (their own account's profile, history, results and links, their own tables). The tests that read what
# every account shares (the leaderboard, the bots' ratings) take a ``server`` of their own.


def play(server: ThreadServer, b: httpx.Client, headers: dict[str, str], seed: int, **settings: Any) -> str:
    """One whole match of ``b``'s account against two random bots; the table's id."""
    table = new_table(server.base, GAME, [{"kind": "person"}, *BOTS], **settings)["id"]
    client = Client(server.base, table, join(b, table, headers))
    try:
        play_out({0: client}, random.Random(seed))
    finally:
        client.close()
    return str(table)


def test_a_profile_shows_ratings_counts_and_matches_whose_links_work(shared: ThreadServer) -> None:
    server = shared
    b, _, headers = account(server, "Ann")
    table = play(server, b, headers, 1, rated=True)
    with loopback.client(base_url=server.base, timeout=30) as stranger:
        shown = stranger.get("/players/ann").json()  # a name as it reads
        assert shown["name"] == "Ann" and shown["own"] is False
        assert [(r["pool"], r["matches"]) for r in shown["ratings"]] == [("whist", 1)]
        assert shown["ratings"][0]["plus_minus"] < 1000  # surer than a newcomer
        [game] = shown["games"]
        assert game["game"] == "whist" and game["matches"] == 1
        [entry] = shown["history"]
        assert entry["table"] == table and entry["rated"] and not entry["private"]
        assert stranger.get(entry["record"]).json()["game"] == "whist"
        assert stranger.get(f"/tables/{table}/replay?match=0").status_code == 200
        path = stranger.get("/players/Ann/ratings/whist").json()
        assert [p["matches"] for p in path] == [0, 1]
        assert (path[0]["rating"], path[0]["plus_minus"]) == (1500, 1000)
        assert path[1]["rating"] == shown["ratings"][0]["rating"]
        assert stranger.get("/players/Nobody").json()["code"] == "no_player"


def test_a_private_tables_matches_are_listed_to_their_own_player_only(shared: ThreadServer) -> None:
    server = shared
    b, _, headers = account(server, "Pia")
    table = new_table(server.base, GAME, [{"kind": "person"}, *BOTS], public=False)
    r = b.post(f"/invites/{table['invite']}/join", json={}, headers=headers)
    client = Client(server.base, table["id"], r.json()["token"])
    try:
        play_out({0: client}, random.Random(2))
    finally:
        client.close()
    mine = b.get("/players/Pia").json()
    assert mine["own"] is True and [e["private"] for e in mine["history"]] == [True]
    assert b.get(mine["history"][0]["record"]).status_code == 200  # its link carries the invite
    with loopback.client(base_url=server.base, timeout=30) as stranger:
        theirs = stranger.get("/players/Pia").json()
        assert theirs["history"] == [] and table["id"] not in stranger.get("/players/Pia/history").text
        assert theirs["games"][0]["matches"] == 1  # counted, not shown


def established(store: Store, name: str, matches: int = PROVISIONAL_MATCHES) -> None:
    """Count ``matches`` rated matches on ``name``'s whist rating (its skill as its real matches left it): a player
    with that many matches behind the rating, without playing them all here."""
    [user] = store.read(select(users.c.id).where(users.c.name == name))
    subject = f"user:{user.id}"
    store.write(
        lambda conn: conn.execute(
            update(ratings).where(ratings.c.subject == subject, ratings.c.pool == "whist").values(matches=matches)
        )
    )


def test_the_leaderboard_orders_players_by_a_sure_rating_and_forgets_a_deleted_one(
    server: ThreadServer, store: Store
) -> None:
    ann, _, ann_h = account(server, "Ann")
    bob, _, bob_h = account(server, "Bob")
    for seed in (1, 2):
        play(server, ann, ann_h, seed, rated=True)
    play(server, bob, bob_h, 3, rated=True)
    for name in ("Ann", "Bob"):
        established(store, name)
    board = loopback.get(f"{server.base}/leaderboard/whist").json()
    assert sorted(p["name"] for p in board) == ["Ann", "Bob"]
    assert not any(p["provisional"] for p in board)
    sure = [p["rating"] - 1.5 * p["plus_minus"] for p in board]  # rating less three standard deviations
    assert sure == sorted(sure, reverse=True) and [p["place"] for p in board] == [1, 2]
    bots = loopback.get(f"{server.base}/ratings").json()
    assert bots["players"] == {"whist": 2} and bots["bots"]["whist"]["random"]["matches"] == 3
    table = ann.get("/players/Ann").json()["history"][0]["table"]
    r = ann.post("/account/delete", json={"password": PASSWORD}, headers=ann_h)
    assert r.status_code == 200, r.text
    assert [p["name"] for p in loopback.get(f"{server.base}/leaderboard/whist").json()] == ["Bob"]
    assert loopback.get(f"{server.base}/players/Ann").status_code == 404
    record = loopback.get(f"{server.base}/tables/{table}/record.json").json()
    assert record["seats"][0]["name"] == "deleted player" and "Ann" not in str(record)


def test_a_rating_is_provisional_and_off_the_leaderboard_until_its_tenth_rated_match(
    server: ThreadServer, store: Store
) -> None:
    ann, _, ann_h = account(server, "Ann")
    play(server, ann, ann_h, 1, rated=True)
    [rating] = loopback.get(f"{server.base}/players/Ann").json()["ratings"]
    assert rating["matches"] == 1 and rating["provisional"] is True
    assert loopback.get(f"{server.base}/leaderboard/whist").json() == []  # one lucky win puts nobody on top
    path = loopback.get(f"{server.base}/players/Ann/ratings/whist").json()
    assert [p["provisional"] for p in path] == [True, True]
    shown = loopback.get(f"{server.base}/ratings").json()
    assert shown["provisional_matches"] == PROVISIONAL_MATCHES == 10
    assert not any(r["provisional"] for levels in shown["bots"].values() for r in levels.values())  # calibrated
    established(store, "Ann", PROVISIONAL_MATCHES - 1)
    assert loopback.get(f"{server.base}/leaderboard/whist").json() == []
    assert loopback.get(f"{server.base}/players/Ann").json()["ratings"][0]["provisional"] is True
    established(store, "Ann", PROVISIONAL_MATCHES)
    [listed] = loopback.get(f"{server.base}/leaderboard/whist").json()
    assert listed["name"] == "Ann" and listed["provisional"] is False and listed["matches"] == 10


def test_bad_names_pools_and_pages_are_refused_with_the_rule(server: ThreadServer) -> None:
    base = server.base
    assert loopback.get(f"{base}/leaderboard/Whist!").status_code == 422
    assert loopback.get(f"{base}/players/{'x' * 101}").status_code == 422
    assert loopback.get(f"{base}/players/Ann/history?limit=500").status_code == 422
    assert loopback.get(f"{base}/leaderboard/whist").json() == []


def test_a_history_entrys_review_link_reviews_that_players_decisions(shared: ThreadServer) -> None:
    server = shared
    b, _, headers = account(server, "Rex")
    table = play(server, b, headers, 1)
    [entry] = b.get("/players/Rex").json()["history"]
    assert entry["seat"] == 0 and entry["review"] == f"/review?table={table}&match=0&seat=0"
    review = loopback.get(f"{server.base}/tables/{table}/review?match=0&seat=0", timeout=300).json()
    assert review["seat"] == 0 and review["decisions"] and review["hands"]
    for d in review["decisions"]:
        assert d["view"]["cost"] >= 0 and (d["mark"] == "") == (d["view"]["cost"] < review["threshold"])
    assert loopback.get(f"{server.base}/tables/{table}/review?seat=9", timeout=60).json()["code"] == "bad_request"
    assert loopback.get(f"{server.base}/tables/{table}/review").status_code == 422  # which seat: it must be said


def test_a_closed_tables_matches_keep_their_record_replay_and_review_links(shared: ThreadServer) -> None:
    server = shared
    b, _, headers = account(server, "Cai")
    public = play(server, b, headers, 1)
    private = new_table(server.base, GAME, [{"kind": "person"}, *BOTS], public=False)
    r = b.post(f"/invites/{private['invite']}/join", json={}, headers=headers)
    client = Client(server.base, private["id"], r.json()["token"])
    try:
        play_out({0: client}, random.Random(2))
    finally:
        client.close()
    hub = server.server.config.app.state.hub
    for table_id in (public, private["id"]):  # closed, as a table nobody is at is after a while
        asyncio.run_coroutine_threadsafe(hub.close_table(hub.tables[table_id]), hub.loop).result(30)
        assert table_id not in hub.tables
    history = {e["table"]: e for e in b.get("/players/Cai").json()["history"]}
    for entry in history.values():
        record = b.get(entry["record"])
        assert record.status_code == 200 and record.json()["game"] == "whist"
        assert (
            b.get(
                f"/tables/{entry['table']}/replay?match=0"
                + ("&invite=" + private["invite"] if entry["private"] else "")
            ).status_code
            == 200
        )
    # A closed private table is still unknown without its invite; a closed public one is not.
    assert loopback.get(f"{server.base}/tables/{private['id']}/record.json").json()["code"] == "no_table"
    assert loopback.get(f"{server.base}/tables/{public}/record.json").status_code == 200
    assert loopback.get(f"{server.base}/tables/nosuchtable/record.json").json()["code"] == "no_table"


def test_a_finished_matchs_results_give_places_points_and_each_ratings_change(server: ThreadServer) -> None:
    ann, _, ann_h = account(server, "Ann")
    table = play(server, ann, ann_h, 1, rated=True)
    results = loopback.get(f"{server.base}/tables/{table}/results").json()
    assert results["match"] == 0 and results["rated"] is True
    seats = results["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2] and sorted(s["place"] for s in seats)[0] == 1
    record = loopback.get(f"{server.base}/tables/{table}/record.json").json()
    assert [s["points"] for s in seats] == record["result"]["totals"]
    mine = seats[0]
    assert mine["name"] == "Ann" and mine["bot"] is None
    assert (mine["before"]["rating"], mine["before"]["plus_minus"], mine["before"]["matches"]) == (1500, 1000, 0)
    profile = loopback.get(f"{server.base}/players/Ann").json()["ratings"][0]
    assert {k: mine["after"][k] for k in ("rating", "plus_minus", "matches")} == {
        k: profile[k] for k in ("rating", "plus_minus", "matches")
    }
    assert mine["after"]["provisional"] is True
    bots = loopback.get(f"{server.base}/ratings").json()["bots"]["whist"]
    for bot in seats[1:]:
        assert bot["bot"] == "random" and bot["before"]["provisional"] is False
        assert (
            bot["after"]["rating"] != bot["before"]["rating"]
            or bot["after"]["plus_minus"] != bot["before"]["plus_minus"]
        )
    assert seats[2]["after"]["rating"] == bots["random"]["rating"]  # a level's last match is its rating now


def test_results_are_refused_while_the_match_is_played_and_for_a_table_one_may_not_know(shared: ThreadServer) -> None:
    server = shared
    table = new_table(server.base, GAME, [{"kind": "person"}, *BOTS])["id"]
    r = loopback.get(f"{server.base}/tables/{table}/results")
    assert r.status_code == 409 and r.json()["code"] == "not_over"
    assert loopback.get(f"{server.base}/tables/nothere/results").status_code == 404
    hidden = new_table(server.base, GAME, [{"kind": "person"}, *BOTS], public=False)
    assert loopback.get(f"{server.base}/tables/{hidden['id']}/results").status_code == 404  # no invite: no table
    r = loopback.get(f"{server.base}/tables/{hidden['id']}/results?invite={hidden['invite']}")
    assert r.status_code == 409
    # a seat's token opens a private table's results too (a guided hand's player has no invite)
    guest = loopback.post(f"{server.base}/invites/{hidden['invite']}/join", json={"name": "Bea"}).json()
    client = Client(server.base, hidden["id"], guest["token"])
    try:
        play_out({0: client}, random.Random(5))
    finally:
        client.close()
    url = f"{server.base}/tables/{hidden['id']}/results"
    assert loopback.get(url).status_code == 404
    assert loopback.get(url, headers={"X-Seat-Token": "not a token"}).status_code == 404
    shown = loopback.get(url, headers={"X-Seat-Token": guest["token"]})
    assert shown.status_code == 200 and shown.json()["seats"][0]["name"] == "Bea"
    assert loopback.get(f"{server.base}/tables/{table}/results?match=-1").status_code == 422


def test_an_unrated_matchs_results_carry_no_ratings(shared: ThreadServer) -> None:
    server = shared
    uma, _, uma_h = account(server, "Uma")
    table = play(server, uma, uma_h, 2)
    results = loopback.get(f"{server.base}/tables/{table}/results?match=0").json()
    assert results["rated"] is False
    assert all(s["before"] is None and s["after"] is None for s in results["seats"])
