"""The offline app in a real browser: loaded once from ``clubs serve`` (at ``/app``) and once from ``clubs app
build``'s folder behind a plain static file server, then taken off the network (``context.set_offline(True)``) and
reloaded: every game's whole match is played against bots by clicking, its record downloaded and replayed exactly by
``clubs replay``; "Learn to play" is followed to the end of its guided hand. Everything runs in the page: Pyodide
and clubsuite's core in a Web Worker, every file from the service worker's cache."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from appkit import app_base as app_base  # where the app is served: both ways
from appkit import app_folder as app_folder
from browserkit import Watched, keep_errors, last_message, offered, perform, wait_for
from serverkit import ThreadServer

import loopback
from cli_helpers import clubs_in_process
from clubsuite.server.store.database import Store
from timeouts import PAGE_TIMEOUT_MS

GAMES = ("whist", "free", "northstar", "partnership")

CAPTURE = """() => {
  // every message a table's socket hands the page, as a WebSocket's frames are watched: the offline table's socket
  // dispatches them as message events carrying the table protocol's text
  const dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (event) {
    if (event instanceof MessageEvent && typeof event.data === "string" && "tableId" in this) {
      window.__clubsFrame(event.data);
    }
    return dispatch.call(this, event);
  };
}"""


def opened_offline(context: Any, base: str) -> tuple[Any, list[dict[str, Any]]]:
    """The app's first page, opened once online until its service worker keeps every file, then again offline; the
    page and the list every table message it is handed goes into."""
    received: list[dict[str, Any]] = []
    context.expose_function("__clubsFrame", lambda text: received.append(json.loads(text)))
    context.add_init_script(f"({CAPTURE})()")
    page = keep_errors(context.new_page())
    page.goto(base)
    page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=PAGE_TIMEOUT_MS * 2)
    page.wait_for_function(
        "navigator.serviceWorker.ready.then((r) => r.active && r.active.state === 'activated')",
        timeout=PAGE_TIMEOUT_MS * 2,
    )
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
    page.select_option("#app-pace", "0")  # the bots move at once: the test clicks for the person
    return page, received


def looked_at(page: Any) -> None:
    """From the end of a match: its replay stepped to its last step and its review of the person's decisions, both
    worked out in the page from the record kept in the browser; then the app's lobby."""
    at_table = page.url
    replay = page.locator("a[href^='replay.html?table=']").get_attribute("href")
    review = page.locator("a.review-link").get_attribute("href")
    page.goto(urljoin(at_table, replay))
    page.wait_for_selector(".replay-controls", timeout=PAGE_TIMEOUT_MS * 2)
    page.get_by_role("button", name="last step").click()
    steps = page.locator(".step-count").inner_text()
    assert re.match(r"Step (\d+) of \1 ", steps), steps
    page.goto(urljoin(at_table, review))
    page.wait_for_selector("#stepper, #review p[role=alert]", timeout=PAGE_TIMEOUT_MS * 4)
    assert page.locator("#stepper").count() == 1, page.locator("#review").inner_text()
    page.goto(urljoin(at_table, "./"))


def play_to_the_end(w: Watched, game: str, rng: random.Random) -> dict[str, Any]:
    """Click through the match as its person: a random legal action each turn; the last state or update."""
    page = w.page
    wait_for(lambda: w.version is not None, 60, "the table never came", page)
    for _ in range(3000):
        last = last_message(w)
        if last["over"]:
            return last
        if offered(w):
            perform(w, rng.choice(last["legal"]), game)
        else:
            page.wait_for_timeout(50)
    raise AssertionError(f"the {game} match did not end")


@pytest.mark.long
def test_the_app_plays_every_game_offline_and_its_records_replay_exactly(
    browser: Any, app_base: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    try:
        page, received = opened_offline(context, app_base)
        rng = random.Random(72)
        for game in GAMES:
            received.clear()
            page.select_option(f'li[data-game="{game}"] select[data-choice="level"]', "easy")
            page.click(f'li[data-game="{game}"] button.play')
            page.wait_for_url("**/table.html?local=*")
            watched = Watched(page, 0, received)
            last = play_to_the_end(watched, game, rng)
            with page.expect_download() as downloading:
                page.click('[data-action="download-record"]')
            saved = tmp_path / f"{game}.json"
            downloading.value.save_as(saved)
            replayed = clubs_in_process(["replay", str(saved), "--json"])
            assert replayed.status == 0, replayed.stderr
            result = json.loads(replayed.stdout)
            assert result["over"] is True and result["winners"] == last["result"]["winners"]
            assert result["totals"] == last["result"]["totals"]
            if game == GAMES[0]:  # the match replayed and reviewed in the page, from the record kept in the browser
                looked_at(page)
            else:
                page.click('[data-action="lobby"]')
            page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
            assert page.locator("#kept-matches li").count() == GAMES.index(game) + 1  # kept in the browser
        assert page.errors == []
    finally:
        context.close()


def test_learn_to_play_is_followed_offline_to_the_end_of_its_guided_hand(browser: Any, app_base: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page, received = opened_offline(context, app_base)
        page.click('li[data-game="whist"] button.learn')
        page.wait_for_url("**/table.html?local=*")
        watched = Watched(page, 0, received)
        wait_for(lambda: watched.version is not None, 60, "the guided table never came", page)
        steps = 0
        for _ in range(500):
            if any("scored" in m for m in received if m["type"] == "update"):
                break
            if not offered(watched):
                page.wait_for_timeout(50)
                continue
            step = last_message(watched).get("lesson") or {}
            if step.get("step"):
                steps += 1  # the coach points at the step's choice, and says why
                page.locator(".coach-step").first.wait_for()
                perform(watched, step["action"], "whist")
            else:
                perform(watched, last_message(watched)["legal"][0], "whist")
        else:
            raise AssertionError("the guided hand did not end")
        assert steps >= 3
        assert page.errors == []
    finally:
        context.close()


def test_a_server_says_where_its_offline_app_is_and_serves_it_with_its_own_policy(
    server: ThreadServer, app_folder: Path, tmp_path: Path
) -> None:
    assert loopback.get(server.base + "/offline-app").json() == {"app": None}  # the lobby shows no "Play offline"
    assert loopback.get(server.base + "/app/").status_code == 404
    with ThreadServer(Store.in_directory(tmp_path / "db"), offline_app=app_folder) as serving:
        assert loopback.get(serving.base + "/offline-app").json() == {"app": "/app/"}
        moved = loopback.get(serving.base + "/app", follow_redirects=False)
        assert moved.status_code == 308 and moved.headers["location"] == "/app/"
        page = loopback.get(serving.base + "/app/")
        assert page.status_code == 200 and 'data-app="offline"' in page.text
        policy = page.headers["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "worker-src 'self'" in policy
        lobby = loopback.get(serving.base + "/").headers["content-security-policy"]
        assert "wasm-unsafe-eval" not in lobby  # only the app's files may compile WebAssembly
