"""The "How to play" pages: each game's rules for a newcomer, in English, German, French and Dutch.

The pages are Markdown files beside this module, ``rules/<game>.<lang>.md``, written for players (not the rules as
implemented, which the docs hold for developers). They are rendered with markdown-it-py with raw HTML switched off, so
nothing in a source becomes markup it did not mean, and with the attributes plugin of mdit-py-plugins, so that a line
``{#ID}`` before a block gives it an id: every ruling of a game has one, so the table's "why?" can link to
``/rules/<game>?lang=de#<ruling>``, and each option and named variant has ``option-<name>`` or ``variant-<name>``.
Examples of cards are written as inline code starting with ``cards:`` in the game's notation; the page's script
(``static/js/rules.js``) draws them.

``GET /rules`` lists the games and ``GET /rules/{game}`` shows one, in the language of ``?lang=`` or else the best
match of the browser's ``Accept-Language``, else English; with ``?spec=`` (a table's rules, as a table's page links
it) the page first says in words what that table plays. The games come from the registry, never from a list here;
a game is listed once it has an English page. A rendered page is kept for the life of the process: the sources are
part of the package and do not change while it runs.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi import Path as UrlPart
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_block_plugin

from clubsuite.engine import games, resolve
from clubsuite.errors import ClubsError
from clubsuite.i18n import Words
from clubsuite.jsonform import JsonObject
from clubsuite.naming import rules_parts, worded


@dataclass(frozen=True)
class Language:
    """The words of a page's frame in one language (the rules themselves are in the Markdown sources)."""

    name: str
    """The language's name in itself, for the language switch."""
    how_to_play: str
    """The heading of the list of games, and the start of every page's title."""
    pick_a_game: str
    """The line above the list of games."""
    lobby: str
    """The link back to the lobby."""
    all_games: str
    """The link to the list of games."""
    switch: str
    """The accessible name of the language switch."""
    contents: str
    """The heading of a page's table of contents."""
    no_game: str
    """The message of a page for a game that has none."""
    bad_language: str
    """The message for an unknown ``lang`` value; ``{allowed}`` is replaced by the values allowed."""
    at_this_table: str
    """The line at the top of a page opened from a table whose rules differ from the game's defaults; ``{rules}``
    is replaced by them in words."""
    as_written: str
    """The line at the top of a page opened from a table that plays the rules as written."""
    bad_spec: str
    """The message for table rules in the address that cannot be read; ``{reason}`` says why."""


LANGUAGES: dict[str, Language] = {
    "en": Language(
        "English",
        "How to play",
        "Choose a game to read how it is played.",
        "Back to the lobby",
        "All games",
        "Language",
        "On this page",
        "There is no how-to-play page for this game.",
        "This language is not offered. Choose one of: {allowed}.",
        "At this table: {rules}. Everything else is as written below.",
        "This table plays the rules as written below.",
        "The table rules in the address (spec) cannot be read: {reason}.",
    ),
    "de": Language(
        "Deutsch",
        "Spielregeln",
        "Wählen Sie ein Spiel, um zu lesen, wie es gespielt wird.",
        "Zurück zur Lobby",
        "Alle Spiele",
        "Sprache",
        "Auf dieser Seite",
        "Für dieses Spiel gibt es keine Spielregeln.",
        "Diese Sprache wird nicht angeboten. Möglich sind: {allowed}.",
        "An diesem Tisch: {rules}. Alles andere gilt wie unten beschrieben.",
        "Dieser Tisch spielt nach den Regeln, wie sie unten stehen.",
        "Die Tischregeln in der Adresse (spec) sind nicht lesbar: {reason}.",
    ),
    "fr": Language(
        "Français",
        "Règles du jeu",
        "Choisissez un jeu pour lire comment on y joue.",
        "Retour au salon",
        "Tous les jeux",
        "Langue",
        "Sur cette page",
        "Il n’y a pas de règles pour ce jeu.",
        "Cette langue n’est pas proposée. Choisissez parmi : {allowed}.",
        "À cette table : {rules}. Tout le reste est comme décrit ci-dessous.",
        "Cette table suit les règles telles qu’elles sont décrites ci-dessous.",
        "Les règles de table indiquées dans l’adresse (spec) sont illisibles : {reason}.",
    ),
    "nl": Language(
        "Nederlands",
        "Spelregels",
        "Kies een spel om te lezen hoe het gespeeld wordt.",
        "Terug naar de lobby",
        "Alle spellen",
        "Taal",
        "Op deze pagina",
        "Voor dit spel zijn er geen spelregels.",
        "Deze taal wordt niet aangeboden. Kies uit: {allowed}.",
        "Aan deze tafel: {rules}. Al het andere is zoals hieronder beschreven.",
        "Deze tafel speelt volgens de regels zoals ze hieronder staan.",
        "De tafelregels in het adres (spec) zijn onleesbaar: {reason}.",
    ),
}
"""The languages offered, in the order the switch shows them; the first is the default."""

DEFAULT = next(iter(LANGUAGES))
"""The language of a page when neither the address nor the browser names one offered."""

SOURCES: Traversable = resources.files("clubsuite.server.http") / "rules"
"""The folder of the Markdown sources."""

SPEC_MAX = 200
"""The longest table rules (``?spec=``) a page reads, as long as a table's game may be when it is made."""

CARDS_PREFIX = "cards:"
"""How an example of cards starts: inline code ``cards: 7H 8H`` is drawn as cards by the page's script."""


@dataclass(frozen=True)
class Rendered:
    """One game's page in one language, rendered: its title (the source's first heading), its table of contents
    (the id and words of each second-level heading that has an id) and its body as HTML."""

    title: str
    contents: tuple[tuple[str, str], ...]
    body: str


def _markdown() -> MarkdownIt:
    """The renderer: CommonMark with tables, raw HTML shown as text, and ``{#id}`` lines giving a block its id."""
    return MarkdownIt("commonmark", {"html": False}).use(attrs_block_plugin).enable("table")


def _plain(token: Token) -> str:
    """The words of an inline token, without its markup."""
    return "".join(child.content for child in token.children or () if child.type in ("text", "code_inline"))


def _source(game: str, lang: str) -> str | None:
    """The Markdown of ``game``'s page in ``lang``, or None when there is none. ``game`` is always a registered
    game's name (never what a client typed), so the path cannot leave the folder."""
    path = SOURCES / f"{game}.{lang}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


@functools.cache
def rendered(game: str, lang: str) -> Rendered | None:
    """``game``'s page in ``lang`` rendered (kept once made), or None when that page does not exist."""
    text = _source(game, lang)
    if text is None:
        return None
    md = _markdown()
    tokens = md.parse(text)
    title, contents = game, []
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or i + 1 >= len(tokens):
            continue
        words = _plain(tokens[i + 1])
        anchor = token.attrGet("id")
        if token.tag == "h1" and title == game:
            title = words
        elif token.tag == "h2" and isinstance(anchor, str):
            contents.append((anchor, words))
    return Rendered(title, tuple(contents), md.renderer.render(tokens, md.options, {}))


@functools.cache
def brief(game: str, lang: str) -> tuple[str, tuple[str, ...]] | None:
    """The first section of ``game``'s page in ``lang`` ("The game in brief": who plays, the cards and their order,
    the aim) as its title and its paragraphs in plain words: what the coach of "Learn to play" opens with. None
    where the page or that section is missing."""
    text = _source(game, lang)
    if text is None:
        return None
    tokens = _markdown().parse(text)
    title, paragraphs, inside = "", [], False
    for i, token in enumerate(tokens[:-1]):
        if token.type == "heading_open" and token.tag == "h2":
            if inside:
                break
            inside = token.attrGet("id") == "overview"
            title = _plain(tokens[i + 1]) if inside else title
        elif inside and token.type == "paragraph_open":
            kids = tokens[i + 1].children or ()
            words = (
                c.content if c.type in ("text", "code_inline") else " " if c.type.endswith("break") else ""
                for c in kids
            )
            paragraphs.append(" ".join("".join(words).split()))  # a line's end is a space; markup goes
    return (title, tuple(paragraphs)) if title and paragraphs else None


def served_games() -> list[str]:
    """The names of the registered games that have a page (an English one at least), in the registry's order."""
    return [info.name for info in games() if rendered(info.name, DEFAULT) is not None]


def preferred_language(header: str | None) -> str:
    """The offered language the browser's ``Accept-Language`` header prefers most (by its weights, the first named
    on a tie; a regional tag such as ``de-CH`` counts for its language), or the default when it names none."""
    best, weight = DEFAULT, 0.0
    for item in (header or "").split(",")[:50]:
        tag, _, params = item.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and 0.0 < q <= 1.0 and q > weight:
            best, weight = primary, q
    return best


def _document(lang: str, title: str, switch_path: str, main: str, status: int = 200, keep: str = "") -> HTMLResponse:
    """A whole page in ``lang``: the bar with the way back to the lobby and the language switch (each language
    named in itself and linking to ``switch_path`` in it, with the query ``keep`` after the language), then
    ``main``. Every text put in is escaped here or was rendered with raw HTML off."""
    words = LANGUAGES[lang]
    links = "".join(
        f'<a href="{html.escape(switch_path)}?lang={code}{html.escape(keep)}" hreflang="{code}" lang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{html.escape(other.name)}</a>"
        for code, other in LANGUAGES.items()
    )
    page = f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/css/clubs.css">
<link rel="stylesheet" href="/static/css/rules.css">
<link rel="icon" href="data:,">
<script type="module" src="/static/js/rules.js"></script>
</head>
<body>
<header class="bar rules-bar">
<a class="home" href="/">{html.escape(words.lobby)}</a>
<a class="rules-all" href="/rules?lang={lang}">{html.escape(words.all_games)}</a>
<nav class="languages" aria-label="{html.escape(words.switch)}">{links}</nav>
</header>
<main class="rules-page" id="main">
{main}
</main>
</body>
</html>
"""
    headers = {"cache-control": "no-cache", "content-language": lang, "vary": "accept-language"}
    return HTMLResponse(page, status_code=status, headers=headers)


def _language_of(request: Request, lang: str | None) -> str | HTMLResponse:
    """The language asked for (``?lang=``, else the browser's), or the page refusing an unknown ``lang``: a 400 in
    the browser's language naming the values allowed."""
    if lang is None:
        return preferred_language(request.headers.get("accept-language"))
    if lang in LANGUAGES:
        return lang
    shown = preferred_language(request.headers.get("accept-language"))
    words = LANGUAGES[shown]
    message = words.bad_language.format(allowed=", ".join(LANGUAGES))
    main = (
        f'<div class="rules-body"><h1>{html.escape(words.how_to_play)}</h1>'
        f'<p class="notice">{html.escape(message)}</p></div>'
    )
    return _document(shown, words.how_to_play, "/rules", main, status=400)


def index_page(lang: str) -> HTMLResponse:
    """The list of games in ``lang``, each linking to its page (named by the page's own title)."""
    words = LANGUAGES[lang]
    items = []
    for game in served_games():
        page = rendered(game, lang) or rendered(game, DEFAULT)
        assert page is not None  # served_games lists only games with a page
        items.append(f'<li><a href="/rules/{html.escape(game)}?lang={lang}">{html.escape(page.title)}</a></li>')
    main = (
        f'<div class="rules-body"><h1>{html.escape(words.how_to_play)}</h1>'
        f"<p>{html.escape(words.pick_a_game)}</p>"
        f'<ul class="game-list">{"".join(items)}</ul></div>'
    )
    return _document(lang, words.how_to_play, "/rules", main)


def table_rules(game: str, spec: str, lang: str, body: str) -> tuple[str, bool]:
    """The paragraph at the top of ``game``'s page opened from a table playing ``spec``: the rules that differ
    from the game's defaults (and the number of players, where the game's varies), each in words in ``lang``
    linking to its paragraph when ``body`` has one; or, for rules that cannot be read or are another game's, a
    notice saying so. Also whether ``spec`` was read."""
    words = LANGUAGES[lang]
    try:
        if len(spec) > SPEC_MAX:
            raise ClubsError(f"longer than {SPEC_MAX} characters")
        info, options = resolve(spec)
        if info.name != game:
            raise ClubsError(f"{info.name} \u2260 {game}")
    except ClubsError as exc:
        message = words.bad_spec.format(reason=str(exc))
        return f'<p class="notice table-rules" role="alert">{html.escape(message)}</p>', False
    said = Words(lang)
    parts: list[tuple[str, str]] = []
    if len(info.seats) > 1:
        n = info.n_seats(options)
        parts.append(("players", said.plural("{n} player", "{n} players", n).replace("{n}", str(n))))
    parts.extend((str(part["option"]), worded(part, said)) for part in rules_parts(info, options))
    if not parts:
        return f'<p class="table-rules">{html.escape(words.as_written)}</p>', True
    shown = []
    for key, text in parts:
        anchor = f"option-{key}"
        found = f'id="{anchor}"' in body
        shown.append(f'<a href="#{anchor}">{html.escape(text)}</a>' if found else html.escape(text))
    head, _, tail = words.at_this_table.partition("{rules}")
    return f'<p class="table-rules">{html.escape(head)}{", ".join(shown)}{html.escape(tail)}</p>', True


def game_page(game: str, lang: str, spec: str | None = None) -> HTMLResponse:
    """``game``'s page in ``lang`` (in English where that language has none yet), or a 404 page saying there is
    none; a name not registered is never used to find a file. Opened from a table (``spec``: its rules), the page
    says at the top what that table plays (:func:`table_rules`); rules that cannot be read answer 400, the page
    shown all the same below the notice."""
    words = LANGUAGES[lang]
    known = game in served_games()
    page = (rendered(game, lang) or rendered(game, DEFAULT)) if known else None
    if page is None:
        main = (
            f'<div class="rules-body"><h1>{html.escape(words.how_to_play)}</h1>'
            f'<p class="notice">{html.escape(words.no_game)}</p>'
            f'<p><a href="/rules?lang={lang}">{html.escape(words.all_games)}</a></p></div>'
        )
        return _document(lang, words.how_to_play, "/rules", main, status=404)
    shown = lang if rendered(game, lang) is not None else DEFAULT
    toc = "".join(f'<li><a href="#{html.escape(a)}">{html.escape(w)}</a></li>' for a, w in page.contents)
    top, read = table_rules(game, spec, shown, page.body) if spec is not None else ("", True)
    main = (
        f'<nav class="rules-contents" aria-labelledby="contents-title"><h2 id="contents-title">'
        f"{html.escape(LANGUAGES[shown].contents)}</h2><ol>{toc}</ol></nav>"
        f'<article class="rules-body">{_after_title(page.body, top)}</article>'
    )
    title = f"{LANGUAGES[shown].how_to_play} – {page.title}"  # a dash reads right in every language
    keep = f"&spec={quote(spec, safe='')}" if spec is not None and read else ""
    return _document(shown, title, f"/rules/{game}", main, status=200 if read else 400, keep=keep)


def _after_title(body: str, insert: str) -> str:
    """``body`` with ``insert`` just after its first heading (the page's title)."""
    end = body.find("</h1>")
    if not insert or end < 0:
        return insert + body
    end += len("</h1>")
    return body[:end] + "\n" + insert + body[end:]


def router() -> APIRouter:
    """Serve the how-to-play pages: ``GET /rules`` (the list of games) and ``GET /rules/{game}``, each
    with ``?lang=`` (one of :data:`LANGUAGES`; the browser's choice when absent). The security headers are the
    guard's, as for every answer."""
    routes = APIRouter()

    @routes.get("/rules", include_in_schema=False)
    async def rules_index(request: Request, lang: str | None = None) -> HTMLResponse:
        chosen = _language_of(request, lang)
        return chosen if isinstance(chosen, HTMLResponse) else index_page(chosen)

    @routes.get("/rules/{game}/brief")
    async def rules_brief(
        game: Annotated[str, UrlPart(max_length=40)], lang: Annotated[str, Query(max_length=8)] = DEFAULT
    ) -> JsonObject:
        """A game's rules in brief (who plays, the cards and their order, the aim), in ``lang``: ``{"title",
        "paragraphs"}`` in plain words; what the coach of "Learn to play" opens with."""
        if lang not in LANGUAGES:
            raise HTTPException(422, {"code": "bad_language", "message": f"lang: one of {', '.join(LANGUAGES)}"})
        found = brief(game, lang) if game in served_games() else None
        if found is None:
            raise HTTPException(404, {"code": "no_game", "message": f"there is no game {game!r} with rules to read"})
        return {"title": found[0], "paragraphs": list(found[1])}

    @routes.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str, request: Request, lang: str | None = None, spec: str | None = None) -> HTMLResponse:
        chosen = _language_of(request, lang)
        return chosen if isinstance(chosen, HTMLResponse) else game_page(game, chosen, spec)

    return routes
