"""The table fits the screen it is played on, as a card room's does. On a laptop (1280x800, 1366x768, and a
1280x720 window) the page never scrolls in play, in any game, phase or language: the seats, the cards on the table,
the prompt, the hand and every action are in sight at once — through an auction, the three-card pass, the wild 15's
picker, the screen-reader mode (its typed move always open), a refusal with its why and a hint (beside the trick,
never over it), a hand's account between two hands, and with the coach of "Learn to play" on (which sits at the
head of the side column there). On a phone (390x844, 360x740) the table and the hand are on the first screen; with
the coach on, the coach heads it (never under the hand) and stays at the top while the hand is scrolled to; the coach
folds on every width."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from browserkit import (
    Watched,
    decide,
    last_message,
    offered,
    resize,
    seeded_table,
    tap,
    wait_for,
    watch,
)
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer, post
from test_browser_table import new_page, northstar_wild_deal

LAPTOPS = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768}, {"width": 1280, "height": 720}]
"""Two laptop screens, and a laptop browser's window under its toolbars (a 1920x1080 screen at 150%)."""
PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]

CASES = [
    # (rules, seats, seed, language, screen-reader mode): every game and the longest words (German) at least once,
    # the phases that add to the table (an auction's bid cards, a pass's chosen cards) met in the first decisions
    ("free", 3, 5, "de", True),  # the auction first: the bid cards over the hand, the typed move open
    ("partnership", 4, 3, "nl", True),  # the three-card pass first
    ("whist", 3, 4, "fr", False),
    ("northstar(players=6, teams=3x2)", 6, 6, "de", True),  # six seats round the felt, team badges
    ("northstar(players=5, wild_fifteens=true)", 5, 2, "en", False),
]

OUT_OF_SIGHT = """(parts) => {
  // what a player must see while playing, each part whole: inside the window, and not cut by the table's own edge
  const problems = [];
  const page = document.documentElement;
  if (page.scrollHeight > innerHeight + 1) problems.push(`the page scrolls: ${page.scrollHeight} > ${innerHeight}`);
  const board = document.querySelector(".board");
  if (board.scrollHeight > board.clientHeight + 1) {
    problems.push(`the table scrolls: ${board.scrollHeight} > ${board.clientHeight}`);
  }
  const edge = board.getBoundingClientRect();
  for (const sel of parts) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!r.height) continue;
      const where = `${sel} at ${Math.round(r.top)}..${Math.round(r.bottom)}`;
      const off = r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1;
      const cut = board.contains(el) && (r.bottom > edge.bottom + 1 || r.top < edge.top - 1);
      if (off) problems.push(`${where} is off the screen`);
      else if (cut) problems.push(`${where} is cut by the table's edge`);
    }
  }
  return problems;
}"""
COVERED = """(sel) => {
  // the places under the floating notes (the why, a refusal, a hint)
  const notes = document.querySelector(".notes");
  if (!notes) return [];
  const n = notes.getBoundingClientRect();
  return [...document.querySelectorAll(sel)].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width && r.left < n.right - 1 && r.right > n.left + 1 && r.top < n.bottom - 1 && r.bottom > n.top + 1;
  }).map((el) => el.dataset.seat ?? el.className);
}"""
DECISIONS = 4
"""Decisions of each case checked on every laptop screen: its first phases (an auction's bids, a pass's cards) and
the play that follows them."""
IN_PLAY = [".felt .seat", ".trick-area", ".me-bar", "#turn", ".my-area > .hand", ".extras", ".controls", ".wild-picker"]


def assert_fits(w: Watched, what: str, parts: list[str] = IN_PLAY) -> None:
    problems = w.page.evaluate(OUT_OF_SIGHT, parts)
    assert problems == [], f"{what}: {problems}"


def people_and_bots(seats: int) -> list[dict[str, Any]]:
    return [{"kind": "person"}] + [{"kind": "bot", "bot": "normal"}] * (seats - 1)


def refuse_explain_and_hint(w: Watched) -> None:
    """A refused typed move, its why unfolded, the prompt's why unfolded, and a hint: all shown at once."""
    page = w.page
    before = sum(1 for m in w.received if m["type"] == "error")
    page.locator("#typed").fill("2C 2C 2C")
    page.locator("#typed").press("Enter")
    wait_for(lambda: sum(1 for m in w.received if m["type"] == "error") > before, 20, "no refusal came", page)
    page.locator("#refusal").wait_for()
    if page.locator(".why-refused summary").count():
        page.locator(".why-refused summary").click()
    page.locator(".why-button").click()
    page.locator(".why").wait_for()
    page.locator('.controls button[data-action="hint"]').click()
    page.locator(".hint").wait_for()


def on_every_screen(w: Watched, screens: list[dict[str, int]], check: Callable[[str], None]) -> None:
    """``check`` the page as it stands on each of ``screens`` in turn (the window resized, the table as it was), with
    the screen's name; the page is left at the first."""
    for screen in screens:
        resize(w.page, screen)
        check(f"{screen['width']}x{screen['height']}")
    resize(w.page, screens[0])


@pytest.mark.long
def test_every_game_and_phase_fits_every_laptop_screen_with_no_scrolling(web: ThreadServer, browser: Any) -> None:
    """Each state of each game is checked on every laptop screen: one page, its window resized between the checks."""
    phases: set[str] = set()
    for game, seats, seed, lang, reader in CASES:
        table = seeded_table(web, game, people_and_bots(seats), seed, bot_delay=0.0, hints=True)
        joined = post(web.base, f"/tables/{table}/join", {"name": "Ann"}, 200)
        ann = seated(browser, web.base, joined, LAPTOPS[0], {"lang": lang, "screenReader": reader})
        rng = random.Random(seed)
        for step in range(DECISIONS):
            wait_for(lambda ann=ann: offered(ann), 30, f"Ann was never to act in {game}", ann.page)
            view = last_message(ann)["view"]
            phases.add(str(view.get("stage") or view.get("phase")))
            on_every_screen(
                ann,
                LAPTOPS,
                lambda at, ann=ann, what=f"{game} in {lang}", step=step: assert_fits(
                    ann, f"{what} at {at}, decision {step}"
                ),
            )
            if step == 0 and reader:
                refuse_explain_and_hint(ann)

                def notes_fit(at: str, ann: Watched = ann, what: str = f"{game} in {lang}") -> None:
                    assert_fits(ann, f"{what} at {at}, a refusal, its why and a hint shown")
                    covered = ann.page.evaluate(COVERED, ".trick-area .place")
                    assert covered == [], f"{what} at {at}: the notes cover the trick: {covered}"

                on_every_screen(ann, LAPTOPS, notes_fit)
                ann.page.locator(".why-button").click()  # folded again
            decide(ann, rng, game.split("(")[0])
        ann.page.context.close()
    assert {"auction", "pass", "play"} <= phases, phases


def test_the_wild_fifteens_picker_fits_every_laptop_screen(web: ThreadServer, browser: Any) -> None:
    seed, first, key, _ = northstar_wild_deal()
    seats: list[dict[str, Any]] = [{"kind": "bot", "bot": "normal"}] * 2
    seats[first] = {"kind": "person"}
    table = seeded_table(web, "northstar(players=2, wild_fifteens=true)", seats, seed)
    joined = post(web.base, f"/tables/{table}/join", {"name": "Ann"}, 200)
    ann = seated(browser, web.base, joined, LAPTOPS[0], {"lang": "nl", "screenReader": True})
    wait_for(lambda: offered(ann), 20, "Ann was never to act", ann.page)
    for card in key.split():
        tap(ann.page.locator(f'.my-area > .hand button.card[data-card="{card}"]'))
    ann.page.locator(".wild-picker select").wait_for()
    on_every_screen(ann, LAPTOPS, lambda at: assert_fits(ann, f"the wild 15's picker at {at}"))


def seated(
    browser: Any, base: str, joined: dict[str, Any], viewport: dict[str, int], storage: dict[str, Any]
) -> Watched:
    """The page of the seat ``joined`` (a join's answer: table, seat, token), with ``storage``'s preferences: the
    seat is in the page's storage before the table's page first loads, as after a join (no page loaded before it)."""
    seat = {f"seat.{joined['table']}": {"token": joined["token"], "seat": joined["seat"]}}
    page = new_page(browser, viewport, storage={**storage, **seat})
    w = watch(page, joined["seat"])
    page.goto(f"{base}/table/{joined['table']}")
    page.locator(".my-area").wait_for()
    return w


def learn(browser: Any, base: str, game: str, viewport: dict[str, int], lang: str = "en") -> Watched:
    """A newcomer's "Learn to play" of ``game``: the coached table, seated."""
    w = seated(browser, base, post(base, "/tutorial", {"game": game, "name": "Ann"}, 200), viewport, {"lang": lang})
    w.page.locator("section.coach").wait_for()
    return w


def test_with_the_coach_on_the_table_still_fits_every_laptop_screen_and_the_coach_is_in_sight(
    web: ThreadServer, browser: Any
) -> None:
    for game, lang in (("partnership", "de"), ("free", "fr")):
        w = learn(browser, web.base, game, LAPTOPS[0], lang)
        rng = random.Random(3)
        for step in range(3):
            wait_for(lambda w=w: offered(w), 30, f"Ann was never to act in the guided {game}", w.page)
            on_every_screen(
                w,
                LAPTOPS,
                lambda at, w=w, game=game, step=step: assert_fits(
                    w, f"the guided {game} at {at}, decision {step}", [*IN_PLAY, ".coach-head", ".coach-step"]
                ),
            )
            decide(w, rng, game)
        w.page.context.close()


TO_THE_TOP = "window.scrollTo(0, 0)"
"""Scrolled to the page's top, where a phone's first screen is."""
TO_THE_HAND = """document.querySelector('.my-area > .hand').scrollIntoView({block: 'end'});
    window.scrollBy(0, document.querySelector('.drawer-tabs').getBoundingClientRect().height)"""
"""Scrolled until the hand ends where the drawers' tabs begin, as a player scrolls to play."""


def with_coach(w: Watched, scrolled: str) -> tuple[dict[str, float], dict[str, float]]:
    """Where the felt begins and ends (``top``, ``felt``), the hand's top and end (``handTop``, ``hand``), where a
    phone's first screen ends (above the drawers' tabs: ``end``) and the coach's box (x, y, width, height), once the
    coach is drawn: the page scrolled by ``scrolled`` and measured in one step, so that no drawing between a scroll
    and a measure (a message, the coach's next words) can move one thing and not another."""
    found: list[Any] = []
    script = f"""() => {{
        const coach = document.querySelector('section.coach');
        if (!coach) return null;
        {scrolled};
        const c = coach.getBoundingClientRect();
        const hand = document.querySelector('.my-area > .hand').getBoundingClientRect();
        return {{coach: {{x: c.x, y: c.y, width: c.width, height: c.height}}, hand: hand.bottom, handTop: hand.top,
                 felt: document.querySelector('.felt').getBoundingClientRect().bottom,
                 top: document.querySelector('.felt').getBoundingClientRect().top,
                 end: document.querySelector('.drawer-tabs').getBoundingClientRect().top}};
    }}"""

    def drawn() -> bool:
        found[:] = [w.page.evaluate(script)]
        return found[0] is not None

    wait_for(drawn, 30, "the coach was never drawn", w.page)
    box = dict(found[0])
    return box, box.pop("coach")


def test_on_every_phone_learn_to_play_shows_the_coach_first_then_the_hand_under_it_and_the_coach_folds(
    web: ThreadServer, browser: Any
) -> None:
    """The coach heads a phone's first screen, above the table (never under the hand: issue 69); scrolled to the
    hand, the hand is whole on the screen under the coach, which stays in sight at the top. Each phone's screen in
    turn, on one page of each game, its window resized."""
    for game in ("whist", "free", "partnership", "northstar"):
        w = learn(browser, web.base, game, PHONES[0])
        page = w.page
        wait_for(lambda w=w: offered(w), 30, f"Ann was never to act in the guided {game}", page)
        for viewport in PHONES:
            resize(page, viewport)
            on_a_phone(w, game)
        page.context.close()


def on_a_phone(w: Watched, game: str) -> None:
    """The coach first, the hand under it once scrolled to, and the coach folding (kept folded over a reload), on the
    phone's screen the page has now."""
    page = w.page
    box, coach_box = with_coach(w, TO_THE_TOP)
    assert coach_box["y"] >= 0 and coach_box["y"] + coach_box["height"] <= box["top"], (game, coach_box, box)
    box, coach_box = with_coach(w, TO_THE_HAND)
    hand_top = box["handTop"]
    assert coach_box["y"] >= 0, (game, coach_box)  # still in sight, at the top
    assert coach_box["y"] + coach_box["height"] <= hand_top + 1 and box["hand"] <= box["end"] + 1, (game, box)
    page.evaluate("() => window.scrollTo(0, 0)")
    coach = page.locator("section.coach")
    steps = coach.locator(".coach-step")
    assert steps.first.is_visible()
    fold = coach.get_by_role("button", name="Hide the coach")
    assert fold.get_attribute("aria-expanded") == "true"
    fold.click()
    assert not steps.first.is_visible()
    unfold = coach.get_by_role("button", name="Show the coach")
    assert unfold.get_attribute("aria-expanded") == "false"
    page.reload()  # folded it stays, until unfolded
    page.locator("section.coach").wait_for()
    assert not page.locator("section.coach .coach-step").first.is_visible()
    page.locator("section.coach").get_by_role("button", name="Show the coach").click()
    assert page.locator("section.coach .coach-step").first.is_visible()


def test_on_a_laptop_the_coach_folds_and_unfolds(web: ThreadServer, browser: Any) -> None:
    w = learn(browser, web.base, "whist", LAPTOPS[0])
    page = w.page
    wait_for(lambda: offered(w), 30, "Ann was never to act in the guided whist", page)
    coach = page.locator("section.coach")
    coach.get_by_role("button", name="Hide the coach").click()
    assert coach.locator(".coach-step").count() == 0 or not coach.locator(".coach-step").first.is_visible()
    assert_fits(w, "the coach folded", [*IN_PLAY, ".coach-head"])
    coach.get_by_role("button", name="Show the coach").click()
    assert coach.locator(".coach-step").first.is_visible()


@pytest.mark.long
@pytest.mark.parametrize(
    ("game", "seats", "viewport"),
    [("free", 3, LAPTOPS[1]), ("northstar(players=6, teams=3x2)", 6, LAPTOPS[0])],
    ids=["free-1366x768", "northstar6-1280x800"],
)
def test_a_hands_account_between_two_hands_fits_a_laptop_screen_over_the_felt(
    web: ThreadServer, browser: Any, game: str, seats: int, viewport: dict[str, int]
) -> None:
    table = seeded_table(web, game, people_and_bots(seats), 8, bot_delay=0.0)
    joined = post(web.base, f"/tables/{table}/join", {"name": "Ann"}, 200)
    ann = seated(browser, web.base, joined, viewport, {"lang": "de", "trickPause": 0})
    rng = random.Random(8)
    summary = ann.page.locator(".hand-summary")
    for _ in range(200):
        wait_for(lambda: offered(ann) or summary.count() > 0, 60, "the hand stalled", ann.page)
        if summary.count():
            break
        decide(ann, rng, game.split("(")[0])
    assert summary.count(), "no hand ended"
    assert_fits(ann, f"{game}: a hand's account shown", [*IN_PLAY, ".hand-summary"])
    ann.page.context.close()
