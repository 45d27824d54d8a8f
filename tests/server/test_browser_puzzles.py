"""Puzzles in a real Chromium: a signed-in player solves a puzzle of every game, in English on a laptop and in German
on a phone: a wrong answer is refused with what it gets and the rating moves, the right one is accepted and its line
stepped through; the page is never sent the answer before it is given; a single-dummy puzzle shows no other hand; a
guest plays unrated; the pages have no serious accessibility violation."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from browserkit import keep_errors, seeded_table
from serverkit import Client, ThreadServer
from test_browser_access import assert_accessible
from test_server_play import play_out
from test_server_puzzles import HIDDEN, keys

from clubsuite.puzzles.model import Puzzle
from clubsuite.puzzles.sets import shipped
from clubsuite.server.puzzles.own import pool_of

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
POOLS = {"whist": "whist", "free": "free", "partnership": "partnership", "northstar": "northstar-4p"}
"""Every game, by the pool its puzzles are played in (North Star's CLUBS at four players)."""
# The tests share one server (``web`` of ``conftest.py``, for the module): each signs up an account of its own (or
# plays as a guest), asks for its puzzles by id where it checks what they say, and reads only its own account's
# ratings and history.
PASSWORD = "correct horse battery"
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def exact_puzzle(game: str) -> Puzzle:
    """The game's first puzzle with every hand shown (at four players for North Star's CLUBS)."""
    return next(p for p in shipped(game) if p.exact and (game != "northstar" or p.variant == "northstar"))


def worst(p: Puzzle) -> str:
    """The legal action that does worst."""
    sign = -1 if p.measure == "fewest" else 1
    return min(sorted(a for a in p.values if a != p.solution), key=lambda a: sign * p.values[a])


def new_page(browser: Any, viewport: dict[str, int], lang: str) -> Any:
    """A page in a context of its own, in ``lang``, keeping every answer of the puzzle routes it is sent."""
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(f"localStorage.setItem('clubs.lang', {json.dumps(json.dumps(lang))});")
    page = keep_errors(ctx.new_page())
    page.sent = []

    def keep(response: Any) -> None:
        if "/puzzles/" in response.url and response.request.method in ("GET", "POST"):
            with contextlib.suppress(Exception):  # a page or a script, not JSON
                page.sent.append((response.request.method, response.url, response.json()))

    page.on("response", keep)
    return page


def click_action(page: Any, action: str) -> None:
    """Choose ``action`` as a player does: its button, or its card in the hand, or (a play chosen by its cards) each
    of its cards in the hand, then the play's button."""
    button = page.locator(f'.my-area .controls button[data-action="{action}"]')
    if button.count():
        button.click()
        return
    for card in action.split():
        page.locator(f'.my-area .hand button.card[data-card="{card}"]').click()
    if page.locator(f'.my-area .controls button[data-action="{action}"]').count():
        page.locator(f'.my-area .controls button[data-action="{action}"]').click()


def waited_out(page: Any, done: Callable[[], bool], what: str) -> None:
    """Wait until ``done()``, running the page's clock (installed by the test, flowing as usual) on by a second at a
    time, a fifth of a second apart: a wait the page makes as a refusal's Retry-After says (1 s here) ends at the next
    of these instead of a second later. The page asks again only after a refusal, so no more often than it would."""
    deadline = time.monotonic() + 60
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        page.wait_for_timeout(200)
        page.clock.fast_forward(1000)


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("de", PHONE)], ids=["en-1280", "de-390"])
def test_a_signed_in_player_solves_a_puzzle_of_every_game_a_wrong_answer_told_what_it_gets_and_rated(
    web: ThreadServer, browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    page = new_page(browser, viewport, lang)
    page.goto(web.base + "/puzzle")
    answer = page.request.post(web.base + "/account/signup", data={"name": f"Solver {lang}", "password": PASSWORD})
    assert answer.status == 201, answer.text()
    page.goto(web.base + "/puzzle")
    page.locator(".puzzle-pools li").first.wait_for()
    assert page.locator(".puzzle-pools li").count() == 6 and page.locator("#guest-note").count() == 0
    for game, pool in POOLS.items():
        p = exact_puzzle(game)
        page.goto(f"{web.base}/puzzle/{pool}?id={p.id}")
        page.locator("#goal").wait_for()
        assert str(p.goal) in page.locator("#goal").inner_text()
        shown = [body for method, url, body in page.sent if method == "GET" and url.endswith(f"/{pool}/{p.id}")]
        assert shown and all(not keys(b) & HIDDEN for b in shown)  # at any depth
        others = page.locator(".felt .spot .card-row .card")
        assert others.count() > 0  # every hand is shown in an exact puzzle
        wrong = worst(p)
        click_action(page, wrong)
        verdict = page.locator("#verdict.wrong")
        verdict.wait_for()
        said = numbers(verdict.inner_text())
        assert int(p.values[wrong]) in said and p.goal in said, (game, verdict.inner_text())
        moved = numbers(page.locator("#rating").inner_text())
        assert moved[0] == 1500 and moved[1] < 1500, (game, moved)  # a newcomer's miss, rated: the rating went down
        click_action(page, p.solution)
        page.locator("#verdict.right").wait_for()
        assert numbers(page.locator("#rating").inner_text()) == moved  # the second answer is not rated again
        page.locator(".line").wait_for()
        page.locator('[data-action="forward"]').click()
        page.locator(".line .step-words li").first.wait_for()
        assert page.locator(".puzzle-panel .themes").count() == (1 if p.themes else 0)
    history = page.request.get(web.base + "/puzzles/history").json()
    assert len(history) == len(POOLS) and all(h["rated"] and not h["solved"] and h["tries"] == 2 for h in history)
    assert page.errors == []


def test_north_stars_puzzles_with_the_most_plays_fit_a_laptop_a_new_rating_reads_provisional_and_steps_count_from_1(
    web: ThreadServer, browser: Any
) -> None:
    page = new_page(browser, DESKTOP, "en")
    page.goto(web.base + "/puzzle")
    answer = page.request.post(web.base + "/account/signup", data={"name": "Star Gazer", "password": PASSWORD})
    assert answer.status == 201, answer.text()
    page.goto(web.base + "/puzzle")
    page.locator(".puzzle-pools li").first.wait_for()
    assert "1500?" in page.locator('.puzzle-pools li[data-pool="whist"]').inner_text()  # lichess's provisional "?"
    by_variant: dict[str, list[Puzzle]] = {}
    for p in shipped("northstar"):
        by_variant.setdefault(p.variant, []).append(p)
    for variant, puzzles in sorted(by_variant.items()):
        widest = max(puzzles, key=lambda p: (len(p.values), p.id))  # the most plays to choose from
        exact = max((p for p in puzzles if p.exact), key=lambda p: (len(p.values), p.id))
        for p in (widest, exact):
            page.goto(f"{web.base}/puzzle/{pool_of(p)}?id={p.id}")
            page.locator("#goal").wait_for()
            fits = page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight")
            assert fits, (variant, p.id, len(p.values))  # no scrolling at 1280x800, however many plays
            assert page.locator("#rating").inner_text().endswith("1500?"), page.locator("#rating").inner_text()
        click_action(page, exact.solution)
        page.locator("#verdict.right").wait_for()
        assert "?" in page.locator("#rating").inner_text()  # still provisional after one answer
        assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight")
        count = page.locator(".line .step-count")
        assert "Step" not in count.inner_text() and str(len(exact.line)) in count.inner_text()  # the position
        page.locator('[data-action="forward"]').click()
        page.wait_for_function("() => document.querySelector('.line .step-count').innerText.startsWith('Step 1 of')")
        assert count.inner_text() == f"Step 1 of {len(exact.line)}"
        assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight")
    page.goto(web.base + "/puzzle")
    page.locator(".puzzle-history li").first.wait_for()
    assert re.search(r"1500\? \u2192 \d+\?", page.locator(".puzzle-history").inner_text())  # as the answer read
    assert page.errors == []


def test_a_puzzle_refused_for_now_is_asked_again_after_retry_after_and_a_lasting_refusal_reads_in_the_readers_language(
    web: ThreadServer, browser: Any
) -> None:
    busy = {"status": 429, "headers": {"Retry-After": "1", "Content-Type": "application/json"}}
    body = json.dumps({"code": "rate_limited", "message": "one new puzzle at a time: the last one is still worked out"})
    asked: list[str] = []

    def first_refused(route: Any) -> None:  # the server's one-new-puzzle-at-a-time refusal, once
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(body=body, **busy)
        else:
            route.continue_()

    page = new_page(browser, PHONE, "de")
    page.clock.install()  # the page's own clock, flowing as usual, run on through its waits (:func:`waited_out`)
    page.route(re.compile(r"/puzzles/whist/next\?"), first_refused)
    page.goto(f"{web.base}/puzzle/whist")
    goal = page.locator("#goal")
    waited_out(page, lambda: goal.count() > 0, "no puzzle after the refusal")
    goal.wait_for()  # asked again after the second Retry-After says, and shown
    assert len(asked) == 2 and page.locator("[role=alert]").count() == 0
    refusals: list[str] = []

    def always_refused(route: Any) -> None:
        refusals.append(route.request.url)
        route.fulfill(body=body, **busy)

    page = new_page(browser, PHONE, "de")
    page.clock.install()
    page.route(re.compile(r"/puzzles/whist/next\?"), always_refused)
    page.goto(f"{web.base}/puzzle/whist")
    alert = page.locator("[role=alert]")
    waited_out(page, lambda: alert.count() > 0, "no refusal told")
    alert.wait_for()
    assert "Zu viele Aufgaben auf einmal" in alert.inner_text() and "puzzle" not in alert.inner_text()  # not English
    assert 1 < len(refusals) <= 4  # a few tries, then the refusal told
    assert [e for e in page.errors if "429" not in e] == []  # the browser notes each refused request, nothing else


def test_a_guest_plays_unrated_and_a_single_dummy_puzzle_shows_no_other_hand(web: ThreadServer, browser: Any) -> None:
    page = new_page(browser, PHONE, "fr")
    p = next(x for x in shipped("whist") if x.kind == "single_dummy")
    page.goto(f"{web.base}/puzzle/whist?id={p.id}")
    page.locator("#goal").wait_for()
    assert page.locator(".felt .spot .card-row .card").count() == 0  # the others' cards are not shown
    assert page.locator(".felt .spot .backs").count() == 2
    assert_accessible(page, "a single-dummy puzzle on a phone, in French")
    click_action(page, p.solution)
    page.locator("#verdict.right").wait_for()
    assert "%" in page.locator(".line").inner_text()  # how the worlds it was measured on came out
    assert page.locator("#rating").inner_text() != "" and "→" not in page.locator("#rating").inner_text()
    assert_accessible(page, "a solved puzzle on a phone, in French")
    page.locator('[data-action="next"]').click()
    page.wait_for_function(
        "(id) => { const el = document.querySelector('.puzzle-page'); return !!el && el.dataset.puzzle != id; }",
        arg=p.id,
    )
    assert p.id in page.evaluate("() => localStorage.getItem('clubs.puzzlesSeen.whist')")  # a pool's own
    page.goto(web.base + "/puzzle")
    page.locator("#guest-note").wait_for()
    assert_accessible(page, "the list of puzzles on a phone, in French")
    assert page.errors == []


@pytest.mark.long
def test_after_a_match_its_review_makes_puzzles_of_the_players_mistakes_which_they_then_play(
    web: ThreadServer, browser: Any
) -> None:
    page = new_page(browser, DESKTOP, "en")
    page.goto(web.base + "/puzzle")
    signed = page.request.post(web.base + "/account/signup", data={"name": "Ann", "password": PASSWORD})
    assert signed.status == 201, signed.text()
    csrf = page.request.get(web.base + "/account").json()["csrf"]
    table = seeded_table(web, "whist(target=1)", [{"kind": "person"}, *BOTS], 5)  # Ann misses a clear best play
    joined = page.request.post(f"{web.base}/tables/{table}/join", data={}, headers={"x-csrf-token": csrf})
    client = Client(web.base, table, joined.json()["token"])
    try:
        play_out({0: client}, random.Random(4))
    finally:
        client.close()
    page.goto(f"{web.base}/review?table={table}&match=0&seat=0")
    page.locator("#make-puzzles").click()
    links = page.locator("#own-puzzles li a")
    links.first.wait_for()
    assert page.locator("#make-puzzles").count() == 0
    links.first.click()
    page.locator("#goal").wait_for()
    assert "not rated" in page.locator("#rating").inner_text()
    page.goto(web.base + "/puzzle")
    page.locator(".own-puzzles li").first.wait_for()
    page.locator('.own-puzzles input[type="checkbox"]').first.check()  # shared
    page.reload()
    page.locator(".own-puzzles li").first.wait_for()
    assert page.locator('.own-puzzles input[type="checkbox"]').first.is_checked()
    assert page.errors == []
