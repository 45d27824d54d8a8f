"""Helpers of the turn-based tables' tests: accounts, a turn-based table made and joined over HTTP, the test clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from serverkit import Client

import loopback
from clubsuite.server.store.database import Store
from clubsuite.server.turns.dbclock import advance

PASSWORD = "correct horse battery staple"
HOUR = 3600.0
DAY = 24 * HOUR


class Player:
    """One account's browser-like HTTP client (cookies kept, the CSRF token sent with every change)."""

    def __init__(self, base: str, name: str) -> None:
        self.name = name
        self.http = loopback.client(base_url=base, timeout=30)
        r = self.http.post("/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = {"X-CSRF-Token": self.http.get("/account").json()["csrf"]}
        self.token: str | None = None
        self.seat: int | None = None
        self.invite: str | None = None
        """The invite code of the last turn-based table made for this player (its record and results need it)."""

    def rebase(self, base: str) -> None:
        """Sign in again at another address (another process of the site, or the server started again)."""
        self.http.close()
        self.http = loopback.client(base_url=base, timeout=30)
        r = self.http.post("/account/login", json={"name": self.name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.csrf = {"X-CSRF-Token": self.http.get("/account").json()["csrf"]}

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        r = self.http.post(path, json=body or {}, headers=self.csrf)
        assert r.status_code == status, (path, r.status_code, r.text)
        return r.json()

    def get(self, path: str, status: int = 200) -> Any:
        r = self.http.get(path)
        assert r.status_code == status, (path, r.status_code, r.text)
        return r.json()

    def close(self) -> None:
        self.http.close()


def turn_table(host: Player, others: list[Player], pace: float = DAY, on_timeout: str = "bot", **more: Any) -> str:
    """A turn-based whist table made by ``host`` and joined by it (seat 0) and ``others`` (seats 1, 2, ...)."""
    made = host.post(
        "/tables", {"game": "whist", "pace": pace, "on_timeout": on_timeout, "public": False, **more}, status=201
    )
    table = str(made["id"])
    for i, other in enumerate([host, *others]):
        answer = other.post(f"/invites/{made['invite']}/join", {"seat": i})
        other.token, other.seat, other.invite = answer["token"], answer["seat"], made["invite"]
    return table


def wait_for(check: Callable[[], Any], seconds: float = 60, what: str = "a condition") -> Any:
    """Poll ``check`` until it gives something true (generous bound; never a guess at speed)."""
    deadline = time.monotonic() + seconds
    pause = 0.02
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(pause)
        pause = min(0.25, pause * 1.5)


def later(store: Store, seconds: float) -> None:
    """Move the turn clocks' time on (the test clock)."""
    advance(store, seconds)


def act(client: Client, seat: int) -> dict[str, Any]:
    """Wait until ``seat`` is to act and play its first legal action; the message it acted on."""
    msg = client.until(lambda m: m["type"] in ("state", "update") and m["to_act"] == seat and m.get("legal"))
    client.send({"type": "act", "version": msg["version"], "action": msg["legal"][0]})
    return msg
