"""The table chat in a real Chromium (pytest-playwright driving Debian's package): two people and spectators at a
table, each in a browser of their own. A player's line reaches every page, a spectator's only the spectators';
markup and control characters are shown as the characters they are or refused with a message; a mute hides a
person's lines and survives a reload; the quick phrases say their words; what is being typed survives the page
being redrawn."""

from __future__ import annotations

from typing import Any

from browserkit import Watched, wait_for, watch
from browserkit import shared_web as shared_web  # the module's server
from browserkit import tables_closed_after_each_test as tables_closed_after_each_test
from serverkit import ThreadServer, post

from timeouts import PAGE_TIMEOUT_MS


def new_page(browser: Any, width: int = 1280) -> tuple[Any, list[str], list[str]]:
    """A page in a browser context of its own (its own storage), with the page's errors and any dialog it opened."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    return page, errors, dialogs


def seat_page(browser: Any, base: str, table: str, name: str, width: int = 1280) -> Watched:
    """Open the table's page and take a seat as ``name``; the page with its socket's frames kept."""
    page, errors, dialogs = new_page(browser, width)
    page.goto(f"{base}/table/{table}")
    page.get_by_label("Your name").fill(name)
    watched = watch(page, None)
    page.get_by_role("button", name="Take the seat").click()
    page.locator(".chat").wait_for(state="attached")  # on a phone it is in a drawer, closed
    wait_for(lambda: any(m["type"] == "welcome" for m in watched.received), 15, f"{name} got no welcome", page)
    watched.seat = next(m["seat"] for m in watched.received if m["type"] == "welcome")
    watched.errors, watched.dialogs = errors, dialogs  # type: ignore[attr-defined]
    return watched


def watch_page(browser: Any, base: str, table: str, width: int = 1280) -> Watched:
    """Open the table's page to watch it."""
    page, errors, dialogs = new_page(browser, width)
    watched = watch(page, None)
    page.goto(f"{base}/table/{table}?watch=1")
    page.locator(".chat").wait_for(state="attached")  # on a phone it is in a drawer, closed
    watched.errors, watched.dialogs = errors, dialogs  # type: ignore[attr-defined]
    return watched


def table_of_two(base: str) -> str:
    """Whist for two people and a bot that takes its time, so that the pages stay on the chat."""
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    return str(post(base, "/tables", {"game": "whist", "seats": seats, "bot_delay": 10}, 201)["id"])


def texts(w: Watched) -> list[str]:
    """The chat lines the page shows, oldest first."""
    return list(w.page.locator(".chat-lines .chat-text").all_inner_texts())


def shows(w: Watched, text: str, seconds: float = 15) -> None:
    """Wait until the page shows the chat line ``text``."""
    wait_for(lambda: text in texts(w), seconds, f"the page never showed {text!r}: {texts(w)}", w.page)


def received(w: Watched, text: str) -> bool:
    """Whether the page's socket was sent the chat line ``text``."""
    return any(m["type"] == "chat" and m["text"] == text for m in w.received)


def type_line(w: Watched, text: str) -> None:
    """Type ``text`` into the chat field and press Enter."""
    field = w.page.get_by_role("textbox", name="Chat message", exact=True)
    field.fill(text)
    field.press("Enter")


def refused(w: Watched, words: str) -> None:
    """Wait until the chat panel says why a line was not sent."""
    problem = w.page.locator(".chat-error")
    wait_for(lambda: words in problem.inner_text(), 15, f"no refusal saying {words!r}", w.page)


def clean(*pages: Watched) -> None:
    """No page had a script error or opened a dialog."""
    for w in pages:
        assert w.errors == [] and w.dialogs == []  # type: ignore[attr-defined]


def test_a_players_line_reaches_every_page_and_a_spectators_line_only_the_spectators(
    web: ThreadServer, browser: Any
) -> None:
    table = table_of_two(web.base)
    ann, bob = seat_page(browser, web.base, table, "Ann"), seat_page(browser, web.base, table, "Bob")
    eve, kim = watch_page(browser, web.base, table), watch_page(browser, web.base, table)
    type_line(ann, "Hello Bob")
    for w in (ann, bob, eve, kim):
        shows(w, "Hello Bob")
    assert ann.page.locator(".chat-line.mine .chat-name").inner_text() == "You"
    assert bob.page.locator(".chat-line .chat-name").first.inner_text() == "Ann"
    type_line(eve, "Bob holds the trumps")
    shows(kim, "Bob holds the trumps")
    spectators = kim.page.locator('.chat-line[data-channel="spectators"]')
    assert spectators.locator(".chat-tag").inner_text() == "spectator"  # marked as the spectators' talk
    assert spectators.locator(".chat-name").inner_text().startswith("Spectator ")
    type_line(bob, "Thanks Ann")  # said after the spectator's line: once it is shown, the other would have been
    for w in (ann, bob, eve, kim):
        shows(w, "Thanks Ann")
    for w in (ann, bob):
        assert texts(w) == ["Hello Bob", "Thanks Ann"]
        assert not received(w, "Bob holds the trumps")
    assert texts(eve) == texts(kim) == ["Hello Bob", "Bob holds the trumps", "Thanks Ann"]
    clean(ann, bob, eve, kim)


def test_markup_is_shown_as_its_characters_and_control_characters_are_refused_with_a_message(
    web: ThreadServer, browser: Any
) -> None:
    table = table_of_two(web.base)
    ann, bob = seat_page(browser, web.base, table, "Ann"), seat_page(browser, web.base, table, "Bob")
    eve = watch_page(browser, web.base, table)
    markup = "<img src=x onerror=alert(1)><b>hi</b> &amp; <script>alert(2)</script>"
    type_line(ann, markup)
    for w in (ann, bob, eve):
        shows(w, markup)
        lines = w.page.locator(".chat-lines")
        assert lines.locator("img, b, script").count() == 0  # no element was made of it
        shape = lines.locator(".chat-text").last.evaluate("(e) => [e.childNodes.length, e.firstChild.nodeType]")
        assert shape == [1, 3]  # one text node
    for sneaky in ("I pass\u202e ssap I", "bell\u0007", "zero\u200bwidth", "\u2066isolated\u2069"):
        type_line(ann, sneaky)
        refused(ann, "control or invisible formatting characters")
        assert (
            ann.page.get_by_role("textbox", name="Chat message", exact=True).input_value() == sneaky
        )  # kept, to be put right
        assert not any(m.get("type") == "chat" and m.get("text") == sneaky for m in ann.sent)  # never sent
    type_line(ann, "   ")
    refused(ann, "cannot be blank")
    type_line(ann, "plain again")  # the refusal goes once a line is said
    for w in (ann, bob, eve):  # each page shows it when its own copy arrives: wait for every one
        shows(w, "plain again")
        assert texts(w) == [markup, "plain again"]
    assert ann.page.locator(".chat-error").inner_text() == ""
    ann.page.wait_for_timeout(200)  # a dialog an injected handler opened would have shown by now
    clean(ann, bob, eve)


def test_a_mute_hides_a_persons_lines_and_survives_a_reload(web: ThreadServer, browser: Any) -> None:
    table = table_of_two(web.base)
    ann, bob = seat_page(browser, web.base, table, "Ann"), seat_page(browser, web.base, table, "Bob")
    eve = watch_page(browser, web.base, table)
    type_line(bob, "first from Bob")
    shows(ann, "first from Bob")
    ann.page.get_by_role("button", name="Mute Bob", exact=True).click()
    assert texts(ann) == []
    assert ann.page.get_by_role("button", name="Unmute Bob", exact=True).is_visible()
    type_line(bob, "second from Bob")
    shows(eve, "second from Bob")
    wait_for(lambda: received(ann, "second from Bob"), 15, "Ann's page was not sent Bob's line", ann.page)
    type_line(ann, "can anyone hear me")
    shows(ann, "can anyone hear me")  # her own lines are never hidden
    assert texts(ann) == ["can anyone hear me"]
    ann.page.reload()
    ann.page.locator(".chat").wait_for()
    shows(ann, "can anyone hear me")  # the history came back with the state ...
    assert texts(ann) == ["can anyone hear me"]  # ... and Bob is still muted
    ann.page.get_by_role("button", name="Unmute Bob", exact=True).click()
    assert texts(ann) == ["first from Bob", "second from Bob", "can anyone hear me"]
    shows(bob, "can anyone hear me")  # Bob's copy of Ann's line may come after hers
    assert texts(bob) == texts(ann)  # muting is the reader's own: Bob's page shows everything
    clean(ann, bob, eve)


def test_a_quick_phrase_button_says_its_phrase(web: ThreadServer, browser: Any) -> None:
    table = table_of_two(web.base)
    ann, bob = seat_page(browser, web.base, table, "Ann"), seat_page(browser, web.base, table, "Bob")
    ann.page.get_by_role("button", name="Good luck", exact=True).click()
    shows(bob, "Good luck")
    assert bob.page.locator(".chat-line .chat-name").last.inner_text() == "Ann"
    assert any(m.get("type") == "chat" and m.get("text") == "Good luck" for m in ann.sent)
    clean(ann, bob)


def test_what_is_being_typed_and_the_focus_survive_the_table_being_redrawn_on_a_small_screen(
    web: ThreadServer, browser: Any
) -> None:
    table = table_of_two(web.base)
    ann = seat_page(browser, web.base, table, "Ann", width=360)
    bob = seat_page(browser, web.base, table, "Bob")
    ann.page.get_by_role("button", name="Chat", exact=True).click()  # on a phone, the chat is a drawer
    field = ann.page.get_by_role("textbox", name="Chat message", exact=True)
    field.click()
    field.press_sequentially("half a thou")
    renders = len(ann.received)
    watch_page(browser, web.base, table)  # someone comes to watch: Ann's page hears of it and redraws
    wait_for(lambda: any(m["type"] == "presence" for m in ann.received[renders:]), 15, "no presence", ann.page)
    ann.page.wait_for_function("() => document.activeElement && document.activeElement.matches('.chat-input')")
    field.press_sequentially("ght")
    assert field.input_value() == "half a thought"
    field.press("Enter")
    shows(bob, "half a thought")
    width = ann.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide at 360 px"
    clean(ann, bob)


def test_a_collapsed_chat_counts_the_lines_said_meanwhile(web: ThreadServer, browser: Any) -> None:
    table = table_of_two(web.base)
    ann, bob = seat_page(browser, web.base, table, "Ann"), seat_page(browser, web.base, table, "Bob")
    type_line(bob, "before")
    shows(ann, "before")
    toggle = ann.page.locator(".chat-toggle")
    toggle.click()
    assert toggle.inner_text() == "Show" and toggle.get_attribute("aria-expanded") == "false"
    type_line(bob, "are you there")
    wait_for(lambda: toggle.inner_text() == "Show (1 new)", 15, f"counted {toggle.inner_text()!r}", ann.page)
    toggle.click()
    shows(ann, "are you there")
    assert toggle.inner_text() == "Hide"
    toggle.click()
    assert toggle.inner_text() == "Show"  # read once shown
    ann.page.reload()  # collapsed stays collapsed
    ann.page.locator(".chat").wait_for()
    assert ann.page.locator(".chat-toggle").get_attribute("aria-expanded") == "false"
    clean(ann, bob)
