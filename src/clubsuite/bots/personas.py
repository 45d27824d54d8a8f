"""The names bots go by at a table, in the browser and in the terminal alike: a person meets "Ada, hard bot", not
"hard (seat 2)" or "Heuristic 1". (A server table names its bots from its id; ``clubs play`` and ``clubs watch``
from the seed.)

A bot seat's name is chosen from :data:`NAMES` by the table's id and the seat, so it is the same after a restart and
on every page, and no two seats of one table share a name: not two bots (consecutive seats take consecutive names),
nor a bot and a person (a bot gives way to a person of its name). The level
or kind stays beside the name (:func:`level_words`) so nobody mistakes a bot for a person.
"""

from __future__ import annotations

import functools
import hashlib

NAMES = (
    "Ada", "Basil", "Cleo", "Dario", "Edie", "Felix", "Greta", "Hugo",
    "Ines", "Jonah", "Kiri", "Lena", "Milo", "Nora", "Otto", "Pia",
)  # fmt: skip
"""Short names (they fit a phone's seat), each with its own initial, so two bots never look alike."""

LEVEL_WORDS = {
    "easy": "easy bot",
    "normal": "normal bot",
    "hard": "hard bot",
    "expert": "expert bot",
    "heuristic": "normal bot",
    "random": "random bot",
    "pimc": "search bot",
    "ismcts": "search bot",
    "learned": "learned bot",
}
"""A bot's level or kind in words; a bot with parameters (``pimc(samples=8)``) goes by its kind's words."""


def persona_names(table_id: str, bot_seats: list[int], people: list[str]) -> dict[int, str]:
    """The names of the bots of table ``table_id`` (in ``bot_seats``), none like a person's name at the table
    (``people``, compared case-blind) nor like another bot's: each seat takes the name its place in :data:`NAMES`
    gives it (from the table's id), or the next one free. A name so stays the same while the people at the table do;
    a person who joins under a bot's name makes that bot take the next free name."""
    return dict(_names(table_id, tuple(sorted(bot_seats)), tuple(people)))


@functools.lru_cache(maxsize=4096)
def _names(table_id: str, bot_seats: tuple[int, ...], people: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """:func:`persona_names`, remembered: every update of a table names its seats, and its names change only with the
    people at it."""
    start = int.from_bytes(hashlib.sha256(table_id.encode("utf-8")).digest()[:4], "big")
    taken = {p.casefold() for p in people}
    out: dict[int, str] = {}
    for seat in bot_seats:
        for step in range(len(NAMES)):
            name = NAMES[(start + seat + step) % len(NAMES)]
            if name.casefold() not in taken:
                break
        else:  # more names taken than there are (16 people and bots cannot sit at one table): a numbered one
            name = f"Bot {seat + 1}"
        out[seat] = name
        taken.add(name.casefold())
    return tuple(out.items())


def level_words(bot: str) -> str:
    """A bot's level or kind in plain words ("hard bot")."""
    kind = bot.split("(", 1)[0].strip()
    return LEVEL_WORDS.get(kind, "bot")
