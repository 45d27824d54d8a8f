"""The tournaments' and the people's routes against a stranger who means harm (loopback only), on SQLite and
PostgreSQL: bodies that are not JSON or not of the route's shape, bodies too large, path values too long or odd,
requests without their CSRF token or signed out, and the bounds on invitations, reports and tournaments.

Every answer is a documented 4xx (a JSON object with ``code`` and ``message`` naming the field or the rule), never a
server error and never a traceback in the log, and nothing changed: the lists, the notices, the reports' queue and
the tournaments read the same after each refusal as before. A name, a tournament's name or a chat line holding a
word the site does not accept is refused without the word being repeated back.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from serverkit import Client, ThreadServer, new_table
from sqlalchemy import select
from test_server_rated import PASSWORD, account

import loopback
from clubsuite.server.community.tournaments import OPEN_PER_HOST
from clubsuite.server.people.moderation import REPORTS_PER_HOUR
from clubsuite.server.people.notices import INVITE_WINDOW, INVITES_PER_MINUTE, KEPT, Notices
from clubsuite.server.store.dbschema import invitations_sent

pytestmark = pytest.mark.backends("sqlite", "postgresql")

# The tests that take ``shared`` (one server of the module's: tests/server/conftest.py), the calm world's among them,
# read only their own world (its accounts named for it alone), their own tables and tournaments, and what
# :meth:`World.seen` reads before and after them; the one whose world needs a server of its own takes ``server``.

DUEL = "northstar(players=2, target=10)"
SHORT = "whist(target=2)"
ARENA = {"format": "arena", "game": DUEL}


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """After the test: nothing the server logged carries a traceback (a stranger's input is never a fault)."""
    caplog.set_level(logging.INFO)
    yield
    faults = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not faults, [r.getMessage() for r in faults]


def refused(r: httpx.Response, status: int | tuple[int, ...], code: str | tuple[str, ...]) -> str:
    """Check a refusal (its status, its JSON code, a message in words); its message."""
    statuses = (status,) if isinstance(status, int) else status
    codes = (code,) if isinstance(code, str) else code
    assert r.status_code in statuses, (r.request.method, r.request.url, r.status_code, r.text)
    body = r.json()
    assert set(body) == {"code", "message"}, body
    assert body["code"] in codes, (r.request.url, body)
    assert isinstance(body["message"], str) and body["message"], body
    assert "Traceback" not in body["message"]
    return str(body["message"])


def run(server: ThreadServer, work: Any) -> Any:
    hub = server.server.config.app.state.hub
    return asyncio.run_coroutine_threadsafe(work, hub.loop).result(60)


@dataclass
class World:
    """A server with people in it: Ann hosts a tournament and holds a seat at a table, Bob follows Ann and has her
    invitation waiting, Cleo reported Bob, Mona is a moderator. Whatever a hostile request does, :meth:`seen` reads
    the same before and after it. Each account's name is its role's with the world's ``suffix`` (none: Ann, Bob,
    Cleo, Mona; :meth:`name`), so that several worlds live on one server."""

    server: ThreadServer
    ann: httpx.Client
    ann_h: dict[str, str]
    bob: httpx.Client
    bob_h: dict[str, str]
    cleo: httpx.Client
    cleo_h: dict[str, str]
    mona: httpx.Client
    mona_h: dict[str, str]
    tournament: str
    table: str
    notice: str
    report: str
    seat: Client
    suffix: str = ""

    def name(self, role: str) -> str:
        """The name of the world's account of ``role`` (``"Ann"``, ``"Bob"``, ``"Cleo"``, ``"Mona"``)."""
        return role + self.suffix

    def seen(self) -> dict[str, Any]:
        """Everything the routes under attack could change, as each account reads it."""
        out: dict[str, Any] = {}
        for name, b in (("ann", self.ann), ("bob", self.bob), ("cleo", self.cleo), ("mona", self.mona)):
            for path in ("/account/people", "/friends", "/notices"):
                r = b.get(path)
                assert r.status_code == 200, (path, r.text)
                out[f"{name} {path}"] = r.json()
        for status in ("open", "closed"):
            out[f"queue {status}"] = self.mona.get(f"/moderation/reports?status={status}").json()
        out["tournaments"] = loopback.get(f"{self.server.base}/tournaments").json()
        tournament = loopback.get(f"{self.server.base}/tournaments/{self.tournament}").json()
        tournament.pop("now", None)  # the server's clock as it answered, for the page's countdown: not state
        out["tournament"] = tournament
        out["standings"] = loopback.get(f"{self.server.base}/tournaments/{self.tournament}/standings.json").json()
        return out


WORLDS = itertools.count(1)
"""The suffix of each test's own world on the module's server (Ann1, Bob1, ...; Ann2, ...)."""


@pytest.fixture
def world(shared: ThreadServer) -> Iterator[World]:
    """A world of the test's own on the module's server, its accounts named for it alone (Ann1, Bob1, Cleo1,
    Mona1, ...): for the tests that change it (send invitations, reports)."""
    with _made(shared, str(next(WORLDS))) as made:
        yield made


@pytest.fixture
def lone_world(server: ThreadServer) -> Iterator[World]:
    """A world on a server of the test's own: for a test that reads what every account shares (the tournaments
    open, which it opens)."""
    with _made(server) as made:
        yield made


@pytest.fixture(scope="module")
def calm_world(shared_server: ThreadServer) -> Iterator[World]:
    """One world on each back end for the module's tests whose every request is refused: each of them reads
    :meth:`World.seen` before and after and holds it unchanged, so none changes what the next one sees. Its
    accounts bear the roles' names (Ann, Bob, Cleo, Mona), as :func:`posts` and :func:`shapes` name them."""
    with _made(shared_server) as made:
        yield made


@contextlib.contextmanager
def _made(server: ThreadServer, suffix: str = "") -> Iterator[World]:
    """The world on ``server``: its four accounts (their roles' names with ``suffix``), Ann's tournament and table,
    Bob's invitation, Cleo's report."""
    ann, _, ann_h = account(server, "Ann" + suffix)
    bob, _, bob_h = account(server, "Bob" + suffix)
    cleo, _, cleo_h = account(server, "Cleo" + suffix)
    mona, mona_id, mona_h = account(server, "Mona" + suffix)
    run(server, server.server.config.app.state.moderation.set_moderator(mona_id, True))
    made = ann.post("/tournaments", json={**ARENA, "name": "Evening arena"}, headers=ann_h)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert ann.post(f"/tournaments/{tid}/join", headers=ann_h).status_code == 200
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "random"}])["id"]
    joined = ann.post(f"/tables/{table}/join", json={}, headers=ann_h)
    assert joined.status_code == 200, joined.text
    seat = Client(server.base, table, joined.json()["token"])
    assert bob.post(f"/players/Ann{suffix}/follow", headers=bob_h).status_code == 200
    assert ann.post("/invitations", json={"to": "Bob" + suffix, "table": table}, headers=ann_h).status_code == 200
    [notice] = bob.get("/notices").json()["notices"]
    report = cleo.post("/reports", json={"kind": "player", "player": "Bob" + suffix, "block": False}, headers=cleo_h)
    assert report.status_code == 201, report.text
    try:
        yield World(
            server,
            ann,
            ann_h,
            bob,
            bob_h,
            cleo,
            cleo_h,
            mona,
            mona_h,
            tid,
            table,
            notice["id"],
            report.json()["report"],
            seat,
            suffix,
        )
    finally:
        seat.close()
        for b in (ann, bob, cleo, mona):
            b.close()


def posts(w: World) -> list[tuple[httpx.Client, dict[str, str], str, dict[str, Any] | None]]:
    """Every new POST route, each with the account and a body it would accept: (browser, CSRF header, path, body)."""
    out: list[tuple[httpx.Client, dict[str, str], str, dict[str, Any] | None]] = [
        (w.ann, w.ann_h, "/tournaments", {**ARENA, "name": "Second arena"}),
        (w.bob, w.bob_h, f"/tournaments/{w.tournament}/join", None),
        (w.ann, w.ann_h, f"/tournaments/{w.tournament}/withdraw", None),
        (w.ann, w.ann_h, f"/tournaments/{w.tournament}/start", None),
    ]
    for kind in ("follow", "unfollow", "block", "unblock", "mute", "unmute"):
        out.append((w.cleo, w.cleo_h, f"/players/Ann/{kind}", None))
    out += [
        (w.cleo, w.cleo_h, "/account/privacy", {"invites": "nobody", "presence": "nobody"}),
        (w.bob, w.bob_h, f"/notices/{w.notice}/dismiss", None),
        (w.bob, w.bob_h, f"/notices/{w.notice}/decline", None),
        (w.ann, w.ann_h, "/invitations", {"to": "Cleo", "tournament": w.tournament}),
        (w.ann, w.ann_h, "/reports", {"kind": "name", "player": "Cleo", "reason": "rude"}),
        (w.mona, w.mona_h, f"/moderation/reports/{w.report}", {"action": "warn", "reason": "be kind"}),
    ]
    return out


def send(b: httpx.Client, path: str, body: dict[str, Any] | None, headers: dict[str, str]) -> httpx.Response:
    return b.post(path, json=body, headers=headers) if body is not None else b.post(path, headers=headers)


# -- who may ask --------------------------------------------------------------------------------------------------
def test_every_new_route_refuses_a_request_signed_out_or_without_its_csrf_token_and_nothing_changes(
    calm_world: World, no_tracebacks: None
) -> None:
    w = calm_world
    before = w.seen()
    stranger = loopback.client(base_url=w.server.base, timeout=30)
    forged = loopback.client(base_url=w.server.base, timeout=30, cookies={"clubs_session": "not-a-session-" * 3})
    try:
        for b, headers, path, body in posts(w):
            for client in (stranger, forged):  # no session, or a cookie that opens none
                assert "sign in" in refused(send(client, path, body, {}), 401, "signed_out"), path
            assert "X-CSRF-Token" in refused(send(b, path, body, {}), 403, "bad_csrf"), path
            refused(send(b, path, body, {"X-CSRF-Token": "x" * 43}), 403, "bad_csrf")
            other = w.bob_h if b is not w.bob else w.ann_h  # a token, but another session's
            refused(send(b, path, body, other), 403, "bad_csrf")
            evil = {**headers, "origin": "https://evil.example"}
            assert "another site" in refused(send(b, path, body, evil), 403, "bad_origin")
    finally:
        stranger.close()
        forged.close()
    assert w.seen() == before


def test_the_reports_queue_and_the_moderators_actions_are_refused_to_anyone_not_a_moderator(
    calm_world: World, no_tracebacks: None
) -> None:
    w = calm_world
    before = w.seen()
    for b, h in ((w.ann, w.ann_h), (w.bob, w.bob_h), (w.cleo, w.cleo_h)):
        assert "moderators" in refused(b.get("/moderation/reports"), 403, "not_moderator")
        r = b.post(f"/moderation/reports/{w.report}", json={"action": "dismiss"}, headers=h)
        refused(r, 403, "not_moderator")
    refused(loopback.get(f"{w.server.base}/moderation/reports"), 401, "signed_out")
    refused(w.mona.get("/moderation/reports?status=everything"), 422, "bad_request")
    assert w.seen() == before


# -- bodies -------------------------------------------------------------------------------------------------------
NOT_JSON = [
    (b"not json", "not valid JSON"),
    (b'{"to": NaN}', "not a JSON number"),
    (b'{"hours": Infinity}', "not a JSON number"),
    (b'{"hours": 1e999}', "too large"),
    (b'{"kind": "name", "kind": "player"}', "kind"),  # a key given twice
    (b'{"to": "\xff\xfe"}', "UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "nested"),
]


def test_a_body_that_is_not_standard_json_gets_400_bad_json_on_every_new_route(
    calm_world: World, no_tracebacks: None
) -> None:
    w = calm_world
    before = w.seen()
    for b, headers, path, _ in posts(w):
        for content, named in NOT_JSON:
            r = b.post(path, content=content, headers={**headers, "content-type": "application/json"})
            assert named in refused(r, 400, "bad_json"), (path, content[:20], r.text)
    assert w.seen() == before


def test_a_body_over_the_limit_gets_413_on_every_new_route(calm_world: World, no_tracebacks: None) -> None:
    w = calm_world
    before = w.seen()
    limit = w.server.limits.max_body_bytes
    big = b'{"reason": "' + b"x" * (limit + 10) + b'"}'
    for b, headers, path, _ in posts(w):
        r = b.post(path, content=big, headers={**headers, "content-type": "application/json"})
        assert f"at most {limit} bytes" in refused(r, 413, "too_large"), path
    assert w.seen() == before


def shapes(w: World) -> list[tuple[httpx.Client, dict[str, str], str, Any, int, str, str]]:
    """Bodies of the wrong shape or out of bounds: (browser, header, path, body, status, code, words the message
    holds: the field or the rule)."""
    ann, bob, cleo, mona = (w.ann, w.ann_h), (w.bob, w.bob_h), (w.cleo, w.cleo_h), (w.mona, w.mona_h)
    t, table, report = "/tournaments", w.table, f"/moderation/reports/{w.report}"
    cases: list[tuple[tuple[httpx.Client, dict[str, str]], str, Any, int, str, str]] = [
        # a tournament
        (ann, t, [ARENA], 422, "bad_request", "valid dictionary"),
        (ann, t, {**ARENA, "colour": "red"}, 422, "bad_request", "'colour'"),
        (ann, t, {"game": DUEL}, 422, "bad_request", "'format'"),
        (ann, t, {**ARENA, "minutes": "30"}, 422, "bad_request", "'minutes'"),
        (ann, t, {**ARENA, "minutes": 30.5}, 422, "bad_request", "'minutes'"),
        (ann, t, {**ARENA, "rated": "yes"}, 422, "bad_request", "'rated'"),
        (ann, t, {**ARENA, "bots": 1}, 422, "bad_request", "'bots'"),
        (ann, t, {**ARENA, "format": "a" * 21}, 422, "bad_request", "'format'"),
        (ann, t, {**ARENA, "game": "whist" * 41}, 422, "bad_request", "'game'"),
        (ann, t, {**ARENA, "name": "x" * 201}, 422, "bad_request", "'name'"),
        (ann, t, {**ARENA, "bot": "b" * 101}, 422, "bad_request", "'bot'"),
        (ann, t, {**ARENA, "name": "x" * 61}, 400, "bad_request", "name"),
        (ann, t, {**ARENA, "name": "<script>alert(1)</script>"}, 400, "bad_request", "name"),
        (ann, t, {**ARENA, "name": "bell\u0007"}, 400, "bad_request", "name"),
        (ann, t, {**ARENA, "name": "  "}, 400, "bad_request", "name"),
        (ann, t, {**ARENA, "minutes": 10**30}, 400, "bad_request", "minutes"),
        (ann, t, {**ARENA, "minutes": -5}, 400, "bad_request", "minutes"),
        (ann, t, {**ARENA, "format": "swiss", "rounds": 0}, 400, "bad_request", "rounds"),
        (ann, t, {**ARENA, "format": "swiss", "rounds": 2**63}, 400, "bad_request", "rounds"),
        (ann, t, {**ARENA, "bot_delay": 1e308}, 400, "bad_request", "bot_delay"),
        (ann, t, {**ARENA, "bot_delay": -1}, 400, "bad_request", "bot_delay"),
        (ann, t, {**ARENA, "starts_at": 1e308}, 400, "bad_request", "starts_at"),
        (ann, t, {**ARENA, "starts_at": -1.0}, 400, "bad_request", "starts_at"),
        (ann, t, {**ARENA, "game": "whist(target=1e999)"}, 400, "bad_request", "target"),
        (ann, t, {**ARENA, "game": "(" * 150}, 400, "bad_request", "("),
        # privacy
        (cleo, "/account/privacy", {"invites": "all", "presence": "nobody"}, 422, "bad_request", "'invites'"),
        (cleo, "/account/privacy", {"invites": "nobody"}, 422, "bad_request", "'presence'"),
        (cleo, "/account/privacy", {"invites": "nobody", "presence": 0}, 422, "bad_request", "'presence'"),
        (
            cleo,
            "/account/privacy",
            {"invites": "nobody", "presence": "nobody", "extra": True},
            422,
            "bad_request",
            "'extra'",
        ),
        (cleo, "/account/privacy", "nobody", 422, "bad_request", "valid dictionary"),
        # invitations
        (ann, "/invitations", {"to": 5, "table": table}, 422, "bad_request", "'to'"),
        (ann, "/invitations", {"to": "", "table": table}, 422, "bad_request", "'to'"),
        (ann, "/invitations", {"to": "B" * 101, "table": table}, 422, "bad_request", "'to'"),
        (ann, "/invitations", {"to": "Bob", "table": "t" * 41}, 422, "bad_request", "'table'"),
        (ann, "/invitations", {"to": "Bob", "tournament": ["x"]}, 422, "bad_request", "'tournament'"),
        (ann, "/invitations", {"to": "Bob", "table": table, "note": "hi"}, 422, "bad_request", "'note'"),
        (ann, "/invitations", {"to": "Bob"}, 422, "bad_request", "'table' or 'tournament'"),
        (ann, "/invitations", {"to": "Bob", "table": table, "tournament": w.tournament}, 422, "bad_request", "one"),
        (ann, "/invitations", {"to": "Nobody", "table": table}, 404, "no_player", "no player"),
        (ann, "/invitations", {"to": "Ann", "table": table}, 409, "yourself", "yourself"),
        (bob, "/invitations", {"to": "Cleo", "table": table}, 404, "no_table", "no seat"),
        (ann, "/invitations", {"to": "Bob", "tournament": "no-such-one"}, 404, "no_tournament", "no such"),
        # reports
        (cleo, "/reports", {"kind": "abuse", "player": "Ann"}, 422, "bad_request", "'kind'"),
        (cleo, "/reports", {"player": "Ann"}, 422, "bad_request", "'kind'"),
        (cleo, "/reports", {"kind": "player", "player": "Ann", "block": "yes"}, 422, "bad_request", "'block'"),
        (cleo, "/reports", {"kind": "player", "player": "A" * 101}, 422, "bad_request", "'player'"),
        (cleo, "/reports", {"kind": "player", "player": "Ann", "reason": "r" * 2001}, 422, "bad_request", "reason"),
        (cleo, "/reports", {"kind": "player", "player": "Ann", "reason": "r" * 501}, 422, "bad_request", "500"),
        (cleo, "/reports", {"kind": "player", "player": "Ann", "at": 1}, 422, "bad_request", "'at'"),
        (cleo, "/reports", {"kind": "player"}, 422, "bad_request", "'player'"),
        (cleo, "/reports", {"kind": "player", "player": "Cleo"}, 409, "yourself", "yourself"),
        (cleo, "/reports", {"kind": "player", "player": "Bob"}, 409, "already_reported", "already"),
        (cleo, "/reports", {"kind": "message", "table": table}, 422, "bad_request", "'message'"),
        (cleo, "/reports", {"kind": "message", "table": table, "message": 0}, 422, "bad_request", "'message'"),
        (cleo, "/reports", {"kind": "message", "table": table, "message": "1"}, 422, "bad_request", "'message'"),
        (cleo, "/reports", {"kind": "message", "table": table, "message": 1.5}, 422, "bad_request", "'message'"),
        (cleo, "/reports", {"kind": "message", "table": table, "message": 10**40}, 404, "no_message", "not kept"),
        (cleo, "/reports", {"kind": "message", "table": "t" * 41, "message": 1}, 422, "bad_request", "'table'"),
        # a moderator's action
        (mona, report, {"action": "ban"}, 422, "bad_request", "'action'"),
        (mona, report, {}, 422, "bad_request", "'action'"),
        (mona, report, {"action": "mute", "hours": "2"}, 422, "bad_request", "'hours'"),
        (mona, report, {"action": "mute"}, 409, "bad_action", "hours"),
        (mona, report, {"action": "mute", "hours": 0}, 409, "bad_action", "hours"),
        (mona, report, {"action": "mute", "hours": -3}, 409, "bad_action", "hours"),
        (mona, report, {"action": "mute", "hours": 1e308}, 409, "bad_action", "hours"),
        (mona, report, {"action": "warn", "reason": "r" * 2001}, 422, "bad_request", "'reason'"),
        (mona, report, {"action": "warn", "reason": "r" * 501}, 422, "bad_request", "500"),
        (mona, report, {"action": "warn", "subject": "Ann"}, 422, "bad_request", "'subject'"),
        (mona, "/moderation/reports/no-such-report", {"action": "warn"}, 404, "no_report", "no such"),
    ]
    return [(who[0], who[1], path, body, status, code, named) for who, path, body, status, code, named in cases]


def test_a_body_of_the_wrong_shape_or_out_of_bounds_is_refused_naming_the_field_or_rule_and_nothing_changes(
    calm_world: World, no_tracebacks: None
) -> None:
    w = calm_world
    before = w.seen()
    for b, headers, path, body, status, code, named in shapes(w):
        r = b.post(path, json=body, headers=headers)
        assert named in refused(r, status, code), (path, body if len(str(body)) < 200 else str(body)[:200], r.text)
    assert w.seen() == before


def test_a_refusal_never_writes_back_a_long_value_it_was_sent(calm_world: World, no_tracebacks: None) -> None:
    w = calm_world
    long = "Zq" * 60
    for b, headers, path, body in [
        (w.ann, w.ann_h, "/tournaments", {**ARENA, "game": long}),
        (w.ann, w.ann_h, "/invitations", {"to": long, "table": w.table}),
        (w.cleo, w.cleo_h, "/reports", {"kind": "player", "player": long}),
        (w.cleo, w.cleo_h, "/account/privacy", {"invites": long, "presence": "nobody"}),
        (w.mona, w.mona_h, f"/moderation/reports/{w.report}", {"action": long}),
    ]:
        r = b.post(path, json=body, headers=headers)
        assert 400 <= r.status_code < 500 and long not in r.text, (path, r.text)


# -- path values --------------------------------------------------------------------------------------------------
ODD = [
    "%E2%80%AE",  # the right-to-left override
    "%FF%FE",  # not UTF-8
    "%F0%9F%83%8F",  # an emoji
    "%27%20OR%201%3D1%20--",
    "%2E%2E",
    "%3Cscript%3E",
    "x%0D%0ASet-Cookie:%20a=b",
    "%25",
]


def test_a_path_value_too_long_is_refused_naming_it_and_nothing_changes(calm_world: World, no_tracebacks: None) -> None:
    w = calm_world
    before = w.seen()
    cases = [(w.cleo, w.cleo_h, f"/players/{'N' * 101}/{kind}", "name") for kind in ("follow", "block", "unmute")]
    cases += [(w.ann, w.ann_h, f"/tournaments/{'T' * 41}/{a}", "tournament_id") for a in ("join", "withdraw", "start")]
    cases += [(w.bob, w.bob_h, f"/notices/{'N' * 41}/{a}", "notice_id") for a in ("dismiss", "decline")]
    cases += [(w.mona, w.mona_h, f"/moderation/reports/{'R' * 41}", "report_id")]
    for b, headers, path, named in cases:
        body = {"action": "dismiss"} if path.startswith("/moderation") else None
        r = send(b, path, body, headers)
        assert named in refused(r, 422, "bad_request"), (path, r.text)
    for path in (f"/tournaments/{'T' * 41}", f"/tournaments/{'T' * 41}/seat", f"/tournaments/{'T' * 41}/standings.csv"):
        refused(w.ann.get(path), 422, "bad_request")
    assert w.seen() == before


def test_a_path_value_with_odd_characters_is_refused_as_not_found_and_nothing_changes(
    calm_world: World, no_tracebacks: None
) -> None:
    # One world for every odd value (a world is a server with four accounts, a tournament and a table): each value is
    # tried on every route, and nothing any of them did is seen afterwards.
    w = calm_world
    before = w.seen()
    for odd in ODD:
        try:
            _odd_paths_refused(w, odd)
        except AssertionError as failed:
            raise AssertionError(f"the path value {odd!r}: {failed}") from failed
    assert w.seen() == before


def _odd_paths_refused(w: World, odd: str) -> None:
    for kind in ("follow", "unfollow", "block", "unblock", "mute", "unmute"):
        refused(w.cleo.post(f"/players/{odd}/{kind}", headers=w.cleo_h), 404, ("no_player", "no_path"))
    for action in ("join", "withdraw", "start"):
        refused(w.ann.post(f"/tournaments/{odd}/{action}", headers=w.ann_h), 404, ("no_tournament", "no_path"))
    for path in ("", "/standings.json", "/standings.csv"):
        refused(w.ann.get(f"/tournaments/{odd}{path}"), 404, ("no_tournament", "no_path"))
    seat = w.ann.get(f"/tournaments/{odd}/seat")
    assert seat.status_code == 404 or seat.json()["table"] is None, seat.text
    for action, answer in (("dismiss", "dismissed"), ("decline", "declined")):
        r = w.bob.post(f"/notices/{odd}/{action}", headers=w.bob_h)
        if r.status_code == 200:
            assert r.json() == {answer: False}
        else:
            refused(r, 404, "no_path")
    r = w.mona.post(f"/moderation/reports/{odd}", json={"action": "dismiss"}, headers=w.mona_h)
    refused(r, 404, ("no_report", "no_path"))
    refused(w.ann.get(f"/players/{odd}"), 404, ("no_player", "no_path"))


def test_a_nul_character_in_a_name_or_an_id_is_refused_at_the_door_never_answered_busy(
    calm_world: World, no_tracebacks: None
) -> None:
    """U+0000 is a character like any other to JSON and to a URL, and no database keeps it (PostgreSQL refuses it in
    a query, which must not reach the stranger as "busy: try again", a 503 that trying again never cures): the
    guard refuses an address or a body that holds it, naming the character, before any route reads it."""
    w = calm_world
    before = w.seen()
    for odd in ("%00", "Ann%00"):
        for kind in ("follow", "block", "mute", "unmute"):
            refused(w.cleo.post(f"/players/{odd}/{kind}", headers=w.cleo_h), 400, "bad_path")
        for action in ("join", "withdraw", "start"):
            refused(w.ann.post(f"/tournaments/{odd}/{action}", headers=w.ann_h), 400, "bad_path")
        refused(w.ann.get(f"/tournaments/{odd}"), 400, "bad_path")
        refused(w.ann.get(f"/players/{odd}"), 400, "bad_path")
        r = w.mona.post(f"/moderation/reports/{odd}", json={"action": "dismiss"}, headers=w.mona_h)
        refused(r, 400, "bad_path")
        refused(w.bob.post(f"/notices/{odd}/dismiss", headers=w.bob_h), 400, "bad_path")
    for path, body in (
        ("/invitations", {"to": "Bob\u0000", "table": w.table}),
        ("/invitations", {"to": "Bob", "tournament": "\u0000"}),
        ("/reports", {"kind": "player", "player": "Cleo\u0000"}),
    ):
        refused(w.ann.post(path, json=body, headers=w.ann_h), 400, "bad_json")
    assert w.seen() == before


def test_a_report_whose_reason_holds_a_nul_character_is_kept_or_refused_with_a_4xx(
    world: World, no_tracebacks: None
) -> None:
    """A reason is the reporter's text: kept as any text is, or refused as text the server does not keep (a 4xx
    naming the reason), never "busy: try again"."""
    w = world
    mona = w.name("Mona")
    r = w.ann.post("/reports", json={"kind": "player", "player": mona, "reason": "rude\u0000"}, headers=w.ann_h)
    assert r.status_code == 201 or 400 <= r.status_code < 500, r.text
    reported = [x for x in w.mona.get("/moderation/reports").json()["reports"] if x["subject"] == mona]
    assert len(reported) == (1 if r.status_code == 201 else 0)


def test_a_moderators_action_whose_reason_holds_a_nul_character_is_taken_whole_or_not_at_all(
    world: World, no_tracebacks: None
) -> None:
    """An action closes the report and keeps the sanction (and tells the player): both, or neither. Never the
    report closed, the player told nothing and the moderator asked to try again, which is then refused as
    closed."""
    w = world
    r = w.mona.post(
        f"/moderation/reports/{w.report}", json={"action": "warn", "reason": "be\u0000kind"}, headers=w.mona_h
    )
    still_open = [x["id"] for x in w.mona.get("/moderation/reports").json()["reports"]]
    warned = [n for n in w.bob.get("/notices").json()["notices"] if n["kind"] == "warn"]
    if r.status_code == 200:
        assert w.report not in still_open and len(warned) == 1
    else:  # refused: the report waits for a moderator as before, and Bob was told nothing
        assert 400 <= r.status_code < 500, (r.status_code, r.text, w.report in still_open, warned)
        assert w.report in still_open and warned == []


def test_a_notice_or_report_of_another_account_is_not_reached_by_its_id(calm_world: World, no_tracebacks: None) -> None:
    w = calm_world
    before = w.seen()
    for b, h in ((w.ann, w.ann_h), (w.cleo, w.cleo_h), (w.mona, w.mona_h)):  # Bob's invitation, by its id
        assert b.post(f"/notices/{w.notice}/dismiss", headers=h).json() == {"dismissed": False}
        assert b.post(f"/notices/{w.notice}/decline", headers=h).json() == {"declined": False}
    assert w.seen() == before


# -- bounds -------------------------------------------------------------------------------------------------------
def test_an_account_sends_at_most_ten_invitations_a_minute(world: World, no_tracebacks: None) -> None:
    w = world
    w.bob.post(f"/notices/{w.notice}/dismiss", headers=w.bob_h)
    sent = 1  # the world's own invitation
    while sent < INVITES_PER_MINUTE:
        r = w.ann.post("/invitations", json={"to": w.name("Cleo"), "table": w.table}, headers=w.ann_h)
        assert r.status_code == 200, r.text
        sent += 1
    before = w.seen()
    for to in (w.name("Cleo"), w.name("Bob"), w.name("Mona")):
        r = w.ann.post("/invitations", json={"to": to, "table": w.table}, headers=w.ann_h)
        assert f"at most {INVITES_PER_MINUTE} invitations a minute" in refused(r, 429, "rate_limited")
        r = w.ann.post("/invitations", json={"to": to, "tournament": w.tournament}, headers=w.ann_h)
        refused(r, 429, "rate_limited")
    assert w.seen() == before
    assert len(w.cleo.get("/notices").json()["notices"]) == INVITES_PER_MINUTE - 1
    r = w.bob.post("/invitations", json={"to": w.name("Cleo"), "tournament": w.tournament}, headers=w.bob_h)
    assert r.status_code == 200


def test_the_rate_of_invitations_holds_across_the_processes_of_a_site(world: World, no_tracebacks: None) -> None:
    """Behind one proxy a site's processes share the database: invitations taken by another process (a second
    :class:`Notices` over the same store, as another process has) count toward the same minute."""
    w = world
    moderation = w.server.server.config.app.state.moderation
    elsewhere = Notices(moderation.database, moderation.relations)
    ann = run(w.server, moderation.relations.account(w.name("Ann")))
    cleo_id, _ = run(w.server, moderation.relations.account(w.name("Cleo")))
    sent = 1  # the world's own invitation, taken here
    target = {"kind": "tournament", "tournament": w.tournament, "name": "Evening arena"}
    while sent < INVITES_PER_MINUTE:
        if sent % 2:
            run(w.server, elsewhere.invite(ann, cleo_id, target))
        else:
            r = w.ann.post("/invitations", json={"to": w.name("Cleo"), "tournament": w.tournament}, headers=w.ann_h)
            assert r.status_code == 200, r.text
        sent += 1
    r = w.ann.post("/invitations", json={"to": w.name("Cleo"), "tournament": w.tournament}, headers=w.ann_h)
    assert f"at most {INVITES_PER_MINUTE} invitations a minute" in refused(r, 429, "rate_limited")
    assert len(w.cleo.get("/notices").json()["notices"]) == INVITES_PER_MINUTE - 1


def test_invitations_counted_long_ago_are_removed_whoever_sent_them(world: World, no_tracebacks: None) -> None:
    """Cleo invited people long ago and never again: her counted invitations go as soon as anyone invites, so that
    the table holds the last minute's invitations only, and never grows with the accounts that once invited."""
    w = world
    store = w.server.server.config.app.state.moderation.database.store
    cleo_id, _ = run(w.server, w.server.server.config.app.state.moderation.relations.account(w.name("Cleo")))
    long_ago = time.time() - 10 * INVITE_WINDOW
    rows = [{"id": f"old-{k}", "sender_id": cleo_id, "sent_at": long_ago + k} for k in range(INVITES_PER_MINUTE)]
    store.write(lambda conn: conn.execute(invitations_sent.insert(), rows))
    r = w.bob.post("/invitations", json={"to": w.name("Ann"), "tournament": w.tournament}, headers=w.bob_h)
    assert r.status_code == 200, r.text
    kept = store.read(select(invitations_sent.c.sender_id, invitations_sent.c.sent_at))
    assert cleo_id not in {row.sender_id for row in kept}
    assert all(row.sent_at > time.time() - INVITE_WINDOW - 30 for row in kept)


def test_a_deleted_accounts_counted_invitations_go_with_it(world: World, no_tracebacks: None) -> None:
    w = world
    store = w.server.server.config.app.state.moderation.database.store
    cleo_id, _ = run(w.server, w.server.server.config.app.state.moderation.relations.account(w.name("Cleo")))
    r = w.cleo.post("/invitations", json={"to": w.name("Ann"), "tournament": w.tournament}, headers=w.cleo_h)
    assert r.status_code == 200, r.text
    cleos = select(invitations_sent.c.id).where(invitations_sent.c.sender_id == cleo_id)
    assert len(store.read(cleos)) == 1
    assert w.cleo.post("/account/delete", json={"password": PASSWORD}, headers=w.cleo_h).status_code == 200
    assert store.read(cleos) == []


def test_invitations_never_push_a_tournament_seat_notice_out(world: World, no_tracebacks: None) -> None:
    """Bob's table at a tournament is ready (a seat notice), then more invitations come than an account keeps: the
    seat notice stays, and the oldest invitations go (the world's own first)."""
    w = world
    moderation = w.server.server.config.app.state.moderation
    bob_id, _ = run(w.server, moderation.relations.account(w.name("Bob")))
    seat = {"tournament": w.tournament, "table": w.table, "seat": 1, "name": "Evening arena"}
    run(w.server, moderation.notices.add(bob_id, "seat", seat))
    for k in range(KEPT + 5):
        body = {"from": w.name("Ann"), "kind": "table", "table": w.table, "number": k}
        run(w.server, moderation.notices.add(bob_id, "invite", body, time.time() + 600))
    kept = w.bob.get("/notices").json()["notices"]
    assert [n["body"] for n in kept if n["kind"] == "seat"] == [seat]
    assert sorted(n["body"]["number"] for n in kept if n["kind"] == "invite") == list(range(5, KEPT + 5))


def test_an_account_sends_at_most_ten_reports_an_hour(world: World, no_tracebacks: None) -> None:
    w = world
    names = [f"Player{k}" for k in range(REPORTS_PER_HOUR + 1)]
    for name in names:
        account(w.server, name)[0].close()
    sent = 1  # the world's own report, Cleo's of Bob
    for name in names[: REPORTS_PER_HOUR - 1]:
        r = w.cleo.post("/reports", json={"kind": "player", "player": name, "block": False}, headers=w.cleo_h)
        assert r.status_code == 201, r.text
        sent += 1
    assert sent == REPORTS_PER_HOUR
    before = w.seen()
    for name in names[REPORTS_PER_HOUR - 1 :]:
        r = w.cleo.post("/reports", json={"kind": "player", "player": name}, headers=w.cleo_h)
        assert f"at most {REPORTS_PER_HOUR} reports an hour" in refused(r, 429, "rate_limited")
    assert w.seen() == before  # and the report refused did not block the player either
    queue = w.mona.get("/moderation/reports").json()["reports"]
    assert sum(1 for x in queue if x["reporter"] == w.name("Cleo")) == REPORTS_PER_HOUR
    r = w.ann.post("/reports", json={"kind": "player", "player": names[-1]}, headers=w.ann_h)
    assert r.status_code == 201  # another account's reports are its own


def test_an_account_has_at_most_three_tournaments_open(lone_world: World, no_tracebacks: None) -> None:
    w = lone_world
    for k in range(1, OPEN_PER_HOST):  # the world's own is the first
        r = w.ann.post("/tournaments", json={**ARENA, "name": f"Arena {k}"}, headers=w.ann_h)
        assert r.status_code == 201, r.text
    before = w.seen()
    for body in (ARENA, {"format": "swiss", "game": DUEL, "rounds": 3}):
        r = w.ann.post("/tournaments", json=body, headers=w.ann_h)
        assert "the most you may have" in refused(r, 409, "too_many_tournaments")
    assert w.seen() == before
    assert len(before["tournaments"]["tournaments"]) == OPEN_PER_HOST
    assert w.bob.post("/tournaments", json=ARENA, headers=w.bob_h).status_code == 201  # Bob's are his own


# -- words the site does not accept -------------------------------------------------------------------------------
REFUSED_WORDS = ["shit", "s h i t", "SH1T", "ｓｈｉｔ", "Shit happens"]


def no_word(message: str, sent: str) -> None:
    """A refusal's message repeats neither the word nor what was sent."""
    squeezed = "".join(message.lower().split())
    assert "shit" not in squeezed and "sh1t" not in squeezed and sent.lower() not in message.lower(), message


@pytest.mark.parametrize("name", REFUSED_WORDS)
def test_a_name_with_a_word_the_site_does_not_accept_is_refused_without_repeating_it(
    shared: ThreadServer, name: str, no_tracebacks: None
) -> None:
    server = shared
    r = loopback.post(f"{server.base}/account/signup", json={"name": name, "password": PASSWORD})
    no_word(refused(r, 422, "unwelcome_name"), name)
    r = loopback.post(f"{server.base}/account/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 401  # no account was made
    table = new_table(server.base, "whist")["id"]
    r = loopback.post(f"{server.base}/tables/{table}/join", json={"name": name})
    no_word(refused(r, 400, "bad_request"), name)
    assert loopback.get(f"{server.base}/tables/{table}").json()["free_seats"] == [0, 1, 2]
    host, _, host_h = account(server, f"Host{REFUSED_WORDS.index(name)}")  # a host of the case's own
    try:
        before = loopback.get(f"{server.base}/tournaments").json()["tournaments"]
        r = host.post("/tournaments", json={**ARENA, "name": name}, headers=host_h)
        no_word(refused(r, 400, "bad_request"), name)
        assert loopback.get(f"{server.base}/tournaments").json()["tournaments"] == before  # none was made
    finally:
        host.close()


def test_a_chat_line_with_a_word_the_site_does_not_accept_is_refused_without_repeating_it(
    shared: ThreadServer, no_tracebacks: None
) -> None:
    server = shared
    gwen, _, gwen_h = account(server, "Gwen")  # a name no world on the module's server takes
    table = new_table(server.base, SHORT, [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "random"}])["id"]
    mine = Client(server.base, table, gwen.post(f"/tables/{table}/join", json={}, headers=gwen_h).json()["token"])
    guest = Client(
        server.base, table, loopback.post(f"{server.base}/tables/{table}/join", json={"name": "Gus"}).json()["token"]
    )
    watcher = Client(server.base, table)
    try:
        for c in (mine, guest, watcher):
            c.until(lambda m: m["type"] == "state")
        for c in (mine, guest, watcher):  # a seat of an account, a guest's seat, a spectator
            for line in REFUSED_WORDS[:3]:
                c.send({"type": "chat", "text": line})
                error = c.until(lambda m: m["type"] == "error")
                assert error["code"] == "bad_chat", error
                no_word(error["message"], line)
        mine.send({"type": "chat", "text": "good game"})
        for c in (mine, guest, watcher):
            c.until(lambda m: m["type"] == "chat" and m["text"] == "good game")
            assert [m["text"] for m in c.messages if m["type"] == "chat"] == ["good game"]
    finally:
        for c in (mine, guest, watcher):
            c.close()
        gwen.close()
