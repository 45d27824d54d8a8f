"""The outer parts of High Card (:class:`clubsuite.engine.GameParts`): the terminal table, the bots and the
spectator's view, each imported when asked for."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from clubsuite.engine import GameParts

if TYPE_CHECKING:
    from toygame.game import HighCardMatch
    from toygame.screen import HighCardTable


class HighCardParts(GameParts):
    """What High Card has beside its rules: a terminal table, its bots and a spectator's view."""

    __slots__ = ()

    def screen(self) -> type[HighCardTable]:
        """The terminal table."""
        from toygame.screen import HighCardTable

        return HighCardTable

    def bots(self) -> types.ModuleType:
        """The module that registers the game's bots."""
        from toygame import bot

        return bot

    def spectator(self) -> Callable[[HighCardMatch], dict[str, Any]]:
        """What anyone watching may see."""
        from toygame.spectator import public_dict

        return public_dict


PARTS = HighCardParts()
"""The one parts object of High Card."""
