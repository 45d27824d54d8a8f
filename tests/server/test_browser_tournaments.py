"""Tournaments' pages in a real Chromium: they speak the reader's language on a phone with no serious accessibility
violation, a page whose seat was taken over elsewhere takes the account's seat back, and a link of the tournaments'
list keeps its tournament when another is listed above it. The helpers of the tests that play tournaments through
their pages (``test_browser_tournament_tables.py``: a Swiss tournament and an arena made on the tournaments' page and
played to their ends): making one on the form, following a page to its next table, playing a round out."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from browserkit import keep_errors, wait_for
from serverkit import Client, ThreadServer
from test_browser_access import assert_accessible
from test_browser_accounts import sign_up
from test_server_play import play_out
from test_server_rated import account

import loopback
from clubsuite.server.community.directing import Director

SHORT = "whist(target=1)"
"""The shortest match of three seats (to one point: a hand, seldom more): two people and a bot."""

QUICK_LOOKS = 0.1
"""Seconds between two rounds of work of the tournaments' director in the tests that play table after table (a second
on a real server): a table's end is read and the next table seated within a tenth of a second instead of up to a
second each time, with the same work done in the same order (a seat's notice goes to the pages as it is added,
whatever the pace)."""


def quick_looks(server: ThreadServer) -> None:
    """The director of ``server`` works every :data:`QUICK_LOOKS` seconds from its next round of work."""
    director: Director = server.server.config.app.state.director
    director.every = QUICK_LOOKS


FOLLOW_MS = 5000
"""How long a table page counts down ("Going there in 5 s.", ``live.js``) before it goes on to the next tournament
table by itself."""


def new_page(browser: Any, width: int = 1280, quick_follow: bool = False) -> Any:
    """A page in a browser context of its own; ``quick_follow``: its clock (flowing as usual) is run on past a table
    page's countdown to the next table as soon as the countdown shows (:func:`seated`)."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    if quick_follow:
        follow_quickly(page)
    return keep_errors(page)


def follow_quickly(page: Any) -> None:
    """``page`` gets a clock the test can run on, flowing as usual until it does: :func:`seated` runs it past a table
    page's countdown to its next table (the page still goes there by itself, when its own count ends)."""
    page.clock.install()
    page.follows_quickly = True


def count_down_now(page: Any) -> None:
    """Where ``page`` counts down to its next table (its notice's "Stay here" shows) and its clock is the test's
    (:func:`follow_quickly`), run the clock past the count, once: the page then goes there by itself."""
    if getattr(page, "follows_quickly", False) and page.locator("#stay-here").count():
        url = page.url
        page.clock.fast_forward(FOLLOW_MS)
        wait_for(lambda: page.url != url, 60, "the page did not go on when its count ended", page)


def bots_at_once(route: Any) -> None:
    """The tournament the form makes, with bots that act at once (the form offers no bot delay; the bots' pace is not
    what these tests look at, and half a second an action is most of their time)."""
    request = route.request
    if request.method != "POST":
        route.continue_()
        return
    route.continue_(post_data=json.dumps({**json.loads(request.post_data or "{}"), "bot_delay": 0}))


def make(page: Any, base: str, kind: str, count: str) -> str:
    """Make a tournament of ``kind`` on the tournaments' page (the short game added to the form's choices, as a rules
    spec); its address."""
    page.goto(f"{base}/tournament")
    page.get_by_label("Kind").select_option(kind)
    page.locator("#t-game").evaluate(
        f"(s) => {{ const o = document.createElement('option'); o.value = '{SHORT}'; o.textContent = 'short';"
        " s.append(o); s.value = o.value; }"
    )
    page.get_by_label("Name", exact=True).fill(f"Friday {kind}")
    page.get_by_label("Minutes" if kind == "arena" else "Rounds").fill(count)
    page.route("**/tournaments", bots_at_once)
    page.get_by_role("button", name="Make it").click()
    page.wait_for_url("**/tournament/**")
    page.locator("#t-join").click()
    page.locator("#t-me").wait_for()
    address: str = page.url
    return address


def seated(page: Any, played: set[str]) -> tuple[str, str, int]:
    """Wait until the page has been taken to a table it has not played yet: (table, token, seat)."""

    def arrived() -> bool:
        if "/table/" in page.url and page.url.rsplit("/", 1)[1] not in played:
            return True
        count_down_now(page)
        return False

    wait_for(arrived, 120, "no new table", page)
    table = page.url.rsplit("/", 1)[1]
    kept = f"() => JSON.parse(localStorage.getItem('clubs.seat.{table}'))"
    wait_for(lambda: page.evaluate(kept) is not None, 120, "the table page was not handed its seat", page)
    seat = page.evaluate(kept)
    return table, seat["token"], seat["seat"]


def play_round(pages: list[Any], base: str, played: set[str], seed: int) -> None:
    """Both people's present table(s), played out over the socket with the tokens their pages were handed."""
    by_table: dict[str, dict[int, Client]] = {}
    try:
        for page in pages:
            table, token, seat = seated(page, played)
            by_table.setdefault(table, {})[seat] = Client(base, table, token)
        for k, people in enumerate(by_table.values()):
            play_out(people, random.Random(seed + k))
    finally:
        for people in by_table.values():
            for c in people.values():
                c.close()
    played.update(by_table)


LANGUAGES = {"en": "Tournaments", "de": "Turniere", "fr": "Tournois", "nl": "Toernooien"}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_tournament_pages_speak_the_readers_language_on_a_phone_and_have_no_serious_accessibility_violation(
    tournament_web: ThreadServer, browser: Any, lang: str
) -> None:
    ann, _, ann_h = account(tournament_web, "Ann")
    made = ann.post("/tournaments", json={"format": "arena", "game": "whist", "name": "Friday arena"}, headers=ann_h)
    tid = made.json()["id"]
    ann.post(f"/tournaments/{tid}/join", headers=ann_h)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": k, "value": v, "url": tournament_web.base} for k, v in ann.cookies.items()])
    context.add_init_script(f"localStorage.setItem('clubs.lang', JSON.stringify('{lang}'))")
    page = keep_errors(context.new_page())
    page.goto(f"{tournament_web.base}/tournament")
    page.locator("#events li a").first.wait_for()
    assert page.locator("#events-title").inner_text() == LANGUAGES[lang]
    assert_accessible(page, f"the tournaments' page in {lang}")
    page.goto(f"{tournament_web.base}/tournament/{tid}")
    page.locator("#standings").wait_for()
    assert_accessible(page, f"a tournament's page in {lang}")
    fits = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the page is wider than a phone"
    page.goto(f"{tournament_web.base}/")
    page.locator("#lobby-events li a").first.wait_for()  # the lobby's list of what is on
    assert page.errors == []


def test_a_page_whose_seat_token_was_replaced_elsewhere_takes_the_accounts_seat_back(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """The seat an account holds is the account's: a page whose kept token was replaced (the table handed the seat a
    fresh one for another tab or device) asks the table again and plays on, instead of offering the join form."""
    page = new_page(browser)
    sign_up(page, tournament_web.base, "Ann")
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = loopback.post(f"{tournament_web.base}/tables", json={"game": SHORT, "seats": seats}).json()["id"]
    page.goto(f"{tournament_web.base}/table/{table}")
    page.get_by_role("button", name="Take the seat").click()
    page.wait_for_selector(".my-area")
    kept = f"() => JSON.parse(localStorage.getItem('clubs.seat.{table}'))?.token ?? null"
    old = page.evaluate(kept)
    elsewhere = loopback.client(base_url=tournament_web.base, timeout=30)
    try:
        for c in page.context.cookies():
            elsewhere.cookies.set(c["name"], c["value"])
        csrf = {"X-CSRF-Token": elsewhere.get("/account").json()["csrf"]}
        replaced = elsewhere.post(f"/tables/{table}/seat", headers=csrf).json()["token"]
    finally:
        elsewhere.close()
    page.reload()  # the page comes back with the token it kept, which opens the seat no more
    wait_for(lambda: page.evaluate(kept) not in (old, replaced), 60, "the page did not take the seat back", page)
    page.wait_for_selector(".my-area")
    assert page.locator("#join-seat").count() == 0
    assert page.errors == []


def test_a_link_in_the_tournaments_list_keeps_its_tournament_when_another_is_listed_above_it(
    tournament_web: ThreadServer, browser: Any
) -> None:
    """The list is kept up to date by pushes that change only what differs: a link under the reader's focus (or a
    click begun before a push) stays the link of its own tournament when a running one is listed above it."""
    ann, _, ann_h = account(tournament_web, "Ann")
    body = {"format": "arena", "game": "whist", "bot_delay": 5}
    first = ann.post("/tournaments", json={**body, "name": "Later on"}, headers=ann_h).json()["id"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = keep_errors(context.new_page())
    page.goto(f"{tournament_web.base}/tournament")
    link = page.locator("#events li a", has_text="Later on")
    link.wait_for()
    link.focus()
    link.evaluate("(a) => { window.marked = a; }")  # the element itself (a drawing sets its attributes)
    second = ann.post("/tournaments", json={**body, "name": "Now on"}, headers=ann_h).json()["id"]
    assert ann.post(f"/tournaments/{second}/join", headers=ann_h).status_code == 200
    assert ann.post(f"/tournaments/{second}/start", headers=ann_h).status_code == 200
    page.locator("#events li a", has_text="Now on").wait_for()  # listed, running, above the upcoming one
    kept = page.evaluate(
        "() => [window.marked.isConnected, window.marked.getAttribute('href'), window.marked.textContent,"
        " document.activeElement === window.marked]"
    )
    assert kept == [True, f"/tournament/{first}", "Later on", True]
    assert page.errors == []
