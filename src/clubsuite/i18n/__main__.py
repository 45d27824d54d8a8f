"""``python -m clubsuite.i18n``: bring every catalog up to date with the messages of the sources (new messages added
untranslated, gone ones dropped, translations kept), then say how many each language still lacks."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from clubsuite.i18n import LANGUAGE_NAMES, LANGUAGES, PLURAL_FORMS, catalog_path
from clubsuite.i18n.sources import messages

_FIXED = datetime(2026, 1, 1, tzinfo=UTC)
"""The dates the catalogs' headers carry: fixed, so that updating changes a catalog only where a message did."""


def template() -> Catalog:
    """The catalog template: every message, none translated."""
    pot = Catalog(project="clubsuite", fuzzy=False, creation_date=_FIXED, revision_date=_FIXED)
    for m in messages():
        msgid = (m.msgid, m.plural) if m.plural else m.msgid
        pot.add(msgid, context=m.context, auto_comments=[m.note] if m.note else ())
    return pot


def update() -> dict[str, int]:
    """Update every catalog in place; returns how many messages each lacks a translation for."""
    pot = template()
    missing: dict[str, int] = {}
    for lang in LANGUAGES:
        path = catalog_path(lang)
        if path.exists():
            with path.open("rb") as f:
                cat = read_po(f, locale=lang)
        else:
            cat = Catalog(locale=lang, project="clubsuite", fuzzy=False)
        cat.header_comment = f"# {LANGUAGE_NAMES[lang]}: the words of clubsuite (python -m clubsuite.i18n updates it)."
        cat.creation_date = cat.revision_date = _FIXED
        cat.last_translator = cat.language_team = "clubsuite"
        cat.copyright_holder = "clubsuite"
        cat.msgid_bugs_address = ""
        cat.update(pot, no_fuzzy_matching=True)
        cat.obsolete.clear()
        cat._set_mime_headers([("Plural-Forms", PLURAL_FORMS[lang])])
        with path.open("wb") as f:
            write_po(f, cat, width=120, omit_header=False, sort_output=False, ignore_obsolete=True)
        missing[lang] = sum(1 for m in cat if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string))
    return missing


def main() -> int:
    """Update the catalogs and report."""
    for lang, n in update().items():
        print(f"{lang}: {n} message{'s' if n != 1 else ''} without a translation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
