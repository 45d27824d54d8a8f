"""What the tournaments and the people's features must never tell anyone else, on SQLite and PostgreSQL.

(a) A tournament's seat token goes to its entrant alone (``GET /tournaments/{id}/seat``, the ``seat`` push to that
    account's pages); the list, the standings and the ``tournament`` pushes carry no token and no table's invite.
(b) An invitation's invite code reaches the invited account alone.
(c) The reports' queue, with the messages reported, is the moderators'; the reported player never learns who
    reported them, from any answer they can get.
(d) Whom an account blocked or muted, nobody else sees: not in their own lists, their friends, a profile, a table.
(e) An account whose presence is "nobody" is never online in anyone's friends.

Each check reads every message and every JSON answer the others can get, as text, for the secret itself.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
import pytest
from serverkit import Client, ThreadServer, new_table, wait_until
from test_server_live import Live
from test_server_people import aged, watching
from test_server_rated import account

import loopback
from clubsuite.server.store.database import Store
from clubsuite.server.table.hub import Hub

pytestmark = pytest.mark.backends("sqlite", "postgresql")

DUEL = "northstar(players=2, target=10)"
SHORT = "whist(target=2)"


def run(server: ThreadServer, work: Any) -> Any:
    hub = server.server.config.app.state.hub
    return asyncio.run_coroutine_threadsafe(work, hub.loop).result(60)


def hub_of(server: ThreadServer) -> Hub:
    hub: Hub = server.server.config.app.state.hub
    return hub


def texts(answers: Iterable[Any]) -> list[str]:
    """Each answer or message as the text a client reads."""
    return [a if isinstance(a, str) else json.dumps(a, ensure_ascii=False) for a in answers]


def holds_none(answers: Iterable[Any], secrets: Iterable[str], who: str) -> None:
    """No answer holds any of ``secrets``."""
    secrets = [s for s in secrets if s]
    assert secrets
    for text in texts(answers):
        for secret in secrets:
            assert secret not in text, f"{who} was sent {secret!r}: {text[:300]}"


def answers_of(b: httpx.Client, paths: Iterable[str]) -> list[Any]:
    """What one browser gets from each path (JSON, or the text of a CSV)."""
    out: list[Any] = []
    for path in paths:
        r = b.get(path)
        assert r.status_code < 500, (path, r.status_code, r.text)
        out.append(r.text)
    return out


@pytest.fixture
def guest(server: ThreadServer) -> Iterator[httpx.Client]:
    b = loopback.client(base_url=server.base, timeout=30)
    try:
        yield b
    finally:
        b.close()


# -- (a) a tournament's seat tokens ------------------------------------------------------------------------------
def test_a_tournaments_seat_token_reaches_its_entrant_alone_and_no_list_or_push_carries_a_token_or_invite(
    server: ThreadServer, guest: httpx.Client
) -> None:
    server.server.config.app.state.director.bots_after = 0.0
    ann, _, ann_h = account(server, "Ann")
    bob, _, bob_h = account(server, "Bob")
    cleo, _, cleo_h = account(server, "Cleo")
    tid = ann.post("/tournaments", json={"format": "arena", "game": DUEL}, headers=ann_h).json()["id"]
    for b, h in ((ann, ann_h), (bob, bob_h)):
        assert b.post(f"/tournaments/{tid}/join", headers=h).status_code == 200
    cleo.post("/players/Ann/follow", headers=cleo_h)
    lives = {"Ann": Live(server, ann), "Bob": Live(server, bob), "Cleo": Live(server, cleo), "guest": Live(server)}
    try:
        for live in lives.values():
            live.until(lambda m: m["type"] == "welcome")
            live.send({"type": "watch", "topic": "tournaments"})
            live.send({"type": "watch", "topic": f"tournament:{tid}"})
            live.until(lambda m: m["type"] == "tournament")
        assert ann.post(f"/tournaments/{tid}/start", headers=ann_h).status_code == 200
        seats = {
            name: lives[name].until(lambda m: m["type"] == "notice" and m["notice"]["kind"] == "seat")["notice"]["body"]
            for name in ("Ann", "Bob")
        }
        for name, b in (("Ann", ann), ("Bob", bob)):
            assert {**b.get(f"/tournaments/{tid}/seat").json(), "name": seats[name]["name"]} == seats[name]
        tokens = {
            name: b.post(f"/tables/{seats[name]['table']}/seat", headers=h).json()["token"]
            for name, b, h in (("Ann", ann, ann_h), ("Bob", bob, bob_h))
        }
        tables = {seat["table"] for seat in seats.values()}
        invites = [hub_of(server).tables[t].invite for t in tables]
        assert all(tokens.values()) and all(invites) and tokens["Ann"] != tokens["Bob"]
        for live in lives.values():  # every watcher has been told the tournament runs, with its standings
            live.until(lambda m: m["type"] == "tournament" and m["tournament"]["status"] == "running", 60)
            live.until(lambda m: m["type"] == "tournaments" and m["tournaments"][0]["status"] == "running", 60)
        assert cleo.get(f"/tournaments/{tid}/seat").json() == {"tournament": tid, "table": None}
        assert guest.get(f"/tournaments/{tid}/seat").json()["code"] == "signed_out"
        for live in lives.values():
            live.send({"type": "ping"})
            live.until(lambda m: m["type"] == "pong")
        assert not any(m["type"] == "notice" for name in ("Cleo", "guest") for m in lives[name].messages)
        for t in tables:  # a seat's token is handed to the account that holds the seat, to nobody else
            assert cleo.post(f"/tables/{t}/seat", headers=cleo_h).json() == {"table": t, "seat": None, "token": None}
            assert guest.post(f"/tables/{t}/seat").json()["code"] == "signed_out"
        public = [
            "/tournaments",
            f"/tournaments/{tid}",
            f"/tournaments/{tid}?page=1",
            f"/tournaments/{tid}/standings.json",
            f"/tournaments/{tid}/standings.csv",
            "/tables",
            "/presence",
            "/players/Ann",
            "/players/Bob",
            "/players/Ann/history",
            *(f"/tables/{t}" for t in tables),
        ]
        personal = [*public, f"/tournaments/{tid}/seat", "/friends", "/notices", "/account/people", "/account"]
        for name, b in (("Ann", ann), ("Bob", bob)):
            other = "Bob" if name == "Ann" else "Ann"
            holds_none(answers_of(b, personal), [tokens[other], *invites], name)
            holds_none(lives[name].messages, [tokens[other], *invites], f"{name}'s page")
            mine = [m for m in lives[name].messages if tokens[name] in json.dumps(m)]
            assert mine == [], mine  # no token is pushed: the page asks the table for one
        for name, b in (("Cleo", cleo), ("guest", guest)):
            holds_none(answers_of(b, personal), [*tokens.values(), *invites], name)
            holds_none(lives[name].messages, [*tokens.values(), *invites], f"{name}'s page")
        friends = cleo.get("/friends").json()["friends"]
        assert [f["table"] for f in friends] in ([None], ["private"])  # never a tournament table's id
    finally:
        for live in lives.values():
            live.close()
        for b in (ann, bob, cleo):
            b.close()


# -- (b) an invitation's invite code ----------------------------------------------------------------------------
def test_an_invitations_invite_code_reaches_the_invited_account_alone(
    server: ThreadServer, guest: httpx.Client
) -> None:
    ann, _, ann_h = account(server, "Ann")
    bob, _, bob_h = account(server, "Bob")
    cleo, _, cleo_h = account(server, "Cleo")
    dora, _, dora_h = account(server, "Dora")
    made = new_table(server.base, SHORT, [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "random"}], public=False)
    table, invite = made["id"], made["invite"]
    joined = ann.post(f"/invites/{invite}/join", json={}, headers=ann_h)
    assert joined.status_code == 200, joined.text
    seat = Client(server.base, table, joined.json()["token"])
    for b, h in ((bob, bob_h), (cleo, cleo_h), (dora, dora_h)):
        b.post("/players/Ann/follow", headers=h)
    dora.post("/players/Ann/block", headers=dora_h)  # blocks Ann: her invitation is kept nowhere
    lives = {"Bob": Live(server, bob), "Cleo": Live(server, cleo), "Dora": Live(server, dora), "guest": Live(server)}
    try:
        seat.until(lambda m: m["type"] == "state")
        for live in lives.values():
            live.until(lambda m: m["type"] == "welcome")
            live.send({"type": "watch", "topic": "tournaments"})
        for to in ("Bob", "Dora"):
            assert ann.post("/invitations", json={"to": to, "table": table}, headers=ann_h).json() == {"invited": to}
        pushed = lives["Bob"].until(lambda m: m["type"] == "notice")["notice"]
        assert pushed["body"]["invite"] == invite  # the invited account's: the code its link needs
        [kept] = bob.get("/notices").json()["notices"]
        assert kept["body"]["invite"] == invite
        assert bob.post(f"/notices/{kept['id']}/decline", headers=bob_h).json() == {"declined": True}
        [declined] = ann.get("/notices").json()["notices"]
        assert declined["kind"] == "declined" and invite not in json.dumps(declined)
        watching = server.server.config.app.state.watching
        run(server, watching.look_around(time.time()))  # what any process added is looked for: nothing more
        for live in lives.values():
            live.send({"type": "ping"})
            live.until(lambda m: m["type"] == "pong")
        paths = ["/notices", "/friends", "/account/people", "/players/Ann", "/tables", "/tournaments", "/presence"]
        for name, b in (("Cleo", cleo), ("Dora", dora), ("guest", guest)):
            holds_none(answers_of(b, paths), [invite], name)
            holds_none(lives[name].messages, [invite], f"{name}'s page")
            assert not any(m["type"] == "notice" for m in lives[name].messages)
        assert [f["table"] for f in cleo.get("/friends").json()["friends"]] in ([None], ["private"])
        r = guest.get(f"/tables/{table}")  # the table's id alone opens nothing
        assert r.status_code == 404 and invite not in r.text
    finally:
        seat.close()
        for live in lives.values():
            live.close()
        for b in (ann, bob, cleo, dora):
            b.close()


# -- (c) the reports' queue ---------------------------------------------------------------------------------------
def test_the_reports_queue_is_the_moderators_and_the_reported_player_never_learns_who_reported_them(
    server: ThreadServer, store: Store, guest: httpx.Client
) -> None:
    bob, _, bob_h = account(server, "Bob")
    mona, mona_id, mona_h = account(server, "Mona")
    run(server, server.server.config.app.state.moderation.set_moderator(mona_id, True))
    reporters = {name: account(server, name) for name in ("Quentin", "Rosalind", "Sybil")}
    aged(store, *(user_id for _, user_id, _ in reporters.values()))
    table = new_table(server.base, SHORT, [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2)["id"]
    joined = bob.post(f"/tables/{table}/join", json={}, headers=bob_h)
    b = Client(server.base, table, joined.json()["token"])
    watchers = [watching(server, browser, table) for browser, _, _ in reporters.values()]  # at the table: they count
    live = Live(server, bob)
    reasons = ["xyzzy remark at table", "plugh name again", "frobozz in chat"]
    try:
        b.until(lambda m: m["type"] == "state")
        live.until(lambda m: m["type"] == "welcome")
        b.send({"type": "chat", "text": "you all play like turnips"})
        line = b.until(lambda m: m["type"] == "chat")
        report_ids = []
        for (name, (browser, _, headers)), reason, body in zip(
            reporters.items(),
            reasons,
            [  # a public table: its lines are seen by whoever watches; messages are what mute by themselves
                {"kind": "message", "table": table, "message": line["id"]},
                {"kind": "message", "table": table, "message": line["id"]},
                {"kind": "message", "table": table, "message": line["id"]},
            ],
            strict=True,
        ):
            r = browser.post("/reports", json={**body, "reason": reason}, headers=headers)
            assert r.status_code == 201, (name, r.text)
            report_ids.append(r.json()["report"])
        queue = mona.get("/moderation/reports").json()["reports"]
        assert {x["reporter"] for x in queue} == set(reporters)
        assert queue[0]["context"]["line"]["text"] == "you all play like turnips"
        for who, browser in [("Bob", bob), *((n, r[0]) for n, r in reporters.items())]:
            assert browser.get("/moderation/reports").json()["code"] == "not_moderator", who
            assert browser.get("/moderation/reports?status=closed").json()["code"] == "not_moderator", who
        assert guest.get("/moderation/reports").json()["code"] == "signed_out"
        # three reporters: Bob is muted until a moderator looks, and told so (by whom, never)
        b.send({"type": "chat", "text": "hello?"})
        b.until(lambda m: m["type"] == "error" and m["code"] == "chat_refused")
        mona.post(f"/moderation/reports/{report_ids[0]}", json={"action": "warn", "reason": "be kind"}, headers=mona_h)
        live.until(lambda m: m["type"] == "notice" and m["notice"]["kind"] == "warn")
        secrets = [*reporters, *report_ids, *reasons, mona_id]
        paths = [
            "/notices",
            "/account",
            "/account/people",
            "/friends",
            "/players/Bob",
            "/players/Bob/history",
            "/moderation/reports",
            "/moderation/reports?status=closed",
            "/tables",
            f"/tables/{table}",
            "/tournaments",
        ]
        holds_none(answers_of(bob, paths), secrets, "Bob")
        holds_none(live.messages, secrets, "Bob's page")
        holds_none(b.messages, secrets, "Bob's table")
        notices = bob.get("/notices").json()["notices"]
        assert {n["kind"] for n in notices} == {"mute", "warn"}
        again = Client(server.base, table, joined.json()["token"])  # a new socket: the state as Bob reads it
        try:
            holds_none([again.until(lambda m: m["type"] == "state")], secrets, "Bob's table, again")
        finally:
            again.close()
    finally:
        for c in (b, *watchers):
            c.close()
        live.close()
        for browser in (bob, mona, *(r[0] for r in reporters.values())):
            browser.close()


# -- (d) whom an account blocked or muted -------------------------------------------------------------------------
def test_whom_an_account_blocked_or_muted_is_seen_by_nobody_else(server: ThreadServer, guest: httpx.Client) -> None:
    ann, _, ann_h = account(server, "Ann")
    people = {name: account(server, name) for name in ("Bob", "Cleo", "Dave")}
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 3)["id"]
    clients = {}
    for name, (b, _, h) in [("Ann", (ann, "", ann_h)), ("Bob", people["Bob"]), ("Cleo", people["Cleo"])]:
        r = b.post(f"/tables/{table}/join", json={}, headers=h)
        assert r.status_code == 200, r.text
        clients[name] = (Client(server.base, table, r.json()["token"]), r.json()["token"])
    people["Dave"][0].post("/players/Ann/follow", headers=people["Dave"][2])
    ann.post("/players/Dave/follow", headers=ann_h)
    paths = ["/account/people", "/friends", "/notices", "/account/sessions", "/players/Ann", "/players/Bob"]
    paths += ["/players/Cleo", "/players/Ann/history", f"/tables/{table}", "/tables"]

    def everything() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for name, (b, _, _) in people.items():
            for path in paths:
                r = b.get(path)
                seen[f"{name} {path}"] = r.json()
            seen[f"{name} /account"] = {k: v for k, v in b.get("/account").json().items() if k != "csrf"}
        for path in paths[4:]:
            seen[f"guest {path}"] = guest.get(path).json()
        return seen

    def chat_seen(name: str) -> list[Any]:
        """The chat in the state a new socket of ``name``'s seat is sent."""
        again = Client(server.base, table, clients[name][1])
        try:
            return list(again.until(lambda m: m["type"] == "state")["chat"])
        finally:
            again.close()

    try:
        for c, _ in clients.values():
            c.until(lambda m: m["type"] == "state")
        for name in ("Ann", "Bob", "Cleo"):
            clients[name][0].send({"type": "chat", "text": f"hello from {name}"})
            clients["Cleo"][0].until(lambda m, n=name: m["type"] == "chat" and m["text"] == f"hello from {n}")
        before = everything()
        chats = {name: chat_seen(name) for name in ("Bob", "Cleo")}
        assert ann.post("/players/Bob/block", headers=ann_h).json()["block"] == ["Bob"]
        assert ann.post("/players/Cleo/mute", headers=ann_h).json()["mute"] == ["Cleo"]
        assert everything() == before  # nobody else's answers change, Bob's and Cleo's included
        assert {name: chat_seen(name) for name in ("Bob", "Cleo")} == chats
        for name in ("Bob", "Cleo"):  # each still sees their own lines and everyone's, as before
            clients[name][0].send({"type": "chat", "text": f"after from {name}"})
            line = clients[name][0].until(lambda m, n=name: m["type"] == "chat" and m["text"] == f"after from {n}")
            assert line["mine"] is True
        clients["Ann"][0].send({"type": "chat", "text": "after from Ann"})
        for name in ("Bob", "Cleo"):
            clients[name][0].until(lambda m: m["type"] == "chat" and m["text"] == "after from Ann")
            assert "after from Bob" in [m.get("text") for m in clients[name][0].messages]
        for name in ("Bob", "Cleo"):  # nothing at the table speaks of it either
            holds_none(clients[name][0].messages, ["block", "mute", "hidden"], f"{name}'s table")
    finally:
        for c, _ in clients.values():
            c.close()
        for b in (ann, *(p[0] for p in people.values())):
            b.close()


# -- (e) presence -------------------------------------------------------------------------------------------------
def test_an_account_whose_presence_is_nobody_is_never_online_in_anyones_friends(server: ThreadServer) -> None:
    ann, _, ann_h = account(server, "Ann")
    dave, _, dave_h = account(server, "Dave")  # seen online as his privacy lets everyone: the control
    watchers = {name: account(server, name) for name in ("Bob", "Cleo")}
    assert ann.post("/account/privacy", json={"invites": "everyone", "presence": "nobody"}, headers=ann_h).json() == {
        "invites": "everyone",
        "presence": "nobody",
    }
    dave.post("/account/privacy", json={"invites": "everyone", "presence": "everyone"}, headers=dave_h)
    for b, _, h in watchers.values():
        b.post("/players/Ann/follow", headers=h)
        b.post("/players/Dave/follow", headers=h)
    ann.post("/players/Bob/follow", headers=ann_h)  # Bob is one Ann follows: "nobody" takes him out too
    table = new_table(server.base, SHORT, [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2)["id"]
    seat = Client(server.base, table, ann.post(f"/tables/{table}/join", json={}, headers=ann_h).json()["token"])
    pages = [Live(server, ann), Live(server, ann), Live(server, dave)]
    watching = server.server.config.app.state.watching
    try:
        seat.until(lambda m: m["type"] == "state")
        for page in pages:
            page.until(lambda m: m["type"] == "welcome")

        def friends(name: str) -> dict[str, Any]:
            return {f["name"]: f for f in watchers[name][0].get("/friends").json()["friends"]}

        def dave_online() -> bool:
            run(server, watching.look_around(time.time()))
            return all(friends(name)["Dave"]["online"] is True for name in watchers)

        wait_until(dave_online, 60, "Dave never came online")
        for _ in range(3):
            run(server, watching.look_around(time.time() + 25))  # presence written again, later
            for name in watchers:
                assert friends(name)["Ann"] == {"name": "Ann", "online": None, "table": None}, name
        ann.post("/account/privacy", json={"invites": "everyone", "presence": "following"}, headers=ann_h)
        assert friends("Bob")["Ann"]["online"] is True and friends("Bob")["Ann"]["table"] == table
        assert friends("Cleo")["Ann"]["online"] is None  # Ann does not follow Cleo
    finally:
        seat.close()
        for page in pages:
            page.close()
        for b in (ann, dave, *(w[0] for w in watchers.values())):
            b.close()
