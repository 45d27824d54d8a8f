"""High Card, a toy game that lives only in the tests: it proves a game can be added without touching a file
outside its own folder (see ``docs/adding-a-game.md``).

Two players, eight cards (the ace, king, queen and jack of clubs and of hearts), three each; the two left over stay
face down. The player at the dealer's
left leads; the other must follow suit if they can; the higher card of the suit led wins the trick and leads the
next. A trick is worth a point; the first to ``target`` points (default 5) wins the match.
"""

from __future__ import annotations

from clubsuite.engine import GameInfo, register
from toygame.game import HighCardDeal, HighCardMatch, HighCardOptions
from toygame.parts import PARTS


def _new_match(options: HighCardOptions | None = None, first_dealer: int = 0) -> HighCardMatch:
    return HighCardMatch(options, first_dealer)


register(
    GameInfo(
        name="highcard",
        title="High Card",
        seats=(2,),
        options_class=HighCardOptions,
        variants={"highcard-short": {"target": "3"}},
        new_match=_new_match,
        deal_from_json=HighCardDeal.from_json,
        deal_from_seed=HighCardDeal.from_seed,
        summary="a toy trick game for 2 players with eight cards",
        order=99,
        examples=("highcard(target=3)",),
        parts=PARTS,
    )
)
