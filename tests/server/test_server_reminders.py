"""Reminders of turn-based tables, over real protocols: Web Push to a push endpoint the test serves (its payload
decrypted with the browser's keys the test made), e-mail through an SMTP server the test runs (aiosmtpd), the
routes' refusals. Days pass on the test clock (``dbclock.advance``), never on the wall clock."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import http_ece
import httpx
import pytest
from reminderkit import SITE, Mailbox, PushService, browser_keys, confirmed, link_in, subscribe
from serverkit import ThreadServer
from sqlalchemy import func, insert, select, update
from turnkit import Player, wait_for

import loopback
from clubsuite.server.http.reminder_routes import one_click
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import outbox, push_subscriptions, tables, turn_prefs, turn_seats, turn_tables
from clubsuite.server.turns.clock import local_minute
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.dbclock import DbClock, advance
from clubsuite.server.turns.keeper import MatchEnd
from clubsuite.server.turns.reminders import Reminders

T = TypeVar("T")
LAST = {"place": 3, "of": 3, "won": False}
HOUR = 3600.0
DAY = 24 * HOUR


# -- the server -------------------------------------------------------------------------------------------------------
@pytest.fixture
def served(store: Store, pushes: PushService, mails: tuple[Mailbox, int]) -> Iterator[ThreadServer]:
    config = TurnConfig(
        test_clock=True,
        sweep_every=3600.0,  # the test sweeps; the loop still runs after each reminder queued
        push_contact="mailto:operator@clubs.example",
        push_hosts=(pushes.origin,),
        smtp_host="127.0.0.1",
        smtp_port=mails[1],
        site_url=SITE,
    )
    with ThreadServer(store, turn_config=config) as running:
        yield running


def reminders_of(server: ThreadServer) -> Reminders:
    found: Reminders = server.server.config.app.state.reminders
    return found


def run(server: ThreadServer, work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the server's event loop (as the lead's keeper calls the reminders)."""
    loop = server.server.config.app.state.hub.loop
    return asyncio.run_coroutine_threadsafe(work, loop).result(60)


def now_of(store: Store) -> float:
    return DbClock(store, test=True).now()


def put(player: Player, body: dict[str, Any], status: int = 200) -> Any:
    r = player.http.put("/account/turns", json=body, headers=player.csrf)
    assert r.status_code == status, (r.status_code, r.text)
    return r.json()


def user_id(player: Player) -> str:
    return str(player.get("/account")["id"])


def count(store: Store, query: Any) -> int:
    return int(store.reading(lambda conn: conn.execute(query).scalar_one()))


def waiting_table(store: Store, table_id: str, user: str, host: str, since: float, deadline: float) -> None:
    """A turn-based table whose clock runs for ``user`` (as the keeper writes it)."""

    def work(conn: Any) -> None:
        conn.execute(
            insert(tables).values(
                id=table_id, game="whist", settings="{}", invite=f"inv-{table_id}", created_at=since, match_no=1,
                closed=False,
            )
        )  # fmt: skip
        conn.execute(
            insert(turn_tables).values(
                table_id=table_id, host_id=host, pace=3 * DAY, on_timeout="bot", parked=True, adjourned=False,
                ended=None, version=5, seat=0, user_id=user, since=since, deadline=deadline, created_at=since,
            )
        )  # fmt: skip

    store.write(work)


# -- (a) push ---------------------------------------------------------------------------------------------------------
def test_a_push_reaches_the_browser_encrypted_and_signed(
    served: ThreadServer, store: Store, pushes: PushService
) -> None:
    ann = Player(served.base, "Ann")
    me = user_id(ann)
    settings = ann.get("/account/turns")
    assert settings["push_available"] and settings["push_key"]
    key = base64.urlsafe_b64decode(settings["push_key"] + "==")
    assert len(key) == 65 and key[0] == 4
    private, auth, keys = browser_keys()
    subscribe(ann, pushes.origin + "/ann", keys)
    store.write(
        lambda c: c.execute(insert(turn_seats).values(table_id="T1", seat=0, user_id=me, seen=0, autoplay=False))
    )

    run(served, reminders_of(served).your_turn(me, "T1", "Bob's whist", 7, False))
    got = wait_for(lambda: pushes.to("/ann"), what="the push")
    headers, body = got[0]
    assert headers["authorization"].startswith("vapid t=") and "k=" in headers["authorization"]
    assert headers["ttl"] == "86400" and headers["urgency"] == "normal"
    assert headers["content-encoding"] == "aes128gcm"
    plain = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
    assert json.loads(plain) == {
        "kind": "your_turn",
        "table": "T1",
        "title": "Bob's whist",
        "url": f"{SITE}/tables/T1",
        "turn_of": "Ann",
    }
    notices = ann.get("/notices")["notices"]
    assert [n["body"] for n in notices if n["kind"] == "turn"] == [{"table": "T1", "title": "Bob's whist"}]

    # one reminder per (table, version), recorded on the seat's row
    run(served, reminders_of(served).your_turn(me, "T1", "Bob's whist", 7, False))
    run(served, reminders_of(served).sweep())
    assert len(pushes.to("/ann")) == 1
    assert store.reading(lambda c: c.execute(select(turn_seats.c.reminded)).scalar()) == 7
    # the player has the table open: nothing
    run(served, reminders_of(served).your_turn(me, "T1", "Bob's whist", 8, True))
    run(served, reminders_of(served).sweep())
    assert len(pushes.to("/ann")) == 1

    # a push service's 500 is tried again after a back-off, on the database's clock
    pushes.answers.append(500)
    run(served, reminders_of(served).your_turn(me, "T1", "Bob's whist", 9, False))
    wait_for(lambda: len(pushes.to("/ann")) == 2, what="the push answered 500")
    retried = select(func.count()).select_from(outbox).where(outbox.c.attempts == 1)
    wait_for(lambda: count(store, retried) == 1, what="a retry")
    run(served, reminders_of(served).sweep())
    assert len(pushes.to("/ann")) == 2  # not due yet
    advance(store, 31)
    run(served, reminders_of(served).sweep())
    assert len(pushes.to("/ann")) == 3
    assert count(store, select(func.count()).select_from(outbox)) == 0

    # 410: the subscription is gone, and forgotten
    pushes.answers.append(410)
    run(served, reminders_of(served).your_turn(me, "T1", "Bob's whist", 10, False))
    wait_for(lambda: len(pushes.to("/ann")) == 4, what="the push answered 410")
    wait_for(
        lambda: count(store, select(func.count()).select_from(push_subscriptions)) == 0, what="the subscription gone"
    )
    ann.close()


def test_a_match_over_is_pushed_once_a_match_with_the_players_place_and_its_turn_notice_goes(
    served: ThreadServer, store: Store, pushes: PushService
) -> None:
    """A turn-based match that ended while its player was away: one notice and one push per match (the same match
    told again by another process, or after a restart, is not), though the table's match is over (a ``your_turn``
    push would be dropped then); the place and the number of sides, no card."""
    eve = Player(served.base, "Eve")
    me = user_id(eve)
    private, auth, keys = browser_keys()
    subscribe(eve, pushes.origin + "/eve", keys)
    now = now_of(store)
    waiting_table(store, "T1", me, me, now, now + DAY)
    store.write(
        lambda c: c.execute(insert(turn_seats).values(table_id="T1", seat=0, user_id=me, seen=0, autoplay=False))
    )
    run(served, reminders_of(served).your_turn(me, "T1", "Eve's whist", 5, False))
    wait_for(lambda: len(pushes.to("/eve")) == 1, what="the your-turn push")
    # her clock ran out at a table where the late player loses: the match ended at the same version
    store.write(lambda c: c.execute(update(turn_tables).values(ended="lost:0", seat=None, user_id=None, deadline=None)))
    for _ in range(2):
        run(served, reminders_of(served).match_over(MatchEnd(me, "T1", "Eve's whist", None, 1, False, LAST)))
    run(served, reminders_of(served).sweep())
    wait_for(lambda: len(pushes.to("/eve")) == 2, what="the match-over push")
    plain = http_ece.decrypt(pushes.to("/eve")[1][1], private_key=private, auth_secret=auth, version="aes128gcm")
    assert json.loads(plain) == {
        "kind": "match_over",
        "table": "T1",
        "title": "Eve's whist",
        "place": 3,
        "of": 3,
        "won": False,
        "url": f"{SITE}/tables/T1",
    }
    notices = eve.get("/notices")["notices"]
    assert [(n["kind"], n["body"]) for n in notices] == [
        ("match_over", {"table": "T1", "title": "Eve's whist", "place": 3, "of": 3, "won": False})
    ]
    # the next match of the table, over while she is at the table: nothing
    run(served, reminders_of(served).match_over(MatchEnd(me, "T1", "Eve's whist", None, 2, True, LAST)))
    run(served, reminders_of(served).sweep())
    assert len(pushes.to("/eve")) == 2 and len(eve.get("/notices")["notices"]) == 1
    eve.close()


def test_push_endpoints_not_allowed_are_refused_by_name(served: ThreadServer, pushes: PushService) -> None:
    ann = Player(served.base, "Ann")
    _, _, keys = browser_keys()
    for endpoint in (
        "https://evil.example/push",
        "http://fcm.googleapis.com/fcm/send/x",  # not https
        "https://fcm.googleapis.com:8443/fcm/send/x",  # not the usual port
        "http://127.0.0.1:1/push",  # loopback, but not the allowed origin
        "https://169.254.169.254/latest",
        "file:///etc/passwd",
        "https://x.push.services.mozilla.com.evil.example/wpush",
    ):
        refused = subscribe(ann, endpoint, keys, 400)
        assert refused["code"] == "bad_endpoint" and "endpoint" in refused["message"]
    refused = subscribe(ann, pushes.origin + "/x", {**keys, "p256dh": keys["p256dh"][:-4]}, 400)
    assert refused["code"] == "bad_keys" and "p256dh" in refused["message"]
    refused = subscribe(ann, pushes.origin + "/x", {**keys, "auth": "AAAA"}, 400)
    assert refused["code"] == "bad_keys" and "auth" in refused["message"]
    subscribe(ann, "https://updates.push.services.mozilla.com/wpush/v2/abc", keys)
    subscribe(ann, "https://fcm.googleapis.com/fcm/send/abc", keys)
    ann.close()


def test_the_push_count_of_a_day_holds_and_resets_after_it(
    served: ThreadServer, store: Store, pushes: PushService
) -> None:
    cyd = Player(served.base, "Cyd")
    me = user_id(cyd)
    put(cyd, {"push_per_day": 2})
    subscribe(cyd, pushes.origin + "/cyd", browser_keys()[2])
    for n in range(4):
        run(served, reminders_of(served).your_turn(me, f"T{n}", "a table", 1, False))
    run(served, reminders_of(served).sweep())
    wait_for(lambda: count(store, select(func.count()).select_from(outbox)) == 0, what="the outbox delivered")
    assert len(pushes.to("/cyd")) == 2
    advance(store, DAY + 1)
    run(served, reminders_of(served).your_turn(me, "T9", "a table", 1, False))
    wait_for(lambda: len(pushes.to("/cyd")) == 3, what="the push of the next day")
    cyd.close()


def test_no_push_at_night_it_goes_when_the_playing_hours_begin(
    served: ThreadServer, store: Store, pushes: PushService
) -> None:
    dee = Player(served.base, "Dee")
    me = user_id(dee)
    minute = local_minute(now_of(store), "Asia/Tokyo")
    start = (minute + 120) % 1440  # the playing hours begin in two hours, Tokyo time
    end = (start + 600) % 1440 or 1440
    put(dee, {"zone": "Asia/Tokyo", "day_start": start, "day_end": end})
    subscribe(dee, pushes.origin + "/dee", browser_keys()[2])
    run(served, reminders_of(served).your_turn(me, "T1", "a table", 1, False))
    run(served, reminders_of(served).sweep())
    assert pushes.to("/dee") == []
    due = store.reading(lambda c: c.execute(select(outbox.c.next_at)).scalar_one())
    assert 60 * 60 <= due - now_of(store) <= 2 * 60 * 60 + 60
    advance(store, 90 * 60)
    run(served, reminders_of(served).sweep())
    assert pushes.to("/dee") == []  # still night
    advance(store, due - now_of(store) + 1)
    run(served, reminders_of(served).sweep())
    wait_for(lambda: pushes.to("/dee"), what="the push once the hours began")
    dee.close()


# -- (b) mail ---------------------------------------------------------------------------------------------------------
def test_a_digest_reaches_a_confirmed_address_and_its_one_click_link_unsubscribes(
    served: ThreadServer, store: Store, mails: tuple[Mailbox, int]
) -> None:
    box, _ = mails
    eve, bob = Player(served.base, "Eve"), Player(served.base, "Bob")
    me = user_id(eve)
    settings = put(eve, {"email": "eve@example.org", "lang": "en"})
    assert settings["email"] == "eve@example.org" and not settings["email_confirmed"] and settings["mail"]
    run(served, reminders_of(served).sweep())
    confirm = wait_for(lambda: box.to("eve@example.org"), what="the confirming mail")[0]
    assert "Confirm" in confirm["Subject"]
    link = link_in(confirm, "/mail/confirm")
    page = loopback.get(served.base + link)  # a scanner following the link confirms nothing
    assert page.status_code == 200 and "<form" in page.text and not eve.get("/account/turns")["email_confirmed"]
    assert confirmed(served.base, link).status_code == 200  # the page's button, as a browser sends it
    assert eve.get("/account/turns")["email_confirmed"]
    assert loopback.get(served.base + "/mail/confirm?k=" + me + ".nope").status_code == 404

    now = now_of(store)
    waiting_table(store, "TW", me, user_id(bob), now - 2 * HOUR, now + 2 * DAY + 3 * HOUR + 60)
    waiting_table(store, "TN", me, user_id(bob), now - 10 * 60, now + DAY)  # its turn began 10 minutes ago
    run(served, reminders_of(served).sweep())
    digests = wait_for(lambda: box.to("eve@example.org")[1:], what="the digest")
    digest = digests[0]
    assert digest["Subject"] == "Your turn at 2 tables"
    text = digest.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "Bob's Whist Clubs: 2 days 3 hours left" in text, text
    assert f"{SITE}/turns" in text
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    off = link_in(digest, "/mail/unsubscribe")
    assert digest["List-Unsubscribe"] == f"<{SITE}{off}>"
    assert digest.get_body(("html",)) is not None

    # no second digest within 24 hours
    advance(store, 23 * HOUR)
    run(served, reminders_of(served).sweep())
    assert len(box.to("eve@example.org")) == 2

    # the link's page changes nothing; its one-click POST (no session, no Origin, form-encoded) switches mail off
    page = loopback.get(served.base + off)
    assert page.status_code == 200 and "<form" in page.text and eve.get("/account/turns")["mail"]
    r = loopback.post(
        served.base + off,
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200, r.text
    assert not eve.get("/account/turns")["mail"]
    # the page's own form, as a browser sends it (Origin: null under no-referrer), is taken too
    r = loopback.post(
        served.base + off,
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded", "origin": "null"},
    )
    assert r.status_code == 200, r.text
    bad = loopback.post(served.base + "/mail/unsubscribe?k=" + me + ".nope", content=b"List-Unsubscribe=One-Click")
    assert bad.status_code == 404
    advance(store, 2 * HOUR)
    run(served, reminders_of(served).sweep())
    assert len(box.to("eve@example.org")) == 2
    eve.close()
    bob.close()


def test_a_refused_recipient_clears_the_address(served: ThreadServer, store: Store, mails: tuple[Mailbox, int]) -> None:
    box, _ = mails
    box.gone.add("gone@example.org")
    fay = Player(served.base, "Fay")
    put(fay, {"email": "gone@example.org"})
    run(served, reminders_of(served).sweep())
    wait_for(lambda: box.refused, what="the refusal")
    settings = wait_for(lambda: (s := fay.get("/account/turns"))["email"] is None and s, what="the address forgotten")
    assert settings["mail"] is False and settings["email_confirmed"] is False
    assert count(store, select(func.count()).select_from(outbox)) == 0
    fay.close()


# -- (c) the routes' refusals -----------------------------------------------------------------------------------------
def test_reminder_settings_refusals_name_the_input_and_the_rule(served: ThreadServer, store: Store) -> None:
    guest = loopback.get(served.base + "/account/turns")
    assert guest.status_code == 401 and guest.json()["code"] == "signed_out"
    gil = Player(served.base, "Gil")
    assert put(gil, {"zone": "Mars/Olympus"}, 400)["code"] == "bad_hours"
    assert "zone" in put(gil, {"zone": "Mars/Olympus"}, 400)["message"]
    assert put(gil, {"day_start": 600, "day_end": 700}, 400)["code"] == "bad_hours"  # under 8 hours
    assert put(gil, {"day_start": 2000}, 400)["code"] == "bad_hours"
    unknown = put(gil, {"colour": "red"}, 422)
    assert unknown["code"] == "bad_request" and "colour" in unknown["message"]
    assert put(gil, {"push_per_day": 51}, 400)["code"] == "bad_setting"
    assert put(gil, {"lang": "xx"}, 400)["code"] == "bad_setting"
    assert put(gil, {"email": "not an address"}, 400)["code"] == "bad_email"
    assert put(gil, {"email": "a@b.c" + "c" * 260}, 400)["code"] == "bad_email"
    assert put(gil, {"mail": True}, 400)["code"] == "no_email"
    good = put(gil, {"zone": "Europe/Paris", "day_start": 9 * 60, "day_end": 22 * 60, "push_per_day": 5})
    assert (good["zone"], good["day_start"], good["day_end"], good["push_per_day"]) == ("Europe/Paris", 540, 1320, 5)

    # vacations: 1 to 30 days, 30 in any 365, not in the past, not overlapping
    too_long = gil.post("/account/vacations", {"days": 31}, 400)
    assert too_long["code"] == "bad_vacation" and "days" in too_long["message"]
    assert gil.post("/account/vacations", {"days": 0.5}, 400)["code"] == "bad_vacation"
    now = gil.get("/account/turns")["now"]
    assert gil.post("/account/vacations", {"days": 2, "starts": now - DAY}, 400)["code"] == "bad_vacation"
    assert gil.post("/account/vacations", {"days": 2, "starts": now + 91 * DAY}, 400)["code"] == "bad_vacation"
    first = gil.post("/account/vacations", {"days": 20}, 201)
    assert first["ends"] - first["starts"] == 20 * DAY
    assert gil.post("/account/vacations", {"days": 2, "starts": now + DAY}, 409)["code"] == "vacation_overlaps"
    over = gil.post("/account/vacations", {"days": 11, "starts": now + 30 * DAY}, 409)
    assert over["code"] == "vacation_allowance" and "365" in over["message"]
    assert gil.get("/account/turns")["vacation_days_left"] == 10
    # ended early: its unused days are given back
    advance(store, 5 * DAY)
    ended = gil.post(f"/account/vacations/{first['id']}/end")
    assert 5 * DAY <= ended["ends"] - ended["starts"] < 5 * DAY + 60
    left = gil.get("/account/turns")
    assert left["vacations"] == [] and 24.9 <= left["vacation_days_left"] <= 25
    assert gil.post(f"/account/vacations/{first['id']}/end", status=409)["code"] == "vacation_over"
    assert gil.post("/account/vacations/nope/end", status=404)["code"] == "no_vacation"
    gil.post("/account/vacations", {"days": 24, "starts": now + 10 * DAY}, 201)

    # at most 3 confirming mails a day
    for n in range(3):
        put(gil, {"email": f"gil{n}@example.org"})
    assert put(gil, {"email": "gil9@example.org"}, 429)["code"] == "rate_limited"

    # a change without the page's CSRF token
    r = gil.http.put("/account/turns", json={"page": False})
    assert r.status_code == 403 and r.json()["code"] == "bad_csrf"
    gil.close()


def test_push_and_mail_are_not_offered_without_the_operators_settings(store: Store) -> None:
    with ThreadServer(store) as plain:
        hal = Player(plain.base, "Hal")
        settings = hal.get("/account/turns")
        assert settings["push_available"] is False and settings["mail_available"] is False
        assert settings["push_key"] is None
        assert put(hal, {"email": "hal@example.org"}, 409)["code"] == "mail_unavailable"
        refused = subscribe(hal, "https://fcm.googleapis.com/fcm/send/x", browser_keys()[2], 409)
        assert refused["code"] == "push_unavailable"
        hal.close()


def test_the_server_key_is_one_for_every_process(store: Store) -> None:
    from clubsuite.server.turns.push import application_server_key, server_key

    keys = {application_server_key(store.write(server_key)) for _ in range(3)}
    assert len(keys) == 1
    assert count(store, select(func.count()).select_from(turn_prefs)) == 0


def test_outbox_claims_are_atomic_and_expire(store: Store) -> None:
    """Two nodes share one due row: one claims it; once its claim has expired (a crash), the other does."""
    from clubsuite.server.store.handle import Database
    from clubsuite.server.turns.outbox import Outbox, Outcome, enqueue

    clock = DbClock(store, test=True)
    now = clock.now()
    store.write(lambda c: enqueue(c, "push", "u", "s", {"payload": {}}, now, now))

    async def never(_: Any) -> Outcome:
        raise AssertionError("not delivered here")

    a = Outbox(Database(store), clock, "a", never, lambda c, letter: None)
    b = Outbox(Database(store), clock, "b", never, lambda c, letter: None)
    assert len(store.write(a._claim)) == 1
    assert store.write(b._claim) == []
    advance(store, 121)
    assert len(store.write(b._claim)) == 1
    store.write(lambda c: c.execute(update(outbox).values(claimed_until=None)))


def test_the_digest_speaks_the_accounts_language() -> None:
    from clubsuite.server.turns.mail import Waiting, digest, time_left

    config = TurnConfig(smtp_host="127.0.0.1", site_url=SITE)
    message = digest(config, "ann@example.org", "de", [Waiting("Bobs Whist-Clubs", 26 * HOUR)] * 2, "u.k")
    assert message["Subject"] == "Sie sind an 2 Tischen am Zug"
    assert "Bobs Whist-Clubs: noch 1 Tag 2 Stunden" in message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert time_left("fr", 90 * 60) == "1 heure 30 minutes"
    assert time_left("en", 30) == "0 minutes"


@pytest.mark.parametrize(
    ("files", "data", "taken"),
    [
        ({"List-Unsubscribe": (None, "One-Click")}, None, True),  # multipart/form-data, as RFC 8058 asks
        (None, {"List-Unsubscribe": "One-Click"}, True),  # form-encoded, as most mail providers send it
        (None, {"List-Unsubscribe": "Two-Clicks"}, False),
        ({"Other": (None, "One-Click")}, None, False),
    ],
)
def test_the_one_click_unsubscribe_takes_its_field_however_the_form_is_encoded(
    files: dict[str, Any] | None, data: dict[str, str] | None, taken: bool
) -> None:
    request = httpx.Request("POST", "http://clubs.example/mail/unsubscribe", files=files, data=data)
    assert one_click(request.headers["content-type"], request.read()) is taken
    assert one_click("multipart/form-data; boundary=x", b"--x\r\nnot a part") is False
