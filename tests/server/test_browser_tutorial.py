"""The guided first hand in a real Chromium, for every game: "Learn to play" in the lobby opens a coached table
(the real engine over the real protocol, easy bots, the game's lesson deal); the coach opens with the game in brief,
then the scripted hand's five to ten steps each point at a choice (marked at the table) and say in one line why,
each counted ("Step 3 of 8"); a refused move is explained with a link to its rule's paragraph; the rest of the hand
is the newcomer's own, played to its end, where the coach explains how it was scored and offers a real match."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import Watched, decide, last_message, offered, perform, wait_for, watch
from serverkit import ThreadServer, get

from clubsuite.engine import games
from clubsuite.i18n import LANGUAGES, Words
from clubsuite.lesson import lesson_of
from clubsuite.server.store.database import Store
from clubsuite.server.table import seating
from timeouts import PAGE_TIMEOUT_MS

RULING = re.compile(r"\b[A-Z]{2}-\d+\b")
games_by_name = {g.name: g for g in games()}
ON_YOUR_OWN = "You know enough to play the rest of this hand on your own: the cards you may play are marked."


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the module's guided hands: each test opens a coached table of its own from the lobby, in a
    browser context of its own, and reads nothing of another's."""
    with pytest.MonkeyPatch.context() as patch:
        # the bots of a guided hand wait a second and a half for a newcomer to follow; a test need not
        patch.setattr(seating, "TUTORIAL_PACE", 0.0)
        with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("tutorial"))) as running:
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


LANGUAGE_CASES = [("en", "free", "phone"), ("de", "whist", "laptop"), ("fr", "northstar", "laptop"),
                  ("nl", "partnership", "phone")]  # fmt: skip
"""Every game's guided hand, each in another of the four languages (the words of every game in every language are
checked against the catalogs elsewhere: test_i18n, test_browser_refusal_words), on a laptop or a phone: on a phone the
games whose first hand opens with another phase than play (Free Clubs' auction, whose bid cards lie over the hand;
the partnership's pass), on a laptop the two that open with play. (The guided whist hand is checked on both screens
by test_browser_access, and the coach on every laptop screen by test_browser_fit.)"""


def test_the_guided_hands_played_here_are_every_games_in_every_language_on_both_screens() -> None:
    assert sorted(g for _, g, _ in LANGUAGE_CASES) == sorted(g.name for g in games())
    assert sorted(lang for lang, _, _ in LANGUAGE_CASES) == sorted(LANGUAGES)
    assert {screen for _, _, screen in LANGUAGE_CASES} == {"phone", "laptop"}


PHONE = {"width": 390, "height": 844}
"""A phone's screen (an iPhone 12 to 14's CSS pixels)."""
IN_SIGHT = """(top) => {
  // the coach's words and buttons, each inside the screen (above the drawers' bar at its foot), and nothing drawn
  // over them: the hand, the drawers' bar, a drawer; the coach itself clear of the hand's area; as the page is first
  // drawn (``top``), or where it is now
  if (top) window.scrollTo(0, 0);
  const coach = document.querySelector("section.coach");
  const bar = document.querySelector(".drawer-tabs");
  const floor = bar && getComputedStyle(bar).display !== "none" ? bar.getBoundingClientRect().top : innerHeight;
  const box = (el) => el.getBoundingClientRect();
  const out = [];
  const named = (el) => `${el.tagName} "${el.textContent.slice(0, 40)}"`;
  const parts = coach.querySelectorAll(
    "#coach-body p, #coach-body strong, #coach-body button, #coach-body a, .coach-head button");
  for (const el of parts) {
    if (!el.getClientRects().length) continue; // not drawn on a phone (the rules' page is the bar's "?")
    const r = box(el);
    if (r.top < 0 || r.bottom > floor + 0.5 || r.left < 0 || r.right > innerWidth + 0.5) {
      out.push(`${named(el)} at ${Math.round(r.top)}-${Math.round(r.bottom)} (screen 0-${Math.round(floor)})`);
      continue;
    }
    const hit = document.elementFromPoint(r.left + Math.min(8, r.width / 2), r.top + r.height / 2);
    if (!hit || !coach.contains(hit)) out.push(`${named(el)} is covered by ${hit ? hit.className : "nothing"}`);
  }
  const area = document.querySelector(".my-area");
  if (area) {
    const a = box(area), c = box(coach);
    if (c.bottom > a.top && c.top < a.bottom) out.push("the coach overlaps the hand's area");
    if (c.top > a.top) out.push("the coach is under the hand");
  }
  return out;
}"""
"""What of the coach is out of sight on the screen ([] where all of it is in sight)."""
SCROLL_TO_POINTED = """() => {
  // the page scrolled to bring the card or button a step points at to the middle, as a player scrolls to it; whether it
  // then shows, nothing (the coach, the drawers' bar) drawn over it
  const el = document.querySelector(".pointed");
  if (!el) return false;
  el.scrollIntoView({block: "center"});
  const bar = document.querySelector(".drawer-tabs");
  const floor = bar && getComputedStyle(bar).display !== "none" ? bar.getBoundingClientRect().top : innerHeight;
  const r = el.getBoundingClientRect();
  const y = r.top + Math.min(r.height / 2, 20);
  if (r.top < 0 || y > floor) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, y);
  return hit !== null && el.contains(hit);
}"""


@pytest.mark.long
@pytest.mark.parametrize(("lang", "game", "screen"), LANGUAGE_CASES)
def test_the_guided_first_hand_is_explained_step_by_step_played_to_its_end_and_on_a_phone_keeps_the_coach_in_sight(
    web: ThreadServer, browser: Any, game: str, lang: str, screen: str
) -> None:
    """The coach's opening, every step of the scripted hand (counted, said, its choice marked and played), a refused
    move explained, the rest of the hand played, its account and the offer of a real match, in the page's language.
    On a phone (390x844) the coach never sits under the hand: its words and buttons ("Got it", each step's line and
    rule link, "Play a real match") are all on the first screen, none under the hand or the drawers' bar, at the
    opening, at every step and once the hand has been scored; scrolled to the card or button a step points at, that
    choice shows and the coach is still all in sight."""
    words = Words(lang)
    phone = screen == "phone"
    ctx = (
        browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        if phone
        else browser.new_context(viewport={"width": 1280, "height": 900})
    )
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
    if phone:
        intro.get_by_role("button", name=words.get("Got it")).wait_for()
        assert page.evaluate(IN_SIGHT, True) == [], "the opening"
    intro.get_by_role("button", name=words.get("Got it")).click()
    assert coach.locator(".coach-intro").count() == 0
    rng = random.Random(7)
    refused = ""
    turns = 0
    steps: list[dict[str, Any]] = []
    while not scored(w):
        wait_for(lambda: offered(w) or scored(w), 60, "the guided hand stalled", page)
        if scored(w):
            break
        text = coach.inner_text()
        assert words.get("Your turn") in text, text
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
        step = last_message(w).get("lesson")
        if step is not None and step["step"] is not None:  # a step of the scripted hand: counted, said, marked, played
            steps.append(step)
            count = words.get("Step {n} of {count}").format(n=step["step"], count=step["steps"])
            wait_for(lambda: count in coach.inner_text(), 20, f"no {count!r} in the coach", page)  # noqa: B023
            say = coach.locator(".coach-say").inner_text()
            assert len(say) > 15 and not RULING.search(say) and "{" not in say, say
            step["shown"] = say
            href = str(coach.locator(".coach-lesson a").first.get_attribute("href"))
            assert href.startswith(f"/rules/{game}?lang={lang}")
            if step["cards"]:
                for card in step["cards"]:
                    assert page.locator(f'button.card.pointed[data-card="{card}"]').first.is_visible(), card
            else:
                assert page.locator(f'.controls button.action.pointed[data-action="{step["action"]}"]').is_visible()
            # a screen reader hears why the marked choice is marked
            assert page.locator(".pointed").first.get_attribute("aria-describedby") == "coach-say"
            if phone:
                assert page.evaluate(IN_SIGHT, True) == [], f"step {step['step']}"
                assert page.evaluate(SCROLL_TO_POINTED), f"step {step['step']}: what is pointed at is hidden"
                assert page.evaluate(IN_SIGHT, False) == [], f"step {step['step']}, scrolled to what is pointed at"
            perform(w, step["action"], game)
        else:  # the rest of the first hand is the newcomer's own
            assert step is not None, "past the steps, the first hand still says the lesson is on (its steps over)"
            assert page.locator(".pointed").count() == 0
            assert words.get(ON_YOUR_OWN) in coach.inner_text()
            decide(w, rng, game)
        turns += 1
        assert turns < 200
    assert turns > 0 and refused
    # the scripted hand: five to ten steps, counted from 1, each a decision of the newcomer's
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert 5 <= len(steps) <= 10
    scripted = lesson_of(games_by_name[game])
    shown = {s["idea"] for s in steps} | {t for s in steps for t in s["told"]}  # the game's own ideas among them
    assert scripted is not None and set(scripted.ideas) <= shown, [(s["idea"], s["told"]) for s in steps]
    sentences = [x for s in steps for x in re.split(r"(?<=[.!?])\s+", s["shown"])]
    assert len(sentences) == len(set(sentences)), "no two steps say the same sentence"
    page.locator(".coach .coach-scored").wait_for(timeout=30000)
    assert words.get("How the last hand was scored") in coach.inner_text()
    if phone:
        assert page.evaluate(IN_SIGHT, True) == [], "the hand scored"
    # the first hand was the lesson: a real match is offered
    assert coach.get_by_role("button", name=words.get("Play a real match")).is_visible()
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert errors == []
    ctx.close()
