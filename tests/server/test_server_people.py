"""People together and kept safe, on a real server over SQLite and PostgreSQL: following, blocking and muting; a
blocked or muted account's chat reaches nobody who blocked or muted it (live and in the history), and its
invitations reach nobody who blocked it, without its being told; friends online as their privacy allows; invitations
and their decline; reports kept as the server saw the message, the automatic mute after several (only by people at
the table when the line was said, by accounts days old), and the moderators' actions taking effect (never on a report
about a moderator); matchmaking and arenas never seating a blocked pair together; bad requests refused."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from serverkit import Client, ThreadServer, new_table
from sqlalchemy import event, select, update
from test_server_live import Live
from test_server_rated import PASSWORD, account

import loopback
from clubsuite.server.people.moderation import STANDING_DAYS
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import match_players, matches, tables, users

pytestmark = pytest.mark.backends("sqlite", "postgresql")

# The tests that take ``shared`` (one server of the module's: tests/server/conftest.py) read only what their own
# accounts did (their lists, friends, notices, their own table's chat, their own places in the rated queue). The
# tests that read what every account shares (the reports' queue, the sanctions, the statements the store runs) take a
# ``server`` of their own.

SHORT = "whist(target=2)"


def seated(server: ThreadServer, browser: Any, headers: dict[str, str], table: str) -> Client:
    r = browser.post(f"/tables/{table}/join", json={}, headers=headers)
    assert r.status_code == 200, r.text
    return Client(server.base, table, r.json()["token"])


def chat(c: Client, text: str) -> None:
    c.send({"type": "chat", "text": text})


def run(server: ThreadServer, work: Any) -> Any:
    hub = server.server.config.app.state.hub
    return asyncio.run_coroutine_threadsafe(work, hub.loop).result(60)


def aged(store: Store, *user_ids: str) -> None:
    """Give the accounts the standing of age: made a little more than ``STANDING_DAYS`` days ago."""
    made = time.time() - STANDING_DAYS * 86400 - 3600
    store.write(lambda conn: conn.execute(update(users).where(users.c.id.in_(user_ids)).values(created_at=made)))


def rated_matches(store: Store, user_id: str, count: int, mate: str | None = None) -> None:
    """Give the account ``count`` rated matches played, against two ``random`` bots, or against ``mate``'s account
    and one bot (at a closed table of its own, as the history keeps them)."""
    table, now = f"past-{user_id}", time.time()
    seats = [(user_id, None), (mate, None if mate else "random"), (None, "random")]

    def work(conn: Any) -> None:
        conn.execute(
            tables.insert().values(
                id=table, game="whist", settings="{}", invite=table, created_at=now, match_no=count, closed=True
            )
        )
        for no in range(1, count + 1):
            conn.execute(matches.insert().values(table_id=table, match_no=no, seed=no, started_at=now, finished_at=now))
            for seat, (who, bot) in enumerate(seats):
                conn.execute(
                    match_players.insert().values(
                        table_id=table,
                        match_no=no,
                        seat=seat,
                        game="whist",
                        pool="whist",
                        user_id=who,
                        name=f"x{seat}",
                        bot=bot,
                        place=seat + 1,
                        points=1.0,
                        hand_points="[]",
                        won=seat == 0,
                        rated=True,
                        left=False,
                        finished_at=now,
                    )
                )

    store.write(work)


def watching(server: ThreadServer, browser: Any, table: str) -> Client:
    """A signed-in spectator of the table (the browser's session cookie on the socket), once it has the state."""
    cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items())}
    c = Client(server.base, table, None, headers=cookie)
    c.until(lambda m: m["type"] == "state")
    return c


def speaks(c: Client, text: str) -> bool:
    """Whether ``c``'s line is said (its own copy comes back) rather than refused."""
    chat(c, text)
    got = c.until(lambda m: (m["type"] == "chat" and m["text"] == text) or m.get("code") == "chat_refused")
    return got["type"] == "chat"


def test_following_blocking_and_muting_are_listed_to_their_owner_and_a_block_ends_following(
    shared: ThreadServer,
) -> None:
    server = shared
    ann, _, ann_h = account(server, "Ann")
    bob, _, bob_h = account(server, "Bob")
    assert ann.post("/players/Bob/follow", headers=ann_h).json()["follow"] == ["Bob"]
    bob.post("/players/Ann/follow", headers=bob_h)
    assert ann.post("/players/Bob/mute", headers=ann_h).json()["mute"] == ["Bob"]
    before = bob.get("/account/people").json()
    lists = ann.post("/players/bob/block", headers=ann_h).json()  # a name as typed reaches the account
    assert lists["block"] == ["Bob"] and lists["follow"] == []  # Ann's following of Bob ended
    assert bob.get("/account/people").json() == before  # nothing tells Bob he is blocked: his lists are as they were
    assert ann.post("/players/Bob/unblock", headers=ann_h).json()["block"] == []
    assert ann.post("/players/Ann/follow", headers=ann_h).json()["code"] == "yourself"
    assert ann.post("/players/Nobody/follow", headers=ann_h).status_code == 404
    assert loopback.post(f"{server.base}/players/Bob/follow").status_code == 401
    assert ann.post("/players/Bob/follow").status_code == 403  # no CSRF token
    assert ann.post("/account/privacy", json={"invites": "all", "presence": "nobody"}, headers=ann_h).status_code == 422


def test_a_blocked_or_muted_accounts_chat_reaches_nobody_who_blocked_or_muted_it(shared: ThreadServer) -> None:
    server = shared
    ada, _, ada_h = account(server, "Ada")
    ben, _, ben_h = account(server, "Ben")
    cat, _, cat_h = account(server, "Cat")
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 3)["id"]
    a, b, c = seated(server, ada, ada_h, table), seated(server, ben, ben_h, table), seated(server, cat, cat_h, table)
    try:
        for x in (a, b, c):  # every socket is at the table before anyone speaks
            x.until(lambda m: m["type"] == "state")
        chat(b, "hello from Ben")
        for x in (a, b, c):
            x.until(lambda m: m["type"] == "chat" and m["text"] == "hello from Ben")
        ada.post("/players/Ben/block", headers=ada_h)
        cat.post("/players/Ben/mute", headers=cat_h)
        chat(b, "second from Ben")
        mine = b.until(lambda m: m["type"] == "chat" and m["text"] == "second from Ben")
        assert mine["mine"] is True  # Ben sees his own line as ever: nothing tells him
        chat(a, "Ada speaks")  # a line after Ben's: once it has come, Ben's would have come before it
        for x in (a, c):
            x.until(lambda m: m["type"] == "chat" and m["text"] == "Ada speaks")
            assert not any(m.get("text") == "second from Ben" for m in x.messages)
        again = Client(server.base, table, None)  # a spectator, not signed in, sees every line
        try:
            history = again.until(lambda m: m["type"] == "state")["chat"]
            assert [line["text"] for line in history] == ["hello from Ben", "second from Ben", "Ada speaks"]
        finally:
            again.close()
        a.close()
        token = ada.post(f"/tables/{table}/join", json={}, headers=ada_h)  # Ada's seat is hers: a new socket
        assert token.status_code in (200, 409)
    finally:
        for x in (a, b, c):
            x.close()


def test_a_muted_or_banned_account_is_told_why_it_may_not_chat_and_a_moderators_actions_take_effect(
    server: ThreadServer, store: Store
) -> None:
    reporters = [account(server, name) for name in ("Ann", "Cleo", "Dora", "Gus")]
    aged(store, *(user_id for _, user_id, _ in reporters))
    bob, bob_id, bob_h = account(server, "Bob")
    mod, mod_id, mod_h = account(server, "Mona")
    moderation = server.server.config.app.state.moderation
    run(server, moderation.set_moderator(mod_id, True))
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 3)["id"]
    ann, _, ann_h = reporters[0]
    a, b = seated(server, ann, ann_h, table), seated(server, bob, bob_h, table)
    watchers = [watching(server, browser, table) for browser, _, _ in reporters[2:]]
    try:
        for x in (a, b):
            x.until(lambda m: m["type"] == "state")
        chat(b, "you play like a turnip")
        line = a.until(lambda m: m["type"] == "chat" and m["text"] == "you play like a turnip")
        forged = ann.post(
            "/reports", json={"kind": "message", "table": table, "message": 999, "reason": "x"}, headers=ann_h
        )
        assert forged.status_code == 404 and forged.json()["code"] == "no_message"
        made = ann.post(
            "/reports",
            json={"kind": "message", "table": table, "message": line["id"], "reason": "rude"},
            headers=ann_h,
        )
        assert made.status_code == 201, made.text
        assert ann.get("/account/people").json()["block"] == ["Bob"]  # reporting blocks, as asked by default
        again = ann.post("/reports", json={"kind": "player", "player": "Bob"}, headers=ann_h)
        assert again.json()["code"] == "already_reported"
        assert bob.get("/moderation/reports").status_code == 403  # the queue is the moderators'
        queue = mod.get("/moderation/reports").json()["reports"]
        assert len(queue) == 1 and queue[0]["subject"] == "Bob" and queue[0]["reporter"] == "Ann"
        assert queue[0]["context"]["line"]["text"] == "you play like a turnip"  # as the server kept it
        # three distinct accounts report Bob's line: he may not chat until a moderator looks, and is told why
        for browser, _, headers in reporters[1:2]:  # a report of the player alone waits for a moderator
            r = browser.post("/reports", json={"kind": "player", "player": "Bob", "reason": "rude"}, headers=headers)
            assert r.status_code == 201
        chat(b, "not muted yet")
        b.until(lambda m: m["type"] == "chat" and m["text"] == "not muted yet")
        for browser, _, headers in reporters[2:]:  # the line itself, by two more accounts watching the table
            line_report = {"kind": "message", "table": table, "message": line["id"], "reason": "rude"}
            r = browser.post("/reports", json=line_report, headers=headers)
            assert r.status_code == 201, r.text
        chat(b, "still here")
        refused = b.until(lambda m: m["type"] == "error" and m["code"] == "chat_refused")
        assert "several players reported" in refused["message"]
        assert any(n["kind"] == "mute" for n in bob.get("/notices").json()["notices"])
        open_reports = mod.get("/moderation/reports").json()["reports"]
        dismissed = mod.post(f"/moderation/reports/{open_reports[0]['id']}", json={"action": "dismiss"}, headers=mod_h)
        assert dismissed.status_code == 200 and mod.get("/moderation/reports").json()["reports"] == []
        chat(b, "thank you")  # the automatic mute is lifted with the dismissal
        b.until(lambda m: m["type"] == "chat" and m["text"] == "thank you")
        # a moderator mutes Bob for an hour, with a reason he is told
        ann2, _, ann2_h = account(server, "Edda")
        report = ann2.post("/reports", json={"kind": "player", "player": "Bob"}, headers=ann2_h).json()["report"]
        bad = mod.post(f"/moderation/reports/{report}", json={"action": "mute"}, headers=mod_h)
        assert bad.status_code == 409 and "hours" in bad.json()["message"]
        muted = mod.post(
            f"/moderation/reports/{report}",
            json={"action": "mute", "hours": 1, "reason": "insults at the table"},
            headers=mod_h,
        )
        assert muted.status_code == 200
        chat(b, "and now?")
        told = b.until(lambda m: m["type"] == "error" and "insults at the table" in m.get("message", ""))
        assert told["code"] == "chat_refused" and "until" in told["message"]
        assert (
            mod.post(f"/moderation/reports/{report}", json={"action": "warn"}, headers=mod_h).json()["code"] == "closed"
        )
        # closing the account: every session ends and it can no longer sign in
        last, _, last_h = account(server, "Fritz")
        report = last.post("/reports", json={"kind": "player", "player": "Bob"}, headers=last_h).json()["report"]
        mod.post(f"/moderation/reports/{report}", json={"action": "close"}, headers=mod_h)
        assert bob.get("/account").json().get("signed_in") is not True
        login = loopback.post(f"{server.base}/account/login", json={"name": "Bob", "password": PASSWORD})
        assert login.status_code in (401, 403)
        signup = loopback.post(f"{server.base}/account/signup", json={"name": "Bob", "password": PASSWORD})
        assert signup.status_code == 409  # the name stays taken
        assert bob_id
    finally:
        for x in (a, b, *watchers):
            x.close()


def test_only_people_at_the_table_when_the_line_was_said_with_standing_bring_on_the_automatic_mute(
    server: ThreadServer, store: Store
) -> None:
    """Three accounts made from one address, never at the table, report a player's line (by ``/reports`` and by the
    table's own address): the player still chats, and the reports wait for a moderator. Nor do accounts at the table
    but made today, nor one that came after the line. Three aged accounts at the table when the line was said do."""
    bob, _, bob_h = account(server, "Bob")
    ann, ann_id, ann_h = account(server, "Ann")
    names = ["Wil", "Wes", "Late", "Troll1", "Troll2", "Troll3", "New1", "New2"]
    people = {name: account(server, name) for name in names}
    aged(store, ann_id, *(people[n][1] for n in names if not n.startswith("New")))
    mona, mona_id, _ = account(server, "Mona")
    run(server, server.server.config.app.state.moderation.set_moderator(mona_id, True))
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 3)["id"]
    a, b = seated(server, ann, ann_h, table), seated(server, bob, bob_h, table)
    here = [watching(server, people[n][0], table) for n in ("Wil", "Wes", "New1", "New2")]
    late: Client | None = None
    try:
        for x in (a, b):
            x.until(lambda m: m["type"] == "state")
        chat(b, "a line someone dislikes")
        line = a.until(lambda m: m["type"] == "chat" and m["text"] == "a line someone dislikes")["id"]
        late = watching(server, people["Late"][0], table)  # reads the line in the history, came after it

        def report(name: str, at_table: bool) -> None:
            browser, _, headers = people.get(name, (ann, ann_id, ann_h))
            if at_table:
                r = browser.post(f"/tables/{table}/reports", json={"message": line}, headers=headers)
            else:
                r = browser.post("/reports", json={"kind": "message", "table": table, "message": line}, headers=headers)
            assert r.status_code == 201, r.text

        for k, name in enumerate(["Troll1", "Troll2", "Troll3", "New1", "New2", "Late"]):
            report(name, k % 2 == 0)
        assert speaks(b, "still free to speak")
        report("Ann", True)
        report("Wil", False)
        assert speaks(b, "two that count are not three")
        counted = {r["reporter"]: r["counts"] for r in mona.get("/moderation/reports").json()["reports"]}
        kept_only = ["Troll1", "Troll2", "Troll3", "New1", "New2", "Late"]
        assert counted == {**dict.fromkeys(kept_only, False), "Ann": True, "Wil": True}
        report("Wes", True)
        assert not speaks(b, "now muted")
    finally:
        for x in (a, b, *here, *([late] if late is not None else [])):
            x.close()


def test_rated_matches_give_a_new_account_no_standing_only_its_age_does(server: ThreadServer, store: Store) -> None:
    """A new account with many rated matches, against bots alone (one-hand tables against ``random`` bots take
    minutes) or against another new account (as cheap to make), has no standing: its report is kept and does not
    count. Accounts made ``STANDING_DAYS`` days before do, and three of them bring on the mute."""
    bob, _, bob_h = account(server, "Bob")
    people = {name: account(server, name) for name in ("Solo", "Pair", "Mate", "Old1", "Old2", "Old3")}
    rated_matches(store, people["Solo"][1], 30)
    rated_matches(store, people["Pair"][1], 30, mate=people["Mate"][1])
    aged(store, *(people[n][1] for n in ("Old1", "Old2", "Old3")))
    mona, mona_id, _ = account(server, "Mona")
    run(server, server.server.config.app.state.moderation.set_moderator(mona_id, True))
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 3)["id"]
    b = seated(server, bob, bob_h, table)
    here = [watching(server, browser, table) for browser, _, _ in people.values()]
    try:
        b.until(lambda m: m["type"] == "state")
        chat(b, "a line")
        line = b.until(lambda m: m["type"] == "chat" and m["text"] == "a line")["id"]

        def report(name: str) -> None:
            browser, _, headers = people[name]
            assert browser.post(f"/tables/{table}/reports", json={"message": line}, headers=headers).status_code == 201

        for name in ("Solo", "Pair", "Mate", "Old1", "Old2"):
            report(name)
        assert speaks(b, "two that count are not three")
        counted = {r["reporter"]: r["counts"] for r in mona.get("/moderation/reports").json()["reports"]}
        assert counted == {"Solo": False, "Pair": False, "Mate": False, "Old1": True, "Old2": True}
        report("Old3")
        assert not speaks(b, "three that count")
    finally:
        for x in (b, *here):
            x.close()


def test_a_moderator_never_acts_on_a_report_about_a_moderator_nor_sees_one_the_operator_does(
    server: ThreadServer,
) -> None:
    ann, _, ann_h = account(server, "Ann")
    mona, mona_id, mona_h = account(server, "Mona")
    max_, max_id, max_h = account(server, "Max")
    moderation = server.server.config.app.state.moderation
    for moderator in (mona_id, max_id):
        run(server, moderation.set_moderator(moderator, True))
    about_mona = ann.post("/reports", json={"kind": "player", "player": "Mona"}, headers=ann_h).json()["report"]
    about_max = ann.post("/reports", json={"kind": "player", "player": "Max"}, headers=ann_h).json()["report"]
    for browser, headers in ((mona, mona_h), (max_, max_h)):
        assert browser.get("/moderation/reports").json()["reports"] == []  # who reported a moderator stays unseen
        for report in (about_mona, about_max):  # their own, and each other's
            for action in ("dismiss", "close"):
                r = browser.post(f"/moderation/reports/{report}", json={"action": action}, headers=headers)
                assert r.status_code == 403 and r.json()["code"] == "operator_only", r.text
    assert mona.get("/account").json().get("signed_in") is True and max_.get("/account").json().get("signed_in")
    queue = run(server, moderation.queue())  # the operator's (clubs admin reports)
    assert sorted(r["subject"] for r in queue) == ["Max", "Mona"]
    assert run(server, moderation.act(about_max, "warn", None, "be fair"))["action"] == "warn"
    assert [n["kind"] for n in max_.get("/notices").json()["notices"]] == ["warn"]


def test_invitations_reach_their_player_and_are_declined_and_a_block_or_privacy_stops_them_unseen(
    shared: ThreadServer,
) -> None:
    server = shared
    iris, _, iris_h = account(server, "Iris")
    jon, _, jon_h = account(server, "Jon")
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "random"}])["id"]
    a = seated(server, iris, iris_h, table)
    live = Live(server, jon)
    try:
        live.until(lambda m: m["type"] == "welcome")
        sent = iris.post("/invitations", json={"to": "Jon", "table": table}, headers=iris_h)
        assert sent.status_code == 200 and sent.json() == {"invited": "Jon"}
        pushed = live.until(lambda m: m["type"] == "notice")["notice"]
        assert pushed["kind"] == "invite" and pushed["body"]["table"] == table and pushed["body"]["from"] == "Iris"
        answer = jon.get("/notices")
        assert answer.headers["cache-control"] == "no-store"  # it holds an invite code
        [kept] = answer.json()["notices"]
        assert kept["id"] == pushed["id"] and kept["body"]["invite"]
        assert loopback.get(f"{server.base}/notices").status_code == 401
        assert iris.get("/notices").json()["notices"] == []  # an invitation is the invited player's alone
        assert jon.post(f"/notices/{kept['id']}/decline", headers=jon_h).json() == {"declined": True}
        assert [n["kind"] for n in iris.get("/notices").json()["notices"]] == ["declined"]
        nowhere = iris.post("/invitations", json={"to": "Jon", "table": "not-a-table"}, headers=iris_h)
        assert nowhere.status_code == 404
        both = iris.post("/invitations", json={"to": "Jon", "table": table, "tournament": "x"}, headers=iris_h)
        assert both.status_code == 422
        jon.post("/players/Iris/block", headers=jon_h)
        blocked = iris.post("/invitations", json={"to": "Jon", "table": table}, headers=iris_h)
        assert blocked.json() == {"invited": "Jon"}  # answered alike: Iris cannot tell
        jon.post("/players/Iris/unblock", headers=jon_h)
        jon.post("/account/privacy", json={"invites": "nobody", "presence": "nobody"}, headers=jon_h)
        assert iris.post("/invitations", json={"to": "Jon", "table": table}, headers=iris_h).status_code == 200
        assert jon.get("/notices").json()["notices"] == []
        assert not any(
            m["type"] == "notice"
            for m in live.messages[live.messages.index(next(m for m in live.messages if m["type"] == "notice")) + 1 :]
        )
    finally:
        a.close()
        live.close()


def test_friends_are_seen_online_and_at_their_table_as_their_privacy_allows(shared: ThreadServer) -> None:
    server = shared
    kim, _, kim_h = account(server, "Kim")
    leo, _, leo_h = account(server, "Leo")
    kim.post("/players/Leo/follow", headers=kim_h)
    assert kim.get("/friends").json()["friends"] == [{"name": "Leo", "online": None, "table": None}]
    leo.post("/players/Kim/follow", headers=leo_h)  # Leo's default: the people he follows see him online
    live = Live(server, leo)
    try:
        live.until(lambda m: m["type"] == "welcome")
        watching = server.server.config.app.state.watching
        deadline = time.monotonic() + 60
        while kim.get("/friends").json()["friends"][0]["online"] is not True:
            assert time.monotonic() < deadline, "Leo never came online"
            run(server, watching.look_around(time.time()))
        table = new_table(server.base, SHORT, [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2)["id"]
        b = seated(server, leo, leo_h, table)
        try:
            assert kim.get("/friends").json()["friends"][0]["table"] == table
        finally:
            b.close()
        leo.post("/account/privacy", json={"invites": "everyone", "presence": "nobody"}, headers=leo_h)
        assert kim.get("/friends").json()["friends"][0]["online"] is None
        leo.post("/account/privacy", json={"invites": "everyone", "presence": "everyone"}, headers=leo_h)
        assert kim.get("/friends").json()["friends"][0]["online"] is True
        leo.post("/players/Kim/block", headers=leo_h)  # a block shows Leo as offline to Kim, as offline looks
        assert kim.get("/friends").json()["friends"] == [{"name": "Leo", "online": False, "table": None}]
    finally:
        live.close()


def test_a_block_leaves_the_blocked_persons_friends_list_as_it_was_where_it_showed_nothing(
    shared: ThreadServer,
) -> None:
    """Nell follows Odo, whose privacy shows him online only to the people he follows, and he does not follow her:
    her list says he does not show it. Odo blocks her: her list says the same (not "offline", which only a block
    would show her)."""
    server = shared
    nell, _, nell_h = account(server, "Nell")
    odo, _, odo_h = account(server, "Odo")
    nell.post("/players/Odo/follow", headers=nell_h)
    before = nell.get("/friends").json()
    assert before == {"friends": [{"name": "Odo", "online": None, "table": None}]}
    assert odo.post("/players/Nell/block", headers=odo_h).status_code == 200
    assert nell.get("/friends").json() == before
    odo.post("/account/privacy", json={"invites": "everyone", "presence": "nobody"}, headers=odo_h)
    assert nell.get("/friends").json() == before


def test_matchmaking_never_seats_two_people_one_of_whom_blocked_the_other(shared: ThreadServer) -> None:
    server = shared
    pat, pat_id, pat_h = account(server, "Pat")
    quinn, _, quinn_h = account(server, "Quinn")
    pat.post("/players/Quinn/block", headers=pat_h)
    matchmaker = server.server.config.app.state.matchmaker
    for b, h in ((pat, pat_h), (quinn, quinn_h)):
        assert b.post("/rated/queue", json={"game": "northstar(players=2)"}, headers=h).status_code == 200
    run(server, matchmaker.match(time.time()))
    assert pat.get("/rated/queue").json()["status"] == "waiting"  # not seated with Quinn
    run(server, matchmaker.match(time.time() + 3600))  # long enough for bots: each at a table of their own
    tables = {b.get("/rated/queue").json().get("table") for b in (pat, quinn)}
    assert len(tables) == 2 and None not in tables
    assert pat_id


def test_a_dismissal_lifts_only_the_automatic_mute_never_an_operators_or_a_moderators_sanction(
    server: ThreadServer,
) -> None:
    ann, _, ann_h = account(server, "Ann")
    cleo, _, cleo_h = account(server, "Cleo")
    _, bob_id, _ = account(server, "Bob")
    mona, mona_id, mona_h = account(server, "Mona")
    moderation = server.server.config.app.state.moderation
    run(server, moderation.set_moderator(mona_id, True))
    first = ann.post("/reports", json={"kind": "player", "player": "Bob"}, headers=ann_h).json()["report"]
    run(server, moderation.act(first, "chat_ban", None, "insults"))  # the operator, by clubs admin act
    second = cleo.post("/reports", json={"kind": "player", "player": "Bob"}, headers=cleo_h).json()["report"]
    assert mona.post(f"/moderation/reports/{second}", json={"action": "dismiss"}, headers=mona_h).status_code == 200
    refusal = run(server, moderation.chat_refusal(bob_id))
    assert refusal is not None and "insults" in refusal
    assert not any(s["automatic"] for s in run(server, moderation.sanctions_of(bob_id)))


def test_the_friends_list_costs_a_few_queries_however_many_are_followed(server: ThreadServer, store: Store) -> None:
    ann, _, ann_h = account(server, "Ann")
    names = [f"Friend{k}" for k in range(12)]
    for name in names:
        friend, _, h = account(server, name)
        ann.post(f"/players/{name}/follow", headers=ann_h)
        friend.post("/players/Ann/follow", headers=h)  # so that Ann may see them online (their default)
    run(server, server.server.config.app.state.hub.relations.seen([u for (u,) in store.read(select(users.c.id))]))
    statements: list[str] = []

    def count(*args: Any) -> None:
        statement = str(args[2])
        if any(name in statement for name in ("follows", "blocks", "presence", "seats")):
            statements.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        listed = ann.get("/friends").json()["friends"]
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
    assert sorted(f["name"] for f in listed) == sorted(names) and all(f["online"] for f in listed)
    assert len(statements) <= 5, statements  # the list, the blocks both ways, who follows back, their tables
