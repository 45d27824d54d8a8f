"""The offline app's puzzles in a real browser: the app built by ``clubs app build``, served by ``clubs serve`` at
``/app`` and by a plain static file server, opened once with a network until its service worker keeps every file,
then taken off the network (``context.set_offline(True)``) and reloaded: the server's puzzle page (``puzzle.html``,
over the rules in the page) lists every pool, shows a puzzle, judges a right answer right and a wrong one wrong with
what it gets (in the page's worker), and the player's rating, kept in the browser, has moved when the list is
opened again."""

from __future__ import annotations

import re
from typing import Any

from appkit import app_base as app_base  # where the app is served: both ways
from appkit import app_folder as app_folder
from browserkit import keep_errors
from test_browser_puzzles import click_action, worst

from clubsuite.puzzles.model import Puzzle
from clubsuite.puzzles.sets import shipped
from timeouts import PAGE_TIMEOUT_MS

WHIST = {p.id: p for p in shipped("whist")}
NEXT_SHOWN = "(id) => { const el = document.querySelector('.puzzle-page'); return !!el && el.dataset.puzzle != id; }"
"""Whether the page shows a puzzle other than ``id``."""


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def shown_puzzle(page: Any) -> Puzzle:
    """The whist puzzle the page shows (its id is on the page), from the shipped set: the test knows its answer."""
    page.locator("#goal").wait_for(timeout=PAGE_TIMEOUT_MS * 2)
    return WHIST[page.locator(".puzzle-page").get_attribute("data-puzzle")]


def test_a_puzzle_is_solved_offline_in_the_app_and_the_rating_kept_in_the_browser_moves(
    browser: Any, app_base: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    base = app_base
    try:
        page = keep_errors(context.new_page())
        page.goto(base)
        page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
        page.wait_for_function(
            "navigator.serviceWorker.ready.then((r) => r.active && r.active.state === 'activated')",
            timeout=PAGE_TIMEOUT_MS * 2,
        )
        page.goto(base + "puzzle.html")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=PAGE_TIMEOUT_MS * 2)
        context.set_offline(True)
        page.reload()
        pools = page.locator(".puzzle-pools li")
        pools.first.wait_for(timeout=PAGE_TIMEOUT_MS * 2)
        assert pools.count() == 6 and page.locator("#guest-note").count() == 0
        assert "1500?" in page.locator('.puzzle-pools li[data-pool="whist"]').inner_text()
        page.locator('.puzzle-pools li[data-pool="whist"] a').first.click()
        page.wait_for_url("**/puzzle.html?pool=whist*")
        p = shown_puzzle(page)
        assert re.search(rf"puzzle\.html\?pool=whist&id={p.id}$", page.url)  # a reload shows it again
        click_action(page, p.solution)
        page.locator("#verdict.right").wait_for(timeout=PAGE_TIMEOUT_MS * 2)
        moved = numbers(page.locator("#rating").inner_text())
        assert moved[0] == 1500 and moved[1] > 1500, moved  # a newcomer's first right answer, rated
        page.locator(".line").wait_for()
        page.locator('[data-action="next"]').click()
        page.wait_for_function(NEXT_SHOWN, arg=p.id)
        q = shown_puzzle(page)
        wrong = worst(q)
        click_action(page, wrong)
        verdict = page.locator("#verdict.wrong")
        verdict.wait_for(timeout=PAGE_TIMEOUT_MS * 2)
        if q.exact:
            assert int(q.values[wrong]) in numbers(verdict.inner_text()), verdict.inner_text()
        else:
            assert f"{round(q.values[wrong] * 100)}%" in verdict.inner_text(), verdict.inner_text()
        lowered = numbers(page.locator("#rating").inner_text())
        assert lowered[0] == moved[1] and lowered[1] < lowered[0], lowered
        page.goto(base + "puzzle.html")  # the list again, offline: the rating was kept in the browser
        pools.first.wait_for(timeout=PAGE_TIMEOUT_MS * 2)
        assert f"{lowered[1]}?" in page.locator('.puzzle-pools li[data-pool="whist"]').inner_text()
        assert page.errors == []
    finally:
        context.close()
