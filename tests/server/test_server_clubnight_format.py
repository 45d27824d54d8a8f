"""Club nights as a format of the tournaments: a night made through ``POST /clubnights`` is listed by
``GET /tournaments`` beside the arenas and Swiss tournaments (format ``clubnight``, its game, rounds, status and
entrants), its status moves from open to running to over as its rounds are seated and played, and every change its
watchers see grows its version by one."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from serverkit import Client, ThreadServer
from test_server_play import play_out
from test_server_rated import account

import loopback

pytestmark = pytest.mark.backends("sqlite", "postgresql")


def listed(server: ThreadServer, night: str) -> dict[str, Any]:
    """The night's line in the lobby's list of tournaments."""
    lines = loopback.get(f"{server.base}/tournaments").json()["tournaments"]
    [line] = [t for t in lines if t["id"] == night]
    return line


def play_round(server: ThreadServer, browser: httpx.Client, night: str, token: str, number: int) -> None:
    """Play the entrant's table of the round in play to its end, then wait for the round to end at every table (the
    bot entrant's table plays by itself)."""
    seat = browser.post(f"/clubnights/{night}/seat", json={"token": token}).json()
    c = Client(server.base, seat["table"], seat["token"])
    try:
        play_out({seat["seat"]: c}, random.Random(number))
    finally:
        c.close()
    for _ in range(600):
        if browser.get(f"/clubnights/{night}").json()["played"][number - 1]["done"]:
            return
        time.sleep(0.1)
    raise AssertionError(f"round {number} did not end")


def test_a_club_night_is_listed_with_the_tournaments_open_then_running_then_over(server: ThreadServer) -> None:
    host, _, headers = account(server, "Ann")
    arena = host.post("/tournaments", json={"format": "arena", "game": "whist"}, headers=headers)
    assert arena.status_code == 201, arena.text
    made = host.post(
        "/clubnights", json={"game": "whist(target=3)", "tables": 2, "rounds": 2, "bot_delay": 0}, headers=headers
    )
    assert made.status_code == 201, made.text
    night = made.json()["id"]
    line = listed(server, night)
    assert line["format"] == "clubnight" and line["game"] == made.json()["game"] == "whist(target=3)"
    assert (line["status"], line["entrants"], line["rounds"], line["round"]) == ("open", 0, 2, 0)
    assert (line["minutes"], line["rated"], line["scheduled"], line["version"]) == (None, False, False, 1)
    assert line["name"]
    assert listed(server, arena.json()["id"])["format"] == "arena"  # listed together

    mine = host.post(f"/clubnights/{night}/enter", json={}, headers=headers).json()
    host.post(f"/clubnights/{night}/bots", headers=headers)
    line = listed(server, night)
    assert (line["status"], line["entrants"], line["version"]) == ("open", 2, 3)

    assert host.post(f"/clubnights/{night}/rounds", headers=headers).status_code == 200
    line = listed(server, night)
    assert (line["status"], line["round"], line["version"]) == ("running", 1, 4)
    assert line["starts_at"] is not None and line["ends_at"] is None
    play_round(server, host, night, mine["token"], 1)
    assert (listed(server, night)["status"], listed(server, night)["version"]) == ("running", 4)

    assert host.post(f"/clubnights/{night}/rounds", headers=headers).status_code == 200
    assert (listed(server, night)["round"], listed(server, night)["version"]) == (2, 5)
    play_round(server, host, night, mine["token"], 2)  # its page, looking, sees it over: so is its line
    line = listed(server, night)
    assert (line["status"], line["round"], line["entrants"], line["version"]) == ("over", 2, 2, 6)
    assert line["ends_at"] is not None and line["ends_at"] >= line["starts_at"]
    done = host.get(f"/clubnights/{night}").json()
    assert done["over"] is True and len(done["standings"]) == 2
    assert listed(server, night)["version"] == 6  # seen over again: nothing changed
