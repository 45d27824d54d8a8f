"""``clubs app build DIR``: the offline app as a folder of static files, served by any static host or by
``clubs serve`` at ``/app``.

The folder holds (every path relative, so the app works at a site's root and under ``/app/`` alike):

``index.html``, ``table.html``   the app's lobby and its table page (the server's table page, its scripts unchanged,
                                 talking to the rules in the page: ``static/js/offline.js``)
``static/``                      the server's styles and scripts, and the app's own (lobby, worker, offline side)
``i18n/LANG.json``               the page's words in each language, as a server serves them
``data/``                        the games as a server's lobby lists them, each game's rules in brief
``rules/GAME-LANG.html``         each game's rules page in each language, for the coach's "Read the rule"
``core/clubsuite.zip``           clubsuite's pure-Python core (the rules, bots up to hard, presentation, lessons,
                                 records, puzzles, the offline table), what the worker runs
``pyodide/``                     Pyodide's pinned files (:mod:`clubsuite.app.runtime`)
``manifest.webmanifest``, ``icons/``  what makes the app installable
``sw.js``                        the service worker: every file above kept for use with no network, each checked
                                 against its hash; a new build takes unchanged files from the old one's copies and
                                 waits for the next start (or the page's "start the new version")
``build.json``                   the build's id, clubsuite's and Pyodide's versions and every file's SHA-256

The build is made again exactly from the same sources (the zip's entries have fixed times, every list is sorted):
an update that changes only clubsuite changes only its files (the core's zip, ``sw.js``, ``build.json``), and the
service worker fetches only those.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path

from clubsuite import __version__
from clubsuite.app import icons, runtime
from clubsuite.errors import ClubsError
from clubsuite.i18n import LANGUAGES
from clubsuite.server.http.catalogs import page_catalog
from clubsuite.server.http.lobby_routes import games_listing
from clubsuite.server.http.rules_pages import brief, game_page, index_page, served_games

PACKAGE = Path(str(resources.files("clubsuite")))
"""The installed package, whose core the zip holds."""
APP_STATIC = Path(str(resources.files("clubsuite.app") / "static"))
"""The app's own pages and scripts."""
SERVER_STATIC = Path(str(resources.files("clubsuite.server.http") / "static"))
"""The server's styles and scripts, which the app's table page runs unchanged."""
OUTSIDE_CORE = frozenset({"server", "cli", "tui", "rl", "learning", "sim", "benchmark", "app"})
"""clubsuite's packages the page does not run (they need what the page has not: a server, NumPy, a terminal)."""
CORE_SUFFIXES = frozenset({".py", ".json", ".gz"})
"""The files of the core the zip takes: its modules, and the data they read (puzzle sets, calibrations, lessons)."""
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every zip entry's time: the same sources make the same zip."""
NAME = "Clubs"
"""The app's name on a phone's home screen."""


class BuildError(ClubsError):
    """The folder cannot be written (not empty and not an app, or not writable): the message says which."""


def core_files(package: Path = PACKAGE) -> Iterator[tuple[str, Path]]:
    """The files of the page's core, sorted: their names in the zip (``clubsuite/...``) and where they are."""
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(package)
        if not path.is_file() or "__pycache__" in rel.parts or path.suffix not in CORE_SUFFIXES:
            continue
        if len(rel.parts) > 1 and rel.parts[0] in OUTSIDE_CORE:
            continue
        if rel.parts[0] == "bots" and "policies" in rel.parts:  # the learned bots' weights: NumPy's, not the page's
            continue
        yield "clubsuite/" + rel.as_posix(), path


def core_zip(package: Path = PACKAGE) -> bytes:
    """The zip of the page's core (deflated, fixed times: the same sources give the same bytes)."""
    with tempfile.SpooledTemporaryFile() as out:
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for name, path in core_files(package):
                info = zipfile.ZipInfo(name, ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, path.read_bytes())
        out.seek(0)
        return out.read()


def manifest() -> str:
    """The web app manifest: the app's name, how it opens (standalone, from its own folder) and its icons."""
    data = {
        "name": "Clubs: the card games, offline",
        "short_name": NAME,
        "description": "Play the Clubs card games against bots, learn them and solve puzzles, with no network.",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#1f5e3b",
        "theme_color": "#1f5e3b",
        "icons": [
            *(
                {"src": f"icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"}
                for n in icons.SIZES
            ),
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    return json.dumps(data, indent=1) + "\n"


_LINK = re.compile(r'(href|src)="([^"]*)"')


def _rules_link(match: re.Match[str]) -> str:
    """One link of a rules page as the app's static rules pages reach it (from ``rules/``)."""
    kind, target = match.group(1), match.group(2)
    if target.startswith("/static/"):
        target = ".." + target
    elif target == "/":
        target = "../"
    elif found := re.fullmatch(r"/rules/([a-z]+)\?lang=([a-z]+)", target):
        target = f"{found.group(1)}-{found.group(2)}.html"
    elif found := re.fullmatch(r"/rules\?lang=([a-z]+)", target):
        target = f"index-{found.group(1)}.html"
    return f'{kind}="{target}"'


def rules_pages() -> Iterator[tuple[str, bytes]]:
    """Every game's rules page and the index in every language, their links made the app's."""
    for lang in LANGUAGES:
        yield f"rules/index-{lang}.html", _LINK.sub(_rules_link, bytes(index_page(lang).body).decode()).encode()
        for game in served_games():
            page = bytes(game_page(game, lang).body).decode()
            yield f"rules/{game}-{lang}.html", _LINK.sub(_rules_link, page).encode()


def briefs() -> Iterator[tuple[str, bytes]]:
    """Each game's rules in brief in each language, as ``GET /rules/GAME/brief`` answers."""
    for game in served_games():
        for lang in LANGUAGES:
            found = brief(game, lang)
            if found is not None:
                title, paragraphs = found
                body = {"title": title, "paragraphs": list(paragraphs)}  # as the server answers
                yield f"data/brief/{game}-{lang}.json", json.dumps(body, ensure_ascii=False).encode()


APP_PAGES = ("table", "puzzle", "replay", "review")
"""The server's pages the app serves as its own (``NAME.html``), each run by ``static/js/NAMEapp.js``: the app's
offline side first (``offline.js``), then the server's script of the page, unchanged."""
APP_HEAD = """<meta name="theme-color" content="#1f5e3b">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'">
<link rel="manifest" href="manifest.webmanifest">
<link rel="icon" href="icons/icon.svg" type="image/svg+xml">
"""
"""What an app page has at the head of its head beyond the server's page: its colour, its Content-Security-Policy
(the pages are self-only, as a server sends them; a static host may send none), the manifest and the icon (the
app's styles come last, after the page's own)."""


def app_page(name: str) -> bytes:
    """The server's page ``name`` as the app serves it: marked as the app's (``data-app="offline"``), its paths made
    relative, the app's head added, run by its app entry."""
    page = (SERVER_STATIC / f"{name}.html").read_text(encoding="utf-8")
    page = page.replace('<html lang="en">', '<html lang="en" data-app="offline">', 1)
    page = page.replace('<link rel="icon" href="data:,">\n', "", 1)  # the app's own icon comes with its head
    head = '<meta name="color-scheme" content="light">\n'  # the policy first: it governs what follows it
    page = page.replace(head, head + APP_HEAD.replace("\\\n", ""), 1)
    script = f'<script type="module" src="/static/js/{name}.js">'
    page = page.replace(
        script,
        f'<link rel="stylesheet" href="static/css/app.css">\n<script type="module" src="static/js/{name}app.js">',
        1,
    )
    page = page.replace('href="/static/', 'href="static/')
    if (
        any(x not in page for x in ('data-app="offline"', f"{name}app.js", "Content-Security-Policy"))
        or "/static/" in page
    ):
        raise BuildError(f"the server's {name}.html is not laid out as the app expects: its app page cannot be made")
    return page.encode()


def static_files() -> Iterator[tuple[str, bytes]]:
    """The styles and scripts: the server's, then the app's own (``static/...``), and the app's pages (its root)."""
    for folder in ("css", "js"):
        for path in sorted((SERVER_STATIC / folder).glob("*")):
            if path.is_file():
                yield f"static/{folder}/{path.name}", path.read_bytes()
    for path in sorted((APP_STATIC / "js").glob("*.js")):
        yield f"static/js/{path.name}", path.read_bytes()
    for path in sorted((APP_STATIC / "css").glob("*.css")):
        yield f"static/css/{path.name}", path.read_bytes()
    for path in sorted(APP_STATIC.glob("*.html")):
        yield path.name, path.read_bytes()
    for name in APP_PAGES:
        yield f"{name}.html", app_page(name)


def files(pyodide: Mapping[str, bytes], core: bytes | None = None) -> dict[str, bytes]:
    """Every file of the app but the service worker and ``build.json``, by its path in the folder (``core``: the
    core's zip, where not the installed package's: how a test makes a release that changes only clubsuite)."""
    out: dict[str, bytes] = dict(static_files())
    for lang in LANGUAGES:
        out[f"i18n/{lang}.json"] = page_catalog(lang)
    out["data/games.json"] = json.dumps(games_listing(), ensure_ascii=False).encode()
    out.update(briefs())
    out.update(rules_pages())
    out["core/clubsuite.zip"] = core if core is not None else core_zip()
    out.update({f"pyodide/{name}": data for name, data in pyodide.items()})
    out["manifest.webmanifest"] = manifest().encode()
    for n in icons.SIZES:
        out[f"icons/icon-{n}.png"] = icons.club_png(n)
    out["icons/icon.svg"] = icons.club_svg().encode()
    return out


def service_worker(build: str, sums: Mapping[str, str]) -> bytes:
    """The service worker of build ``build``, keeping the files of ``sums`` (path -> SHA-256; its template's
    placeholders filled): it takes a file from an older build's copy where the hash is the same, and keeps a fetched
    one only where its hash is this."""
    template = (APP_STATIC / "sw.js").read_text(encoding="utf-8")
    listed = json.dumps(dict(sorted(sums.items())), indent=0)
    return template.replace('"__BUILD__"', json.dumps(build)).replace("{} /* __FILES__ */", listed).encode()


def build(folder: Path, pyodide: Mapping[str, bytes], core: bytes | None = None) -> dict[str, object]:
    """Write the app into ``folder`` (made, or emptied where it holds an earlier build); its ``build.json``
    (``core``: as :func:`files` takes it)."""
    made = files(pyodide, core)
    sums = {path: hashlib.sha256(data).hexdigest() for path, data in sorted(made.items())}
    build_id = hashlib.sha256(json.dumps(sums, sort_keys=True).encode()).hexdigest()[:16]
    made["sw.js"] = service_worker(build_id, sums)
    sums["sw.js"] = hashlib.sha256(made["sw.js"]).hexdigest()
    about: dict[str, object] = {
        "build": build_id,
        "clubsuite": __version__,
        "pyodide": runtime.VERSION,
        "pyodide_license": runtime.LICENSE,
        "files": sums,
    }
    made["build.json"] = (json.dumps(about, indent=1, sort_keys=True) + "\n").encode()
    if _built(folder) != build_id:  # the same build there already: nothing to write (a server's every start)
        _write(folder, made)
    return about


def _listed(folder: Path) -> dict[str, str] | None:
    """The files an earlier build in ``folder`` lists (path -> SHA-256), where its ``build.json`` is one of ours (a
    build id, Pyodide's version and the files, every path inside the folder); None otherwise."""
    try:
        about = json.loads((folder / "build.json").read_text(encoding="utf-8"))
        listed = about["files"]
        if not isinstance(about["build"], str) or not isinstance(about["pyodide"], str) or not isinstance(listed, dict):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    safe = all(
        isinstance(p, str) and isinstance(h, str) and not Path(p).is_absolute() and ".." not in Path(p).parts
        for p, h in listed.items()
    )
    return dict(listed) if safe else None


def _built(folder: Path) -> str | None:
    """The id of the build in ``folder``, where one is whole there (every file it lists, with its hash)."""
    listed = _listed(folder)
    if listed is None:
        return None
    try:
        whole = all(hashlib.sha256((folder / p).read_bytes()).hexdigest() == h for p, h in listed.items())
        about = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return str(about["build"]) if whole else None


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the build lock of ``folder`` (a file beside it): two processes building into one folder (two servers
    started on one data folder) write one after the other, never into each other's files."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f".{folder.name}.lock").open("a") as lock:
        try:
            import fcntl  # here: POSIX only (elsewhere one build at a time is the operator's to keep)
        except ImportError:
            yield
            return
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _write(folder: Path, made: Mapping[str, bytes]) -> None:
    """Write the files into ``folder``: an empty or missing folder, or one holding an earlier build, whose files (those
    its ``build.json`` lists, and nothing else: a host's own files beside them stay) are replaced. Each file is
    written aside and moved into place, ``build.json`` last, so a build stopped half-way leaves a folder the next
    build recognises and makes whole."""
    if folder.exists() and not folder.is_dir():
        raise BuildError(f"{folder} is a file: give a folder to build the app into")
    try:
        with _locked(folder):
            old = _listed(folder) if folder.is_dir() else None
            if folder.is_dir() and any(folder.iterdir()) and old is None:
                raise BuildError(f"{folder} holds other files: give an empty folder (or one an earlier build made)")
            folder.mkdir(parents=True, exist_ok=True)
            temp = Path(tempfile.mkdtemp(prefix=".app-", dir=folder))
            try:
                for path, data in made.items():
                    target = temp / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
                for path in sorted(set(old or ()) - set(made)):  # the earlier build's files it has no more
                    (folder / path).unlink(missing_ok=True)
                for path in sorted(made, key=lambda p: p == "build.json"):  # build.json last
                    (folder / path).parent.mkdir(parents=True, exist_ok=True)
                    os.replace(temp / path, folder / path)
            finally:
                shutil.rmtree(temp, ignore_errors=True)
            for parent in sorted({(folder / p).parent for p in old or ()}, key=lambda d: -len(d.parts)):
                if parent != folder and parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()  # a folder only the earlier build used, empty now
    except OSError as exc:
        raise BuildError(f"{folder}: {exc.strerror or exc}") from None
