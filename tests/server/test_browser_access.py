"""Accessibility of the browser pages, in a real Chromium (pytest-playwright driving Debian's package).

axe-core (bundled by ``axe-playwright-python``) finds no violation of impact "serious" or "critical" on the lobby, on
the table of every game at a moment where it is the viewer's turn with cards in hand (as drawn; with the settings
open; in the screen-reader mode with the four-colour deck; on a phone with each drawer open) and on the replay viewer
of a finished match, at 1280 and 390 px; on a seated player's hand account, end-of-match dialog and score details;
on the leaderboard and club-night pages; on the lobby with its options unfolded; on every game's rules page (each
language once), and on every state of the guided first hand (the coach's opening, a step with its choice marked,
the "why?" open, the coach folded, the hand's account). No rule is switched off. Then the screen-reader mode and the
four-colour deck: a live region says a bot's play in words, the cards of the hand are buttons named in words ("queen of
hearts"), a move typed in notation is played (and an illegal one refused with the server's words), and the
four-colour deck draws clubs green, survives a reload and reaches the replay viewer.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browserkit import (
    Watched,
    decide,
    keep_errors,
    last_message,
    offered,
    perform,
    resize,
    seeded_table,
    wait_for,
    watch,
)
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer, new_table

import loopback
from clubsuite.engine import resolve
from clubsuite.server.table import seating
from clubsuite.server.table.live import start_match

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
WIDTHS = {"1280": DESKTOP, "390": PHONE}
GAMES = {"whist": 3, "free": 3, "partnership": 4, "northstar": 4}
"""Every game, with its number of seats (North Star's CLUBS at its default of four)."""

BLOCKING = ("serious", "critical")
AXE = Axe()


# -- helpers --------------------------------------------------------------------------------------------------------
AXE_RUN = "() => axe.run(document, {resultTypes: ['violations']})"
"""axe-core's whole check of the page as it is now (what ``Axe.run`` asks for), its violations only."""


def assert_accessible(page: Any, where: str) -> None:
    """axe-core finds no serious or critical violation on ``page`` as it is now (every rule axe runs by default).
    axe-core's script (half a megabyte) is put into the page once, where it is not there yet, not at every check."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(AXE.axe_script)
    violations = page.evaluate(AXE_RUN)["violations"]
    found = [v for v in violations if v["impact"] in BLOCKING]
    lines = [
        f"{v['id']} ({v['impact']}): {v['help']}; at {', '.join(str(n['target']) for n in v['nodes'][:6])}"
        for v in found
    ]
    assert not found, f"{where}: {len(found)} serious or critical violations:\n" + "\n".join(lines)


def new_page(browser: Any, viewport: dict[str, int], storage: dict[str, Any] | None = None) -> Any:
    """A page in a browser context of its own; ``storage``: preferences set before the page loads (``clubs.KEY``);
    any script error is kept in ``page.errors``."""
    ctx = browser.new_context(viewport=viewport)
    if storage:
        lines = "".join(f"localStorage.setItem('clubs.{k}', {json.dumps(json.dumps(v))});" for k, v in storage.items())
        ctx.add_init_script(f"(() => {{ {lines} }})();")
    page = ctx.new_page()
    return keep_errors(page)


def sit(browser: Any, base: str, table: str, viewport: dict[str, int] = DESKTOP, **storage: Any) -> Watched:
    """Ann's page at ``table``: she takes the first free seat."""
    page = new_page(browser, viewport, storage)
    page.goto(f"{base}/table/{table}")
    page.get_by_label("Your name").fill("Ann")
    watched = watch(page, None)
    page.get_by_role("button", name="Take the seat").click()
    wait_for(lambda: any(m["type"] == "welcome" for m in watched.received), 20, "Ann got no welcome", page)
    watched.seat = next(m["seat"] for m in watched.received if m["type"] == "welcome")
    page.wait_for_selector(".my-area")
    return watched


def person_and_bots(n: int) -> list[dict[str, Any]]:
    return [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * (n - 1)


def my_turn_with_cards(w: Watched) -> None:
    """Wait until the page offers its seat a decision, with cards in its hand."""
    wait_for(lambda: offered(w), 30, "Ann was never to act", w.page)
    assert w.page.locator(".my-area > .hand button.card").count() > 0


def hand_cards(w: Watched) -> list[str]:
    cards: list[str] = w.page.locator(".my-area > .hand button.card").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.card)"
    )
    return cards


RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def words(card: str) -> str:
    """A standard card in words, as a screen reader should say it: "QH" -> "queen of hearts"."""
    return f"{RANKS.get(card[:-1], card[:-1])} of {SUITS[card[-1]]}"


def finished_match(web: ThreadServer) -> str:
    """A table whose first match bots have played to its end (a short whist match): its id."""
    table = seeded_table(web, "whist(target=1)", [{"kind": "bot", "bot": "random"}] * 3, seed=3, bot_delay=0.0)
    deadline = time.monotonic() + 120
    while loopback.get(f"{web.base}/tables/{table}/replay?match=0", timeout=30).status_code != 200:
        assert time.monotonic() < deadline, "the bots never finished their match"
        time.sleep(0.1)
    return table


def colour(page: Any, selector: str) -> str | None:
    """The fill of the first card face's text under ``selector`` (None when there is no such card)."""
    found: str | None = page.evaluate(
        "(sel) => { const t = document.querySelector(sel); return t ? getComputedStyle(t).fill : null; }",
        f"{selector} .card-face text",
    )
    return found


# -- axe on every page --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_the_lobby_has_no_serious_accessibility_violation(web: ThreadServer, browser: Any, width: str) -> None:
    new_table(web.base, "northstar(players=2)", [{"kind": "person"}, {"kind": "bot"}])  # an open table listed
    page = new_page(browser, WIDTHS[width])
    page.goto(web.base + "/")
    page.locator(".table-card").first.wait_for()
    page.locator(".game-tile").first.wait_for()
    assert_accessible(page, f"the lobby at {width} px")
    page.locator("#more-options summary").click()  # the house rules unfolded, and the research bots listed
    page.locator("#more-bots").check()
    assert_accessible(page, f"the lobby at {width} px, its options unfolded and more bots listed")
    assert page.errors == []


@pytest.mark.parametrize(
    ("game", "lang"), [("whist", "de"), ("free", "fr"), ("northstar", "nl"), ("partnership", "en")]
)
def test_the_rules_page_of_every_game_in_every_language_has_no_serious_accessibility_violation(
    web: ThreadServer, browser: Any, game: str, lang: str
) -> None:
    page = new_page(browser, PHONE if lang in ("de", "nl") else DESKTOP)
    page.goto(f"{web.base}/rules/{game}?lang={lang}")
    page.locator("main h1").first.wait_for()
    assert_accessible(page, f"the {lang} rules of {game}")
    assert page.errors == []


@pytest.mark.parametrize(("width", "lang"), [("390", "de"), ("1280", "fr")])
def test_every_state_of_the_guided_first_hand_has_no_serious_accessibility_violation(
    web: ThreadServer, browser: Any, monkeypatch: pytest.MonkeyPatch, width: str, lang: str
) -> None:
    """The coach's opening, a step of the scripted hand (its choice marked at the table), the "why?" open beside
    it, the coach folded, and the hand's account once the hand is scored."""
    monkeypatch.setattr(seating, "TUTORIAL_PACE", 0.0)
    page = new_page(browser, WIDTHS[width], {"lang": lang})
    w = watch(page, 0)
    page.goto(web.base + "/")
    page.locator("#quick-name").fill("Ann")
    page.locator('.game-tile[data-game="whist"] button.learn').click()
    page.locator(".coach .coach-intro").wait_for()
    assert_accessible(page, f"the guided first hand's opening ({lang}, {width} px)")
    page.locator('[data-action="coach-intro-done"]').click()
    page.locator(".coach .coach-lesson").wait_for()
    page.locator(".pointed").first.wait_for()
    assert_accessible(page, f"a step of the scripted hand ({lang}, {width} px)")
    page.locator('[data-action="why"]').click()
    page.locator(".notes").wait_for()
    assert_accessible(page, f"a step with its why open ({lang}, {width} px)")
    page.locator('[data-action="coach-fold"]').click()
    assert_accessible(page, f"the coach folded ({lang}, {width} px)")
    rng = random.Random(3)
    while not page.locator('[data-action="close-summary"]').count():
        wait_for(lambda: offered(w) or page.locator('[data-action="close-summary"]').count() > 0, 60, "stalled", page)
        if offered(w):
            step = last_message(w).get("lesson")
            perform(w, step["action"], "whist") if step and step["step"] else decide(w, rng, "whist")
    page.locator('[data-action="close-summary"]').wait_for()
    assert_accessible(page, f"the hand's account over the table ({lang}, {width} px)")
    assert page.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hands_account_the_score_details_and_the_end_of_match_dialog_have_no_serious_accessibility_violation(
    web: ThreadServer, browser: Any, width: str
) -> None:
    """A short match played by Ann to its end: the hand's account over the table, the end-of-match dialog (places,
    points, Rematch, New opponents, Lobby) and the score's details in their dialog."""
    table = seeded_table(web, "whist(target=1)", person_and_bots(3), seed=3, bot_delay=0.0)
    ann = sit(browser, web.base, table, WIDTHS[width])
    page = ann.page
    rng = random.Random(5)
    summary_checked = False
    while not page.locator('[data-action="close-result"]').count():
        boxes = page.locator('[data-action="close-result"], [data-action="close-summary"]')
        wait_for(lambda: offered(ann) or boxes.count() > 0, 60, "the match stalled", page)  # noqa: B023
        if page.locator('[data-action="close-summary"]').count():
            if not summary_checked:
                assert_accessible(page, f"the hand's account at {width} px")
                summary_checked = True
            page.locator('[data-action="close-summary"]').click()
        elif offered(ann):
            decide(ann, rng, "whist")
    assert_accessible(page, f"the end-of-match dialog at {width} px")
    page.locator('[data-action="close-result"]').click()
    if WIDTHS[width] is PHONE:
        page.locator('[data-action="drawer-scores"]').click()
    details = page.locator('[data-action^="hand-details-"]').first
    details.click()
    page.locator('[data-action="close-details"]').wait_for()
    assert_accessible(page, f"the score's details at {width} px")
    assert page.errors == []


@pytest.mark.parametrize("path", ["/leaderboard", "/clubnight"])
def test_the_leaderboard_and_the_club_night_pages_have_no_serious_accessibility_violation(
    web: ThreadServer, browser: Any, path: str
) -> None:
    page = new_page(browser, PHONE)
    page.goto(web.base + path)
    page.locator("main").first.wait_for()
    page.wait_for_load_state("networkidle")
    assert_accessible(page, f"the page {path}")
    assert page.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_the_table_of_every_game_has_no_serious_accessibility_violation_at_every_width(
    web: ThreadServer, browser: Any, game: str
) -> None:
    """Each width in turn on one page, its window resized, its settings put back between the two."""
    table = seeded_table(web, game, person_and_bots(GAMES[game]), seed=11, bot_delay=0.0)
    ann = sit(browser, web.base, table, DESKTOP)
    page = ann.page
    my_turn_with_cards(ann)
    for turn, width in enumerate(WIDTHS):
        if turn:  # the settings as a new page has them: the screen-reader mode and four colours off
            page.locator(".settings summary").click()
            page.get_by_label("Screen reader mode").uncheck()
            page.get_by_label("Four-colour deck").uncheck()
            page.get_by_label("Type an action in notation").wait_for(state="hidden")  # folded away again
            page.locator(".settings summary").click()
        resize(page, WIDTHS[width])
        table_accessible(page, game, width)
    assert page.errors == []


def table_accessible(page: Any, game: str, width: str) -> None:
    """axe on the table of ``game`` at ``width`` px with Ann to act: as it is, its settings open, with the
    screen-reader mode and four colours on, and on a phone each drawer open."""
    assert_accessible(page, f"{game}'s table at {width} px, Ann to act")
    page.locator(".settings summary").click()
    assert_accessible(page, f"{game}'s table at {width} px, the settings open")
    page.get_by_label("Screen reader mode").check()
    page.get_by_label("Four-colour deck").check()
    page.get_by_label("Type an action in notation").wait_for()
    assert_accessible(page, f"{game}'s table at {width} px, the screen-reader mode and four colours on")
    page.locator(".settings summary").click()
    if WIDTHS[width] is PHONE:
        for drawer in ("scores", "log", "chat", "facts"):
            page.locator(f'[data-action="drawer-{drawer}"]').click()
            page.locator(f'.drawer[data-drawer="{drawer}"]').wait_for()
            assert_accessible(page, f"{game}'s table at {width} px, the {drawer} drawer open")


@pytest.fixture(scope="module")
def finished(web: ThreadServer) -> str:
    """A table whose first match bots played to its end (:func:`finished_match`), made once for the tests that only
    watch it or replay it."""
    return finished_match(web)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_finished_match_watched_has_no_serious_accessibility_violation(
    web: ThreadServer, browser: Any, finished: str, width: str
) -> None:
    # the result box open over the table, and a play log long enough to scroll (the keyboard must reach it)
    table = finished
    page = new_page(browser, WIDTHS[width])
    page.goto(f"{web.base}/table/{table}?watch=1")
    page.locator(".match-summary").wait_for()
    wait_for(lambda: page.locator(".log li").count() > 20, 20, "the log did not fill", page)
    assert_accessible(page, f"a finished match watched at {width} px")
    if WIDTHS[width] is PHONE:
        page.get_by_role("button", name="close the result").click()
        page.get_by_role("button", name="Play log").click()
        assert_accessible(page, f"a finished match watched at {width} px, the log open")
    assert page.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_replay_of_a_finished_match_has_no_serious_accessibility_violation(
    web: ThreadServer, browser: Any, finished: str, width: str
) -> None:
    table = finished
    page = new_page(browser, WIDTHS[width])
    page.goto(f"{web.base}/replay?table={table}&match=0")
    page.locator(".step-count").wait_for()
    assert_accessible(page, f"the replay at {width} px, its first step")
    page.get_by_role("button", name="step forward").click()
    assert_accessible(page, f"the replay at {width} px, its second step")
    page.keyboard.press("End")
    wait_for(lambda: page.get_by_role("button", name="last step").is_disabled(), 10, "End did not go last", page)
    assert_accessible(page, f"the replay at {width} px, its last step")
    assert page.errors == []


# -- the screen-reader mode -----------------------------------------------------------------------------------------
def test_cards_are_named_in_words_and_a_live_region_says_a_bots_play(web: ThreadServer, browser: Any) -> None:
    table = seeded_table(web, "whist", person_and_bots(3), seed=5, bot_delay=0.0)
    ann = sit(browser, web.base, table)
    page = ann.page
    my_turn_with_cards(ann)
    # every card of the hand is a button named in words
    for card in hand_cards(ann):
        button = page.get_by_role("button", name=words(card), exact=True)
        assert button.count() == 1, f"no button named {words(card)!r} for {card}"
        assert button.get_attribute("data-card") == card
    named = page.evaluate(
        """async () => {
            const {cardName, parseCard, spokenCards} = await import('/static/js/cards.js');
            return [cardName(parseCard('QH')), cardName(parseCard('JK1')), cardName(parseCard('15S=7')),
                    spokenCards('Ann plays Q\\u2665.'), spokenCards('Play 15\\u2660 as 7 10\\u2663')];
        }"""
    )
    assert named == [
        "queen of hearts",
        "Joker 1",
        "wild 15 of spades as 7",
        "Ann plays queen of hearts.",
        "Play 15 of spades as 7 10 of clubs",
    ]
    # the live region is one polite region for the life of the page; each event comes in words
    region = page.locator("#announcer")
    assert region.get_attribute("aria-live") == "polite"
    seats = next(m for m in ann.received if m["type"] == "state")["table"]["seats"]
    names = {s: info["name"] for s, info in enumerate(seats)}
    rng = random.Random(2)

    def bot_plays() -> list[str]:
        return [
            f"{names[ev['seat']]} plays {words(ev['card'])}."
            for m in list(ann.received)
            if m["type"] == "update"
            for ev in m["events"]
            if ev["type"] == "CardPlayed" and ev["seat"] != ann.seat
        ]

    for _ in range(60):
        if bot_plays():
            break
        wait_for(lambda: offered(ann) or bool(bot_plays()), 30, "nobody played", page)
        if not bot_plays():
            decide(ann, rng, "whist")
    said = bot_plays()[0]
    wait_for(lambda: said in (region.text_content() or ""), 20, f"the live region never said {said!r}", page)
    assert page.locator("#announcer").count() == 1
    assert not re.search("[\u2663\u2666\u2665\u2660]", region.text_content() or "")  # words, not symbols
    assert page.errors == []


def test_a_move_typed_in_notation_is_played_and_an_illegal_one_refused(web: ThreadServer, browser: Any) -> None:
    table = seeded_table(web, "whist", person_and_bots(3), seed=5, bot_delay=0.0)
    ann = sit(browser, web.base, table, screenReader=True)
    page = ann.page
    field = page.get_by_label("Type an action in notation")
    field.wait_for()  # shown in the screen-reader mode, whoever is to act
    # the words of the game are typed like the cards: keep (or exchange) the hand until a card is to be played
    for _ in range(10):
        my_turn_with_cards(ann)
        legal = last_message(ann)["legal"]
        if not any(a in legal for a in ("keep", "exchange")):
            break
        version = ann.version
        field.fill("keep" if "keep" in legal else "exchange")
        field.press("Enter")
        wait_for(lambda v=version: ann.version != v, 20, "the typed word was not taken", page)
    legal = last_message(ann)["legal"]
    hand = hand_cards(ann)
    # an illegal card: refused with the server's words, the table unchanged, the text kept in the focused field
    wrong = next((c for c in hand if c not in legal), None) or next(
        c for c in (f"{r}{s}" for s in "CDHS" for r in "AKQJ") if c not in hand
    )
    version = ann.version
    field.fill(wrong)
    field.press("Enter")
    alert = page.get_by_role("alert")
    alert.wait_for()
    refusal = next(m for m in ann.received if m["type"] == "error")
    shown = alert.inner_text()
    assert shown.strip(), "an empty refusal"
    assert set(re.findall(r"[a-z]{4,}", refusal["message"].lower())) & set(re.findall(r"[a-z]{4,}", shown.lower()))
    assert ann.version == version and offered(ann)
    assert field.input_value() == wrong
    assert page.evaluate("() => document.activeElement.id") == "typed"
    # a legal card, typed in lower case: played
    card = legal[0]
    field.fill(card.lower())
    field.press("Enter")
    wait_for(lambda: ann.version != version, 20, "the typed card was not played", page)
    played = [
        ev["card"]
        for m in ann.received
        if m["type"] == "update"
        for ev in m["events"]
        if ev["type"] == "CardPlayed" and ev["seat"] == ann.seat
    ]
    assert played[:1] == [card]
    wait_for(lambda: field.input_value() == "", 10, "the field kept the move played", page)
    # the mode is a setting, remembered
    page.locator(".settings summary").click()
    assert page.get_by_label("Screen reader mode").is_checked()
    page.reload()
    page.wait_for_selector(".my-area")
    page.get_by_label("Type an action in notation").wait_for()
    assert page.errors == []


def test_the_keyboard_reaches_every_card_of_the_hand_in_the_screen_reader_mode(web: ThreadServer, browser: Any) -> None:
    table = seeded_table(web, "whist", person_and_bots(3), seed=5, bot_delay=0.0)
    ann = sit(browser, web.base, table, screenReader=True)
    page = ann.page
    my_turn_with_cards(ann)
    first = page.locator(".my-area > .hand button.card").first
    first.focus()
    reached = []
    for _ in range(len(hand_cards(ann))):
        reached.append(page.evaluate("() => document.activeElement.dataset.card"))
        page.keyboard.press("ArrowRight")
    assert reached == hand_cards(ann)  # the cards not to play now too (marked aria-disabled, not disabled)
    assert page.locator(".my-area > .hand button.card[disabled]").count() == 0


# -- the four-colour deck -------------------------------------------------------------------------------------------
def seed_with_clubs_and_diamonds() -> int:
    """A seed whose first whist deal gives seat 0 a club and a diamond."""
    info, options = resolve("whist")
    for seed in range(200):
        match, _ = start_match(info, options, 0, seed)
        hand = str(match.view(0).to_dict()["hand"]).split()
        if any(c.endswith("C") for c in hand) and any(c.endswith("D") for c in hand):
            return seed
    raise AssertionError("no seed gives seat 0 a club and a diamond")


GREEN, BLUE, RED, BLACK = "rgb(18, 120, 43)", "rgb(20, 86, 184)", "rgb(200, 16, 46)", "rgb(27, 27, 27)"


def test_the_four_colour_deck_draws_clubs_green_and_survives_a_reload(web: ThreadServer, browser: Any) -> None:
    table = seeded_table(web, "whist", person_and_bots(3), seed=seed_with_clubs_and_diamonds(), bot_delay=0.0)
    ann = sit(browser, web.base, table)
    page = ann.page
    club, diamond = ".my-area .hand .card.suit-C", ".my-area .hand .card.suit-D"
    assert (colour(page, club), colour(page, diamond)) == (BLACK, RED)
    page.locator(".settings summary").click()
    page.get_by_label("Four-colour deck").check()
    assert (colour(page, club), colour(page, diamond)) == (GREEN, BLUE)
    assert colour(page, ".my-area .hand .card.suit-S") in (BLACK, None)
    assert colour(page, ".my-area .hand .card.suit-H") in (RED, None)
    page.reload()
    page.wait_for_selector(".my-area .hand .card")
    assert (colour(page, club), colour(page, diamond)) == (GREEN, BLUE)
    page.locator(".settings summary").click()
    assert page.get_by_label("Four-colour deck").is_checked()
    # the replay viewer reads the same setting
    page.goto(web.base + "/replay")
    page.get_by_label("Record file").wait_for()
    assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
    assert page.get_by_label("Four-colour deck").is_checked()
    assert page.errors == []
