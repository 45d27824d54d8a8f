"""Accounts, rated play, profiles and club nights in a real Chromium: a newcomer signs up from the lobby, plays a
rated match against bots by clicking, and sees the rating move and the match in the history (with a working replay
link); "Play rated" seats a signed-in player at a rated table; a host runs a two-table club night to its standings
while a second person enters from another browser; the pages never show a card the seat may not know."""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import assert_no_leak, keep_errors, live_match, wait_for, watch
from serverkit import Client, ThreadServer, new_table
from test_browser_access import assert_accessible
from test_browser_play import click_turn, last_state, to_act
from test_server_play import play_out
from test_server_rated import account, join

import loopback
from clubsuite.server.store.database import Store

PASSWORD = "correct horse battery"
CLUBNIGHT_REDRAW_MS = 3000
"""How often a club night's page reads the night again and redraws itself (``clubnight.js``)."""


@pytest.fixture
def web(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(tmp_path), bots_after=0.5) as running:
        yield running


@pytest.fixture(scope="module")
def accounts_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the module's tests of a refused sign-in, each with an account of its own name."""
    with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("accounts"))) as running:
        yield running


def new_page(browser: Any, width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    return keep_errors(page)


def sign_up(page: Any, base: str, name: str) -> None:
    """Make an account from the lobby's bar, as a newcomer would."""
    page.goto(base + "/")
    page.get_by_role("button", name="Create an account").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.locator("#me, #skip-passkey").first.wait_for()
    if page.locator("#skip-passkey").count():  # where passkeys work, one is offered: not now
        page.locator("#skip-passkey").click()
    page.locator("#me").wait_for()
    assert page.locator("#me").inner_text() == name


@pytest.mark.long
def test_a_newcomer_signs_up_plays_a_rated_match_and_sees_the_rating_move_and_the_match(
    web: ThreadServer, browser: Any
) -> None:
    page = new_page(browser)
    sign_up(page, web.base, "Ann")
    # A rated table against two bots, made with the lobby's form (the shortest match: to 1 point, a hand or so).
    page.locator("#game").select_option("whist")
    page.get_by_label("Points to win or lose (default: 11)").fill("1")
    page.get_by_text("More options").click()  # the house rules are folded
    page.locator("#bot-delay").fill("0")
    page.get_by_label("Rated (the matches count for ratings; players need an account)").check()
    assert page.locator("#hints").is_disabled()
    ann = watch(page, 0)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/**")
    table = page.url.rsplit("/", 1)[1]
    assert loopback.get(f"{web.base}/tables/{table}").json()["settings"]["rated"] is True
    rng = random.Random(7)
    told = lambda: any(m["type"] in ("state", "update") for m in ann.received)  # noqa: E731
    while True:
        wait_for(lambda: told() and (last_state(ann)["over"] or to_act(ann)), 60, "Ann was never to act", page)
        if last_state(ann)["over"]:
            break
        click_turn(ann, rng)
    assert_no_leak(ann, live_match(web, table), "whist")
    box = page.get_by_role("dialog", name="The match is over")
    change = box.locator("tr.mine .rating-change")
    change.wait_for()  # a rated match's end: Ann's rating after it, provisional, and how far it moved
    assert re.fullmatch(r"\d+\? \([+-]?\d+\)", change.inner_text()), change.inner_text()
    page.goto(f"{web.base}/player/Ann")
    rating = page.locator(".rating[data-pool=whist] .rating-value")
    rating.wait_for()
    assert rating.inner_text() != "1500 ± 1000"  # it moved, and its uncertainty shrank
    assert page.locator(".rating[data-pool=whist] .rating-plot circle").count() == 2
    assert page.locator("#history .match").count() == 1
    assert_accessible(page, "a player's page with a rating and a match")
    page.locator("#history .review-link").click()  # the review of Ann's decisions, worked out by the server
    page.wait_for_url("**/review?**")
    page.locator(".hand-review").first.wait_for(timeout=300_000)
    assert page.locator(".decision").count() > 0
    assert_accessible(page, "the review of a match")
    page.go_back()
    page.locator("#history .replay-link").wait_for()
    page.locator("#history .replay-link").click()
    page.wait_for_url("**/replay?**")
    page.locator(".bar").wait_for()
    assert page.locator("[role=alert]").count() == 0 or page.locator("[role=alert]").inner_text() == ""
    assert page.errors == []


def test_a_provisional_rating_reads_with_a_question_mark_and_the_leaderboard_opens_on_your_game_bots_by_strength(
    web: ThreadServer, browser: Any
) -> None:
    b, _, headers = account(web, "Ann")
    seats = [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2]
    table = new_table(web.base, "whist(target=1)", seats, rated=True)  # one rated match, the shortest there is
    client = Client(web.base, table["id"], join(b, table["id"], headers))
    try:
        play_out({0: client}, random.Random(1))
    finally:
        client.close()
    page = new_page(browser)
    page.goto(web.base + "/")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Name", exact=True).fill("Ann")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).last.click()
    page.locator("#me").wait_for()
    page.goto(f"{web.base}/player/Ann")
    rating = page.locator(".rating[data-pool=whist] .rating-value")
    rating.wait_for()
    assert rating.inner_text().endswith("?") and "±" not in rating.inner_text()  # one match: provisional
    page.goto(f"{web.base}/leaderboard")
    page.locator("#board .bot-ratings").wait_for()
    pools = page.locator("#pool option").evaluate_all("(os) => os.map((o) => o.value)")
    assert pools[0] != "whist" and page.locator("#pool").input_value() == "whist"  # Ann's game, not the first
    assert page.locator("#nobody").is_visible()  # Ann's one match does not list her
    assert "10 rated matches" in page.locator("#provisional-note").inner_text()
    bots = loopback.get(f"{web.base}/ratings").json()["bots"]["whist"]
    levels = page.locator("#board .bot-ratings li").evaluate_all("(ls) => ls.map((l) => l.dataset.level)")
    assert levels == sorted(bots, key=lambda level: -bots[level]["rating"]) and len(levels) >= 4
    # a guest opens it on the game of the table they last sat at
    guest = new_page(browser)
    other = new_table(web.base, "partnership", [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 3])
    guest.goto(f"{web.base}/table/{other['id']}")
    guest.get_by_label("Your name").fill("Cleo")
    guest.get_by_role("button", name="Take the seat").click()
    guest.locator(".my-area").wait_for()
    guest.goto(f"{web.base}/leaderboard")
    guest.locator("#board").wait_for()
    assert guest.locator("#pool").input_value() == "partnership"
    assert page.errors == [] and guest.errors == []


def test_play_rated_seats_a_signed_in_player_at_a_rated_table_with_bots_of_their_rating(
    web: ThreadServer, browser: Any
) -> None:
    page = new_page(browser, width=390)
    sign_up(page, web.base, "Bea")
    page.locator("#rated-game").select_option("whist")
    page.locator("#play-rated").click()
    page.wait_for_url("**/table/**", timeout=60000)
    table = page.url.rsplit("/", 1)[1]
    shown = loopback.get(f"{web.base}/tables/{table}").json()
    assert shown["settings"]["rated"] is True
    assert [s["kind"] for s in shown["seats"]] == ["person", "bot", "bot"]
    assert shown["seats"][0]["name"] == "Bea"
    page.locator(".my-area").wait_for()  # seated: the page holds the seat's token
    assert page.errors == []


@pytest.mark.long
def test_a_lone_club_night_host_is_told_the_minimum_may_not_start_short_and_fills_with_a_bot_in_german(
    web: ThreadServer, browser: Any
) -> None:
    host = new_page(browser)
    sign_up(host, web.base, "Ann")
    host.evaluate("() => localStorage.setItem('clubs.lang', JSON.stringify('de'))")
    host.goto(f"{web.base}/clubnight")
    host.locator("#night-game").select_option("whist")
    host.locator("form button.primary").click()  # "Host it", in German
    host.wait_for_url("**/clubnight/**")
    address = host.url
    host.get_by_text("Es spielen mindestens 2 Teilnehmer").wait_for()  # the minimum, up front
    host.locator("#enter").click()
    host.locator("#entered").wait_for()
    start = host.locator("#next-round")
    assert start.is_disabled() and "Bots" in host.locator("#too-few").inner_text()
    # a refusal, in German, that stays through the page's refreshes: a second person under a look-alike name
    guest = new_page(browser, width=390)
    guest.clock.install()  # the page's own clock, flowing as usual until the test runs it on to a redraw
    guest.goto(address)
    guest.evaluate("() => localStorage.setItem('clubs.lang', JSON.stringify('de'))")
    guest.reload()
    guest.locator("#entrant-name").fill("ann")
    guest.locator("#enter").click()
    refusal = guest.get_by_role("alert").filter(has_text="Wählen Sie einen anderen")
    refusal.wait_for()
    refusal.evaluate("(p) => { p.dataset.seen = 'yes'; }")
    host.locator("#add-bot").click()
    host.locator("#entrants", has_text="(Bot)").wait_for()
    # the page redraws itself every few seconds (its clock is run on to the next redraw, which shows the bot): the
    # words outlast it, in the same element (shown, not announced again), and so do a name half typed and the focus
    guest.locator("#entrant-name").fill("An")
    guest.clock.fast_forward(CLUBNIGHT_REDRAW_MS)
    guest.locator("#entrants", has_text="(Bot)").wait_for()
    assert refusal.get_attribute("data-seen") == "yes"
    assert guest.evaluate("() => [document.activeElement.id, document.activeElement.value]") == ["entrant-name", "An"]
    wait_for(lambda: not start.is_disabled(), 10, "Start stayed disabled", host)
    start.click()
    host.locator("#my-table").wait_for()
    assert host.errors == [] and len(guest.errors) == 1 and "409" in guest.errors[0]


def test_a_host_runs_a_two_table_club_night_to_its_standings(web: ThreadServer, browser: Any) -> None:
    host = new_page(browser)
    sign_up(host, web.base, "Ann")
    host.goto(f"{web.base}/clubnight")
    # The form offers each game at its usual rules; the shortest match (1 point) is asked here as a rules spec.
    host.locator("#night-game").evaluate(
        "(s) => { const o = document.createElement('option'); o.value = 'whist(target=1)'; o.textContent = 'short';"
        " s.append(o); s.value = o.value; }"
    )
    host.get_by_label("Seconds a bot waits before acting").fill("0")
    host.get_by_role("button", name="Host it").click()
    host.wait_for_url("**/clubnight/**")
    address = host.url
    host.locator("#enter").click()
    host.locator("#entered").wait_for()
    guest = new_page(browser, width=390)
    guest.goto(address)
    guest.get_by_label("Your name").fill("Bob")
    guest.locator("#enter").click()
    guest.locator("#entered").wait_for()
    host.locator("#entrants", has_text="Bob").wait_for()
    host.locator("#next-round").click()
    tokens = []
    for page in (host, guest):
        link = page.locator("#my-table")
        link.wait_for()
        link.click()
        page.wait_for_url("**/table/**")
        table = page.url.rsplit("/", 1)[1]
        seat = page.evaluate(f"() => JSON.parse(localStorage.getItem('clubs.seat.{table}'))")
        tokens.append((table, seat["token"]))
    assert tokens[0][0] != tokens[1][0]
    for i, (table, token) in enumerate(tokens):  # the matches are played out over the socket, quickly
        client = Client(web.base, table, token)
        try:
            play_out({0: client}, random.Random(i))
        finally:
            client.close()
    host.goto(address)
    host.locator("#standings tbody tr").nth(1).wait_for()
    rows = host.locator("#standings tbody tr").all_inner_texts()
    assert len(rows) == 2 and {r.split("\t")[1] for r in rows} == {"Ann", "Bob"}
    assert host.get_by_role("heading", name="Final standings").count() == 1
    with host.expect_download() as got:
        host.get_by_role("link", name="Download (CSV)").click()
    table_csv = list(csv.reader(io.StringIO(Path(got.value.path()).read_text())))
    assert table_csv[0][:2] == ["place", "name"] and len(table_csv) == 3
    assert host.errors == [] and guest.errors == []


def test_a_passkey_is_added_on_the_profile_and_signs_in_from_another_visit_without_the_password(
    web: ThreadServer, browser: Any
) -> None:
    """Chromium's virtual authenticator (DevTools' WebAuthn domain) stands in for a phone or a security key: it keeps
    discoverable credentials and verifies the person. The page is reached by ``localhost``: passkeys belong to a
    name, and browsers refuse them for an IP address."""
    base = web.base.replace("127.0.0.1", "localhost")
    page = new_page(browser)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    sign_up(page, base, "Ann")
    page.goto(f"{base}/player/Ann")
    page.get_by_text("No passkey yet.").wait_for()
    page.locator("#passkey-password").fill("not the password")
    page.get_by_role("button", name="Add a passkey").click()
    page.get_by_text("That is not this account's password.").wait_for()  # the password is asked again
    page.locator("#passkey-password").fill(PASSWORD)
    page.get_by_role("button", name="Add a passkey").click()
    page.get_by_text("The passkey is added").wait_for()
    assert page.locator("#passkeys li").count() == 1 and "Chrome" in page.locator("#passkeys li").inner_text()
    kept = cdp.send("WebAuthn.getCredentials", {"authenticatorId": found["authenticatorId"]})["credentials"]
    assert len(kept) == 1 and kept[0]["isResidentCredential"] and kept[0]["rpId"] == "localhost"
    page.get_by_role("button", name="Sign out").first.click()
    page.get_by_role("button", name="Sign in").wait_for()
    # Another visit: no name typed, no password: the passkey alone.
    page.goto(base + "/")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign in with a passkey").click()
    page.locator("#me").wait_for()
    assert page.locator("#me").inner_text() == "Ann"
    page.goto(f"{base}/player/Ann")
    page.locator("#passkeys li").get_by_text("last used").wait_for()
    # Removed, it signs in no more; the page says so in words.
    page.locator("#passkeys li").get_by_role("button", name="Remove").click()
    page.get_by_text("No passkey yet.").wait_for()
    page.get_by_role("button", name="Sign out").first.click()
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign in with a passkey").click()
    page.get_by_role("alert").filter(has_text="passkey").wait_for()
    assert page.locator("#me").count() == 0
    # the refused password and the refused sign-in, and nothing else
    assert len(page.errors) == 2 and "403" in page.errors[0] and "401" in page.errors[1], page.errors


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "That name and password do not match an account."),
        ("de", "Dieser Name und dieses Passwort passen zu keinem Konto."),
        ("fr", "Ce nom et ce mot de passe ne correspondent à aucun compte."),
        ("nl", "Deze naam en dit wachtwoord horen bij geen enkel account."),
    ],
)
def test_a_refused_sign_in_is_told_in_the_readers_language(
    accounts_web: ThreadServer, browser: Any, lang: str, words: str
) -> None:
    """The server refuses in English with a code; the page words the code in the reader's language."""
    r = loopback.post(f"{accounts_web.base}/account/signup", json={"name": f"Ann{lang}", "password": PASSWORD})
    assert r.status_code == 201, r.text
    page = new_page(browser, width=390)
    page.context.add_init_script(f"localStorage.setItem('clubs.lang', {lang!r})")
    page.goto(accounts_web.base + "/")
    page.locator("#sign-in").click()
    page.locator("#signin-name").fill(f"Ann{lang}")
    page.locator("#signin-password").fill("not the password")
    page.locator(".account-form button[type=submit]").click()
    alert = page.locator(".account-form [role=alert]")
    alert.filter(has_text=words).wait_for()
    assert alert.inner_text() == words
    assert page.locator("#passkey-sign-in").count() == 0  # reached by an IP address: no passkey offered


def test_signing_up_is_a_dialog_with_a_title_a_way_out_and_a_passkey_offered_once_the_account_is_made(
    web: ThreadServer, browser: Any
) -> None:
    base = web.base.replace("127.0.0.1", "localhost")  # passkeys need a name, not an address
    page = new_page(browser, width=390)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True}
    found = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {"options": {**options, "isUserVerified": True, "automaticPresenceSimulation": True}},
    )
    page.goto(base + "/")
    opener = page.locator("#sign-up")
    opener.click()
    dialog = page.get_by_role("dialog", name="Create an account")
    dialog.wait_for()
    assert page.evaluate("() => document.activeElement.id") == "signup-name"  # ready to type
    assert page.locator("main").evaluate("(e) => e.closest('[inert]') !== null")  # the page behind, out of reach
    assert_accessible(page, "the sign-up dialog")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert page.evaluate("() => document.activeElement.id") == "sign-up"  # the focus back where it was
    opener.click()
    dialog.get_by_role("button", name="Close").click()
    dialog.wait_for(state="detached")
    opener.click()
    page.get_by_label("Name", exact=True).fill("Ann")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.get_by_text("Your account is made.").wait_for()
    assert_accessible(page, "the passkey offered after signing up")
    page.get_by_role("button", name="Add a passkey").click()
    page.locator("#me").wait_for()  # the page again, signed in
    kept = cdp.send("WebAuthn.getCredentials", {"authenticatorId": found["authenticatorId"]})["credentials"]
    assert len(kept) == 1 and kept[0]["rpId"] == "localhost"
    assert page.errors == []


def test_a_club_night_hosts_press_stays_one_press_through_a_refresh_while_it_is_sent(
    web: ThreadServer, browser: Any
) -> None:
    """The host presses "Add a bot"; while the press is on its way, the page refreshes itself: the buttons stay
    disabled until it is answered, so a second press cannot add a second bot."""
    host = new_page(browser)
    sign_up(host, web.base, "Ann")
    host.goto(f"{web.base}/clubnight")
    host.locator("#night-game").select_option("whist")
    host.get_by_role("button", name="Host it").click()
    host.wait_for_url("**/clubnight/**")
    address = host.url
    host.clock.install()  # the page's own clock, run on to a refresh by the test
    host.goto(address)
    host.locator("#enter").click()
    host.locator("#entered").wait_for()
    held: list[Any] = []
    host.route("**/bots", lambda route: held.append(route))  # the press is on its way until the test lets it through
    host.locator("#add-bot").click()
    wait_for(lambda: bool(held), 60, "the press was never sent", host)
    night = address.rsplit("/", 1)[1]
    with host.expect_response(lambda r: r.url.endswith(f"/clubnights/{night}") and r.request.method == "GET"):
        host.clock.fast_forward(CLUBNIGHT_REDRAW_MS)
    host.wait_for_timeout(1000)  # time for the refresh's answer to be drawn (it would enable the button)
    assert host.locator("#add-bot").is_disabled()
    held[0].continue_()
    host.locator("#entrants", has_text="(bot)").wait_for()
    wait_for(lambda: host.locator("#add-bot").is_enabled(), 60, "the button stayed disabled", host)
    assert host.locator("#entrants").inner_text().count("(bot)") == 1
    assert host.errors == []
