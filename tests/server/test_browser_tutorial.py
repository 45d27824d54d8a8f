"""The guided first hand in a real Chromium, for every game: "Learn to play" in the lobby opens a coached table
(the real engine over the real protocol, easy bots, the tutorial deal), the coach says at every turn what is asked
and why the marked cards may be played, a refused move is explained with a link to its rule's paragraph, and the
hand is played to its end, where the coach explains how it was scored."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import Watched, decide, last_message, offered, wait_for, watch
from serverkit import ThreadServer, get

from clubsuite.engine import games
from clubsuite.i18n import LANGUAGES, Words
from clubsuite.server.store.database import Store
from clubsuite.server.table import seating
from timeouts import PAGE_TIMEOUT_MS

RULING = re.compile(r"\b[A-Z]{2}-\d+\b")


@pytest.fixture
def web(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadServer]:
    # the bots of a guided hand wait a second and a half for a newcomer to follow; a test need not
    monkeypatch.setattr(seating, "TUTORIAL_PACE", 0.0)
    with ThreadServer(Store.in_directory(tmp_path)) as running:
        yield running


def scored(w: Watched) -> bool:
    """Whether the page was told of a hand's end (an update carrying its account)."""
    return any(m.get("scored") for m in w.received if m["type"] == "update") or any(
        m.get("hands") for m in w.received if m["type"] == "state"
    )


def typed_refusal(w: Watched) -> str:
    """Type a move the rules refuse now; the refusal's reason code, once the page has shown it."""
    msg = last_message(w)
    legal = set(msg["legal"])
    hand = w.page.locator(".my-area > .hand button.card").evaluate_all("(bs) => bs.map((b) => b.dataset.card)")
    wrong = next((c for c in hand if c not in legal), None) or next(
        f"{r}{s}" for s in "CDHS" for r in ("2", "3", "4") if f"{r}{s}" not in legal and f"{r}{s}" not in hand
    )
    field = w.page.locator("#typed")
    before = sum(1 for m in w.received if m["type"] == "error")
    field.fill(wrong)
    field.press("Enter")
    wait_for(lambda: sum(1 for m in w.received if m["type"] == "error") > before, 20, "no refusal came", w.page)
    w.page.locator(".coach .coach-refused").wait_for()
    refusal = [m for m in w.received if m["type"] == "error"][-1]
    return str(refusal["reason"]["code"]) if "reason" in refusal else ""


LANGUAGE_CASES = [("en", "free"), ("de", "whist"), ("fr", "northstar"), ("nl", "partnership")]
"""Every game's guided hand, each in another of the four languages (the words of every game in every language are
checked against the catalogs elsewhere: test_i18n, test_browser_refusal_words)."""


def test_the_guided_hands_played_here_are_every_games_in_every_language() -> None:
    assert sorted(g for _, g in LANGUAGE_CASES) == sorted(g.name for g in games())
    assert sorted(lang for lang, _ in LANGUAGE_CASES) == sorted(LANGUAGES)


@pytest.mark.long
@pytest.mark.parametrize(("lang", "game"), LANGUAGE_CASES)
def test_the_guided_first_hand_of_every_game_is_explained_step_by_step_and_played_to_its_end(
    web: ThreadServer, browser: Any, game: str, lang: str
) -> None:
    words = Words(lang)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('clubs.screenReader', 'true');")  # the typed field, for a refusal
    ctx.add_init_script(f"localStorage.setItem('clubs.lang', '\"{lang}\"');")
    page = ctx.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    w = watch(page, 0)
    page.goto(web.base + "/")
    page.locator("#quick-name").fill("Ann")
    page.locator(f'.game-tile[data-game="{game}"] button.learn').click()
    page.wait_for_url("**/table/**")
    coach = page.locator("section.coach")
    coach.wait_for()
    assert f"/rules/{game}" in str(page.locator(".coach-foot a").get_attribute("href"))
    # the coach opens with the game in brief (who plays, the cards' order, the aim), in the page's language
    brief = get(web.base, f"/rules/{game}/brief?lang={lang}")
    intro = coach.locator(".coach-intro")
    wait_for(lambda: brief["title"] in intro.inner_text() if intro.count() else False, 20, "no opening", page)
    assert all(p in intro.inner_text() for p in brief["paragraphs"])
    intro.get_by_role("button", name=words.get("Got it")).click()
    assert coach.locator(".coach-intro").count() == 0
    rng = random.Random(7)
    refused = ""
    turns = 0
    while not scored(w):
        wait_for(lambda: offered(w) or scored(w), 60, "the guided hand stalled", page)
        if scored(w):
            break
        text = coach.inner_text()
        assert words.get("Your turn") in text, text
        why = page.locator(".coach .coach-why")
        if why.count():
            assert len(why.inner_text()) > 20
            href = str(page.locator(".coach .coach-step a").first.get_attribute("href"))
            assert href.startswith(f"/rules/{game}?lang={lang}")
        if not refused and len(last_message(w)["legal"]) < 40:
            refused = typed_refusal(w) or "refused"
            assert words.get("That move is not allowed") in coach.inner_text()
            error = [m for m in w.received if m["type"] == "error"][-1]
            rule = error.get("reason", {}).get("rule")
            href = str(page.locator(".coach-refused a").get_attribute("href"))
            assert href.startswith(f"/rules/{game}?lang={lang}") and (rule is None or href.endswith(f"#{rule}"))
            shown = page.locator(".coach-refused p").inner_text()
            assert shown and not RULING.search(shown), shown  # the ruling is behind the link, not in the words
            if lang != "en":
                assert shown != error["message"], "the refusal is worded in the page's language, not the engine's"
        decide(w, rng, game)
        turns += 1
        assert turns < 200
    assert turns > 0 and refused
    page.locator(".coach .coach-scored").wait_for(timeout=30000)
    assert words.get("How the last hand was scored") in coach.inner_text()
    # the first hand was the lesson: a real match is offered
    assert coach.get_by_role("button", name=words.get("Play a real match")).is_visible()
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert errors == []
    ctx.close()
