"""Tournaments played through their pages in a real Chromium. A Swiss tournament and an arena, each made on the
tournaments' page by one person and entered by a second on a phone, are played to their ends: each page is led on to
its next table by itself or from its end dialog (never to a rematch, never to the next round of an arena whose time
is up), and every entrant gets their points, the arena's table in play when its time ran out included. A tournament's
table shows the tournament's name, clock and the player's place with a link back, opened cold too (nothing kept in
the browser), its clock the server's and "Time is up" once an arena's time ran out in play; the form says what each
table plays and warns when an arena is shorter than one."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from browserkit import keep_errors, wait_for
from serverkit import ThreadServer
from sqlalchemy import update
from test_browser_accounts import sign_up
from test_browser_tournaments import (
    count_down_now,
    follow_quickly,
    make,
    new_page,
    play_round,
    quick_looks,
    seated,
)
from test_server_rated import account

from clubsuite.server.community import watching
from clubsuite.server.community.directing import Director
from clubsuite.server.store.dbschema import tournaments


def signed_in_page(
    browser: Any, server: ThreadServer, name: str, width: int = 1280, quick_follow: bool = False
) -> tuple[Any, Any, Any]:
    """A page of a new account, and the account's client and CSRF header; ``quick_follow``: a table page's countdown
    to the next table is run on as soon as it shows (:func:`test_browser_tournaments.follow_quickly`)."""
    client, _, headers = account(server, name)
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800})
    context.add_cookies([{"name": k, "value": v, "url": server.base} for k, v in client.cookies.items()])
    page = context.new_page()
    if quick_follow:
        follow_quickly(page)
    return keep_errors(page), client, headers


def gone_on(page: Any, table: str) -> bool:
    """Whether ``page`` has gone on to ``table``; where it counts down to it, its count is run on
    (:func:`test_browser_tournaments.count_down_now`)."""
    if page.url.endswith(f"/table/{table}"):
        return True
    count_down_now(page)
    return False


def seated_alone(client: Any, headers: Any, body: dict[str, Any], page: Any) -> tuple[str, str]:
    """A tournament made with ``body`` by the account of ``client``, entered by it alone and started: its id and the
    table the account was seated at (``page`` shows what went wrong if it never is)."""
    tid: str = client.post("/tournaments", json=body, headers=headers).json()["id"]
    assert client.post(f"/tournaments/{tid}/join", headers=headers).status_code == 200
    assert client.post(f"/tournaments/{tid}/start", headers=headers).status_code == 200
    seat = f"/tournaments/{tid}/seat"
    wait_for(lambda: client.get(seat).json()["table"] is not None, 60, "never seated", page)
    return tid, str(client.get(seat).json()["table"])


def end_dialog_link(page: Any, words: str) -> Any:
    """The end-of-match dialog's way on, once it says ``words``."""
    link = page.locator('.match-summary [data-action="tournament"]')
    wait_for(lambda: link.count() == 1 and link.inner_text() == words, 60, f"no {words!r} in the end dialog", page)
    assert page.locator('[data-action="rematch"], [data-action="new-opponents"]').count() == 0
    return link


def made_on_the_form(browser: Any, server: ThreadServer, kind: str, count: str) -> tuple[str, str, Any, Any]:
    """A tournament of ``kind`` (``count`` minutes or rounds) made on the tournaments' form by Ann, who entered it, and
    Bob signed up on a phone, not yet entered: its id and address, Ann's page (on the tournament's) and Bob's. Both
    pages follow their countdowns to a next table quickly (:func:`test_browser_tournaments.follow_quickly`)."""
    ann = new_page(browser, quick_follow=True)
    sign_up(ann, server.base, "Ann")
    address = make(ann, server.base, kind, count)
    bob = new_page(browser, width=390, quick_follow=True)
    sign_up(bob, server.base, "Bob")
    return address.rsplit("/", 1)[1], address, ann, bob


def test_an_arena_of_a_few_minutes_made_on_its_form_is_played_until_it_ends_with_points_for_everyone(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """Ann makes the arena on the tournaments' page and starts it there; Bob, on a phone, enters from its page. Both
    are seated, and again as soon as a table ends; the arena's time runs out while their second table is in play,
    which still counts once it ends."""
    quick_looks(tournament_web)  # the director seats the next table within a tenth of a second
    tid, address, ann, bob = made_on_the_form(browser, tournament_web, "arena", "5")
    bob.goto(address)
    bob.locator("#t-join").click()
    bob.locator("#t-me").wait_for()
    ann.locator("#t-start").click()
    pages = [ann, bob]
    played: set[str] = set()
    play_round(pages, tournament_web.base, played, 5)  # one hand a table: the table ends, and they are seated again
    for page in pages:
        seated(page, played)
        badge = page.locator("#tournament-badge")
        badge.wait_for()  # the table knows it is the tournament's: its name, clock and a link back
        assert "Friday arena" in badge.inner_text() and badge.get_attribute("href") == f"/tournament/{tid}"
        wait_for(lambda p=page: "Place" in p.locator("#tournament-badge").inner_text(), 30, "no place", page)
    end_arena_now(tournament_web, tid)  # the arena's time runs out while their second table is in play
    play_round(pages, tournament_web.base, played, 6)  # it still counts once it ends, and the arena is over then
    for page in pages:
        end_dialog_link(page, "Back to the tournament").click()
        page.wait_for_url(f"**/tournament/{tid}")
        page.get_by_role("heading", name="Final standings").wait_for()
        assert page.locator("#t-status").inner_text() == "Over"
        assert "You finished in place" in page.locator("#t-me").inner_text()
        assert "2 tables" in page.locator("#t-me").inner_text()
        assert "You have entered" not in page.locator("#tournament").inner_text()
    standings = ann.locator("#standings tbody tr")
    assert standings.count() == 2
    rows = [r.split("\t") for r in standings.all_inner_texts()]
    assert [r[3] for r in rows] == ["2", "2"]  # both tables of both people counted
    assert sum(int(r[2]) for r in rows) > 0
    assert all(p.errors == [] for p in pages)


def test_a_swiss_tournament_made_on_its_form_is_played_to_its_standings_each_page_led_to_its_next_table(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """Ann makes a Swiss tournament of two rounds on the tournaments' page; Bob, on a phone, finds it in the lobby
    (pushed over his page's socket) and enters; his entry reaches Ann's page by itself, and she starts it. Both pages
    are taken to their table when a round is seated. After the first round Bob's table page goes on to his next table
    by itself, while Ann takes her end dialog's "Your next round" back to the tournament's page before that round is
    seated, and her page's socket opens only once it has been (the seat's notice, pushed once, is missed): her page
    still takes her to her next table. Both see the final standings."""
    quick_looks(tournament_web)  # the director seats the next table within a tenth of a second
    director: Director = tournament_web.server.config.app.state.director
    director.round_pause = 600.0  # time to read how the table ended: the next round waits until the test says
    tid, address, ann, bob = made_on_the_form(browser, tournament_web, "swiss", "2")
    bob.get_by_role("link", name="Friday swiss").click()  # the lobby lists it, pushed over the page's socket
    bob.wait_for_url(address)
    bob.locator("#t-join").click()
    bob.locator("#t-me").wait_for()
    ann.locator("#standings tbody tr").nth(1).wait_for()  # Bob's entry reaches Ann's page by itself
    ann.locator("#t-start").click()
    pages = [ann, bob]
    played: set[str] = set()
    play_round(pages, tournament_web.base, played, 7)  # both pages went to their table when it was seated
    assert "Round 1 of 2" in ann.locator("#tournament-badge").inner_text()
    ann.add_init_script(HOLD_LIVE)
    end_dialog_link(ann, "Your next round").click()
    ann.wait_for_url(f"**/tournament/{tid}")  # whence the next round's table is followed
    ann.locator("#t-waiting").wait_for()
    director.round_pause = 0.0
    seat = f"{tournament_web.base}/tournaments/{tid}/seat"
    wait_for(lambda: ann.request.get(seat).json()["table"] is not None, 120, "round 2 never seated Ann", ann)
    assert "/tournament/" in ann.url
    ann.evaluate("() => window.openLive()")
    play_round(pages, tournament_web.base, played, 8)  # Bob's table page went on to his next table by itself
    for page in pages:
        end_dialog_link(page, "Back to the tournament").click()
        page.wait_for_url(f"**/tournament/{tid}")
        page.get_by_role("heading", name="Final standings").wait_for()
        assert "This tournament is over" in page.locator("#t-me").inner_text()
        page.locator("#standings tbody tr").nth(1).wait_for()
        names = page.locator("#standings tbody tr th[scope=row]").all_text_contents()  # the player's cell
        assert sorted(name.split()[0] for name in names) == ["Ann", "Bob"]
    assert all(p.errors == [] for p in pages)


HOLD_LIVE = """(() => {
  const Real = window.WebSocket;
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  window.openLive = () => release();
  class Held extends EventTarget {
    constructor(url, protocols) {
      super();
      if (!String(url).endsWith("/live")) return new Real(url, protocols);
      this.readyState = Real.CONNECTING;
      held.then(() => {
        const real = new Real(url, protocols);
        this.real = real;
        real.addEventListener("open", () => { this.readyState = Real.OPEN; this.dispatchEvent(new Event("open")); });
        real.addEventListener("message", (e) => this.dispatchEvent(new MessageEvent("message", {data: e.data})));
        real.addEventListener("close", (e) => {
          this.readyState = Real.CLOSED;
          this.dispatchEvent(new CloseEvent("close", {code: e.code}));
        });
      });
    }
    send(data) { this.real.send(data); }
    close() { if (this.real) this.real.close(); }
  }
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Held[k] = Real[k];
  window.WebSocket = Held;
})();"""
"""The page's socket (``/live``) opens only once ``window.openLive()`` is called: what is pushed meanwhile is missed,
as when a push comes while a page is still opening. Other sockets (the table's) open as usual."""

WAYS_SEEN = """(() => {
  window.waysSeen = [];
  new MutationObserver(() => {
    for (const way of document.querySelectorAll('.match-summary [data-action="tournament"]')) {
      if (window.waysSeen.at(-1) !== way.textContent) window.waysSeen.push(way.textContent);
    }
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();"""
"""Every wording the end dialog's way on has had on the page, in order (kept in ``window.waysSeen``)."""


def end_arena_now(server: ThreadServer, tid: str) -> None:
    """The arena's time runs out on the server (its end time a second ago), whatever the pages were told."""
    hub = server.server.config.app.state.hub

    def time_up(conn: Any) -> None:
        conn.execute(update(tournaments).where(tournaments.c.id == tid).values(ends_at=time.time() - 1))

    asyncio.run_coroutine_threadsafe(hub.db(hub.store.write, time_up), hub.loop).result(60)


def test_an_arena_table_whose_time_ran_out_in_play_says_time_is_up_and_leads_back_to_the_tournament(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """The badge counts with the server's clock (the browser's is an hour fast), reads the arena again when its end
    time passes and says "Time is up"; at the table's end the dialog offers only "Back to the tournament", never
    "Your next round" (the arena has no next round once its time is up)."""
    page, client, headers = signed_in_page(browser, tournament_web, "Ann")
    page.clock.install(time=datetime.fromtimestamp(time.time() + 3600, tz=UTC))  # a wrong clock on the device
    page.add_init_script(WAYS_SEEN)
    body = {"format": "arena", "game": "whist", "name": "Last orders", "minutes": 5, "bot_delay": 0}
    tid, table = seated_alone(client, headers, body, page)
    page.goto(f"{tournament_web.base}/table/{table}")
    clock = page.locator("#tournament-clock")
    clock.wait_for()
    assert re.fullmatch(r"[45]:\d\d", clock.inner_text()), clock.inner_text()  # about 5 minutes left, not 0:00
    end_arena_now(tournament_web, tid)
    with page.expect_request(lambda r: r.url.endswith(f"/tournaments/{tid}"), timeout=60_000):
        page.clock.fast_forward("06:00")  # the end time the page was told passes: it reads the arena again
    wait_for(lambda: clock.inner_text() == "Time is up", 60, "the badge never said the time is up", page)
    play_round([page], tournament_web.base, set(), 11)
    end_dialog_link(page, "Back to the tournament")
    assert page.evaluate("() => window.waysSeen") == ["Back to the tournament"]
    assert page.errors == []


def test_a_tournament_table_opened_cold_shows_its_tournament_and_at_its_end_the_way_back(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """A tournament table's page opened with nothing kept in the browser (a pasted link, another device): the server
    says its tournament, so the page shows the badge and, at the end, the way on instead of a rematch."""
    page, client, headers = signed_in_page(
        browser, tournament_web, "Ann"
    )  # a fresh context: nothing in its local storage
    body = {"format": "arena", "game": "whist", "name": "Cold start", "minutes": 5, "bot_delay": 0}
    tid, table = seated_alone(client, headers, body, page)
    page.goto(
        f"{tournament_web.base}/table/{table}"
    )  # as a link pasted: never the tournament's page, never its seat notice
    badge = page.locator("#tournament-badge")
    badge.wait_for()
    assert "Cold start" in badge.inner_text() and badge.get_attribute("href") == f"/tournament/{tid}"
    assert page.evaluate(f"() => localStorage.getItem('clubs.tournamentTable.{table}')") is None
    play_round([page], tournament_web.base, set(), 9)
    end_dialog_link(page, "Your next round").click()  # the arena goes on: its page seats Ann again
    page.wait_for_url(f"**/tournament/{tid}")
    assert page.errors == []


class PageSocket:
    """The page's own socket (``/live``), passed through to the server unless it is lost now: :meth:`lose` closes it
    and refuses it while lost (the page tries again after a pause that grows), :meth:`find` lets it open again."""

    def __init__(self, page: Any) -> None:
        self.lost = False
        self.routes: list[Any] = []
        self.page = page
        page.route_web_socket(re.compile(r"^wss?://[^/]+/live$"), self._route)

    def _route(self, route: Any) -> None:
        if self.lost:
            route.close()
            return
        route.connect_to_server()
        self.routes.append(route)

    def opened(self) -> int:
        """How often the socket has opened, once it has at least once."""
        wait_for(lambda: self.routes, 60, "the page never opened its socket", self.page)
        return len(self.routes)

    def lose(self) -> None:
        self.opened()
        self.lost = True
        for route in self.routes:
            route.close()

    def find(self) -> None:
        self.lost = False


def test_a_tournament_table_opened_cold_goes_on_to_the_next_table_by_itself(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """Opened cold (a pasted link: nothing kept in the browser), the table page learns its tournament from the server
    and, once its table has ended and the arena seats the player again, goes on to the next table as a page
    followed from the tournament does."""
    quick_looks(tournament_web)  # the director seats the next table within a tenth of a second
    page, client, headers = signed_in_page(browser, tournament_web, "Ann", quick_follow=True)
    body = {"format": "arena", "game": "whist", "name": "Cold start", "minutes": 5, "bot_delay": 0}
    tid, table = seated_alone(client, headers, body, page)
    page.goto(f"{tournament_web.base}/table/{table}")
    page.locator("#tournament-badge").wait_for()
    play_round([page], tournament_web.base, set(), 9)
    seat = f"/tournaments/{tid}/seat"
    wait_for(lambda: client.get(seat).json()["table"] not in (None, table), 60, "never seated again", page)
    after = str(client.get(seat).json()["table"])
    wait_for(lambda: gone_on(page, after), 60, "the page never went on to the next table", page)
    assert page.errors == []


def test_a_table_page_whose_socket_was_lost_follows_the_table_made_for_it_meanwhile(
    tournament_web: ThreadServer, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's socket is lost while the player's table ends and the arena seats them again, and for longer than
    the server's look for new notices reaches back (the seat notice is pushed to nobody): when the socket opens
    again the page reads the notices kept for the account and goes on to the next table, as it would have had it
    heard the notice."""
    quick_looks(tournament_web)  # the director seats the next table within a tenth of a second
    monkeypatch.setattr(watching, "NOTICE_WINDOW", 2.0)  # the look reaches 2 s back (30 s served): a shorter loss
    page, client, headers = signed_in_page(browser, tournament_web, "Ann", quick_follow=True)
    socket = PageSocket(page)
    body = {"format": "arena", "game": "whist", "name": "Lost and found", "minutes": 5, "bot_delay": 0}
    tid, table = seated_alone(client, headers, body, page)
    page.add_init_script(f"localStorage.setItem('clubs.tournamentTable.{table}', '\"{tid}\"')")  # as if followed
    page.goto(f"{tournament_web.base}/table/{table}")
    page.locator("#tournament-badge").wait_for()
    socket.lose()
    play_round([page], tournament_web.base, set(), 9)
    seat = f"/tournaments/{tid}/seat"
    wait_for(lambda: client.get(seat).json()["table"] not in (None, table), 60, "never seated again", page)
    after = str(client.get(seat).json()["table"])
    assert page.url.endswith(f"/table/{table}")  # nothing reached the page while its socket was lost
    page.wait_for_timeout(3000)  # lost for longer than the look reaches back: the notice is never pushed
    socket.find()
    wait_for(lambda: gone_on(page, after), 90, "the page never went on to the next table", page)
    assert page.errors == []


def test_the_tournament_pages_count_the_time_left_with_the_servers_clock(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """A device whose clock is an hour fast still sees an arena of 5 minutes end in about 5 minutes on the
    tournament's page, in the list of tournaments and in the lobby (the page socket's welcome tells the server's
    time), never "0:00"."""
    page, client, headers = signed_in_page(browser, tournament_web, "Ann")
    page.clock.install(time=datetime.fromtimestamp(time.time() + 3600, tz=UTC))  # a wrong clock on the device
    body = {"format": "arena", "game": "whist", "name": "Fast clock", "minutes": 5, "bot_delay": 5}
    tid, _ = seated_alone(client, headers, body, page)
    page.goto(f"{tournament_web.base}/tournament/{tid}")
    status = page.locator("#t-status")
    wait_for(lambda: re.fullmatch(r"Ends in [45]:\d\d", status.inner_text()), 60, "the time left is wrong", page)
    page.goto(f"{tournament_web.base}/tournament")
    listed = page.locator(f'.countdown[data-id="{tid}"]')
    wait_for(lambda: re.fullmatch(r"Ends in [45]:\d\d", listed.inner_text()), 60, "the list's time is wrong", page)
    page.goto(f"{tournament_web.base}/")
    lobby = page.locator("#lobby-events")
    wait_for(lambda: re.search(r"ends in [45] min", lobby.inner_text()), 60, "the lobby's time is wrong", page)
    assert page.errors == []


def test_the_form_says_what_each_table_plays_and_warns_of_an_arena_shorter_than_one(
    tournament_web: ThreadServer, browser: Any
) -> None:
    page, _, _ = signed_in_page(browser, tournament_web, "Ann")
    page.goto(f"{tournament_web.base}/tournament")
    unit = page.get_by_label("Each table plays")
    assert unit.input_value() == "hand"  # an arena: one hand a table
    page.get_by_label("Kind").select_option("swiss")
    assert unit.input_value() == "short"
    page.get_by_label("Kind").select_option("arena")
    unit.select_option("match")
    page.get_by_label("Minutes").fill("5")
    warning = page.locator("#t-unit-warning")
    assert "shorter than one table" in warning.inner_text()
    unit.select_option("hand")
    assert warning.inner_text() == ""
    page.get_by_label("Rated").check()  # only a whole match is rated: the form offers nothing else, and says why
    assert unit.input_value() == "match" and unit.locator("option").count() == 1
    assert "only a whole match is rated" in warning.inner_text()
    page.get_by_label("Rated").uncheck()
    assert unit.locator("option").count() == 3
    assert page.errors == []


def test_an_entrant_who_pauses_on_the_tournaments_page_is_not_taken_back_to_their_table(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """Ann, at an arena table, opens the tournament's page and pauses: her table in play stays hers, but the page
    leaves her where she chose to be, however often the tournament changes after (another entrant joins), and when
    its socket is lost and opened again (the seat notice it read when it opened is not followed then). Her seat's
    notice, added before the page opened, is pushed to the page when it opens, as a process that did not add it
    pushes a notice of the last half-minute: the page keeps it a link, and does not take her back to the table."""
    page, client, headers = signed_in_page(browser, tournament_web, "Ann")
    socket = PageSocket(page)
    # as if seated by another process: not told at once, so pushed by the look once a page of hers opens
    tournament_web.server.config.app.state.watching.notices.told = None
    body = {"format": "arena", "game": "whist", "name": "Tea break", "minutes": 30, "bot_delay": 5}
    tid, _ = seated_alone(client, headers, body, page)
    page.goto(f"{tournament_web.base}/tournament/{tid}")
    page.locator("#t-table").wait_for()  # her table in play: a link, not followed
    page.locator("#t-withdraw").click()
    wait_for(lambda: "You have withdrawn" in page.locator("#t-me").inner_text(), 60, "not paused", page)
    bob, _, bob_h = account(tournament_web, "Bob")
    assert bob.post(f"/tournaments/{tid}/join", headers=bob_h).status_code == 200
    wait_for(lambda: "Bob" in page.locator("#standings").inner_text(), 60, "Bob's entry never reached the page", page)
    page.wait_for_timeout(1000)  # time for a page that would follow to have gone
    assert "/tournament/" in page.url and client.get(f"/tournaments/{tid}/seat").json()["table"] is not None
    opened = socket.opened()
    with page.expect_response("**/notices", timeout=90_000):  # read again once the socket opens again
        socket.routes[-1].close()
    page.wait_for_timeout(2500)  # past the page's pause before it tries again, and its countdown's ticks
    assert len(socket.routes) == opened + 1, "the page opened more than one socket again"
    assert "/tournament/" in page.url
    assert page.errors == []


def test_a_seat_made_while_the_socket_was_lost_is_not_followed_once_its_entrant_paused(
    tournament_web: ThreadServer, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann waits on the tournament's page; its socket is lost, the arena starts and seats her (the notice reaches
    nobody), and she pauses (from another device). When the socket opens again the page reads the new seat notice
    but leaves her where she chose to be."""
    monkeypatch.setattr(watching, "NOTICE_WINDOW", 2.0)  # the look reaches 2 s back: the notice is never pushed
    page, client, headers = signed_in_page(browser, tournament_web, "Ann")
    socket = PageSocket(page)
    body = {"format": "arena", "game": "whist", "name": "Coffee", "minutes": 30, "bot_delay": 5}
    tid = client.post("/tournaments", json=body, headers=headers).json()["id"]
    assert client.post(f"/tournaments/{tid}/join", headers=headers).status_code == 200
    page.goto(f"{tournament_web.base}/tournament/{tid}")
    page.locator("#t-me").wait_for()
    socket.lose()
    assert client.post(f"/tournaments/{tid}/start", headers=headers).status_code == 200
    seat = f"/tournaments/{tid}/seat"
    wait_for(lambda: client.get(seat).json()["table"] is not None, 60, "never seated", page)
    assert client.post(f"/tournaments/{tid}/withdraw", headers=headers).status_code == 200  # paused elsewhere
    page.wait_for_timeout(3000)  # lost for longer than the look reaches back
    opened = len(socket.routes)
    with page.expect_response("**/notices", timeout=90_000):  # read again once the socket opens again
        socket.find()
    wait_for(lambda: len(socket.routes) > opened, 60, "the socket never opened again", page)
    page.wait_for_timeout(1000)  # time for a page that would follow to have gone
    assert page.url.endswith(f"/tournament/{tid}")
    assert page.errors == []
