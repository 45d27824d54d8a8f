"""The page's socket (``/live``): the lobby's list and a tournament's standings pushed to those who watch them,
made once per change for all of them and coalesced; a seat pushed to its account alone; bad messages refused with
the field and the rule, the socket going on; its bounds."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from serverkit import Client, ThreadServer, in_own_loop
from sqlalchemy import insert
from test_server_rated import account
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from clubsuite.server.community.tournaments import Tournaments, TournamentSettings
from clubsuite.server.community.watching import NOTICE_WINDOW, QUEUE_MAX, TOPICS_MAX, Watching
from clubsuite.server.limits import ServerLimits
from clubsuite.server.people.accounts import User
from clubsuite.server.people.notices import Notices
from clubsuite.server.people.relations import Relations
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import notices as notices_table
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub

pytestmark = pytest.mark.backends("sqlite", "postgresql")

DUEL = "northstar(players=2, target=10)"


class Live:
    """A page's socket, with the session cookie of a signed-in browser (or none)."""

    def __init__(self, server: ThreadServer, browser: Any = None) -> None:
        url = server.base.replace("http://", "ws://") + "/live"
        headers = {}
        if browser is not None:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        self._opened = connect(
            url, additional_headers=headers, open_timeout=10, max_size=2**24, ping_interval=None, max_queue=None
        )
        self.ws: ClientConnection = self._opened.__enter__()
        self.messages: list[dict[str, Any]] = []

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, check: Any, seconds: float = 60.0) -> dict[str, Any]:
        """The first message (already received or to come) that ``check`` accepts."""
        for m in self.messages:
            if check(m):
                return m
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            m = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            self.messages.append(m)
            if check(m):
                return m
        raise AssertionError("no such message in time")

    def close(self) -> None:
        self.ws.close()


def test_the_lobby_list_and_a_tournaments_standings_are_pushed_to_their_watchers(server: ThreadServer) -> None:
    ann, _, ann_h = account(server, "Ann")
    guest = Live(server)
    mine = Live(server, ann)
    try:
        before = time.time()
        welcome = guest.until(lambda m: m["type"] == "welcome")
        assert welcome["name"] is None and before - 1 <= welcome["now"] <= time.time() + 1  # the server's clock
        assert mine.until(lambda m: m["type"] == "welcome")["name"] == "Ann"
        guest.send({"type": "watch", "topic": "tournaments"})
        assert guest.until(lambda m: m["type"] == "tournaments")["tournaments"] == []
        tid = ann.post("/tournaments", json={"format": "arena", "game": DUEL}, headers=ann_h).json()["id"]
        listed = guest.until(lambda m: m["type"] == "tournaments" and m["tournaments"])
        assert [t["id"] for t in listed["tournaments"]] == [tid]
        for live in (guest, mine):
            live.send({"type": "watch", "topic": f"tournament:{tid}"})
        first = guest.until(lambda m: m["type"] == "tournament")
        assert first["tournament"]["entrants"] == 0
        ann.post(f"/tournaments/{tid}/join", headers=ann_h)
        later = guest.until(lambda m: m["type"] == "tournament" and m["tournament"]["entrants"] == 1)
        assert later["tournament"]["version"] > first["tournament"]["version"]
        assert [r["name"] for r in later["tournament"]["standings"]] == ["Ann"]
        me = mine.until(lambda m: m["type"] == "tournament_me")
        assert me["me"]["name"] == "Ann" and me["me"]["points"] == 0
        assert not any(m["type"] == "tournament_me" for m in guest.messages)  # a guest has no line of its own
    finally:
        guest.close()
        mine.close()


def test_a_seat_is_pushed_to_its_account_alone(server: ThreadServer) -> None:
    server.server.config.app.state.director.bots_after = 0.0
    ann, _, ann_h = account(server, "Ann")
    bob, _, _ = account(server, "Bob")
    hers, his = Live(server, ann), Live(server, bob)
    try:
        for live in (hers, his):
            live.until(lambda m: m["type"] == "welcome")
        tid = ann.post("/tournaments", json={"format": "arena", "game": DUEL}, headers=ann_h).json()["id"]
        ann.post(f"/tournaments/{tid}/join", headers=ann_h)
        ann.post(f"/tournaments/{tid}/start", headers=ann_h)
        notice = hers.until(lambda m: m["type"] == "notice" and m["notice"]["kind"] == "seat")["notice"]
        seat = notice["body"]
        assert seat["tournament"] == tid and "token" not in seat  # the table hands a token to the seat's account
        assert {**ann.get(f"/tournaments/{tid}/seat").json(), "name": seat["name"]} == seat
        assert [n["kind"] for n in ann.get("/notices").json()["notices"]] == ["seat"]
        token = ann.post(f"/tables/{seat['table']}/seat", headers=ann_h).json()["token"]
        at_table = Client(server.base, seat["table"], token)
        try:
            at_table.until(lambda m: m["type"] == "welcome" and m["seat"] == seat["seat"])
        finally:
            at_table.close()
        his.send({"type": "ping"})
        his.until(lambda m: m["type"] == "pong")
        assert not any(m["type"] == "notice" for m in his.messages)
    finally:
        hers.close()
        his.close()


def test_bad_messages_on_the_pages_socket_are_refused_and_it_goes_on(server: ThreadServer) -> None:
    live = Live(server)
    try:
        cases: list[tuple[Any, str, str]] = [
            ("not json", "bad_json", "JSON"),
            ([1, 2], "bad_json", "one JSON object"),
            ({"type": "shout"}, "bad_message", "'type'"),
            ({"type": "watch"}, "bad_message", "'topic'"),
            ({"type": "watch", "topic": "tables"}, "bad_topic", "'topic'"),
            ({"type": "watch", "topic": "tournament:../x"}, "bad_topic", "'topic'"),
            ({"type": "watch", "topic": "tournaments", "extra": 1}, "bad_message", "'extra'"),
            ({"type": "watch", "topic": "x" * 2_000}, "bad_message", "at most 60 characters"),
        ]
        for sent, code, named in cases:
            live.ws.send(sent if isinstance(sent, str) else json.dumps(sent))
            got = live.until(lambda m: m["type"] == "error" and m not in live.messages[:-1])
            assert got["code"] == code and named in got["message"], (sent, got)
            live.messages.clear()
        for k in range(TOPICS_MAX):
            live.send({"type": "watch", "topic": f"tournament:t{k}"})
        live.send({"type": "watch", "topic": "tournaments"})
        assert live.until(lambda m: m.get("code") == "too_many_topics")["message"].startswith("a socket watches")
        live.send({"type": "ping"})
        live.until(lambda m: m["type"] == "pong")
        with pytest.raises(ConnectionClosed) as closed:  # a frame over the server's limit closes the socket
            live.ws.send("x" * 100_000)
            live.until(lambda m: False, 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        live.close()


def test_a_change_is_made_into_one_message_for_all_its_watchers_and_changes_between_pushes_coalesce(
    store: Store,
) -> None:
    async def main() -> None:
        hub = Hub(Database(store))
        await hub.start()
        try:
            keeper = Tournaments(hub.database, hub)
            watching = Watching(keeper, ServerLimits())
            ann = User("u-ann", "Ann", 0.0, False)
            tid = await keeper.create(ann, TournamentSettings.read("arena", DUEL, "Coalesced"))
            watchers = [watching.open(None, f"10.0.0.{k % 50}") for k in range(200)]
            for w in watchers:
                watching.watch(w, f"tournament:{tid}")
            await watching.push()
            assert watching.pushes == 1 and all(w.queue.qsize() == 1 for w in watchers)
            texts = {w.queue.get_nowait() for w in watchers}
            assert len(texts) == 1  # one text, queued for all
            for k in range(5):  # five changes before the next push: one message
                await keeper.join(tid, User(f"u{k}", f"P{k}", 0.0, False))
            await watching.push()
            await watching.push()  # nothing new: nothing sent
            assert watching.pushes == 2 and all(w.queue.qsize() == 1 for w in watchers)
            last = json.loads(watchers[0].queue.get_nowait() or "{}")
            assert last["tournament"]["entrants"] == 5
            slow = watchers[1]  # a socket that never reads is dropped, not kept growing
            for _ in range(QUEUE_MAX + 1):
                slow.send("{}")
            assert slow.dropped
        finally:
            await hub.stop()

    in_own_loop(main)


@contextlib.asynccontextmanager
async def noticing(store: Store) -> AsyncIterator[tuple[Notices, Watching]]:
    """A running hub over ``store`` and its notices, with a :class:`Watching` that pushes them (not started: a test
    makes each look itself)."""
    hub = Hub(Database(store))
    await hub.start()
    try:
        relations = Relations(hub.database)
        notices = Notices(hub.database, relations)
        yield notices, Watching(Tournaments(hub.database, hub), ServerLimits(), relations, notices)
    finally:
        await hub.stop()


def test_a_page_open_for_hours_is_sent_each_new_notice_once_and_each_look_reads_only_the_last_half_minute(
    store: Store,
) -> None:
    async def main() -> None:
        async with noticing(store) as (notices, watching):
            notices.told = None  # as if added at another process: found by the look, not told at once
            page = watching.open("u-ann", "10.0.0.1")
            opened = time.time()
            asked: list[float] = []
            since = notices.since

            async def recording(users: list[str], after: float) -> list[tuple[str, dict[str, Any]]]:
                asked.append(after)
                return await since(users, after)

            notices.since = recording  # type: ignore[method-assign]
            await notices.add("u-ann", "warn", {"reason": "first"})
            await watching.look_around(opened + 1)
            behind = {"id": "from-a-slow-clock", "user_id": "u-ann", "kind": "warn", "body": '{"reason": "behind"}'}
            # added at a process whose clock is a few seconds behind this one's: before the page opened, by its clock
            store.write(lambda conn: conn.execute(insert(notices_table).values(**behind, created_at=opened - 5)))
            await watching.look_around(opened + 2)
            await watching.look_around(opened + 3)  # and sent once
            later = opened + 3 * 3600  # hours later, the page still open
            await watching.look_around(later)
            assert asked[-1] >= later - NOTICE_WINDOW  # not every notice since the page opened
            sent = []
            while not page.queue.empty():
                sent.append(json.loads(page.queue.get_nowait() or "{}"))
            assert [m["notice"]["body"]["reason"] for m in sent if m["type"] == "notice"] == ["first", "behind"]

    in_own_loop(main)


def test_a_notice_told_while_its_accounts_page_was_closed_is_not_pushed_to_a_page_opened_after(store: Store) -> None:
    """A notice added at this process is told at once (to no page, when none of its account's is open) and never
    pushed again by a look: a page opened within the half-minute reads it over HTTP as a kept one (a seat among them
    is a link), and a look made while no page was open at all does not forget that it was told."""

    async def main() -> None:
        async with noticing(store) as (notices, watching):
            await notices.add("u-ann", "warn", {"reason": "told to nobody"})
            added = time.time()
            await watching.look_around(added + 1)  # no page open anywhere
            page = watching.open("u-ann", "10.0.0.1")
            await watching.look_around(added + 2)
            await watching.look_around(added + 3)
            sent = []
            while not page.queue.empty():
                sent.append(json.loads(page.queue.get_nowait() or "{}"))
            assert [m for m in sent if m["type"] == "notice"] == []
            await notices.add("u-ann", "warn", {"reason": "new"})  # told at once to the open page
            await watching.look_around(time.time() + 1)
            while not page.queue.empty():
                sent.append(json.loads(page.queue.get_nowait() or "{}"))
            assert [m["notice"]["body"]["reason"] for m in sent if m["type"] == "notice"] == ["new"]

    in_own_loop(main)
