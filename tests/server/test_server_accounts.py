"""Accounts on a real server: signing up and in (Argon2id), the session cookie and its CSRF token, session fixation,
guessing bounded per address and per account, sessions listed and ended, a password changed, one account unable
to touch another's, a guest's table carried over, rated tables for accounts only, and an account deleted."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverkit import ROOMY, ThreadServer, new_table, post
from sqlalchemy import select

import loopback
from cli_helpers import clubs_in_process
from clubsuite.errors import InvalidOptionsError
from clubsuite.server.limits import HASH_MEMORY_LEAST, ServerLimits
from clubsuite.server.people import accounts
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import seats, sessions, users

PASSWORD = "correct horse battery"


pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""

# The tests that take ``shared`` (one server of the module's: tests/server/conftest.py) read only what their own
# accounts and tables hold: each signs up accounts of names no other test takes (nor names like them). The tests that
# read the store's rows of every account, or need limits of their own, take a ``server`` of their own.


def browser(server: ThreadServer) -> httpx.Client:
    """A client that keeps cookies, as a browser does."""
    return loopback.client(base_url=server.base, timeout=30)


def sign_up(b: httpx.Client, name: str, password: str = PASSWORD, **more: Any) -> dict[str, Any]:
    r = b.post("/account/signup", json={"name": name, "password": password, **more})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def sign_in(b: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return b.post("/account/login", json={"name": name, "password": password})


def refused(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["code"] == code, r.json()
    return str(r.json()["message"])


def csrf(b: httpx.Client) -> dict[str, str]:
    r = b.get("/account")
    assert r.status_code == 200, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def test_signing_up_signs_in_with_an_httponly_samesite_cookie_and_keeps_only_hashes(
    server: ThreadServer, store: Store
) -> None:
    with browser(server) as b:
        r = b.post("/account/signup", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("clubs_session=")
        low = cookie.lower()
        assert "httponly" in low and "samesite=lax" in low and "path=/" in low
        assert "secure" not in low  # plain HTTP here: a Secure cookie would never come back
        secret = b.cookies["clubs_session"]
        assert b.get("/account").json()["name"] == "Ann"
    stored = store.read(select(users))
    assert len(stored) == 1 and stored[0].password_hash.startswith("$argon2id$")
    assert PASSWORD not in stored[0].password_hash
    kept = store.read(select(sessions))
    assert len(kept) == 1 and secret not in {kept[0].id_hash, kept[0].public_id, kept[0].csrf}


def test_passwords_are_hashed_with_rfc_9106s_setting_by_default_and_again_when_the_setting_changes(
    store: Store,
) -> None:
    default = ServerLimits()
    assert (default.hash_memory, default.hash_passes) == (65536, 3)  # RFC 9106's second recommended setting
    strong = replace(ROOMY, hash_memory=default.hash_memory, hash_passes=default.hash_passes)
    with ThreadServer(store, strong) as one, browser(one) as b:
        sign_up(b, "Ann")
    assert store.read(select(users))[0].password_hash.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    with ThreadServer(store, replace(ROOMY, hash_memory=64, hash_passes=2)) as other, browser(other) as b:
        assert sign_in(b, "Ann").status_code == 200  # the old hash still signs in, and is made again (a small machine)
    assert store.read(select(users))[0].password_hash.startswith("$argon2id$v=19$m=64,t=2,p=4$")


@pytest.mark.parametrize(("memory", "passes"), [(31, 3), (0, 3), (65536, 0)])
def test_a_hash_setting_argon2id_cannot_use_is_refused_naming_its_flag(memory: int, passes: int) -> None:
    with pytest.raises(InvalidOptionsError, match=r"--hash-memory|--hash-passes"):
        ServerLimits(hash_memory=memory, hash_passes=passes)


def test_a_wrong_password_and_an_unknown_name_get_the_same_refusal(shared: ThreadServer) -> None:
    server = shared
    with browser(server) as b:
        sign_up(b, "Wes")
    with browser(server) as other:
        wrong = refused(sign_in(other, "Wes", "not the password"), 401, "bad_login")
        unknown = refused(sign_in(other, "Nobody", PASSWORD), 401, "bad_login")
        assert wrong == unknown
        assert other.get("/account").json() == {"signed_in": False}
        assert sign_in(other, "wes").status_code == 200  # the name as it reads, whatever its case


def test_a_change_without_the_pages_csrf_token_is_refused_and_changes_nothing(shared: ThreadServer) -> None:
    server = shared
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    with browser(server) as b:
        sign_up(b, "Cyd")
        refused(b.post(f"/tables/{table['id']}/join", json={}), 403, "bad_csrf")
        assert b.get(f"/tables/{table['id']}").json()["waiting"] is True  # the seat was not taken
        refused(b.post("/account/logout"), 403, "bad_csrf")
        refused(b.post("/account/logout", headers={"X-CSRF-Token": "guess"}), 403, "bad_csrf")
        assert b.get("/account").json()["signed_in"] is True  # still signed in
        joined = b.post(f"/tables/{table['id']}/join", json={}, headers=csrf(b))
        assert joined.status_code == 200, joined.text
        assert b.post("/account/logout", headers=csrf(b)).status_code == 200
        assert b.get("/account").json() == {"signed_in": False}


def test_a_session_planted_before_signing_in_is_never_the_session_after(shared: ThreadServer) -> None:
    server = shared
    with browser(server) as mallory:
        sign_up(mallory, "Mallory")
        planted = mallory.cookies["clubs_session"]
    with browser(server) as victim:
        sign_up(victim, "Victim")
    with browser(server) as b:
        b.cookies.set(
            "clubs_session", planted, domain="127.0.0.1", path="/"
        )  # the attacker's own live session, slipped into the browser
        assert sign_in(b, "Victim").status_code == 200
        assert b.cookies["clubs_session"] != planted
        assert b.get("/account").json()["name"] == "Victim"
    with browser(server) as mallory_again:
        mallory_again.cookies.set("clubs_session", planted, domain="127.0.0.1", path="/")
        assert mallory_again.get("/account").json() == {"signed_in": False}  # ended when the browser signed in
    with browser(server) as c:
        c.cookies.set("clubs_session", "x" * 43, domain="127.0.0.1", path="/")  # a made-up id is no session at all
        assert c.get("/account").json() == {"signed_in": False}
        assert sign_in(c, "Victim").status_code == 200
        assert c.cookies["clubs_session"] != "x" * 43


@pytest.mark.server(limits=replace(ROOMY, login_rate="5/minute", login_account_rate="3/hour"))
def test_password_guesses_are_bounded_per_address_and_per_account(server: ThreadServer) -> None:
    with browser(server) as b:
        sign_up(b, "Ann")
    with browser(server) as guesser:
        for _ in range(3):
            refused(sign_in(guesser, "Ann", "wrong password"), 401, "bad_login")
        # The account waits, whoever asks, even with the right password.
        refused(sign_in(guesser, "Ann", PASSWORD), 429, "login_wait")
        r = sign_in(guesser, "Bob", PASSWORD)  # the address's sixth password check in a minute (sign-up counts)
        refused(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1


def test_sessions_are_listed_and_one_ended_signs_that_browser_out(shared: ThreadServer) -> None:
    server = shared
    with browser(server) as phone, browser(server) as laptop:
        sign_up(phone, "Sal")
        assert sign_in(laptop, "Sal").status_code == 200
        listed = laptop.get("/account/sessions").json()
        assert len(listed) == 2 and sum(s["current"] for s in listed) == 1
        phone_id = next(s["id"] for s in listed if not s["current"])
        assert laptop.post(f"/account/sessions/{phone_id}/end", headers=csrf(laptop)).status_code == 200
        assert phone.get("/account").json() == {"signed_in": False}
        assert len(laptop.get("/account/sessions").json()) == 1


def test_one_account_can_neither_list_nor_end_anothers_sessions(shared: ThreadServer) -> None:
    server = shared
    with browser(server) as ola, browser(server) as pip:
        sign_up(ola, "Ola")
        sign_up(pip, "Pip")
        ola_session = ola.get("/account/sessions").json()[0]["id"]
        assert [s["id"] for s in pip.get("/account/sessions").json()] != [ola_session]
        refused(pip.post(f"/account/sessions/{ola_session}/end", headers=csrf(pip)), 404, "no_session")
        assert ola.get("/account").json()["signed_in"] is True


def test_changing_the_password_ends_every_other_session_and_asks_the_old_one(shared: ThreadServer) -> None:
    server = shared
    with browser(server) as phone, browser(server) as laptop:
        sign_up(phone, "Chad")
        assert sign_in(laptop, "Chad").status_code == 200
        body = {"password": "not it at all", "new_password": "a new password"}
        refused(laptop.post("/account/password", json=body, headers=csrf(laptop)), 403, "bad_password")
        body["password"] = PASSWORD
        assert laptop.post("/account/password", json=body, headers=csrf(laptop)).status_code == 200
        assert phone.get("/account").json() == {"signed_in": False}
        assert laptop.get("/account").json()["signed_in"] is True
    with browser(server) as b:
        refused(sign_in(b, "Chad", PASSWORD), 401, "bad_login")
        assert sign_in(b, "Chad", "a new password").status_code == 200


def test_names_and_passwords_breaking_a_rule_are_refused_with_the_rule(shared: ThreadServer) -> None:
    server = shared
    with browser(server) as b:
        assert "8 to 256" in refused(
            b.post("/account/signup", json={"name": "Ann", "password": "short"}), 422, "bad_password"
        )
        long = "x" * 257
        refused(b.post("/account/signup", json={"name": "Ann", "password": long}), 422, "bad_password")
        refused(b.post("/account/signup", json={"name": "Ann!", "password": PASSWORD}), 422, "bad_name")
        same = refused(
            b.post("/account/signup", json={"name": "Password1", "password": "password1"}), 422, "bad_password"
        )
        assert "name" in same
        sign_up(b, "Ann")
    with browser(server) as c:
        sign_up(c, "Mac")
    with browser(server) as d:
        for alike in ("ann", "ANN", " Ann ", "Мас"):  # in capitals, with spaces, in Cyrillic letters that read "Mac"
            refused(d.post("/account/signup", json={"name": alike, "password": PASSWORD}), 409, "name_taken")
        assert d.get("/account").json() == {"signed_in": False}  # nothing was made


def test_a_guests_table_carries_over_when_they_sign_up(server: ThreadServer, store: Store) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    token = post(server.base, f"/tables/{table['id']}/join", {"name": "Guest"})["token"]
    with browser(server) as b:
        answer = sign_up(b, "Ann", tokens=[token, "not-a-token"])
        assert answer["seats"] == [{"table": table["id"], "seat": 0}]
        user_id = b.get("/account").json()["id"]
    rows = store.read(select(seats.c.user_id, seats.c.name).where(seats.c.table_id == table["id"], seats.c.seat == 0))
    assert rows[0].user_id == user_id and rows[0].name == "Guest"  # the others go on seeing the name they saw


def test_a_rated_table_seats_accounts_only_each_once_and_gives_no_hints(shared: ThreadServer) -> None:
    server = shared
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "person"}, {"kind": "bot"}], rated=True)
    r = loopback.post(f"{server.base}/tables/{table['id']}/join", json={"name": "Guest"})
    refused(r, 409, "account_needed")
    with browser(server) as b:
        sign_up(b, "Rae")
        assert b.post(f"/tables/{table['id']}/join", json={}, headers=csrf(b)).json()["seat"] == 0
        refused(b.post(f"/tables/{table['id']}/join", json={}, headers=csrf(b)), 409, "already_seated")
    r = loopback.post(f"{server.base}/tables", json={"game": "whist", "rated": True, "hints": True})
    assert "rated" in refused(r, 400, "bad_request")
    bots = [{"kind": "bot"}] * 3
    r = loopback.post(f"{server.base}/tables", json={"game": "whist", "rated": True, "seats": bots})
    assert "person" in refused(r, 400, "bad_request")


def test_deleting_an_account_gives_up_its_seats_ends_its_sessions_and_frees_its_name(
    server: ThreadServer, store: Store
) -> None:
    table = new_table(server.base, "whist", [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}])
    with browser(server) as phone, browser(server) as laptop:
        sign_up(phone, "Ann")
        assert sign_in(laptop, "Ann").status_code == 200
        assert phone.post(f"/tables/{table['id']}/join", json={}, headers=csrf(phone)).status_code == 200
        refused(
            phone.post("/account/delete", json={"password": "wrong one!"}, headers=csrf(phone)), 403, "bad_password"
        )
        assert phone.post("/account/delete", json={"password": PASSWORD}, headers=csrf(phone)).status_code == 200
        assert phone.get("/account").json() == {"signed_in": False}
        assert laptop.get("/account").json() == {"signed_in": False}
    with browser(server) as b:
        refused(sign_in(b, "Ann"), 401, "bad_login")
        sign_up(b, "Ann", "another password")  # the name is free again
    seat = store.read(select(seats).where(seats.c.table_id == table["id"], seats.c.seat == 0))[0]
    assert seat.token_hash is None and seat.user_id is None
    gone = store.read(select(users).where(users.c.deleted_at.is_not(None)))
    assert len(gone) == 1 and gone[0].name == "deleted player" and gone[0].password_hash is None
    assert store.read(select(sessions).where(sessions.c.user_id == gone[0].id)) == []


def test_an_operator_resets_a_password_with_clubs_admin_and_every_session_ends(
    server: ThreadServer, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``clubs admin`` run in this process (the console script's own frame, its streams replaced): what it writes
    # and its exit status are a process's, without starting one for each of its five runs. Its accounts hash with
    # Argon2id at its cheapest, as the test server's do (ROOMY), not at RFC 9106's setting: a third of a second of CPU
    # for each hash its runs make and each check of one by the server (test_passwords_are_hashed_with_rfc_9106s...
    # holds that setting). What is checked here is the reset and the sessions.
    hashing = accounts.Accounts

    def cheaply(database: Any, chosen: ServerLimits) -> accounts.Accounts:
        return hashing(database, replace(chosen, hash_memory=HASH_MEMORY_LEAST, hash_passes=1))

    monkeypatch.setattr(accounts, "Accounts", cheaply)
    db = ["--db", store.engine.url.render_as_string(hide_password=False)]
    with browser(server) as b:
        sign_up(b, "Ann")
        made = clubs_in_process(["admin", "reset-password", "ann", *db])
        assert made.status == 0, made.stderr
        new = made.stdout.split("new password: ")[1].strip()
        assert b.get("/account").json() == {"signed_in": False}
    with browser(server) as c:
        refused(sign_in(c, "Ann", PASSWORD), 401, "bad_login")
        assert sign_in(c, "Ann", new).status_code == 200
    given = clubs_in_process(
        ["admin", "reset-password", "Ann", "--password-stdin", *db], stdin=b"chosen by the operator\n"
    )
    assert given.status == 0 and "new password" not in given.stdout
    refusals = (
        (["Nobody"], "there is no account"),
        (["Ann", "--password-stdin"], "8 to 256"),
        (["Ann", "--data-dir", str(tmp_path / "missing")], "there is no server database"),
    )
    for args, words in refusals:
        done = clubs_in_process(["admin", "reset-password", *args, *([] if "--data-dir" in args else db)], b"short\n")
        assert done.status == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "missing").exists()
    with browser(server) as d:
        assert sign_in(d, "Ann", "chosen by the operator").status_code == 200
