"""Seat tokens, table ids, invite codes and display names.

A seat token is the only credential: 192 random bits handed to the player once, kept by the server as a SHA-256
hash (a token this long needs no slow hash: it cannot be guessed, only stolen, and the database alone does not give
it away). Display names are checked (one writing system each, and none that looks like another player's at the
same table, with the Unicode look-alike tables of ``confusable_homoglyphs``) and never trusted as markup.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from confusable_homoglyphs import categories

from clubsuite.errors import InvalidOptionsError
from clubsuite.server.decency import as_latin
from clubsuite.server.decency import check as check_words

NAME_MAX = 24
"""The longest display name, in characters."""
_NAME_PUNCTUATION = frozenset(" -_.'")
_ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
"""Digits, punctuation and combining marks belong to every writing system."""
_MIXED_BY_CUSTOM = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""Writing systems that one name may mix, as Japanese, Chinese and Korean writing do (Unicode's "highly
restrictive" level, TR39)."""


def new_token() -> str:
    """A fresh seat token (192 random bits, URL-safe text)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    """Whether two token hashes are equal, compared in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def new_id(nbytes: int = 9) -> str:
    """A fresh id of ``nbytes`` random bytes as URL-safe text that never begins with "-", so that an operator can
    pass it to a command (``clubs admin act ID``) without its being read as an option. Drawing again on a leading
    "-" costs under one bit of the 72 (1 in 64 draws)."""
    while True:
        made = secrets.token_urlsafe(nbytes)
        if not made.startswith("-"):
            return made


def new_table_id() -> str:
    """A fresh table id (72 random bits)."""
    return new_id()


def new_invite() -> str:
    """A fresh invite code (72 random bits)."""
    return new_id()


def check_name(name: object) -> str:
    """A display name made tidy, or :class:`InvalidOptionsError` saying what is wrong: 1 to 24 letters, digits,
    spaces and ``- _ . '``, the letters of one writing system (or of one that mixes them by custom, as Japanese
    does), so that a name cannot pass for another by borrowing a look-alike letter (a Cyrillic А in "Аnn").

    Tidy: compatibility forms folded to their plain letters (NFKC: full-width "Ａｎｎ" is "Ann") and spaces
    collapsed. Whether a name looks like another player's at the same table is :func:`looks_alike`."""
    if not isinstance(name, str):
        raise InvalidOptionsError("a display name must be text")
    tidy = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 1 <= len(tidy) <= NAME_MAX:
        raise InvalidOptionsError(f"a display name has 1 to {NAME_MAX} characters (got {len(tidy)})")
    for ch in tidy:
        if not (ch.isalnum() or ch in _NAME_PUNCTUATION) or _blank(ch):
            raise InvalidOptionsError(f"a display name may hold letters, digits, spaces and - _ . ' only (not {ch!a})")
    scripts = set(categories.unique_aliases(tidy)) - _ANY_SCRIPT
    if len(scripts) > 1 and not any(scripts <= together for together in _MIXED_BY_CUSTOM):
        raise InvalidOptionsError(
            "a display name's letters come from one alphabet (this one mixes "
            f"{' and '.join(sorted(s.title() for s in scripts))}, which lets a name pass for another)"
        )
    check_words(tidy, "a display name")
    return tidy


def _blank(ch: str) -> bool:
    """A character that counts as a letter but shows nothing (the Hangul fillers)."""
    return "FILLER" in unicodedata.name(ch, "")


def looks_alike(a: str, b: str) -> bool:
    """Whether two display names would be taken for each other: whether they are one name (:func:`name_key`), the
    same test an account's name passes at sign-up, so that a table and a club night refuse exactly the names
    sign-up refuses."""
    return name_key(a) == name_key(b)


def name_key(name: str) -> str:
    """The form of a name that two accounts, two players at a table or two entrants of a club night may not share.

    Two names are one name when they differ only in what a reader does not tell apart, or would not take as a
    different person: lichess refuses usernames that differ only by case; names here are Unicode, so the key goes
    further. In order:

    1. compatibility forms folded (NFKC: full-width ``Ａｎｎ`` is ``Ann``);
    2. case, by Unicode's full case folding (``str.casefold``) *first*, so that every step after it sees one case:
       ``ß`` is ``ss`` (``Straße`` is ``STRASSE``), final ``ς`` and capital ``Σ`` are ``σ``;
    3. accents and every other combining mark dropped (NFD, marks of category Mn removed): ``Alíce`` is ``Alice``,
       and the Turkish capital ``İ``, which folds to ``i`` and a combining dot, is ``i``; the dotless ``ı`` reads as
       ``i`` too. Marks go in every script (a Japanese dakuten, a Hebrew point as much as an accent): to one who
       does not read the script they are small marks on a letter, and refusing a name is cheap where being taken
       for another player is not;
    4. letters of other alphabets that look like Latin ones read as the Latin letter (Unicode's confusables,
       TR39, through ``confusable_homoglyphs``: Cyrillic ``а``, Greek ``ο``), a lowercase letter with no Latin
       look-alike of its own read as its capital's (Cyrillic ``м`` as ``М``, so ``мас`` is ``Mac`` as ``МАС`` is);
    5. spaces and the punctuation a name may hold (``- _ . '``) dropped: ``Alice.``, ``a l i c e`` and ``A-lice``
       are ``Alice`` (a name of punctuation only keeps it, so that it still has a key of its own);
    6. the plain look-alikes read alike, in lowercase since case is folded: ``i l 1 |`` (a capital ``I`` passes for
       ``l`` in many typefaces, and once folded it cannot be told from ``i``), ``o 0``, ``rn m``, ``vv w``. This
       comes after the spaces are dropped, or ``r n`` and ``rn`` would be two names while ``a l i c e`` and
       ``alice`` are one.

    Other digits stay distinct (``Ann2`` is not ``Ann3``). A key never holds ``#``, which no name may hold: a
    migration marks with it the accounts it had to set apart (revision 0007)."""
    text = unicodedata.normalize("NFKC", name).replace("#", "").casefold()
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")
    text = unicodedata.normalize("NFKC", text).casefold().replace("ı", "i")
    text = "".join(as_latin(ch) for ch in text).replace("#", "")
    letters = "".join(ch for ch in text if ch not in _NAME_PUNCTUATION)
    if not letters:
        return text.replace(" ", "")
    for alike, read_as in _PLAIN_ALIKE:
        letters = letters.replace(alike, read_as)
    return letters


_PLAIN_ALIKE = (("rn", "m"), ("vv", "w"), ("i", "l"), ("1", "l"), ("|", "l"), ("0", "o"))
"""Latin look-alikes (Unicode's confusables, TR39, among plain letters and digits) once case is folded, each read
as the second."""
