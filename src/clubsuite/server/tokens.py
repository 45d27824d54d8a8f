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

from confusable_homoglyphs import categories, confusables

from clubsuite.errors import InvalidOptionsError

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


def new_table_id() -> str:
    """A fresh table id (72 random bits)."""
    return secrets.token_urlsafe(9)


def new_invite() -> str:
    """A fresh invite code (72 random bits)."""
    return secrets.token_urlsafe(9)


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
    return tidy


def _blank(ch: str) -> bool:
    """A character that counts as a letter but shows nothing (the Hangul fillers)."""
    return "FILLER" in unicodedata.name(ch, "")


def looks_alike(a: str, b: str) -> bool:
    """Whether two display names would be taken for each other: the same letters once case is ignored, every
    letter that looks like a Latin one (Cyrillic а, Greek ο) read as that letter, and the Latin letters and digits
    that pass for one another in many typefaces (I l 1, O 0, rn m, vv w) read alike."""
    return any(_skeleton(a, plain) == _skeleton(b, plain) for plain in (False, True))


def name_key(name: str) -> str:
    """The form of a name two accounts may not share: its letters as they read (:func:`looks_alike`'s stricter
    reading), so that no account's name passes for another's."""
    return _skeleton(name, True)


_ASCII_ALIKE = (("rn", "m"), ("vv", "w"), ("I", "l"), ("1", "l"), ("|", "l"), ("0", "o"))
"""Latin look-alikes (Unicode's confusables, TR39, among plain letters and digits), each read as the second."""


def _skeleton(name: str, plain_alike: bool) -> str:
    """A name as it reads: look-alike letters of other alphabets as Latin ones, with the plain look-alikes read alike
    too where ``plain_alike`` (before case is folded: ``I`` passes for ``l``, though ``i`` does not), case folded."""
    out = []
    for ch in unicodedata.normalize("NFKC", name):
        found = confusables.is_confusable(ch, preferred_aliases=["latin"]) if not ch.isascii() else False
        if isinstance(found, list) and found:
            latin = [g["c"] for g in found[0]["homoglyphs"] if g["c"].isascii()]
            ch = latin[0] if latin else ch
        out.append(ch)
    text = "".join(out)
    if plain_alike:
        for alike, read_as in _ASCII_ALIKE:
            text = text.replace(alike, read_as)
    return text.casefold()
