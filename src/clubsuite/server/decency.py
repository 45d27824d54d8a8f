"""The words a site does not accept in names and chat: a small list per language, shipped in ``server/words`` and
replaced by the operator's own (``clubs serve --words DIR``: ``DIR/<lang>.txt``, one word per line, ``#`` comments).

A text is refused when one of its words is listed, whatever the language it is written in (a name is seen by
everyone). Words are compared folded, as names are (:func:`folded`): case, accents and the
letters of other alphabets that look like Latin ones do not matter (``ＦＵＣＫ``, ``fück`` and Cyrillic ``fuсk`` are
one word), and nor do digits standing for letters (``sh1t``) or letters spaced out (``s h i t``). A listed word
is matched as a whole word only, never inside a longer one, so that a town or a family name that happens to hold
one is not refused (the Scunthorpe problem); what a list misses, reports catch.

The refusal never repeats the word (it is shown to the one who typed it, who knows it).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import resources
from pathlib import Path

from confusable_homoglyphs import confusables

from clubsuite.errors import InvalidOptionsError

LANGUAGES = ("en", "de", "fr", "nl")
WORD_MAX = 64
"""The longest word a list may hold (longer lines are refused when the list is read)."""
LIST_MAX = 5000
"""Words one language's list may hold."""

_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s"})
_WORD = re.compile(r"[^\W_]+|[@$]")
_listed: frozenset[str] = frozenset()


def folded(text: str) -> str:
    """``text`` as words are compared (here): the first four steps of :func:`clubsuite.server.tokens.name_key`
    (compatibility forms, case, marks, look-alike letters of other alphabets read as Latin), spaces and punctuation
    kept so that the words stay apart."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")
    text = unicodedata.normalize("NFKC", text).casefold().replace("ı", "i")
    return "".join(as_latin(ch) for ch in text)


@functools.lru_cache(maxsize=4096)
def as_latin(ch: str) -> str:
    """A folded character as the Latin letters it looks like (lowercase, marks dropped), or itself: its own
    look-alike first, then its capital's (Cyrillic ``м`` has none, ``М`` is ``M``). Kept for the characters met
    most (the look-up searches the confusables' table)."""
    if ch.isascii():
        return ch
    for form in (ch, ch.upper()):
        found = confusables.is_confusable(form, preferred_aliases=["latin"]) if len(form) == 1 else False
        if isinstance(found, list) and found:
            for glyph in found[0]["homoglyphs"]:
                plain = "".join(c for c in unicodedata.normalize("NFD", glyph["c"]) if unicodedata.category(c) != "Mn")
                if plain and plain.isascii():
                    return plain.casefold()
    return ch


def read_list(text: str, source: str) -> set[str]:
    """The words of one list file's ``text`` (folded), or :class:`InvalidOptionsError` naming ``source`` and the
    line at fault."""
    words: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        word = line.split("#", 1)[0].strip()
        if not word:
            continue
        if len(word) > WORD_MAX or " " in word:
            raise InvalidOptionsError(f"{source}, line {number}: one word of at most {WORD_MAX} characters per line")
        words.add(folded(word))
    if len(words) > LIST_MAX:
        raise InvalidOptionsError(f"{source}: a list holds at most {LIST_MAX} words")
    return words


def configure(directory: Path | None = None) -> None:
    """Use the shipped lists, each replaced by ``directory/<lang>.txt`` where that file exists."""
    words: set[str] = set()
    for lang in LANGUAGES:
        own = directory / f"{lang}.txt" if directory is not None else None
        if own is not None and own.is_file():
            words |= read_list(own.read_text(encoding="utf-8"), str(own))
        else:
            shipped = resources.files("clubsuite.server") / "words" / f"{lang}.txt"
            words |= read_list(shipped.read_text(encoding="utf-8"), f"words/{lang}.txt")
    global _listed
    _listed = frozenset(words)


def _candidates(text: str) -> set[str]:
    """The words of ``text`` as they are compared: each word folded, with digits read as letters, and the runs of
    single letters joined (``s h i t``)."""
    words = _WORD.findall(folded(text))
    out = set(words) | {w.translate(_LEET) for w in words}
    run: list[str] = []
    for w in [*words, ""]:
        if len(w) == 1:
            run.append(w)
            continue
        if len(run) > 1:
            joined = "".join(run)
            out |= {joined, joined.translate(_LEET)}
        run = []
    return out


def unwelcome(text: str) -> bool:
    """Whether ``text`` holds a word the site does not accept."""
    if not _listed:
        configure()
    return not _listed.isdisjoint(_candidates(text))


def check(text: str, what: str) -> None:
    """Refuse ``text`` (:class:`InvalidOptionsError`, naming ``what``: "a display name", "a chat message") when it
    holds a word the site does not accept."""
    if unwelcome(text):
        raise InvalidOptionsError(f"{what} may not hold words this site does not accept: choose other words")
