"""The review of a finished match in a real Chromium: reached from the table's "match is over" box, it lists the
costliest decisions first, steps through every decision of the player like the replay viewer (buttons and arrow
keys), draws the table as it stood before each, and gives each decision's value: the share of a win by the search
from the player's own view and, in a trick game's card play, the exact count with every hand known."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import decide, keep_errors, last_message, offered, wait_for, watch
from serverkit import ThreadServer, new_table

import loopback
from clubsuite.server.store.database import Store

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(tmp_path)) as running:
        yield running


def _page(browser: Any) -> Any:
    page = browser.new_context(viewport=DESKTOP).new_page()
    return keep_errors(page)


def told(w: Any) -> bool:
    """Whether the page has been told a state of the table yet."""
    return any(m["type"] in ("state", "update") for m in w.received)


def _step(page: Any) -> tuple[int, int]:
    """The stepper's "Decision K of N": (K, N)."""
    found = re.search(r"Decision (\d+) of (\d+)", page.locator("#stepper .step-count").inner_text())
    assert found is not None
    return int(found[1]), int(found[2])


@pytest.mark.long
def test_after_a_match_its_review_steps_through_every_decision_costliest_first(web: ThreadServer, browser: Any) -> None:
    table = new_table(
        web.base,
        "whist(target=1)",
        [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
    )["id"]
    page = _page(browser)
    page.goto(f"{web.base}/table/{table}")
    page.get_by_label("Your name").fill("Ann")
    ann = watch(page, None)
    page.get_by_role("button", name="Take the seat").click()
    wait_for(lambda: any(m["type"] == "welcome" for m in ann.received), 20, "Ann got no welcome", page)
    ann.seat = next(m["seat"] for m in ann.received if m["type"] == "welcome")
    rng = random.Random(3)
    while True:
        wait_for(lambda: told(ann) and (last_message(ann)["over"] or offered(ann)), 60, "Ann was never to act", page)
        if last_message(ann)["over"]:
            break
        decide(ann, rng, "whist")

    page.locator(".match-summary .review-link").click()  # from the "match is over" box
    page.wait_for_url("**/review?**")
    page.locator("#decision-detail").wait_for(timeout=300_000)  # worked out by the server's search
    assert page.locator("#review").get_attribute("aria-busy") is None
    review = loopback.get(
        f"{web.base}/tables/{table}/review", params={"seat": ann.seat, "match": 0}, timeout=300
    ).json()
    decisions = review["decisions"]
    assert _step(page) == (1, len(decisions)) and len(decisions) > 3

    # The costliest first: the buttons' costs never rise, and they are every costly decision (up to ten).
    buttons = page.locator("#costliest .costly-step")
    costs = [float(c) for c in buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.cost)")]
    assert costs == sorted(costs, reverse=True)
    assert len(costs) == min(10, sum(1 for d in decisions if d["view"]["cost"] > 0))
    if costs:
        buttons.first.click()
        step = int(buttons.first.get_attribute("data-step"))
        assert _step(page)[0] == step + 1
        assert "The search prefers" in page.locator("#decision-detail").inner_text()

    # Stepping like the replay viewer: buttons and arrow keys; the table as it stood before each decision. First
    # away from the first decision (the costliest may be the first, where "first decision" is rightly disabled).
    page.keyboard.press("End")
    assert _step(page)[0] == len(decisions)
    page.get_by_role("button", name="first decision").click()
    assert _step(page)[0] == 1
    page.keyboard.press("ArrowRight")
    assert _step(page)[0] == 2
    page.get_by_role("button", name="decision before").click()
    assert _step(page)[0] == 1
    page.keyboard.press("End")
    assert _step(page)[0] == len(decisions)
    last = decisions[-1]
    replay = loopback.get(f"{web.base}/tables/{table}/replay", params={"match": 0}, timeout=60).json()
    start = next(i for i, f in enumerate(replay["frames"]) if f["hand"] == last["hand"])
    held = replay["frames"][start + last["action_index"]]["hands"][ann.seat].split()
    row = page.locator(f'.review-board .felt .seat[data-seat="{ann.seat}"] [data-card]')
    assert sorted(row.evaluate_all("(cs) => cs.map((c) => c.dataset.card)")) == sorted(held)  # as they were then
    assert last["action"] in held

    page.get_by_role("button", name="first decision").click()  # the stepper's buttons keep the focus as it steps
    page.get_by_role("button", name="decision after").click()
    assert page.evaluate("document.activeElement.id") == "decision-after" and _step(page)[0] == 2

    # The exact count with every hand known, for a card played where the solver reached it.
    exact = next(i for i, d in enumerate(decisions) if d["double_dummy"] is not None)
    page.locator(".hand-review .decision .link-button").nth(exact).click()
    assert _step(page)[0] == exact + 1
    line = page.locator("#decision-detail .exact").inner_text()
    dd = decisions[exact]["double_dummy"]
    assert "With every hand known" in line and f"makes {dd['taken']} trick" in line
    assert "the best (Play" in line and "[object" not in line  # the best cards named in words
    assert page.locator("#no-exact").count() == 0  # whist has the exact solver
    assert page.errors == []
