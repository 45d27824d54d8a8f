"""The table protocol and the lobby: refusals that change nothing, limits, seats and tokens, coming back, bots
taking over, the turn clock, rematches and records. Every message the clients receive is checked against its
JSON Schema."""

from __future__ import annotations

import time
from typing import Any

import pytest
from serverkit import (
    Client,
    Message,
    ThreadServer,
    arrivals,
    get,
    my_turn,
    new_table,
    post,
    seated,
    validate,
    wait_until,
)

from clubsuite.server.table import live
from clubsuite.server.table import settings as settings_module
from clubsuite.server.table.schemas import CLIENT, SERVER


def checked(client: Client) -> list[Message]:
    """Every message ``client`` received, each validated against the schema of its type."""
    for msg in client.messages:
        validate(msg, SERVER[msg["type"]])
    return client.messages


def play_until(players: dict[int, Client], check: Any, timeout: float = 30) -> Message:
    """Let each client play its seat (its first legal action each time) until a message to any of them satisfies
    ``check``; that message."""
    for seat, client in players.items():  # a turn already announced
        if client.messages:
            last = client.last_state()
            if last["to_act"] == seat and not last["over"]:
                client.send({"type": "act", "action": last["legal"][0], "version": last["version"]})
    for seat, msg in arrivals(players, timeout):
        if check(msg):
            return msg
        if msg["type"] in ("state", "update") and msg["to_act"] == seat and not msg["over"]:
            players[seat].send({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
    raise AssertionError("no such message")


def test_a_hello_gets_welcome_and_the_state_of_the_seat_only(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    welcome, state = c.recv(), c.recv()
    assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["role"] == "seat"
    assert state["type"] == "state" and state["seat"] == 0 and state["view"]["seat"] == 0
    assert state["table"]["seats"][0]["name"] == "p0" and state["table"]["seats"][0]["connected"]
    c.close()
    checked(c)


def test_an_illegal_action_is_refused_with_the_rule_and_nothing_changes(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    turn = my_turn(c)
    c.send({"type": "act", "action": "not-a-card", "version": turn["version"]})
    refused = c.until(lambda m: m["type"] == "error")
    assert refused["code"] == "illegal" and "not-a-card" in refused["message"]
    held = set(turn["view"]["hand"].split())
    outsider = next(card for card in ("2C", "3C", "4C", "5C", "6C") if card not in held)
    c.send({"type": "act", "action": outsider, "version": turn["version"]})
    refused = c.until(lambda m: m["type"] == "error")
    assert refused["code"] == "illegal" and refused["version"] == turn["version"]
    c.send({"type": "act", "action": turn["legal"][0], "version": turn["version"]})
    done = c.until(lambda m: m["type"] == "update")
    assert done["version"] == turn["version"] + 1 and done["by"] == {"seat": 0, "source": "seat"}
    c.close()
    checked(c)


def test_a_stale_version_and_an_action_out_of_turn_are_refused(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    turn = my_turn(c)
    c.send({"type": "act", "action": turn["legal"][0], "version": turn["version"] - 1})
    assert c.until(lambda m: m["type"] == "error")["code"] == "stale"
    c.send({"type": "act", "action": turn["legal"][0], "version": turn["version"]})
    after = c.until(lambda m: m["type"] == "update" and m["by"]["seat"] == 0)
    if after["to_act"] != 0:
        c.send({"type": "act", "action": turn["legal"][0], "version": after["version"]})
        assert c.until(lambda m: m["type"] == "error")["code"] in ("not_your_turn", "stale")
    c.close()
    checked(c)


def test_bad_messages_get_errors_and_the_connection_and_table_survive(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    turn = my_turn(c)
    c.ws.send("{not json")
    assert c.until(lambda m: m["type"] == "error")["code"] == "bad_json"
    c.send({"type": "dance"})
    assert c.until(lambda m: m["type"] == "error")["code"] == "unknown_type"
    c.send({"type": "act", "action": "QH", "version": 0, "extra": 1})
    assert c.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    c.send({"type": "act", "action": "QH"})
    assert c.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    c.send({"type": "hello", "token": None})
    assert c.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    c.send({"type": "ping"})
    assert c.until(lambda m: m["type"] == "pong")["version"] == turn["version"]
    c.send({"type": "act", "action": turn["legal"][0], "version": turn["version"]})
    assert c.until(lambda m: m["type"] == "update")["version"] == turn["version"] + 1
    c.close()
    checked(c)


def test_a_flood_of_messages_is_rate_limited_and_the_connection_survives(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    my_turn(c)
    for _ in range(80):
        c.send({"type": "ping"}, paced=False)
    answers = [c.until(lambda m: m["type"] in ("pong", "error")) for _ in range(80)]  # one answer each, in order
    assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in answers)
    time.sleep(1.0)  # the server has read all 80: a second refills its bucket, however loaded the machine
    c.send({"type": "ping"})
    assert c.until(lambda m: m["type"] == "pong")
    c.close()


def test_a_spectator_cannot_act_and_a_token_opens_only_its_own_table(server: ThreadServer) -> None:
    table, (token,) = seated(server)
    other, _ = seated(server)
    watcher = Client(server.base, table)
    assert watcher.recv()["role"] == "spectator"
    state = watcher.until(lambda m: m["type"] == "state")
    assert state["seat"] is None and state["legal"] is None and state["view"]["seat"] is None
    watcher.send({"type": "act", "action": "2C", "version": state["version"]})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "not_seated"
    stranger = Client(server.base, other, token)
    refused = stranger.recv()
    assert refused["type"] == "error" and refused["code"] == "bad_token"
    forged = Client(server.base, table, token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    assert forged.recv()["code"] == "bad_token"
    for c in (watcher, stranger, forged):
        c.close()


def test_a_table_may_forbid_spectators(server: ThreadServer) -> None:
    table, _ = seated(server, spectators=False)
    watcher = Client(server.base, table)
    assert watcher.recv()["code"] == "no_spectators"
    watcher.close()


def test_coming_back_with_the_last_version_gives_the_missed_events_then_the_state(server: ThreadServer) -> None:
    table, tokens = seated(server, people=2)
    a, b = Client(server.base, table, tokens[0]), Client(server.base, table, tokens[1])
    seen = a.until(lambda m: m["type"] == "state")["version"]
    a.close()
    for _ in range(3):  # b plays on while a is away (the bot acts for seat 2; seat 0 waits for a: grace 30 s)
        msg = b.until(lambda m: m["type"] in ("state", "update") and m["to_act"] in (0, 1))
        if msg["to_act"] == 1:
            b.send({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        else:
            break
    now = get(server.base, f"/tables/{table}")["version"]
    back = Client(server.base, table, tokens[0], last_version=seen)
    assert back.recv()["type"] == "welcome"
    catchup = back.recv()
    assert catchup["type"] == "catchup" and catchup["since"] == seen
    assert [u["version"] for u in catchup["updates"]] == list(range(seen + 1, now + 1))
    state = back.recv()
    assert state["type"] == "state" and state["version"] == now and not state["resync"]
    for c in (a, b, back):
        c.close()
    checked(back)


def test_coming_back_after_too_much_was_missed_gives_a_full_resync(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "RECENT", 2)
    table, (token,) = seated(server)
    c = Client(server.base, table, token)
    first = c.until(lambda m: m["type"] == "state")["version"]
    play_until({0: c}, lambda m: m.get("version", 0) >= first + 3)
    c.close()
    back = Client(server.base, table, token, last_version=first)
    back.recv()
    state = back.recv()
    assert state["type"] == "state" and state["resync"] is True
    back.close()


def test_a_bot_plays_an_absent_players_seat_after_the_grace_period_and_hands_it_back(server: ThreadServer) -> None:
    table, tokens = seated(server, people=2, grace=0.3)
    a, b = Client(server.base, table, tokens[0]), Client(server.base, table, tokens[1])
    a.until(lambda m: m["type"] == "state")
    a.close()
    took = play_until({1: b}, lambda m: m["type"] == "update" and m["by"] == {"seat": 0, "source": "takeover"})
    assert took["seats"][0]["bot_playing"] and not took["seats"][0]["connected"]
    back = Client(server.base, table, tokens[0])
    state = back.until(lambda m: m["type"] == "state")
    assert state["table"]["seats"][0]["connected"] and not state["table"]["seats"][0]["bot_playing"]
    # b's messages may still hold earlier take-overs: only a decision after the state the player came back to counts
    mine = play_until(
        {1: b, 0: back},
        lambda m: m["type"] == "update" and m["by"]["seat"] == 0 and m["version"] > state["version"],
    )
    assert mine["by"]["source"] == "seat"
    for c in (b, back):
        c.close()


def test_when_the_turn_clock_runs_out_the_seats_bot_acts_and_the_update_says_so(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a second's clock (a table's is 5 s at least: the range is widened here, in the server's own process, so that
    # the test need not wait five)
    monkeypatch.setattr(settings_module, "CLOCK_RANGE", (1.0, settings_module.CLOCK_RANGE[1]))
    table, (token,) = seated(server, clock=1)
    c = Client(server.base, table, token)
    turn = my_turn(c)
    assert turn["clock"]["seat"] == 0 and 0 < turn["clock"]["seconds_left"] <= 1
    timed_out = c.until(lambda m: m["type"] == "update" and m["by"]["seat"] == 0, 15)
    assert timed_out["by"]["source"] == "clock"
    c.close()
    checked(c)


def test_a_table_waits_until_its_people_have_taken_their_seats(server: ThreadServer) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    time.sleep(0.3)  # seat 1, a bot, is the first to act (the dealer's left): it waits for seat 0 to be taken
    info = get(server.base, f"/tables/{table['id']}")
    assert info["waiting"] and info["version"] == 0 and info["free_seats"] == [0]
    assert not info["seats"][0]["bot_playing"]
    post(server.base, f"/tables/{table['id']}/join", {"name": "late"})
    wait_until(lambda: get(server.base, f"/tables/{table['id']}")["version"] > 0, 10, "the bots did not start")


def test_joining_checks_the_name_and_the_seat_and_a_full_table_says_so(server: ThreadServer) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    bad = post(server.base, f"/tables/{table['id']}/join", {"name": "<script>"}, 400)
    assert "letters, digits" in bad["message"]
    assert post(server.base, f"/tables/{table['id']}/join", {"name": "Zoë", "seat": 1}, 409)["code"] == "seat_taken"
    assert post(server.base, f"/tables/{table['id']}/join", {"name": "Zoë"})["seat"] == 0
    assert post(server.base, f"/tables/{table['id']}/join", {"name": "Yann"}, 409)["code"] == "table_full"
    assert post(server.base, "/tables/nope/join", {"name": "Yann"}, 404)["code"] == "no_table"


def test_a_private_table_is_not_listed_and_is_joined_by_its_invite(server: ThreadServer) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}], public=False)
    assert table["id"] not in {t["id"] for t in get(server.base, "/tables")}
    joined = post(server.base, f"/invites/{table['invite']}/join", {"name": "Ann"})
    assert joined["table"] == table["id"] and joined["seat"] == 0
    assert post(server.base, "/invites/wrong/join", {"name": "Ann"}, 404)["code"] == "no_table"


def test_a_bad_table_request_names_what_is_wrong(server: ThreadServer) -> None:
    assert "no-such-game" in post(server.base, "/tables", {"game": "no-such-game"}, 400)["message"]
    assert "seats" in post(server.base, "/tables", {"game": "whist", "seats": [{"kind": "bot"}]}, 400)["message"]
    assert "0 were given" in post(server.base, "/tables", {"game": "whist", "seats": []}, 400)["message"]
    assert "clock" in post(server.base, "/tables", {"game": "whist", "clock": 1}, 400)["message"]
    bad_bot = {"game": "whist", "seats": [{"kind": "bot", "bot": "nobody"}] * 3}
    assert "nobody" in post(server.base, "/tables", bad_bot, 400)["message"]


def test_the_record_is_refused_while_the_match_is_played_and_a_rematch_keeps_the_seats(server: ThreadServer) -> None:
    table = new_table(server.base, "whist(target=1)", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
    assert get(server.base, f"/tables/{table['id']}/record.json", 409)["code"] == "not_over"
    assert post(server.base, f"/tables/{table['id']}/rematch", {"token": token}, 409)["code"] == "not_over"
    c = Client(server.base, table["id"], token)
    while True:
        msg = c.until(lambda m: m["type"] in ("state", "update") and (m["over"] or m["to_act"] == 0))
        if msg["over"]:
            break
        c.send({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
    record = get(server.base, f"/tables/{table['id']}/record.json")
    assert record["result"]["over"] is True and record["seats"][0] == {"name": "Ann", "kind": "human"}
    assert post(server.base, f"/tables/{table['id']}/rematch", {"token": "wrong"}, 403)["code"] == "bad_token"
    again = post(server.base, f"/tables/{table['id']}/rematch", {"token": token})
    assert again["match_no"] == 1 and not again["over"] and again["seats"][0]["name"] == "Ann"
    state = c.until(lambda m: m["type"] == "state" and m["table"]["match_no"] == 1)
    assert state["version"] == msg["version"] + 1
    assert get(server.base, f"/tables/{table['id']}/record.json?match=0") == record
    c.close()
    checked(c)


def test_every_client_message_of_the_docs_is_valid_against_its_schema() -> None:
    for msg in (
        {"type": "hello", "protocol": 1, "token": "abc", "last_version": 3},
        {"type": "hello", "token": None, "last_version": None},
        {"type": "act", "protocol": 1, "action": "QH", "version": 17},
        {"type": "ping"},
    ):
        validate(msg, CLIENT[msg["type"]])  # type: ignore[index]


def test_the_health_and_games_endpoints_answer(server: ThreadServer) -> None:
    assert get(server.base, "/health")["status"] == "ok"
    names = {g["name"] for g in get(server.base, "/games")}
    assert names >= {"whist", "free", "partnership", "northstar"}
    assert "/tables/{table_id}/join" in get(server.base, "/openapi.json")["paths"]
    get(server.base, "/docs", 404)  # no page built from a third-party CDN's scripts
