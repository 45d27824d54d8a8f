"""Helpers of the turn-based tables' tests: accounts, a turn-based table made and joined over HTTP, the test clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from serverkit import Client

import loopback
from clubsuite.server.store.database import Store
from clubsuite.server.turns.dbclock import advance

PASSWORD = "correct horse battery staple"
PARIS = ZoneInfo("Europe/Paris")
Message = dict[str, Any]
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


def paris(day: int, hour: int, minute: int = 0) -> float:
    """An instant of March 2027 on Paris's wall clock (1 March 2027 is a Monday)."""
    return datetime(2027, 3, day, hour, minute, tzinfo=PARIS).timestamp()


def clients(base: str, table: str, players: list[Player]) -> dict[int, Client]:
    out: dict[int, Client] = {}
    for p in players:
        assert p.seat is not None and p.token is not None
        out[p.seat] = Client(base, table, p.token)
    return out


def play(
    at: dict[int, Client],
    stop: Callable[[Message], bool],
    limit: int = 2000,
    moves: int | None = None,
    forced: frozenset[int] = frozenset(),
) -> Message:
    """Play the first legal action of whoever is to act, through their own socket, until ``stop`` holds for the
    table's latest message (or ``moves`` were made, or the match is over); that message. A seat without a client
    (a bot's) and a seat of ``forced`` with one legal action (auto-play) are waited for."""
    msg = _latest(at)
    for made in range(limit):
        if made == moves:
            return msg
        if stop(msg) or msg["over"]:
            return msg
        seat = msg["to_act"]
        seen = msg["version"]
        if seat not in at or (seat in forced and len(msg.get("legal") or ()) == 1):  # a bot's move, or auto-play
            msg = next(iter(at.values())).until(lambda m, v=seen: m["type"] == "update" and m["version"] > v)
            continue

        def ready(m: Message, v: int = seen) -> bool:
            return m["type"] in ("state", "update") and m["version"] >= v and bool(m.get("legal"))

        held = [m for m in at[seat].messages if ready(m)]
        mine = held[-1] if held else at[seat].until(ready)
        acted = mine["version"]
        at[seat].send({"type": "act", "version": acted, "action": mine["legal"][0]})
        msg = at[seat].until(lambda m, v=acted: m["type"] == "update" and m["version"] > v)
    raise AssertionError("the match did not get there")


def _latest(at: dict[int, Client]) -> Message:
    """The newest state or update any of the clients has received (waiting for a first one where none has)."""
    known = [m for c in at.values() for m in c.messages if m["type"] in ("state", "update")]
    if not known:
        return next(iter(at.values())).until(lambda m: m["type"] in ("state", "update"))
    return max(known, key=lambda m: int(m["version"]))


def leave(at: dict[int, Client]) -> None:
    for c in at.values():
        c.close()
