"""The offline app as a player sees it, on a phone (390 x 844) and a laptop (1280 x 800), in every language: its
lobby, a table at the player's turn and a puzzle fit the screen's width, speak the reader's language, and axe-core
finds no serious or critical violation on any of them (every rule axe runs by default)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import built_app, static_site
from browserkit import keep_errors
from test_browser_access import assert_accessible

from clubsuite.i18n import LANGUAGES, Words
from timeouts import PAGE_TIMEOUT_MS

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def app_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with static_site(built_app(tmp_path_factory.mktemp("app"))) as base:
        yield base


def fits(page: Any) -> bool:
    """Whether the page is no wider than the window (nothing to scroll sideways)."""
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"))


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_apps_lobby_and_table_fit_the_screen_in_every_language_and_are_accessible(
    browser: Any, app_site: str, lang: str, screen: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=SCREENS[screen])
    context.add_init_script(f"localStorage.setItem('clubs.lang', {json.dumps(json.dumps(lang))});")
    try:
        page = keep_errors(context.new_page())
        page.goto(app_site)
        page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
        assert page.evaluate("() => document.documentElement.lang") == lang
        play = page.locator('li[data-game="partnership"] button.play')
        assert play.inner_text() == Words(lang).get("Play now")  # the reader's language, from its catalog
        assert fits(page), f"the lobby is wider than a {screen} in {lang}"
        assert_accessible(page, f"the app's lobby ({lang}, {screen})")
        play.click()
        page.wait_for_url("**/table.html?local=*")
        page.wait_for_selector(".my-area > .hand button.card", timeout=PAGE_TIMEOUT_MS * 2)
        assert fits(page), f"the table is wider than a {screen} in {lang}"
        assert_accessible(page, f"the app's table ({lang}, {screen})")
        assert page.locator('[data-action="drawer-chat"]').count() == 0  # nobody to chat with offline
        page.goto(app_site + "puzzle.html?pool=whist")  # a puzzle of the shipped set, judged in the page
        page.locator("#goal").wait_for(timeout=PAGE_TIMEOUT_MS * 2)
        assert fits(page), f"the puzzle is wider than a {screen} in {lang}"
        assert_accessible(page, f"the app's puzzle ({lang}, {screen})")
        assert page.errors == []
    finally:
        context.close()
