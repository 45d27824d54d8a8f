"""What ``clubs replay`` reads of a whist table beside its events (told by :mod:`clubsuite.narration` in the game's
own words): its public view. Nothing is hidden but the deal, which the events never name (CW-4: the exchange is
told as each seat's decision)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clubsuite.games.whist.match import WhistMatch
from clubsuite.games.whist.spectator import public_dict
from clubsuite.narration import Narrator


class WhistNarrator(Narrator):
    """The shared account, read against the whist table's public view."""

    def public_view(self) -> Mapping[str, Any]:
        """The table as a spectator sees it (:func:`clubsuite.games.whist.spectator.public_dict`)."""
        match = self.result.match
        if not isinstance(match, WhistMatch):
            raise TypeError(f"not a match of whist: {type(match).__name__}")
        return public_dict(match)
