"""Terminal rendering of Clubs (whist group): hands sorted by suit with colours, tricks and score tables.

Everything returns Rich ``Text`` so one code path serves a colour terminal and plain piped output (the console
drops the styles when colour is off).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table
from rich.text import Text

from clubsuite.cards import Card, CardSet, Suit

SUIT_STYLE = {Suit.CLUBS: "bold green", Suit.DIAMONDS: "bold red", Suit.HEARTS: "bold red", Suit.SPADES: "bold"}
DISPLAY_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
"""Suits alternate colours on screen; clubs (trumps) first."""


def card_text(card: Card, symbols: bool = True) -> Text:
    """One card, coloured by suit; with ``symbols`` the suit is shown as ♣♦♥♠."""
    label = card.pretty() if symbols else str(card)
    return Text(label, style=SUIT_STYLE.get(card.suit, "") if card.suit is not None else "")


def sorted_hand(hand: CardSet) -> list[Card]:
    """The hand in display order: by suit (clubs, diamonds, spades, hearts), high to low within a suit."""
    return sorted(hand, key=lambda c: (DISPLAY_ORDER.index(c.suit) if c.suit is not None else 9, -c.rank))


def hand_text(hand: CardSet, legal: CardSet | None = None, numbered: bool = True, symbols: bool = True) -> Text:
    """The hand by suit, each card with its number for input; legal cards marked when ``legal`` is given."""
    out = Text()
    current: Suit | None = None
    for n, c in enumerate(sorted_hand(hand), start=1):
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


def cards_text(cards: Sequence[Card], symbols: bool = True) -> Text:
    """Cards separated by spaces."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c, symbols))
    return out


def score_table(
    names: Sequence[str], hand_scores: Sequence[Sequence[int]], totals: Sequence[int], ascii_only: bool = False
) -> Table:
    """The score sheet: one row per hand, a column per player, and the running totals."""
    table = Table(title="Scores", show_lines=False, box=box.ASCII if ascii_only else box.HEAVY_HEAD)
    table.add_column("hand", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    running = [0] * len(names)
    for i, scores in enumerate(hand_scores, start=1):
        running = [r + s for r, s in zip(running, scores, strict=True)]
        table.add_row(str(i), *(f"{s:+d} ({r:+d})" for s, r in zip(scores, running, strict=True)))
    table.add_row("total", *(f"{t:+d}" for t in totals), style="bold")
    return table
