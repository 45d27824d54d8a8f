"""The guided first hand (``POST /tutorial``) on a real server: for every game, a new private table without
spectators, the coach on, the person in seat 0 and easy bots in the others, dealt the same tutorial deal every
time; refusals over the protocol carry their reason as data (code, ruling, parameters) beside the English; bad
input is a 4xx that makes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from serverkit import Client, ThreadServer, get, post

import loopback
from clubsuite.engine import games
from clubsuite.reasons import templates


def first_state(server: ThreadServer, seated: dict[str, Any]) -> dict[str, Any]:
    client = Client(server.base, seated["table"], seated["token"])
    try:
        state: dict[str, Any] = client.until(lambda m: m["type"] == "state")
        return state
    finally:
        client.close()


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_the_guided_first_hand_is_a_private_coached_table_with_easy_bots_and_the_same_deal_every_time(
    server: ThreadServer, game: str
) -> None:
    hands = []
    for name in ("Ann", "Bob"):
        seated = post(server.base, "/tutorial", {"game": game, "name": name})
        assert set(seated) == {"table", "seat", "token"} and seated["seat"] == 0
        r = loopback.get(f"{server.base}/tables/{seated['table']}", timeout=30)
        assert r.status_code == 404, "a private table is not shown to whoever knows its id"
        live = server.server.config.app.state.hub.tables[seated["table"]]
        assert live.settings.coach and not live.settings.public and not live.settings.spectators
        assert [s.kind for s in live.seats] == ["person"] + ["bot"] * (len(live.seats) - 1)
        assert {s.bot for s in live.seats[1:]} == {"easy"}
        hands.append(live.match.hands[0].deal.to_json())
        assert seated["table"] not in {t["id"] for t in get(server.base, "/tables")}
    assert hands[0] == hands[1]


def test_a_tutorial_for_no_such_game_or_a_bad_name_is_refused_and_makes_nothing(server: ThreadServer) -> None:
    before = len(server.server.config.app.state.hub.tables)
    for body in ({"game": "chess", "name": "Ann"}, {"game": "whist", "name": "<b>"}, {"game": "whist"}):
        r = loopback.post(server.base + "/tutorial", json=body, timeout=30)
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
        assert "Traceback" not in r.text
    assert len(server.server.config.app.state.hub.tables) == before


def test_a_refused_action_carries_its_reason_code_ruling_and_cards_beside_the_english(server: ThreadServer) -> None:
    seated = post(server.base, "/tutorial", {"game": "whist", "name": "Ann"})
    client = Client(server.base, seated["table"], seated["token"])
    try:
        state = client.until(lambda m: m["type"] in ("state", "update") and m.get("to_act") == 0, timeout=120)
        legal = set(state["legal"])
        wrong = next(f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA" if f"{r}{s}" not in legal)
        client.send({"type": "act", "protocol": 1, "action": wrong, "version": state["version"]})
        err = client.until(lambda m: m["type"] == "error")
        reason = err["reason"]
        assert reason["code"] in templates() and err["message"]
        nested = [v.get("rule") for v in reason["params"].values() if isinstance(v, dict) and v.get("rule")]
        assert reason["rule"] == (templates()[reason["code"]].rule or (nested[0] if nested else None))
        assert isinstance(reason["params"], dict)
    finally:
        client.close()
