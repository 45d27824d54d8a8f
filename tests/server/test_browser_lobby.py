"""The lobby in a real Chromium (pytest-playwright driving Debian's package): "Play now" seats you at a table, the
open tables are listed in words (name, host, game, rules, free seats, spectators) and filtered by game, the list
refreshes without taking the focus away, every label says its default with the ruling behind a "why?", and a value
out of range is named with its range, never silently refused (issue 26, bug 8a: a bot delay of 0.15)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import wait_for
from serverkit import Client, ThreadServer, get, new_table, post

from clubsuite.i18n import LANGUAGES, Words
from clubsuite.server.store.database import Store
from timeouts import PAGE_TIMEOUT_MS

RULING = re.compile(r"\b[A-Z]{2}-\d+\b")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(tmp_path)) as running:
        yield running


REFRESH_MS = 5000
"""How often the lobby reads the open tables and the count of people playing again (``lobby.js``)."""


@pytest.fixture(scope="module")
def tableless_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the module's tests that make no table, each of which checks that the server has none after it
    (so, shared, that none of them made one)."""
    with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("tableless"))) as running:
        yield running


def lobby(browser: Any, base: str, width: int = 1280, lang: str | None = None, clock: bool = False) -> Any:
    """A new browser (its own storage) on the lobby, which fails the test on any script error; ``lang``: the
    language chosen before the page loads; ``clock``: the page's clock is one the test can run on
    (:func:`refreshed`), flowing as usual until it does."""
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    if clock:
        ctx.clock.install()
    if lang:
        ctx.add_init_script(f"localStorage.setItem('clubs.lang', '\"{lang}\"');")
    page = ctx.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(base + "/")
    page.locator("#open-title").wait_for()
    return page


def refreshed(page: Any, check: Callable[[], bool], what: str, tries: int = 6) -> None:
    """Wait until ``check`` holds after the lobby's next refresh: the page's clock (installed by :func:`lobby`) is
    run on to its next refresh, and the page's answer waited for; again, a refresh at a time, where the server had not
    yet seen the change when the page asked (``tries`` refreshes at most, each waited for up to 5 s)."""
    for _ in range(tries):
        page.clock.fast_forward(REFRESH_MS)
        try:
            wait_for(check, 5, what, page)
        except AssertionError:
            continue
        return
    raise AssertionError(what)


def card(page: Any, table: str) -> Any:
    """The open tables' card of ``table``."""
    return page.locator(f'.table-card[data-table="{table}"]')


def fact(page: Any, table: str, term: str) -> str:
    """What a table's card says for ``term`` (Host, Game, ...)."""
    return str(card(page, table).locator(".fact", has=page.locator("dt", has_text=term)).locator("dd").inner_text())


def test_play_now_seats_you_at_a_new_table_with_bots_whose_page_shows_your_seat(
    web: ThreadServer, browser: Any
) -> None:
    page = lobby(browser, web.base, width=390)
    page.get_by_label("Your name").first.fill("Ann")
    page.locator('.game-tile[data-game="free"]').get_by_role("button", name="Play now").click()
    page.wait_for_url("**/table/*")
    page.locator(".my-area").wait_for()
    assert page.locator(".seat.mine .seat-name").inner_text() == "Ann"
    table = page.url.rsplit("/", 1)[1]
    info = get(web.base, f"/tables/{table}")
    assert info["game"] == "free" and [s["kind"] for s in info["seats"]] == ["person", "bot", "bot"]
    assert info["name"] == "Ann's Free Clubs" and not info["waiting"]
    assert page.errors == []  # type: ignore[attr-defined]


ONE_ROW = """() => {
  // how far apart the vertical middles of the bar's parts that are seen lie (the page's name, read out only, is not)
  const bar = document.querySelector("header.bar");
  const shown = [...bar.children].filter((e) => e.getBoundingClientRect().width > 2);
  const middles = shown.map((e) => (e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2);
  return Math.max(...middles) - Math.min(...middles);
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_is_a_shop_window_a_tile_per_game_with_its_cards_play_and_learn_and_a_one_row_header(
    web: ThreadServer, browser: Any, lang: str
) -> None:
    words = Words(lang)
    page = lobby(browser, web.base, lang=lang, clock=True)
    assert page.evaluate(ONE_ROW) < 12, "the lobby's bar wraps at 1280 px"
    nobody = words.get("Nobody is playing right now: the bots are always ready.")
    wait_for(lambda: page.locator("#presence").inner_text() == nobody, 15, "no count of people playing", page)
    post(web.base, "/quickplay", {"game": "whist", "name": "Zoë"})  # someone sits down: the count follows
    one = words.plural("{n} person is playing now", "{n} people are playing now", 1).format(n=1)
    refreshed(page, lambda: page.locator("#presence").inner_text() == one, "the count did not follow")
    tiles = page.locator(".game-tile")
    listed = get(web.base, "/games")
    assert tiles.evaluate_all("(ts) => ts.map((t) => t.dataset.game)") == [g["name"] for g in listed]
    for g in listed:
        tile = page.locator(f'.game-tile[data-game="{g["name"]}"]')
        drawn = tile.locator(".tile-cards [data-card]").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
        assert drawn == g["showcase"] and 3 <= len(drawn) <= 5
        assert tile.locator("h3").inner_text() == words.get(g["label"], "words")
        assert tile.locator(".tile-about").inner_text() == words.get(g["summary"], "words")
        assert tile.get_by_role("button", name=words.get("Play now")).is_visible()
        assert tile.get_by_role("button", name=words.get("Learn to play")).is_visible()
    # what most tables leave alone is folded, and the seats offer the four levels only
    assert page.locator("#more-options").get_attribute("open") is None and not page.locator("#bot-delay").is_visible()
    assert len(page.locator("#seat-1 option").all_inner_texts()) == 6
    assert page.errors == []  # type: ignore[attr-defined]


def test_play_now_takes_the_free_seat_of_a_table_waiting_for_players(web: ThreadServer, browser: Any) -> None:
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    table = new_table(web.base, "whist", seats)["id"]
    post(web.base, f"/tables/{table}/join", {"name": "Ann"})
    page = lobby(browser, web.base)
    page.get_by_label("Your name").first.fill("Bob")
    page.locator('.game-tile[data-game="whist"]').get_by_role("button", name="Play now").click()
    page.wait_for_url(f"**/table/{table}")
    page.locator(".my-area").wait_for()
    assert page.locator(".seat.mine .seat-name").inner_text() == "Bob"
    assert [s["name"] for s in get(web.base, f"/tables/{table}")["seats"][:2]] == ["Ann", "Bob"]


def test_play_now_without_a_name_says_so_and_makes_nothing(tableless_web: ThreadServer, browser: Any) -> None:
    page = lobby(browser, tableless_web.base)
    page.get_by_role("button", name="Play now").first.click()
    alert = page.locator(".quick [role=alert]")
    wait_for(lambda: "Your name" in alert.inner_text(), 15, "no message for a missing name", page)
    assert page.locator("#quick-name").get_attribute("aria-invalid") == "true"
    assert get(tableless_web.base, "/tables") == []


def test_the_list_shows_each_table_in_words_with_its_host_game_rules_free_seats_and_spectators(
    web: ThreadServer, browser: Any
) -> None:
    seats = [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "easy"}]
    table = new_table(web.base, "northstar(wild_fifteens=true)", seats)["id"]
    post(web.base, f"/tables/{table}/join", {"name": "Ann"})
    watcher = Client(web.base, table)
    try:
        watcher.until(lambda m: m["type"] == "state")
        page = lobby(browser, web.base, width=360, clock=True)
        card(page, table).wait_for()
        assert card(page, table).locator("h3").inner_text() == "Ann's CLUBS, 4 players, wild 15s"
        assert fact(page, table, "Host") == "Ann" and fact(page, table, "Game") == "CLUBS"
        assert fact(page, table, "Rules") == "wild 15s" and fact(page, table, "Free seats") == "1"
        assert fact(page, table, "Spectators") == "1"
        chips = card(page, table).locator(".seat-chips li").all_inner_texts()
        assert chips[0] == "Ann" and chips[1] == "free seat" and len(chips) == 4
        assert all("bot" in c for c in chips[2:])  # "Ada, hard bot" (or the bot's name before personas)
        text = card(page, table).inner_text()
        assert "wild_fifteens" not in text and "northstar(" not in text and not RULING.search(text)
        assert card(page, table).get_by_role("link", name="Join (1 free)").count() == 1
        # the list refreshes (every 5 s) without taking the focus from the link in use
        watch = card(page, table).get_by_role("link", name="Watch")
        watch.focus()
        watcher.close()
        refreshed(page, lambda: fact(page, table, "Spectators") == "0", "the spectator gone was not shown")
        assert page.evaluate("() => document.activeElement.dataset.action") == "watch"
        assert page.evaluate("() => document.activeElement.closest('[data-table]').dataset.table") == table
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, f"the lobby is {width} px wide at 360 px"
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        watcher.close()


def test_the_open_tables_are_filtered_by_game(web: ThreadServer, browser: Any) -> None:
    whist = new_table(web.base, "whist")["id"]
    clubs = new_table(web.base, "northstar-duel")["id"]
    page = lobby(browser, web.base)
    card(page, whist).wait_for()
    card(page, clubs).wait_for()
    page.get_by_label("Show tables of").select_option("northstar")
    wait_for(lambda: card(page, whist).count() == 0, 15, "the whist table is still shown", page)
    assert card(page, clubs).count() == 1 and "1 table of 2 open tables" in page.locator("#table-count").inner_text()
    assert card(page, clubs).locator("h3").inner_text() == "A CLUBS table, 2 players"
    page.get_by_label("Show tables of").select_option("partnership")
    wait_for(lambda: card(page, clubs).count() == 0, 15, "the CLUBS table is still shown", page)
    assert "No open table of this game" in page.locator(".open-tables").inner_text()
    page.reload()  # the filter is remembered by the browser
    page.locator("#open-title").wait_for()
    assert page.get_by_label("Show tables of").input_value() == "partnership"
    page.get_by_label("Show tables of").select_option("")
    wait_for(lambda: page.locator(".table-card").count() == 2, 15, "every table is not shown again", page)


def test_a_bot_delay_of_0_15_makes_a_table(web: ThreadServer, browser: Any) -> None:
    """Bug 8a: the old input's step (0.1) made the browser refuse 0.15 silently; now any value in range goes."""
    page = lobby(browser, web.base)
    page.get_by_text("More options").click()  # the house rules are folded
    page.get_by_label("Seconds a bot waits before acting").fill("0.15")
    page.locator("#create-name").fill("Ann")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/", 1)[1]
    assert get(web.base, f"/tables/{table}")["settings"]["bot_delay"] == 0.15


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("#bot-delay", "20", "Seconds a bot waits before acting: give a number from 0 to 10"),
        ("#bot-delay", "-1", "Seconds a bot waits before acting: give a number from 0 to 10"),
        ("#grace", "", "Seconds before a bot plays for an absent player: give a number from 0 to 3600"),
        ("#clock", "2", "Seconds per decision: give a number from 5 to 3600, or leave it empty"),
        ("#opt-target", "0", "Points to win or lose: give a whole number from 1 to 1000"),
        ("#opt-target", "2.5", "Points to win or lose: give a whole number from 1 to 1000"),
    ],
)
def test_a_value_out_of_range_gets_a_message_naming_the_field_and_its_range(
    tableless_web: ThreadServer, browser: Any, field: str, value: str, words: str
) -> None:
    page = lobby(browser, tableless_web.base)
    page.locator("#create-name").fill("Ann")
    if field != "#opt-target":
        page.get_by_text("More options").click()  # the house rules are folded
    page.locator(field).fill(value)
    page.get_by_role("button", name="Create the table").click()
    alert = page.locator(".create [role=alert]")
    wait_for(lambda: alert.inner_text() != "", 15, "no message for a value out of range", page)
    assert alert.inner_text() == words
    assert page.locator(field).get_attribute("aria-invalid") == "true"
    assert page.evaluate("() => document.activeElement.id") == field[1:]
    assert page.url == tableless_web.base + "/" and get(tableless_web.base, "/tables") == []


def test_every_option_is_labelled_in_words_with_its_default_and_its_ruling_only_behind_why(
    tableless_web: ThreadServer, browser: Any
) -> None:
    page = lobby(browser, tableless_web.base)
    page.get_by_label("Game", exact=True).select_option("northstar")
    assert page.locator('label[for="opt-wild_fifteens"]').inner_text() == "Wild 15s (default: off)"
    assert page.locator('label[for="opt-teams"]').inner_text() == "Teams (default: no teams)"
    assert page.locator("#opt-teams option").all_inner_texts()[1] == "2 teams of 2, 4 players"
    variants = page.locator("#variant option").all_inner_texts()
    assert "Wild 15s" in variants and "Duel" in variants and not any("northstar" in v for v in variants)
    form = page.locator("form.create")
    assert not RULING.search(form.inner_text()) and "_" not in form.inner_text()
    page.get_by_role("button", name="Why: Wild 15s").click()
    note = page.locator("#why-wild_fifteens")
    assert note.is_visible() and "a 15 may stand for any value" in note.inner_text() and "NS-9" in note.inner_text()
    seat_choices = page.locator("#seat-1 option").all_inner_texts()
    levels = [c.split(",")[0] for c in seat_choices[:6]]
    assert levels == ["You", "A friend (invite)", "Bot: easy", "Bot: normal", "Bot: hard", "Bot: expert"]
    # a calibrated level shows its rating in the game's pool (bots/calibrated.json), "Bot: hard, 1731"
    assert re.fullmatch(r"Bot: normal, \d{3,4}", seat_choices[3])
    assert re.fullmatch(r"Bot: expert, \d{3,4}", seat_choices[5])  # every level calibrated, expert too
    assert len(seat_choices) == 6  # the four levels only: the research bots are listed when asked for
    page.get_by_label("More bots (for research: random moves, plain searches)").check()
    more = page.locator("#seat-1 option").all_inner_texts()
    assert more[:6] == seat_choices and any("random moves" in o for o in more[6:]), more
    page.locator("#seat-1").select_option("bot:random")
    page.get_by_label("More bots (for research: random moves, plain searches)").uncheck()
    assert page.locator("#seat-1").input_value() == "bot:random"  # a research bot chosen stays listed
    page.locator("#opt-teams").select_option("3x2")  # team play sets the players it needs, and the seats follow
    assert page.locator("#opt-players").input_value() == "6" and page.locator("[data-seat]").count() == 6
    page.locator("#opt-players").fill("5")
    page.locator("#opt-players").dispatch_event("change")
    assert page.locator("#opt-teams").input_value() == "none" and page.locator("[data-seat]").count() == 5
    page.get_by_label("Variant").select_option("northstar-teams")
    assert page.locator("#variant-about").inner_text() == "four players in two teams of two"
    assert page.locator("#opt-teams").input_value() == "2x2"
    assert page.errors == []  # type: ignore[attr-defined]
