"""Bots: one protocol for every game; a bot sees only its seat's view and the legal actions."""

from clubsuite.bots.base import Bot, SomeBot, bot_names, make_bot, register_bot
from clubsuite.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "SomeBot", "bot_names", "make_bot", "register_bot"]
