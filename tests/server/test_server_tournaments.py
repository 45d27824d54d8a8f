"""Tournaments on a real store and a real server: an arena seats free entrants again at once and stops counting at
its end; a Swiss tournament pairs its rounds, gives byes, and ends after its last; both are played to their standings
by people over the table sockets; bad requests are refused with the field and the rule, and change nothing."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from serverkit import Client, ThreadServer, in_own_loop
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from test_server_play import play_out
from test_server_rated import PASSWORD, account

import loopback
from clubsuite.server.community import tournaments as tournaments_module
from clubsuite.server.community.directing import (
    LAST_TABLES_SECONDS,
    SEATING_GRACE,
    TOURNAMENT_OVER,
    UNSTARTED_SECONDS,
    Director,
)
from clubsuite.server.community.tournaments import OPEN_PER_HOST, Tournaments, TournamentSettings
from clubsuite.server.people.accounts import User
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import match_players, tournaments
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused

pytestmark = pytest.mark.backends("sqlite", "postgresql")

# The tests that take ``shared`` (one server of the module's: tests/server/conftest.py) read only what they made
# themselves (their own tournaments, club nights, tables and seats), set the director's pauses for themselves alone
# and leave nothing for the director to run after them. The tests that read what every account shares (the list of
# tournaments), move the director's clock on or leave an arena running take a ``server`` of their own.

DUEL = "northstar(players=2, target=10)"
"""A game of two seats, so that tables are pairs."""
PEOPLE = ["Ann", "Bob", "Cleo", "Dan", "Eve"]


def end_table(store: Store, table_id: str, places: list[int], at: float) -> None:
    """Write what the end of match 0 of ``table_id`` writes for the tournament: each seat's place."""

    def work(conn: Any) -> None:
        for seat, place in enumerate(places):
            conn.execute(
                insert(match_players).values(
                    table_id=table_id,
                    match_no=0,
                    seat=seat,
                    game="northstar",
                    pool="northstar-2p",
                    user_id=None,
                    name="x",
                    bot=None,
                    place=place,
                    points=0.0,
                    hand_points="[]",
                    won=place == 1,
                    rated=False,
                    left=False,
                    finished_at=at,
                )
            )

    store.write(work)


async def with_director(store: Store, body: Any) -> Any:
    hub = Hub(Database(store))
    await hub.start()
    try:
        keeper = Tournaments(hub.database, hub)
        return await body(keeper, Director(keeper, "here", bots_after=30.0, round_pause=0.0))
    finally:
        await hub.stop()


def users() -> list[User]:
    return [User(f"user-{name}", name, 0.0, False) for name in PEOPLE]


def test_an_arena_seats_whoever_is_free_at_once_scores_by_place_and_counts_the_tables_in_play_at_its_end(
    store: Store,
) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()
        settings = TournamentSettings.read("arena", DUEL, "Evening arena", minutes=10, bots=False)
        tid = await keeper.create(people[0], settings)
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        t0 = time.time()
        await director.tick(t0)
        t = await keeper.load(tid)
        assert t.status == "running" and t.ends_at == pytest.approx(t0 + 600, abs=5)
        first = await keeper.tables(tid)
        assert len(first) == 2  # four of five seated; the one who entered last waits
        seated = {e for x in first for e in x.seats}
        entrants = {e.id: e for e in await keeper.entrants(tid)}
        waiting = set(entrants) - seated
        assert [entrants[e].name for e in waiting] == ["Eve"]
        for x in first:  # every seat is its entrant's, taken for that account (which asks the table for a token)
            for number, e in enumerate(x.seats):
                user_id = entrants[e or ""].user_id or ""
                seat = await keeper.seat_of(tid, user_id)
                assert (seat["table"], seat["seat"]) == (x.table_id, number)
                assert keeper.hub.tables[x.table_id].seats[number].user_id == user_id
        eve = entrants[next(iter(waiting))].user_id or ""
        assert await keeper.seat_of(tid, eve) == {"tournament": tid, "table": None}

        end_table(store, first[0].table_id, [1, 2], time.time())
        await director.tick(time.time())
        second = await keeper.tables(tid)
        assert len(second) == 3  # the two free again and Eve: one new table, one of them waits
        new = second[-1]
        assert set(new.seats) <= set(first[0].seats) | waiting and len(set(new.seats) & waiting) == 1

        rows = {r.entrant: r for r in await keeper.standings(await keeper.load(tid))}
        winner = first[0].seats[0] or ""
        assert rows[winner].score == 2 and rows[first[0].seats[1] or ""].score == 0

        t = await keeper.load(tid)
        end = t.ends_at or 0.0
        end_table(store, new.table_id, [1, 2], end + 1)  # ended after the arena's time: it counts (as on lichess)
        await director.tick(end + 2)
        t = await keeper.load(tid)
        assert t.status == "running"  # its last table still plays: nobody is seated again, the standings not final
        view = await keeper.view(tid)
        assert view["finishing"] and len(await keeper.tables(tid)) == 3
        assert sum(r["points"] for r in view["standings"]) == 4
        end_table(store, first[1].table_id, [2, 1], end + 30)
        await director.tick(end + 31)
        t = await keeper.load(tid)
        assert t.status == "over"
        assert [x.counted for x in await keeper.tables(tid)] == [True, True, True]
        assert first[0].table_id not in keeper.hub.tables  # an ended table is closed a minute after its end
        view = await keeper.view(tid)
        assert sum(r["points"] for r in view["standings"]) == 6 and not view["finishing"]

    in_own_loop(lambda: with_director(store, body))


def test_an_arena_past_its_time_waits_for_its_last_tables_only_so_long_then_closes_them_uncounted(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:2]
        settings = TournamentSettings.read("arena", DUEL, None, minutes=5, bots=False)
        tid = await keeper.create(people[0], settings)
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        await director.tick(time.time())
        (table,) = await keeper.tables(tid)
        end = (await keeper.load(tid)).ends_at or 0.0
        await director.tick(end + LAST_TABLES_SECONDS - 1)
        assert (await keeper.load(tid)).status == "running" and table.table_id in keeper.hub.tables
        await director.tick(end + LAST_TABLES_SECONDS + 1)
        assert (await keeper.load(tid)).status == "over"
        assert [x.counted for x in await keeper.tables(tid)] == [False]
        assert table.table_id not in keeper.hub.tables

    in_own_loop(lambda: with_director(store, body))


def test_a_swiss_tournament_pairs_rounds_without_rematches_gives_byes_and_ends_after_its_last(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:3]
        settings = TournamentSettings.read("swiss", DUEL, None, rounds=3, bots=False)
        tid = await keeper.create(people[0], settings)
        for u in people:
            await keeper.join(tid, u)
        assert (await keeper.view(tid))["name"] == "northstar swiss"
        await keeper.start(tid, people[0])
        met: list[frozenset[str]] = []
        for number in (1, 2, 3):
            await director.tick(time.time())
            tables = [x for x in await keeper.tables(tid) if x.round == number]
            assert len(tables) == 1, number
            pair = frozenset(e for e in tables[0].seats if e)
            assert pair not in met  # three people, three rounds: everyone meets everyone once
            met.append(pair)
            await director.tick(time.time())  # the round is still being played: nothing new
            assert len(await keeper.tables(tid)) == number
            end_table(store, tables[0].table_id, [1, 2], time.time())
        await director.tick(time.time())
        t = await keeper.load(tid)
        assert t.status == "over" and t.state["round"] == 3
        entrants = await keeper.entrants(tid)
        assert sorted(e.byes for e in entrants) == [1, 1, 1]
        rows = await keeper.standings(t)
        assert sum(r.score for r in rows) == 3 * 2 + 3 * 1  # three tables of 2 points, three byes of 1

    in_own_loop(lambda: with_director(store, body))


def test_a_swiss_tournament_too_small_for_a_table_is_cancelled(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        ann = users()[0]
        tid = await keeper.create(ann, TournamentSettings.read("swiss", DUEL, "Lonely", rounds=2, bots=False))
        await keeper.join(tid, ann)
        await keeper.start(tid, ann)
        await director.tick(time.time())
        t = await keeper.load(tid)
        assert t.status == "over" and t.state["cancelled"] is True and await keeper.tables(tid) == []

    in_own_loop(lambda: with_director(store, body))


def test_a_second_process_does_not_direct_a_tournament_another_holds(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:2]
        tid = await keeper.create(people[0], TournamentSettings.read("arena", DUEL, "Held", minutes=5, bots=False))
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        other = Director(keeper, "elsewhere")
        await director.tick(time.time())
        await other.tick(time.time())
        assert len(await keeper.tables(tid)) == 1  # made by the director that holds it, not by the other
        rows = await keeper.hub.db(keeper.hub.store.read, select(tournaments.c.director))
        assert [r.director for r in rows] == ["here"]

    in_own_loop(lambda: with_director(store, body))


def test_a_table_whose_seat_cannot_be_taken_is_unmade_and_that_entrant_paused_instead_of_waiting_for_ever(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:4]
        tid = await keeper.create(people[0], TournamentSettings.read("arena", DUEL, "Refusals", minutes=5, bots=False))
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        join = keeper.hub.seating.join

        async def refusing(table: Any, name: object, seat: int | None, user: User | None = None) -> tuple[int, str]:
            if user is not None and user.name == "Bob":
                raise Refused("name_taken", "a look-alike name at this table")
            return await join(table, name, seat, user)

        monkeypatch.setattr(keeper.hub.seating, "join", refusing)
        await director.tick(time.time())
        tables = await keeper.tables(tid)
        entrants = {e.name: e for e in await keeper.entrants(tid)}
        assert len(tables) == 1 and entrants["Bob"].id not in tables[0].seats  # Bob's table was unmade
        assert not entrants["Bob"].active and all(e.active for n, e in entrants.items() if n != "Bob")
        assert len(keeper.hub.tables) == 1  # and closed: nothing waits for a seat nobody will take
        await director.tick(time.time())  # Bob's partner, alone and with no bots, waits for someone free
        assert len(await keeper.tables(tid)) == 1

    in_own_loop(lambda: with_director(store, body))


def test_a_tournament_its_host_never_starts_is_cancelled_after_a_day(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        ann = users()[0]
        tid = await keeper.create(ann, TournamentSettings.read("arena", DUEL, "Never", minutes=5))
        await keeper.join(tid, ann)
        await director.tick(time.time() + UNSTARTED_SECONDS - 60)
        assert (await keeper.load(tid)).status == "open"
        director._swept_at = 0.0  # the next look, a day after it was made
        await director.tick(time.time() + UNSTARTED_SECONDS + 60)
        t = await keeper.load(tid)
        assert t.status == "over" and t.state["cancelled"] is True and await keeper.tables(tid) == []
        assert [x["status"] for x in await keeper.listing() if x["id"] == tid] == ["over"]

    in_own_loop(lambda: with_director(store, body))


# -- over HTTP and the table sockets ------------------------------------------------------------------------------


def _wait(condition: Any, seconds: float = 120.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the condition was not met in time")


def _director(server: ThreadServer, monkeypatch: pytest.MonkeyPatch | None = None, **settings: float) -> Director:
    """The server's tournament director, with no pause between rounds and ``settings`` (``bots_after``): for the
    rest of the server's life, or, given ``monkeypatch``, for the test alone (a server the module's tests share
    goes back to its own settings after each)."""
    director: Director = server.server.config.app.state.director
    for name, value in {"round_pause": 0.0, **settings}.items():
        if monkeypatch is not None:
            monkeypatch.setattr(director, name, value)
        else:
            setattr(director, name, value)
    return director


def _play_tables(server: ThreadServer, browsers: list[Any], tid: str, played: set[str], seed: int) -> None:
    """Wait until each account has a table of the tournament it has not played yet, then play those tables to
    their ends, every account at its seat (random legal actions; people at one table play it together)."""
    seats = []
    for b in browsers:
        seat = _wait(lambda b=b: (s := b.get(f"/tournaments/{tid}/seat").json())["table"] not in (None, *played) and s)
        assert "token" not in seat  # the table hands the account's seat its token
        csrf = {"X-CSRF-Token": b.get("/account").json()["csrf"]}
        given = b.post(f"/tables/{seat['table']}/seat", headers=csrf).json()
        assert (given["table"], given["seat"]) == (seat["table"], seat["seat"]), given
        seats.append({**seat, "token": given["token"]})
    by_table: dict[str, dict[int, Client]] = {}
    try:
        for s in seats:
            by_table.setdefault(s["table"], {})[s["seat"]] = Client(server.base, s["table"], s["token"])
        for k, people in enumerate(by_table.values()):
            play_out(people, random.Random(seed + k))
    finally:
        for people in by_table.values():
            for c in people.values():
                c.close()
    played.update(by_table)


def test_a_swiss_tournament_is_played_to_its_standings_by_two_people_and_bots(
    shared: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = shared
    _director(server, monkeypatch)
    ann, _, ann_h = account(server, "Ann")
    bob, _, bob_h = account(server, "Bob")
    made = ann.post(
        "/tournaments",
        json={"format": "swiss", "game": "whist(target=2)", "name": "Club Swiss", "rounds": 2, "bot_delay": 0},
        headers=ann_h,
    )
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert ann.post(f"/tournaments/{tid}/join", headers=ann_h).json()["me"]["name"] == "Ann"
    bob.post(f"/tournaments/{tid}/join", headers=bob_h)
    assert bob.post(f"/tournaments/{tid}/start", headers=bob_h).json()["code"] == "not_host"
    assert ann.post(f"/tournaments/{tid}/start", headers=ann_h).json()["status"] in ("open", "running")
    played: set[str] = set()
    for number in (1, 2):
        _wait(lambda number=number: loopback.get(f"{server.base}/tournaments/{tid}").json()["round"] == number)
        _play_tables(server, [ann, bob], tid, played, number * 10)
    done = _wait(
        lambda: (v := loopback.get(f"{server.base}/tournaments/{tid}").json())["status"] == "over" and v,
    )
    rows = done["standings"]
    assert sorted(r["name"] for r in rows) == ["Ann", "Bob"] and all(r["tables"] == 2 for r in rows)
    table = list(csv.reader(io.StringIO(loopback.get(f"{server.base}/tournaments/{tid}/standings.csv").text)))
    assert table[0][:3] == ["place", "name", "points"] and len(table) == 3
    whole = loopback.get(f"{server.base}/tournaments/{tid}/standings.json").json()
    assert "token" not in json.dumps(whole) and "invite" not in json.dumps(whole)
    for x in played:  # a tournament's tables are private: not found by their id alone
        assert loopback.get(f"{server.base}/tables/{x}").status_code == 404


def test_an_arena_is_played_and_ends_with_its_standings(server: ThreadServer) -> None:
    director = _director(server)
    director.bots_after = 0.0
    ann, _, ann_h = account(server, "Ann")
    tid = ann.post(
        "/tournaments",
        json={"format": "arena", "game": DUEL, "minutes": 5, "bot_delay": 0},
        headers=ann_h,
    ).json()["id"]
    ann.post(f"/tournaments/{tid}/join", headers=ann_h)
    ann.post(f"/tournaments/{tid}/start", headers=ann_h)
    played: set[str] = set()
    for k in range(2):  # alone: seated with a bot at once, and again as soon as each table ends
        _play_tables(server, [ann], tid, played, k)
    _wait(lambda: ann.get(f"/tournaments/{tid}").json()["me"]["tables"] == 2)
    hub = server.server.config.app.state.hub
    ended = asyncio.run_coroutine_threadsafe(director.tick(time.time() + 3600), hub.loop)
    ended.result(60)
    view = ann.get(f"/tournaments/{tid}").json()
    assert view["status"] == "over" and view["me"]["tables"] == 2
    assert view["me"]["points"] == sum(view["me"]["results"])
    listed = loopback.get(f"{server.base}/tournaments").json()["tournaments"]
    assert [x["id"] for x in listed] == [tid] and listed[0]["status"] == "over"


def _at_an_arena_table(server: ThreadServer) -> tuple[Director, Any, str, dict[str, Any], Client]:
    """Ann alone in a 5-minute arena of the duel, seated and connected at her table, playing on (its bots wait 10 s
    a move): the director, Ann's client, the tournament's id, her seat and her table's socket."""
    director = _director(server)
    director.bots_after = 0.0
    ann, _, ann_h = account(server, "Ann")
    made = ann.post(
        "/tournaments", json={"format": "arena", "game": DUEL, "minutes": 5, "bot_delay": 10}, headers=ann_h
    ).json()
    tid = made["id"]
    ann.post(f"/tournaments/{tid}/join", headers=ann_h)
    ann.post(f"/tournaments/{tid}/start", headers=ann_h)
    seat = _wait(lambda: (s := ann.get(f"/tournaments/{tid}/seat").json())["table"] is not None and s)
    token = ann.post(f"/tables/{seat['table']}/seat", headers=ann_h).json()["token"]
    client = Client(server.base, seat["table"], token)
    client.until(lambda m: m["type"] == "welcome")
    return director, ann, tid, seat, client


def test_a_table_still_played_long_after_its_arena_ended_is_closed_and_its_seats_told_why(server: ThreadServer) -> None:
    director, ann, tid, seat, client = _at_an_arena_table(server)
    try:
        hub = server.server.config.app.state.hub
        ends = _wait(lambda: ann.get(f"/tournaments/{tid}").json()["ends_at"])
        late = asyncio.run_coroutine_threadsafe(director.tick(ends + LAST_TABLES_SECONDS + 1), hub.loop)
        late.result(60)
        bye = client.until(lambda m: m["type"] == "bye")
        assert bye["reason"] == TOURNAMENT_OVER
        assert seat["table"] not in hub.tables
        view = ann.get(f"/tournaments/{tid}").json()
        assert view["status"] == "over" and view["me"]["tables"] == 0  # not counted
    finally:
        client.close()


def test_a_late_arena_table_is_closed_by_the_process_serving_it_when_another_process_ended_the_arena(
    server: ThreadServer,
) -> None:
    """Only the process serving a table can close it: where another process directed the arena (and ended it), the
    table still played here 30 minutes after the end is closed here, at this process's next look, its seats told
    why."""
    director, ann, tid, seat, client = _at_an_arena_table(server)
    try:
        hub = server.server.config.app.state.hub
        ends = _wait(lambda: ann.get(f"/tournaments/{tid}").json()["ends_at"])

        def ended_elsewhere(conn: Connection) -> None:  # as another process's director ends it (``_end``)
            conn.execute(update(tournaments).where(tournaments.c.id == tid).values(status="over", director="elsewhere"))

        asyncio.run_coroutine_threadsafe(hub.db(hub.store.write, ended_elsewhere), hub.loop).result(60)
        early = asyncio.run_coroutine_threadsafe(director.tick(ends + LAST_TABLES_SECONDS - 60), hub.loop)
        early.result(60)
        assert seat["table"] in hub.tables  # the last tables are still waited for
        late = asyncio.run_coroutine_threadsafe(director.tick(ends + LAST_TABLES_SECONDS + 61), hub.loop)
        late.result(60)
        bye = client.until(lambda m: m["type"] == "bye")
        assert bye["reason"] == TOURNAMENT_OVER
        assert seat["table"] not in hub.tables
    finally:
        client.close()


def test_a_late_table_that_cannot_be_closed_keeps_neither_the_others_nor_the_tournaments_waiting(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing the tables an arena left uncounted may fail (the database away, the table taken over meanwhile): it is
    logged and tried again at the next look, and the round of work on the tournaments goes on."""
    director = _director(server)
    hub = server.server.config.app.state.hub
    ann, _, ann_h = account(server, "Ann")
    tid = ann.post("/tournaments", json={"format": "arena", "game": DUEL, "minutes": 5}, headers=ann_h).json()["id"]
    ann.post(f"/tournaments/{tid}/join", headers=ann_h)
    ann.post(f"/tournaments/{tid}/start", headers=ann_h)

    async def broken(now: float) -> None:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(director, "_close_late", broken)
    monkeypatch.setattr(director, "_late_swept_at", 0.0)
    asyncio.run_coroutine_threadsafe(director.tick(time.time()), hub.loop).result(60)  # no exception leaves it
    assert ann.get(f"/tournaments/{tid}").json()["status"] == "running"


def test_bad_tournament_requests_are_refused_with_the_field_and_the_rule(server: ThreadServer) -> None:
    ann, _, ann_h = account(server, "Ann")
    base = {"format": "arena", "game": DUEL}
    assert loopback.post(f"{server.base}/tournaments", json=base).status_code == 401
    cases = [
        ({**base, "format": "knockout"}, "format='knockout'"),
        ({**base, "minutes": 1}, "minutes=1"),
        ({**base, "rounds": 3}, "rounds"),
        ({**base, "format": "swiss", "rounds": 40}, "rounds=40"),
        ({**base, "bot": "grandmaster"}, "bot='grandmaster'"),
        ({**base, "name": "\u202eevil"}, "name"),
        ({**base, "name": "x" * 61}, "name"),
        ({**base, "starts_at": 1.0}, "starts_at"),
        ({**base, "game": "chess"}, "chess"),
        ({**base, "rated": True, "unit": "hand"}, "unit='hand'"),  # only a whole match is rated
    ]
    for body, named in cases:
        r = ann.post("/tournaments", json=body, headers=ann_h)
        assert r.status_code == 400 and named in r.json()["message"], (body, r.text)
    assert ann.post("/tournaments", json={**base, "minutes": "5"}, headers=ann_h).status_code == 422
    assert loopback.get(f"{server.base}/tournaments").json()["tournaments"] == []  # nothing was made
    for _ in range(3):
        assert ann.post("/tournaments", json=base, headers=ann_h).status_code == 201
    assert ann.post("/tournaments", json=base, headers=ann_h).json()["code"] == "too_many_tournaments"
    tid = loopback.get(f"{server.base}/tournaments").json()["tournaments"][0]["id"]
    assert ann.post(f"/tournaments/{tid}/withdraw", headers=ann_h).json()["code"] == "not_entered"
    ann.post(f"/tournaments/{tid}/join", headers=ann_h)
    assert ann.post(f"/tournaments/{tid}/join", headers=ann_h).json()["code"] == "already_entered"
    assert loopback.get(f"{server.base}/tournaments/nothing-here").status_code == 404
    assert loopback.get(f"{server.base}/tournaments/{tid}?page=-1").status_code == 422
    assert loopback.post(f"{server.base}/tournaments/{tid}/join").status_code == 401


def test_a_club_night_is_no_arena_or_swiss_tournament_to_the_tournament_routes(shared: ThreadServer) -> None:
    server = shared
    cora, _, cora_h = account(server, "Cora")
    night = cora.post("/clubnights", json={"game": "whist"}, headers=cora_h).json()["id"]
    for path in ("", "/standings.json", "/standings.csv"):
        assert loopback.get(f"{server.base}/tournaments/{night}{path}").json()["code"] == "no_tournament"
    for action in ("join", "withdraw", "start"):
        r = cora.post(f"/tournaments/{night}/{action}", headers=cora_h)
        assert r.status_code == 404 and r.json()["code"] == "no_tournament"
    assert cora.get(f"/clubnights/{night}").json()["entrants"] == []  # nothing changed
    for _ in range(3):  # club nights do not count against the tournaments an account may have open
        assert cora.post("/tournaments", json={"format": "arena", "game": DUEL}, headers=cora_h).status_code == 201


def test_a_tournament_table_answers_its_tournament_and_any_other_id_none_alike(server: ThreadServer) -> None:
    """``GET /tournament-tables/{id}``: how a tournament table's page, opened cold, learns its tournament (an arena's
    and a club night's table say theirs; a plain table and a made-up id answer the same null)."""
    _director(server).bots_after = 0.0
    ann, _, ann_h = account(server, "Ann")
    tid = ann.post("/tournaments", json={"format": "arena", "game": DUEL, "bot_delay": 0}, headers=ann_h).json()["id"]
    ann.post(f"/tournaments/{tid}/join", headers=ann_h)
    ann.post(f"/tournaments/{tid}/start", headers=ann_h)
    table = _wait(lambda: ann.get(f"/tournaments/{tid}/seat").json()["table"])
    of = loopback.get(f"{server.base}/tournament-tables/{table}")
    assert of.status_code == 200 and of.json() == {"table": table, "tournament": {"id": tid, "format": "arena"}}
    night = ann.post("/clubnights", json={"game": "whist(target=3)", "tables": 2, "bot_delay": 0}, headers=ann_h)
    nid = night.json()["id"]
    token = ann.post(f"/clubnights/{nid}/enter", json={}, headers=ann_h).json()["token"]
    loopback.post(f"{server.base}/clubnights/{nid}/enter", json={"name": "Bob"})
    ann.post(f"/clubnights/{nid}/rounds", headers=ann_h)
    at_night = ann.post(f"/clubnights/{nid}/seat", json={"token": token}).json()["table"]
    night_of = loopback.get(f"{server.base}/tournament-tables/{at_night}").json()
    assert night_of["tournament"] == {"id": nid, "format": "clubnight"}
    plain = loopback.post(f"{server.base}/tables", json={"game": "whist"}).json()["id"]
    for other in (plain, "no-such-table"):
        answer = loopback.get(f"{server.base}/tournament-tables/{other}")
        assert (answer.status_code, answer.json()) == (200, {"table": other, "tournament": None})
    assert loopback.get(f"{server.base}/tournament-tables/{'x' * 41}").status_code == 422  # bounded


def test_an_arena_entrant_away_from_their_table_when_it_ends_is_paused_until_they_join_again(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:3]
        tid = await keeper.create(people[0], TournamentSettings.read("arena", DUEL, "Away", minutes=10, bots=False))
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        await director.tick(time.time())
        [first] = await keeper.tables(tid)
        live = keeper.hub.tables[first.table_id]
        live.present_at_end[0] = frozenset({0})  # the match ended with seat 1's person away (a bot played it)
        end_table(store, first.table_id, [1, 2], time.time())
        await director.tick(time.time())
        entrants = {e.id: e for e in await keeper.entrants(tid)}
        away, here = entrants[first.seats[1] or ""], entrants[first.seats[0] or ""]
        assert not away.active and here.active
        second = (await keeper.tables(tid))[-1]
        assert away.id not in second.seats and here.id in second.seats  # seated again with the one who waited
        view = await keeper.view(tid, User(away.user_id or "", away.name, 0.0, False))
        assert view["me"]["active"] is False and view["me"]["tables"] == 1  # the table played still counts
        await keeper.join(tid, User(away.user_id or "", away.name, 0.0, False))  # back
        assert next(e for e in await keeper.entrants(tid) if e.id == away.id).active

    in_own_loop(lambda: with_director(store, body))


def test_the_seat_an_account_holds_is_handed_a_fresh_token_that_replaces_the_old_one(shared: ThreadServer) -> None:
    """``POST /tables/{id}/seat``: how a seat taken for an account (a tournament's) is reached from any page."""
    server = shared
    fay, _, fay_h = account(server, "Fay")
    gil, _, gil_h = account(server, "Gil")
    table = loopback.post(
        f"{server.base}/tables",
        json={"game": "whist", "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]},
    ).json()["id"]
    first = fay.post(f"/tables/{table}/join", json={}, headers=fay_h).json()
    again = fay.post(f"/tables/{table}/seat", headers=fay_h)
    assert again.status_code == 200 and again.json()["seat"] == first["seat"], again.text
    assert again.json()["token"] != first["token"]
    old = Client(server.base, table, first["token"])
    try:
        assert old.until(lambda m: m["type"] == "error")["code"] == "bad_token"  # the old token opens it no more
    finally:
        old.close()
    new = Client(server.base, table, again.json()["token"])
    try:
        new.until(lambda m: m["type"] == "welcome" and m["seat"] == first["seat"])
    finally:
        new.close()
    none = [
        gil.post(f"/tables/{table}/seat", headers=gil_h).json(),  # a free seat is not Gil's
        fay.post("/tables/no-such-table/seat", headers=fay_h).json(),  # answered as a seat not held
    ]
    assert none == [{"table": t, "seat": None, "token": None} for t in (table, "no-such-table")]
    refused = [
        loopback.post(f"{server.base}/tables/{table}/seat"),  # a guest
        fay.post(f"/tables/{table}/seat"),  # no CSRF token
    ]
    assert [(r.status_code, r.json()["code"]) for r in refused] == [(401, "signed_out"), (403, "bad_csrf")]


def test_an_account_asking_for_many_tournaments_at_once_gets_no_more_than_it_may_have(shared: ThreadServer) -> None:
    """The count of an account's tournaments and the new one are one step (its row held meanwhile): twelve requests
    at once, over the process's several database threads, make three."""
    server = shared
    hal, _, hal_h = account(server, "Hal")

    def make(k: int) -> tuple[int, str]:
        with loopback.client(base_url=server.base, timeout=60) as b:
            b.cookies.update(hal.cookies)
            r = b.post("/tournaments", json={"format": "arena", "game": DUEL, "name": f"At once {k}"}, headers=hal_h)
            return r.status_code, r.json().get("code", "made")

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(make, range(12)))
    made = [a for a in answers if a[0] in (200, 201)]
    assert len(made) == OPEN_PER_HOST, answers
    assert sorted(set(answers) - set(made)) == [(409, "too_many_tournaments")], answers
    listed = loopback.get(f"{server.base}/tournaments").json()["tournaments"]
    assert len([t for t in listed if t["name"].startswith("At once")]) == OPEN_PER_HOST


def test_a_process_keeps_the_standings_of_a_bounded_number_of_tournaments(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournaments_module, "STANDINGS_KEPT", 2)

    async def body(keeper: Tournaments, director: Director) -> None:
        ann = users()[0]
        made = []
        for k in range(3):
            tid = await keeper.create(None, TournamentSettings.read("arena", DUEL, f"Kept {k}", minutes=5))
            await keeper.join(tid, ann)
            made.append(tid)
        for tid in [*made, made[0]]:
            assert [r["name"] for r in (await keeper.view(tid))["standings"]] == ["Ann"]
        assert list(keeper._standings) == [made[2], made[0]]  # the least recently worked out went

    in_own_loop(lambda: with_director(store, body))


def test_a_table_left_half_seated_by_a_failure_or_a_stop_is_unmade_and_its_people_seated_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:2]
        tid = await keeper.create(people[0], TournamentSettings.read("arena", DUEL, "Half", minutes=30, bots=False))
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        join = keeper.hub.seating.join

        async def failing(table: Any, name: object, seat: int | None, user: User | None = None) -> tuple[int, str]:
            if user is not None and user.name == "Bob":
                raise RuntimeError("the database went away")
            return await join(table, name, seat, user)

        monkeypatch.setattr(keeper.hub.seating, "join", failing)
        await director.tick(time.time())
        assert await keeper.tables(tid) == [] and keeper.hub.tables == {}  # unmade, nobody paused
        assert all(e.active for e in await keeper.entrants(tid))
        monkeypatch.setattr(keeper.hub.seating, "join", join)
        await director.tick(time.time())
        (made,) = await keeper.tables(tid)
        # as if the process had stopped between the two seats: one seat is free, and nobody has played
        live = keeper.hub.tables[made.table_id]
        seat = next(s for s in live.seats if s.kind == "person")
        seat.name = seat.token_hash = seat.user_id = None
        await keeper.hub.db(keeper.hub.store.update_seat, live.id, seat.row())
        await director.tick(time.time() + 30)
        assert [x.table_id for x in await keeper.tables(tid, playing=True)] == [made.table_id]  # not yet
        await director.tick(time.time() + SEATING_GRACE + 5)
        tables = await keeper.tables(tid)
        assert made.table_id not in {x.table_id for x in tables} and made.table_id not in keeper.hub.tables
        assert len(tables) == 1  # both seated again at once, at a new table

    in_own_loop(lambda: with_director(store, body))


def test_an_entrant_whose_account_is_deleted_is_never_seated_again(server: ThreadServer) -> None:
    _director(server).bots_after = 0.0
    ann, _, ann_h = account(server, "Ann")
    bob, _, bob_h = account(server, "Bob")
    cleo, _, cleo_h = account(server, "Cleo")
    tid = ann.post("/tournaments", json={"format": "arena", "game": DUEL, "bots": False}, headers=ann_h).json()["id"]
    for b, h in ((ann, ann_h), (bob, bob_h), (cleo, cleo_h)):
        assert b.post(f"/tournaments/{tid}/join", headers=h).status_code == 200
    assert cleo.post("/account/delete", json={"password": PASSWORD}, headers=cleo_h).status_code == 200
    assert ann.post(f"/tournaments/{tid}/start", headers=ann_h).status_code == 200
    for b in (ann, bob):  # the two accounts that remain are seated together
        _wait(lambda b=b: b.get(f"/tournaments/{tid}/seat").json()["table"])
    keeper = _director(server).tournaments
    hub = keeper.hub
    entrants = asyncio.run_coroutine_threadsafe(keeper.entrants(tid), hub.loop).result(60)
    assert [(e.name, e.active) for e in entrants] == [("Ann", True), ("Bob", True), ("Cleo", False)]
    tables = asyncio.run_coroutine_threadsafe(keeper.tables(tid), hub.loop).result(60)
    cleo_id = next(e.id for e in entrants if e.name == "Cleo")
    assert len(tables) == 1 and cleo_id not in tables[0].seats


def test_an_account_holding_two_seats_at_a_table_is_handed_the_one_it_asks_for(shared: ThreadServer) -> None:
    server = shared
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    table = loopback.post(f"{server.base}/tables", json={"game": "whist", "seats": seats}).json()["id"]
    tokens = [loopback.post(f"{server.base}/tables/{table}/join", json={"name": n}).json()["token"] for n in "AB"]
    b = loopback.client(base_url=server.base, timeout=30)
    made = b.post("/account/signup", json={"name": "Lou", "password": PASSWORD, "tokens": tokens}).json()
    csrf = {"X-CSRF-Token": made["csrf"]}
    assert sorted(s["seat"] for s in made["seats"]) == [0, 1]  # a guest's two seats became the account's
    asked = [b.post(f"/tables/{table}/seat", json=body, headers=csrf).json()["seat"] for body in ({"seat": 1}, {})]
    assert asked == [1, 0]  # the one asked for; else the lowest
    assert b.post(f"/tables/{table}/seat", json={"seat": 12}, headers=csrf).status_code == 422
    b.close()
