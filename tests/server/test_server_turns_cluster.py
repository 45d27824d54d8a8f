"""Turn-based tables served by two ``clubs serve`` processes over one PostgreSQL database (docs/server.md,
"Turn-based tables" and "Several processes"): a parked table is held by no process; whichever process sees its
clock run out wakes it, and its late move is played once, never twice, though both look; a process stopped and
started again in the middle loses no move and no clock. The days pass on the test clock (``--test-clock``), never by
sleeping.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import http_ece
import psycopg
import pytest
from proxykit import Node, owner_of, serving_pair
from reminderkit import SITE, Mailbox, PushService, browser_keys, confirmed, link_in, subscribe
from turnkit import DAY, HOUR, Player, clients, leave, paris, play, turn_table, wait_for

import loopback
from clubsuite.server.store.database import Store
from clubsuite.server.turns.dbclock import DbClock, advance

if TYPE_CHECKING:
    from pgcluster import Cluster

pytestmark = pytest.mark.backends("postgresql")
FAST = ("--test-clock", "--turn-sweep", "0.1", "--turn-park", "0.3")


@pytest.fixture
def nodes(
    postgres: Cluster, tmp_path: Path, pushes: PushService, mails: tuple[Mailbox, int]
) -> Iterator[tuple[Node, Node, str]]:
    url = postgres.new_database()
    reach = ("--push-contact", "mailto:operator@clubs.example", "--push-host", pushes.origin, "--site-url", SITE)
    mail = ("--smtp-host", "127.0.0.1", "--smtp-port", str(mails[1]))
    with serving_pair(tmp_path, url, (*FAST, *reach, *mail)) as (first, second):
        yield first, second, url


def clock_row(url: str, table: str) -> tuple[bool, int | None, float | None, int]:
    """The stored clock: (parked, the seat whose clock runs, its deadline, the version it was set at)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT parked, seat, deadline, version FROM turn_tables WHERE table_id = %s", (table,)
        ).fetchone()
    assert row is not None
    return bool(row[0]), row[1], row[2], int(row[3])


def sources(url: str, table: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seat, source FROM actions WHERE table_id = %s AND match_no = 0 ORDER BY seq", (table,)
        ).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


def move_on(url: str, seconds: float) -> None:
    store = Store(url)
    try:
        advance(store, seconds)
    finally:
        store.close()


def set_now(url: str, when: float) -> None:
    store = Store(url)
    try:
        advance(store, when - DbClock(store, test=True).now())
    finally:
        store.close()


def parked_and_free(url: str, table: str) -> bool:
    return clock_row(url, table)[0] and owner_of(url, table) is None


def test_two_processes_wake_a_parked_table_once_and_a_restart_loses_no_move_and_no_clock(
    nodes: tuple[Node, Node, str], pushes: PushService, mails: tuple[Mailbox, int]
) -> None:
    a, b, url = nodes
    box, _ = mails
    set_now(url, paris(15, 10))
    ann, bob, cat = Player(a.base, "Ann"), Player(b.base, "Bob"), Player(a.base, "Cat")
    # Ann's browser takes pushes; every one gives an address for the daily e-mail and confirms it
    private, auth, keys = browser_keys()
    subscribe(ann, pushes.origin + "/ann", keys)
    for p in (ann, bob, cat):
        address = f"{p.name.lower()}@example.org"
        assert p.http.put("/account/turns", json={"email": address}, headers=p.csrf).status_code == 200
        confirming = wait_for(lambda a=address: box.to(a), 60, "the confirming mail")[0]
        assert confirmed(b.base, link_in(confirming, "/mail/confirm")).status_code == 200
    table = turn_table(ann, [bob, cat], pace=DAY, on_timeout="bot")
    assert owner_of(url, table) == "a"
    # everyone plays through process b (the table's sockets relayed to its owner) until it is Ann's turn
    at = clients(b.base, table, [ann, bob, cat])
    play(at, lambda m: m["to_act"] != 0)
    msg = play(at, lambda m: m["to_act"] == 0)
    due = msg["turn"]["deadline"]
    moves = len(sources(url, table))
    assert not pushes.to("/ann"), "no push while Ann has the table open"
    leave(at)
    # Ann left with her move to make: a push says so, encrypted for her browser alone, and names no card
    headers, body = wait_for(lambda: pushes.to("/ann"), 60, "the push")[0]
    assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid ")
    payload = json.loads(http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm"))
    assert payload == {
        "kind": "your_turn",
        "table": table,
        "title": "Ann's Whist Clubs",
        "url": f"{SITE}/tables/{table}",
        "turn_of": "Ann",
    }
    wait_for(lambda: parked_and_free(url, table), 60, "the table to be parked, held by no process")
    assert clock_row(url, table)[1:3] == (0, pytest.approx(due))
    # a day and a minute later: both processes look, one wakes the table, and Ann's move is played once
    move_on(url, DAY + 60)
    wait_for(lambda: len(sources(url, table)) > moves, 60, "Ann's late move")
    wait_for(lambda: parked_and_free(url, table), 60, "the table to be parked again")
    assert sources(url, table)[moves] == (0, "timeout")
    assert [s for _, s in sources(url, table)].count("timeout") == 1
    _, late_seat, late_due, version = clock_row(url, table)
    assert late_seat is not None and late_due is not None
    # process a is stopped and started again while the next clock runs: nothing is lost
    a.kill(signal.SIGTERM)
    a.start()
    assert clock_row(url, table)[1:] == (late_seat, pytest.approx(late_due), version)
    assert len(sources(url, table)) == moves + 1
    move_on(url, 12 * HOUR)
    assert len(sources(url, table)) == moves + 1, "half the clock is left"
    # the late player's turn has waited half a day: their daily e-mail lists the table, and its link unsubscribes
    late = (ann, bob, cat)[late_seat]
    address = f"{late.name.lower()}@example.org"
    digest = wait_for(lambda: [m for m in box.to(address) if "Your turn" in str(m["Subject"])], 60, "the digest")[0]
    text = digest.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "Ann's Whist Clubs" in text and f"{SITE}/turns" in text
    off = link_in(digest, "/mail/unsubscribe")
    assert digest["List-Unsubscribe"] == f"<{SITE}{off}>"
    one_click = loopback.post(
        a.base + off,
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert one_click.status_code == 200, one_click.text
    late.rebase(b.base)
    assert late.get("/account/turns")["mail"] is False
    move_on(url, 12 * HOUR + 60)
    wait_for(lambda: len(sources(url, table)) > moves + 1, 60, "the second late move")
    wait_for(lambda: parked_and_free(url, table), 60, "the table to be parked again")
    assert [s for _, s in sources(url, table)].count("timeout") == 2
    # Ann comes back through process a: told what happened while she was away
    ann.rebase(a.base)
    back = clients(a.base, table, [ann])[0]
    state = back.until(lambda m: m["type"] == "state")
    assert len(state["away"]["updates"]) >= 2
    assert ann.get("/turns")["tables"][0]["id"] == table
    back.close()
    for p in (ann, bob, cat):
        p.close()
