"""A refusal in a language: its reason's words from the catalog, its parameters worded there too (a card by its
rank letter and suit symbol as that language writes it, a suit by its name, a seat by whoever names seats).

English on the command line is the engine's own sentence (``str(reason)``), unchanged; this is for a player who
chose another language, and for the English a page shows (:mod:`clubsuite.i18n`)."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import Any

from clubsuite import wording
from clubsuite.i18n import Words
from clubsuite.reasons import NUMBER_WORDS, Reason, kind_of, templates

_CARD = re.compile(r"^(JK[12]?|1[0-5]|[1-9]|[TJQKA])([CDHS])?(?:=([0-9]{1,2}))?$")
_SUIT_OF = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_SYMBOL = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_RANK_WORD = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def _parts(notation: str, words: Words) -> tuple[str, str, str | None] | str:
    """A card's rank, suit letter and wild value (or None), read from ``notation``; or the text to show as it is:
    a Joker's name in ``words``' language, or ``notation`` itself where it is no card with a suit."""
    m = _CARD.match(notation)
    if m is None:
        return notation
    rank, suit, value = m.groups()
    if rank.startswith("JK"):
        return words.get("Joker {n}", "card.joker").format(n=rank[2:] or "")
    if suit is None:
        return notation
    return ("10" if rank == "T" else rank), suit, value


def card_short(notation: str, words: Words, symbols: bool = True) -> str:
    """A card written short in ``words``' language: its rank (letters as that language writes them) and its suit's
    symbol (``D♥`` in German for the queen of hearts), or its suit's letter without ``symbols`` (``DH``, as a
    terminal that cannot show symbols writes it, and as a German player may type it); a text that is no card is
    left as it is."""
    parts = _parts(notation, words)
    if isinstance(parts, str):
        return parts
    rank, suit, value = parts
    face = (words.get(rank, "rank.short") if rank in _RANK_WORD else rank) + (_SYMBOL[suit] if symbols else suit)
    return face if value is None else f"{face}={value}"


def card_said(notation: str, words: Words, symbols: bool = True) -> str:
    """A card in a sentence in ``words``' language: written short (:func:`card_short`), a wild card with what it
    stands for ("15♠ as 7", as the page writes it)."""
    parts = _parts(notation, words)
    if isinstance(parts, str) or parts[2] is None:
        return card_short(notation, words, symbols)
    face = card_short(notation.split("=")[0], words, symbols)
    return words.get("{card} as {n}", "card.wild").format(card=face, n=parts[2])


def card_name(notation: str, words: Words) -> str:
    """A card in words in ``words``' language: ``queen of hearts``, ``Herz Dame``, ``dame de cœur``."""
    parts = _parts(notation, words)
    if isinstance(parts, str):
        return parts
    rank, suit, value = parts
    rank_words = words.get(_RANK_WORD[rank], "rank") if rank in _RANK_WORD else rank
    base = words.get("{rank} of {suit}", "card").format(rank=rank_words, suit=words.get(_SUIT_OF[suit], "suit.card"))
    return base if value is None else words.get("{card} as {n}", "card.wild").format(card=base, n=value)


class _Worded(string.Formatter):
    def __init__(self, words: Words) -> None:
        self.words = words

    def format_field(self, value: Any, format_spec: str) -> str:
        if callable(value):
            return str(value(format_spec))
        return str(value)


def _count_words(n: int, form: str, words: Words) -> str:
    """A count: in digits, or two to ten in words (``word``), capitalised at the start of a sentence (``cap``)."""
    if form not in ("word", "cap") or n not in NUMBER_WORDS:
        return str(n)
    word = words.get(NUMBER_WORDS[n], "number")
    return word[:1].upper() + word[1:] if form == "cap" else word


def _suit_words(suit: str, form: str, words: Words) -> str:
    """A suit's name: its plural, its singular (``one``), or its plural at the start of a sentence (``cap``)."""
    if form == "one":
        return words.get(suit[:-1], "suit.one")
    plural = words.get(suit, "suit")
    return plural[:1].upper() + plural[1:] if form == "cap" else plural


def list_words(items: list[str], words: Words) -> str:
    """Words as a list in ``words``' language by CLDR's patterns: "Ann, Bob, and you" (the page's ``listWords``)."""
    return wording.list_words(items, words.lang)


def reason_words(reason: Reason, lang: str, seat_name: Callable[[int], str] | None = None, symbols: bool = True) -> str:
    """``reason`` in ``lang``: the catalog's words for its code with every parameter worded in that language;
    ``seat_name(n)`` names a seat (by default the language's "seat N", counted from 1); cards are written with
    their suits' symbols, or their letters without ``symbols`` (as the table shows the hand)."""
    words = Words(lang)
    kind = templates()[reason.code]
    name = seat_name or (lambda n: words.get("seat {n}", "seat").format(n=n + 1))
    params: dict[str, object] = {}
    for key, value in reason.params.items():
        what = kind_of(key)
        if isinstance(value, Reason):
            params[key] = reason_words(value, lang, seat_name, symbols)
        elif what == "items" and isinstance(value, tuple):
            params[key] = ", ".join(reason_words(v, lang, seat_name, symbols) for v in value if isinstance(v, Reason))
        elif what == "cards":
            params[key] = (
                " ".join(card_said(str(c), words, symbols) for c in value) if isinstance(value, tuple) else value
            )
        elif what == "card":
            params[key] = card_said(str(value), words, symbols)
        elif what == "seat" and isinstance(value, int):
            params[key] = name(value)
        elif what == "seats" and isinstance(value, tuple):
            params[key] = list_words([name(int(v)) for v in value], words)
        elif what == "count" and isinstance(value, int):
            params[key] = lambda form, n=value: _count_words(n, form, words)
        elif what == "suit":
            suit = str(value)
            params[key] = lambda form, s=suit: _suit_words(s, form, words)
        else:
            params[key] = value
    if kind.plural is not None and kind.count is not None:
        count = reason.params.get(kind.count)
        text = words.plural(kind.text, kind.plural, count if isinstance(count, int) else 1, reason.code)
    else:
        text = words.get(kind.text, reason.code)
    return _Worded(words).vformat(text, (), params)


_TYPED = re.compile(r"^([A-Za-z])([CDHScdhs\u2663\u2666\u2665\u2660])$")


def english_notation(text: str, lang: str) -> str:
    """What a player typed, with the rank letters of ``lang`` read as the notation's (``DH``, the German *Dame*
    of hearts, is ``QH``). Only letters no English rank uses are read so (German B D, French V D R, Dutch B V H:
    never J Q K A), so every English notation reads as before and no card can be read two ways; suits stay
    C D H S (or their symbols, as the table shows them: ``B♠``) in every language."""
    if lang == "en":
        return text
    words = Words(lang)
    local = {words.get(letter, "rank.short").upper(): letter for letter in _RANK_WORD}
    mapping = {k: v for k, v in local.items() if len(k) == 1 and k not in _RANK_WORD and k != v}
    out = []
    for token in text.split(" "):
        m = _TYPED.match(token)
        if m and m.group(1).upper() in mapping:
            token = mapping[m.group(1).upper()] + m.group(2)
        out.append(token)
    return " ".join(out)
