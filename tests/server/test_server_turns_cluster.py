"""Turn-based tables served by two ``clubs serve`` processes over one PostgreSQL database (docs/server.md,
"Turn-based tables", "Reminders" and "Several processes"): three friends' week of whist. A clock runs out of each
kind (an adjourning table, resumed and adjourned again; a rated one where the late player loses; a bot playing a late
move); one player's playing hours stop her clock at night, another's vacation taken through the other process moves
his; a parked table is held by no process, and whichever process sees its clock run out wakes it, its late move
played once though both look; a process stopped and started again loses no move and no clock; a push reaches a
browser's endpoint (decrypted with its keys) and a daily e-mail a mail server (its link unsubscribes). The days pass
on the test clock (``--test-clock``), never by sleeping."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def entry(player: Player, table: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in player.get("/turns")["tables"] if e["id"] == table)
    return found


def started(maker: Player, others: list[Player], via: str, **settings: Any) -> tuple[str, int]:
    """A turn-based table made by ``maker``, its two moves played through process ``via``, its players gone: the
    table and the seat whose clock runs."""
    table = turn_table(maker, others, **settings)
    at = clients(via, table, [maker, *others])
    late = play(at, lambda m: False, moves=2)["to_act"]
    leave(at)
    return table, int(late)


def test_two_processes_play_a_week_of_turn_based_whist_and_a_restart_loses_no_move_and_no_clock(
    nodes: tuple[Node, Node, str], pushes: PushService, mails: tuple[Mailbox, int]
) -> None:
    a, b, url = nodes
    box, _ = mails
    set_now(url, paris(15, 10))  # Monday 15 March 2027, 10:00 in Paris
    ann, bob, cat = Player(a.base, "Ann"), Player(b.base, "Bob"), Player(a.base, "Cat")
    friends = (ann, bob, cat)

    # Monday: two tables at 12 hours a move, one adjourning, one rated where the late player loses
    adjourning, late2 = started(bob, [cat, ann], a.base, pace=12 * HOUR, on_timeout="adjourn")
    losing, late3 = started(cat, [ann, bob], b.base, pace=12 * HOUR, on_timeout="lose", rated=True)
    moves2 = len(sources(url, adjourning))
    set_now(url, paris(15, 22, 5))
    wait_for(lambda: entry(ann, adjourning)["adjourned"], 60, "the adjournment")
    wait_for(lambda: entry(ann, losing)["over"], 60, "the loss on time")
    assert len(sources(url, adjourning)) == moves2, "nobody moved for the late player"
    assert entry(bob, losing)["ended"] == {"lost": late3}
    seated3 = (cat, ann, bob)  # the losing table's seats
    results = seated3[0].get(f"/tables/{losing}/results?invite={seated3[0].invite}")
    assert results["rated"] and {s["seat"]: s["place"] for s in results["seats"]}[late3] == 3
    other = (bob, cat, ann)[(late2 + 1) % 3]  # the adjourning table's seats are Bob, Cat, Ann
    other.rebase(b.base)
    other.post(f"/tables/{adjourning}/turn/resume")
    assert not entry(ann, adjourning)["adjourned"]
    assert abs(entry(ann, adjourning)["seconds_left"] - 12 * HOUR) < 120
    set_now(url, paris(16, 10, 10))  # Tuesday: the late player let it run out again
    wait_for(lambda: entry(ann, adjourning)["adjourned"], 60, "the second adjournment")
    assert len(sources(url, adjourning)) == moves2

    # Tuesday: Ann plays from 09:00 to 21:00 in Paris and takes pushes; everyone gets a daily e-mail
    hours = {"zone": "Europe/Paris", "day_start": 9 * 60, "day_end": 21 * 60}
    assert ann.http.put("/account/turns", json=hours, headers=ann.csrf).status_code == 200
    private, auth, keys = browser_keys()
    subscribe(ann, pushes.origin + "/ann", keys)
    for p in friends:
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
    # a day of her clock in her hours: Tuesday 10:10 to 21:00, Wednesday 09:00 to 21:00, Thursday 09:00 to 10:10
    assert abs(due - paris(18, 10, 10)) < 120, due
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
    set_now(url, paris(17, 22))  # Wednesday night: her clock is stopped, an hour and ten minutes left
    assert entry(bob, table)["paused"] == "night" and len(sources(url, table)) == moves
    # Thursday 10:11: both processes look, one wakes the table, and Ann's move is played once
    set_now(url, paris(18, 10, 11))
    wait_for(lambda: len(sources(url, table)) > moves, 60, "Ann's late move")
    wait_for(lambda: parked_and_free(url, table), 60, "the table to be parked again")
    assert sources(url, table)[moves] == (0, "timeout")
    assert [s for _, s in sources(url, table)].count("timeout") == 1
    _, late_seat, late_due, version = clock_row(url, table)
    assert late_seat is not None and late_due is not None
    late = friends[late_seat]
    # process a is stopped and started again while the next clock runs: nothing is lost
    a.kill(signal.SIGTERM)
    a.start()
    assert clock_row(url, table)[1:] == (late_seat, pytest.approx(late_due), version)
    assert len(sources(url, table)) == moves + 1
    # the late player's turn has waited for hours (in their playing hours): their daily e-mail lists the table, and
    # its link unsubscribes them
    set_now(url, paris(19, 9, 30) if late is ann else paris(18, 22, 11))
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
    assert len(sources(url, table)) == moves + 1
    # the late player takes two days off through process b: their clock, held in the database, moves on by them
    late.post("/account/vacations", {"days": 2}, status=201)
    moved = wait_for(lambda: (d := clock_row(url, table)[2]) is not None and d > late_due + DAY and d, 60, "the move")
    assert abs(moved - late_due - 2 * DAY) < HOUR
    set_now(url, late_due + 22 * HOUR)  # long after the clock would have run out without the vacation
    assert entry(late, table)["paused"] == "vacation" and len(sources(url, table)) == moves + 1
    set_now(url, moved + 60)
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
    for p in friends:
        p.close()
