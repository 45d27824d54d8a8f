"""The operator's side of moderation at the command line: ``clubs admin reports`` lists the players' reports with
the words as the server kept them, ``clubs admin act`` acts on one (the player is told), ``clubs admin moderator``
names a moderator, whose queue then opens; mistakes are one line and status 2; ``clubs serve --words`` with a list
it cannot read is refused naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from serverkit import ThreadServer
from sqlalchemy import update
from test_server_rated import account

import loopback
from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.server import tokens
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import reports


def test_the_operator_reads_the_reports_acts_on_one_and_names_a_moderator(server: ThreadServer, tmp_path: Path) -> None:
    ann, _, ann_h = account(server, "Ann")
    bob, _, _ = account(server, "Bob")
    mona, _, _ = account(server, "Mona")
    made = ann.post("/reports", json={"kind": "player", "player": "Bob", "reason": "rude \x1b[31mwords"}, headers=ann_h)
    report = made.json()["report"]
    data = ["--data-dir", str(tmp_path)]
    listed = clubs_in_process(["admin", "reports", *data])
    assert listed.status == 0 and report in listed.stdout and "Bob" in listed.stdout and "Ann" in listed.stdout
    assert "\x1b" not in listed.stdout  # a player's words are shown safely
    assert_safe_output(listed)
    unknown = clubs_in_process(["admin", "act", "no-such-report", "warn", *data])
    assert unknown.status == 2 and "no such report" in unknown.stderr
    no_hours = clubs_in_process(["admin", "act", report, "mute", *data])
    assert no_hours.status == 2 and "hours" in no_hours.stderr
    done = clubs_in_process(["admin", "act", report, "mute", "--hours", "2", "--reason", "rudeness", *data])
    assert done.status == 0 and "mute" in done.stdout
    told = bob.get("/notices").json()["notices"]
    assert [(n["kind"], n["body"]["reason"]) for n in told] == [("mute", "rudeness")]
    assert "no open reports" in clubs_in_process(["admin", "reports", *data]).stdout
    closed = clubs_in_process(["admin", "reports", "--closed", *data])
    assert report in closed.stdout and "mute by" in closed.stdout
    assert mona.get("/moderation/reports").status_code == 403
    named = clubs_in_process(["admin", "moderator", "mona", *data])
    assert named.status == 0 and "Mona" in named.stdout
    assert mona.get("/moderation/reports").status_code == 200
    assert clubs_in_process(["admin", "moderator", "Nobody", *data]).status == 2
    assert clubs_in_process(["admin", "moderator", "Mona", "--remove", *data]).status == 0
    assert mona.get("/moderation/reports").status_code == 403


def test_a_report_id_from_an_older_database_that_begins_with_a_dash_is_acted_on_after_a_double_dash(
    server: ThreadServer, tmp_path: Path
) -> None:
    ann, _, ann_h = account(server, "Ann")
    account(server, "Bob")
    made = ann.post("/reports", json={"kind": "player", "player": "Bob"}, headers=ann_h).json()["report"]
    old = "-" + made[1:]  # ids were once drawn with a leading "-" possible (1 in 64)
    with Store.in_directory(tmp_path).engine.begin() as conn:
        conn.execute(update(reports).where(reports.c.id == made).values(id=old))
    data = ["--data-dir", str(tmp_path)]
    assert old in clubs_in_process(["admin", "reports", *data]).stdout
    done = clubs_in_process(["admin", "act", *data, "--", old, "warn"])
    assert done.status == 0 and "warn" in done.stdout, done.stderr
    assert_safe_output(done)


def test_fresh_ids_never_begin_with_a_dash_so_a_command_never_reads_one_as_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = iter(["-first", "-second", "third"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert tokens.new_id() == "third"
    monkeypatch.undo()
    assert not any(tokens.new_id(1).startswith("-") for _ in range(2000))  # 1 in 64 draws began so


def test_a_word_list_the_server_cannot_read_is_refused_naming_it(tmp_path: Path) -> None:
    words = tmp_path / "words"
    words.mkdir()
    (words / "nl.txt").write_text("goed\ntwee woorden\n", encoding="utf-8")
    outcome = clubs_in_process(["serve", "--port", "0", "--data-dir", str(tmp_path / "data"), "--words", str(words)])
    assert outcome.status == 2 and "nl.txt, line 2" in outcome.stderr, outcome.stderr
    assert_safe_output(outcome)


def test_the_operator_schedules_a_tournament_that_every_lobby_lists_and_that_starts_by_itself(
    server: ThreadServer, tmp_path: Path
) -> None:
    data = ["--data-dir", str(tmp_path)]
    bad = clubs_in_process(["admin", "tournament", "arena", "whist", "--starts", "tomorrow", *data])
    assert bad.status == 2 and "--starts" in bad.stderr
    past = clubs_in_process(["admin", "tournament", "arena", "whist", "--starts", "2020-01-01 10:00", *data])
    assert past.status == 2 and "starts_at" in past.stderr
    made = clubs_in_process(
        ["admin", "tournament", "swiss", "whist", "--starts", "+60", "--name", "Sunday Swiss", *data]
    )
    assert made.status == 0 and "Sunday Swiss" in made.stdout, made.stderr
    listed = loopback.get(f"{server.base}/tournaments").json()["tournaments"]
    assert [(x["name"], x["status"], x["scheduled"], x["rounds"]) for x in listed] == [
        ("Sunday Swiss", "open", True, 5)
    ]
    ann, _, ann_h = account(server, "Ann")
    tid = listed[0]["id"]
    assert ann.post(f"/tournaments/{tid}/join", headers=ann_h).status_code == 200
    assert ann.post(f"/tournaments/{tid}/start", headers=ann_h).json()["code"] == "not_host"  # the operator's
