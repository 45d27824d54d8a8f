"""The offline table (``clubsuite.offline``): the table protocol's messages made in the page's worker, checked here in
CPython against the very schemas the server's messages are checked against, a whole match of every game and variant
played through the worker's entry, its record replayed exactly, a kept table played again after the worker restarts,
and every bad request answered in words with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from clubsuite.engine import games, resolve
from clubsuite.lesson import tutorial_seed
from clubsuite.offline import session
from clubsuite.offline.table import LEVELS, OfflineTable, Seat, TableError, rules, set_rules
from clubsuite.records.replay import replay, result_json
from clubsuite.server.table.schemas import SERVER

SPECS = [spec for info in games() for spec in (info.name, *sorted(info.variants))]
VALIDATORS = {kind: Draft202012Validator(schema) for kind, schema in SERVER.items()}
"""The server's schema of each message, made into a validator once."""


def call(**request: Any) -> dict[str, Any]:
    """One request to the worker's entry, every message it answers with checked against the server's schemas."""
    answer = json.loads(session.handle(json.dumps(request)))
    assert isinstance(answer, dict)
    for msg in answer.get("messages", []):
        VALIDATORS[msg["type"]].validate(msg)
    return answer


def refused(**request: Any) -> str:
    """The words a request is refused with."""
    answer = json.loads(session.handle(json.dumps(request)))
    assert answer["ok"] is False, answer
    return str(answer["error"])


def new_table(spec: str, table_id: str, levels: str = "normal", coach: bool = False, seat: int = 0) -> str:
    info, options = resolve(spec)
    n = info.n_seats(options)
    answer = call(op="table", id=table_id, game=spec, name="Ann", seat=seat, levels=[levels] * (n - 1), coach=coach)
    assert answer["ok"] and answer["saved"]["game"] == spec
    return table_id


def play_out(table_id: str, first: dict[str, Any], choose: int = 0) -> dict[str, Any]:
    """Play the table's match to its end: the bots when due, the person the ``choose``-th legal action (from the
    end where negative); the last state or update."""
    answer, last = first, None
    for _ in range(5000):
        shown = [m for m in answer["messages"] if m["type"] in ("state", "update")]
        assert not [m for m in answer["messages"] if m["type"] == "error"], answer["messages"]
        last = shown[-1] if shown else last
        assert last is not None
        if answer["due"] is not None:
            assert answer["due"]["delay"] > 0 and answer["due"]["seat"] == last["to_act"]
            answer = call(op="bot", table=table_id, version=answer["due"]["version"])
        elif last["over"]:
            return last
        else:
            assert last["to_act"] == last["seat"] if "seat" in last else True
            legal = last["legal"]
            action = legal[choose % len(legal)]
            answer = call(
                op="send", table=table_id, message={"type": "act", "action": action, "version": last["version"]}
            )
    raise AssertionError("the match did not end")


@pytest.fixture(autouse=True)
def _fresh_worker() -> None:
    session.reset()


@pytest.mark.parametrize("spec", SPECS)
def test_a_whole_match_of_every_game_is_played_in_the_protocols_messages_and_its_record_replays_exactly(
    spec: str,
) -> None:
    table = new_table(spec, f"t-{spec}")
    hello = call(op="send", table=table, message={"type": "hello", "protocol": 1, "token": None, "last_version": 0})
    assert [m["type"] for m in hello["messages"]] == ["welcome", "catchup", "state", "presence"]
    state = hello["messages"][2]
    assert state["seat"] == 0 and state["table"]["settings"]["offline"] is True and state["chat"] == []
    last = play_out(table, hello, choose=-1)
    assert last["over"] and last["result"] is not None
    record = call(op="record", table=table)["record"]
    assert record["game"] == resolve(spec)[0].name and record["x-played-by"] == f"clubsuite {rules()}, offline app"
    replayed = replay(record)  # the record's stated result is checked against the replay's
    assert replayed.match.is_over and replayed.match.summary()["winners"] == last["result"]["winners"]
    assert result_json(replayed)["totals"] == last["result"]["totals"]
    assert next(s["kind"] for s in record["seats"]) == "human"
    assert {s.get("bot") for s in record["seats"][1:]} == {LEVELS["normal"]}


def test_a_kept_table_is_played_again_to_where_it_was_after_the_worker_starts_afresh() -> None:
    table = new_table("whist", "kept")
    answer = call(op="send", table=table, message={"type": "hello", "protocol": 1, "token": None})
    for _ in range(12):  # a few moves in: bots and the person
        if answer["due"] is not None:
            answer = call(op="bot", table=table, version=answer["due"]["version"])
            continue
        last = [m for m in answer["messages"] if m["type"] in ("state", "update")][-1]
        answer = call(
            op="send", table=table, message={"type": "act", "action": last["legal"][0], "version": last["version"]}
        )
    before = call(op="send", table=table, message={"type": "hello", "protocol": 1, "token": None})
    saved = before["saved"]
    session.reset()
    assert "open it from its kept form" in refused(op="send", table=table, message={"type": "ping"})
    opened = call(op="open", saved=json.loads(json.dumps(saved)))
    assert opened["saved"] == saved
    assert (opened["due"] or {}).get("version") == (before["due"] or {}).get("version")  # the same bot is due
    again = call(op="send", table=table, message={"type": "hello", "protocol": 1, "token": None, "last_version": 3})
    state = next(m for m in again["messages"] if m["type"] == "state")
    first = next(m for m in before["messages"] if m["type"] == "state")
    assert state["resync"] is False  # the events since version 3 are told again (a catchup), as before the restart
    assert [m["type"] for m in again["messages"]] == ["welcome", "catchup", "state", "presence"]
    assert state["to_act"] == first["to_act"] and (opened["due"] is None) == (state["to_act"] == 0)
    assert {k: v for k, v in state.items() if k != "resync"} == {k: v for k, v in first.items() if k != "resync"}


def test_a_kept_table_that_lies_is_refused_by_name() -> None:
    table = new_table("whist", "liar")
    saved = call(op="send", table=table, message={"type": "hello", "protocol": 1})["saved"]
    match = OfflineTable.restore(saved).match
    to_act, action = match.to_act, match.format_action(match.legal_actions()[0])
    assert "cannot be played again" in refused(op="open", saved={**saved, "actions": [[to_act, "play ZZ"]]})
    other = (to_act + 1) % len(saved["seats"])
    assert f"not seat {other}'s turn" in refused(op="open", saved={**saved, "actions": [[other, action]]})
    for bad, named in [
        ({**saved, "seed": -1}, "seed"),
        ({**saved, "seats": "x"}, "seats"),
        ({k: v for k, v in saved.items() if k != "game"}, "game"),
        ({**saved, "game": "chess"}, "chess"),
        (
            {**saved, "seats": [{**saved["seats"][0]}, *saved["seats"][1:-1], {**saved["seats"][-1], "bot": "expert"}]},
            "expert",
        ),
        ("not a table", "JSON object"),
        ({**saved, "rules": "0.0.1"}, "begun with other rules (clubsuite 0.0.1)"),  # other rules: not continued
        ({k: v for k, v in saved.items() if k != "rules"}, "begun with other rules (clubsuite None)"),
    ]:
        assert named in refused(op="open", saved=bad)


def test_every_bad_request_is_answered_in_words_and_changes_nothing() -> None:
    table = new_table("free", "bad")
    before = call(op="send", table=table, message={"type": "hello", "protocol": 1})
    state = next(m for m in before["messages"] if m["type"] == "state")
    for text, named in [
        ("not json", "Expecting value"),
        ("[]", '"op"'),
        ('{"op": "fly"}', "unknown op"),
        ("x" * (session.MAX_REQUEST + 1), "longer than"),
        ('{"op": "table", "id": "a", "game": "whist", "name": "Ann", "seat": 0, "levels": ["normal"]}', "2 bots"),
        (
            '{"op": "table", "id": "a", "game": "whist", "name": "Ann", "seat": 7, "levels": ["normal", "normal"]}',
            "seat 7",
        ),
        (
            '{"op": "table", "id": "a", "game": "whist", "name": "Ann", "seat": 0, "levels": ["normal", "expert"]}',
            "expert",
        ),
        ('{"op": "table", "id": "", "game": "whist", "name": "Ann", "seat": 0, "levels": ["normal", "easy"]}', "id"),
        ('{"op": "bot", "table": "nope"}', "no such table"),
    ]:
        answer = json.loads(session.handle(text))
        assert answer["ok"] is False and named in answer["error"], (text[:60], answer)
    for msg, code in [
        (
            {"type": "act", "action": "play ZZ", "version": state["version"]},
            "illegal" if state["to_act"] == 0 else "not_your_turn",
        ),
        ({"type": "act", "action": "keep", "version": state["version"] + 9}, "stale"),
        ({"type": "act", "version": state["version"]}, "bad_message"),
        ({"type": "chat", "text": "hi"}, "bad_chat"),
        ({"type": "dance"}, "unknown_type"),
        ({"type": "ping", "protocol": 2}, "protocol"),
        ("hello", "bad_json"),
    ]:
        answer = call(op="send", table=table, message=msg)
        assert [m["code"] for m in answer["messages"]] == [code], msg
        assert answer["saved"] == before["saved"]
    assert call(op="bot", table=table, version=state["version"] + 5)["messages"] == []


def test_the_guided_first_hand_points_at_each_step_and_gives_no_hints_as_a_servers_does() -> None:
    table = new_table("whist", "coached", coach=True, levels="hard")  # the guided hand's bots are easy ones
    answer = call(op="send", table=table, message={"type": "hello", "protocol": 1})
    assert answer["saved"]["seed"] == tutorial_seed(resolve("whist")[0])  # the lesson's deal, as on a server
    assert [s["bot"] for s in answer["saved"]["seats"]] == [None, "easy", "easy"]
    assert next(m for m in answer["messages"] if m["type"] == "state")["table"]["settings"]["bot_delay"] == 1.5
    while answer["due"] is not None:
        answer = call(op="bot", table=table, version=answer["due"]["version"])
    turn = [m for m in answer["messages"] if m["type"] in ("state", "update")][-1]
    assert turn["to_act"] == 0 and turn["lesson"]["step"] == 1 and turn["lesson"]["action"] in turn["legal"]
    hint = call(op="send", table=table, message={"type": "hint", "version": turn["version"]})["messages"]
    assert hint[0]["code"] == "no_hints" and hint[0]["version"] == turn["version"]  # the coach points: no hints


def test_a_table_gives_hints_and_refuses_a_stale_one_naming_the_version_now() -> None:
    table = new_table("whist", "hinted")
    answer = call(op="send", table=table, message={"type": "hello", "protocol": 1})
    while answer["due"] is not None:
        answer = call(op="bot", table=table, version=answer["due"]["version"])
    turn = [m for m in answer["messages"] if m["type"] in ("state", "update")][-1]
    hint = call(op="send", table=table, message={"type": "hint", "version": turn["version"]})["messages"]
    assert hint[0]["type"] == "hint" and hint[0]["action"] in turn["legal"]
    stale = call(op="send", table=table, message={"type": "hint", "version": turn["version"] - 1})["messages"]
    assert stale[0]["code"] == "stale" and stale[0]["version"] == turn["version"]  # as a server's table says it


def test_a_bot_that_fails_is_replaced_by_the_games_instant_bot_and_the_table_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clubsuite.offline.table import OfflineTable as Table

    table = new_table("whist", "failing", levels="hard")
    answer = call(op="send", table=table, message={"type": "hello", "protocol": 1})

    class Broken:
        def choose(self, *args: object) -> object:
            raise RuntimeError("a bug of the bot's")

    kept = session._tables[table]  # the worker's own table, its bots broken for the test
    assert isinstance(kept, Table)
    monkeypatch.setattr(kept, "_bots", {s: Broken() for s in range(3)})
    if answer["due"] is None:  # the person first: let the bots come
        last = next(m for m in answer["messages"] if m["type"] == "state")
        answer = call(
            op="send", table=table, message={"type": "act", "action": last["legal"][0], "version": last["version"]}
        )
    moved = call(op="bot", table=table, version=answer["due"]["version"])
    assert [m["type"] for m in moved["messages"]] == ["update"] and moved["messages"][0]["by"]["source"] == "bot"


def test_a_rematch_starts_the_next_match_with_the_same_seats_only_after_the_end() -> None:
    table = new_table("free", "again", levels="easy")
    hello = call(op="send", table=table, message={"type": "hello", "protocol": 1})
    assert call(op="rematch", table=table)["messages"][0]["code"] == "over"
    last = play_out(table, hello)
    again = call(op="rematch", table=table)
    state = again["messages"][0]
    assert state["type"] == "state" and state["table"]["match_no"] == 1 and state["version"] == last["version"] + 1
    assert again["saved"]["actions"] == [] and again["saved"]["earlier"] > 0
    session.reset()
    assert call(op="open", saved=again["saved"])["saved"] == again["saved"]


def test_a_table_of_the_wrong_shape_is_refused_before_it_is_made() -> None:
    with pytest.raises(TableError, match="played by 3 seats"):
        OfflineTable("x", "whist", [], 1)
    with pytest.raises(TableError, match="one person's seat, got 3"):
        OfflineTable("x", "whist", [Seat(0, "Ann"), Seat(1, "Bo"), Seat(2, "Cy")], 1)


def test_a_finished_match_is_replayed_and_reviewed_in_the_worker_as_a_server_would() -> None:
    from clubsuite.analysis.frames import replay_frames
    from clubsuite.analysis.review import PAGE_SAMPLES, ReviewSettings, review

    table = new_table("northstar-duel", "looked-at", levels="easy")
    play_out(table, call(op="send", table=table, message={"type": "hello", "protocol": 1}))
    record = call(op="record", table=table)["record"]
    replayed = call(op="replay", record=record)["replay"]
    assert replayed == json.loads(json.dumps(replay_frames(record)))  # the server's replay viewer gets the same
    assert call(op="replay", text=json.dumps(record))["replay"] == replayed  # a record file opened in the page
    reviewed = call(op="review", record=record, seat=0)["review"]
    assert reviewed == json.loads(json.dumps(review(record, 0, ReviewSettings(samples=PAGE_SAMPLES)).to_json()))
    assert "no seat 3" in refused(op="review", record=record, seat=2)
    assert "the record is not valid JSON" in refused(op="replay", text="{oops")
    assert "JSON object" in refused(op="replay", record=[1, 2])


def test_a_kept_table_is_refused_by_a_worker_running_another_core_and_continued_by_one_running_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import clubsuite.offline.table as offline_table

    monkeypatch.setattr(offline_table, "_rules", offline_table._rules)  # restored after the test
    set_rules("a" * 64)
    table = new_table("free", "ruled")
    saved = call(op="send", table=table, message={"type": "hello", "protocol": 1})["saved"]
    assert saved["rules"].endswith("+" + "a" * 16)
    session.reset()
    assert call(op="open", saved=saved)["saved"] == saved  # the same core: the match goes on
    set_rules("b" * 64)  # an update changed the Python
    assert "begun with other rules" in refused(op="open", saved=saved)


def test_a_page_that_comes_back_to_a_kept_table_is_told_the_events_it_missed_as_a_server_would() -> None:
    table = new_table("whist", "caught")
    answer = call(op="send", table=table, message={"type": "hello", "protocol": 1})
    for _ in range(6):
        if answer["due"] is not None:
            answer = call(op="bot", table=table, version=answer["due"]["version"])
            continue
        last = [m for m in answer["messages"] if m["type"] in ("state", "update")][-1]
        act = {"type": "act", "action": last["legal"][0], "version": last["version"]}
        answer = call(op="send", table=table, message=act)
    before = call(op="send", table=table, message={"type": "hello", "protocol": 1, "last_version": 0})
    session.reset()
    call(op="open", saved=before["saved"])
    again = call(op="send", table=table, message={"type": "hello", "protocol": 1, "last_version": 0})
    assert [m["type"] for m in again["messages"]] == ["welcome", "catchup", "state", "presence"]
    assert again["messages"][1] == before["messages"][1]  # the same events, as told before the worker restarted
