"""The pages in the reader's language, in a real Chromium: the lobby opens in English for an English browser, its
language switch shows it again in German (the choice remembered by the browser, ``clubs.lang``), and then the words
of the games (a prompt and a line of the log, as each game declares them and the server sends them; a card's name)
are German too, as the catalog words them. A seated
table and the replay viewer, with French chosen before they load, speak French from their first drawing: the bar, the
status, the hand's cards as a screen reader names them, the replay's steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer, get, new_table, post, seated

from clubsuite.engine import find_game
from clubsuite.i18n import Words
from clubsuite.present import asked, said
from timeouts import PAGE_TIMEOUT_MS

LEAD = "Your lead: play any card."
"""A whist prompt (a lead with clubs broken: every card of the hand may be led, CW-2), as the whist group's
``asked`` words it from the legal cards."""
WHIST = find_game("whist")[0]
ASKED = asked(
    WHIST, {"phase": "play", "trick": [], "clubs_broken": True, "hand": "2H 3C", "seat": 0}, None, ["2H", "3C"]
)
SAID = said(WHIST, {"type": "PlayStarted", "leader": 0}, {"hand_sizes": [13, 13, 13]})
SAID_THEIRS = said(WHIST, {"type": "PlayStarted", "leader": 1}, {"hand_sizes": [13, 13, 13]})

GAME_WORDS = """async ([asked, said, theirs]) => {
    const board = await import("/static/js/board.js");
    const i18n = await import("/static/js/i18n.js");
    const cards = await import("/static/js/cards.js");
    const name = (s) => (s === 0 ? i18n.t("you") : "Ann");
    return {
        lang: i18n.language(),
        prompt: asked.words.map((r) => i18n.reasonWords(r, name)).join(" "),
        mine: board.eventWords({said}, 0, name),
        theirs: board.eventWords({said: theirs}, 0, name),
        card: i18n.cardWords(cards.parseCard("QH")),
    };
}"""
"""The words the page gives, in the language it loaded, of what the server sends (a prompt, a line of the log) and
of a card."""


def test_the_lobby_switched_to_german_shows_german_words_and_the_games_speak_german_too(
    web: ThreadServer, browser: Any
) -> None:
    german = Words("de")
    play_now = german.get("Play now")
    assert play_now != "Play now" and german.get(LEAD, "whist.ask_lead_any") != LEAD, (
        "the German catalog lacks the words tested"
    )
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        page.goto(web.base + "/")
        page.locator("#open-title").wait_for()
        assert page.locator("form.quick button.play").first.inner_text() == "Play now"
        english = page.evaluate(GAME_WORDS, [ASKED, SAID, SAID_THEIRS])
        assert english["lang"] == "en" and english["prompt"] == LEAD and english["card"] == "queen of hearts"

        page.get_by_label("Language").select_option("de")  # the page is shown again, in German
        page.wait_for_function(
            "(words) => document.documentElement.lang === 'de'"
            " && document.querySelector('form.quick button.play')?.textContent === words",
            arg=play_now,
        )
        assert page.evaluate("() => JSON.parse(localStorage.getItem('clubs.lang'))") == "de"
        assert page.locator("select.lang-switch").input_value() == "de"
        rules = page.get_by_role("link", name=german.get("How to play"), exact=True)
        assert rules.get_attribute("href") == "/rules?lang=de"
        assert page.locator("#open-title").inner_text() == german.get("Open tables")

        shown = page.evaluate(GAME_WORDS, [ASKED, SAID, SAID_THEIRS])
        assert shown["lang"] == "de"
        assert shown["prompt"] == german.get(LEAD, "whist.ask_lead_any") and shown["prompt"] != english["prompt"]
        assert shown["mine"] == german.get("You lead.", "said.leads_you") and shown["mine"] != english["mine"]
        assert shown["theirs"] == german.get("{seat} leads.", "said.leads").replace("{seat}", "Ann")
        card = german.get("{rank} of {suit}", context="card")
        rank, suit = german.get("queen", context="rank"), german.get("hearts", context="suit.card")
        assert shown["card"] == card.replace("{rank}", rank).replace("{suit}", suit) == "Herz Dame"
        assert errors == []
    finally:
        context.close()


FRENCH_SUITS = ("de trèfle", "de carreau", "de cœur", "de pique")
"""How a card's French name ends ("dame de cœur"): its suit, as the catalog names it in a card's name."""
GOLDEN = Path(__file__).parent.parent / "golden"
LABELS = "(els) => els.map((e) => e.getAttribute('aria-label'))"
"""The accessible names of the elements found."""


def _french_page(browser: Any, init: str = "") -> tuple[Any, Any, list[str]]:
    """A page that speaks French from its first drawing (the choice stored before the page loads)."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.add_init_script("localStorage.setItem('clubs.lang', 'fr');" + init)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return context, page, errors


def test_a_seated_table_page_in_french_words_its_bar_its_status_and_the_cards_of_the_hand_in_french(
    web: ThreadServer, browser: Any
) -> None:
    french = Words("fr")
    assert french.get("Settings") != "Settings" and french.get("your cards") != "your cards"
    table, tokens = seated(web, "whist")
    seat = json.dumps({"token": tokens[0], "seat": 0})
    context, page, errors = _french_page(browser, f"localStorage.setItem('clubs.seat.{table}', {json.dumps(seat)});")
    try:
        page.goto(f"{web.base}/table/{table}")
        page.locator(".my-area .hand button.card").first.wait_for()
        assert page.evaluate("() => document.documentElement.lang") == "fr"
        assert page.title() == french.get("Clubs: a table") != "Clubs: a table"
        bar = page.locator("header.bar")
        assert bar.locator(".settings summary").inner_text().strip() == french.get("Settings")
        assert bar.locator(".rules-link").inner_text().strip() == french.get("How to play")
        assert bar.locator("select.lang-switch").input_value() == "fr"
        conn = bar.locator(".conn").inner_text()
        assert conn in (french.get("connected"), french.get("reconnecting\u2026")) and conn != "connected"
        hand_no = french.get("hand {number}").replace("{number}", "1")
        assert bar.locator(".muted").first.inner_text() == hand_no != "hand 1"
        assert page.locator(".my-area").get_attribute("aria-label") == french.get("your cards")
        assert page.locator("#turn").inner_text().strip() != ""
        # every card of the hand is named in French, for a screen reader
        names = page.locator(".my-area .hand button.card").evaluate_all(LABELS)
        assert len(names) == 13
        assert all(any(name.endswith(suit) for suit in FRENCH_SUITS) for name in names), names
        assert not any(" of " in name for name in names), names
        hand = page.locator(".my-area .hand").get_attribute("aria-label")
        assert hand == french.plural("your hand, {n} card", "your hand, {n} cards", 13).replace("{n}", "13")
        assert errors == []
    finally:
        context.close()


def test_the_replay_viewer_speaks_french_its_steps_its_bar_and_its_cards(web: ThreadServer, browser: Any) -> None:
    french = Words("fr")
    context, page, errors = _french_page(browser)
    try:
        page.goto(f"{web.base}/replay")
        page.get_by_label(french.get("Record file")).wait_for()  # the chooser, in French
        assert page.title() == french.get("Clubs: replay") != "Clubs: replay"
        assert page.locator("header.bar h1").inner_text() == french.get("Replay a record")
        assert page.locator("header.bar select.lang-switch").input_value() == "fr"
        page.get_by_label(french.get("Record file")).set_input_files(str(GOLDEN / "whist-1997-explicit.record.json"))
        page.locator(".replay-controls").wait_for()
        step = french.get("Step {step} of {steps} \u00b7 hand {number}").split("{step}")[0]
        assert page.locator(".step-count").inner_text().startswith(step) and step.strip()
        forward = page.get_by_role("button", name=french.get("step forward"), exact=True)
        assert forward.inner_text() == french.get("Forward \u25b6") != "Forward \u25b6"
        forward.click()
        assert page.locator(".hidden-piles h2").first.inner_text() == french.get("Bid hand")
        cards = page.locator(".felt .seat [data-card]").evaluate_all(LABELS)
        assert cards and all(any(name.endswith(suit) for suit in FRENCH_SUITS) for name in cards), cards
        assert page.get_by_role("link", name=french.get("Open another record")).count() == 1
        assert errors == []
    finally:
        context.close()


def _dutch_name(words: Words, table: dict[str, Any]) -> str:
    """A table's name as the Dutch catalog words its parts (``name_words``), made here independently of the page."""
    parts = table["name_words"]
    title = words.get(parts["title"], "words")
    head = words.get("{host}'s {title}").replace("{host}", parts["host"]).replace("{title}", title)
    out = [head, words.plural("{n} player", "{n} players", parts["players"]).replace("{n}", str(parts["players"]))]
    for rule in parts["rules"]:
        if rule.get("one"):  # words with a plural (to 1 point, to 90 points): the catalog's form for the number
            text = words.plural(rule["one"], rule["words"], int(rule["value"]), "words")
        else:
            text = words.get(rule["words"], "words")
        out.append(text if rule["value"] is None else text.replace("{}", rule["value"]))
    return ", ".join(out)


def test_the_lobby_names_tables_and_words_the_games_options_in_the_readers_language(
    web: ThreadServer, browser: Any
) -> None:
    dutch = Words("nl")
    assert dutch.get("Wild 15s", "words") != "Wild 15s", "the Dutch catalog lacks the words tested"
    seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "normal"}] * 3
    hosted = new_table(web.base, "northstar(players=4,wild_fifteens=true,target=90)", seats)
    post(web.base, f"/tables/{hosted['id']}/join", {"name": "Ann"})
    unhosted = new_table(web.base, "whist-1997", [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 2)
    listed = {t["id"]: t for t in get(web.base, "/tables")}
    english_names = {listed[hosted["id"]]["name"], listed[unhosted["id"]]["name"]}
    assert english_names == {
        "Ann's CLUBS, 4 players, wild 15s, to 90 points",
        "A Whist Clubs table, lead: left of the last to exchange",
    }

    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    try:  # in English the page words the parts exactly as the server names the table
        page.goto(web.base + "/")
        page.locator(".table-card h3").nth(1).wait_for()
        assert set(page.locator(".table-card h3").all_inner_texts()) == english_names
    finally:
        context.close()

    context = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900})  # Dutch from the browser
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(web.base + "/")
        card = page.locator(f'.table-card[data-table="{hosted["id"]}"]')
        card.locator("h3").wait_for()
        assert card.locator("h3").inner_text() == _dutch_name(dutch, listed[hosted["id"]])
        assert dutch.get("wild 15s", "words") in card.locator(".fact.wide dd").inner_text()
        bot = dutch.get("normal bot")
        assert any(chip.endswith(f", {bot}") for chip in card.locator(".seat-chips li").all_inner_texts()), bot
        # the form to make a table: the games, their variants and options in Dutch
        page.locator("#game").select_option("northstar")
        partnership = dutch.get("Partnership Clubs", "words")
        assert partnership != "Partnership Clubs" and partnership in page.locator("#game").inner_text()
        assert (
            dutch.get("a climbing game for 2 to 6 players, alone or in teams", "words")
            == page.locator("#game-about").inner_text()
        )
        label = page.locator('label[for="opt-wild_fifteens"]').inner_text()
        assert label.startswith(dutch.get("Wild 15s", "words")) and "Wild 15s" not in label
        assert dutch.get("The 2013 edition", "words") in page.locator("#variant").inner_text()
        assert dutch.get("Bot: hard", "words") in page.locator("#seat-1").inner_text()
        assert errors == []
    finally:
        context.close()
