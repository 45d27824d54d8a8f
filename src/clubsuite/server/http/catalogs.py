"""The page's catalogs: ``GET /i18n/{lang}.json``, one language's words for the scripts of the pages, made from the
same gettext catalog the terminal reads (:mod:`clubsuite.i18n`), so that page and terminal never disagree.

The JSON holds every translated message keyed as gettext keys it (``context`` + ``\\x04`` + English words, or the
English words alone), a message with a plural as its list of forms (as many as the catalog's ``Plural-Forms``
header gives the language), and ``plurals``, the form each of the language's CLDR plural categories stands for
(French: ``{"one": 0, "many": 1, "other": 1}``): the page asks ``Intl.PluralRules`` for a number's category and
reads its form from this, for any number of forms, rather than guessing from the rule's text. The page words a
refusal from its reason code's entry.
"""

from __future__ import annotations

import json
from functools import cache

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from clubsuite.i18n import LANGUAGE_NAMES, LANGUAGES, catalog
from clubsuite.wording import plural_categories

SEPARATOR = "\x04"
"""Between a message's context and its words in a key, as gettext joins them."""


@cache
def page_catalog(lang: str) -> bytes:
    """The JSON of ``lang``'s catalog (made once; the catalogs change only with the package)."""
    messages: dict[str, str | list[str]] = {}
    words = catalog(lang)
    for m in words:
        if not m.id or not m.string:
            continue
        msgid = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        key = f"{m.context}{SEPARATOR}{msgid}" if m.context else msgid
        if isinstance(m.string, (list, tuple)):
            if all(m.string):
                messages[key] = list(m.string)
        else:
            messages[key] = m.string
    plurals = plural_categories(lang, words.plural_expr, words.num_plurals)
    data = {"lang": lang, "name": LANGUAGE_NAMES[lang], "plurals": plurals, "messages": messages}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def router() -> APIRouter:
    """Serve each shipped language's catalog; any other language is a 404 naming the shipped ones."""
    routes = APIRouter()

    @routes.get("/i18n/{lang}.json", include_in_schema=False)
    async def words(lang: str) -> Response:
        if lang not in LANGUAGES:
            return JSONResponse(
                {"detail": f"language {lang[:16]!r} is not shipped: expected one of {', '.join(LANGUAGES)}"},
                status_code=404,
            )
        return Response(page_catalog(lang), media_type="application/json", headers={"cache-control": "no-cache"})

    return routes
