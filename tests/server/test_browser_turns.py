"""Turn-based tables as a player sees them, in a real Chromium: three friends' whist table at a day a move, made and
joined over HTTP; the third looks at it once and goes away, and the two others move (over the table's socket) until
it is her turn. Her "Your turn" page lists the table first, as hers to play, with the time left in words; every
page's bar counts it; and the table shows her clock and, in its play log, the moves made while she was away under
"While you were away". In English and German, on a phone (390 x 844) and a laptop (1280 x 800): screenshots kept in
the test's folder, nothing wider than the window, and axe-core finds no serious or critical violation."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import keep_errors, resize, wait_for
from serverkit import Client, ThreadServer
from test_browser_access import assert_accessible
from turnkit import DAY, Player, play, turn_table
from turnkit import wait_for as poll

from clubsuite.i18n import Words
from clubsuite.server.store.database import Store
from clubsuite.server.turns.keeper import MatchEnd

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
Message = dict[str, Any]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("turns"))) as running:
        yield running


def latest(client: Client) -> Message:
    """The table as ``client`` was last told (a state or an update), waiting for the first one."""
    if not any(m["type"] in ("state", "update") for m in client.messages):
        client.until(lambda m: m["type"] in ("state", "update"))
    return client.last_state()


def move(at: dict[int, Client], seat: int) -> None:
    """``seat`` plays its first legal action, and every client hears of it."""

    def asked(m: Message) -> bool:
        return m["type"] in ("state", "update") and m["to_act"] == seat and bool(m.get("legal"))

    msg = latest(at[seat])
    if not asked(msg):
        msg = at[seat].until(asked)
    at[seat].send({"type": "act", "version": msg["version"], "action": msg["legal"][0]})
    for client in at.values():
        client.until(lambda m, v=msg["version"]: m["type"] == "update" and m["version"] > v)


def away_and_back(web: ThreadServer, lang: str) -> tuple[str, Player, int]:
    """Ann's table with Bob and Cleo: the three play a few moves, Cleo leaves after one of hers, and Ann and Bob move
    until it is her turn again. The table, Cleo, and how many moves were made while she was away."""
    suffix = lang.upper()
    ann, bob, cleo = (Player(web.base, f"{name}{suffix}") for name in ("Ann", "Bob", "Cleo"))
    table = turn_table(ann, [bob, cleo], pace=DAY, on_timeout="bot")
    assert cleo.seat is not None and cleo.token is not None
    seated = [(p.seat, p.token) for p in (ann, bob, cleo)]
    at = {seat: Client(web.base, table, token) for seat, token in seated if seat is not None}
    try:
        # they play a few moves, Cleo too, and she goes away just after one of hers
        while True:
            now = latest(at[cleo.seat])
            move(at, now["to_act"])
            if now["to_act"] == cleo.seat and now["version"] >= 2 and latest(at[cleo.seat])["to_act"] != cleo.seat:
                break
        at.pop(cleo.seat).close()
        # the others move once the server has seen her go (what it sent her before, she saw)
        at[ann.seat or 0].until(lambda m: m["type"] == "presence" and not m["seats"][cleo.seat]["connected"])
        made = 0
        while (to_act := latest(at[ann.seat or 0])["to_act"]) != cleo.seat:
            move(at, to_act)
            made += 1
    finally:
        for client in at.values():
            client.close()
    for p in (ann, bob):
        p.close()
    return table, cleo, made


def cleos_page(browser: Any, web: ThreadServer, cleo: Player, lang: str) -> Any:
    """A page of Cleo's browser (her session's cookie), in ``lang``, on a phone to begin with."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": k, "value": v, "url": web.base} for k, v in cleo.http.cookies.items()])
    context.add_init_script(f"localStorage.setItem('clubs.lang', {json.dumps(json.dumps(lang))});")
    return keep_errors(context.new_page())


def fits(page: Any) -> bool:
    """Whether the page is no wider than the window (nothing to scroll sideways)."""
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"))


def shoot(page: Any, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_player_away_finds_her_turn_listed_first_counted_in_the_bar_and_the_moves_she_missed_in_the_log(
    web: ThreadServer, browser: Any, lang: str, tmp_path: Path
) -> None:
    words = Words(lang)
    table, cleo, made = away_and_back(web, lang)
    assert made >= 1  # at least one move, whoever the cards made to lead
    # her clock is written just after the move that began her turn (the server's own task): waited for
    listed = poll(lambda: (found := cleo.get("/turns"))["waiting"] == 1 and found, 30, "her clock")
    assert listed["tables"][0]["id"] == table and listed["tables"][0]["mine"]
    page = cleos_page(browser, web, cleo, lang)
    page.goto(f"{web.base}/your-turn")
    first = page.locator(".turn-list .turn-entry").first
    first.wait_for()
    assert first.get_attribute("data-table") == table and first.get_attribute("data-state") == "mine"
    assert first.locator(".turn-who").inner_text() == words.get("Your turn")
    # the time left in words, to the minute: "23 h 59 min left", "noch 23 Std. 59 Min."
    left = first.locator(".turn-left").inner_text()
    before, after = words.get("{time} left").split("{time}")
    assert left.startswith(before) and left.endswith(after) and re.search(r"\d", left) and "{" not in left, left
    shown = first.inner_text()
    assert not any(raw in shown for raw in ("86400", "adjourn", "on_timeout", "seat 1", "seat 2", "seat 3")), shown
    assert first.locator(".turn-pace").inner_text().startswith(words.get("a move within {time}").split("{time}")[0])
    # every page's bar counts the tables waiting for her move
    count = page.locator("#turns-link .turns-count")
    wait_for(lambda: count.inner_text() == "1", 15, "the bar's count", page)
    assert page.locator("#turns-link .turns-words").inner_text() == words.get("Your turn")
    shots = [shoot(page, tmp_path, f"turns-{lang}-phone")]
    assert fits(page), f"the turns page is wider than a phone in {lang}"
    assert_accessible(page, f"/your-turn ({lang}, phone)")
    page.set_viewport_size(LAPTOP)
    shots.append(shoot(page, tmp_path, f"turns-{lang}-laptop"))
    assert fits(page), f"the turns page is wider than a laptop in {lang}"
    assert_accessible(page, f"/your-turn ({lang}, laptop)")
    # the lobby's bar too, and the turn-based choice of its new-table form, said in words
    page.goto(f"{web.base}/")
    wait_for(lambda: page.locator("#turns-link .turns-count").inner_text() == "1", 15, "the lobby's count", page)
    page.locator("#play-turns").check()
    page.locator("#turn-options").wait_for()
    options = page.locator("#pace option").all_inner_texts()
    assert words.get("a day") in options and not any(o.isdigit() for o in options), options
    assert page.locator("label[for=on-timeout-adjourn]").inner_text() == words.get(
        "The match stops until a player resumes it"
    )
    page.locator("#turn-options").scroll_into_view_if_needed()
    shots.append(shoot(page, tmp_path, f"lobby-{lang}-laptop"))
    assert_accessible(page, f"the lobby with the turn-based choice ({lang}, laptop)")
    # her table: her clock, and the moves she missed under "While you were away" in the play log
    page.goto(f"{web.base}/your-turn")
    page.locator(f'.turn-entry[data-table="{table}"] h3 a').click()
    page.wait_for_url(f"**/table/{table}")
    heading = page.locator(".log li.log-heading")
    heading.wait_for(state="attached")
    assert heading.inner_text() == words.get("While you were away")
    after_heading = page.evaluate(
        """() => { const h = document.querySelector('.log li.log-heading');
                  let n = 0; for (let li = h.nextElementSibling; li; li = li.nextElementSibling) n += 1; return n; }"""
    )
    assert after_heading >= made, (after_heading, made)
    clock = page.locator("#turn-clock")
    clock.wait_for()
    assert clock.inner_text().startswith(words.get("Your clock: {clock}").split("{clock}")[0]), clock.inner_text()
    page.locator("#autoplay").wait_for(state="attached")
    shots.append(shoot(page, tmp_path, f"table-{lang}-laptop"))
    assert fits(page), f"the table is wider than a laptop in {lang}"
    assert_accessible(page, f"the turn-based table ({lang}, laptop)")
    resize(page, PHONE)
    page.locator('[data-action="drawer-log"]').click()
    heading.wait_for()
    shots.append(shoot(page, tmp_path, f"table-{lang}-phone"))
    assert fits(page), f"the table is wider than a phone in {lang}"
    assert_accessible(page, f"the turn-based table's log ({lang}, phone)")
    page.locator('[data-action="drawer-log"]').click()  # closed again: the table, her clock under the prompt
    clock.wait_for()
    shots.append(shoot(page, tmp_path, f"table-{lang}-phone-clock"))
    print("screenshots:", *shots, sep="\n  ")
    assert page.errors == []
    cleo.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_turn_based_play_is_set_on_ones_own_profile_hours_reminders_and_a_vacation(
    web: ThreadServer, browser: Any, lang: str, tmp_path: Path
) -> None:
    words = Words(lang)
    dora = Player(web.base, f"Dora{lang.upper()}")
    page = cleos_page(browser, web, dora, lang)
    page.goto(f"{web.base}/player/{dora.name}")
    part = page.locator("#turn-settings")
    part.wait_for()
    assert part.locator("h2").inner_text() == words.get("Turn-based play")
    assert page.locator("#turn-zone").input_value() == "UTC"  # the browser's zone is Chromium's here
    page.locator("#turn-from").fill("09:00")
    page.locator("#turn-until").fill("21:30")
    page.locator("#turn-page").uncheck()
    part.get_by_role("button", name=words.get("Save")).click()
    page.locator("#turn-settings .told", has_text=words.get("Saved.")).wait_for()
    saved = dora.get("/account/turns")
    assert (saved["day_start"], saved["day_end"], saved["page"]) == (9 * 60, 21 * 60 + 30, False), saved
    # a vacation: three days taken, the days left counted, then ended early
    left = saved["vacation_days_left"]
    page.locator("#vacation-days").fill("3")
    part.get_by_role("button", name=words.get("Take the vacation")).click()
    end = part.get_by_role("button", name=words.get("End it now"))
    end.wait_for()
    assert dora.get("/account/turns")["vacation_days_left"] < left
    shots = [shoot(page, tmp_path, f"settings-{lang}-phone")]
    assert fits(page), f"the profile is wider than a phone in {lang}"
    assert_accessible(page, f"the turn-based settings ({lang}, phone)")
    page.set_viewport_size(LAPTOP)
    part.scroll_into_view_if_needed()
    shots.append(shoot(page, tmp_path, f"settings-{lang}-laptop"))
    assert_accessible(page, f"the turn-based settings ({lang}, laptop)")
    end.click()
    wait_for(lambda: end.count() == 0, 15, "the vacation did not end", page)
    print("screenshots:", *shots, sep="\n  ")
    assert page.errors == []
    dora.close()


def test_after_her_move_the_table_offers_the_next_table_waiting_for_her(web: ThreadServer, browser: Any) -> None:
    ann, cleo, bob = (Player(web.base, name) for name in ("AnnNext", "CleoNext", "BobNext"))
    first = turn_table(ann, [cleo, bob], pace=DAY)  # Cleo in seat 1, the first to decide; her friends are away
    bots = [{"kind": "bot"}, {"kind": "person"}, {"kind": "bot"}]
    second = cleo.post("/tables", {"game": "whist", "pace": DAY, "public": False, "seats": bots}, status=201)
    cleo.post(f"/invites/{second['invite']}/join", {"seat": 1})
    page = cleos_page(browser, web, cleo, "en")
    page.goto(f"{web.base}/table/{first}")
    keep = page.locator('.controls button.action[data-action="keep"]')
    keep.wait_for()
    assert page.locator("a.next-table").count() == 0  # her move here comes first
    keep.click()
    link = page.locator("a.next-table")
    wait_for(lambda: link.count() == 1, 30, "the next table's link", page)
    assert link.get_attribute("href") == f"/table/{second['id']}"
    assert link.inner_text() == "Next table waiting for you"
    link.click()
    page.wait_for_url(f"**/table/{second['id']}")
    page.locator('.controls button.action[data-action="keep"]').wait_for()
    assert page.errors == []
    for p in (ann, cleo, bob):
        p.close()


@pytest.mark.parametrize("lang", ["en", "de", "fr", "nl"])
def test_a_match_that_ended_while_she_was_away_is_told_on_her_next_page_with_her_place(
    web: ThreadServer, browser: Any, lang: str, tmp_path: Path
) -> None:
    """The notice of a turn-based match that ended while she was away (made as the keeper makes it when the match
    ends: ``tests/server/test_server_turns.py`` shows when): her place in words, a link to the table, at the width of
    a phone and of a laptop, in every language."""
    words = Words(lang)
    ann, cleo = Player(web.base, f"AnnEnd{lang}"), Player(web.base, f"CleoEnd{lang}")
    bob = Player(web.base, f"BobEnd{lang}")
    table = turn_table(ann, [cleo, bob], pace=DAY)
    me = str(cleo.get("/account")["id"])
    poll(lambda: any(n["kind"] == "turn" for n in cleo.get("/notices")["notices"]), 30, "her turn's notice")
    named = next(e for e in cleo.get("/turns")["tables"] if e["id"] == table)  # its name, and the name's parts
    reminders = web.server.config.app.state.reminders
    standing = {"place": 2, "of": 3, "won": False}
    told = reminders.match_over(MatchEnd(me, table, named["name"], named["name_words"], 1, False, standing))
    asyncio.run_coroutine_threadsafe(told, web.server.config.app.state.hub.loop).result(60)
    page = cleos_page(browser, web, cleo, lang)
    page.goto(f"{web.base}/your-turn")
    title = page.locator(f'.turn-entry[data-table="{table}"] h3').inner_text()  # in her language, as pages word it
    notice = page.locator('.notice[data-kind="match_over"]')
    notice.wait_for()
    said = words.get("The match at {title} is over. Your place: {place} of {of}.")
    assert notice.locator("p").inner_text() == said.format(title=title, place=2, of=3)
    page.goto(f"{web.base}/")
    notice.wait_for()
    assert page.locator('.notice[data-kind="turn"]').count() == 0  # no turn waits at a table whose match is over
    link = notice.locator("a")
    assert link.inner_text() == words.get("See how it ended") and link.get_attribute("href") == f"/table/{table}"
    shots = [shoot(page, tmp_path, f"match-over-{lang}-phone")]
    assert fits(page)
    assert_accessible(page, f"the match-over notice ({lang}, phone)")
    page.set_viewport_size(LAPTOP)
    shots.append(shoot(page, tmp_path, f"match-over-{lang}-laptop"))
    assert fits(page)
    link.click()
    page.wait_for_url(f"**/table/{table}")
    page.locator(".log").first.wait_for(state="attached")
    assert page.locator('.notice[data-kind="match_over"]').count() == 0  # followed: put away, and the table says it
    # a match she played to its end against two bots: her list says how she finished, as its results do
    bots = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    done = cleo.post("/tables", {"game": "whist(target=1)", "pace": DAY, "public": False, "seats": bots}, status=201)
    seat = cleo.post(f"/invites/{done['invite']}/join", {"seat": 0})
    at = {0: Client(web.base, done["id"], seat["token"])}
    assert play(at, lambda m: False)["over"]
    at[0].close()
    result = next(
        s for s in cleo.get(f"/tables/{done['id']}/results?invite={done['invite']}")["seats"] if s["seat"] == 0
    )
    page.goto(f"{web.base}/your-turn")
    over = page.locator(f'.turn-entry[data-table="{done["id"]}"]')
    over.wait_for()
    assert over.get_attribute("data-state") == "over"
    want = words.get("You won.") if result["won"] else words.get("Your place: {place} of {of}.")
    assert over.locator(".turn-place").inner_text() == want.format(place=result["place"], of=3)
    over.scroll_into_view_if_needed()
    shots.append(shoot(page, tmp_path, f"turns-over-{lang}-laptop"))
    assert_accessible(page, f"/your-turn with a match over ({lang}, laptop)")
    print("screenshots:", *shots, sep="\n  ")
    assert page.errors == []
    for p in (ann, cleo, bob):
        p.close()
