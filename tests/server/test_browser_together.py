"""People together and kept safe, in a real Chromium: two friends follow each other from their profile pages and
invite each other, to a table (accepted from the notice, on another page) and to a tournament (declined: the other
is told); blocking a player one follows says that the follow ends; a player reports a rude line from the chat, which
blocks its writer for her; a moderator mutes the writer from the moderators' page, and the writer is told why on the
page and when trying to chat; a notice added while a page's socket is on its way to the server still reaches it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import keep_errors, wait_for
from serverkit import ThreadServer, post
from test_browser_access import assert_accessible
from test_browser_accounts import sign_up
from test_server_rated import account

from clubsuite.server.store.database import Store


@pytest.fixture
def web(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(tmp_path)) as running:
        yield running


def new_page(browser: Any, width: int = 1280) -> Any:
    return keep_errors(browser.new_context(viewport={"width": width, "height": 900}).new_page())


def table_of_two(base: str) -> str:
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    return str(post(base, "/tables", {"game": "whist", "seats": seats, "bot_delay": 10}, 201)["id"])


def take_seat(page: Any, base: str, table: str) -> None:
    page.goto(f"{base}/table/{table}")
    page.get_by_role("button", name="Take the seat").click()
    page.locator(".chat").wait_for(state="attached")


def lines(page: Any) -> list[str]:
    return list(page.locator(".chat-lines .chat-text").all_inner_texts())


def say(page: Any, text: str) -> None:
    field = page.get_by_role("textbox", name="Chat message", exact=True)
    field.fill(text)
    field.press("Enter")


TOUCHING = """(form) => {
  // the form's parts on the page (its words, its field, its button) that touch or overlap another of them
  const parts = [...form.children].filter((el) => el.getClientRects().length > 0
    && (el.textContent !== "" || el.matches("input, button")));
  const out = [];
  for (let i = 0; i < parts.length; i += 1) {
    for (let j = i + 1; j < parts.length; j += 1) {
      const a = parts[i].getBoundingClientRect(), b = parts[j].getBoundingClientRect();
      const apart = a.right + 2 <= b.left || b.right + 2 <= a.left || a.bottom + 2 <= b.top || b.bottom + 2 <= a.top;
      if (!apart) out.push(`${parts[i].tagName}.${parts[i].className} and ${parts[j].tagName}.${parts[j].className}`);
    }
  }
  return out;
}"""
"""Which parts of a form touch one another ([] where each stands at least 2 px apart from the others)."""


def test_two_friends_invite_each_other_to_a_table_and_to_a_tournament(web: ThreadServer, browser: Any) -> None:
    ann, bob = new_page(browser), new_page(browser, width=390)
    sign_up(ann, web.base, "Ann")
    sign_up(bob, web.base, "Bob")
    for page, other in ((ann, "Bob"), (bob, "Ann")):  # each follows the other from the other's profile
        page.goto(f"{web.base}/player/{other}")
        page.locator("#p-follow").click()
        wait_for(
            lambda page=page: page.locator("#p-follow").get_attribute("aria-pressed") == "true", 15, "no follow", page
        )
    table = table_of_two(web.base)
    take_seat(ann, web.base, table)
    bob.goto(f"{web.base}/")  # Bob is in the lobby
    invite = ann.locator(".chat-invite form")
    invite.get_by_placeholder("A player's name").fill("Bob")
    invite.get_by_role("button", name="Invite").click()
    ann.get_by_text("Invitation sent to Bob.").wait_for()
    notice = bob.locator(".notice", has_text="Ann invites you to a table.")
    notice.wait_for()  # pushed to Bob's open page
    notice.get_by_role("link", name="Join").click()
    bob.wait_for_url(f"**/table/{table}**")
    bob.get_by_role("button", name="Take the seat").click()
    bob.locator(".chat").wait_for(state="attached")
    ann.locator(".seat", has_text="Bob").first.wait_for()
    # and back: Bob invites Ann to a tournament; she declines, and he is told
    made = bob.evaluate(
        """async () => {
            const me = await (await fetch('/account')).json();
            const r = await fetch('/tournaments', {method: 'POST', headers: {'content-type': 'application/json',
              'x-csrf-token': me.csrf}, body: JSON.stringify({format: 'arena', game: 'whist', name: 'Our arena'})});
            return (await r.json()).id;
        }"""
    )
    bob.goto(f"{web.base}/tournament/{made}")
    form = bob.locator(".invite-form")
    form.wait_for()
    # the form's words, field and button stand apart on the tournament's page as at the table (a bug: unstyled there,
    # "Invite a player" ran into its field)
    assert form.evaluate(TOUCHING) == [], "the tournament's invitation form"
    assert invite.evaluate(TOUCHING) == [], "the table's invitation form"
    form.get_by_placeholder("A player's name").fill("Ann")
    form.get_by_role("button", name="Invite").click()
    bob.get_by_text("Invitation sent to Ann.").wait_for()
    offered = ann.locator(".notice", has_text="Bob invites you to the tournament Our arena.")
    offered.wait_for()  # on Ann's table page
    offered.get_by_role("button", name="Decline").click()
    bob.locator(".notice", has_text="Ann declined your invitation.").wait_for()
    bob.goto(f"{web.base}/player/Bob")  # his own page: Ann, followed, online at her table
    bob.locator("#friends li", has_text="Ann").wait_for()
    assert ann.errors == [] and bob.errors == []


def test_blocking_a_player_you_follow_says_that_the_follow_ends(web: ThreadServer, browser: Any) -> None:
    ann = new_page(browser, width=390)
    account(web, "Bob")[0].close()
    sign_up(ann, web.base, "Ann")
    ann.goto(f"{web.base}/player/Bob")
    ann.locator("#p-follow").click()
    ann.get_by_text("Blocking also ends your following of them.").wait_for()  # said before the choice
    ann.locator("#p-block").click()
    ann.get_by_text("You blocked Bob and no longer follow them.").wait_for()  # and after it
    assert ann.locator("#p-follow").get_attribute("aria-pressed") == "false"
    assert ann.get_by_text("Blocking also ends your following of them.").count() == 0
    ann.locator("#p-block").click()  # unblocked: nothing more to say
    wait_for(lambda: ann.locator("#together-said").inner_text() == "", 15, "the word stayed", ann)
    assert ann.errors == []


def test_a_notice_added_while_the_pages_socket_is_on_its_way_still_reaches_the_page(
    web: ThreadServer, browser: Any
) -> None:
    """Bob's page has read his kept notices, and its socket is held on its way to the server when a moderator's
    warning is added for him: the server has no socket of his to tell it to, and its look for new notices leaves it
    alone as told (docs/protocol.md). The page reads its notices again once the server welcomes the socket, which it
    does only after registering it for his notices: the warning shows all the same. (The socket is held before the
    server accepts it, so this holds the page to reading at the welcome; that the server welcomes a socket only once
    it is registered is its own order, in ``live_routes.py``.)"""
    bob = new_page(browser)
    sign_up(bob, web.base, "Bob")
    state = web.server.config.app.state
    hub = state.hub
    bob_id = bob.evaluate("async () => (await (await fetch('/account')).json()).id")
    held: list[Any] = []
    # not connected in the handler: the page's socket opens at once (Playwright stands in for the server), and what
    # the page sends it meanwhile (the topics it watches) is dropped, which this test does not need
    bob.route_web_socket("**/live", lambda ws: held.append(ws))
    bob.goto(f"{web.base}/")
    wait_for(lambda: len(held) == 1, 60, "the page opened no socket", bob)
    bob.wait_for_load_state("networkidle")  # every read the page makes before its socket reaches the server answered
    warning = state.watching.notices.add(bob_id, "warn", {"reason": "late words"})
    asyncio.run_coroutine_threadsafe(warning, hub.loop).result(30)
    held[0].connect_to_server()
    bob.locator(".notice", has_text="late words").wait_for()
    assert bob.errors == []


def test_a_rude_line_is_reported_from_the_chat_and_a_moderator_mutes_its_writer(
    web: ThreadServer, browser: Any
) -> None:
    ann, bob, mona = new_page(browser), new_page(browser), new_page(browser)
    for page, name in ((ann, "Ann"), (bob, "Bob"), (mona, "Mona")):
        sign_up(page, web.base, name)
    moderation = web.server.config.app.state.moderation
    hub = web.server.config.app.state.hub
    mona_id = mona.evaluate("async () => (await (await fetch('/account')).json()).id")
    asyncio.run_coroutine_threadsafe(moderation.set_moderator(mona_id, True), hub.loop).result(30)
    table = table_of_two(web.base)
    take_seat(ann, web.base, table)
    take_seat(bob, web.base, table)
    say(bob, "you play like a turnip")
    wait_for(lambda: "you play like a turnip" in lines(ann), 15, "Ann never saw the line", ann)
    line = ann.locator(".chat-line", has_text="you play like a turnip")
    line.get_by_role("button", name="Report").click()
    line.get_by_label("What happened (a few words)").fill("rude")
    line.get_by_role("button", name="Send the report").click()
    line.get_by_text("Thank you: a moderator will look.").wait_for()
    say(bob, "second line from Bob")  # Ann blocked Bob by reporting him: his chat no longer reaches her
    say(ann, "Ann speaks")
    wait_for(lambda: "Ann speaks" in lines(bob) and "second line from Bob" in lines(bob), 15, "Bob's chat", bob)
    wait_for(lambda: "Ann speaks" in lines(ann), 15, "Ann's own line", ann)
    assert "second line from Bob" not in lines(ann)
    mona.goto(f"{web.base}/moderation")
    item = mona.locator(".report-item", has_text="Bob")
    item.wait_for()
    assert "you play like a turnip" in item.inner_text()  # the line as the server kept it
    item.get_by_placeholder("Why (the player is told)").fill("insults at the table")
    item.get_by_role("button", name="Mute", exact=True).click()
    mona.get_by_text("No reports.").wait_for()
    bob.locator(".notice", has_text="insults at the table").wait_for()  # told on his page, pushed
    say(bob, "and now?")
    problem = bob.locator(".chat-error")
    wait_for(lambda: "insults at the table" in problem.inner_text(), 15, "no refusal", bob)
    # in the page's words, its time the reader's own (it was the server's English, "... until 2026-11-29 21:10 UTC")
    refusal = problem.inner_text()
    assert refusal.startswith("You may not chat until ") and "UTC" not in refusal, refusal
    assert refusal.endswith("The moderators' reason: insults at the table"), refusal
    assert ann.errors == [] and mona.errors == []
    assert all("409" not in e for e in bob.errors)


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadServer, dict[str, str]]]:
    """A server where Ann, a moderator, follows Bob, is invited by him to his table, and Bob has reported Cleo:
    (the server, Ann's cookies). Made once for the pages read in each language (reading them changes nothing)."""
    with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("people"))) as web:
        ann, ann_id, ann_h = account(web, "Ann")
        bob, _, bob_h = account(web, "Bob")
        ann.post("/players/Bob/follow", headers=ann_h)
        table = table_of_two(web.base)
        bob.post(f"/tables/{table}/join", json={}, headers=bob_h)
        bob.post("/invitations", json={"to": "Ann", "table": table}, headers=bob_h)
        account(web, "Cleo")[0].close()
        # of another player: a report about a moderator (Ann, below) is the operator's, never on the moderators' page
        bob.post("/reports", json={"kind": "player", "player": "Cleo", "reason": "rude"}, headers=bob_h)
        moderation = web.server.config.app.state.moderation
        hub = web.server.config.app.state.hub
        asyncio.run_coroutine_threadsafe(moderation.set_moderator(ann_id, True), hub.loop).result(30)
        yield web, dict(ann.cookies.items())
        ann.close()
        bob.close()


@pytest.mark.parametrize("lang", ["en", "de", "fr", "nl"])
def test_the_people_and_moderation_pages_have_no_serious_accessibility_violation_on_a_phone(
    people: tuple[ThreadServer, dict[str, str]], browser: Any, lang: str
) -> None:
    web, cookies = people
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": k, "value": v, "url": web.base} for k, v in cookies.items()])
    context.add_init_script(f"localStorage.setItem('clubs.lang', JSON.stringify('{lang}'))")
    page = keep_errors(context.new_page())
    for path, ready in (
        ("/player/Ann", "#people-title"),
        ("/player/Bob", "#p-follow"),
        ("/moderation", ".report-item"),
    ):
        page.goto(web.base + path)
        page.locator(ready).wait_for()
        page.locator(".notice").first.wait_for()  # Bob's invitation, on every page
        assert_accessible(page, f"{path} in {lang}")
    assert page.errors == []
