"""Every message the catalogs must hold, gathered from where it is written: the engine's refusal templates
(:mod:`clubsuite.reasons`, one per reason code), the names of suits and ranks, the page's own words (the strings its
scripts pass to ``t(...)`` and ``tn(...)``, found by Babel's JavaScript extractor) and the terminal's (the strings
its screens pass to ``self.tr(...)`` and ``self.trn(...)``, found by Babel's Python extractor)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.extract import extract

from clubsuite.engine import games
from clubsuite.reasons import SUITS, templates

SCRIPTS = Path(__file__).resolve().parents[1] / "server" / "static" / "js"
"""The page's scripts, whose ``t("...")`` and ``tn("...", "...", n)`` words are messages."""
JS_KEYWORDS = {"t": (1,), "tn": (1, 2)}
"""The page's translation functions, as Babel's extractor reads them."""

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace", "joker")
"""Rank names a card's name uses (the cards numbered 1 to 15 are named by their number)."""


@dataclass(frozen=True)
class Message:
    """One message: its English words, plural, context and a note for the translator."""

    msgid: str
    plural: str | None = None
    context: str | None = None
    note: str = ""


def reason_messages() -> Iterator[Message]:
    """One message per refusal template, keyed by its reason code."""
    games()  # every game registered, and with it every game's templates
    for code, kind in sorted(templates().items()):
        note = f"Refusal {code}" + (f" (ruling {kind.rule})" if kind.rule else "") + ". Parameters: "
        note += ", ".join(sorted(kind.fields())) or "none"
        yield Message(kind.text, kind.plural, code, note)


def card_messages() -> Iterator[Message]:
    """Suit and rank names, and how a card's name is made of them."""
    for suit in SUITS:
        yield Message(suit, None, "suit", "a suit's name in a sentence, plural: no hearts")
        yield Message(suit[:-1], None, "suit.one", "a suit's name in a sentence, singular: a heart")
        yield Message(suit, None, "suit.card", "a suit's name in a card's name: queen of hearts")
    for rank in RANKS:
        yield Message(rank, None, "rank", "a rank's name in a card's name")
    for letter in ("J", "Q", "K", "A"):
        yield Message(letter, None, "rank.short", "a rank's letter in a card written short: Q as in Q\u2665")
    yield Message("{rank} of {suit}", None, "card", "a card's name: queen of hearts")
    yield Message("Joker {n}", None, "card.joker", "a Joker's name: Joker 1")
    yield Message("seat {n}", None, "seat", "a seat named by its number, counted from 1")
    yield Message("{card} as {n}", None, "card.wild", "a wild 15 and the value it stands for: 15 of clubs as 7")


def page_messages() -> Iterator[Message]:
    """The words the page's scripts translate, in file order."""
    for path in sorted(SCRIPTS.glob("*.js")):
        with path.open("rb") as f:
            for _line, text, _comments, _context in extract("javascript", f, keywords=JS_KEYWORDS):
                if isinstance(text, tuple):
                    yield Message(text[0], text[1], None, f"page: {path.name}")
                else:
                    yield Message(text, None, None, f"page: {path.name}")


PYTHON_KEYWORDS = {"tr": (1,), "trn": (1, 2)}
"""The terminal's translation methods (``self.tr("...")``, ``self.trn("...", "...", n)`` of a screen)."""


def terminal_sources() -> list[Path]:
    """The terminal's screens, whose ``tr``/``trn`` words are messages: the shared table and each game's screen."""
    package = Path(__file__).resolve().parents[1]
    return sorted([*(package / "tui").glob("*.py"), *(package / "games").glob("*/screen.py")])


def terminal_messages() -> Iterator[Message]:
    """The words the terminal translates, in file order."""
    package = Path(__file__).resolve().parents[1]
    for path in terminal_sources():
        with path.open("rb") as f:
            for _line, text, _comments, _context in extract("python", f, keywords=PYTHON_KEYWORDS):
                where = f"terminal: {path.relative_to(package)}"
                if isinstance(text, tuple):
                    yield Message(text[0], text[1], None, where)
                else:
                    yield Message(text, None, None, where)


def messages() -> list[Message]:
    """Every message, each once (the first place it is met gives its note)."""
    seen: dict[tuple[str | None, str], Message] = {}
    for message in (*reason_messages(), *card_messages(), *page_messages(), *terminal_messages()):
        seen.setdefault((message.context, message.msgid), message)
    return list(seen.values())
