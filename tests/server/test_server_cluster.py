"""Several ``clubs serve`` processes over one PostgreSQL database: any process answers any client about any table
(the request passed on to the table's owner, its WebSocket relayed there), a killed owner's tables are taken over
by another process from the log, and a stopping process hands its tables over.

Real processes and a real PostgreSQL server, on loopback, started and stopped by the tests; every wait is on a
condition, with a generous bound.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg
import pytest
from proxykit import LEASE, Node, node, owner_of, play, serving_pair, stored_log
from serverkit import Client, ProcessServer, get, new_table, post, start_all, wait_until
from test_server_live import DUEL, Live
from test_server_rated import account
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import loopback
from timeouts import HTTP_TIMEOUT

if TYPE_CHECKING:
    from pgcluster import Cluster

T = TypeVar("T")

ROOMY_RATES = (
    *("--create-rate", "100000/minute", "--join-rate", "100000/minute", "--request-rate", "1000000/minute"),
    *("--account-rate", "100000/hour", "--login-rate", "100000/minute"),
)
"""The rates per address of the processes the module's tests share: every test's requests come from one address,
and together they make more tables, seats and accounts than a public server's rates let one address make (the
tests of those rates are elsewhere, on one server)."""


@pytest.fixture(scope="module")
def pair(postgres: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Node, Node, str]]:
    """Two processes over one new database, both serving (first, second, the database's URL), started once for
    the module's tests that kill or stop neither and read nothing another test changes: each makes tables and
    accounts of its own (its own names). The one test that counts the people of both processes comes first in the
    file, before any other has seated anybody; the one that ends the lobbies' database connections comes last.
    Both are killed after the module."""
    url = postgres.new_database()
    folder = tmp_path_factory.mktemp("pair")
    with serving_pair(folder, url, ROOMY_RATES) as (first, second):
        yield first, second, url


def test_the_lobby_of_either_process_lists_the_public_tables_of_both_as_they_change(
    pair: tuple[Node, Node, str],
) -> None:
    """The lobby across processes (PostgreSQL's LISTEN/NOTIFY): a table made at one process is listed by the other,
    its seats as they are taken; a private table is listed by neither."""
    first, second, _ = pair
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    at_first = new_table(first.base, "whist", seats)["id"]
    at_second = new_table(second.base, "whist", seats)["id"]
    made = new_table(first.base, "whist", seats, public=False)
    hidden, hidden_invite = made["id"], made["invite"]

    def listed(base: str) -> dict[str, Any]:
        return {t["id"]: t for t in get(base, "/tables")}

    for base in (first.base, second.base):
        wait_until(lambda b=base: {at_first, at_second} <= set(listed(b)), 60, "a table is missing from a lobby")
        assert hidden not in listed(base)
    post(first.base, f"/tables/{at_first}/join", {"name": "Zoë"})
    wait_until(
        lambda: listed(second.base)[at_first]["free_seats"] == [1], 60, "the other process's lobby did not change"
    )
    # the people seated, counted over both processes (the private table's person too)
    post(first.base, f"/invites/{hidden_invite}/join", {"name": "Yann"})
    for base in (first.base, second.base):
        wait_until(lambda b=base: get(b, "/presence")["people"] == 2, 60, "a process's count of people is wrong")


def test_a_table_made_at_one_process_is_joined_watched_and_played_through_the_other(
    pair: tuple[Node, Node, str],
) -> None:
    first, second, url = pair
    table = new_table(first.base, "whist", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2])
    table_id = table["id"]
    assert owner_of(url, table_id) == "a"
    info = get(second.base, f"/tables/{table_id}")  # asked of the process that does not own it: passed on
    assert info["id"] == table_id
    token = post(second.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    player = Client(second.base, table_id, token)  # the socket relayed to the owner
    watcher = Client(first.base, table_id)
    try:
        player.until(lambda m: m["type"] == "welcome" and m["seat"] == 0)
        play(player, 3)
        version = player.last_state()["version"]
        watcher.until(lambda m: m["type"] in ("state", "update") and m["version"] >= version)
    finally:
        player.close()
        watcher.close()
    assert len(stored_log(url, table_id)) >= 3
    assert owner_of(url, table_id) == "a"  # served where it was made all along


def test_a_killed_owner_s_table_goes_on_at_the_other_process_with_nothing_lost_or_doubled(
    two_nodes: tuple[ProcessServer, ProcessServer, str],
) -> None:
    """kill -9 of the owner in the middle of play: the other process takes the table over from the log within
    seconds, the client reconnects (to the survivor) and resyncs at the version it had, and play goes on; the log
    holds every accepted action once."""
    first, second, url = two_nodes
    table = new_table(first.base, "whist", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2])
    table_id = table["id"]
    token = post(first.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    player = Client(first.base, table_id, token)
    try:
        play(player, 2)
        seen = player.last_state()["version"]
        before = stored_log(url, table_id)
    finally:
        player.close()
    first.kill(signal.SIGKILL)
    wait_until(lambda: owner_of(url, table_id) == "b", 30, "the survivor did not take the table over")
    again = Client(second.base, table_id, token, last_version=seen)
    try:
        state = again.until(lambda m: m["type"] == "state")
        assert state["version"] >= seen
        play(again, 2)
    finally:
        again.close()
    after = stored_log(url, table_id)
    assert after[: len(before)] == before  # nothing accepted before the kill was lost
    assert [seq for seq, _, _ in after] == list(range(len(after)))  # each place in the log once: nothing doubled
    assert len(after) >= len(before) + 2


def test_a_stopping_process_hands_its_tables_over_at_once(two_nodes: tuple[ProcessServer, ProcessServer, str]) -> None:
    """SIGTERM: the owner's leases end as it stops, so the other process serves the table at the client's next
    request, without waiting for a lease to run out."""
    first, second, url = two_nodes
    table = new_table(first.base, "whist", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2])
    table_id = table["id"]
    token = post(second.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    player = Client(second.base, table_id, token)
    try:
        play(player, 1)
        seen = player.last_state()["version"]
        assert first.kill(signal.SIGTERM) in (0, 128 + signal.SIGTERM)
        bye: dict[str, Any] = player.until(lambda m: m["type"] == "bye")
        assert "reconnect" in bye["reason"]
    finally:
        player.close()
    again = Client(second.base, table_id, token, last_version=seen)
    try:
        again.until(lambda m: m["type"] == "welcome")
        assert owner_of(url, table_id) == "b"
        play(again, 1)
    finally:
        again.close()


def test_quick_play_asked_of_either_process_seats_a_person_at_a_table_waiting_at_the_other(
    two_nodes: tuple[ProcessServer, ProcessServer, str],
) -> None:
    """Quick play across processes: a public table waiting for players at one process is found by quick play asked
    of the other (passed on to the table's owner, which seats the person), as it would be with one process; once no
    process has such a table, quick play makes one where it was asked."""
    first, second, url = two_nodes
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    waiting = new_table(first.base, "whist", seats)["id"]
    post(first.base, f"/tables/{waiting}/join", {"name": "Ann"})
    wait_until(
        lambda: any(t["id"] == waiting and t["free_seats"] == [1] for t in get(second.base, "/tables")),
        60,
        "the other process's lobby did not list the waiting table",
    )
    seated = post(second.base, "/quickplay", {"game": "whist", "name": "Zoë"})
    assert (seated["table"], seated["seat"]) == (waiting, 1)
    assert owner_of(url, waiting) == "a"  # seated where the table lives
    assert [s["name"] for s in get(second.base, f"/tables/{waiting}")["seats"]][:2] == ["Ann", "Zoë"]
    wait_until(
        lambda: all(t["id"] != waiting or not t["free_seats"] for t in get(second.base, "/tables")),
        60,
        "the other process's lobby did not see the table fill",
    )  # until then, a quick play there is passed to the owner, which makes the new table itself
    made = post(second.base, "/quickplay", {"game": "whist", "name": "Bea"})  # nothing waits now: a new table
    assert made["table"] != waiting and made["seat"] == 0
    assert owner_of(url, made["table"]) == "b"
    refused = loopback.post(second.base + "/quickplay", json={"game": "no such game", "name": "Bea"})
    assert refused.status_code == 400 and "no such game" in refused.json()["message"]


SEATS = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
"""A whist table's seats: two people, a random bot."""


def _lease(url: str, table_id: str) -> tuple[str, int] | None:
    """The table's lease as stored: (node, epoch)."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT node, epoch FROM leases WHERE table_id = %s", (table_id,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def _while_the_first_holds_it(first: ProcessServer, url: str, observe: Callable[[str], T]) -> T:
    """What ``observe`` saw of a new table made at ``a``, asked while ``a`` held it throughout. The tests' lease is
    2 s, so on a loaded machine ``b`` may take the table over between two of ``a``'s heartbeats, and then rightly
    serves it itself: such a try says nothing about passing on, and is made again with a new table (never a
    measure of speed: what is checked is that the lease did not change)."""
    for _ in range(10):
        table_id = new_table(first.base, "whist", SEATS)["id"]
        before = _lease(url, table_id)
        assert before is not None and before[0] == "a"
        seen = observe(table_id)
        if _lease(url, table_id) == before:
            return seen
    raise AssertionError("the table left its first process during every try")


def test_a_request_passed_on_to_a_process_that_lost_the_table_goes_on_to_its_owner_never_answered_unknown(
    pair: tuple[Node, Node, str],
) -> None:
    """Finding 6, its second way: a process passes a request on to the owner it read, which lost the table to a
    third process a moment before (its heartbeat came late under load). That process looks again and passes the
    request on to the owner it finds, never answering "no such table" for a table that exists. Here ``b`` is
    handed requests as a process ``c`` (and ``c`` then ``d``) that took ``b`` for the owner would hand them; the
    owner is ``a``."""
    first, second, url = pair

    def observe(table_id: str) -> list[tuple[int, Any]]:
        seen: list[tuple[int, Any]] = []
        for hops in ("c", "c, d"):  # one or two processes before: still fewer than three passes
            passed = {"X-Clubs-Forwarded": hops}
            joined = loopback.post(
                f"{second.base}/tables/{table_id}/join", json={"name": ("Zoë", "Yves")[len(seen) // 2]}, headers=passed
            )
            seen.append((joined.status_code, joined.json()))
            info = loopback.get(f"{second.base}/tables/{table_id}", headers=passed)
            seen.append((info.status_code, info.json()))
        token = seen[0][1].get("token")
        with connect(
            f"ws://127.0.0.1:{second.port}/tables/{table_id}/ws", additional_headers={"X-Clubs-Forwarded": "c"}
        ) as socket:
            socket.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            seen.append((200, json.loads(socket.recv(timeout=HTTP_TIMEOUT))))
        return seen

    seen = _while_the_first_holds_it(first, url, observe)
    assert [status for status, _ in seen] == [200] * 5, seen
    assert [answer["seat"] for answer in (seen[0][1], seen[2][1])] == [0, 1]
    assert seen[4][1]["type"] == "welcome" and seen[4][1]["seat"] == 0


def test_a_request_that_would_go_back_to_a_process_it_came_through_is_told_to_try_again(
    pair: tuple[Node, Node, str],
) -> None:
    """A request never goes round in circles between processes that each think another owns the table: one that
    would be passed back to a process it has been through (or passed on a fourth time) is answered 503 ``moved``
    with ``Retry-After``, its WebSocket closed with 1013 (try again later), never 404 for a table that exists."""
    first, second, url = pair

    def observe(table_id: str) -> list[tuple[int, Any, str | None]]:
        seen: list[tuple[int, Any, str | None]] = []
        for hops in ("a", "c, d, e"):
            answer = loopback.get(f"{second.base}/tables/{table_id}", headers={"X-Clubs-Forwarded": hops})
            seen.append((answer.status_code, answer.json(), answer.headers.get("retry-after")))
        address = f"ws://127.0.0.1:{second.port}/tables/{table_id}/ws"
        with connect(address, additional_headers={"X-Clubs-Forwarded": "a"}) as socket:
            try:
                socket.recv(timeout=HTTP_TIMEOUT)
            except ConnectionClosed as closed:
                seen.append((closed.rcvd.code if closed.rcvd is not None else 0, None, None))
        seen.append((200, get(second.base, f"/tables/{table_id}")["id"] == table_id, None))  # straight: passed on
        return seen

    seen = _while_the_first_holds_it(first, url, observe)
    assert [(status, answer["code"], retry) for status, answer, retry in seen[:2]] == [(503, "moved", "1")] * 2, seen
    assert seen[2][0] == 1013, seen  # the socket closed: try again later
    assert seen[3] == (200, True, None)


def test_a_full_process_asked_about_a_table_whose_owner_died_says_try_again_never_no_such_table(
    postgres: Cluster, tmp_path: Path
) -> None:
    """A process that can take no table now (full: ``--max-tables``) and is asked about a table whose owner died
    answers 503 ``moved`` with ``Retry-After`` (another process will take it over), never 404: the table exists.
    Once a process with room is asked, the table goes on there."""
    url = postgres.new_database()
    first, full = node(tmp_path, url, "a"), node(tmp_path, url, "b")
    full.extra = (*full.extra, "--max-tables", "1")
    try:
        start_all([first, full])
        new_table(full.base, "whist", SEATS)  # its one table: it is full
        table_id = new_table(first.base, "whist", SEATS)["id"]
        first.kill(signal.SIGKILL)
        wait_until(lambda: not _live(url, "a"), 60, "the killed process's heartbeat did not expire")
        answers = [
            loopback.get(f"{full.base}/tables/{table_id}"),
            loopback.post(f"{full.base}/tables/{table_id}/join", json={"name": "Zoë"}),
        ]
        assert [(a.status_code, a.json()["code"], a.headers.get("retry-after")) for a in answers] == [
            (503, "moved", "1")
        ] * 2
        assert owner_of(url, table_id) == "a"  # nobody took it over: the full process refused to
        again = node(tmp_path, url, "c")
        try:
            again.start()
            assert get(again.base, f"/tables/{table_id}")["id"] == table_id  # taken over where there is room
        finally:
            again.kill(signal.SIGKILL)
    finally:
        for process in (full, first):
            if process.proc is not None:
                process.kill(signal.SIGKILL)


def _live(url: str, name: str) -> bool:
    """Whether a process's heartbeat is live by the database's clock (as the processes judge it)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT seen_at >= extract(epoch FROM clock_timestamp()) - %s FROM nodes WHERE name = %s",
            (float(LEASE), name),
        ).fetchone()
    return bool(row is not None and row[0])


def test_a_tournament_seats_entrants_whose_pages_another_process_serves(
    pair: tuple[Node, Node, str],
) -> None:
    """Whichever process directs the tournament, each entrant's page (one at each process) is told of its table by
    a notice kept in the database and takes its seat there, the seat's token handed over by the table's owner."""
    first, second, _ = pair
    ann, _, ann_h = account(first, "Ann")
    bob, _, bob_h = account(second, "Bob")
    made = ann.post("/tournaments", json={"format": "arena", "game": DUEL, "bots": False}, headers=ann_h)
    tid = made.json()["id"]
    pages = {"Ann": Live(first, ann), "Bob": Live(second, bob)}
    try:
        for b, h in ((ann, ann_h), (bob, bob_h)):
            assert b.post(f"/tournaments/{tid}/join", headers=h).status_code == 200
        for page in pages.values():
            page.until(lambda m: m["type"] == "welcome")
        assert ann.post(f"/tournaments/{tid}/start", headers=ann_h).status_code == 200
        for name, b, h, base in (("Ann", ann, ann_h, first.base), ("Bob", bob, bob_h, second.base)):
            told = pages[name].until(lambda m: m["type"] == "notice" and m["notice"]["kind"] == "seat", 120)
            seat = told["notice"]["body"]
            assert b.get(f"/tournaments/{tid}/seat").json()["table"] == seat["table"]
            given = b.post(f"/tables/{seat['table']}/seat", headers=h).json()
            player = Client(base, seat["table"], given["token"])
            try:
                player.until(lambda m, n=seat["seat"]: m["type"] == "welcome" and m["seat"] == n)
            finally:
                player.close()
    finally:
        for page in pages.values():
            page.close()


def test_a_block_made_at_one_process_hides_chat_at_a_table_another_process_serves(
    pair: tuple[Node, Node, str],
) -> None:
    first, second, _ = pair
    dora, _, dora_h = account(first, "Dora")
    emil, _, emil_h = account(first, "Emil")
    table = new_table(first.base, "whist(target=2)", [{"kind": "person"}] * 3)["id"]  # served by the first
    a = Client(first.base, table, dora.post(f"/tables/{table}/join", json={}, headers=dora_h).json()["token"])
    b = Client(first.base, table, emil.post(f"/tables/{table}/join", json={}, headers=emil_h).json()["token"])
    try:
        for x in (a, b):
            x.until(lambda m: m["type"] == "state")
        at_second = loopback.client(base_url=second.base, timeout=30)
        at_second.cookies.update(dora.cookies)
        csrf = {"X-CSRF-Token": at_second.get("/account").json()["csrf"]}
        assert at_second.post("/players/Emil/block", headers=csrf).status_code == 200  # at the other process
        at_second.close()
        # Emil speaks and hears himself (the table has told everyone his line), then Dora: the table tells Dora in the
        # order it heard them, so once her own line is back, Emil's would have come before it (two sockets arrive in
        # any order: waiting for Emil's echo is what puts his line first)
        for k in range(100):
            b.send({"type": "chat", "text": f"Emil {k}"})
            b.until(lambda m, k=k: m["type"] == "chat" and m["text"] == f"Emil {k}")
            a.send({"type": "chat", "text": f"Dora {k}"})
            a.until(lambda m, k=k: m["type"] == "chat" and m["text"] == f"Dora {k}")
            if not any(m.get("text") == f"Emil {k}" for m in a.messages):
                break  # hidden from Dora now, though the block was made elsewhere
            time.sleep(1.2)  # within the chat's rate: one line a second
        else:
            raise AssertionError("Emil's lines still reach Dora two minutes after she blocked him")
        time.sleep(1.2)
        b.send({"type": "chat", "text": "Emil again"})
        b.until(lambda m: m["type"] == "chat" and m["text"] == "Emil again")
        a.send({"type": "chat", "text": "Dora again"})
        a.until(lambda m: m["type"] == "chat" and m["text"] == "Dora again")
        assert not any(m.get("text") == "Emil again" for m in a.messages)
    finally:
        a.close()
        b.close()


def test_a_message_is_reported_and_a_friend_invited_at_a_table_another_process_serves(
    pair: tuple[Node, Node, str],
) -> None:
    """The chat a report quotes and the free seat an invitation offers live at the table's owner: the table's own
    addresses (``/tables/{id}/reports``, ``/tables/{id}/invitations``) reach it from any process. The owner knows
    who was at the table when the line was said, a player or one watching through another process: their reports
    count toward an automatic mute, whichever process received them."""
    first, second, url = pair
    fay, fay_id, fay_h = account(first, "Fay")
    gus, _, gus_h = account(first, "Gus")
    cleo, cleo_id, cleo_h = account(second, "Cleo")
    with psycopg.connect(url) as conn:  # accounts of some standing (days old)
        for old in (fay_id, cleo_id):
            conn.execute("UPDATE users SET created_at = created_at - %s WHERE id = %s", (7 * 86400, old))
    table = new_table(first.base, "whist(target=2)", [{"kind": "person"}] * 3)["id"]  # served by the first
    a = Client(first.base, table, fay.post(f"/tables/{table}/join", json={}, headers=fay_h).json()["token"])
    b = Client(first.base, table, gus.post(f"/tables/{table}/join", json={}, headers=gus_h).json()["token"])
    cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in cleo.cookies.items())}
    c = Client(second.base, table, None, headers=cookie)  # Cleo watches, her socket relayed by the second
    at_second = loopback.client(base_url=second.base, timeout=30)
    try:
        for x in (a, b, c):
            x.until(lambda m: m["type"] == "state")
        b.send({"type": "chat", "text": "a rude line"})
        line = a.until(lambda m: m["type"] == "chat" and m["text"] == "a rude line")
        at_second.cookies.update(fay.cookies)
        csrf = {"X-CSRF-Token": at_second.get("/account").json()["csrf"]}
        made = at_second.post(f"/tables/{table}/reports", json={"message": line["id"], "reason": "rude"}, headers=csrf)
        assert made.status_code == 201, made.text
        invited = at_second.post(f"/tables/{table}/invitations", json={"to": "Cleo"}, headers=csrf)
        assert invited.json() == {"invited": "Cleo"}, invited.text
        told = cleo.get("/notices").json()["notices"]
        assert [(n["kind"], n["body"]["table"]) for n in told] == [("invite", table)]
        by_cleo = cleo.post(f"/tables/{table}/reports", json={"message": line["id"]}, headers=cleo_h)
        assert by_cleo.status_code == 201, by_cleo.text
    finally:
        at_second.close()
        for x in (a, b, c):
            x.close()
    with psycopg.connect(url) as conn:
        kept = conn.execute("SELECT kind, context, counts FROM reports").fetchall()
    assert [(k, json.loads(c)["line"]["text"], n) for k, c, n in kept] == [("message", "a rude line", True)] * 2


def _end_lobby_connections(url: str) -> int:
    """End, from the database's side, every connection the processes' lobbies hold (as a database restart or an
    operator's ``pg_terminate_backend`` would); how many were ended."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name LIKE 'clubs-lobby %'"
        ).fetchall()
    return len(rows)


def test_a_lobby_whose_database_connections_were_ended_hears_and_publishes_again(
    pair: tuple[Node, Node, str],
) -> None:
    """A process's lobby is never left deaf (its listener's connection lost) or dumb (its sender's): after every
    lobby connection of both processes is ended at the database, a public table made at either is listed by the
    other."""
    first, second, url = pair
    before = new_table(first.base, "whist", SEATS)["id"]
    wait_until(lambda: before in {t["id"] for t in get(second.base, "/tables")}, 60, "the first table is not listed")
    assert _end_lobby_connections(url) == 4  # a listener and a sender in each process
    at_first = new_table(first.base, "whist", SEATS)["id"]
    at_second = new_table(second.base, "whist", SEATS)["id"]
    for base, wanted in ((second.base, {at_first}), (first.base, {at_second})):
        wait_until(
            lambda b=base, w=wanted: w <= {t["id"] for t in get(b, "/tables")},
            60,
            "a lobby stayed deaf or dumb after its connections were ended",
        )
