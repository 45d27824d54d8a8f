"""Checks of what the compiled kernels are handed: the C trusts its arguments, so their wrappers check them here
first and refuse bad ones with a ValueError naming the argument, instead of reading or writing out of bounds."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

DECK = (1 << 52) - 1
"""Every card of the standard deck, as a mask."""


def hands_of(hands: Sequence[int], seats: int, most: int = 13, name: str = "hands") -> list[int]:
    """``hands``, one card mask per seat, checked: ``seats`` of them, each within the deck, of at most ``most``
    cards, no card in two."""
    if len(hands) != seats:
        raise ValueError(f"{name}: expected {seats} card masks, got {len(hands)}")
    seen = 0
    out = []
    for seat, hand in enumerate(hands):
        mask = int(hand)
        if mask < 0 or mask & ~DECK:
            raise ValueError(f"{name}[{seat}] holds bits outside the 52 cards")
        if mask.bit_count() > most:
            raise ValueError(f"{name}[{seat}] holds {mask.bit_count()} cards; at most {most}")
        if mask & seen:
            raise ValueError(f"{name}[{seat}] shares cards with another hand")
        seen |= mask
        out.append(mask)
    return out


def number_in(value: int, low: int, high: int, name: str) -> int:
    """``value`` checked to be a whole number from ``low`` to ``high``."""
    if not low <= int(value) <= high:
        raise ValueError(f"{name}={value}: expected {low}..{high}")
    return int(value)


def cards_of(cards: Sequence[int], most: int, name: str) -> list[int]:
    """Card indices checked: at most ``most`` of them, each 0..51, none twice."""
    out = [number_in(c, 0, 51, name) for c in cards]
    if len(out) > most or len(set(out)) != len(out):
        raise ValueError(f"{name}: at most {most} different cards")
    return out


def table_arrays(n: int, columns: dict[str, int], shapes: dict[str, tuple[int, ...]]) -> None:
    """The arrays of a batch of ``n`` tables checked by shape: ``(n, columns[name])`` for each array named in
    ``columns``, ``(n,)`` for the others (the kernels write a row of each per table)."""
    for name, shape in shapes.items():
        want = (n, columns[name]) if name in columns else (n,)
        if tuple(shape) != want:
            raise ValueError(f"{name}: expected shape {want}, got {tuple(shape)}")


def seat_kinds(core: ModuleType | None, lineup: Sequence[str]) -> list[int] | None:
    """The kinds a game's kernel (``core``, built or None) gives the seats of a vector table's ``lineup`` (bot names,
    or ``outside``), or None where it has no tables or plays one of them not."""
    known: dict[str, int] | None = getattr(core, "SEAT_KINDS", None)
    if known is None or any(name not in known for name in lineup):
        return None
    return [known[name] for name in lineup]
