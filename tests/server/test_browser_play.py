"""The browser table in a real Chromium (pytest-playwright driving Debian's package): people play whole matches by
clicking, the pages never show or receive a card their seat may not know, and a reload comes back to the same seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from browserkit import (
    Watched,
    assert_no_leak,
    live_match,
    seeded_table,
    tap,
    wait_for,
    watch,
)
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer, get, post

from timeouts import PAGE_TIMEOUT_MS


def take_seat(browser: Any, base: str, table: str, name: str, width: int = 1280) -> Watched:
    """A new browser (its own storage) that opens the table's page and takes a seat with ``name``."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{base}/table/{table}")
    page.get_by_label("Your name").fill(name)
    watched = watch(page, None)
    page.get_by_role("button", name="Take the seat").click()
    wait_for(lambda: any(m["type"] == "welcome" for m in watched.received), 15, f"{name} got no welcome", page)
    watched.seat = next(m["seat"] for m in watched.received if m["type"] == "welcome")
    page.wait_for_selector(".my-area")
    return watched


def last_state(w: Watched) -> dict[str, Any]:
    """The last state or update the page received."""
    return next(m for m in reversed(w.received) if m["type"] in ("state", "update"))


def to_act(w: Watched) -> bool:
    """Whether the page's seat is to act, as the page was last told and has drawn it."""
    msg = last_state(w)
    if msg["to_act"] != w.seat or msg["over"]:
        return False
    # drawn: the page handles a message a moment after the browser received it
    offered = w.page.locator(".hand.active, .bid-cards .playable, .controls button.action").count()
    return offered > 0 and w.page.locator("#turn").inner_text() != "Sent…"


def click_turn(w: Watched, rng: random.Random) -> None:
    """Make one decision by clicking: a word (keep, exchange, pass) or a legal card of the hand, at random."""
    page = w.page
    version = w.version
    words = page.locator(".controls button.action")
    cards = page.locator(".hand button.card.playable")
    n_words, n_cards = words.count(), cards.count()
    assert n_words + n_cards > 0, "the seat to act is offered nothing to click"
    pick = rng.randrange(n_words + n_cards)
    if pick < n_words:
        words.nth(pick).click()
    else:
        tap(cards.nth(pick - n_words))
    wait_for(lambda: w.version != version, 15, "the click was not answered by the table", page)


@pytest.mark.parametrize(
    "game",
    ["whist", "free", "partnership", "northstar(players=6, teams=3x2)", "northstar(players=5, wild_fifteens=true)"],
)
def test_a_table_fits_a_360_pixel_screen_and_every_control_has_a_name_and_works_from_the_keyboard(
    web: ThreadServer, browser: Any, game: str
) -> None:
    info = get(web.base, "/games")
    name = game.split("(")[0]
    n = (
        6
        if "players=6" in game
        else 5
        if "players=5" in game
        else next(g["seats"][0] for g in info if g["name"] == name)
    )
    seats = [{"kind": "person"}] + [{"kind": "bot"}] * (n - 1)
    table = post(web.base, "/tables", {"game": game, "seats": seats, "bot_delay": 0, "hints": True}, 201)["id"]
    ann = take_seat(browser, web.base, table, "Ann", width=360)
    page = ann.page
    wait_for(lambda: to_act(ann), 15, "Ann was never to act", page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide at 360 px"
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button, input, select, a, [role=img]')]
            .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels?.length || e.title))
            .map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []
    version = ann.version
    page.get_by_role("button", name="Hint").click()  # the heuristic bot's suggestion, on request
    hint = page.locator(".hint")
    hint.wait_for()
    assert hint.inner_text().startswith("Hint: ")
    # every action from the keyboard: Tab to the first enabled control of the hand or the actions, then Enter
    target = page.locator(".hand button.card.playable, .controls button.action").first
    target.focus()
    select = name == "northstar" or last_state(ann)["view"].get("phase") == "pass"
    picks = 3 if last_state(ann)["view"].get("phase") == "pass" else 1
    for i in range(picks):
        page.keyboard.press("Enter" if i == 0 else "ArrowRight")
        if i:
            page.keyboard.press("Enter")
    if select and page.locator(".controls button.action.primary").count() == 0:
        # a selection that is not a play yet: the keyboard reaches the offered word (pass) or another card instead
        page.locator(".controls button.action").first.focus()
        page.keyboard.press("Enter")
    elif select:
        page.locator(".controls button.action.primary").first.focus()
        page.keyboard.press("Enter")
    wait_for(lambda: ann.version != version, 15, "the keyboard action was not made", page)
    assert_no_leak(ann, live_match(web, table), name)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_table_page_asks_the_server_who_is_signed_in_once_however_many_of_its_parts_want_to_know(
    web: ThreadServer, browser: Any
) -> None:
    # Bug: the table's page asked GET /account three times as it opened (the seat's form, the chat, the seat's
    # reclaim each asked before the first answer came), every player at every table.
    seats = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    table = post(web.base, "/tables", {"game": "whist", "seats": seats, "bot_delay": 0}, 201)["id"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/account") else None)
    page.goto(f"{web.base}/table/{table}")
    page.get_by_label("Your name").fill("Ann")
    watched = watch(page, None)
    page.get_by_role("button", name="Take the seat").click()
    wait_for(lambda: any(m["type"] == "welcome" for m in watched.received), 15, "Ann got no welcome", page)
    page.locator(".my-area").wait_for()
    page.wait_for_load_state("networkidle")  # every part of the page has asked what it asks as it opens
    assert asked == [f"{web.base}/account"]


def test_a_reload_in_the_middle_of_a_hand_returns_to_the_same_seat_and_state(web: ThreadServer, browser: Any) -> None:
    seats = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    table = seeded_table(web, "partnership", [*seats, {"kind": "bot"}], seed=5, bot_delay=0.0)
    ann = take_seat(browser, web.base, table, "Ann", width=390)
    rng = random.Random(3)
    for _ in range(3):  # the pass and two cards
        wait_for(lambda: to_act(ann), 15, "Ann was never to act", ann.page)
        if last_state(ann)["view"]["phase"] == "pass":
            chosen = choose_pass(ann, rng)
            wait_for(lambda: last_state(ann)["view"]["given"] is not None, 15, "the pass was not made", ann.page)
            given = ann.page.locator(".extra", has_text="You passed").locator("[data-card]")
            assert sorted(given.evaluate_all("(els) => els.map((e) => e.dataset.card)")) == sorted(chosen)
        else:
            click_turn(ann, rng)
    wait_for(lambda: to_act(ann), 15, "Ann was never to act", ann.page)
    before = ann.page.locator(".hand").get_attribute("aria-label"), hand_cards(ann)
    version = ann.version
    ann.page.reload()
    ann.page.wait_for_selector(".my-area")
    wait_for(
        lambda: ann.version == version and hand_cards(ann) == before[1], 15, "the reload did not come back", ann.page
    )
    assert ann.page.locator(".hand").get_attribute("aria-label") == before[0]
    assert ann.page.get_by_label("Your name").count() == 0  # no join form: the stored token took the seat again
    welcome = [m for m in ann.received if m["type"] == "welcome"]
    assert len(welcome) == 2 and welcome[-1]["seat"] == 0
    assert ann.page.locator(".seat.mine .badge.you").count() == 1
    assert_no_leak(ann, live_match(web, table), "partnership")


def hand_cards(w: Watched) -> list[str]:
    """The cards of the page's own hand, in the order shown."""
    return w.page.eval_on_selector_all(".hand button.card", "(els) => els.map((e) => e.dataset.card)")  # type: ignore[no-any-return]


def choose_pass(w: Watched, rng: random.Random) -> list[str]:
    """The partnership pass: pick three cards one by one, then confirm with the offered button."""
    page = w.page
    version = w.version
    chosen: list[str] = []
    for _ in range(3):
        open_cards = page.locator(".hand button.card.playable:not(.selected)")
        card = open_cards.nth(rng.randrange(open_cards.count()))
        chosen.append(card.get_attribute("data-card") or "")
        card.click()
    confirm = page.locator(".controls button.action.primary")
    assert confirm.count() == 1 and confirm.inner_text().startswith("Pass ")
    confirm.click()
    wait_for(lambda: w.version != version, 15, "the pass was not answered", page)
    return chosen


def test_the_lobby_makes_a_table_with_a_variant_options_and_seats_and_a_friend_joins_from_the_list(
    web: ThreadServer, browser: Any
) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(web.base + "/")
    page.get_by_label("Game").select_option("northstar")
    page.get_by_label("Variant").select_option("northstar-teams")
    assert page.locator('[data-option="teams"]').input_value() == "2x2"  # the variant's settings are shown
    page.locator('[data-option="double_or_nothing"]').check()
    page.get_by_label("Seat 3").select_option("person")
    page.get_by_label("More bots (for research: random moves, plain searches)").check()
    page.get_by_label("Seat 2").select_option("bot:random")
    page.get_by_label("Your name").first.fill("Ann")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".board")
    table = page.url.rsplit("/", 1)[1]
    info = get(web.base, f"/tables/{table}")
    assert info["game"] == "northstar(teams=2x2,double_or_nothing=true)"  # the variant with its options, canonical
    assert [s["kind"] for s in info["seats"]] == ["person", "bot", "person", "bot"]
    assert info["seats"][0]["name"] == "Ann" and info["waiting"]
    assert web.server.config.app.state.hub.tables[table].seats[1].bot == "random"  # its name is a persona's
    assert "Waiting for every player" in page.locator("#turn").inner_text()
    friend = browser.new_context(viewport={"width": 390, "height": 800}).new_page()
    friend.goto(web.base + "/")
    friend.get_by_role("link", name="Join (1 free)").click()
    friend.get_by_label("Your name").fill("Bob")
    friend.get_by_role("button", name="Take the seat").click()
    friend.wait_for_selector(".my-area")
    wait_for(lambda: not get(web.base, f"/tables/{table}")["waiting"], 15, "the table still waits", friend)
    assert get(web.base, f"/tables/{table}")["seats"][2]["name"] == "Bob"


def test_a_private_table_is_joined_by_its_invite_code_and_not_listed(web: ThreadServer, browser: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(web.base + "/")
    page.get_by_label("Seat 2").select_option("person")
    page.get_by_label("Listed in the lobby (otherwise by invite only)").uncheck()
    page.get_by_label("Your name").first.fill("Ann")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_selector(".board")
    code = page.locator(".invite code").inner_text()
    assert get(web.base, "/tables") == []
    friend = browser.new_context().new_page()
    friend.goto(web.base + "/")
    friend.locator("#invite-code").fill(code)
    friend.locator("#invite-name").fill("Bob")
    friend.get_by_role("button", name="Join", exact=True).click()
    friend.wait_for_selector(".my-area")
    assert friend.locator(".seat.mine .seat-name").inner_text() == "Bob"
    friend.locator(".settings summary").click()
    friend.get_by_label("Four-colour suits").check()  # the colour-blind deck, remembered by the browser
    friend.reload()
    friend.wait_for_selector(".my-area")
    assert friend.evaluate("() => document.documentElement.classList.contains('four-colour')")
    colours = friend.evaluate(
        "() => ['--clubs', '--diamonds']"
        ".map((v) => getComputedStyle(document.documentElement).getPropertyValue(v).trim())"
    )
    assert colours == ["#12782b", "#1456b8"]  # clubs green, diamonds blue (whatever the deal holds)
