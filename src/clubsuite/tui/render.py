"""Terminal rendering of Clubs games: hands sorted by suit with colours, numbered card lists and score tables.

Everything returns Rich ``Text`` so one code path serves a colour terminal and plain piped output (the console
drops the styles when colour is off).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich import box
from rich.table import Table
from rich.text import Text

from clubsuite.cards import Card, CardSet, Suit
from clubsuite.i18n import DEFAULT, Words
from clubsuite.i18n.render import card_short

SUIT_STYLE = {Suit.CLUBS: "bold green", Suit.DIAMONDS: "bold red", Suit.HEARTS: "bold red", Suit.SPADES: "bold"}
DISPLAY_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
"""Suits alternate colours on screen; clubs (trumps) first."""


@dataclass(frozen=True)
class Faces:
    """How a table writes its cards: the suit as a symbol (♣♦♥♠) or a letter (a terminal that cannot show
    symbols), the rank letters of the table's language (the German jack is ``B♠``, as a refusal names it). One
    alphabet for the hand, the trick, the legal moves and the refusals; what is typed may use it too (the rank
    letters of every language read as the notation's, ``english_notation``)."""

    symbols: bool = True
    lang: str = DEFAULT

    def label(self, card: Card) -> str:
        """The card as this table writes it: ``Q♥`` in English, ``D♥`` in German, ``DH`` without symbols."""
        return _label(card, self.symbols, self.lang)


@functools.lru_cache(maxsize=1024)
def _label(card: Card, symbols: bool, lang: str) -> str:
    if lang == DEFAULT or card.suit is None:  # a Joker is written as the notation has it in every language
        return card.pretty() if symbols else str(card)
    return card_short(str(card), Words(lang), symbols)


def faces_of(symbols: bool | Faces) -> Faces:
    """``symbols`` as :class:`Faces`: a plain flag writes English ranks."""
    return symbols if isinstance(symbols, Faces) else Faces(symbols)


def card_text(card: Card, symbols: bool | Faces = True) -> Text:
    """One card, coloured by suit, written as ``symbols`` says (a flag: suit symbols or letters, English ranks)."""
    label = faces_of(symbols).label(card)
    return Text(label, style=SUIT_STYLE.get(card.suit, "") if card.suit is not None else "")


def sorted_hand(hand: CardSet) -> list[Card]:
    """The hand in display order: by suit (clubs, diamonds, spades, hearts), high to low within a suit."""
    return sorted(hand, key=lambda c: (DISPLAY_ORDER.index(c.suit) if c.suit is not None else 9, -c.rank))


def sorted_ace_low(hand: CardSet) -> list[Card]:
    """The hand in display order for games where the ace is the lowest card: by suit as
    :func:`sorted_hand`, then A, 2, .., 9 (low to high) within a suit; jokers last."""

    def strength(c: Card) -> int:
        return 1 if c.rank == 14 else c.rank

    return sorted(hand, key=lambda c: (DISPLAY_ORDER.index(c.suit) if c.suit is not None else 9, strength(c)))


def hand_text(
    hand: CardSet,
    legal: CardSet | None = None,
    numbered: bool = True,
    symbols: bool | Faces = True,
    order: Callable[[CardSet], list[Card]] = sorted_hand,
) -> Text:
    """The hand by suit, each card with its number for input; legal cards marked when ``legal`` is given.

    ``order`` puts the cards in display order (the numbers follow it): :func:`sorted_hand` where the
    ace is high, :func:`sorted_ace_low` where it is low.
    """
    out = Text()
    current: Suit | None = None
    for n, c in enumerate(order(hand), start=1):
        if current is not None and c.suit != current:
            out.append("  | ")
        elif current is not None:
            out.append(" ")
        current = c.suit
        if numbered:
            out.append(f"{n}:", style="dim")
        piece = card_text(c, symbols)
        if legal is not None and c not in legal:
            piece.stylize("dim")
        out.append_text(piece)
    return out


def cards_text(cards: Sequence[Card], symbols: bool | Faces = True) -> Text:
    """Cards separated by spaces."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c, symbols))
    return out


def numbered_cards(cards: Sequence[Card], legal: Sequence[Card] | None = None, symbols: bool | Faces = True) -> Text:
    """Cards in the given order, each with its number for input (``1:10S 2:JH``); cards not in ``legal`` dimmed."""
    out = Text()
    for n, c in enumerate(cards, start=1):
        if n > 1:
            out.append(" ")
        out.append(f"{n}:", style="dim")
        piece = card_text(c, symbols)
        if legal is not None and c not in legal:
            piece.stylize("dim")
        out.append_text(piece)
    return out


def english(msgid: str, **params: object) -> str:
    """The terminal's words as written (what ``tr`` is where no table's language is given)."""
    return msgid.format(**params) if params else msgid


def score_table(
    names: Sequence[str],
    hand_scores: Sequence[Sequence[int]],
    totals: Sequence[int],
    ascii_only: bool = False,
    tr: Callable[..., str] = english,
) -> Table:
    """The score sheet: one row per hand, a column per player, and the running totals; its words by ``tr`` (a
    table's :meth:`~clubsuite.tui.table.Table.tr`)."""
    table = Table(title=tr("Scores"), show_lines=False, box=box.ASCII if ascii_only else box.HEAVY_HEAD)
    table.add_column(tr("hand"), justify="right")
    for name in names:
        table.add_column(name, justify="right")
    running = [0] * len(names)
    for i, scores in enumerate(hand_scores, start=1):
        running = [r + s for r, s in zip(running, scores, strict=True)]
        table.add_row(str(i), *(f"{s:+d} ({r:+d})" for s, r in zip(scores, running, strict=True)))
    table.add_row(tr("total"), *(f"{t:+d}" for t in totals), style="bold")
    return table
