"""Screenshots of the browser table of every game, at 1280, 390 and 360 px wide, to look at (``make screenshots``).

It starts the server on a loopback port over a temporary directory, makes one table per game (a person's seat and
bots; seeded, so the same pictures come back), plays a few decisions of the person by clicking what the page
offers, and writes ``GAME-WIDTH.png`` into the output folder (``screenshots/`` by default), plus the lobby, a
phone's open drawer (the play log) and a replay. It needs the ``dev`` and ``server`` extras and Debian's ``chromium``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from playwright.sync_api import Page, sync_playwright

from clubsuite.server.http.app import create_app
from clubsuite.server.limits import ServerLimits
from clubsuite.server.store.database import Store
from clubsuite.server.table.hub import Hub, SeatRequest
from clubsuite.server.table.settings import TableSettings

GAMES = [
    ("whist", "whist", 3, 9),
    ("free", "free", 3, 4),
    ("partnership", "partnership", 4, 4),
    ("northstar", "northstar(players=4)", 4, 5),
    ("northstar-wild", "northstar(players=5, wild_fifteens=true)", 5, 3),
    ("northstar-teams", "northstar(players=6, teams=3x2)", 6, 3),
]
"""(picture name, rules spec, seats, decisions of the person before the picture)."""
WIDTHS = (1280, 390, 360)
HEIGHTS = {1280: 900, 390: 844, 360: 740}
"""A desktop, and two phones (the phone pictures are one screen: what a player sees without scrolling)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking"]


def serve(data: Path, port: int) -> tuple[uvicorn.Server, Hub]:
    """The server in a background thread."""
    # one address (this script) takes every seat and opens every page: the per-address rates are for strangers
    limits = ServerLimits(join_rate="1000/minute", create_rate="1000/minute", request_rate="10000/minute")
    app = create_app(Store.in_directory(data), limits=limits)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            sys.exit("the server did not start")
        time.sleep(0.05)
    return server, app.state.hub


def table(hub: Hub, spec: str, seats: int, seed: int) -> str:
    """A seeded table: seat 0 a person's, the others heuristic bots."""
    requests = [SeatRequest("person")] + [SeatRequest("bot", "heuristic")] * (seats - 1)
    settings = TableSettings(bot_delay=0.0, hints=True)
    assert hub.loop is not None
    made = asyncio.run_coroutine_threadsafe(hub.create_table(spec, requests, settings, seed=seed), hub.loop)
    return made.result(10).id


def play(page: Page, decisions: int, rng: random.Random) -> None:
    """Make ``decisions`` decisions by clicking: a word, a legal card, or (choosing cards) a selection and its play."""
    for _ in range(decisions):
        page.wait_for_selector(".hand.active, .controls button.action", timeout=20000)
        page.wait_for_timeout(150)
        words = page.locator(".controls button.action")
        cards = page.locator(".hand button.card.playable")
        if cards.count() and (not words.count() or rng.random() < 0.8):
            for _ in range(3):
                free = page.locator(".hand button.card.playable:not(.selected)")
                if not free.count():
                    break
                free.nth(rng.randrange(free.count())).click()
                offered = page.locator(".controls button.action.primary")
                if offered.count() or page.locator(".hand button.card.selected").count() == 0:
                    break
            offered = page.locator(".controls button.action.primary")
            if offered.count():
                offered.first.click()
        elif words.count():
            words.nth(rng.randrange(words.count())).click()
        page.wait_for_timeout(300)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("screenshots"), help="the folder to write into")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = 8000 + random.randrange(1000, 9000)
        server, hub = serve(Path(tmp), port)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                for width in WIDTHS:
                    page = browser.new_page(viewport={"width": width, "height": HEIGHTS[width]})
                    page.goto(base + "/")
                    page.wait_for_selector("#open-title")
                    page.screenshot(path=str(args.out / f"lobby-{width}.png"), full_page=True)
                    page.close()  # every page's socket closed: the server bounds one address's sockets
                for name, spec, seats, decisions in GAMES:
                    table_id = table(hub, spec, seats, seed=2026)
                    token = httpx.post(f"{base}/tables/{table_id}/join", json={"name": "Ann"}).json()["token"]
                    for width in WIDTHS:
                        page = browser.new_page(viewport={"width": width, "height": HEIGHTS[width]})
                        page.goto(base + "/")
                        page.evaluate(
                            "([id, token]) => localStorage.setItem("
                            "`clubs.seat.${id}`, JSON.stringify({token, seat: 0}))",
                            [table_id, token],
                        )
                        page.goto(f"{base}/table/{table_id}")
                        page.wait_for_selector(".my-area")
                        if width == WIDTHS[0]:
                            play(page, decisions, random.Random(name))
                        page.mouse.move(0, 0)  # no card under the pointer (it would show its preview)
                        page.wait_for_timeout(400)
                        page.screenshot(path=str(args.out / f"{name}-{width}.png"), full_page=width > 500)
                        print(f"{name}-{width}.png")
                        if name == "whist" and width == 390:
                            page.get_by_role("button", name="Play log").click()
                            page.wait_for_timeout(200)
                            page.screenshot(path=str(args.out / "whist-390-log.png"))
                            print("whist-390-log.png")
                        page.close()
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(f"{base}/replay")
                page.get_by_label("Record file").set_input_files("tests/golden/whist-1997-explicit.record.json")
                page.wait_for_selector(".replay-controls")
                for _ in range(20):
                    page.keyboard.press("ArrowRight")
                page.screenshot(path=str(args.out / "replay-1280.png"), full_page=True)
                browser.close()
        finally:
            server.should_exit = True
    print(f"written to {args.out}/")


if __name__ == "__main__":
    main()
