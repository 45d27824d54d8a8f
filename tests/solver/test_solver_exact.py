"""The exact solver agrees with a brute-force minimax through the engine, on random 3- to 5-trick endings of every
trick game, for every measure; equivalent cards get one value; a solve changes nothing."""

from __future__ import annotations

import itertools

import pytest
from solverkit import TRICK_GAMES, ending, referee_values

from clubsuite.solver import NotSolvableError, SolveStats, card_values, solving_for
from clubsuite.solver.search import NodeLimitError

# (game, tricks left, how many random endings). Three- and four-trick endings are drawn from the run's seed (many runs
# cover more endings than one long one): the referee takes at most seconds on each, save the four-player game's
# four-trick endings (sixteen cards: up to fifteen CPU seconds each, one a run). Five-trick endings are the same ones
# in every run: a drawn one has cost the referee minutes (its brute force grows with every card left), and the
# four-player game gets none.
CASES = [
    ("whist", 3, 6),
    ("whist", 4, 5),
    ("whist", 5, 1),
    ("partnership", 3, 5),
    ("partnership", 4, 1),
    ("free", 3, 6),
    ("free", 4, 3),
    ("free", 5, 3),
]
FIXED_FROM = 5
"""Endings of this many tricks or more are the fixed ones (seeds 5000, 5001, ...), not drawn for the run."""


@pytest.mark.long
@pytest.mark.parametrize(("game", "tricks_left", "count"), CASES)
def test_solver_values_equal_brute_force_minimax_on_random_endings(
    game: str, tricks_left: int, count: int, fresh_seed: int
) -> None:
    """Every measure of every trick game, every legal card: the solver's value is the referee's (CW-1 and CW-2 in
    whist, CP-1 and CP-3 in the partnership game, FC-6 to FC-8 in Free Clubs are all exercised by the engine)."""
    for measure in solving_for(game).measures:
        for k in range(count):
            drawn = 0 if tricks_left >= FIXED_FROM else fresh_seed
            match = ending(game, drawn + 1000 * tricks_left + k, tricks_left)
            expected = referee_values(match, measure.name, measure.maximize)
            assert card_values(match, measure.name) == expected, (game, measure.name, k)


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_a_solve_leaves_the_match_as_it_was(game: str) -> None:
    """The solver works on its own copy: the match's state and legal actions are unchanged."""
    match = ending(game, 7, 5)
    before = (match.summary(), list(match.legal_actions()), match.to_act)
    card_values(match)
    assert (match.summary(), list(match.legal_actions()), match.to_act) == before


def test_equivalent_cards_are_searched_once_and_valued_alike() -> None:
    """Two cards of one suit with no card between them still in play are the same card to the solver (the first
    whist ending found with such a pair)."""
    for seed in range(200):
        match = ending("whist", seed, 5)
        legal = sorted(int(c.index) for c in match.legal_actions())  # type: ignore[attr-defined]
        live = 0
        for h in match.hands[-1].hands:  # type: ignore[attr-defined]
            live |= h
        pairs = [
            (a, b) for a, b in itertools.pairwise(legal) if a // 13 == b // 13 and not live & ((1 << b) - (2 << a))
        ]
        if pairs:
            values = {int(c.index): v for c, v in card_values(match).items()}  # type: ignore[attr-defined]
            assert all(values[a] == values[b] for a, b in pairs)
            return
    pytest.fail("no whist ending with two touching cards among 200")


def test_the_node_limit_stops_a_solve() -> None:
    """A solve that would visit more nodes than allowed raises, so a bot can fall back to something cheaper."""
    match = ending("whist", 3, 13)
    with pytest.raises(NodeLimitError):
        card_values(match, node_limit=50)
    stats = SolveStats()
    card_values(ending("whist", 3, 3), stats=stats)
    assert stats.nodes > 0


def test_the_solver_refuses_a_game_without_tricks_and_a_moment_without_a_card() -> None:
    """North Star's CLUBS is a climbing game (no solver); a whist match in its exchange round has no card to play."""
    from clubsuite.engine import resolve
    from clubsuite.runner import deal_next

    with pytest.raises(NotSolvableError, match="not a trick game"):
        solving_for("northstar")
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    deal_next(match, info, 1)
    with pytest.raises(NotSolvableError, match="during the play of the cards"):
        card_values(match)


def test_the_table_tells_apart_where_a_special_card_sits_even_when_another_suit_is_held_alike() -> None:
    """The transposition table's key reads each suit as relative ranks plus where the scorer's special cards sit
    (the partnership game's queen of diamonds, CP-3). Clubs held exactly as the diamonds are (same ranks, same
    seats) have no special card: their code must not stand in for the diamonds' (it once did, the codes being
    remembered by the holdings alone, which took positions with the queen in different places for one)."""
    from clubsuite.games.partnership.hand import RUBY_DAME
    from clubsuite.games.partnership.solving import PartnershipScorer
    from clubsuite.solver.model import Follow, PlayPosition
    from clubsuite.solver.search import Table, _Search

    ranks = [(0, 3, 10), (1, 5), (2, 7, 11), (4, 6)]  # by seat: the same ranks in clubs and in diamonds
    hands = [sum(1 << r | 1 << (13 + r) for r in held) for held in ranks]
    side = (True, False, True, False)
    position = PlayPosition(
        hands=hands,
        leader=0,
        trick=[],
        players=(0, 1, 2, 3),
        side=side,
        scorer=PartnershipScorer(side, True, 0, 0),
        follow=Follow.SUIT,
    )
    assert hands[0] >> RUBY_DAME & 1  # the queen of diamonds (rank 12, place 10 of its suit) is seat 0's
    clubs, diamonds, _, _ = _Search(position, Table(), None)._layout()  # type: ignore[misc]
    assert clubs[0] == diamonds[0]  # the same owners in the same order
    assert clubs[1] == () and diamonds[1] == (8,)  # the queen is the ninth live diamond from the lowest
