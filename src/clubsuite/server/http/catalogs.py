"""The page's catalogs: ``GET /i18n/{lang}.json``, one language's words for the scripts of the pages, made from the
same gettext catalog the terminal reads (:mod:`clubsuite.i18n`), so that page and terminal never disagree.

The JSON holds every translated message keyed as gettext keys it (``context`` + ``\\x04`` + English words, or the
English words alone), a message with a plural as its list of forms, and the language's plural rule as the index
function's name (``n != 1`` or ``n > 1``); the page words a refusal from its reason code's entry.
"""

from __future__ import annotations

import json
from functools import cache

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from clubsuite.i18n import LANGUAGE_NAMES, LANGUAGES, PLURAL_FORMS, catalog

SEPARATOR = "\x04"
"""Between a message's context and its words in a key, as gettext joins them."""


@cache
def page_catalog(lang: str) -> bytes:
    """The JSON of ``lang``'s catalog (made once; the catalogs change only with the package)."""
    messages: dict[str, str | list[str]] = {}
    for m in catalog(lang):
        if not m.id or not m.string:
            continue
        msgid = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        key = f"{m.context}{SEPARATOR}{msgid}" if m.context else msgid
        if isinstance(m.string, (list, tuple)):
            if all(m.string):
                messages[key] = list(m.string)
        else:
            messages[key] = m.string
    plural = PLURAL_FORMS[lang].split("plural=")[1].strip("();")
    data = {"lang": lang, "name": LANGUAGE_NAMES[lang], "plural": plural, "messages": messages}
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
