"""A new version of the offline app, as a player who installed it meets it: opened online, the app fetches the new
build in the background (only what changed: the core's zip, ``sw.js`` and ``build.json``), says a new version is
ready and starts it when asked; the finished matches kept in the browser are kept, and the new version runs the new
core. Served by a plain static file server whose files are rewritten between the two builds, as a host's are."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from appkit import ROOT, static_site
from browserkit import keep_errors

from clubsuite.app import build, runtime
from timeouts import PAGE_TIMEOUT_MS

KEPT = """async () => {
  // a finished match kept in the browser, through the app's own store
  const offline = await import(new URL("static/js/offline.js", location.href).href);
  await offline.keep("matches", {key: "t1:0", table: "t1", match: 0, game: "whist", ended: 1, record: {}});
}"""
CACHED_CORE = """async () => {
  // the core's zip as the active service worker keeps it
  const cache = await caches.open((await caches.keys()).find((k) => k.startsWith("clubsuite-app:")));
  const kept = await cache.match("core/clubsuite.zip");
  return [...new Uint8Array(await kept.arrayBuffer())].slice(-40);
}"""


def with_comment(core: bytes, comment: bytes) -> bytes:
    """The same zip with another comment: a core whose bytes differ, as a new release's."""
    out = io.BytesIO(core)
    with zipfile.ZipFile(out, "a") as z:
        z.comment = comment
    return out.getvalue()


def test_a_new_version_is_fetched_said_and_started_keeping_the_players_matches(browser: Any, tmp_path: Path) -> None:
    pyodide = runtime.obtain(ROOT / "node_modules" / "pyodide", url=None)
    folder = tmp_path / "app"
    first = build.build(folder, pyodide)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        with static_site(folder) as base:
            page = keep_errors(context.new_page())
            page.goto(base)
            page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=PAGE_TIMEOUT_MS * 2)
            page.evaluate(KEPT)
            requested: list[str] = []
            context.on(  # what reached the server: not what a service worker answered from its copies
                "response", lambda r: None if r.from_service_worker else requested.append(r.url.removeprefix(base))
            )
            core = with_comment((folder / "core" / "clubsuite.zip").read_bytes(), b"the next release")
            second = build.build(folder, pyodide, core=core)  # every file written again, as a host's would be
            assert second["build"] != first["build"]
            page.reload()
            page.locator('[data-action="new-version"]').wait_for(timeout=PAGE_TIMEOUT_MS * 2)
            fetched = {u.split("?")[0] for u in requested} - {"", "index.html"}
            assert {"core/clubsuite.zip", "sw.js"} <= fetched  # the new core, fetched past the HTTP cache
            assert fetched <= {"core/clubsuite.zip", "sw.js", "build.json"}, fetched  # only what changed
            assert not [u for u in fetched if u.startswith("pyodide/")]  # Pyodide unchanged: taken from the old copy
            page.click('[data-action="new-version"]')  # the page reloads under the new version
            page.wait_for_function(
                f"navigator.serviceWorker.controller && caches.has('clubsuite-app:/:{second['build']}')",
                timeout=PAGE_TIMEOUT_MS * 2,
            )
            page.wait_for_selector("#app-status[data-ready]", timeout=PAGE_TIMEOUT_MS * 2)
            assert bytes(page.evaluate(CACHED_CORE)) == core[-40:]  # the new core, not a stale copy
            assert page.evaluate("caches.keys()") == [f"clubsuite-app:/:{second['build']}"]  # the old build is gone
            page.locator("#kept-matches li button[data-action='download']").wait_for()  # the match is still kept
            assert json.loads((folder / "build.json").read_text())["build"] == second["build"]
            assert page.errors == []
    finally:
        context.close()
