"""Helpers of the real-browser tests: Debian's Chromium found (or installed), a table made on a running server, a
page that keeps every WebSocket frame it receives, and the leak check of a page against the oracle of
``tests/knowable.py``.

Chromium comes from the distribution, not from Playwright's download. Headless (as the tests run unless
``--headed``), the tests run Debian's ``chromium-headless-shell``: the same Blink and V8 as ``chromium`` without the
desktop browser around them, which Playwright itself runs for headless Chromium; a page costs about a fifth less
CPU there. Where it is missing and the tests run as root, ``apt-get install -y chromium-headless-shell`` installs
it; where it cannot be had, the full ``chromium`` (installed the same way where missing) runs headless instead, and
``--headed`` always runs the full one. Where neither can be had, the browser tests skip with the reason, unless
``CLUBS_REQUIRE_BROWSER=1`` (CI sets it), where they fail instead.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from clubsuite.engine import SomeMatch
from knowable import cards_named, knowable_cards
from timeouts import PAGE_TIMEOUT_MS, pauses

HEADLESS_SHELL = ("chromium-headless-shell", ("chromium-headless-shell",))
FULL_CHROMIUM = ("chromium", ("chromium", "chromium-browser"))
"""A Debian package and the commands it may provide: the headless shell first where the tests run headless."""
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--renderer-process-limit=1",
    "--disable-site-isolation-trials",
    "--disable-features=site-per-process,IsolateOrigins",
]
"""Chromium's switches here: no sandbox (the tests may run as root), nothing fetched from elsewhere, and no process
kept ready for a page not yet opened nor one for each site (the pages come from one loopback server, without frames
from another site): a test's contexts still share nothing, and its pages take about a tenth less CPU (measured over
the files of the lobby, the table's play and its accessibility)."""

_found: dict[bool, str] = {}


def chromium(headless: bool = True) -> str:
    """The path of the system's Chromium the browser tests launch: headless, Debian's headless shell, else the full
    browser; headed, the full browser. A missing one is installed (one ``apt-get install``) where we are root; skips
    (or fails, with ``CLUBS_REQUIRE_BROWSER=1``) with the reasons where none can be had."""
    if headless in _found:
        return _found[headless]
    whys: list[str] = []
    for package, commands in (HEADLESS_SHELL, FULL_CHROMIUM) if headless else (FULL_CHROMIUM,):
        path, why = _which(commands), ""
        if path is None:
            path, why = _installed(package, commands)
        if path:
            _found[headless] = path
            return path
        whys.append(f"{package}: {why}")
    reason = f"no Chromium for the browser tests: {'; '.join(whys)}"
    if os.environ.get("CLUBS_REQUIRE_BROWSER") == "1":
        pytest.fail(reason + " (CLUBS_REQUIRE_BROWSER=1: the browser tests must run)")
    pytest.skip(reason)


def _which(commands: tuple[str, ...]) -> str | None:
    for name in commands:
        found = shutil.which(name)
        if found:
            return found
    return None


def _installed(package: str, commands: tuple[str, ...]) -> tuple[str | None, str]:
    """``package`` installed with apt-get where we are root: the path of its command (None where there is none) and
    why not."""
    if not (os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get")):
        return None, f"not installed, and installing it needs root (apt-get install {package})"
    # One installer at a time: the test processes (pytest-xdist) may all find it missing at once.
    with open(Path(tempfile.gettempdir()) / "clubsuite-chromium-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        why = "" if _which(commands) else _apt_install(package)
        return _which(commands), why or f"apt-get install {package} did not provide {commands[0]}"


def _apt_install(package: str) -> str:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "env": env, "timeout": 900}
    done = subprocess.run(["apt-get", "install", "-y", "-q", package], check=False, **quiet)  # type: ignore[call-overload]
    if done.returncode != 0:  # the package lists may be missing on a fresh machine
        subprocess.run(["apt-get", "update", "-q"], check=False, **quiet)  # type: ignore[call-overload]
        done = subprocess.run(["apt-get", "install", "-y", "-q", package], check=False, **quiet)  # type: ignore[call-overload]
    return "" if done.returncode == 0 else done.stderr.decode(errors="replace")[-500:]


# -- a server's tables, from the test's thread --------------------------------------------------------------------
def live_match(server: Any, table_id: str) -> Callable[[], SomeMatch]:
    """Reads the match a table of ``server`` (a ThreadServer) holds when called: the oracle of
    :func:`assert_no_leak`, which calls it after it has read the page."""
    hub = server.server.config.app.state.hub
    return lambda: hub.tables[table_id].match  # type: ignore[no-any-return]


def seeded_table(server: Any, game: str, seats: list[Any], seed: int, **settings: Any) -> str:
    """Make a table with a chosen seed (the lobby never takes one from a client) in the server's own loop."""
    from clubsuite.server.table.seating import SeatRequest
    from clubsuite.server.table.settings import TableSettings

    hub = server.server.config.app.state.hub
    requests = [SeatRequest(s["kind"], s.get("bot")) for s in seats]
    future = asyncio.run_coroutine_threadsafe(
        hub.create_table(game, requests, TableSettings(**settings), seed=seed), hub.loop
    )
    return future.result(10).id  # type: ignore[no-any-return]


def close_tables(server: Any, keep: frozenset[str] = frozenset()) -> None:
    """Close every table ``server`` (a ThreadServer) still serves but those of ``keep``, telling the pages at them:
    what a test of a server shared by a module's tests leaves behind (bots still playing a table its person left, at
    once where their pause is 0) never takes the cores the next test needs, nor shows in its lobby."""
    hub = server.server.config.app.state.hub

    async def close_all() -> None:
        for table in list(hub.tables.values()):
            if table.id not in keep:
                await hub.close_table(table, "the table is closed")

    asyncio.run_coroutine_threadsafe(close_all(), hub.loop).result(60)


def table_ids(server: Any) -> frozenset[str]:
    """The ids of the tables ``server`` (a ThreadServer) serves now."""
    return frozenset(server.server.config.app.state.hub.tables)


@pytest.fixture(scope="module", name="web")
def shared_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server for every test of a module that imports this fixture (with :func:`tables_closed_after_each_test`),
    over SQLite in a folder of the module's: a server start, a new store and a replay worker once a module rather
    than once a test. Each test makes tables of its own and reads only those (and a lobby its earlier tests' closed
    tables have left). A guided hand's bots do not wait for a newcomer there (``TUTORIAL_PACE`` 0)."""
    from serverkit import ThreadServer

    from clubsuite.server.store.database import Store
    from clubsuite.server.table import seating

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seating, "TUTORIAL_PACE", 0.0)
        with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("web"))) as running:
            yield running


@pytest.fixture(autouse=True)
def tables_closed_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test of a module sharing :func:`shared_web`, every table made since the test began is closed
    (:func:`close_tables`); those a module's fixture made for several tests are left to them."""
    if "web" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("web")
    before = table_ids(server)
    yield
    close_tables(server, keep=before)


# -- pages ---------------------------------------------------------------------------------------------------------
@dataclass
class Watched:
    """A page with every JSON message its table socket received (and sent), in order."""

    page: Any
    seat: int | None
    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    @property
    def version(self) -> int | None:
        """The last table version the page was told of."""
        for msg in reversed(self.received):
            if "version" in msg and msg["type"] in ("state", "update"):
                return int(msg["version"])
        return None


def keep_errors(page: Any, timeout: float = PAGE_TIMEOUT_MS) -> Any:
    """``page`` with a default timeout of ``timeout`` ms, every script error and console error kept in
    ``page.errors`` (a test ends by asserting there was none)."""
    page.set_default_timeout(timeout)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors
    return page


def watch(page: Any, seat: int | None) -> Watched:
    """Keep every frame of the page's table sockets (not the page's own socket, ``/live``, which carries the lobby's
    and the account's news and no table's messages)."""
    watched = Watched(page, seat)

    def on_socket(ws: Any) -> None:
        if "/tables/" not in ws.url:
            return  # the page's own socket (/live) carries no table's messages
        ws.on("framereceived", lambda payload: watched.received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: watched.sent.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return watched


def page_cards(page: Any, game: str) -> set[str]:
    """Every card the page names: its ``data-card`` marks, its text (cards written Q♥ or QH) and its labels."""
    found = page.evaluate(
        """() => {
            const marks = [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card);
            const labels = [...document.querySelectorAll('[aria-label],[title]')]
                .map((e) => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''));
            return {marks, text: document.body.innerText, labels};
        }"""
    )
    return cards_named([found["marks"], found["text"], found["labels"]], game)


def assert_no_leak(watched: Watched, match_now: Callable[[], SomeMatch], game: str) -> int:
    """The page (DOM now) and every message it received name only cards its seat may know.

    The oracle is read last: the page first, then the messages it has received (a copy), then ``match_now()``, the
    match as the server holds it after both. What a seat may know only grows during a match (every hand so far
    counts), so the match read after the page allows at least what it allowed when the page was drawn; read before,
    a card a bot played in between would look like a leak. Returns how many things were checked."""
    shown = page_cards(watched.page, game)
    received = list(watched.received)
    sent = list(watched.sent)
    allowed = knowable_cards(match_now(), watched.seat)
    assert shown <= allowed, f"seat {watched.seat}'s page shows {sorted(shown - allowed)}"
    own = cards_named([m.get("action") for m in sent if m.get("type") == "act"], game)
    for msg in received:
        named = cards_named(msg, game)
        if msg.get("type") == "error":
            named -= own  # a refusal may repeat what the page itself sent
        assert named <= allowed, f"seat {watched.seat} was sent {sorted(named - allowed)}: {msg}"
    return len(received) + 1


def wait_for(check: Callable[[], bool], seconds: float, what: str, page: Any) -> None:
    """Poll ``check`` until it holds, letting ``page``'s browser deliver its events meanwhile (Playwright's sync API
    handles them only while it is called); the pauses between two looks grow (:func:`pauses`)."""
    deadline = time.monotonic() + seconds
    waits = pauses()
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        page.wait_for_timeout(next(waits) * 1000)


REDRAWN_AFTER_RESIZE = """() => {
  // the table's page draws itself again 150 ms after the window's last resize (its fan laid out for the new width):
  // a timer of ours set after the page's own, at each resize, for a later moment, runs after that drawing
  window.__redrawn = new Promise((done) => {
    let timer = null;
    addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(done, 300); });
  });
}"""


def resize(page: Any, viewport: dict[str, int]) -> None:
    """Resize the window of ``page`` (a table's page) to ``viewport`` and wait until the page has drawn itself again
    for its new width, as a table's page does after a resize: what is measured then is what a page opened at that
    size shows. Nothing happens where the window is that size already."""
    if page.viewport_size == viewport:
        return
    page.evaluate(REDRAWN_AFTER_RESIZE)
    page.set_viewport_size(viewport)
    page.evaluate("() => window.__redrawn")


# -- playing by clicking ---------------------------------------------------------------------------------------------
def last_message(w: Watched) -> dict[str, Any]:
    """The last state or update the page received."""
    return next(m for m in reversed(w.received) if m["type"] in ("state", "update"))


def offered(w: Watched) -> bool:
    """Whether the page's seat is to act, as the page was last told, and the page has drawn it (the hand or the
    actions are live, not "Sent…")."""
    msg = last_message(w)
    if msg["to_act"] != w.seat or msg["over"] or not msg.get("legal"):
        return False
    live = w.page.locator(".hand.active, .bid-cards .playable, .controls button.action").count()
    return live > 0 and w.page.locator("#turn").inner_text() != "Sent…"


SHOWN_POINT = """async (el) => {
  // a card lifted or moved by a transition (one just chosen rises over its neighbours) settles first
  const moving = el.closest(".hand")?.getAnimations({subtree: true}) ?? [];
  const settled = Promise.all(moving.map((a) => a.finished.catch(() => null)));
  await Promise.race([settled, new Promise((ok) => setTimeout(ok, 2000))]);
  const r = el.getBoundingClientRect();
  const mid = {x: r.width / 2, y: r.height / 2};
  const at = (x, y) => el.contains(document.elementFromPoint(r.left + x, r.top + y));
  if (at(mid.x, mid.y)) return mid;
  for (let y = 6; y < r.height - 4; y += 6) {
    for (let x = 6; x < r.width - 4; x += 6) if (at(x, y)) return {x, y};
  }
  return mid;
}"""
"""Where a card is tapped: its middle, or where a card of the fanned hand in front of it leaves it showing (a player
taps the part of a card they see), once the hand has stopped moving."""


TAP_WAIT = PAGE_TIMEOUT_MS
"""Milliseconds a tap waits for its card to be there and still: a page on a loaded machine may take seconds to draw."""


def tap(locator: Any, tries: int = 5) -> None:
    """Click a card where it shows (its middle if nothing covers it). Where something still covers that point when
    the click comes, or the card was drawn again meanwhile, the point is found again: a player looks again too."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in range(tries):
        try:  # a card drawn again between two steps is found again by the locator on the next try
            locator.scroll_into_view_if_needed(timeout=TAP_WAIT)
            locator.click(position=locator.evaluate(SHOWN_POINT), timeout=TAP_WAIT)
            return
        except PlaywrightError:
            if attempt == tries - 1:
                raise


def decide(w: Watched, rng: Any, game: str) -> str:
    """Make one decision by clicking what the page offers: a legal action (from those the server sent) chosen at
    random, made as a player makes it (a card clicked, a word's button, or cards chosen and their play confirmed, a
    wild 15's value picked). Waits until the table has moved on; returns the action."""
    action: str = rng.choice(last_message(w)["legal"])
    return perform(w, action, game)


def perform(w: Watched, action: str, game: str) -> str:
    """Make the decision ``action`` (legal now) by clicking as a player does (see :func:`decide`); waits until the
    table has moved on; returns the action."""
    page = w.page
    version = last_message(w)["version"]
    tokens = action.split()
    cards = [t for t in tokens if t not in ("pass", "keep", "exchange", "double")]
    if not cards or tokens[0] == "call":  # a word, or a misplay call (a button naming the card called)
        page.locator(f'.controls button.action[data-action="{action}"]').click()
    elif len(tokens) == 1 and game != "northstar":
        tap(page.locator(f'button.card.playable[data-card="{action}"]').first)
    else:
        for token in cards:
            tap(page.locator(f'.my-area > .hand button.card[data-card="{token.split("=")[0]}"]'))
        for bare in page.locator(".wild-picker select").evaluate_all("(ss) => ss.map((s) => s.dataset.wild)"):
            page.locator(f'select[data-wild="{bare}"]').select_option(meaning(action, bare))  # in the page's order
        page.locator(f'.controls button.action.primary[data-action="{action}"]').click()
    wait_for(lambda: w.version != version, 20, f"the table did not take {action!r}", page)
    return action


def meaning(action: str, card: str) -> str:
    """What ``card`` (a 15, in notation without its value) stands for in ``action``: its value ("15S=7" -> "7"), or
    "self" where it is played as itself: the value a wild 15's picker on the page takes."""
    for token in action.split():
        bare, _, value = token.partition("=")
        if bare == card:
            return value or "self"
    raise AssertionError(f"{card} is not in {action!r}")


def trick_cards(page: Any) -> set[str]:
    """The cards lying on the table on the page (a play's cards, a bid, a finished trick still shown)."""
    marks: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('.trick-area .pile:not(.preview) [data-card]')].map((e) => e.dataset.card)"
    )
    return set(marks)


# -- every state a page shows, for the leak check -------------------------------------------------------------------
RECORD_STATES = """
(() => {
  window.__shown = [];
  const seen = new Set();
  const take = () => {
    const board = document.querySelector('[data-version]');
    const version = board ? Number(board.dataset.version) : null;
    const marks = [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card);
    const labels = [...document.querySelectorAll('[aria-label],[title]')]
      .map((e) => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''));
    const text = document.body ? document.body.textContent : '';
    const key = JSON.stringify([version, marks, labels, text]);
    if (seen.has(key)) return;
    seen.add(key);
    window.__shown.push({version, marks, labels, text});
  };
  new MutationObserver(take).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""
"""A page script that keeps every distinct state the page shows (each drawing, each step of a finished trick's pause
and gathering), with the table version it was drawn from (``data-version``), for :func:`assert_no_leak_ever`."""


def knowable_by_version(server: Any, table_id: str, seat: int | None, versions: set[int]) -> dict[int, set[str]]:
    """The cards ``seat`` could know in the table's first match as it stood at each of ``versions`` (a version counts
    the accepted actions): the match rebuilt once from the table's seed and action log, read at each version on the
    way (a version past the log's end reads the match at its end)."""
    from clubsuite.tabletalk import advance, start_match

    table = server.server.config.app.state.hub.tables[table_id]
    match, _ = start_match(table.info, table.options, 0, table.seed)
    rows = table.store.actions(table_id, 0)
    known: dict[int, set[str]] = {}
    for version in range(max(versions, default=-1) + 1):
        if version in versions:
            known[version] = knowable_cards(match, seat)
        if version < len(rows):
            row = rows[version]
            match.apply(match.parse_action(row.action), row.seat)
            advance(match, table.info, table.seed)
    return known


def assert_no_leak_ever(watched: Watched, server: Any, table_id: str, game: str) -> int:
    """Every state the page showed (kept by :data:`RECORD_STATES`) and every message it received named only cards its
    seat could know at the version it was drawn from or sent with (the table's first match). Returns how many
    states and messages were checked."""
    shown: list[dict[str, Any]] = watched.page.evaluate("() => window.__shown")
    checked = 0
    messages = [m for m in list(watched.received) if m.get("type") in ("state", "update")]
    versions = {int(s["version"]) for s in shown if s["version"] is not None} | {int(m["version"]) for m in messages}
    allowed = knowable_by_version(server, table_id, watched.seat, versions)
    for state in shown:
        if state["version"] is None:
            continue
        named = cards_named([state["marks"], state["labels"], state["text"]], game)
        extra = named - allowed[int(state["version"])]
        assert not extra, f"seat {watched.seat}'s page showed {sorted(extra)} at version {state['version']}"
        checked += 1
    for msg in messages:
        extra = cards_named(msg, game) - allowed[int(msg["version"])]
        assert not extra, f"seat {watched.seat} was sent {sorted(extra)}: {msg}"
        checked += 1
    return checked
