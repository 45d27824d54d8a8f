"""``clubs serve`` at the command line: its help, a database it cannot open, and a record of a match played online
read back by ``clubs replay``."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import httpx
import pytest
from serverkit import Client, ProcessServer, ThreadServer, get, new_table, post, wait_until

import loopback
from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.server.limits import ServerLimits, flag
from clubsuite.server.store.database import Store
from clubsuite.server.table.schemas import docs_block
from pgcluster import free_port

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_serve_help_names_its_options() -> None:
    outcome = clubs_in_process(["serve", "--help"])
    assert outcome.status == 0
    for option in ("--host", "--port", "--db", "--data-dir", "--log-level", "--trusted-proxy", "--allow-origin"):
        assert option in outcome.stdout
    for limit in fields(ServerLimits):  # every limit is a flag, with its default
        assert flag(limit.name) in outcome.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--max-tables", "0"], "--max-tables"),
        (["--table-idle", "-5"], "--table-idle"),
        (["--create-rate", "ten"], "--create-rate"),
        (["--join-rate", "0/minute"], "--join-rate"),
        (["--trusted-proxy", "the proxy"], "--trusted-proxy"),
        (["--allow-host", "bad host!"], "--allow-host"),
        (["--allow-origin", "ftp://club.example"], "--allow-origin"),
        (["--sockets-per-token", "many"], "--sockets-per-token"),
        (["--node", "two words"], "--node"),
        (["--advertise", "127.0.0.1:8001"], "--advertise"),
        (["--lease-seconds", "0"], "--lease-seconds"),
    ],
)
def test_a_limit_proxy_host_or_origin_that_cannot_be_used_is_one_line_naming_the_flag_and_status_2(
    tmp_path: Path, args: list[str], named: str
) -> None:
    outcome = clubs_in_process(["serve", "--port", "0", "--data-dir", str(tmp_path / "data"), *args])
    assert outcome.status == 2 and named in outcome.stderr, outcome.stderr
    assert not (tmp_path / "data").exists()  # refused before anything was made
    assert_safe_output(outcome)


def test_a_database_that_cannot_be_opened_is_one_line_and_status_2_without_its_password() -> None:
    outcome = clubs_in_process(["serve", "--db", "postgresql://clubs:hunter2@127.0.0.1:1/none", "--port", "0"])
    assert outcome.status == 2
    assert "cannot open the database" in outcome.stderr and "hunter2" not in outcome.stderr
    assert_safe_output(outcome)
    bad = clubs_in_process(["serve", "--db", "nonsense"])
    assert bad.status == 2 and "not a database URL" in bad.stderr
    port = clubs_in_process(["serve", "--port", "70000"])
    assert port.status == 2 and "70000" in port.stderr


def test_the_database_url_may_come_from_clubs_db_and_its_password_is_never_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``CLUBS_DB`` stands for ``--db`` (out of the process list), for the server and for ``clubs admin``."""
    monkeypatch.setenv("CLUBS_DB", "postgresql://clubs:hunter2@127.0.0.1:1/none")
    outcome = clubs_in_process(["serve", "--port", "0"])
    assert outcome.status == 2
    assert "cannot open the database" in outcome.stderr and "hunter2" not in outcome.stderr
    monkeypatch.setenv("CLUBS_DB", "nonsense")
    bad = clubs_in_process(["admin", "reset-password", "Zoë", "--password-stdin"], stdin=b"a new secret\n")
    assert bad.status == 2 and "not a database URL" in bad.stderr, bad.stderr
    assert_safe_output(bad)


def test_a_record_of_a_match_played_online_is_read_by_clubs_replay(tmp_path: Path) -> None:
    with ThreadServer(Store.in_directory(tmp_path)) as server:
        table = new_table(server.base, "whist(target=1)", [{"kind": "bot"}] * 3)
        Client(server.base, table["id"]).close()
        wait_until(lambda: get(server.base, f"/tables/{table['id']}")["over"], 30, "the bots did not finish")
        record = get(server.base, f"/tables/{table['id']}/record.json")
    path = tmp_path / "online.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    outcome = clubs_in_process(["replay", str(path), "--json"])
    assert outcome.status == 0, outcome.stderr
    assert json.loads(outcome.stdout)["over"] is True


def test_the_protocol_page_shows_the_schemas_of_the_code() -> None:
    page = (DOCS / "protocol.md").read_text(encoding="utf-8")
    assert docs_block() in page, "run: python -m clubsuite.server.table.schemas --write docs/protocol.md"


def test_leaving_a_seat_lets_its_bot_play_and_someone_else_take_it(server: ThreadServer) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
    ann = Client(server.base, table["id"], token)  # play begins: a bot acts, or Ann does where she is first
    begun = ann.until(lambda m: m["type"] == "state")
    if begun["version"] == 0:
        if begun["to_act"] == 0:
            ann.send({"type": "act", "action": begun["legal"][0], "version": 0})
        ann.until(lambda m: m["type"] == "update")
    ann.close()
    assert post(server.base, f"/tables/{table['id']}/leave", {"token": "wrong"}, 403)["code"] == "bad_token"
    assert post(server.base, f"/tables/{table['id']}/leave", {"token": token})["seat"] == 0
    info = get(server.base, f"/tables/{table['id']}")
    assert info["free_seats"] == [0] and info["seats"][0]["bot_playing"] and not info["waiting"]
    assert post(server.base, f"/tables/{table['id']}/join", {"name": "Bo"})["seat"] == 0
    stale = Client(server.base, table["id"], token)
    assert stale.recv()["code"] == "bad_token"
    stale.close()


def test_leaving_a_seat_before_play_begins_makes_the_table_wait_again_with_no_bot_in_it(server: ThreadServer) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}] * 3)  # no bot: nothing is played till a person acts
    tokens = [post(server.base, f"/tables/{table['id']}/join", {"name": name})["token"] for name in ("Ann", "Bo", "Cy")]
    assert get(server.base, f"/tables/{table['id']}")["waiting"] is False
    assert post(server.base, f"/tables/{table['id']}/leave", {"token": tokens[0]})["seat"] == 0
    info = get(server.base, f"/tables/{table['id']}")
    assert info["version"] == 0 and info["free_seats"] == [0] and info["waiting"]
    assert not info["seats"][0]["bot_playing"]


@pytest.mark.parametrize("hints", [False, True])
def test_a_hint_is_the_heuristic_bots_legal_choice_where_the_table_gives_hints(
    server: ThreadServer, hints: bool
) -> None:
    seats = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    table = new_table(server.base, "whist", seats, hints=hints)
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
    c = Client(server.base, table["id"], token)
    turn = c.until(lambda m: m["type"] in ("state", "update") and m["to_act"] == 0)
    assert turn["legal"] == ["keep", "exchange"] and "legal" not in turn["view"]  # legal actions either way
    c.send({"type": "hint", "version": turn["version"]})
    answer = c.until(lambda m: m["type"] in ("hint", "error"))
    if hints:
        assert answer["type"] == "hint" and answer["version"] == turn["version"]
        assert answer["action"] in turn["legal"]
    else:
        assert answer["type"] == "error" and answer["code"] == "no_hints"
    c.send({"type": "hint", "version": turn["version"] + 5})
    assert c.until(lambda m: m["type"] == "error")["code"] == ("stale" if hints else "no_hints")
    c.send({"type": "act", "action": "keep", "version": turn["version"]})
    assert c.until(lambda m: m["type"] == "update" and m["by"]["seat"] == 0)
    c.send({"type": "hint", "version": turn["version"] + 1})  # no longer this seat's turn
    if hints:
        assert c.until(lambda m: m["type"] == "error")["code"] in ("not_your_turn", "stale")
    c.close()


def test_the_load_benchmark_plays_more_tables_and_sockets_than_one_address_may_have_by_default() -> None:
    """``bench/serve_load.py`` raises the per-address limits it needs (its one address plays every client): 70 tables
    and 140 sockets, past the defaults of 20 tables and 64 sockets (and 128 connections) per address."""
    bench = Path(__file__).parents[2] / "bench" / "serve_load.py"
    args = [sys.executable, str(bench), "--tables", "70", "--watchers", "1", "--seconds", "2", "--json"]
    done = subprocess.run(args, capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    figures = json.loads(done.stdout)
    assert figures["tables"] == 70 and figures["clients"] == 140 and figures["refused"] == 0
    assert figures["accepted_actions"] > 0


def test_a_second_process_on_a_sqlite_database_another_serves_is_one_line_naming_postgresql(tmp_path: Path) -> None:
    """Several processes need PostgreSQL: the second process on the same SQLite file is refused before it listens,
    naming the first and PostgreSQL, with status 2 (the first goes on serving)."""
    data = tmp_path / "data"
    data.mkdir()
    with ProcessServer(data) as first:
        outcome = clubs_in_process(["serve", "--port", str(free_port()), "--data-dir", str(data)])
        assert outcome.status == 2, outcome.stderr
        assert "PostgreSQL" in outcome.stderr and f"127.0.0.1:{first.port}" in outcome.stderr
        assert_safe_output(outcome)
        assert loopback.get(first.base + "/ready").status_code == 200


def _serve_on_a_terminal(data: Path, *extra: str) -> list[str]:
    """What ``clubs serve`` writes to a terminal (a pseudo-terminal its standard output and error are) from its
    start until it has answered a request and been stopped (SIGTERM), as lines. A thread reads the terminal all
    along, so the server never waits on a full one."""
    import os
    import pty
    import signal
    import threading

    port = free_port()
    leader, follower = pty.openpty()
    args = [str(Path(sys.executable).parent / "clubs"), "serve", "--port", str(port), "--data-dir", str(data), *extra]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower)
    os.close(follower)
    written: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other side is closed: everything was read
                return
            if not chunk:
                return
            written.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def up() -> bool:
        assert proc.poll() is None, b"".join(written)
        with contextlib.suppress(httpx.HTTPError):
            return loopback.get(f"http://127.0.0.1:{port}/ready", timeout=5).status_code == 200
        return False

    try:
        wait_until(up, 90, "clubs serve did not answer")
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
        reader.join(30)
        os.close(leader)
    return b"".join(written).decode("utf-8", "replace").replace("\r\n", "\n").splitlines()


def test_on_a_terminal_the_server_logs_plain_lines_and_json_only_when_asked(tmp_path: Path) -> None:
    """A person who runs ``clubs serve`` in a terminal reads plain lines (a time, the words): no JSON. Asked for
    JSON (``--log-format json``, as a log collector would be) every log line is one JSON object, on a terminal too;
    written to a file (``ProcessServer``'s log), the default stays JSON. The three servers (each over a data
    directory of its own, on a port of its own) start and stop side by side."""
    data = tmp_path / "c"
    data.mkdir()

    def to_a_file() -> ProcessServer:
        with ProcessServer(data) as served:
            assert loopback.get(served.base + "/ready").status_code == 200
        return served

    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        on_terminal = pool.submit(_serve_on_a_terminal, tmp_path / "a")
        on_terminal_json = pool.submit(_serve_on_a_terminal, tmp_path / "b", "--log-format", "json")
        on_file = pool.submit(to_a_file)
        plain, json_lines, served = on_terminal.result(), on_terminal_json.result(), on_file.result()
    assert any(line.startswith("clubs serve: http://") for line in plain), plain
    logged = [line for line in plain if not line.startswith("clubs")]  # not the command's own words (its address)
    assert logged and all(
        len(line) > 9 and line[2] == ":" and line[5] == ":" and not line.lstrip().startswith("{") for line in logged
    ), plain
    assert any("Application startup complete" in line for line in logged), plain
    as_json = [line for line in json_lines if not line.startswith("clubs")]
    assert as_json and all({"time", "level", "logger", "message"} <= set(json.loads(line)) for line in as_json)
    lines = [line for line in served.logs().splitlines() if line.strip()]
    assert lines and all(json.loads(line)["message"] for line in lines if not line.startswith("clubs"))
