"""Each game's own decisions made by clicking in a real Chromium: North Star's CLUBS plays of several cards (a wild 15
asked what it stands for), a pass and a double; Free Clubs' auction, treasure chest, handicaps, Joker partners and
the pass to the right; a spectator's page; the replay viewer. Every page is checked for cards its seat may not know.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    Watched,
    assert_no_leak,
    live_match,
    meaning,
    seeded_table,
    tap,
    wait_for,
    watch,
)
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer, post
from test_browser_play import click_turn, last_state, take_seat, to_act

from clubsuite.cards import STANDARD_WITH_JOKERS

GOLDEN = Path(__file__).parent.parent / "golden"


def select_and_play(w: Watched, play: str) -> None:
    """Select the cards of ``play`` one by one in the hand, then click the play the page offers for them (a wild 15
    with several meanings: picked first with the one picker the page offers)."""
    page = w.page
    version = w.version
    key = sorted(t.split("=")[0] for t in play.split())
    same = [p for p in last_state(w)["legal"] if sorted(t.split("=")[0] for t in p.split()) == key]
    for token in play.split():
        tap(page.locator(f'.my-area > .hand button.card[data-card="{token.split("=")[0]}"]'))
    if len(same) > 1:  # a wild 15 of several meanings: one picker per 15, offering each value it may stand for
        pickers = page.locator(".wild-picker select")
        for bare in pickers.evaluate_all("(ss) => ss.map((s) => s.dataset.wild)"):
            picker = page.locator(f'select[data-wild="{bare}"]')
            if pickers.count() == 1:
                offered_values = picker.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
                assert set(offered_values) == {meaning(p, bare) for p in same}, play
            picker.select_option(meaning(play, bare))
    offered = page.locator(".controls button.action.primary")
    assert offered.evaluate_all("(els) => els.map((e) => e.dataset.action)") == [play]
    page.locator(f'.controls button.action.primary[data-action="{play}"]').click()
    wait_for(lambda: w.version != version, 15, f"{play} was not answered", page)


def click_word(w: Watched, word: str) -> None:
    """Click the button of a word action (pass, double, keep, exchange)."""
    version = w.version
    w.page.locator(f'.controls button.action[data-action="{word}"]').click()
    wait_for(lambda: w.version != version, 15, f"{word} was not answered", w.page)


@pytest.mark.long
def test_northstar_plays_of_several_cards_a_wild_fifteen_a_pass_and_a_double_by_clicking(
    web: ThreadServer, browser: Any
) -> None:
    game = "northstar(players=3, wild_fifteens=true, double_or_nothing=true, target=200)"
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = seeded_table(web, game, seats, seed=41, bot_delay=0.0)  # the bots' choices follow from the seed
    ann = take_seat(browser, web.base, table, "Ann")
    watcher = open_spectator(browser, web.base, table)
    seen: dict[str, int] = {"several": 0, "pass": 0, "double": 0, "single": 0, "wild": 0}
    rng = random.Random(4)
    for _ in range(400):
        if all(seen.values()) and seen["several"] >= 2:
            break
        wait_for(lambda: to_act(ann) or last_state(ann)["over"], 20, "Ann was never to act", ann.page)
        legal = last_state(ann)["legal"]
        several = [p for p in legal if len(p.split()) > 1]
        wild = [p for p in legal if "=" in p]
        if "double" in legal and not seen["double"]:
            click_word(ann, "double")
            seen["double"] += 1
        elif wild and not seen["wild"]:
            text = rng.choice(wild)
            select_and_play(ann, text)
            seen["wild"] += 1
            seen["several"] += len(text.split()) > 1
        elif several and rng.random() < 0.7:
            select_and_play(ann, rng.choice(several))
            seen["several"] += 1
        elif "pass" in legal and (not seen["pass"] or rng.random() < 0.3 or set(legal) <= {"pass", "double"}):
            click_word(ann, "pass")
            seen["pass"] += 1
        else:
            select_and_play(ann, rng.choice([p for p in legal if p not in ("pass", "double")]))
            seen["single"] += 1
        if sum(seen.values()) % 5 == 0:
            assert_no_leak(ann, live_match(web, table), "northstar")
            assert_no_leak(watcher, live_match(web, table), "northstar")
    assert all(seen.values()), seen
    assert_no_leak(ann, live_match(web, table), "northstar")
    assert_no_leak(watcher, live_match(web, table), "northstar")
    assert ann.page.errors == [] and watcher.page.errors == []  # type: ignore[attr-defined]


def test_an_illegal_play_typed_in_is_refused_with_the_rule_and_nothing_changes(web: ThreadServer, browser: Any) -> None:
    seats = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    table = seeded_table(web, "whist", seats, seed=9, bot_delay=0.0)
    ann = take_seat(browser, web.base, table, "Ann")
    wait_for(lambda: to_act(ann), 15, "Ann was never to act", ann.page)
    version = ann.version
    ann.page.get_by_text("Type a move").click()
    ann.page.get_by_label("an action in notation").fill("QX")
    ann.page.get_by_role("button", name="Send move").click()
    alert = ann.page.get_by_role("alert")
    alert.wait_for()
    assert "QX" in alert.inner_text()
    assert ann.version == version and to_act(ann)


def test_free_clubs_auction_chest_handicaps_joker_partners_and_the_pass_by_clicking(
    web: ThreadServer, browser: Any
) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    # seed 7 meets every stage (a joker bid after a ten's handicap included) within the first hands
    table = seeded_table(web, "free(target=5000)", seats, seed=7, bot_delay=0.0)
    ann = take_seat(browser, web.base, table, "Ann")
    seen = {"bid": 0, "chest": 0, "ten": 0, "pass_right": 0, "joker": 0, "auction_pass": 0}
    rng = random.Random(8)
    for _ in range(1500):
        if all(seen.values()):
            break
        wait_for(lambda: to_act(ann), 30, "Ann was never to act", ann.page)
        msg = last_state(ann)
        stage, legal = msg["view"]["stage"], msg["legal"]
        if msg["view"]["chest"]:  # the auction's winner sees the treasure chest it took (FC-2)
            assert msg["view"]["winner"] == ann.seat
            row = ann.page.locator(".extra", has_text="The treasure chest (now in your hand)").locator("[data-card]")
            shown = row.evaluate_all("(els) => els.map((e) => e.dataset.card)")
            assert sorted(shown) == sorted(msg["view"]["chest"].split()) and len(shown) == 6
            seen["chest"] += 1
        if stage == "auction":
            bids = [b for b in legal if b != "pass"]
            tens = [b for b in bids if b.startswith("10")]
            jokers = [b for b in bids if b.startswith("JK")]
            if "pass" in legal and bids and not seen["auction_pass"] and rng.random() < 0.2:
                click_word(ann, "pass")
                seen["auction_pass"] += 1
                continue
            if not bids:
                click_word(ann, "pass")
                continue
            pick = tens[0] if tens else jokers[0] if jokers and seen["ten"] else max(bids, key=bid_rank)
            click_card(ann, ".bid-cards", pick)
            seen["bid"] += 1
            seen["joker"] += pick.startswith("JK")
        elif stage == "handicap":
            assert "Ten handicap" in ann.page.locator("#turn").inner_text()
            click_turn(ann, rng)
            seen["ten"] += 1
        elif stage == "pass":
            assert "pass to the player on your right" in ann.page.locator("#turn").inner_text()
            click_turn(ann, rng)
            seen["pass_right"] += 1
        else:
            click_turn(ann, rng)
        if sum(seen.values()) % 6 == 0:
            assert_no_leak(ann, live_match(web, table), "free")
    assert all(seen.values()), seen
    assert_no_leak(ann, live_match(web, table), "free")
    assert ann.page.errors == []  # type: ignore[attr-defined]


def click_card(w: Watched, where: str, card: str) -> None:
    """Click a card of a row of the page (``.hand``, ``.bid-cards``) and wait for the table to answer."""
    version = w.version
    w.page.locator(f'{where} button.card[data-card="{card}"]').click()
    wait_for(lambda: w.version != version, 15, f"{card} was not answered", w.page)


def bid_rank(card: str) -> int:
    """A bid card's place in the order of bids (higher bids later)."""
    return STANDARD_WITH_JOKERS.parse(card).index


def open_spectator(browser: Any, base: str, table: str, width: int = 1280) -> Watched:
    """A browser watching the table (no seat)."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    watched = watch(page, None)
    page.goto(f"{base}/table/{table}?watch=1")
    page.wait_for_selector(".board")
    wait_for(lambda: watched.version is not None, 15, "the spectator got no state", page)
    return watched


SPECTATED_DECISIONS = 6
"""Ann's decisions while the spectator watches: the pass and five cards, so that tricks are played out and begun
again (the spectator of a whole match of every game, to its end: ``test_browser_table.py``)."""


@pytest.mark.long
def test_a_spectator_sees_the_public_table_and_no_hand(web: ThreadServer, browser: Any) -> None:
    seats = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    table = post(web.base, "/tables", {"game": "partnership", "seats": seats, "bot_delay": 0}, 201)["id"]
    ann = take_seat(browser, web.base, table, "Ann")
    watcher = open_spectator(browser, web.base, table, width=390)
    assert watcher.page.locator(".my-area").count() == 0
    assert watcher.page.locator(".conn").inner_text() == "watching"
    rng = random.Random(1)
    for _ in range(SPECTATED_DECISIONS):
        wait_for(lambda: to_act(ann), 15, "Ann was never to act", ann.page)
        if last_state(ann)["view"]["phase"] == "pass":
            from test_browser_play import choose_pass

            choose_pass(ann, rng)
        else:
            click_turn(ann, rng)
    wait_for(lambda: watcher.version == ann.version, 15, "the spectator fell behind", watcher.page)
    assert watcher.page.locator(".seat").count() == 4

    def trick_shown() -> bool:  # the page draws a message a moment after the browser received it
        on_table = sorted(t["card"] for t in last_state(watcher)["view"]["trick"])  # the public trick, per the server
        shown = watcher.page.eval_on_selector_all(
            ".trick-area .pile [data-card]", "(els) => els.map((e) => e.dataset.card)"
        )
        return sorted(shown) == on_table

    wait_for(trick_shown, 10, "the spectator's page does not show the trick on the table", watcher.page)
    assert watcher.page.locator(".hand").count() == 0
    assert_no_leak(watcher, live_match(web, table), "partnership")
    assert_no_leak(ann, live_match(web, table), "partnership")
    assert watcher.page.errors == []  # type: ignore[attr-defined]


def test_the_replay_viewer_steps_through_an_uploaded_record_showing_every_hand(browser: Any, web: ThreadServer) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{web.base}/replay")
    path = GOLDEN / "whist-1997-explicit.record.json"
    page.get_by_label("Record file").set_input_files(str(path))
    page.locator(".replay-controls").wait_for()
    record = json.loads(path.read_text())
    steps = len(record["hands"]) + sum(len(h["actions"]) for h in record["hands"])
    assert page.locator(".step-count").inner_text().startswith(f"Step 1 of {steps}")
    assert page.locator(".felt .seat").count() == 3
    assert page.locator(".felt .seat [data-card]").count() == 39  # every hand, face up
    assert page.locator(".hidden-piles [data-card]").count() == 13  # and the bid hand
    page.get_by_role("button", name="step forward").click()
    page.get_by_role("button", name="step forward").click()
    assert page.locator(".step-count").inner_text().startswith(f"Step 3 of {steps}")
    page.keyboard.press("ArrowLeft")
    assert page.locator(".step-count").inner_text().startswith(f"Step 2 of {steps}")
    page.keyboard.press("End")
    assert page.locator(".step-count").inner_text().startswith(f"Step {steps} of {steps}")
    assert page.locator(".scores tbody tr").count() == sum(1 for h in record["hands"] if h["actions"])
    page.get_by_role("button", name="step back").click()
    assert page.locator(".step-count").inner_text().startswith(f"Step {steps - 1} of {steps}")


def test_a_broken_record_is_refused_by_the_replay_viewer_with_the_rule(
    browser: Any, web: ThreadServer, tmp_path: Path
) -> None:
    record = json.loads((GOLDEN / "whist-1997-explicit.record.json").read_text())
    record["hands"][0]["actions"][5] = "ZZ"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    page = browser.new_context().new_page()
    page.goto(f"{web.base}/replay")
    page.get_by_label("Record file").set_input_files(str(broken))
    alert = page.get_by_role("alert")
    wait_for(lambda: "ZZ" in alert.inner_text(), 10, "no refusal shown", page)
    assert "hand 1, action 6" in alert.inner_text()
