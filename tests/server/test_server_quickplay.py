"""Quick play (``POST /quickplay``) on a real server: a person is seated at a public table of the game that waits
for players, or else at a new table with bots in the other seats, whose match starts at once; bad input is refused
with a clear 4xx and makes nothing; quick play counts against the rates of making tables and taking seats. And the
lobby's list names each table in words, with its host, its rules and its spectators."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import httpx
import pytest
from serverkit import ROOMY, Client, ThreadServer, get, new_table, post, wait_until

import loopback
from clubsuite.server.limits import ServerLimits
from clubsuite.server.store.database import Store
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub


def quick(server: ThreadServer, game: str, name: str) -> dict[str, Any]:
    """Quick play, which must seat the person: the answer."""
    answer: dict[str, Any] = post(server.base, "/quickplay", {"game": game, "name": name})
    assert set(answer) == {"table", "seat", "token"}
    return answer


def refused(r: httpx.Response, status: int, code: str) -> str:
    """Check a refusal: its status and code; its message."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["code"] == code, r.json()
    return str(r.json()["message"])


def waiting_table(server: ThreadServer, game: str, people: int, bots: int, **settings: Any) -> str:
    """A table of ``people`` free person's seats then ``bots`` bots, waiting for players."""
    seats = [{"kind": "person"}] * people + [{"kind": "bot", "bot": "random"}] * bots
    return str(new_table(server.base, game, seats, **settings)["id"])


def test_with_no_table_waiting_quick_play_makes_one_with_normal_bots_and_its_match_starts(
    server: ThreadServer,
) -> None:
    seated = quick(server, "whist", "Ann")
    assert seated["seat"] == 0
    table = get(server.base, f"/tables/{seated['table']}")
    assert [s["kind"] for s in table["seats"]] == ["person", "bot", "bot"]
    assert table["seats"][0]["name"] == "Ann" and not table["waiting"] and table["settings"]["public"]
    assert (table["name"], table["host"], table["rules"]) == ("Ann's Whist Clubs", "Ann", [])
    hub = server.server.config.app.state.hub
    assert [s.bot for s in hub.tables[seated["table"]].seats[1:]] == ["normal", "normal"]
    client = Client(server.base, seated["table"], seated["token"])
    try:
        state = client.until(lambda m: m["type"] == "state")
        assert state["seat"] == 0 and state["view"]["seat"] == 0
        wait_until(lambda: get(server.base, f"/tables/{seated['table']}")["version"] > 0, 30, "the bots never acted")
    finally:
        client.close()
    again = quick(server, "whist", "Bob")  # that table is full: another one
    assert again["table"] != seated["table"] and again["seat"] == 0


def test_quick_play_takes_a_free_seat_at_a_public_table_of_the_game_waiting_for_players(server: ThreadServer) -> None:
    private = waiting_table(server, "whist", 2, 1, public=False)
    other_game = waiting_table(server, "free", 2, 1)
    table = waiting_table(server, "whist", 2, 1)
    post(server.base, f"/tables/{table}/join", {"name": "Ann"})
    seated = quick(server, "whist", "Bob")
    assert (seated["table"], seated["seat"]) == (table, 1)
    info = get(server.base, f"/tables/{table}")
    assert [s["name"] for s in info["seats"][:2]] == ["Ann", "Bob"] and not info["waiting"]
    assert info["host"] == "Ann" and info["name"] == "Ann's Whist Clubs"
    assert get(server.base, f"/tables/{other_game}")["free_seats"] == [0, 1]
    assert server.server.config.app.state.hub.tables[private].waiting  # a private table is never offered


def test_a_games_name_takes_a_table_of_it_with_any_rules_and_a_spec_only_one_with_those_rules(
    server: ThreadServer,
) -> None:
    wild = waiting_table(server, "northstar(wild_fifteens=true)", 3, 1)
    assert quick(server, "northstar-crazy", "Ann")["table"] != wild  # other rules: a new table
    assert quick(server, "northstar-wild", "Bob")["table"] == wild  # the same rules, by the variant's name
    assert quick(server, "northstar", "Cy")["table"] == wild  # the game's name: any of its tables
    info = get(server.base, f"/tables/{wild}")
    assert info["name"] == "Bob's CLUBS, 4 players, wild 15s" and info["rules"] == ["wild 15s"]


def test_quick_play_prefers_a_table_quick_play_made_then_the_one_waiting_longest(server: ThreadServer) -> None:
    older, newer, newest = (waiting_table(server, "whist", 3, 0) for _ in range(3))
    assert quick(server, "whist", "Ann")["table"] == older
    server.server.config.app.state.hub.seating.quick.add(newest)  # as if quick play had made it
    assert quick(server, "whist", "Bob")["table"] == newest
    assert quick(server, "whist", "Cy")["table"] == newest  # still first, while it has a free seat
    assert get(server.base, f"/tables/{newer}")["free_seats"] == [0, 1, 2]


def test_a_table_where_someone_goes_by_a_name_like_yours_is_passed_over(server: ThreadServer) -> None:
    table = waiting_table(server, "whist", 2, 1)
    post(server.base, f"/tables/{table}/join", {"name": "Ann"})
    assert quick(server, "whist", "ann")["table"] != table
    assert get(server.base, f"/tables/{table}")["free_seats"] == [1]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "name": "Ann"}, 400, "unknown game or variant"),
        ({"game": "northstar(players=9)", "name": "Ann"}, 400, "players"),
        ({"game": "whist", "name": ""}, 400, "display name"),
        ({"game": "whist", "name": "<b>Ann</b>"}, 400, "display name"),
        ({"game": "whist"}, 422, "name"),
        ({"game": "whist", "name": 7}, 422, "name"),
        ({"game": "whist", "name": "Ann", "seat": 1}, 422, "seat"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message_and_makes_no_table(
    server: ThreadServer, body: dict[str, Any], status: int, words: str
) -> None:
    r = loopback.post(server.base + "/quickplay", json=body)
    assert words in refused(r, status, "bad_request")
    assert get(server.base, "/tables") == []


@pytest.mark.server(limits=replace(ROOMY, create_rate="3/minute"))
def test_quick_play_counts_as_making_a_table(server: ThreadServer) -> None:
    for name in ("Ann", "Bob", "Cy"):
        quick(server, "whist", name)
    r = loopback.post(server.base + "/quickplay", json={"game": "whist", "name": "Di"})
    assert "new tables" in refused(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) >= 1
    assert len(get(server.base, "/tables")) == 3


@pytest.mark.server(limits=replace(ROOMY, join_rate="2/minute"))
def test_quick_play_counts_as_taking_a_seat(server: ThreadServer) -> None:
    table = waiting_table(server, "whist", 3, 0)
    quick(server, "whist", "Ann")
    quick(server, "whist", "Bob")
    r = loopback.post(server.base + "/quickplay", json={"game": "whist", "name": "Cy"})
    assert "seats taken" in refused(r, 429, "rate_limited")
    assert get(server.base, f"/tables/{table}")["free_seats"] == [2]


@pytest.mark.server(limits=replace(ROOMY, tables_per_address=2))
def test_quick_play_makes_no_more_tables_than_an_address_may_have(server: ThreadServer) -> None:
    quick(server, "whist", "Ann")
    quick(server, "whist", "Bob")
    r = loopback.post(server.base + "/quickplay", json={"game": "whist", "name": "Cy"})
    refused(r, 429, "too_many_tables")


def test_the_list_names_each_table_with_its_host_rules_and_spectators(server: ThreadServer) -> None:
    table = waiting_table(server, "northstar-teams(double_or_nothing=true)", 2, 2)
    listed = get(server.base, "/tables")[0]
    assert listed["host"] is None and listed["spectators"] == 0
    assert listed["name"] == "A CLUBS table, 4 players, two teams of two, double or nothing"
    assert listed["rules"] == ["two teams of two", "double or nothing"]
    post(server.base, f"/tables/{table}/join", {"name": "Ann", "seat": 1})
    post(server.base, f"/tables/{table}/join", {"name": "Bob", "seat": 0})
    assert get(server.base, f"/tables/{table}")["host"] == "Bob"  # the lowest seat taken
    watchers = [Client(server.base, table) for _ in range(2)]
    try:
        for w in watchers:
            w.until(lambda m: m["type"] == "state")
        assert get(server.base, "/tables")[0]["spectators"] == 2
        watchers[0].close()
        wait_until(lambda: get(server.base, "/tables")[0]["spectators"] == 1, 15, "the spectator gone was counted")
    finally:
        for w in watchers:
            w.close()


def _listed(table_id: str, game: str = "whist", **changed: Any) -> dict[str, Any]:
    """A lobby entry as another process publishes it: public, unrated, waiting, seat 1 free; ``changed`` overrides."""
    entry: dict[str, Any] = {
        "id": table_id,
        "game": game,
        "waiting": True,
        "free_seats": [1],
        "over": False,
        "settings": {"public": True, "rated": False},
    }
    return {**entry, **changed}


def test_quick_play_across_processes_takes_only_a_listed_table_it_would_take_here() -> None:
    """Where several processes serve the site, a table another process lists is chosen by the same rules as one of
    this process: public, not rated, waiting with a free person's seat, of the game (any rules) or exactly the rules
    asked; the one waiting longest first; a game that does not exist is answered here (refused in words)."""
    store = Store("sqlite://")
    try:
        _choose_as_here(Hub(Database(store), ServerLimits(), None))
    finally:
        store.close()


def _choose_as_here(hub: Hub) -> None:
    """The checks of the test above, on a hub with no table of its own."""
    older, newer = (1.0, _listed("older")), (2.0, _listed("newer"))
    assert hub.seating.quick_elsewhere("whist", [newer, older]) == "older"
    assert hub.seating.quick_elsewhere("whist", [(1.0, _listed("nine", "whist(target=9)"))]) == "nine"  # any rules
    assert hub.seating.quick_elsewhere("whist(target=9)", [older]) is None  # exactly those rules
    assert hub.seating.quick_elsewhere("whist(target=9)", [(1.0, _listed("nine", "whist(target=9)"))]) == "nine"
    assert hub.seating.quick_elsewhere("free", [older]) is None  # another game
    for unfit in (
        _listed("t", waiting=False),
        _listed("t", free_seats=[]),
        _listed("t", over=True),
        _listed("t", settings={"public": False, "rated": False}),
        _listed("t", settings={"public": True, "rated": True}),
        _listed("t", settings="public"),
    ):
        assert hub.seating.quick_elsewhere("whist", [(1.0, unfit)]) is None, unfit
    for bad in ("no such game", None, 7, "x" * 300):
        assert hub.seating.quick_elsewhere(bad, [older]) is None


def test_the_lobby_counts_the_people_seated_at_tables_in_play_private_ones_too_and_never_names_them(
    server: ThreadServer,
) -> None:
    assert get(server.base, "/presence") == {"people": 0, "tables": 0}
    quick(server, "whist", "Ann")
    seats = [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "random"}]
    invite = new_table(server.base, "whist", seats, public=False)["invite"]
    post(server.base, f"/invites/{invite}/join", {"name": "Bob"})
    post(server.base, f"/invites/{invite}/join", {"name": "Cleo"})
    waiting_table(server, "whist", 2, 1)  # nobody seated: not counted
    counted = get(server.base, "/presence")
    assert counted == {"people": 3, "tables": 2}  # Ann's table, and Bob and Cleo's private one
