"""What anyone watching a table of High Card may see: the registry part ``spectator``."""

from __future__ import annotations

from typing import Any

from toygame.game import HighCardMatch


def public_dict(match: HighCardMatch) -> dict[str, Any]:
    """The table as a spectator sees it, in the shape of the view's ``to_dict()`` with ``"seat": None``.

    ``hand`` is None (a spectator holds no cards; ``hand_sizes`` says how many each seat holds, which the table
    sees) and there is no ``legal``; the two cards left face down never show. The trick on the table and the totals
    are public, as in every view.
    """
    hands = match.hands
    cur = hands[-1] if hands else None
    return {
        "seat": None,
        "hand": None,
        "hand_sizes": [h.bit_count() for h in cur.hands] if cur else [],
        "trick": [[s, str(c)] for s, c in cur.trick] if cur else [],
        "totals": list(match.totals),
    }
