"""Seat tokens, table ids, invite codes and display names.

A seat token is the only credential: 192 random bits handed to the player once, kept by the server as a SHA-256
hash (a token this long needs no slow hash: it cannot be guessed, only stolen, and the database alone does not give
it away). Display names are checked and never trusted as markup.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from clubsuite.errors import InvalidOptionsError

NAME_MAX = 24
"""The longest display name, in characters."""
_NAME_PUNCTUATION = frozenset(" -_.'")


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
    """A display name made tidy (spaces collapsed), or :class:`InvalidOptionsError` saying what is wrong: 1 to 24
    letters, digits, spaces and ``- _ . '``."""
    if not isinstance(name, str):
        raise InvalidOptionsError("a display name must be text")
    tidy = " ".join(unicodedata.normalize("NFC", name).split())
    if not 1 <= len(tidy) <= NAME_MAX:
        raise InvalidOptionsError(f"a display name has 1 to {NAME_MAX} characters (got {len(tidy)})")
    for ch in tidy:
        if not (ch.isalnum() or ch in _NAME_PUNCTUATION):
            raise InvalidOptionsError(f"a display name may hold letters, digits, spaces and - _ . ' only (not {ch!a})")
    return tidy
