"""A player's own puzzles on a real server: after a finished match, the decisions its player missed become puzzles
of theirs (those the same judges find in the record, and no others), made once and kept, asked for only by the
account that played the seat, private to it until shared, played unrated; every refusal changes nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browserkit import seeded_table
from serverkit import Client, ThreadServer
from sqlalchemy import func, select
from test_server_play import play_out
from test_server_puzzles import HIDDEN, keys

import loopback
from clubsuite.puzzles.fromrecords import record_puzzles
from clubsuite.puzzles.make import MakeSettings
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import own_puzzle_sources, own_puzzles

PASSWORD = "correct horse battery"
GAME = "whist(target=1)"
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadServer, Store]]:
    store = Store.in_directory(tmp_path_factory.mktemp("own-puzzles"))
    with ThreadServer(store) as running:
        yield running, store


def account(server: ThreadServer, name: str) -> httpx.Client:
    """A browser signed in to a new account, sending its CSRF token with every request."""
    b = loopback.client(base_url=server.base, timeout=300)
    r = b.post("/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    b.headers["X-CSRF-Token"] = r.json()["csrf"]
    return b


def played(server: ThreadServer, b: httpx.Client, seed: int) -> str:
    """A match of ``b``'s account at seat 0 against two random bots, dealt from ``seed`` and played at random (from
    the same seed) to its end; the table. The bots play at once (``bot_delay=0``): their pause before each action
    is for people watching, and their choices follow from the seed whatever it is."""
    table = seeded_table(server, GAME, [{"kind": "person"}, *BOTS], seed, bot_delay=0.0)
    r = b.post(f"/tables/{table}/join", json={})
    assert r.status_code == 200, r.text
    client = Client(server.base, table, r.json()["token"])
    try:
        play_out({0: client}, random.Random(4))
    finally:
        client.close()
    return str(table)


def refused(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["code"] == code, r.json()
    return str(r.json()["message"])


def count(store: Store, table: Any) -> int:
    return int(store.read(select(func.count()).select_from(table))[0][0])


def test_a_player_makes_puzzles_of_the_decisions_they_missed_once_and_plays_them_unrated(
    site: tuple[ThreadServer, Store],
) -> None:
    server, store = site
    ann, bob, guest = account(server, "Ann"), account(server, "Bob"), loopback.client(base_url=server.base, timeout=60)
    table = played(server, ann, 5)  # a deal where Ann misses a clear best play
    ask = {"seat": 0, "match": 0}
    refused(bob.post(f"/tables/{table}/puzzles", json=ask), 403, "not_yours")  # not Bob's seat
    refused(ann.post(f"/tables/{table}/puzzles", json={"seat": 1, "match": 0}), 403, "not_yours")  # a bot's
    refused(guest.post(f"/tables/{table}/puzzles", json=ask), 401, "signed_out")
    refused(ann.post(f"/tables/{table}/puzzles", json={"seat": 0}), 422, "bad_request")
    assert count(store, own_puzzle_sources) == 0
    made = ann.post(f"/tables/{table}/puzzles", json=ask)
    assert made.status_code == 200, made.text
    first = made.json()
    assert first["made"] is True and first["puzzles"]
    record = ann.get(f"/tables/{table}/record.json?match=0").json()
    expected = record_puzzles(record, MakeSettings(variant=""), seats={0}, missed_only=True)
    assert sorted(p["id"] for p in first["puzzles"]) == sorted(p.id for p in expected)  # the judges' own, no other
    again = ann.post(f"/tables/{table}/puzzles", json=ask).json()
    assert again == {**first, "made": False} and count(store, own_puzzle_sources) == 1  # looked at once
    mine = ann.get("/puzzles/mine").json()
    assert sorted(p["id"] for p in mine) == sorted(p["id"] for p in first["puzzles"])
    own = first["puzzles"][0]
    puzzle = next(p for p in expected if p.id == own["id"])
    path = f"/puzzles/{own['pool']}/{own['id']}"
    shown = ann.get(path).json()
    assert shown["own"] is True and not keys(shown) & HIDDEN, keys(shown) & HIDDEN
    assert shown["seats"][1] != "Bob" and None in shown["seats"]  # named as every puzzle's table is
    refused(bob.get(path), 404, "no_puzzle")  # private
    refused(guest.get(path), 404, "no_puzzle")
    tried = ann.post(f"{path}/attempt", json={"action": puzzle.solution}).json()
    assert tried["right"] is True and tried["attempt"]["mode"] == "own" and tried["attempt"]["rated"] is False
    refused(bob.post(f"/puzzles/mine/{own['id']}/share", json={"shared": True}), 404, "no_puzzle")
    assert ann.post(f"/puzzles/mine/{own['id']}/share", json={"shared": True}).json()["shared"] is True
    assert guest.get(path).json()["id"] == own["id"]  # shared: anyone with its link plays it
    assert bob.post(f"{path}/attempt", json={"action": puzzle.solution}).json()["attempt"]["rated"] is False
    assert ann.post(f"/puzzles/mine/{own['id']}/share", json={"shared": False}).status_code == 200
    refused(guest.get(path), 404, "no_puzzle")
    assert count(store, own_puzzles) == len(first["puzzles"])
