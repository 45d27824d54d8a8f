"""Club nights under requests at once: every entry answered with a token is listed and seated, and the ones refused
are told why (the night is full, a look-alike name entered first, the round has begun); a round started twice at
once is seated once. On SQLite and on PostgreSQL, through a real server and through two server processes' club
nights over one database (whose in-process locks cannot see each other: what keeps them right is the database)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from serverkit import ThreadServer, in_own_loop
from test_server_rated import account

import loopback
from clubsuite.server.community.clubnight import ClubNights, NightSettings
from clubsuite.server.people.accounts import User
from clubsuite.server.store.database import Store
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused

HOST = User("host-id", "Host", 0.0, False)

pytestmark = [pytest.mark.backends("sqlite", "postgresql"), pytest.mark.server(trusted=("127.0.0.1",))]
"""The same tests on SQLite and on PostgreSQL, the server behind a trusted proxy on loopback: each request names its
own client address (X-Forwarded-For)."""


def enter_at_once(server: ThreadServer, night: str, names: list[str]) -> list[httpx.Response]:
    """``POST /clubnights/{night}/enter`` for every name at once, each from an address of its own."""

    async def main() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=len(names))
        async with loopback.async_client(base_url=server.base, timeout=120, limits=limits) as client:
            return list(
                await asyncio.gather(
                    *(
                        client.post(
                            f"/clubnights/{night}/enter",
                            json={"name": name},
                            headers={"X-Forwarded-For": f"10.1.{k // 200}.{k % 200 + 1}"},
                        )
                        for k, name in enumerate(names)
                    )
                )
            )

    return in_own_loop(main)


def new_night(server: ThreadServer, tables: int) -> tuple[httpx.Client, dict[str, str], str]:
    """A host's browser, its CSRF header and a new whist club night of ``tables`` tables."""
    host, _, headers = account(server, "Ann")
    made = host.post("/clubnights", json={"game": "whist(target=3)", "tables": tables, "bot_delay": 0}, headers=headers)
    assert made.status_code == 201, made.text
    return host, headers, made.json()["id"]


def test_fifty_entries_at_once_are_all_listed_and_seated(server: ThreadServer) -> None:
    host, headers, night = new_night(server, 20)  # 60 seats
    names = [f"Entrant {k}" for k in range(50)]
    answers = enter_at_once(server, night, names)
    assert [a.status_code for a in answers] == [200] * 50, [a.text for a in answers if a.status_code != 200]
    listed = host.get(f"/clubnights/{night}").json()["entrants"]
    assert sorted(listed) == sorted(names)
    started = host.post(f"/clubnights/{night}/rounds", headers=headers)
    assert started.status_code == 200, started.text
    places = set()
    for answer in answers:
        seat = host.post(f"/clubnights/{night}/seat", json={"token": answer.json()["token"]})
        assert seat.status_code == 200, seat.text
        places.add((seat.json()["table"], seat.json()["seat"]))
    assert len(places) == 50  # each at a seat of their own


def test_more_entries_at_once_than_seats_fill_the_night_and_the_rest_are_told_it_is_full(
    server: ThreadServer,
) -> None:
    host, _, night = new_night(server, 2)  # 6 seats
    names = [f"Entrant {k}" for k in range(12)]
    answers = enter_at_once(server, night, names)
    taken = [n for n, a in zip(names, answers, strict=True) if a.status_code == 200]
    refused = [a.json() for a in answers if a.status_code != 200]
    assert len(taken) == 6
    assert {a.status_code for a in answers if a.status_code != 200} == {409}
    assert {r["code"] for r in refused} == {"full"} and all("taken" in r["message"] for r in refused)
    assert sorted(host.get(f"/clubnights/{night}").json()["entrants"]) == sorted(taken)


def test_look_alike_names_entered_at_once_let_one_in_and_tell_the_others_why(server: ThreadServer) -> None:
    host, _, night = new_night(server, 4)
    names = ["Bob", "bob", "BOB", "B.o.b", "b o b", "ВОВ", "B0b", "bob.", "B-ob", "B_ob"]  # ВОВ: Cyrillic letters
    answers = enter_at_once(server, night, names)
    assert [a.status_code for a in answers].count(200) == 1
    assert {a.json()["code"] for a in answers if a.status_code != 200} == {"name_taken"}
    assert len(host.get(f"/clubnights/{night}").json()["entrants"]) == 1


# -- two server processes over one database -------------------------------------------------------------------------
def two_processes(store: Store, scenario: Callable[[ClubNights, ClubNights], Awaitable[None]]) -> None:
    """Run ``scenario`` with the club nights of two hubs over ``store``, as two server processes sharing a database:
    each has its own in-process state and locks, so only the database keeps their writes apart."""

    async def main() -> None:
        hubs = [Hub(Database(store)), Hub(Database(store))]
        for hub in hubs:
            await hub.start()
        try:
            await scenario(ClubNights(hubs[0].database, hubs[0]), ClubNights(hubs[1].database, hubs[1]))
        finally:
            for hub in hubs:
                await hub.stop()

    in_own_loop(main)


def settings(tables: int) -> NightSettings:
    return NightSettings.read("whist(target=3)", tables, 2, "random", "normal", 0.0)


def test_entries_through_two_processes_at_once_are_all_listed(store: Store) -> None:
    async def scenario(a: ClubNights, b: ClubNights) -> None:
        night = await a.create(HOST, settings(20))
        entered = await asyncio.gather(*((a, b)[k % 2].enter(night, f"Entrant {k}", None) for k in range(50)))
        assert len({token for _, token in entered}) == 50
        assert sorted((await b.view(night))["entrants"]) == sorted(f"Entrant {k}" for k in range(50))

    two_processes(store, scenario)


def test_a_round_started_at_two_processes_at_once_is_seated_once(store: Store) -> None:
    async def scenario(a: ClubNights, b: ClubNights) -> None:
        night = await a.create(HOST, settings(2))
        tokens = [(await a.enter(night, name, None))[1] for name in ("Bob", "Cleo", "Dan")]
        outcomes = await asyncio.gather(a.start_round(night, HOST), b.start_round(night, HOST), return_exceptions=True)
        refused = [o for o in outcomes if isinstance(o, Refused)]
        assert len(refused) == 1 and outcomes.count(None) == 1, outcomes
        assert refused[0].code == "round_in_play"
        assert len((await a.view(night))["played"]) == 1
        winner, loser = (a, b) if outcomes[0] is None else (b, a)
        assert loser.hub.tables == {}  # the tables the refused start made were closed again
        seats = [await winner.seat_of(night, t) for t in tokens]
        assert all(s is not None and "table" in s for s in seats), seats

    two_processes(store, scenario)


def test_an_entry_while_the_first_round_is_seated_is_seated_too(store: Store) -> None:
    async def scenario(a: ClubNights, b: ClubNights) -> None:
        night = await a.create(HOST, settings(2))
        tokens = [(await a.enter(night, name, None))[1] for name in ("Bob", "Cleo")]
        entered = asyncio.Event()
        make = a.hub.create_table

        async def slow_create(*args: Any, **kwargs: Any) -> Any:
            await entered.wait()  # the first table is made only once the late entry is in
            return await make(*args, **kwargs)

        a.hub.create_table = slow_create  # type: ignore[method-assign]

        async def late_entry() -> str:
            try:
                return (await b.enter(night, "Dan", None))[1]
            finally:
                entered.set()

        _, late = await asyncio.gather(a.start_round(night, HOST), late_entry())
        view = await a.view(night)
        assert sorted(view["entrants"]) == ["Bob", "Cleo", "Dan"]
        seated = [name for table in view["played"][0]["tables"] for name in table if name is not None]
        assert sorted(seated) == ["Bob", "Cleo", "Dan"]
        for token in [*tokens, late]:
            seat = await a.seat_of(night, token)
            assert seat is not None and "table" in seat, seat

    two_processes(store, scenario)
