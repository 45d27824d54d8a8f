"""The names bots go by at a table: a person meets "Ada, hard bot", not "hard (seat 2)".

A bot seat's name is chosen from :data:`NAMES` by the table's id and the seat, so it is the same after a restart and
on every page, and two bots of one table never share a name (consecutive seats take consecutive names). The level
or kind stays beside the name (:func:`level_words`) so nobody mistakes a bot for a person.
"""

from __future__ import annotations

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
}
"""A bot's level or kind in words; a bot with parameters (``pimc(samples=8)``) goes by its kind's words."""


def bot_name(table_id: str, seat: int) -> str:
    """The name of the bot in ``seat`` of table ``table_id``: stable, and distinct for the bots of one table."""
    start = int.from_bytes(hashlib.sha256(table_id.encode("utf-8")).digest()[:4], "big")
    return NAMES[(start + seat) % len(NAMES)]


def level_words(bot: str) -> str:
    """A bot's level or kind in plain words ("hard bot")."""
    kind = bot.split("(", 1)[0].strip()
    return LEVEL_WORDS.get(kind, "bot")
