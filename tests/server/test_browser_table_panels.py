"""What lies beside the table in play, in a real Chromium, as a card room's players expect it (each test here failed
on the page before its fix): a hand's account that leaves the table once the next hand is played; a chat column at
1280x800 whose lines, report buttons, report form, field and quick phrases are whole and in sight, and whose refusal
of a rude word is a sentence in the reader's language; after a whist exchange, the hand given up named as the other
hand it is, under the actions rather than over the new hand; a typed refusal said once on the screen; and a replay
that names the game as players know it, says how to get a record in plain words, and says at once that it is
loading."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest
from browserkit import decide, offered, resize, seeded_table, wait_for
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer
from test_browser_access import finished_match
from test_browser_accounts import sign_up
from test_browser_fit import learn
from test_browser_table import new_page, sit

LAPTOP = {"width": 1280, "height": 800}
LANGUAGES = ("en", "de", "fr", "nl")


OVERLAPPED = """() => {
  // the seats and the places on the table (a bid to beat among them) that the hand's account lies over
  const account = document.querySelector(".hand-summary");
  if (!account) return [];
  const a = account.getBoundingClientRect();
  return [...document.querySelectorAll(".felt .seat, .trick-area .place")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width && r.left < a.right - 1 && r.right > a.left + 1 && r.top < a.bottom - 1 && r.bottom > a.top + 1;
  }).map((el) => el.textContent.trim().slice(0, 40));
}"""

IN_SIGHT = """(els) => els.filter((el) => {
  // whole inside the window, and neither covered nor cut by a box that scrolls: its middle and the middle of each
  // edge (3 px in: a pill's rounded corners are not its own to the pointer) are the element's
  const r = el.getBoundingClientRect();
  if (!r.width || r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1) return true;
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const points = [[x, y], [x, r.top + 3], [x, r.bottom - 3], [r.left + 3, y], [r.right - 3, y]];
  return points.some(([x, y]) => !el.contains(document.elementFromPoint(x, y)));
}).map((el) => el.textContent.trim() || el.getAttribute("placeholder") || el.className)"""
"""The elements of a list that are not whole in sight (their words, for the message of a failed check)."""


def test_the_hands_account_leaves_the_table_for_the_side_column_once_the_next_hand_is_played(
    web: ThreadServer, browser: Any
) -> None:
    # Bug: "Hand 1 is over" stayed over the top of the felt until the player acted, covering the top seats and, in
    # Free Clubs, the bid to beat while the bots bid on. At seed 8 a bot opens the second hand's auction. The bots act
    # at once: the page draws each message as it comes, so the account over the table is drawn (and kept among the
    # states the page showed) before the bot's first action of the next hand moves it.
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "normal"}, {"kind": "bot", "bot": "normal"}]
    table = seeded_table(web, "free", seats, 8, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", viewport=LAPTOP, seat=0, storage={"trickPause": 0})
    page = ann.page
    rng = random.Random(8)
    scored = lambda: next((i for i, m in enumerate(ann.received) if m.get("scored")), None)  # noqa: E731
    for _ in range(200):
        wait_for(lambda: offered(ann) or scored() is not None, 60, "the hand stalled", page)
        if scored() is not None:
            break
        decide(ann, rng, "free")
    at = scored()
    assert at is not None, "no hand ended"
    wait_for(lambda: any(m["type"] == "update" for m in ann.received[at + 1 :]), 60, "no action after the hand", page)
    first = next(m for m in ann.received[at + 1 :] if m["type"] == "update")
    assert first["by"]["seat"] != ann.seat, "the test needs a bot to act first in the second hand"
    drawn = "(v) => Number(document.querySelector('.board').dataset.version) >= v"
    wait_for(lambda: page.evaluate(drawn, first["version"]), 30, "the page never drew the next action", page)
    shown = page.evaluate("() => window.__shown.map((s) => s.text)")
    assert any("Hand 1 is over" in text for text in shown), "the hand's account was never shown"
    assert page.evaluate(OVERLAPPED) == [], "the hand's account lies over the table in play"
    aside = page.locator(".side > .hand-summary")
    assert aside.count() == 1 and "Hand 1 is over" in aside.inner_text()  # still there to read, beside the table
    aside.get_by_role("button", name="Go on").click()
    assert page.locator(".hand-summary").count() == 0
    assert page.errors == []


def chat_table(web: ThreadServer, browser: Any) -> tuple[Any, Any]:
    """Ann (signed in, so that she may report a line) and Bob at a whist table whose bot takes its time, at 1280x800;
    Bob has said five lines, one of them long."""
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    table = seeded_table(web, "whist", seats, 3, bot_delay=10.0)
    ann = new_page(browser, LAPTOP)
    sign_up(ann, web.base, "Ann")
    ann.goto(f"{web.base}/table/{table}")
    ann.get_by_role("button", name="Take the seat").click()
    bob = sit(browser, web.base, table, "Bob", viewport=LAPTOP).page
    ann.locator(".my-area").wait_for()
    long = "good luck everyone, this is a longer line to see how it wraps in the column"
    lines = ["hi all", long, "ok", "nice", "gg"]
    for said, text in enumerate(lines, 1):
        field = bob.get_by_role("textbox", name="Chat message", exact=True)
        field.fill(text)
        field.press("Enter")
        # the chat's rate, one line a second after a burst: the next line goes a second after the server passed this
        # one on (it reached Ann), so a late delivery never brings two lines closer together at the server
        wait_for(lambda n=said: ann.locator(".chat-line .report-open").count() == n, 30, f"line {said} never came", ann)
        bob.wait_for_timeout(1100)
    return ann, bob


def test_at_1280x800_the_chat_lines_report_form_field_and_quick_phrases_are_whole_and_in_sight(
    web: ThreadServer, browser: Any
) -> None:
    # Bug: the lines were squeezed into each other (their report buttons over the next line), the report form's
    # Send was cut, and the field and the quick phrases lay below the window's edge in the side column.
    ann, _ = chat_table(web, browser)
    chat = ann.locator(".chat")
    wanted = [*chat.locator(".chat-phrase").element_handles(), chat.locator(".chat-input").element_handle(),
              chat.locator(".chat-form button[type=submit]").element_handle()]  # fmt: skip
    assert ann.evaluate(IN_SIGHT, wanted) == []
    layout = ann.evaluate(
        """() => [...document.querySelectorAll('.chat-line')].map((line) => {
             const r = line.getBoundingClientRect(), b = line.querySelector('.report-open').getBoundingClientRect();
             return {top: r.top, bottom: r.bottom, clipped: line.scrollHeight > line.clientHeight + 1,
                     button: b.top >= r.top - 1 && b.bottom <= r.bottom + 1};
           })"""
    )
    for line, after in itertools.pairwise(layout):
        assert line["bottom"] <= after["top"] + 1, f"two chat lines overlap: {layout}"
    cut = [line for line in layout if line["clipped"] or not line["button"]]
    assert cut == [], f"a line or its report button is cut: {layout}"
    line = chat.locator(".chat-line").nth(1)
    line.get_by_role("button", name="Report").click()
    send = line.get_by_role("button", name="Send the report")
    send.wait_for()
    assert ann.evaluate(IN_SIGHT, [send.element_handle(), line.locator("textarea").element_handle()]) == []
    assert ann.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")  # the page never scrolls
    assert ann.errors == []


REFUSED = {
    "en": "Your message was not sent: it holds a word this site does not accept.",
    "de": "Ihre Nachricht wurde nicht gesendet: Sie enthält ein Wort, das diese Seite nicht zulässt.",
    "fr": "Votre message n'a pas été envoyé : il contient un mot que ce site n'accepte pas.",
    "nl": "Je bericht is niet verstuurd: het bevat een woord dat deze site niet toestaat.",
}


def test_a_rude_word_is_refused_in_a_sentence_in_the_readers_language(web: ThreadServer, browser: Any) -> None:
    # Bug: the page showed the server's English rule as it came, "a chat message may not hold words this site does
    # not accept: it was not sent", like a line of a log.
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = seeded_table(web, "whist", seats, 3, bot_delay=10.0)
    page = sit(browser, web.base, table, "Ann", viewport=LAPTOP).page
    for lang in LANGUAGES:
        page.evaluate("(lang) => localStorage.setItem('clubs.lang', JSON.stringify(lang))", lang)
        page.reload()
        field = page.locator(".chat-input")
        field.fill("fuck you")
        field.press("Enter")
        problem = page.locator(".chat-error")
        wait_for(lambda problem=problem: problem.inner_text() != "", 30, f"no refusal in {lang}", page)
        assert problem.inner_text() == REFUSED[lang]
        assert page.evaluate(IN_SIGHT, [problem.element_handle()]) == []
        page.wait_for_timeout(1100)  # the chat's rate
    assert page.errors == []


BOTS2 = [{"kind": "bot", "bot": "normal"}, {"kind": "person"}, {"kind": "bot", "bot": "normal"}]
"""Whist with the person in seat 1: at seed 11 the first to decide (keep or exchange, CW-4)."""


def test_after_an_exchange_the_hand_given_up_is_named_as_the_other_hand_under_the_actions_on_a_laptop_or_a_phone(
    web: ThreadServer, browser: Any
) -> None:
    # Bug: "The hand you gave up (now the bid hand)" sat right over the new hand, like its caption.
    table = seeded_table(web, "whist", BOTS2, 11, bot_delay=0.0)
    ann = sit(browser, web.base, table, "Ann", viewport=LAPTOP, seat=1)
    page = ann.page
    wait_for(lambda: offered(ann), 30, "Ann was never to act", page)
    version = ann.version
    page.locator('.controls button.action[data-action="exchange"]').click()
    wait_for(lambda: ann.version != version, 30, "the exchange was not taken", page)
    for viewport in (LAPTOP, {"width": 390, "height": 844}):  # one page, its window resized
        resize(page, viewport)
        known = page.locator(".my-area .extra")
        known.first.wait_for()
        heading = known.first.locator("summary, h2").first.inner_text()
        assert re.match(r"^(The bid hand|[A-Z][a-z]+) now holds the cards you gave up \(\d+ cards\)$", heading), heading
        below = page.evaluate(
            """() => {
                 const hand = document.querySelector('.my-area > .hand').getBoundingClientRect();
                 const acts = document.querySelector('.my-area > .controls').getBoundingClientRect();
                 return [...document.querySelectorAll('.my-area .extra')]
                   .every((e) => e.getBoundingClientRect().top >= Math.max(hand.bottom, acts.bottom) - 1);
               }"""
        )
        assert below, f"the hand given up is drawn over the new hand at {viewport}"
    assert page.errors == []


def test_a_typed_refusal_is_said_once_on_the_screen(web: ThreadServer, browser: Any) -> None:
    # Bug: with the coach on, a refused typed move was said under the prompt and again in the coach (and its rule a
    # third time behind the prompt's "why?").
    w = learn(browser, web.base, "whist", LAPTOP)
    page = w.page
    wait_for(lambda: offered(w), 30, "Ann was never to act in the guided whist", page)
    page.get_by_role("button", name="Got it").click()
    page.locator(".typed-box summary").click()
    page.locator("#typed").fill("7C")
    page.locator("#typed").press("Enter")
    page.locator(".coach .coach-refused").wait_for()
    said = page.locator(".coach .coach-refused p").inner_text()
    assert said and page.locator("body").inner_text().count(said) == 1
    assert page.locator(".why-refused").count() == 0  # its rule is one link away in the coach
    assert page.errors == []


def test_the_replay_names_the_game_as_players_know_it_and_says_at_once_that_it_is_loading(
    web: ThreadServer, browser: Any
) -> None:
    # Bug: the bar said "Clubs (whist group)", and the page stayed blank while the server replayed the record.
    table = finished_match(web)
    page = new_page(browser, LAPTOP)
    held: list[Any] = []
    page.route(re.compile(r"/tables/[^/?]+/replay\?"), lambda route: held.append(route))
    page.goto(f"{web.base}/replay?table={table}&match=0")
    page.get_by_role("status").filter(has_text="Loading the replay…").wait_for()
    wait_for(lambda: len(held) == 1, 30, "the page never asked for the replay", page)
    held[0].continue_()
    page.locator(".step-count").wait_for()
    bar = page.locator("header.bar").inner_text()
    assert "Replay: Whist Clubs" in bar and "whist group" not in bar, bar
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the title has a line of its own, whole
    whole = "(e) => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().width > 200"
    wait_for(lambda: page.locator("header.bar h1").evaluate(whole), 10, "the replay's title is cut on a phone", page)
    assert page.errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_replay_says_how_to_get_a_record_in_plain_words(web: ThreadServer, browser: Any, lang: str) -> None:
    # Bug: the page cited a terminal command, `clubs play --save`, to a player who only ever used the site.
    page = new_page(browser, LAPTOP, storage={"lang": lang})
    page.goto(f"{web.base}/replay")
    page.locator("#record-file").wait_for()
    main = page.locator("main")
    assert main.locator("code").count() == 0 and "--save" not in main.inner_text()
    download = {"en": "Download the record", "de": "Aufzeichnung herunterladen", "fr": "Télécharger l'enregistrement",
                "nl": "Opname downloaden"}[lang]  # fmt: skip
    assert main.locator("q").inner_text() == download  # the button's words, as the end of a match shows them
    assert page.errors == []
