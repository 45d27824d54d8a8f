"""Club nights: tables of a round play the same deals in the same seats; each seat's points per deal are compared
with the same seat's at the other tables (duplicate match points); standings after each round, as JSON and CSV; the
host alone starts rounds; entrants are seated people-first at the same seat of every table; no table of the night
can be watched, and each seat's token goes to its entrant alone."""

from __future__ import annotations

import csv
import io
import json
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from serverkit import ROOMY, Client, ThreadServer, in_own_loop
from sqlalchemy import insert
from test_server_play import play_out
from test_server_rated import account

import loopback
from clubsuite.server.community.clubnight import ClubNights, NightEntrant, NightTable, Round
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import match_players, matches, tables
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub

pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""


def finished(store: Store, table: str, seat_points: list[list[float]]) -> None:
    """A finished match 0 of ``table`` whose seats scored these points per deal."""

    def work(conn: Any) -> None:
        conn.execute(
            insert(tables).values(
                id=table, game="whist", settings="{}", invite=table, created_at=0, match_no=0, closed=False
            )
        )
        conn.execute(insert(matches).values(table_id=table, match_no=0, seed=1, started_at=0))
        for seat, points in enumerate(seat_points):
            conn.execute(
                insert(match_players).values(
                    table_id=table,
                    match_no=0,
                    seat=seat,
                    game="whist",
                    pool="whist",
                    user_id=None,
                    name="x",
                    bot=None,
                    place=1,
                    points=sum(points),
                    hand_points=json.dumps(points),
                    won=False,
                    rated=False,
                    left=False,
                    finished_at=1.0,
                )
            )

    store.write(work)


NightState = tuple[list[NightEntrant], list[Round]]
"""A night's entrants and the rounds seated, as the standings read them."""


def standings(store: Store, state: NightState) -> list[dict[str, Any]]:
    async def main() -> list[dict[str, Any]]:
        database = Database(store)
        return await ClubNights(database, Hub(database)).standings(*state)

    return in_own_loop(main)


def state_of(entrants: list[str], rounds: list[list[list[str | None]]]) -> NightState:
    return (
        [NightEntrant(e, e.upper(), None, "") for e in entrants],
        [
            Round(i + 1, tuple(NightTable(f"r{i}t{j}", tuple(seats)) for j, seats in enumerate(r)))
            for i, r in enumerate(rounds)
        ],
    )


def test_each_seats_points_per_deal_are_compared_with_the_same_seat_at_every_other_table(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)
    # Three tables; a, b, c at seat 1 of each, bots elsewhere. Deal by deal at seat 1: (1, 1, 0), (2, -1, -1),
    # (-2, 3, 3): a gets 1.5 + 2 + 0 = 3.5 of 6, b 1.5 + 0.5 + 1.5 = 3.5, c 0 + 0.5 + 1.5 = 2.
    finished(store, "r0t0", [[1, 2, -2], [0, 0, 0], [0, 0, 0]])
    finished(store, "r0t1", [[1, -1, 3], [5, 5, 5], [0, 0, 0]])
    finished(store, "r0t2", [[0, -1, 3], [0, 0, 0], [9, 9, 9]])
    rows = standings(store, state_of(["a", "b", "c"], [[["a", None, None], ["b", None, None], ["c", None, None]]]))
    got = {r["name"]: (r["match_points"], r["most"], r["place"]) for r in rows}
    assert got == {"A": (3.5, 6.0, 1), "B": (3.5, 6.0, 1), "C": (2.0, 6.0, 3)}
    assert [r["name"] for r in rows] == ["B", "A", "C"]  # equal shares: more points first (b 3, a 1), same place


def test_only_deals_every_table_played_are_compared_and_an_unfinished_round_does_not_count(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)
    finished(store, "r0t0", [[1, 1, 7], [0, 0, 0], [0, 0, 0]])  # a third hand at this table only
    finished(store, "r0t1", [[0, 2], [0, 0], [0, 0]])
    finished(store, "r1t0", [[3], [0], [0]])  # round 2: one table has not finished
    rows = standings(
        store,
        state_of(["a", "b"], [[["a", None, None], ["b", None, None]], [["b", None, None], ["a", None, None]]]),
    )
    got = {r["name"]: (r["match_points"], r["most"], r["points"]) for r in rows}
    assert got == {"A": (1.0, 2.0, 2.0), "B": (1.0, 2.0, 2.0)}


def test_a_two_table_club_night_is_played_to_its_standings(server: ThreadServer) -> None:
    host, _, host_h = account(server, "Ann")
    guest = loopback.client(base_url=server.base, timeout=30)
    assert loopback.post(f"{server.base}/clubnights", json={"game": "whist"}).status_code == 401
    bad = host.post("/clubnights", json={"game": "whist(target=3)", "tables": 1}, headers=host_h)
    assert bad.status_code == 400 and "tables=1" in bad.json()["message"]
    night = host.post(
        "/clubnights", json={"game": "whist(target=3)", "tables": 2, "bot_delay": 0}, headers=host_h
    ).json()
    nid = night["id"]
    mine = host.post(f"/clubnights/{nid}/enter", json={}, headers=host_h).json()
    theirs = guest.post(f"/clubnights/{nid}/enter", json={"name": "Bob"}).json()
    assert guest.post(f"/clubnights/{nid}/enter", json={"name": "bob"}).json()["code"] == "name_taken"
    assert guest.post(f"/clubnights/{nid}/rounds").status_code == 401  # only its host, signed in
    view = host.post(f"/clubnights/{nid}/rounds", headers=host_h).json()
    assert view["played"][0]["tables"] in (
        [["Ann", None, None], ["Bob", None, None]],
        [["Bob", None, None], ["Ann", None, None]],
    )
    assert "invite" not in json.dumps(view)
    assert guest.post(f"/clubnights/{nid}/enter", json={"name": "Cleo"}).json()["code"] == "started"
    assert guest.post(f"/clubnights/{nid}/seat", json={"token": "not-an-entrant"}).status_code == 403
    seats = [guest.post(f"/clubnights/{nid}/seat", json={"token": e["token"]}).json() for e in (mine, theirs)]
    assert {s["seat"] for s in seats} == {0} and len({s["table"] for s in seats}) == 2
    for s in seats:
        table = s["table"]
        assert loopback.get(f"{server.base}/tables/{table}").status_code == 404  # private: not found by its id alone
        watcher = Client(server.base, table)  # nobody may watch: one table's cards are every table's
        try:
            assert watcher.until(lambda m: m["type"] == "error")["code"] == "no_table"
        finally:
            watcher.close()
    refused = host.post(f"/clubnights/{nid}/rounds", headers=host_h).json()
    assert refused["code"] in ("round_in_play", "over")
    for i, s in enumerate(seats):
        c = Client(server.base, s["table"], s["token"])
        try:
            play_out({0: c}, random.Random(i))
        finally:
            c.close()
    done = loopback.get(f"{server.base}/clubnights/{nid}/standings.json").json()
    assert done["over"] is True
    rows = done["standings"]
    assert sorted(r["name"] for r in rows) == ["Ann", "Bob"]
    assert rows[0]["match_points"] + rows[1]["match_points"] == rows[0]["most"] == rows[1]["most"] > 0
    table = list(csv.reader(io.StringIO(loopback.get(f"{server.base}/clubnights/{nid}/standings.csv").text)))
    assert table[0] == ["place", "name", "match_points", "most", "share", "points"] and len(table) == 3
    assert host.post(f"/clubnights/{nid}/rounds", headers=host_h).json()["code"] == "over"


@pytest.mark.server(limits=replace(ROOMY, tables_per_address=3))
def test_a_club_nights_tables_count_against_its_hosts_share_of_tables(server: ThreadServer) -> None:
    host, _, host_h = account(server, "Ann")
    night = host.post("/clubnights", json={"game": "whist(target=3)", "tables": 4}, headers=host_h).json()
    host.post(f"/clubnights/{night['id']}/enter", json={}, headers=host_h)
    loopback.post(f"{server.base}/clubnights/{night['id']}/enter", json={"name": "Bob"})
    refused = host.post(f"/clubnights/{night['id']}/rounds", headers=host_h).json()
    assert refused["code"] == "too_many_tables"
    hub = server.server.config.app.state.hub
    assert hub.tables == {}  # the tables made before the refusal were closed again
    assert host.get(f"/clubnights/{night['id']}").json()["played"] == []


def test_a_lone_host_fills_a_club_night_with_a_bot_entrant_which_plays_and_is_placed(server: ThreadServer) -> None:
    host, _, host_h = account(server, "Ann")
    guest = loopback.client(base_url=server.base, timeout=30)
    night = host.post(
        "/clubnights", json={"game": "whist(target=3)", "tables": 2, "bot_delay": 0}, headers=host_h
    ).json()
    nid = night["id"]
    assert night["least_entrants"] == 2 and night["seats_per_table"] == 3
    mine = host.post(f"/clubnights/{nid}/enter", json={}, headers=host_h).json()
    too_few = host.post(f"/clubnights/{nid}/rounds", headers=host_h).json()
    assert too_few["code"] == "too_few" and "add bots" in too_few["message"]
    assert guest.post(f"/clubnights/{nid}/bots").status_code == 401  # the host alone, signed in
    view = host.post(f"/clubnights/{nid}/bots", headers=host_h).json()
    [bot] = view["bots"]
    assert view["entrants"] == ["Ann", bot] and bot != "Ann"
    view = host.post(f"/clubnights/{nid}/rounds", headers=host_h).json()
    assert sorted(t[0] for t in view["played"][0]["tables"]) == sorted(["Ann", bot])
    assert host.post(f"/clubnights/{nid}/bots", headers=host_h).json()["code"] == "started"
    seat = guest.post(f"/clubnights/{nid}/seat", json={"token": mine["token"]}).json()
    c = Client(server.base, seat["table"], seat["token"])
    try:
        play_out({0: c}, random.Random(3))
    finally:
        c.close()
    done: dict[str, Any] = {}
    for _ in range(600):  # the bot entrant's table plays by itself (no delay): it ends soon after Ann's
        done = loopback.get(f"{server.base}/clubnights/{nid}/standings.json").json()
        if done["over"]:
            break
        time.sleep(0.1)
    assert done["over"] is True
    assert sorted(r["name"] for r in done["standings"]) == sorted(["Ann", bot])
    assert sum(r["match_points"] for r in done["standings"]) == done["standings"][0]["most"] > 0
