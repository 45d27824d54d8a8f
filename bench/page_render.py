"""What the table page costs the browser per message from the server: the renderer's CPU (Chrome DevTools Protocol
``Performance.getMetrics``: its tasks, its scripts, layout and style) over one hand, divided by the table messages
the page received.

Run as ``python bench/page_render.py [--game "partnership(target=1)"] [--seed 7] [--repeat 2]``. It starts the
server in this process over a temporary SQLite store, makes a table of the game with a fixed seed (two people, a
learned and a normal bot, no bot delay), and opens a page for each person in Debian's Chromium (``/usr/bin/chromium``,
as the browser tests do): Ann at a laptop's size, Bob at a phone's. Each takes a seat by clicking, and both play
the hand by clicking legal actions chosen at random from ``--seed`` until the match is over. Each page's metrics
are read when it is seated and again at the end; the difference is printed per page: the table messages received
(states and updates, presence, hints, refusals; not the chat) and, per message, the renderer's task time
(TaskDuration), script time (ScriptDuration), layout and style recalculation time, and the counts of layouts and
style recalculations. Compare the CPU figures, not the wall time: other work on the machine slows the wall clock,
far less the CPU a page spends. Every figure is for reading; no test depends on it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))  # the test servers' helpers: a server in a thread of this process
sys.path.insert(0, str(ROOT / "tests"))

CHROMIUM = "/usr/bin/chromium"
SHOWN_POINT = """(el) => {
  const r = el.getBoundingClientRect();
  const at = (x, y) => el.contains(document.elementFromPoint(r.left + x, r.top + y));
  if (at(r.width / 2, r.height / 2)) return {x: r.width / 2, y: r.height / 2};
  for (let y = 6; y < r.height - 4; y += 6) for (let x = 6; x < r.width - 4; x += 6) if (at(x, y)) return {x, y};
  return {x: r.width / 2, y: r.height / 2};
}"""
"""Where a card is clicked: its middle, or where the fanned cards in front of it leave it showing."""

LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TABLE_MESSAGES = ("welcome", "state", "update", "catchup", "presence", "hint", "error", "bye")
METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "LayoutCount", "RecalcStyleCount")


class Seated:
    """A person's page at the table: its table socket's messages, in order, and its CDP session."""

    def __init__(self, browser: Any, base: str, table: str, name: str, seat: int, viewport: dict[str, int]) -> None:
        self.name = name
        self.received: list[dict[str, Any]] = []
        self.errors: list[str] = []
        context = browser.new_context(viewport=viewport)
        self.page = context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("websocket", self._on_socket)
        self.cdp = context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        self.page.goto(f"{base}/table/{table}")
        self.page.get_by_label("Your name").fill(name)
        self.page.locator("#join-seat").select_option(str(seat))
        self.page.get_by_role("button", name="Take the seat").click()
        self.wait(lambda: any(m["type"] == "welcome" for m in self.received), "no welcome")
        self.seat = seat
        self.page.wait_for_selector(".my-area")

    def _on_socket(self, ws: Any) -> None:
        if "/tables/" in ws.url:
            ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

    def metrics(self) -> dict[str, float]:
        """The renderer's figures now (seconds, counts)."""
        got = self.cdp.send("Performance.getMetrics")["metrics"]
        return {m["name"]: float(m["value"]) for m in got if m["name"] in METRICS}

    def messages(self) -> int:
        return sum(1 for m in self.received if m["type"] in TABLE_MESSAGES)

    def last(self) -> dict[str, Any]:
        return next(m for m in reversed(self.received) if m["type"] in ("state", "update"))

    def version(self) -> int:
        return int(self.last()["version"])

    def wait(self, check: Any, what: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: {what}")
            self.page.wait_for_timeout(20)

    def offered(self) -> bool:
        """Whether the seat is to act and the page has drawn it."""
        msg = self.last()
        if msg["to_act"] != self.seat or msg["over"] or not msg.get("legal"):
            return False
        live = self.page.locator(".hand.active, .bid-cards .playable, .controls button.action").count()
        return bool(live > 0 and self.page.locator("#turn").inner_text() != "Sent…")

    def tap(self, card: Any) -> None:
        """Click a card where it shows, as a player does (a card drawn again meanwhile is found again)."""
        for attempt in range(5):
            try:
                card.scroll_into_view_if_needed()
                card.click(position=card.evaluate(SHOWN_POINT))
                return
            except Exception:
                if attempt == 4:
                    raise
                self.page.wait_for_timeout(50)

    def decide(self, rng: random.Random) -> None:
        """Click a legal action chosen at random, as a player does; wait until the table takes it."""
        msg = self.last()
        action: str = rng.choice(msg["legal"])
        tokens = action.split()
        cards = [t for t in tokens if t not in ("pass", "keep", "exchange", "double")]
        page = self.page
        if not cards or tokens[0] == "call":  # a word, or a call naming a card: its button
            page.locator(f'.controls button.action[data-action="{action}"]').click()
        elif len(tokens) == 1:
            self.tap(page.locator(f'button.card.playable[data-card="{action}"]').first)
        else:  # cards chosen, then their play confirmed
            for token in cards:
                self.tap(page.locator(f'.my-area > .hand button.card[data-card="{token}"]'))
            page.locator(f'.controls button.action.primary[data-action="{action}"]').click()
        version = msg["version"]
        self.wait(lambda: self.version() != version, f"the table did not take {action!r}")


def make_table(server: Any, game: str, seed: int) -> str:
    """A table of ``game`` dealt from ``seed``: two people, a learned and a normal bot, no bot delay."""
    import asyncio

    from clubsuite.server.store.dbschema import SeatKind
    from clubsuite.server.table.seating import SeatRequest
    from clubsuite.server.table.settings import TableSettings

    hub = server.server.config.app.state.hub
    person, bot = SeatKind.PERSON, SeatKind.BOT
    seats = [SeatRequest(person), SeatRequest(person), SeatRequest(bot, "learned"), SeatRequest(bot, "normal")]
    made = asyncio.run_coroutine_threadsafe(
        hub.create_table(game, seats, TableSettings(bot_delay=0), seed=seed), hub.loop
    )
    return str(made.result(10).id)


def self_times(profile: dict[str, Any], top: int) -> str:
    """The ``top`` functions of a CPU profile (CDP's Profiler) by their own time, one line each."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    times: dict[str, float] = {}
    stamps = profile["timeDeltas"]
    for sample, delta in zip(profile["samples"][1:], stamps[1:], strict=True):
        frame = nodes[sample]["callFrame"]
        url = frame["url"].rsplit("/", 1)[-1]
        where = (
            f"{frame['functionName'] or '(anonymous)'} {url}:{frame['lineNumber'] + 1}"
            if url
            else frame["functionName"]
        )
        times[where] = times.get(where, 0.0) + delta / 1000
    ranked = sorted(times.items(), key=lambda kv: -kv[1])
    return "\n".join(f"  {ms:8.1f} ms  {where}" for where, ms in ranked[:top] if where != "(idle)")


def one_hand(
    browser: Any, base: str, server: Any, game: str, seed: int, profile: int = 0
) -> list[tuple[str, int, dict[str, float]]]:
    """Play one match of ``game`` on two pages; each page's messages and metrics from seated to the end."""
    table = make_table(server, game, seed)
    pages = [Seated(browser, base, table, "Ann", 0, LAPTOP), Seated(browser, base, table, "Bob", 1, PHONE)]
    pages[0].wait(lambda: pages[0].last().get("waiting") is not True, "the table still waits")
    start = [(p.messages(), p.metrics()) for p in pages]
    if profile:
        for p in pages:
            p.cdp.send("Profiler.enable")
            p.cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            p.cdp.send("Profiler.start")
    rng = random.Random(seed)
    for _ in range(2000):
        if all(p.last()["over"] for p in pages):
            break
        moved = False
        for p in pages:
            if p.offered():
                p.decide(rng)
                moved = True
        if not moved:
            pages[0].page.wait_for_timeout(20)
    else:
        raise AssertionError("the match did not end")
    for p in pages:
        p.page.wait_for_selector(".match-summary")
        p.page.wait_for_timeout(300)  # the last drawings and their timers
    out = []
    for p, (count, before) in zip(pages, start, strict=True):
        after = p.metrics()
        if profile:
            print(f"{p.name}'s page, the functions with the most samples of their own:")
            print(self_times(p.cdp.send("Profiler.stop")["profile"], profile))
        if p.errors:
            raise AssertionError(f"{p.name}'s page: {p.errors}")
        out.append((p.name, p.messages() - count, {k: after[k] - before.get(k, 0.0) for k in after}))
        p.page.context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="partnership(target=1)")
    parser.add_argument("--seed", type=int, default=7, help="the deal's seed and the people's choices' (default 7)")
    parser.add_argument("--repeat", type=int, default=2, help="hands played, each on a new table (default 2)")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="also print each page's N functions with the most CPU of their own (a JS profile)",
    )
    args = parser.parse_args()

    from browserkit import LAUNCH_ARGS  # type: ignore[import-not-found]  # Chromium's switches, as the tests launch it
    from playwright.sync_api import sync_playwright
    from serverkit import ThreadServer  # type: ignore[import-not-found]  # tests/server, put on the path above

    from clubsuite.server.store.database import Store

    runs: dict[str, list[tuple[int, dict[str, float]]]] = {}
    with (
        tempfile.TemporaryDirectory() as data,
        ThreadServer(Store.in_directory(Path(data))) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for _ in range(args.repeat):
            for name, count, figures in one_hand(browser, server.base, server, args.game, args.seed, args.profile):
                runs.setdefault(name, []).append((count, figures))
        browser.close()
    print(f"{args.game}, seed {args.seed}, {args.repeat} hand(s): per table message (median over the hands)")
    print(f"{'page':<12}{'msgs':>6}{'task ms':>10}{'script ms':>11}{'layout ms':>11}{'style ms':>10}"
          f"{'layouts':>9}{'styles':>8}{'task s':>8}")  # fmt: skip
    for name, hands in runs.items():
        label = f"{name} ({'laptop' if name == 'Ann' else 'phone'})"

        def per(metric: str, hands: list[tuple[int, dict[str, float]]] = hands) -> float:
            return statistics.median(m[metric] / max(1, n) for n, m in hands)

        messages = statistics.median(float(n) for n, _ in hands)
        total = statistics.median(m["TaskDuration"] for _, m in hands)
        print(f"{label:<12}{messages:>6.0f}{per('TaskDuration') * 1000:>10.2f}{per('ScriptDuration') * 1000:>11.2f}"
              f"{per('LayoutDuration') * 1000:>11.2f}{per('RecalcStyleDuration') * 1000:>10.2f}"
              f"{per('LayoutCount'):>9.2f}{per('RecalcStyleCount'):>8.2f}{total:>8.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
