"""Whole matches of every game through the protocol: people (WebSocket test clients choosing random legal actions)
and bots at one table, a spectator watching, and the stored record replaying to the same totals."""

from __future__ import annotations

import json
import random

import pytest
from serverkit import Client, Message, ThreadServer, arrivals, get, new_table, post

from clubsuite.records import replay
from clubsuite.server.store.database import Store
from pgcluster import Cluster

GAMES = [
    ("whist(target=2)", 3),
    ("free(target=20)", 3),
    ("partnership(target=20)", 4),
    ("northstar(players=2, target=10)", 2),
    ("northstar(players=6, target=10)", 6),
    ("northstar(players=4, teams=2x2, target=10)", 4),
]


WATCH = False


def play_out(people: dict[int, Client], rng: random.Random, seconds: float = 300) -> Message:
    """Let each person act whenever a message says it is their turn (a random legal action) until the match is
    over; the message that says it is over."""
    for seat, client in people.items():  # a turn already announced
        if client.messages and client.last_state()["to_act"] == seat and not client.last_state()["over"]:
            last = client.last_state()
            client.send({"type": "act", "action": rng.choice(last["legal"]), "version": last["version"]})
    for seat, msg in arrivals(people, seconds):
        if msg["type"] in ("state", "update"):
            if msg["over"]:
                return msg
            if msg["to_act"] == seat and msg["legal"]:
                people[seat].send({"type": "act", "action": rng.choice(msg["legal"]), "version": msg["version"]})
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_every_game_plays_to_the_end_with_people_and_bots_and_its_record_replays(
    server: ThreadServer, game: str, n: int
) -> None:
    seats = [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "random"}] * (n - 2)
    table = new_table(server.base, game, seats)
    tokens = [post(server.base, f"/tables/{table['id']}/join", {"name": f"player {i}"})["token"] for i in range(2)]
    people = {i: Client(server.base, table["id"], tokens[i]) for i in range(2)}
    watcher = Client(server.base, table["id"]) if WATCH else people[0]
    try:
        end = play_out(people, random.Random(len(game)))
        if WATCH:
            watcher.until(lambda m: m.get("over") is True)
    finally:
        for c in (*people.values(), watcher):
            c.close()
    record = get(server.base, f"/tables/{table['id']}/record.json")
    result = replay(record)
    assert result.match.is_over
    assert list(result.match.totals) == end["view"]["totals"]
    assert json.loads(json.dumps(record)) == record


def test_a_match_over_postgresql_plays_to_the_end_and_a_new_server_resumes_its_tables(postgres: Cluster) -> None:
    url = postgres.new_database()
    with ThreadServer(Store(url)) as first:
        table = new_table(first.base, "whist(target=2)", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
        token = post(first.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
        client = Client(first.base, table["id"], token)
        seen = client.until(lambda m: m["type"] in ("state", "update") and m["to_act"] == 0)
        client.close()
    with ThreadServer(Store(url)) as second:
        back = Client(second.base, table["id"], token)
        state = back.until(lambda m: m["type"] == "state")
        assert state["version"] == seen["version"] and state["view"] == seen["view"]
        end = play_out({0: back}, random.Random(1))
        back.close()
        record = get(second.base, f"/tables/{table['id']}/record.json")
    assert list(replay(record).match.totals) == end["view"]["totals"]
