"""The table chat over real sockets: who reads which channel, the history a state holds for each receiver, the
bounds of a line (length, blanks, control and invisible characters) and of the rate, refusals that change nothing,
and a chat that never reaches the record or the database. Every message the clients receive is checked against its
JSON Schema."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, Message, ThreadServer, get, new_table, post, seated, validate, wait_until

from clubsuite.server.table.chat import CHAT_BURST, HISTORY, ChatRoom
from clubsuite.server.table.connection import Connection
from clubsuite.server.table.protocol import MAX_CHAT_CHARS, ProtocolError, chat_text
from clubsuite.server.table.schemas import CLIENT, SERVER


def checked(*clients: Client) -> None:
    """Every message the clients received fits the schema of its type, and every line the server accepted was sent
    in a message that fits the client's ``chat`` schema."""
    for c in clients:
        for msg in c.messages:
            validate(msg, SERVER[msg["type"]])
        accepted = {m["text"] for m in c.messages if m["type"] == "chat" and m.get("mine")}
        for sent in c.sent:
            if sent["type"] == "chat" and sent.get("text") in accepted:
                validate(sent, CLIENT["chat"])


def say(c: Client, text: Any, paced: bool = True) -> None:
    """Send a chat line (``paced=False``: at once, past the client's own pacing)."""
    c.send({"type": "chat", "protocol": 1, "text": text}, paced)


def heard(c: Client, text: str) -> Message:
    """Wait for the chat line ``text`` on ``c``."""
    return c.until(lambda m: m["type"] == "chat" and m["text"] == text)


def refusal(c: Client) -> Message:
    """Wait for the next error on ``c``."""
    return c.until(lambda m: m["type"] == "error")


def settled(*clients: Client) -> None:
    """A ping answered on each client: whatever the server sent them before it has arrived (one socket's messages
    come in order), so a line that was to reach them would be here by now."""
    for c in clients:
        c.send({"type": "ping"})
        c.until(lambda m: m["type"] == "pong")


def lines(c: Client) -> list[str]:
    """The text of every chat message ``c`` received."""
    return [m["text"] for m in c.messages if m["type"] == "chat"]


def joined(server: ThreadServer, table: str, token: str | None = None) -> Client:
    """A client of ``table`` (a seat's, or a spectator's) that has had its state: a line said from now on is sent
    to it, not kept for its state."""
    c = Client(server.base, table, token)
    c.until(lambda m: m["type"] == "state")
    return c


def state_of(c: Client) -> Message:
    """The state ``c`` was sent when it connected."""
    return next(m for m in c.messages if m["type"] == "state")


def table_of_two(server: ThreadServer) -> tuple[str, list[str]]:
    """Two people and a bot at whist; the bot waits long, so the table stays quiet while the test talks."""
    return seated(server, "whist", people=2, bot_delay=10)


def test_a_players_line_reaches_everyone_and_a_spectators_line_only_the_spectators(server: ThreadServer) -> None:
    table, (ann_token, bob_token) = table_of_two(server)
    ann, bob = joined(server, table, ann_token), joined(server, table, bob_token)
    eve, kim = joined(server, table), joined(server, table)
    say(ann, "Good luck")
    mine = heard(ann, "Good luck")
    assert mine["mine"] is True and mine["channel"] == "players" and mine["seat"] == 0 and mine["name"] == "p0"
    for c in (bob, eve, kim):
        line = heard(c, "Good luck")
        assert "mine" not in line
        assert {k: line[k] for k in ("id", "channel", "seat", "name")} == {
            "id": mine["id"],
            "channel": "players",
            "seat": 0,
            "name": "p0",
        }
    say(eve, "Bob should lead trumps")
    own = heard(eve, "Bob should lead trumps")
    assert own["mine"] is True and own["channel"] == "spectators" and own["seat"] is None
    assert own["name"].startswith("Spectator ") and own["id"] == mine["id"] + 1
    other = heard(kim, "Bob should lead trumps")
    assert other["name"] == own["name"] and "mine" not in other
    settled(ann, bob)
    assert lines(ann) == lines(bob) == ["Good luck"]  # kibitzing never reaches a player
    say(eve, "again")
    assert heard(kim, "again")["name"] == own["name"]  # a spectator's label stays with its address
    say(kim, "me too")  # watching from the same address: the same spectator to the chat (its label and its rate)
    assert heard(eve, "me too")["name"] == own["name"]
    for c in (ann, bob, eve, kim):
        c.close()
    checked(ann, bob, eve, kim)


def test_the_state_holds_the_chat_each_receiver_may_read_and_bots_say_nothing(server: ThreadServer) -> None:
    table, (ann_token, _) = table_of_two(server)
    ann, eve = joined(server, table, ann_token), joined(server, table)
    first = state_of(ann)
    assert first["chat"] == []
    say(ann, "Hello!")
    heard(eve, "Hello!")
    say(eve, "psst")
    heard(eve, "psst")
    say(ann, "Thanks")
    heard(eve, "Thanks")
    again = joined(server, table, ann_token)  # the same seat, another tab
    state = state_of(again)
    assert [(c["text"], c["channel"]) for c in state["chat"]] == [("Hello!", "players"), ("Thanks", "players")]
    assert all("mine" not in c for c in state["chat"])
    watcher = joined(server, table)
    seen = state_of(watcher)["chat"]
    assert [c["text"] for c in seen] == ["Hello!", "psst", "Thanks"]
    assert [c["id"] for c in seen] == sorted(c["id"] for c in seen)
    assert [c["seat"] for c in seen] == [0, None, 0]  # the bot at seat 2 never spoke
    for c in (ann, eve, again, watcher):
        c.close()
    checked(ann, eve, again, watcher)


def test_a_line_with_markup_is_kept_as_the_characters_typed(server: ThreadServer) -> None:
    table, (ann_token, bob_token) = table_of_two(server)
    ann, bob = joined(server, table, ann_token), joined(server, table, bob_token)
    markup = "<img src=x onerror=alert(1)><b>hi</b> & &amp; \"quoted\" 'single'"
    say(ann, markup)
    assert heard(bob, markup)["text"] == markup  # text, passed on as it is: the page shows it as text
    say(ann, "  cafe\u0301 \u00bd  ")  # composed (NFC), blanks around it stripped, nothing folded
    assert heard(bob, "caf\u00e9 \u00bd")["name"] == "p0"
    ann.close()
    bob.close()
    checked(ann, bob)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("x" * (MAX_CHAT_CHARS + 1), f"at most {MAX_CHAT_CHARS} characters (this one has {MAX_CHAT_CHARS + 1})"),
        ("   ", "cannot be blank"),
        ("", "cannot be blank"),
        ("\u3164\u3164", "cannot be blank"),  # Hangul fillers: letters that show nothing
        ("\u2800 \u2800", "cannot be blank"),  # the blank Braille pattern
        ("line one\nline two", "control or invisible formatting characters (this one has '\\n')"),
        ("\x1b[2Jcleared", "control or invisible formatting characters (this one has '\\x1b')"),
        ("tab\there", "control or invisible formatting characters (this one has '\\t')"),
        ("I pass\u202e ssap I", "control or invisible formatting characters (this one has '\\u202e')"),
        ("zero\u200bwidth", "control or invisible formatting characters (this one has '\\u200b')"),
        ("para\u2029graph", "control or invisible formatting characters (this one has '\\u2029')"),
    ],
    ids=[
        "too-long",
        "spaces",
        "empty",
        "fillers",
        "braille",
        "newline",
        "escape",
        "tab",
        "rtl-override",
        "zero-width",
        "para",
    ],
)
def test_a_line_too_long_blank_or_with_control_characters_is_refused_with_the_rule_and_changes_nothing(
    server: ThreadServer, text: str, rule: str
) -> None:
    table, (ann_token, bob_token) = table_of_two(server)
    ann, bob, eve = (
        joined(server, table, ann_token),
        joined(server, table, bob_token),
        joined(server, table),
    )
    say(ann, "before")
    before = heard(eve, "before")
    say(ann, text)
    refused = refusal(ann)
    assert refused["code"] == "bad_chat" and rule in refused["message"]
    say(eve, text)
    assert refusal(eve)["code"] == "bad_chat"
    settled(bob, eve)
    assert lines(bob) == ["before"] and lines(eve) == ["before"]  # nobody heard the refused line
    say(ann, "after")
    assert heard(eve, "after")["id"] == before["id"] + 1  # a refusal takes no id
    late = joined(server, table)
    assert [c["text"] for c in state_of(late)["chat"]] == ["before", "after"]
    for c in (ann, bob, eve, late):
        c.close()
    checked(ann, bob, eve, late)


def test_a_line_of_exactly_the_longest_length_is_said(server: ThreadServer) -> None:
    table, (ann_token, _) = table_of_two(server)
    ann = joined(server, table, ann_token)
    longest = "é" * MAX_CHAT_CHARS  # characters, not bytes: 400 bytes of UTF-8
    say(ann, longest)
    assert heard(ann, longest)["mine"] is True
    ann.close()
    checked(ann)


def test_a_chat_message_of_the_wrong_shape_is_refused_as_a_bad_message(server: ThreadServer) -> None:
    table, (ann_token, _) = table_of_two(server)
    ann = joined(server, table, ann_token)
    for wrong in ({"type": "chat"}, {"type": "chat", "text": 5}, {"type": "chat", "text": "hi", "to": 1}):
        ann.send(wrong)
        assert refusal(ann)["code"] == "bad_message"
    settled(ann)
    assert lines(ann) == []
    ann.close()
    checked(ann)


def test_too_many_lines_are_refused_naming_the_chat_rate_and_accepted_again_once_it_refills(
    server: ThreadServer,
) -> None:
    table, (ann_token, _) = table_of_two(server)
    ann, eve = joined(server, table, ann_token), joined(server, table)
    flood = int(CHAT_BURST) + 5
    for i in range(flood):
        say(ann, f"line {i}", paced=False)
    settled(ann)
    refused = [m for m in ann.messages if m["type"] == "error"]
    said = [m for m in ann.messages if m["type"] == "chat"]
    assert refused and len(said) >= CHAT_BURST and len(said) + len(refused) == flood
    assert all(m["code"] == "rate_limited" and "chat" in m["message"] for m in refused)
    settled(eve)
    assert lines(eve) == [m["text"] for m in said]  # a refused line reached nobody
    say(eve, "spectators count apart")  # the player's rate is the player's own
    heard(eve, "spectators count apart")
    tries = 0

    def accepted() -> bool:  # one try every quarter of a second; a refused try does not put the refill back
        nonlocal tries
        tries += 1
        say(ann, f"try {tries}", paced=False)
        answer = ann.until(lambda m: m["type"] == "error" or (m["type"] == "chat" and m["text"] == f"try {tries}"))
        if answer["type"] == "error":
            assert answer["code"] == "rate_limited"
            time.sleep(0.25)
            return False
        return True

    wait_until(accepted, 30, "the chat rate never refilled")
    ann.close()
    eve.close()
    checked(ann, eve)


def test_the_chat_is_kept_with_the_table_and_never_in_the_record_or_the_database(
    server: ThreadServer, tmp_path: Path
) -> None:
    table = new_table(server.base, "whist(target=1)", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
    c, eve = joined(server, table["id"], token), joined(server, table["id"])
    secret = "zebra quokka 4217"
    say(c, secret)
    say(eve, secret + " from the rail")
    heard(eve, secret + " from the rail")
    msg = c.last_state()
    while not msg["over"]:
        if msg["to_act"] == 0:
            c.send({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        msg = c.until(lambda m: m["type"] in ("state", "update"))
    record = get(server.base, f"/tables/{table['id']}/record.json")
    assert record["result"]["over"] is True
    assert "zebra" not in str(record)
    live = server.server.config.app.state.hub.tables[table["id"]]
    for path in tmp_path.rglob("*"):  # the database and its journal: not a trace of the chat
        if path.is_file():
            assert b"zebra" not in path.read_bytes(), path
    assert [line["text"] for line in live.chat.history(None)] == [secret, secret + " from the rail"]
    c.close()
    eve.close()
    checked(c, eve)


# -- the room itself, on a clock stepped by hand -------------------------------------------------------------------
class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_seats_connections_share_one_rate_and_each_spectator_has_its_own_and_a_label() -> None:
    clock = Clock()
    room = ChatRoom(clock=clock)
    tab1, tab2 = Connection(0), Connection(0)
    for i in range(int(CHAT_BURST)):
        room.say(tab1 if i % 2 else tab2, "Ann", f"line {i}")
    with pytest.raises(ProtocolError) as over:
        room.say(tab2, "Ann", "one more")
    assert over.value.code == "rate_limited" and "chat" in str(over.value)
    watcher1, watcher2 = Connection(None, address="10.0.0.1"), Connection(None, address="10.0.0.2")
    first = room.say(watcher1, None, "hi")
    second = room.say(watcher2, None, "hello")
    assert (first["name"], second["name"]) == ("Spectator 1", "Spectator 2")
    assert room.say(watcher1, None, "still me")["name"] == "Spectator 1"
    again = Connection(None, address="10.0.0.1")  # the same spectator, reconnected: the same label and allowance
    assert room.say(again, None, "back")["name"] == "Spectator 1"
    for i in range(int(CHAT_BURST) - 3):
        room.say(again, None, f"more {i}")
    with pytest.raises(ProtocolError):
        room.say(Connection(None, address="10.0.0.1"), None, "a third socket is no faster")
    clock.now += 1.0  # one second: one more line
    assert room.say(tab1, "Ann", "back")["text"] == "back"
    with pytest.raises(ProtocolError):
        room.say(tab2, "Ann", "too soon")
    assert room.last_id == int(CHAT_BURST) * 2 + 2


def test_the_room_keeps_only_the_last_lines_and_gives_each_receiver_its_channels() -> None:
    clock = Clock()
    room = ChatRoom(clock=clock)
    seat, watcher = Connection(1), Connection(None)
    for i in range(HISTORY + 20):
        clock.now += 1.0
        room.say(seat if i % 3 else watcher, "Bob", f"{i}")
    everything = room.history(None)
    assert len(everything) == HISTORY and everything[-1]["text"] == str(HISTORY + 19)
    assert everything[0]["id"] == 21
    assert all(line["channel"] == "players" for line in room.history(1))
    assert {line["channel"] for line in everything} == {"players", "spectators"}
    assert ChatRoom.reaches(everything[0], watcher)
    spectators_line = next(line for line in everything if line["channel"] == "spectators")
    assert not ChatRoom.reaches(spectators_line, seat) and ChatRoom.reaches(spectators_line, watcher)


def test_chat_text_composes_strips_and_names_the_rule() -> None:
    assert chat_text("  A\u030a  ") == "\u00c5"
    assert chat_text("\u00bd \uff21") == "\u00bd \uff21"  # compatibility forms kept as typed
    assert chat_text("👍🏽 gg") == "👍🏽 gg"
    with pytest.raises(ProtocolError) as refused:
        chat_text("a\u2066b")
    assert refused.value.code == "bad_chat" and "\\u2066" in str(refused.value)
