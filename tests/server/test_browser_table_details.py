"""The table's small things in a real Chromium, each a glitch a newcomer met: the refusal's "why?" reads as a button,
not an empty box; a refused typed move does not linger into the next turn; the hand's account leaves the last trick
in sight; cards being passed are not previewed on the table; a phone shows the table's whole name; leaving the seat
sits apart and asks once more during a match; and a table everyone left says so in the lobby while its bots finish
without pausing for nobody."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browserkit import (
    decide,
    keep_errors,
    last_message,
    offered,
    resize,
    seeded_table,
    wait_for,
    watch,
)
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer
from test_browser_table import DESKTOP, PHONE, new_page, sit

import loopback

BOTS2 = [{"kind": "bot", "bot": "normal"}, {"kind": "person"}, {"kind": "bot", "bot": "normal"}]
"""Whist with the person in seat 1: at seed 11 the first to decide (keep or exchange, CW-4)."""


def test_a_refusals_why_is_a_pill_like_the_prompts_and_the_refused_typed_move_leaves_once_the_turn_is_taken(
    web: ThreadServer, browser: Any
) -> None:
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", seat=1)
    page = ann.page
    wait_for(lambda: offered(ann), 20, "Ann was never to act", page)
    page.locator(".typed-box summary").click()
    page.locator("#typed").fill("7C")
    page.locator("#typed").press("Enter")
    why = page.locator(".why-refused")
    why.wait_for()  # 7C is no keep-or-exchange decision (CW-4): refused, with its rule behind "why?"
    pill = page.locator(".why-button").first
    style = "(e) => { const s = getComputedStyle(e); return [s.backgroundColor, s.color, s.borderTopStyle]; }"
    box = why.evaluate("(e) => getComputedStyle(e).backgroundColor")
    assert box == "rgba(0, 0, 0, 0)"  # folded, no paper box that looks like a field to type in
    assert why.locator("summary").evaluate(style) == pill.evaluate(style)
    assert why.locator("summary").evaluate("(e) => parseFloat(getComputedStyle(e).borderTopLeftRadius)") >= 12
    why.locator("summary").click()
    assert why.evaluate("(e) => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"  # opened: the rule
    assert page.locator("#typed").input_value() == "7C"  # refused: kept, to be put right
    version = ann.version
    page.locator('.controls button.action[data-action="keep"]').click()  # the turn taken another way
    wait_for(lambda: ann.version != version, 20, "keep was not taken", page)
    assert page.locator("#typed").input_value() == ""
    assert page.errors == [], page.errors  # the refusal came over the socket: no failed request


def test_the_hands_account_leaves_the_last_trick_in_sight(web: ThreadServer, browser: Any) -> None:
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", seat=1, storage={"trickPause": 30})
    page = ann.page
    rng = random.Random(3)
    # the account stays until the next hand's first action: looked at on Ann's turn, where she opens that hand (the
    # fourth, dealt by seat 0), so that no bot's action takes it away meanwhile
    for _ in range(120):
        wait_for(lambda: offered(ann), 30, "no turn", page)
        if page.locator(".hand-summary").count():
            break
        decide(ann, rng, "whist")
    page.locator(".hand-summary").wait_for()
    # the account's box and the trick's cards read in one step, in one layout of the page (read one by one, a drawing
    # between two reads could find an element between its old and its new place)
    found: list[Any] = []

    def read() -> bool:
        found[:] = [page.evaluate(LAST_TRICK_AND_ACCOUNT)]
        return found[0] is not None

    wait_for(read, 30, "the hand's account and its last trick were never drawn together", page)
    account, cards = found[0]["account"], found[0]["cards"]
    assert len(cards) == 3  # the hand's last trick, still shown
    assert all(card["uncovered"] for card in cards)
    for r in cards:  # beside the trick (over the top of the felt in a laptop's window), never over its cards
        apart = r["y"] >= account["y"] + account["height"] - 1 or r["y"] + r["height"] <= account["y"] + 1
        assert apart or r["x"] >= account["x"] + account["width"] - 1 or r["x"] + r["width"] <= account["x"] + 1


LAST_TRICK_AND_ACCOUNT = """() => {
  const summary = document.querySelector('.hand-summary');
  if (!summary) return null;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
  };
  const cards = [...document.querySelectorAll('.trick-area .pile [data-card]')].map((el) => {
    const r = el.getBoundingClientRect();
    return {...box(el), uncovered: el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2))};
  });
  return {account: box(summary), cards};
}"""
"""The box of the hand's account (``.hand-summary``) and of each card on the trick area, with whether the card is
uncovered at its middle (nothing drawn over it there), read in one layout; null while the account is not drawn."""


def test_a_card_to_pass_is_not_previewed_in_your_place_on_the_table(web: ThreadServer, browser: Any) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = seeded_table(web, "free", seats, 0, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", seat=0)
    page = ann.page
    rng = random.Random(5)
    for _ in range(400):  # until Ann is the one to pass cards (FC-2): she must win an auction
        wait_for(lambda: offered(ann) or last_message(ann)["over"], 30, "Ann was never to act", page)
        assert not last_message(ann)["over"], "Ann never had cards to pass"
        if last_message(ann)["view"]["phase"] == "pass":
            break
        decide(ann, rng, "free")
    place = page.locator(f'.trick-area .place[data-seat="{ann.seat}"]')
    card = page.locator(".my-area > .hand button.card.playable").first
    card.hover()
    card.focus()
    # a preview is put by the pointer's and the focus's own events, before hover() and focus() return: none came
    assert place.locator(".pile.preview").count() == 0
    # a card to play is still previewed: play on to Ann's next turn in the play of the hand
    for _ in range(400):
        wait_for(lambda: offered(ann) or last_message(ann)["over"], 30, "Ann was never to act", page)
        if (
            last_message(ann)["view"]["phase"] == "play"
            and page.locator(".my-area > .hand button.card.playable").count()
        ):
            break
        decide(ann, rng, "free")
    page.locator(".my-area > .hand button.card.playable").first.hover()
    place.locator(".pile.preview").wait_for()


@pytest.mark.parametrize("viewport", [PHONE, {"width": 360, "height": 740}])
def test_a_phone_shows_the_tables_whole_name_and_still_the_hand_on_its_first_screen(
    web: ThreadServer, browser: Any, viewport: dict[str, int]
) -> None:
    seats = [{"kind": "person"}, *[{"kind": "bot", "bot": "normal"}] * 3]
    table = seeded_table(web, "northstar(players=4, wild_fifteens=true)", seats, 3, bot_delay=0.0)
    mara = sit(browser, web.base, table, "Mara", viewport)
    page = mara.page
    title = page.locator(".bar h1")
    assert title.inner_text() == "Mara's CLUBS, 4 players, wild 15s"
    cut = "(e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1"
    assert not title.evaluate(cut)
    # the hand as drawn (read until it is there: a bot's play at delay 0 may be redrawing the seat at that moment)
    drawn: list[Any] = []
    hand_row = page.locator(".my-area > .hand")
    wait_for(lambda: drawn.append(hand_row.bounding_box()) or drawn[-1] is not None, 30, "no hand drawn", page)
    hand = drawn[-1]
    assert hand["y"] + hand["height"] <= viewport["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    # the language, left out of the bar for the name, is chosen in the settings
    assert not page.locator("header.bar select.lang-switch").is_visible()
    page.locator(".settings summary").click()
    page.locator(".settings").get_by_label("Language").select_option("de")
    # the page is loaded again in German: wait on what it shows (a locator outlives the reload; a script run in the
    # page might meet it between two documents)
    page.locator(".bar h1", has_text="CLUBS von Mara, 4 Spieler, wilde 15er").wait_for()
    assert page.evaluate("() => document.documentElement.lang") == "de"


def test_leaving_the_seat_sits_apart_from_play_and_asks_once_more_during_a_match(
    web: ThreadServer, browser: Any
) -> None:
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", seat=1)
    page = ann.page
    last = page.get_by_role("button", name="Show the last trick")
    leave = page.get_by_role("button", name="Leave the seat")
    assert page.locator(".side-buttons").get_by_role("button", name="Leave the seat").count() == 0
    boxes: list[Any] = []

    def both_drawn() -> bool:  # read again where a drawing fell between the reads (a bot's play at delay 0)
        boxes[:] = [leave.bounding_box(), last.bounding_box()]
        return None not in boxes

    wait_for(both_drawn, 30, "the two buttons were never drawn", page)
    assert boxes[0]["y"] - (boxes[1]["y"] + boxes[1]["height"]) >= 40  # not right under a button used in play
    leave.click()
    page.get_by_text("Leave this match?").wait_for()
    assert "/table/" in page.url and page.locator(".my-area").count() == 1  # still seated
    page.get_by_role("button", name="Stay").click()
    assert page.get_by_text("Leave this match?").count() == 0
    page.get_by_role("button", name="Leave the seat").click()
    page.get_by_role("button", name="Leave", exact=True).click()
    page.wait_for_url(f"{web.base}/")
    assert page.errors == []


def test_a_table_everyone_left_says_so_in_the_lobby_and_its_bots_finish_without_pausing(
    web: ThreadServer, browser: Any
) -> None:
    # bots that pause four seconds a move: a whole match of whist would take many minutes if they paused for nobody
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=4.0)
    ann = sit(browser, web.base, table, "Ann", seat=1)
    wait_for(lambda: offered(ann), 20, "Ann was never to act", ann.page)
    decide(ann, random.Random(1), "whist")  # play has begun
    lobby = keep_errors(browser.new_context(viewport=DESKTOP).new_page())
    lobby.goto(web.base + "/")
    card = lobby.locator(f'.table-card[data-table="{table}"] .state')
    card.wait_for()
    assert card.inner_text().startswith("Playing")
    ann.page.get_by_role("button", name="Leave the seat").click()
    ann.page.get_by_role("button", name="Leave", exact=True).click()
    ann.page.wait_for_url(f"{web.base}/")
    ann.page.close()
    wait_for(
        lambda: card.inner_text().startswith(("Nobody is playing", "The match is over")), 30, "still Playing", lobby
    )
    wait_for(lambda: loopback.get(f"{web.base}/tables/{table}").json()["over"], 120, "the bots paused", lobby)
    assert lobby.errors == []


def test_the_lobby_names_a_table_nobody_plays_at(web: ThreadServer, browser: Any) -> None:
    # one person and a spectator: when the person leaves, the spectator keeps the bots at their pace
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=4.0)
    ann = sit(browser, web.base, table, "Ann", seat=1)
    wait_for(lambda: offered(ann), 20, "Ann was never to act", ann.page)
    decide(ann, random.Random(1), "whist")
    eve = new_page(browser, DESKTOP)
    watched = watch(eve, None)
    eve.goto(f"{web.base}/table/{table}?watch=1")
    eve.wait_for_selector(".board")
    ann.page.get_by_role("button", name="Leave the seat").click()
    ann.page.get_by_role("button", name="Leave", exact=True).click()
    ann.page.wait_for_url(f"{web.base}/")
    ann.page.goto(web.base + "/")
    card = ann.page.locator(f'.table-card[data-table="{table}"] .state')
    wait_for(lambda: card.count() > 0 and card.inner_text().startswith("Nobody is playing"), 30, "no words", ann.page)
    assert not last_message(watched)["over"]  # watched: the bots still take their time


BROKEN_WORDS = """(root) => {
  // every word of the element's text on one line: a word split across lines has two boxes
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    for (const m of text.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


def test_the_score_sheet_keeps_numbers_in_the_column_and_each_hands_details_in_a_dialog_in_every_language(
    web: ThreadServer, browser: Any
) -> None:
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", seat=1, storage={"trickPause": 0})
    page = ann.page
    rng = random.Random(8)
    while not any(m.get("scored") for m in ann.received if m["type"] == "update"):
        wait_for(lambda: offered(ann) or any(m.get("scored") for m in ann.received), 30, "no turn", page)
        if offered(ann):
            decide(ann, rng, "whist")
    if page.locator(".hand-summary").count():
        page.locator('[data-action="close-summary"]').click()
    for lang in ("en", "de", "fr", "nl"):
        page.evaluate("(l) => localStorage.setItem('clubs.lang', JSON.stringify(l))", lang)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.reload()  # the page in the language: then each width in turn, the window resized
        page.locator(".my-area").wait_for()
        for width, height in ((1280, 800), (390, 844), (360, 740)):
            resize(page, {"width": width, "height": height})
            sheet = page.locator(".side .score-box")
            if width < 1000 and not sheet.is_visible():  # on a phone the sheet is in its drawer
                page.locator('[data-action="drawer-scores"]').click()
            sheet.wait_for()
            assert sheet.locator("td.details").count() == 0  # numbers only beside the table
            assert sheet.evaluate(BROKEN_WORDS) == [], (lang, width)
            assert sheet.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), (lang, width)
            heads = sheet.locator("thead th").evaluate_all(
                "(hs) => hs.map((h) => Math.round(h.getBoundingClientRect().top))"
            )
            assert len(set(heads)) == 1, (lang, width)  # the players side by side, a column each
            sheet.locator('[data-action="hand-details-0"]').click()
            dialog = page.locator(".score-details")
            dialog.wait_for()
            assert dialog.locator(".hand-words").inner_text().strip()  # the hand in words, in the dialog
            assert dialog.evaluate(BROKEN_WORDS) == [], (lang, width)
            page.keyboard.press("Escape")
            dialog.wait_for(state="detached")
            assert page.evaluate("() => document.activeElement.dataset.action") == "hand-details-0"
            sheet.locator('[data-action="hand-details-all"]').click()  # every hand, each with its words
            assert dialog.locator("td.details").count() == 1 and dialog.evaluate(BROKEN_WORDS) == [], (lang, width)
            dialog.get_by_role("button", name=page.locator(".score-details .close").get_attribute("aria-label")).click()
            dialog.wait_for(state="detached")
    assert page.errors == []
