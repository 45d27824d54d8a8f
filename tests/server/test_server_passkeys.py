"""Passkeys on a real server, answered by a software authenticator (``softkey``): adding one (the password asked
again) and signing in with it instead of the password, and every lie refused (a forged signature, another site or
origin, a replayed answer, a counter gone back, a person not verified, a handle missing or of another account, a key
of a strange shape), one account unable to touch another's passkeys or tickets, a server reached by an IP address, a
removed passkey and a deleted account, and the address's sign-in rate and open ceremonies."""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import functools
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

import cbor2
import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from serverkit import ROOMY, ThreadServer
from softkey import SoftKey
from sqlalchemy import select

import loopback
from clubsuite.server.people import passkeys as passkeys_module
from clubsuite.server.people.passkeys import PASSKEYS_MAX
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import passkeys

PASSWORD = "correct horse battery"


pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""


def port(server: ThreadServer) -> int:
    found = urlsplit(server.base).port
    assert found is not None
    return found


def browser(server: ThreadServer, host: str = "localhost") -> httpx.Client:
    """A client that keeps cookies and reaches the server by the name ``host`` (a passkey belongs to a name)."""
    return loopback.client(base_url=server.base, timeout=30, headers={"Host": f"{host}:{port(server)}"})


def key_for(server: ThreadServer, **more: Any) -> SoftKey:
    return SoftKey(origin=f"http://localhost:{port(server)}", **more)


def refused(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["code"] == code, r.json()
    return str(r.json()["message"])


def csrf(b: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": b.get("/account").json()["csrf"]}


def sign_up(b: httpx.Client, name: str) -> None:
    r = b.post("/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def add_options(b: httpx.Client, password: str = PASSWORD) -> httpx.Response:
    return b.post("/account/passkeys/options", json={"password": password}, headers=csrf(b))


def try_adding(b: httpx.Client, key: SoftKey) -> httpx.Response:
    """Ask for the options, let ``key`` answer them, and send the answer."""
    opened = add_options(b)
    assert opened.status_code == 200, opened.text
    answer = key.create(opened.json()["options"])
    return b.post("/account/passkeys", json={"ticket": opened.json()["ticket"], "credential": answer}, headers=csrf(b))


def add_passkey(b: httpx.Client, key: SoftKey) -> dict[str, Any]:
    """Add ``key`` to the signed-in account; the passkey as listed."""
    r = try_adding(b, key)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def login_options(b: httpx.Client) -> dict[str, Any]:
    r = b.post("/account/passkey-login/options")
    assert r.status_code == 200, r.text
    opened: dict[str, Any] = r.json()
    return opened


def passkey_login(b: httpx.Client, key: SoftKey, **lie: Any) -> httpx.Response:
    opened = login_options(b)
    answer = key.get(opened["options"], **lie)
    return b.post("/account/passkey-login", json={"ticket": opened["ticket"], "credential": answer})


def test_a_passkey_added_to_an_account_signs_in_without_the_password(server: ThreadServer, store: Store) -> None:
    key = key_for(server)
    with browser(server) as b:
        sign_up(b, "Ann")
        opened = b.post("/account/passkeys/options", json={"password": PASSWORD})
        refused(opened, 403, "bad_csrf")  # a change: the page's token is asked
        refused(add_options(b, "not the password"), 403, "bad_password")  # and the password, again
        options = add_options(b).json()["options"]
        assert options["rp"]["id"] == "localhost" and options["user"]["name"] == "Ann"
        assert options["authenticatorSelection"]["residentKey"] == "required"
        assert options["authenticatorSelection"]["userVerification"] == "required"
        made = add_passkey(b, key)
        listed = b.get("/account/passkeys").json()
        assert [p["id"] for p in listed] == [made["id"]] and set(listed[0]) == {"id", "agent", "created_at", "used_at"}
        again = add_options(b).json()["options"]
        assert [c["id"] for c in again["excludeCredentials"]] == [made["id"]]  # the same key is not added twice
    with browser(server) as other:
        assert other.get("/account").json() == {"signed_in": False}
        r = passkey_login(other, key)
        assert r.status_code == 200, r.text
        assert "clubs_session=" in r.headers["set-cookie"]
        assert other.get("/account").json()["name"] == "Ann"
        assert other.get("/account/passkeys").json()[0]["used_at"] is not None
    row = store.read(select(passkeys))[0]
    assert row.public_key and row.user_id == store.read(select(passkeys.c.user_id))[0].user_id


def test_a_passkey_answer_that_lies_is_refused_and_signs_nobody_in(server: ThreadServer) -> None:
    key = key_for(server, counter=5)  # an authenticator that counts its uses
    with browser(server) as b:
        sign_up(b, "Ann")
        add_passkey(b, key)
    with browser(server) as thief:
        same_words = refused(
            passkey_login(thief, key, signer=ec.generate_private_key(ec.SECP256R1())), 401, "bad_passkey"
        )
        assert refused(passkey_login(thief, key, origin="http://evil.example"), 401, "bad_passkey") == same_words
        assert refused(passkey_login(thief, key, rp_id="evil.example"), 401, "bad_passkey") == same_words
        silent = key_for(server)
        silent.key, silent.credential_id, silent.user_handle = key.key, key.credential_id, key.user_handle
        silent.sends_handle, silent.counter = False, 50
        assert refused(passkey_login(thief, silent), 401, "bad_passkey") == same_words  # whose key it is, unsaid
        stranger = key_for(server)
        stranger.user_handle = key.user_handle
        assert refused(passkey_login(thief, stranger), 401, "bad_passkey") == same_words  # a key the server never kept
        unverified = key_for(server, verified=False)
        with browser(server) as b:
            b.post("/account/login", json={"name": "Ann", "password": PASSWORD})
            refused(try_adding(b, unverified), 400, "bad_passkey")  # made without the person's PIN or fingerprint
            for shape in [cbor2.dumps([1, 2]), cbor2.dumps("ab"), cbor2.dumps(4), cbor2.dumps({1: 2, 3: -7})]:
                refused(try_adding(b, key_for(server, cose=shape)), 400, "bad_passkey")  # no key a signature fits
            assert len(b.get("/account/passkeys").json()) == 1
        assert thief.get("/account").json() == {"signed_in": False}
        # An answer caught on its way is spent: sent again, its ticket is gone.
        opened = login_options(thief)
        answer = key.get(opened["options"])
        assert (
            thief.post("/account/passkey-login", json={"ticket": opened["ticket"], "credential": answer}).status_code
            == 200
        )
        replayed = thief.post("/account/passkey-login", json={"ticket": opened["ticket"], "credential": answer})
        refused(replayed, 400, "bad_ticket")
    with browser(server) as copy:
        key.counter = 3  # a copy of the key, whose counter is behind the original's
        refused(passkey_login(copy, key), 401, "bad_passkey")
        assert copy.get("/account").json() == {"signed_in": False}


def test_a_malformed_passkey_answer_is_refused_with_words_and_no_server_error(server: ThreadServer) -> None:
    with browser(server) as b:
        for credential in [{}, {"id": "x"}, {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}]:
            opened = login_options(b)
            r = b.post("/account/passkey-login", json={"ticket": opened["ticket"], "credential": credential})
            assert 400 <= r.status_code < 500 and r.json()["code"] in ("bad_passkey", "bad_request"), r.text
        refused(b.post("/account/passkey-login", json={"ticket": "made-up", "credential": {}}), 400, "bad_ticket")
        r = b.post("/account/passkey-login", json={"ticket": "x" * 41, "credential": {}})
        assert r.status_code == 422 and "ticket" in r.text


def test_one_account_can_neither_see_nor_remove_nor_borrow_anothers_passkeys(server: ThreadServer) -> None:
    ann_key, bob_key = key_for(server), key_for(server)
    with browser(server) as ann, browser(server) as bob:
        sign_up(ann, "Ann")
        sign_up(bob, "Bob")
        made = add_passkey(ann, ann_key)
        bob_id = bob.get("/account").json()["id"]
        assert bob.get("/account/passkeys").json() == []
        refused(bob.post(f"/account/passkeys/{made['id']}/delete", headers=csrf(bob)), 404, "no_passkey")
        assert [p["id"] for p in ann.get("/account/passkeys").json()] == [made["id"]]
        # Ann's ticket is hers: Bob cannot spend it.
        opened = add_options(ann).json()
        answer = bob_key.create(opened["options"])
        r = bob.post("/account/passkeys", json={"ticket": opened["ticket"], "credential": answer}, headers=csrf(bob))
        refused(r, 400, "bad_ticket")
        # Ann's key cannot be kept by Bob's account as well (and the refusal does not say whose it is).
        refused(try_adding(bob, ann_key), 400, "bad_passkey")
    with browser(server) as guest:
        refused(guest.get("/account/passkeys"), 401, "signed_out")
        # Ann's key answering with Bob's account id is not a way into Bob's account, nor into Ann's.
        liar = key_for(server)
        liar.key, liar.credential_id, liar.user_handle = ann_key.key, ann_key.credential_id, bob_id.encode()
        refused(passkey_login(guest, liar), 401, "bad_passkey")
        assert guest.get("/account").json() == {"signed_in": False}


def test_a_removed_passkey_and_a_deleted_account_sign_in_no_more(server: ThreadServer, store: Store) -> None:
    first, second = key_for(server), key_for(server)
    with browser(server) as b:
        sign_up(b, "Ann")
        made = add_passkey(b, first)
        add_passkey(b, second)
        assert b.post(f"/account/passkeys/{made['id']}/delete", headers=csrf(b)).json() == {"removed": made["id"]}
        with browser(server) as other:
            refused(passkey_login(other, first), 401, "bad_passkey")
            assert passkey_login(other, second).status_code == 200
        r = b.post("/account/delete", json={"password": PASSWORD}, headers=csrf(b))
        assert r.status_code == 200, r.text
    assert store.read(select(passkeys)) == []
    with browser(server) as other:
        refused(passkey_login(other, second), 401, "bad_passkey")


def test_a_server_reached_by_an_ip_address_says_passkeys_need_its_name(server: ThreadServer) -> None:
    with browser(server, host="127.0.0.1") as b:
        words = refused(b.post("/account/passkey-login/options"), 400, "no_passkeys")
        assert "IP address" in words and "localhost" in words
        sign_up(b, "Ann")
        refused(add_options(b), 400, "no_passkeys")


def test_passkey_sign_ins_count_in_the_addresss_sign_in_rate(store: Store) -> None:
    with ThreadServer(store, replace(ROOMY, login_rate="4/minute")) as server, browser(server) as b:
        for _ in range(4):
            assert b.post("/account/passkey-login/options").status_code == 200
        r = b.post("/account/passkey-login/options")
        refused(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1


def test_an_address_holds_a_few_sign_in_ceremonies_open_and_a_new_one_drops_its_oldest(server: ThreadServer) -> None:
    key = key_for(server)
    with browser(server) as b:
        sign_up(b, "Ann")
        add_passkey(b, key)
    keys = server.server.config.app.state.passkeys
    with browser(server) as b:
        opened = [login_options(b) for _ in range(8)]
        assert keys.open_tickets() == 5  # TICKETS_PER_ADDRESS: the oldest three were dropped
        oldest, newest = opened[0], opened[-1]
        answer = key.get(oldest["options"])
        refused(
            b.post("/account/passkey-login", json={"ticket": oldest["ticket"], "credential": answer}), 400, "bad_ticket"
        )
        answer = key.get(newest["options"])
        assert (
            b.post("/account/passkey-login", json={"ticket": newest["ticket"], "credential": answer}).status_code == 200
        )


# -- requests at once ------------------------------------------------------------------------------------------------
def all_at_once(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Make the calls at the same moment, each in a thread of its own (each waits for the others to be ready)."""
    ready = threading.Barrier(len(calls))

    def go(call: Callable[[], httpx.Response]) -> httpx.Response:
        ready.wait()
        return call()

    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(go, calls))


def test_a_copied_passkey_signing_in_at_the_same_moment_as_its_original_lets_only_one_in(
    server: ThreadServer,
) -> None:
    key = key_for(server, counter=1)  # an authenticator that counts its signatures
    with browser(server) as b:
        sign_up(b, "Ann")
        add_passkey(b, key)
    copy = dataclasses.replace(key)  # a clone: the same private key, the same counter
    browsers = [browser(server), browser(server)]
    posts = []
    for b, k in zip(browsers, (key, copy), strict=True):
        opened = login_options(b)
        answer = k.get(opened["options"])  # both sign the same next count
        posts.append(
            functools.partial(b.post, "/account/passkey-login", json={"ticket": opened["ticket"], "credential": answer})
        )
    answers = all_at_once(posts)
    assert sorted(a.status_code for a in answers) == [200, 401]
    for b in browsers:
        b.close()


def test_passkeys_added_at_once_at_two_processes_stop_at_the_accounts_bound(
    server: ThreadServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = server.server.config.app.state.passkeys
    with browser(server) as b:
        sign_up(b, "Ann")
        for _ in range(PASSKEYS_MAX - 1):
            add_passkey(b, key_for(server))
        posts, tickets = [], {}
        for _ in range(2):  # two ceremonies open at once, as at two server processes (each keeps its own)
            opened = add_options(b)
            assert opened.status_code == 200, opened.text
            tickets.update(keys._tickets)  # a process keeps one ceremony an account; here the other's is kept too
            answer = key_for(server).create(opened.json()["options"])
            body = {"ticket": opened.json()["ticket"], "credential": answer}
            posts.append(functools.partial(b.post, "/account/passkeys", json=body, headers=csrf(b)))
        keys._tickets.update(tickets)
        # Each addition, once it has counted the account's passkeys, waits for the other to have counted too (or
        # for a while, when the other cannot count until this one is written): both count before either writes,
        # wherever the database lets them.
        counted = threading.Barrier(2)
        make = passkeys_module.insert

        def insert_once_both_counted(*args: Any) -> Any:
            with contextlib.suppress(threading.BrokenBarrierError):
                counted.wait(timeout=3)
            return make(*args)

        monkeypatch.setattr(passkeys_module, "insert", insert_once_both_counted)
        answers = all_at_once(posts)
        assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
        assert [a.json()["code"] for a in answers if a.status_code == 409] == ["too_many_passkeys"]
    assert len(store.read(select(passkeys))) == PASSKEYS_MAX
