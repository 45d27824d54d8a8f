"""Matchmaking: people of close rating are seated together at a rated table; the window widens while they wait;
after the set time bots of the nearest rating fill the rest; each seat's token goes to its own account only, once.
The rounds are driven with chosen clock readings (no waiting on the machine's speed), and the routes on a real
server."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer, in_own_loop
from sqlalchemy import insert
from test_server_rated import account

import loopback
from clubsuite.ratings import Skill, shown
from clubsuite.server.community import matchmaking
from clubsuite.server.community.matchmaking import WINDOW_GROWTH, WINDOW_START, Matchmaker, Ticket
from clubsuite.server.people.accounts import User
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import ratings
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused


def user(n: int) -> User:
    return User(f"id{n}", f"Player {n}", 0.0, False)


def rate_user(store: Store, who: User, shown_rating: int) -> None:
    """Give ``who`` a whist rating that shows as ``shown_rating`` (sure: a small uncertainty)."""
    mu = 25 + (shown_rating - 1500) / 60
    assert shown(Skill(mu, 1.0))[0] == shown_rating
    store.write(
        lambda conn: conn.execute(
            insert(ratings).values(pool="whist", subject=f"user:{who.id}", mu=mu, sigma=1.0, matches=10, updated_at=0)
        )
    )


def run(store: Store, scenario: object) -> None:
    async def main() -> None:
        hub = Hub(Database(store))
        await hub.start()
        try:
            await scenario(hub)  # type: ignore[operator]
        finally:
            await hub.stop()

    in_own_loop(main)


def test_three_people_of_close_rating_are_seated_together_at_a_rated_table(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub, bots_after=60)
        people = [user(i) for i in range(3)]
        tickets = [await mm.join(p, "whist", "127.0.0.1") for p in people]
        await mm.match(tickets[-1].since)
        seated = [mm.status(p) for p in people]
        assert {s["status"] for s in seated} == {"seated"}
        assert len({s["table"] for s in seated}) == 1 and sorted(s["seat"] for s in seated) == [0, 1, 2]
        assert len({s["token"] for s in seated}) == 3
        table = hub.tables[seated[0]["table"]]
        assert table.settings.rated and {s.user_id for s in table.seats} == {p.id for p in people}
        assert mm.status(people[0]) == {"status": "none"}  # the token was handed over once

    run(store, scenario)


def test_the_window_widens_with_waiting_until_far_ratings_meet(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)
    people = [user(i) for i in range(3)]
    for p, r in zip(people, (1500, 1520, 1900), strict=True):
        rate_user(store, p, r)

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub, bots_after=600)
        tickets = [await mm.join(p, "whist", "127.0.0.1") for p in people]
        start = max(t.since for t in tickets)
        meets = (1900 - 1500 - WINDOW_START) / WINDOW_GROWTH  # seconds of waiting until the gap fits
        await mm.match(start + meets - 2)
        assert [mm.status(p)["status"] for p in people] == ["waiting"] * 3
        assert mm.status(people[2])["window"] < 400
        await mm.match(start + meets + 2)
        assert [mm.status(p)["status"] for p in people] == ["seated"] * 3

    run(store, scenario)


def test_after_the_set_time_bots_of_the_nearest_rating_fill_the_table(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)
    ann, far = user(1), user(2)
    rate_user(store, ann, 1500)
    rate_user(store, far, 2500)
    store.write(
        lambda conn: conn.execute(
            insert(ratings),
            [
                {
                    "pool": "whist",
                    "subject": f"bot:{level}",
                    "mu": 25 + (r - 1500) / 60,
                    "sigma": 1.0,
                    "matches": 5,
                    "updated_at": 0,
                }
                for level, r in (("easy", 1100), ("normal", 1450), ("hard", 1700), ("expert", 1900))
            ],
        )
    )

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub, bots_after=30)
        a = await mm.join(ann, "whist", "127.0.0.1")
        await mm.join(far, "whist", "127.0.0.2")
        await mm.match(a.since + 10)
        assert mm.status(ann)["status"] == "waiting"
        await mm.match(a.since + 31)  # both waited past the time; too far apart to share a table (window 850)
        mine, theirs = mm.status(ann), mm.status(far)
        assert mine["status"] == theirs["status"] == "seated" and mine["table"] != theirs["table"]
        bots = [s.bot for s in hub.tables[mine["table"]].seats if s.kind == "bot"]
        assert bots == ["normal", "normal"]  # 1450 is nearest 1500
        assert [s.bot for s in hub.tables[theirs["table"]].seats if s.kind == "bot"] == ["expert", "expert"]

    run(store, scenario)


@pytest.mark.server(bots_after=0.5)  # bots fill the rated table after half a second of waiting
def test_play_rated_seats_an_account_with_bots_and_hands_its_token_to_it_alone(server: ThreadServer) -> None:
    b, _, headers = account(server, "Ann")
    other, _, other_h = account(server, "Bob")
    assert loopback.post(f"{server.base}/rated/queue", json={"game": "whist"}).status_code == 401
    assert b.post("/rated/queue", json={"game": "whist"}).json()["code"] == "bad_csrf"
    assert b.post("/rated/queue", json={"game": "nosuchgame"}, headers=headers).status_code == 400
    waiting = b.post("/rated/queue", json={"game": "whist"}, headers=headers).json()
    assert waiting["status"] in ("waiting", "seated")
    again = b.post("/rated/queue", json={"game": "whist"}, headers=headers)
    assert again.status_code == 409 or again.json()["status"] == "seated"
    assert other.get("/rated/queue").json() == {"status": "none"}  # Bob learns nothing of Ann's ticket
    found: dict[str, object] = {}

    def seated() -> bool:
        found.update(b.get("/rated/queue").json())
        return found["status"] == "seated"

    deadline = time.monotonic() + 60
    while not seated():
        assert time.monotonic() < deadline, found
        time.sleep(0.2)
    table = loopback.get(f"{server.base}/tables/{found['table']}").json()
    assert table["settings"]["rated"] is True
    assert [s["kind"] for s in table["seats"]] == ["person", "bot", "bot"]
    assert b.get("/rated/queue").json() == {"status": "none"}
    assert other.post("/rated/queue/leave", headers=other_h).json() == {"left": False}


# -- requests at once ------------------------------------------------------------------------------------------------
def test_two_joins_at_once_by_one_account_make_one_ticket(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub)
        ann = user(1)
        outcomes = await asyncio.gather(*(mm.join(ann, "whist", "127.0.0.1") for _ in range(2)), return_exceptions=True)
        refused = [o for o in outcomes if isinstance(o, Refused)]
        assert len(refused) == 1 and refused[0].code == "already_queued", outcomes
        assert [t for t in outcomes if isinstance(t, Ticket)] == [mm.tickets[ann.id]]

    run(store, scenario)


def test_joins_at_once_never_fill_the_queue_past_its_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.in_directory(tmp_path)
    monkeypatch.setattr(matchmaking, "QUEUE_MAX", 3)

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub)
        outcomes = await asyncio.gather(
            *(mm.join(user(i), "whist", "127.0.0.1") for i in range(6)), return_exceptions=True
        )
        assert len(mm.tickets) == 3
        assert sorted(o.code for o in outcomes if isinstance(o, Refused)) == ["busy"] * 3

    run(store, scenario)


def held_table_making(hub: Hub) -> tuple[asyncio.Event, asyncio.Event]:
    """Hold every table the hub makes until the second event is set; the first is set once one is asked for."""
    asked, go = asyncio.Event(), asyncio.Event()
    make = hub.create_table

    async def held(*args: Any, **kwargs: Any) -> Any:
        asked.set()
        await go.wait()
        return await make(*args, **kwargs)

    hub.create_table = held  # type: ignore[method-assign]
    return asked, go


def test_leaving_while_ones_table_is_being_made_is_refused_and_the_seat_is_handed_over(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub, bots_after=600)
        people = [user(i) for i in range(3)]
        tickets = [await mm.join(p, "whist", "127.0.0.1") for p in people]
        asked, go = held_table_making(hub)
        matching = asyncio.create_task(mm.match(tickets[-1].since))
        await asyncio.wait_for(asked.wait(), 60)
        assert mm.leave(people[0]) is False  # the seat is being made for them already
        go.set()
        await matching
        seated = [mm.status(p) for p in people]
        assert [s["status"] for s in seated] == ["seated"] * 3  # the one who tried to leave learns their seat
        assert {s.user_id for s in hub.tables[seated[0]["table"]].seats} == {p.id for p in people}

    run(store, scenario)


def test_one_who_leaves_before_their_group_is_seated_is_not_seated(tmp_path: Path) -> None:
    store = Store.in_directory(tmp_path)
    people = [user(i) for i in range(6)]
    for p, r in zip(people, (1500, 1500, 1500, 2500, 2500, 2500), strict=True):
        rate_user(store, p, r)

    async def scenario(hub: Hub) -> None:
        mm = Matchmaker(hub.database, hub, bots_after=600)
        tickets = [await mm.join(p, "whist", "127.0.0.1") for p in people]
        asked, go = held_table_making(hub)
        matching = asyncio.create_task(mm.match(max(t.since for t in tickets)))
        await asyncio.wait_for(asked.wait(), 60)  # the first group's table is being made; the second waits its turn
        assert mm.leave(people[3]) is True
        go.set()
        await matching
        assert [mm.status(p)["status"] for p in people[:3]] == ["seated"] * 3
        assert mm.status(people[3]) == {"status": "none"}
        assert all(s.user_id != people[3].id for table in hub.tables.values() for s in table.seats)
        assert [mm.status(p)["status"] for p in people[4:]] == ["waiting"] * 2  # seated with the next one to come

    run(store, scenario)
