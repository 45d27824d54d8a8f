"""A server stopped at any moment comes back with every table where it was: ``clubs serve`` in a child process,
killed with SIGKILL in the middle of play or stopped with SIGTERM, then started again on the same data."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from serverkit import Client, ProcessServer, get, new_table, post, wait_until

from clubsuite.records import replay


def play_a_little(client: Client, actions: int) -> dict[str, object]:
    """Act ``actions`` times for seat 0 (first legal action); the last state or update seen."""
    done = 0
    while True:
        msg = client.until(lambda m: m["type"] in ("state", "update"))
        if msg["to_act"] == 0 and not msg["over"]:
            if done == actions:
                return msg
            client.send({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
            done += 1


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Callable[..., ProcessServer]]:
    """Starts ``clubs serve`` over the test's data directory; every server started is gone after the test."""
    made: list[ProcessServer] = []

    def start(port: int | None = None) -> ProcessServer:
        made.append(ProcessServer(tmp_path, port).start())
        return made[-1]

    yield start
    for server in made:
        server.__exit__()


def test_a_server_killed_mid_play_resumes_every_table_where_it_was(spawn: Callable[..., ProcessServer]) -> None:
    server = spawn()
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = new_table(server.base, "whist(target=3)", seats)
    busy = new_table(server.base, "northstar(players=4)", [{"kind": "bot", "bot": "random"}] * 4, bot_delay=0.02)
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
    client = Client(server.base, table["id"], token)
    seen = play_a_little(client, 5)
    wait_until(lambda: get(server.base, f"/tables/{busy['id']}")["version"] > 10, 20, "the bots did not play")
    busy_seen = get(server.base, f"/tables/{busy['id']}")["version"]
    assert server.kill(signal.SIGKILL) == -signal.SIGKILL
    client.close()

    again = spawn(server.port)
    back = Client(again.base, table["id"], token, last_version=seen["version"])  # type: ignore[arg-type]
    assert back.recv()["type"] == "welcome"
    state = back.until(lambda m: m["type"] == "state")
    assert state["version"] == seen["version"] and state["view"] == seen["view"]  # nothing heard was lost
    assert state["legal"] == seen["legal"] and state["to_act"] == 0
    assert get(again.base, f"/tables/{busy['id']}")["version"] >= busy_seen  # the bots' table too, and it goes on
    wait_until(lambda: get(again.base, f"/tables/{busy['id']}")["version"] > busy_seen, 20, "the bots stopped")
    msg = state
    while not msg["over"]:
        back.send({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        try:
            msg = back.until(lambda m: m["type"] in ("state", "update") and (m["over"] or m["to_act"] == 0))
        except AssertionError as exc:
            raise AssertionError(f"{exc}\nthe server's log:\n{again.logs()[-4000:]}") from None
    record = get(again.base, f"/tables/{table['id']}/record.json")
    assert list(replay(record).match.totals) == msg["view"]["totals"]
    back.close()
    again.kill(signal.SIGKILL)


def test_sigterm_tells_the_clients_finishes_and_the_tables_come_back(spawn: Callable[..., ProcessServer]) -> None:
    server = spawn()
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Ann"})["token"]
    client = Client(server.base, table["id"], token)
    seen = play_a_little(client, 2)
    status = server.kill(signal.SIGTERM)
    assert status in (0, 128 + signal.SIGTERM), status
    assert client.until(lambda m: m["type"] == "bye")["reason"]
    client.close()
    again = spawn(server.port)
    back = Client(again.base, table["id"], token)
    back.recv()
    assert back.recv()["version"] == seen["version"]
    back.close()
    again.kill(signal.SIGTERM)
