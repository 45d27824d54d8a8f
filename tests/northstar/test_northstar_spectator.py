"""What a spectator of North Star's CLUBS is shown: every play and the counts of the hands and the pack, never a
hand, nor a card left undealt or discarded (NS-5, NS-6)."""

from __future__ import annotations

import random

from clubsuite.games.northstar import NorthstarMatch, NorthstarOptions
from clubsuite.games.northstar.spectator import public_dict
from knowable import cards_named, knowable_cards


def test_ns6_the_spectator_sees_the_pack_as_counts_and_never_the_cards_left_in_a_hand() -> None:
    rng = random.Random(5)
    match = NorthstarMatch(NorthstarOptions(players=3))
    rounds = held = 0
    while rounds < 3 and not match.is_over:
        match.deal(rng)
        rounds += 1
        undealt, discards = match.packs[-1]
        assert public_dict(match)["pack"] == {"undealt": undealt, "discards": discards}
        assert match.view(0).pack_before(rounds - 1) == (undealt, discards)
        while match.current is not None:
            match.apply(match.legal_actions()[rng.randrange(len(match.legal_actions()))])
        # NS-5: the player left holding cards at the end of the round does not show them
        hand = match.hands[-1]
        left = {str(c) for s in range(3) for c in match.view(s).hand}
        shown = public_dict(match)
        held += len(left)
        assert shown["hand"] is None and shown["hand_sizes"] == [h.bit_count() for h in hand.hands]
        assert not cards_named(shown, "northstar") & left
        assert cards_named(shown, "northstar") <= knowable_cards(match, None, -1)
    assert rounds == 3 and held > 0
