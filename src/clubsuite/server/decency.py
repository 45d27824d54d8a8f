"""The words a site does not accept in names and chat: a small list per language, shipped in ``server/words`` and
replaced by the operator's own (``clubs serve --words DIR``: ``DIR/<lang>.txt``, ``#`` comments).

A text is refused when one of its words is a listed word or one of its forms, whatever the language the text is
written in (a name is seen by everyone). Words are compared folded, as names are (:func:`folded`): case, accents
and the letters of other alphabets that look like Latin ones do not matter (``ＦＵＣＫ``, ``fück`` and Cyrillic
``fuсk`` are one word), nor do digits and signs standing for letters (``sh1t``, ``$hit``, ``n!gger``, ``@``), a
``*`` standing for one letter inside a word (``f*ck``), letters spaced out (``s h i t``) or words run together
with capitals (``FuckYou`` is read as ``Fuck You`` too).

**Forms.** A listed word is also found with the endings its own language puts on a noun or a verb (:data:`ENDINGS`:
``niggers``, ``Huren``, ``salopes``, ``klootzakken``), and only those of its own language: the Dutch ``lul`` is
found in ``lullen``, never in the English ``lulled``.

**Whole words by default.** A listed word is matched as a whole word (with its forms) only, never inside a longer
one, so that a town or a family name that happens to hold one is not refused (the Scunthorpe problem). A list
line says where else a word is found, as chat filters' keyword lists do: ``word*`` at the start of a longer word
too (``nigger*``: ``niggerlover``), ``*word`` at its end (``*shit``: ``bullshit``), ``*word*`` anywhere in it
(``*fuck*``: ``fuckface``, ``motherfucking``); such a part has at least :data:`PART_LEAST` letters. A line
``!word`` names a word never refused although it looks like a listed word's form or holds one (``!mongools``, the
Dutch for Mongolian, is no plural of ``mongool``; ``!huren``, to rent in Dutch, whatever German makes of it), or
words joined by a hyphen whose parts are not read alone (``!pique-nique``). What a list misses, reports catch.

The refusal never repeats the word (it is shown to the one who typed it, who knows it). Checking a text costs a few
hundred set look-ups at most (a chat line has at most 200 characters), whatever the lists hold: it runs wherever a
name or a line is checked, the event loop included.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from confusable_homoglyphs import confusables

from clubsuite.errors import InvalidOptionsError

LANGUAGES = ("en", "de", "fr", "nl")
WORD_MAX = 64
"""The longest word a list may hold (longer lines are refused when the list is read)."""
LIST_MAX = 5000
"""Words one language's list may hold."""
PART_LEAST = 3
"""The fewest letters of a word a list finds inside longer words (``word*``, ``*word``, ``*word*``)."""
STEM_LEAST = 3
"""The fewest letters left of a word once an ending is taken off (``kuts`` may be ``kut``'s plural; ``as`` is not
``a``'s)."""

ENDINGS: dict[str, tuple[tuple[str, str], ...]] = {
    # (ending, what it replaces): plurals, and the endings a listed word takes as a verb or an adjective
    "en": (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ing", ""), ("y", "")),
    "de": (("e", ""), ("n", ""), ("en", ""), ("er", ""), ("ern", ""), ("es", ""), ("s", ""), ("in", ""), ("innen", "")),
    "fr": (("s", ""), ("x", ""), ("e", ""), ("es", "")),
    "nl": (("s", ""), ("en", ""), ("je", ""), ("tje", ""), ("jes", ""), ("tjes", "")),
}
"""The endings of each language's forms of a word. A word's list is searched with the endings of its own
language only: Dutch ``lul`` + ``en`` is a form, English ``lul`` + ``ed`` is not."""
DOUBLING: dict[str, frozenset[str]] = {"en": frozenset({"ed", "ing", "y"}), "nl": frozenset({"en"})}
"""The endings before which a language doubles a word's last consonant (``shitty``, ``klootzakken``)."""

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s", "!": "i"}
)
_TOKEN = re.compile(r"(?:[^\W_]|[!*$@])+")
"""A word as it is written: letters and digits, and the signs that stand for letters inside a word."""
_EDGES = "!*"
"""Signs that are punctuation at a word's ends (``shit!``, ``*sigh*``), letters only inside it."""
_STARS_MAX = 0.5
"""A word with more ``*`` than this share of its characters is not read as a word (``****``, ``f***``)."""


@dataclass(frozen=True)
class WordList:
    """One language's list: the words refused as words (with their forms), those found at the start, at the end or
    anywhere inside longer words too, and the words never refused."""

    whole: frozenset[str] = frozenset()
    starts: frozenset[str] = frozenset()
    ends: frozenset[str] = frozenset()
    inside: frozenset[str] = frozenset()
    allowed: frozenset[str] = frozenset()

    def size(self) -> int:
        """How many words the list refuses (in whatever way)."""
        return len(self.whole | self.starts | self.ends | self.inside)


@dataclass
class _Lists:
    """The lists in use, with what a check reads: every language's parts and exceptions together (a part with the
    languages that list it, so that a word is looked at once for all four), the lengths of the parts found inside
    words, and each language's words by length and letter (for ``f*ck``)."""

    by_language: dict[str, WordList] = field(default_factory=dict)
    starts: dict[str, frozenset[str]] = field(default_factory=dict)
    ends: dict[str, frozenset[str]] = field(default_factory=dict)
    inside: dict[str, frozenset[str]] = field(default_factory=dict)
    inside_lengths: tuple[int, ...] = ()
    allowed: frozenset[str] = frozenset()
    joined: tuple[str, ...] = ()
    """The words never refused that are more than one word (``pique-nique``)."""
    letters: dict[tuple[str, int, int, str], frozenset[str]] = field(default_factory=dict)
    """(language, length, position, letter): the listed words of that language and length with that letter there."""

    @classmethod
    def of(cls, by_language: dict[str, WordList]) -> _Lists:
        letters: dict[tuple[str, int, int, str], set[str]] = {}
        for lang, found in by_language.items():
            for word in found.whole | found.starts | found.ends | found.inside:
                for i, ch in enumerate(word):
                    letters.setdefault((lang, len(word), i, ch), set()).add(word)
        parts: dict[str, dict[str, set[str]]] = {"starts": {}, "ends": {}, "inside": {}}
        for lang, found in by_language.items():
            for kind, words in (("starts", found.starts), ("ends", found.ends), ("inside", found.inside)):
                for word in words:
                    parts[kind].setdefault(word, set()).add(lang)
        starts, ends, inside = ({w: frozenset(v) for w, v in parts[k].items()} for k in ("starts", "ends", "inside"))
        return cls(
            by_language,
            starts=starts,
            ends=ends,
            inside=inside,
            inside_lengths=tuple(sorted({len(w) for w in inside})),
            allowed=frozenset().union(*(x.allowed for x in by_language.values())),
            joined=tuple(sorted({w for x in by_language.values() for w in x.allowed if _TOKEN.fullmatch(w) is None})),
            letters={k: frozenset(v) for k, v in letters.items()},
        )


_lists: _Lists | None = None


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


def read_list(text: str, source: str) -> WordList:
    """The words of one list file's ``text`` (folded; see the module for a line's forms), or
    :class:`InvalidOptionsError` naming ``source`` and the line at fault."""
    kinds: dict[str, set[str]] = {"whole": set(), "starts": set(), "ends": set(), "inside": set(), "allowed": set()}
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        where = f"{source}, line {number}"
        if len(entry) > WORD_MAX + 2 or " " in entry:
            raise InvalidOptionsError(f"{where}: one word of at most {WORD_MAX} characters per line")
        allowed = entry.startswith("!")
        word = entry[1:] if allowed else entry.strip("*")
        head, tail = not allowed and entry.startswith("*"), not allowed and entry.endswith("*")
        if not word or len(word) > WORD_MAX or "*" in word or word.startswith("!"):
            raise InvalidOptionsError(
                f"{where}: a word, word*, *word, *word* (found inside longer words) or !word (never refused)"
            )
        key = folded(word)
        if (head or tail) and len(key) < PART_LEAST:
            raise InvalidOptionsError(f"{where}: a word found inside longer words has at least {PART_LEAST} letters")
        kind = (
            "allowed" if allowed else "inside" if head and tail else "ends" if head else "starts" if tail else "whole"
        )
        kinds[kind].add(key)
    found = WordList(**{k: frozenset(v) for k, v in kinds.items()})
    if found.size() > LIST_MAX:
        raise InvalidOptionsError(f"{source}: a list holds at most {LIST_MAX} words")
    return found


def configure(directory: Path | None = None) -> None:
    """Use the shipped lists, each replaced by ``directory/<lang>.txt`` where that file exists."""
    by_language: dict[str, WordList] = {}
    for lang in LANGUAGES:
        own = directory / f"{lang}.txt" if directory is not None else None
        if own is not None and own.is_file():
            by_language[lang] = read_list(own.read_text(encoding="utf-8"), str(own))
        else:
            shipped = resources.files("clubsuite.server") / "words" / f"{lang}.txt"
            by_language[lang] = read_list(shipped.read_text(encoding="utf-8"), f"words/{lang}.txt")
    global _lists
    _lists = _Lists.of(by_language)


def _apart(text: str) -> str:
    """``text`` with a space where a small letter is followed by a capital (``FuckYou``: ``Fuck You``)."""
    out: list[str] = []
    before = ""
    for ch in text:
        if before.islower() and ch.isupper():
            out.append(" ")
        out.append(ch)
        before = ch
    return "".join(out)


def _words(text: str, joined: tuple[str, ...]) -> list[str]:
    """The words of ``text`` folded, each without the signs around it that are punctuation there, less those of
    the ``joined`` words never refused (``pique-nique``: neither ``pique`` nor ``nique`` is a word of it here)."""
    text = folded(text)
    for entry in joined:
        text = re.sub(rf"(?<![^\W_]){re.escape(entry)}", " ", text)
    found = (w.strip(_EDGES) for w in _TOKEN.findall(text))
    return [w for w in found if w]


def _candidates(text: str, lists: _Lists) -> set[str]:
    """The words of ``text`` as they are compared: each word folded, with digits and signs read as letters, the runs
    of single letters joined (``s h i t``), and the words run together with capitals read apart too."""
    words = _words(text, lists.joined)
    out = set(words) | set(_words(_apart(text), lists.joined))
    run: list[str] = []
    for w in [*words, ""]:
        if len(w) == 1:
            run.append(w)
            continue
        if len(run) > 1:
            out.add("".join(run))
        run = []
    return out | {w.translate(_LEET) for w in out}


def _stems(word: str, lang: str) -> Iterator[str]:
    """``word`` and what it may be a form of in ``lang`` (see :data:`ENDINGS`)."""
    yield word
    for ending, instead in ENDINGS[lang]:
        if word.endswith(ending) and len(word) - len(ending) >= STEM_LEAST:
            stem = word[: len(word) - len(ending)]
            yield stem + instead
            if ending in DOUBLING.get(lang, ()) and len(stem) > STEM_LEAST and stem[-1] == stem[-2]:
                yield stem[:-1]


def _starred(word: str, lang: str, lists: _Lists) -> bool:
    """Whether ``word``, holding ``*`` for letters, is one of ``lang``'s listed words (the letters it shows where
    they are, any letter for each ``*``; at least two letters shown, and no more ``*`` than letters)."""
    shown = [(i, ch) for i, ch in enumerate(word) if ch != "*"]
    if len(shown) < 2 or len(word) - len(shown) > _STARS_MAX * len(word):
        return False
    sets = sorted((lists.letters.get((lang, len(word), i, ch), frozenset()) for i, ch in shown), key=len)
    return bool(sets) and bool(sets[0].intersection(*sets[1:]))


def _holds_part(word: str, langs: set[str], lists: _Lists) -> bool:
    """Whether a part listed by one of ``langs`` begins ``word``, ends it or (``*word*``) is inside it."""
    none: frozenset[str] = frozenset()
    for n in range(PART_LEAST, len(word) + 1):
        if not langs.isdisjoint(lists.starts.get(word[:n], none)) or not langs.isdisjoint(
            lists.ends.get(word[-n:], none)
        ):
            return True
    return any(
        not langs.isdisjoint(lists.inside.get(word[i : i + n], none))
        for n in lists.inside_lengths
        for i in range(len(word) - n + 1)
    )


def _refused(word: str, lists: _Lists) -> bool:
    """Whether one candidate word is refused (see the module). Each of its forms is looked at once, for the
    languages it is a form in."""
    if word in lists.allowed:
        return False
    forms: dict[str, set[str]] = {}
    for lang in lists.by_language:
        for stem in _stems(word, lang):
            if stem not in lists.allowed:  # a form of a word never refused (``mishits``: ``!mishit``)
                forms.setdefault(stem, set()).add(lang)
    if "*" in word:
        return any(_starred(stem, lang, lists) for stem, langs in forms.items() for lang in langs)
    return any(
        any(stem in lists.by_language[lang].whole for lang in langs) or _holds_part(stem, langs, lists)
        for stem, langs in forms.items()
    )


def unwelcome(text: str) -> bool:
    """Whether ``text`` holds a word the site does not accept."""
    if _lists is None:
        configure()
    assert _lists is not None
    lists = _lists
    return any(_refused(word, lists) for word in _candidates(text, lists))


def check(text: str, what: str) -> None:
    """Refuse ``text`` (:class:`InvalidOptionsError`, naming ``what``: "a display name", "a chat message") when it
    holds a word the site does not accept."""
    if unwelcome(text):
        raise InvalidOptionsError(f"{what} may not hold words this site does not accept: choose other words")
