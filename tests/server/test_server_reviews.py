"""Reviews of finished matches on a real server: each one is worked out once and kept in the database (the same
match and seat, however its record is written or the answer is encoded, after a restart too), two identical ones
asked at once are worked out once, the work is bounded by an hourly budget per address and per account (a kept
review is free), and reviews have a worker of their own so that a plain replay never waits behind them.

The review itself is a stand-in (``reviewkit``): it counts the reviews the workers are given and can hold them, so
that every check waits on a condition, never on time."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from reviewkit import GATE_VARIABLE, Gate, counted_review
from serverkit import ROOMY, Client, ThreadServer, in_own_loop, new_table, wait_until
from sqlalchemy import create_engine, inspect, select
from test_server_play import play_out

import loopback
from clubsuite.server.limits import ServerLimits
from clubsuite.server.store import migrate
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import reviews
from clubsuite.server.store.handle import InlineDatabase
from clubsuite.server.table import replaying
from clubsuite.server.table.replaying import ReviewKey, ReviewStore

GOLDEN = Path(__file__).parent.parent / "golden"
GAME = "whist(target=3)"
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
PASSWORD = "correct horse battery"


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """The review workers run the stand-in review, which passes this gate (open: the test closes it to hold them)."""
    opened = Gate()
    monkeypatch.setenv(GATE_VARIABLE, opened.name)  # before any worker is spawned: they inherit it
    monkeypatch.setattr(replaying, "review_answer", counted_review)
    try:
        yield opened
    finally:
        opened.close()


def from_address(address: str, **kwargs: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8 reaches the server)."""
    return loopback.client(transport=loopback.transport(local_address=address), timeout=120, **kwargs)


def finished_match(server: ThreadServer, seed: int = 1) -> str:
    """A table whose first match a guest played to its end against two random bots: its id."""
    table = new_table(server.base, GAME, [{"kind": "person"}, *BOTS])["id"]
    r = loopback.post(f"{server.base}/tables/{table}/join", json={"name": "Ann"})
    assert r.status_code == 200, r.text
    client = Client(server.base, table, r.json()["token"])
    try:
        play_out({0: client}, random.Random(seed))
    finally:
        client.close()
    return str(table)


def review(client: httpx.Client, server: ThreadServer, table: str, seat: int, **headers: str) -> httpx.Response:
    return client.get(f"{server.base}/tables/{table}/review", params={"match": 0, "seat": seat}, headers=headers)


def refused(r: httpx.Response, status: int, code: str) -> str:
    """Check a refusal: its status, its JSON code; its message."""
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == code, body
    return str(body["message"])


def in_server(server: ThreadServer, work: Any) -> Any:
    """Run the coroutine ``work`` in the server's own event loop; its result."""
    loop = server.server.config.app.state.hub.loop
    return asyncio.run_coroutine_threadsafe(work, loop).result(120)


def test_the_same_review_asked_twice_is_worked_out_once_and_kept_across_a_restart(tmp_path: Path, gate: Gate) -> None:
    store = Store.in_directory(tmp_path)
    with ThreadServer(store) as server:
        table = finished_match(server)
        with from_address("127.0.0.2") as ann, from_address("127.0.0.3") as bob:
            first = review(ann, server, table, 0)
            assert first.status_code == 200, first.text
            again = review(bob, server, table, 0)
            assert again.status_code == 200 and again.json() == first.json()
        assert gate.calls == 1
        replayer = server.server.config.app.state.replayer
        assert (replayer.reviews_worked, replayer.reviews_from_store) == (1, 1)
        figures = server.server.config.app.state.internal.metrics.render().decode()
        assert 'clubs_reviews{how="worked"} 1.0' in figures and 'clubs_reviews{how="kept"} 1.0' in figures
    with ThreadServer(store) as server, from_address("127.0.0.4") as cid:  # the same database after a restart
        later = review(cid, server, table, 0)
        assert later.status_code == 200 and later.json() == first.json()
        assert gate.calls == 1


def test_the_same_match_asked_with_gzip_or_without_and_sent_in_other_whitespace_hits_the_same_stored_review(
    tmp_path: Path, gate: Gate
) -> None:
    with ThreadServer(Store.in_directory(tmp_path)) as server:
        table = finished_match(server)
        with from_address("127.0.0.2") as ann:
            zipped = review(ann, server, table, 1, **{"accept-encoding": "gzip"})
            plain = review(ann, server, table, 1, **{"accept-encoding": "identity"})
        assert zipped.status_code == plain.status_code == 200 and zipped.json() == plain.json()
        assert gate.calls == 1
        record = json.loads((GOLDEN / "whist-1997-explicit.record.json").read_text())
        compact = json.dumps(record, separators=(",", ":")).encode()
        spaced = json.dumps(record, indent=4, sort_keys=True, ensure_ascii=False).encode()
        replayer = server.server.config.app.state.replayer
        one = in_server(server, replayer.answer(compact, True, "127.0.0.3", review_seat=2))
        other = in_server(server, replayer.answer(spaced, False, "127.0.0.4", review_seat=2))
        assert one[0] == other[0] == 200 and one[1] == other[1]
        assert gate.calls == 2  # the second record is the same match, its review the one kept


def test_two_identical_reviews_asked_at_once_are_worked_out_once(tmp_path: Path, gate: Gate) -> None:
    with ThreadServer(Store.in_directory(tmp_path)) as server:
        table = finished_match(server)
        replayer = server.server.config.app.state.replayer
        gate.hold()
        with ThreadPoolExecutor(2) as pool, from_address("127.0.0.2") as ann, from_address("127.0.0.3") as bob:
            first = pool.submit(review, ann, server, table, 0)
            wait_until(lambda: gate.held == 1, 60, "the first review did not reach its worker")
            second = pool.submit(review, bob, server, table, 0)
            wait_until(lambda: replayer.reviews_shared == 1, 60, "the second review did not reach the server")
            assert not first.done() and not second.done()
            gate.open()
            a, b = first.result(120), second.result(120)
        assert a.status_code == b.status_code == 200 and a.json() == b.json()
        assert gate.calls == 1


def test_reviews_over_an_addresss_hourly_budget_are_refused_while_a_stored_one_is_still_answered(
    tmp_path: Path, gate: Gate
) -> None:
    limits = replace(ROOMY, review_rate="2/hour")
    with ThreadServer(Store.in_directory(tmp_path), limits) as server:
        table = finished_match(server)
        with from_address("127.0.0.2") as eve, from_address("127.0.0.3") as ann:
            assert [review(eve, server, table, seat).status_code for seat in (0, 1)] == [200, 200]
            r = review(eve, server, table, 2)
            assert "you have asked for many reviews this hour: try again later" in refused(r, 429, "rate_limited")
            assert int(r.headers["retry-after"]) > 0
            assert review(eve, server, table, 0).status_code == 200  # kept: it costs nothing
            assert review(ann, server, table, 2).status_code == 200  # another address has a budget of its own
        assert gate.calls == 3


def test_an_accounts_hourly_review_budget_counts_its_reviews_from_every_address(tmp_path: Path, gate: Gate) -> None:
    limits = replace(ROOMY, review_account_rate="2/hour")
    with ThreadServer(Store.in_directory(tmp_path), limits) as server:
        table = finished_match(server)
        with from_address("127.0.0.2") as home:
            r = home.post(f"{server.base}/account/signup", json={"name": "Eve", "password": PASSWORD})
            assert r.status_code == 201, r.text
            with from_address("127.0.0.3", cookies=home.cookies) as work, from_address("127.0.0.4") as guest:
                assert review(home, server, table, 0).status_code == 200
                assert review(work, server, table, 1).status_code == 200
                r = review(work, server, table, 2)
                assert "you have asked for many reviews this hour" in refused(r, 429, "rate_limited")
                assert review(home, server, table, 1).status_code == 200  # kept
                assert review(guest, server, table, 2).status_code == 200  # a guest at another address
        assert gate.calls == 3


def test_a_plain_replay_is_answered_while_a_review_holds_the_review_worker(tmp_path: Path, gate: Gate) -> None:
    record = (GOLDEN / "whist-1997-explicit.record.json").read_bytes()
    with ThreadServer(Store.in_directory(tmp_path)) as server:
        table = finished_match(server)
        gate.hold()
        with ThreadPoolExecutor(1) as pool, from_address("127.0.0.2") as eve, from_address("127.0.0.3") as ann:
            held = pool.submit(review, eve, server, table, 0)
            try:
                wait_until(lambda: gate.held == 1, 60, "the review did not reach its worker")
                r = ann.post(f"{server.base}/replays", content=record, timeout=60)
                assert r.status_code == 200 and r.json()["frames"]
                r = ann.get(f"{server.base}/tables/{table}/replay", params={"match": 0}, timeout=60)
                assert r.status_code == 200
                assert gate.held == 1 and not held.done()  # all of it while the review was held
            finally:
                gate.open()
            assert held.result(120).status_code == 200


def test_reviews_beyond_their_workers_and_queue_are_refused_busy(tmp_path: Path, gate: Gate) -> None:
    limits: ServerLimits = replace(ROOMY, review_workers=1, review_queue=1)
    with ThreadServer(Store.in_directory(tmp_path), limits) as server:
        table = finished_match(server)
        replayer = server.server.config.app.state.replayer
        gate.hold()
        clients = [from_address(f"127.0.0.{i}") for i in (2, 3, 4)]
        with ThreadPoolExecutor(2) as pool:
            try:
                working = pool.submit(review, clients[0], server, table, 0)
                wait_until(lambda: gate.held == 1, 60, "the review did not reach its worker")
                waiting = pool.submit(review, clients[1], server, table, 1)
                wait_until(lambda: replayer.reviews_in_flight == 2, 60, "the second review did not reach the server")
                assert "try again" in refused(review(clients[2], server, table, 2), 503, "busy")
            finally:
                gate.open()
                for c in clients[2:]:
                    c.close()
            assert [working.result(120).status_code, waiting.result(120).status_code] == [200, 200]
        for c in clients[:2]:
            c.close()


def test_the_kept_reviews_stay_under_their_byte_bound_the_oldest_going_first(each_store: Store) -> None:
    kept = ReviewStore(InlineDatabase(each_store), 10_000)  # the store's calls made in the test's own thread
    answer = b'{"decisions":"' + b"x" * 1984 + b'"}'  # 2000 bytes: five fit in 10 000

    async def main() -> None:
        for i in range(8):
            await kept.put(ReviewKey(f"d{i:02}", 0), 200, answer)
        await kept.put(ReviewKey("d03", 0), 200, b"{}")  # kept already (by another process): the first stays
        await kept.put(ReviewKey("huge", 0), 200, b"{}" + b" " * 2600)  # over a quarter of the bound: not kept
        assert await kept.get(ReviewKey("d07", 0)) == (200, answer)
        assert await kept.get(ReviewKey("d07", 1)) is None  # another seat
        assert await kept.get(ReviewKey("d07", 0, "samples=99")) is None  # other settings

    in_own_loop(main)
    rows = each_store.read(select(reviews.c.digest, reviews.c.size).order_by(reviews.c.digest))
    assert [r.digest for r in rows] == ["d03", "d04", "d05", "d06", "d07"]
    assert sum(r.size for r in rows) <= 10_000


def test_a_database_from_before_the_kept_reviews_comes_up_with_their_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'before.sqlite3'}"
    engine = create_engine(url)
    try:
        migrate.upgrade(engine, "0007")
        assert "reviews" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    store = Store(url)
    try:
        assert "reviews" in inspect(store.engine).get_table_names()
        assert store.read(select(reviews)) == []
    finally:
        store.close()
