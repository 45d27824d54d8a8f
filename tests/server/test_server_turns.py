"""Turn-based tables over a simulated week (docs/server.md, "Turn-based tables"): three friends play whist at a
pace of a day a move; a clock runs out of each kind (a bot plays the move, the match is adjourned, the late player
loses); a player's playing hours stop her clock at night and a vacation stops another's; the server is restarted in
the middle and loses no move and no clock. The days pass on the test clock (an offset of the database's time the
server reads with ``test_clock``), never by sleeping: each wait is for a condition, with a generous bound.

Each test runs on SQLite and on PostgreSQL; ``test_two_processes_...`` runs two ``clubs serve`` processes over one
PostgreSQL database.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from serverkit import Client, ThreadServer
from turnkit import DAY, HOUR, PARIS, Message, Player, clients, later, leave, paris, play, turn_table, wait_for

import loopback
from clubsuite.records import loads_record, replay
from clubsuite.server.store.database import Store
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.dbclock import DbClock
from clubsuite.server.turns.keeper import Keeper

pytestmark = pytest.mark.backends("sqlite", "postgresql")

FAST = TurnConfig(test_clock=True, sweep_every=0.1, park_after=0.3)
"""The clocks looked at ten times a second and a quiet table parked at once: the test waits on what they do."""


def set_now(store: Store, when: float, server: ThreadServer) -> None:
    """Put the turn clocks' time at ``when`` (a moment after: real seconds go on passing), once every clock the
    server was working out is written, and wait until the server has read the new time."""
    keeper = keeper_of(server)
    wait_for(lambda: keeper.settled, 60, "the clocks to be written")
    later(store, when - DbClock(store, test=True).now())
    beats(server, 2)


def go_on(store: Store, seconds: float, server: ThreadServer) -> None:
    """Move the turn clocks' time on by ``seconds``, as :func:`set_now` does."""
    set_now(store, DbClock(store, test=True).now() + seconds, server)


def keeper_of(server: ThreadServer) -> Keeper:
    found: Keeper = server.server.config.app.state.turns
    return found


def beats(server: ThreadServer, count: int = 3) -> None:
    """Wait until the server's clocks have been looked at ``count`` more times."""
    keeper = keeper_of(server)
    start = keeper.beats
    wait_for(lambda: keeper.beats >= start + count, 60, "the clocks to be looked at")


def entry(player: Player, table: str) -> Message:
    """The table as ``player``'s "your turn" list shows it."""
    found: Message = next(e for e in player.get("/turns")["tables"] if e["id"] == table)
    return found


def log_of(store: Store, table: str) -> list[tuple[int, str]]:
    """The table's action log: (seat, source) of every action of its match in progress."""
    return [(a.seat, a.source) for a in store.actions(table, store.table(table).match_no)]  # type: ignore[union-attr]


@pytest.fixture
def friends(server: ThreadServer) -> Iterator[list[Player]]:
    people = [Player(server.base, name) for name in ("Ann", "Bob", "Cat")]
    yield people
    for p in people:
        p.close()


def parked(server: ThreadServer, table: str) -> None:
    hub = server.server.config.app.state.hub
    wait_for(lambda: table not in hub.tables, 60, "the table to be parked")


@pytest.mark.server(turn_config=FAST)
def test_a_week_of_whist_with_playing_hours_a_vacation_a_restart_and_a_bot_playing_a_late_move(
    server: ThreadServer, store: Store, friends: list[Player]
) -> None:
    ann, bob, cat = friends
    set_now(store, paris(1, 10), server)  # Monday 10:00 in Paris
    hours = {"zone": "Europe/Paris", "day_start": 9 * 60, "day_end": 21 * 60}
    assert ann.http.put("/account/turns", json=hours, headers=ann.csrf).status_code == 200
    table = turn_table(ann, [bob, cat], pace=DAY, on_timeout="bot")
    at = clients(server.base, table, friends)
    play(at, lambda m: m["to_act"] != 0)
    # Monday evening, 20:00 in Paris: the moves go round until it is Ann's turn, and her clock starts
    set_now(store, paris(1, 20), server)
    msg = play(at, lambda m: m["to_act"] == 0)
    turn = msg["turn"]
    assert turn["seat"] == 0 and turn["pace"] == DAY and turn["paused"] is None
    # a day of her clock counted in her hours, 09:00 to 21:00: 1 hour on Monday, 12 on Tuesday, 11 on Wednesday
    assert abs(turn["deadline"] - paris(3, 20)) < 120, datetime.fromtimestamp(turn["deadline"], PARIS)
    moves = len(log_of(store, table))
    at[1].send({"type": "chat", "text": "Your move, Ann: see you tomorrow"})
    at[0].until(lambda m: m["type"] == "chat")
    leave(at)
    parked(server, table)
    assert entry(ann, table)["mine"] and ann.get("/turns/count") == {"waiting": 1}
    # Tuesday 22:00: night in Paris, her clock is stopped; Wednesday 19:00: an hour left, nothing happened
    set_now(store, paris(2, 22), server)
    assert entry(bob, table)["paused"] == "night"
    set_now(store, paris(3, 19), server)
    beats(server)
    assert len(log_of(store, table)) == moves and entry(ann, table)["mine"]
    # Wednesday 20:01: her clock ran out, and her bot played her move (once)
    set_now(store, paris(3, 20, 1), server)
    wait_for(lambda: len(log_of(store, table)) > moves, 60, "the late move")
    beats(server)
    assert log_of(store, table)[moves] == (0, "timeout")
    assert [source for _, source in log_of(store, table)].count("timeout") == 1
    # Cat takes two days off; when her turn comes, her clock waits for her return
    cat.post("/account/vacations", {"days": 2}, status=201)
    at = clients(server.base, table, friends)
    back = at[0].until(lambda m: m["type"] == "state")
    assert back["away"]["updates"], "Ann is told what happened while she was away"
    assert [line["text"] for line in back["chat"]] == ["Your move, Ann: see you tomorrow"]  # kept while parked
    woken = server.server.config.app.state.hub.tables[table]
    said = back["chat"][0]["id"]
    assert woken.chat.witnessed(said, ann.get("/account")["id"])  # Ann was there: her report of it would count
    assert any(e["type"] for u in back["away"]["updates"] for e in u["events"])
    msg = play(at, lambda m: m["to_act"] == 2)
    assert msg["turn"]["paused"] == "vacation"
    cat_due = msg["turn"]["deadline"]
    assert cat_due - DbClock(store, test=True).now() > 2 * DAY + 23 * HOUR
    before = len(log_of(store, table))
    leave(at)
    parked(server, table)

    # the server stops and starts again over the same database: the clock and the moves are where they were
    server.__exit__(None, None, None)
    with ThreadServer(store, turn_config=FAST) as again:
        for p in friends:
            p.rebase(again.base)
        assert len(log_of(store, table)) == before
        assert entry(ann, table)["deadline"] == pytest.approx(cat_due)
        go_on(store, 2 * DAY, again)
        assert len(log_of(store, table)) == before, "Cat is on vacation: her clock has not run out"
        go_on(store, DAY + HOUR, again)
        wait_for(lambda: len(log_of(store, table)) > before, 60, "Cat's late move")
        assert log_of(store, table)[before] == (2, "timeout")
        # the friends play the match to its end, over the rest of the week
        at = clients(again.base, table, friends)
        last = play(at, lambda m: False)
        assert last["over"] and last["result"]["winners"]
        leave(at)
        wait_for(lambda: keeper_of(again).settled, 60, "the end to be written")
        # they saw the end at the table: no notice of it, nor once the table was put away and woken by one of them
        parked(again, table)
        back = next(iter(clients(again.base, table, [ann]).values()))
        assert back.until(lambda m: m["type"] == "state")["over"]
        leave({0: back})
        wait_for(lambda: keeper_of(again).settled, 60, "the table's clock to be written")
        for p in friends:
            assert not [n for n in p.get("/notices")["notices"] if n["kind"] == "match_over"], p.name
        # their list says how each finished, as the results do
        results = ann.get(f"/tables/{table}/results?invite={ann.invite}")
        for p, seat in zip(friends, range(3), strict=True):
            shown = entry(p, table)
            row = next(s for s in results["seats"] if s["seat"] == seat)
            assert (shown["place"], shown["of"], shown["won"]) == (row["place"], 3, row["won"]), p.name
        record = friends[0].http.get(f"/tables/{table}/record.json", params={"invite": ann.invite})
        assert replay(loads_record(record.text)).match.is_over


@pytest.mark.server(turn_config=FAST)
def test_a_clock_run_out_at_an_adjourning_table_stops_every_clock_until_a_player_goes_on(
    server: ThreadServer, store: Store, friends: list[Player]
) -> None:
    ann, bob, cat = friends
    set_now(store, paris(8, 12), server)
    table = turn_table(ann, [bob, cat], pace=12 * HOUR, on_timeout="adjourn")
    at = clients(server.base, table, friends)
    msg = play(at, lambda m: False, moves=3)
    late = msg["to_act"]
    moves = len(log_of(store, table))
    set_now(store, paris(9, 1), server)  # 13 hours later
    adjourned = at[0].until(lambda m: m["type"] == "state" and m["turn"]["adjourned"])
    assert adjourned["turn"]["deadline"] is None and adjourned["turn"]["seat"] == late
    assert len(log_of(store, table)) == moves  # nobody played for the late player
    wait_for(lambda: entry(bob, table)["adjourned"], 60, "the adjournment to be written")
    assert not entry(friends[late], table)["mine"]
    go_on(store, 5 * DAY, server)
    assert entry(ann, table)["adjourned"], "no clock runs while the match is adjourned"
    other = friends[(late + 1) % 3]
    other.post(f"/tables/{table}/turn/resume")
    resumed = at[0].until(lambda m: m["type"] == "state" and not m["turn"]["adjourned"])
    assert resumed["turn"]["seat"] == late
    assert abs(resumed["turn"]["seconds_left"] - 12 * HOUR) < 120
    play(at, lambda m: m["version"] > msg["version"])  # the late player moves: the match goes on
    leave(at)


@pytest.mark.server(turn_config=FAST)
def test_a_clock_run_out_at_a_losing_rated_table_ends_the_match_with_the_late_player_last_and_rated(
    server: ThreadServer, store: Store, friends: list[Player]
) -> None:
    ann, bob, cat = friends
    set_now(store, paris(10, 9), server)
    table = turn_table(ann, [bob, cat], pace=12 * HOUR, on_timeout="lose", rated=True)
    at = clients(server.base, table, friends)
    msg = play(at, lambda m: False, moves=4)
    late = msg["to_act"]
    leave(at)
    parked(server, table)
    set_now(store, paris(10, 21, 5), server)
    wait_for(lambda: entry(ann, table)["over"], 60, "the match to end on time")
    shown = entry(ann, table)
    assert shown["ended"] == {"lost": late} and not shown["mine"]
    results = ann.get(f"/tables/{table}/results?invite={ann.invite}")
    places = {s["seat"]: s for s in results["seats"]}
    assert places[late]["place"] == 3 and not places[late]["won"]
    assert results["rated"] and all(s["after"] is not None for s in results["seats"])
    # every friend was away: each is told the match ended, and their place, once
    wait_for(lambda: keeper_of(server).settled, 60, "the end to be told")
    for seat, friend in enumerate(friends):
        told = [n["body"] for n in friend.get("/notices")["notices"] if n["kind"] == "match_over"]
        want = (table, places[seat]["place"], 3, places[seat]["won"])
        assert [(b["table"], b["place"], b["of"], b["won"]) for b in told] == [want], friend.name
        assert not [n for n in friend.get("/notices")["notices"] if n["kind"] == "turn"]
    record = ann.http.get(f"/tables/{table}/record.json", params={"invite": ann.invite})
    assert not replay(loads_record(record.text)).match.is_over  # the record ends where the clock ran out
    at = clients(server.base, table, friends)
    state = at[late].until(lambda m: m["type"] == "state")
    assert state["over"] and state["turn"]["ended"] == {"lost": late}
    at[late].send({"type": "act", "version": state["version"], "action": "pass"})
    assert at[late].until(lambda m: m["type"] == "error")["code"] == "over"
    leave(at)


@pytest.mark.backends("sqlite")
@pytest.mark.server(turn_config=FAST)
def test_a_turn_based_table_is_made_and_joined_by_accounts_only_and_bad_settings_are_refused_by_name(
    server: ThreadServer, friends: list[Player]
) -> None:
    ann, bob, _ = friends
    guest = loopback.client(base_url=server.base, timeout=30)
    r = guest.post("/tables", json={"game": "whist", "pace": DAY})
    assert r.status_code == 401 and r.json()["code"] == "sign_in", r.text
    r = ann.http.post("/tables", json={"game": "whist", "pace": 1000}, headers=ann.csrf)
    assert r.status_code == 400 and "pace=1000" in r.json()["message"] and "2 weeks" in r.json()["message"], r.text
    r = ann.http.post("/tables", json={"game": "whist", "pace": DAY, "on_timeout": "maybe"}, headers=ann.csrf)
    assert r.status_code == 422 and "on_timeout" in r.text
    r = ann.http.post("/tables", json={"game": "whist", "pace": DAY, "clock": 30}, headers=ann.csrf)
    assert r.status_code == 400 and "no live clock" in r.json()["message"]
    made = ann.post("/tables", {"game": "whist", "pace": DAY}, status=201)
    assert made["settings"]["pace"] == DAY and made["settings"]["on_timeout"] == "bot"
    r = guest.post(f"/tables/{made['id']}/join", json={"name": "Gus"})
    assert r.status_code == 409 and r.json()["code"] == "account_needed", r.text
    ann.post(f"/tables/{made['id']}/join", {"seat": 0})
    again = ann.http.post(f"/tables/{made['id']}/join", json={"seat": 1}, headers=ann.csrf)
    assert again.status_code == 409 and again.json()["code"] == "already_seated"
    bob.post(f"/tables/{made['id']}/turn/autoplay", {"on": True}, status=409)  # no seat of his
    r = bob.http.post(f"/tables/{made['id']}/turn/autoplay", json={"on": "yes"}, headers=bob.csrf)
    assert r.status_code == 422
    guest.close()


@pytest.mark.backends("sqlite")
@pytest.mark.server(turn_config=replace(FAST, tables_per_account=1))
def test_an_account_sits_at_no_more_turn_based_tables_than_the_operator_allows(
    server: ThreadServer, friends: list[Player]
) -> None:
    ann, bob, cat = friends
    turn_table(ann, [bob, cat])
    r = ann.http.post("/tables", json={"game": "whist", "pace": DAY}, headers=ann.csrf)
    assert r.status_code == 429 and r.json()["code"] == "too_many_turn_tables", r.text
    dan = Player(server.base, "Dan")
    made = dan.post("/tables", {"game": "whist", "pace": DAY, "public": False}, status=201)
    r = bob.http.post(f"/invites/{made['invite']}/join", json={}, headers=bob.csrf)
    assert r.status_code == 429 and r.json()["code"] == "too_many_turn_tables", r.text
    dan.close()


@pytest.mark.backends("sqlite")
@pytest.mark.server(turn_config=FAST)
def test_bots_move_at_once_and_a_players_forced_moves_are_played_for_them_where_they_asked(
    server: ThreadServer, store: Store, friends: list[Player]
) -> None:
    ann = friends[0]
    made = ann.post(
        "/tables",
        {
            "game": "whist",
            "pace": DAY,
            "public": False,
            "seats": [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}],
        },
        status=201,
    )
    joined = ann.post(f"/invites/{made['invite']}/join", {})
    table = made["id"]
    ann.post(f"/tables/{table}/turn/autoplay", {"on": True})
    at = {0: Client(server.base, table, joined["token"])}
    # Ann only ever chooses where she has a choice; the bots and her forced moves go at once
    last = play(at, lambda m: False, forced=frozenset({0}))
    assert last["over"]
    sources = {source for _, source in _all_actions(store, table)}
    assert sources == {"seat", "bot", "auto"}
    leave(at)


def _all_actions(store: Store, table: str) -> list[tuple[int, str]]:
    return [(a.seat, a.source) for a in store.actions(table, 0)]


@pytest.mark.backends("sqlite")
@pytest.mark.server(turn_config=FAST)
def test_a_player_who_leaves_a_turn_based_seat_no_longer_lists_the_table(
    server: ThreadServer, friends: list[Player]
) -> None:
    ann, bob, cat = friends
    table = turn_table(ann, [bob, cat])
    assert [e["id"] for e in cat.get("/turns")["tables"]] == [table]
    cat.post(f"/tables/{table}/leave", {"token": cat.token})
    wait_for(lambda: not cat.get("/turns")["tables"], 60, "the table to leave Cat's list")
    assert [e["id"] for e in ann.get("/turns")["tables"]] == [table]


@pytest.mark.backends("sqlite")
def test_a_vacation_taken_through_another_process_stops_the_clock_of_the_process_holding_the_table(
    tmp_path: Path,
) -> None:
    here, there = Store.in_directory(tmp_path), Store.in_directory(tmp_path)
    quiet = replace(FAST, sweep_every=3600.0, park_after=3600.0)  # the other process never looks at the clocks
    holder = replace(FAST, park_after=3600.0)
    with ThreadServer(there, turn_config=quiet) as b, ThreadServer(here, turn_config=holder) as a:
        friends = [Player(a.base, n) for n in ("Ann", "Bob", "Cat")]
        ann, bob, cat = friends
        table = turn_table(ann, [bob, cat], pace=DAY, on_timeout="lose")
        at = clients(a.base, table, friends)
        due = play(at, lambda m: m["to_act"] == 1)["turn"]["deadline"]
        leave(at)
        wait_for(lambda: keeper_of(a).settled, 60, "the clock to be written")
        bob.rebase(b.base)  # Bob's requests reach the other process: he takes three days off there
        bob.post("/account/vacations", {"days": 3}, status=201)
        bob.rebase(a.base)
        wait_for(lambda: entry(bob, table)["deadline"] > due + 2.9 * DAY, 60, "the stored clock to move on")
        beats(a, 3)
        back = Client(a.base, table, bob.token)
        state = back.until(lambda m: m["type"] == "state")
        assert state["turn"]["paused"] == "vacation" and state["turn"]["deadline"] > due + 2.9 * DAY
        back.close()  # the holding process writes its clock again: the vacation stays in it
        wait_for(lambda: keeper_of(a).settled, 60, "the clock to be written")
        set_now(here, due + 60, a)
        beats(a, 3)
        shown = entry(ann, table)
        assert not shown["over"] and shown["deadline"] > due + 2.9 * DAY
        for p in friends:
            p.close()
    here.close()
    there.close()


@pytest.mark.backends("sqlite")
@pytest.mark.server(turn_config=replace(FAST, park_after=1.0))
def test_a_request_arriving_while_the_table_is_put_away_wakes_it_again(
    server: ThreadServer, store: Store, friends: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob, cat = friends
    set_now(store, paris(12, 9), server)
    table = turn_table(ann, [bob, cat], pace=12 * HOUR, on_timeout="adjourn")
    at = clients(server.base, table, friends)
    play(at, lambda m: False, moves=3)
    go_on(store, 13 * HOUR, server)
    at[0].until(lambda m: m["type"] == "state" and m["turn"]["adjourned"])
    parking = threading.Event()
    real = store.park

    def slow_park(table_id: str, parked: bool) -> None:  # the database is slow to answer, as it may be
        if parked:
            parking.set()
            time.sleep(1.0)
        real(table_id, parked)

    monkeypatch.setattr(store, "park", slow_park)
    leave(at)
    assert parking.wait(60)
    # requests about it while it is being put away: answered as if nothing happened (the park gives way to them)
    r = bob.http.post(f"/tables/{table}/turn/resume", headers=bob.csrf)
    assert r.status_code == 200 and r.json()["adjourned"] is False, r.text
    seen = bob.http.get(f"/tables/{table}", params={"invite": bob.invite})
    assert seen.status_code == 200 and seen.json()["id"] == table, seen.text
    assert not entry(ann, table)["adjourned"]


@pytest.mark.backends("sqlite")
@pytest.mark.server(turn_config=replace(FAST, tables_per_account=1))
def test_a_table_that_waits_for_its_players_a_week_is_closed_and_counts_against_its_makers_share_till_then(
    server: ThreadServer, store: Store, friends: list[Player]
) -> None:
    ann, bob, _ = friends
    set_now(store, paris(20, 9), server)
    made = ann.post("/tables", {"game": "whist", "pace": DAY}, status=201)  # public, and she sits nowhere
    r = ann.http.post("/tables", json={"game": "whist", "pace": DAY}, headers=ann.csrf)
    assert r.status_code == 429 and r.json()["code"] == "too_many_turn_tables", r.text
    assert made["id"] in [t["id"] for t in bob.get("/tables")]
    go_on(store, 6 * DAY, server)
    assert made["id"] in [t["id"] for t in bob.get("/tables")]
    go_on(store, DAY + HOUR, server)
    wait_for(lambda: made["id"] not in [t["id"] for t in bob.get("/tables")], 60, "the table to be closed")
    ann.post("/tables", {"game": "whist", "pace": DAY}, status=201)  # her share is free again
