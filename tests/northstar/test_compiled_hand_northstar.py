"""The compiled round of North Star's CLUBS and its match paths (``games/northstar/hand.pxi``,
``native/compiled_match.pxi``) against the engine's :class:`NorthstarHand` and :class:`NorthstarMatch` methods: the
same states, views, events, errors and copies, in every variant; and the kernel's listing of the plays against
``combos.generate``.

The compiled round keeps its state in core.h's struct, whose rules (NS-1..NS-11) the kernel's own differential tests
hold to the engine in every variant; these tests hold the rest to it: the trick, the tricks taken, the order of going
out, the history, the events, the refusals and their words, the score lines, clones, and the match methods in C.
"""

from __future__ import annotations

import gc
import pickle
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.cards import CardSet
from clubsuite.engine import resolve
from clubsuite.errors import InvalidDealError
from clubsuite.games.northstar import NorthstarMatch, NorthstarOptions
from clubsuite.games.northstar import deal as deal_module
from clubsuite.games.northstar.combos import DECK_MASK, FIFTEENS, NORTHSTAR, Call, Kind, Play, generate
from clubsuite.games.northstar.events import TrickWon
from clubsuite.games.northstar.hand import NorthstarLegal
from clubsuite.games.northstar.match import CORE, CompiledNorthstarMatch, match_type
from compiled_match_helpers import play_side_by_side
from native_helpers import kernel_or_skip

VARIANTS = {
    "northstar(players=3)": 12,
    "northstar-duel": 5,
    "northstar(players=6)": 3,
    "northstar-2013": 5,
    "northstar-double": 5,
    "northstar-teams": 3,
    "northstar-wild": 5,
    "northstar-crazy": 5,
    "northstar(players=6,teams=2x3,double_or_nothing=true,wild_fifteens=true,crazy=true,target=80)": 3,
}
"""Every variant with the random matches played on both rounds side by side (some 300 decisions a match for three
players, more for six), drawn from the run's seed (``fresh_seed``): many runs cover more matches than one long one.
The rules are core.h's, held to the engine on random matches of each variant by ``test_native_northstar.py``; these
check what the compiled round adds around them."""


def _cards(text: str) -> CardSet:
    return NORTHSTAR.parse_set(text)


PROBES: list[object] = [
    Call.PASS,
    Call.DOUBLE,
    "pass",
    "double",
    Play(_cards("7C"), Kind.SINGLE, 7),
    Play(_cards("7C 7H"), Kind.SET, 7),
    Play(_cards("4H 5C 6D"), Kind.RUN, 6),
    Play(_cards("15S"), Kind.SINGLE, 15),
    Play(_cards("7H 15S"), Kind.SET, 7),
    Play(_cards("2C"), "single", 2),  # type: ignore[arg-type]
    Play(_cards("2C 3C"), Kind.SINGLE, 3),
    "7C 7H",
    "1Z",
    "",
    None,
    7,
]
"""Actions and notation tried where they are illegal: the calls, plays of each kind (not held, not beating, badly
formed, written with a kind's name), notation good and bad, non-actions."""


def _options(spec: str) -> NorthstarOptions:
    _, options = resolve(spec)
    assert isinstance(options, NorthstarOptions)
    return options


def _compiled() -> type[NorthstarMatch]:
    """The compiled match class (skips where the kernel is not built); :class:`NorthstarMatch` is the engine's."""
    kernel_or_skip(CORE)
    assert CompiledNorthstarMatch is not None
    return CompiledNorthstarMatch


def _facts(hand: Any) -> tuple[object, ...]:
    """Every attribute of a round, hidden ones included."""
    return (
        hand.hands, hand.won, hand.bonus, hand.out_order, hand.doubled, hand.started, hand.trick, hand.trick_cards,
        hand.top, hand.top_seat, hand.passes, hand.tricks, hand.to_act, hand.last_turn, hand.ended, hand.scores,
        hand.score_lines, hand.history, hand.action_log(), hand._holding, hand._bonus_left, hand.holders(),
        hand.phase, hand.is_over, hand.summary(), tuple(hand.legal_actions()), hand.deal, hand.dealt_from,
        hand.dealer, hand.n, hand.options,
    )  # fmt: skip


@pytest.mark.long
@pytest.mark.parametrize("spec", sorted(VARIANTS))
def test_the_compiled_round_plays_every_match_as_the_engines_round(spec: str, fresh_seed: int) -> None:
    """Random matches of each variant compared at every decision (legal actions, events), with views, refusals,
    clones, pickled copies and every attribute compared every few decisions and at each round's end."""
    options = _options(spec)
    compiled = _compiled()
    matches = VARIANTS[spec]
    decisions = play_side_by_side(
        lambda: NorthstarMatch(options),
        lambda: compiled(options),
        matches,
        seed=fresh_seed + len(spec),
        probes=PROBES,
        facts=_facts,
    )
    assert decisions > matches * 10


def _random_decisions(count: int, seed: int) -> list[tuple[int, Play | None, NorthstarOptions]]:
    """Random decisions: a hand, the play to beat (None: a lead) and the rules (wild 15s, Crazy CLUBS, double)."""
    rng = random.Random(seed)
    deck = [c for c in range(200) if DECK_MASK >> c & 1]
    fifteens = [c for c in deck if FIFTEENS >> c & 1]
    found = []
    for _ in range(count):
        hand = sum(1 << c for c in rng.sample(deck, rng.randint(1, 9)))
        if rng.random() < 0.3:
            hand |= 1 << rng.choice(fifteens)
        other = sum(1 << c for c in rng.sample(deck, rng.randint(1, 10)))
        wild, crazy = rng.random() < 0.4, rng.random() < 0.3
        leads = generate(other, None, wild, crazy)
        top = leads[rng.randrange(len(leads))] if rng.random() < 0.7 else None
        found.append((hand, top, NorthstarOptions(wild_fifteens=wild, crazy=crazy, double_or_nothing=True)))
    return found


LEGAL_DECISIONS = 500
"""Random decisions a run compares the two legal lists at, drawn from the run's seed (``fresh_seed``): many runs
cover more decisions than one long one."""


@pytest.mark.long
def test_the_compiled_legal_list_is_the_engines_sequence(fresh_seed: int) -> None:
    """CompiledLegal against NorthstarLegal on random decisions (:data:`LEGAL_DECISIONS`): the count, every item by
    its index (from either end) and past the ends, membership of every item and of probes, equality both ways, hash,
    repr, iteration, slices, ``index``/``count``, pickling and copies (plays listed by the kernel, core.h's
    ns_generate, in the engine's order: NS-3, NS-4, NS-9, NS-11)."""
    core = kernel_or_skip(CORE)
    for hand, top, options in _random_decisions(LEGAL_DECISIONS, fresh_seed + 8):
        for calls in ((), (Call.PASS,), (Call.PASS, Call.DOUBLE), (Call.DOUBLE,)):
            engine = NorthstarLegal(hand, top, calls, options)
            compiled = core.CompiledLegal(hand, top, calls, options)
            assert isinstance(compiled, NorthstarLegal)
            n = len(compiled)
            assert n == len(engine)
            fresh = core.CompiledLegal(hand, top, calls, options)  # read by index before anything built the list
            assert [fresh[k] for k in range(n)] == list(engine) == [fresh[k - n] for k in range(n)]
            for k in (n, -n - 1):
                with pytest.raises(IndexError, match=r"^tuple index out of range$"):
                    fresh[k]
            for probe in (*list(engine)[:6], *PROBES):
                assert (probe in compiled) == (probe in engine), probe
            assert compiled == engine and engine == compiled and compiled == tuple(engine)
            assert hash(compiled) == hash(engine) and repr(compiled) == repr(engine)
            assert list(compiled) == list(engine) and compiled[1:3] == engine[1:3]
            if n:
                assert compiled.index(engine[-1]) == engine.index(engine[-1]) and compiled.count(engine[0]) == 1
            assert pickle.loads(pickle.dumps(compiled)) == engine


def test_a_new_round_is_compiled_where_the_kernel_is_built() -> None:
    core = kernel_or_skip(CORE)
    match = match_type()(_options("northstar(players=3)"))
    match.deal(rng=random.Random(3))
    assert type(match) is CompiledNorthstarMatch and type(match.current) is core.CompiledHand
    clone = match.clone()
    assert clone.current is not match.current and clone.hands[-1] is clone.current


_DECK_CARDS = [c for c in range(200) if DECK_MASK >> c & 1]


@pytest.mark.long
@given(
    order=st.permutations(_DECK_CARDS),
    players=st.integers(2, 6),
    dealer=st.integers(0, 5),
    places=st.lists(st.sampled_from("udh"), min_size=60, max_size=60),
)
@settings(max_examples=100, deadline=None)  # new shuffles every run: many runs cover more than one long one
def test_the_compiled_deal_gives_the_python_deals_hands(
    order: list[int], players: int, dealer: int, places: list[str]
) -> None:
    """core.h's deal from a shuffle (ns_deal_order, the kernel's own) against deal.py's Python statement of NS-6: the
    undealt cards in the shuffle's order, then the discards when they run short, dealt one at a time from the
    dealer's left; too few cards refused alike. ``places``: each card undealt (u), discarded (d) or in no pile (h)."""
    core = kernel_or_skip(CORE)
    assert deal_module.hands_dealer() is core.hands_of_shuffle  # the deals made here are the kernel's
    dealer %= players
    stock = sum(1 << c for c, p in zip(_DECK_CARDS, places, strict=True) if p == "u")
    discards = sum(1 << c for c, p in zip(_DECK_CARDS, places, strict=True) if p == "d")
    arguments = (tuple(order), players, dealer, stock, discards)
    try:
        expected = deal_module.python_hands_of_shuffle(*arguments)
    except InvalidDealError as exc:
        with pytest.raises(InvalidDealError, match=f"^{re.escape(str(exc))}$"):
            core.hands_of_shuffle(*arguments)
    else:
        hands = core.hands_of_shuffle(*arguments)
        assert hands == expected and all(type(h) is CardSet for h in hands)
    # An order the C does not take (not 60 North Star cards) goes to the Python as it is.
    short = (tuple(order[:59]), players, dealer, stock, discards)
    try:
        expected = deal_module.python_hands_of_shuffle(*short)
    except InvalidDealError:
        with pytest.raises(InvalidDealError):
            core.hands_of_shuffle(*short)
    else:
        assert core.hands_of_shuffle(*short) == expected


def test_the_compiled_rounds_cards_plays_events_and_lists_are_left_out_of_the_cycle_collector() -> None:
    """What the compiled round builds by the thousand (card sets, plays, events, the legal list of each decision)
    refers to nothing that can refer back: none of it is watched by the cycle collector, which would otherwise be
    set off every few hundred actions (the engine's results are the same either way: the tests above)."""
    core = kernel_or_skip(CORE)
    match = _compiled()(_options("northstar(players=3)"))
    match.deal(rng=random.Random(5))
    hand = match.current
    assert type(hand) is core.CompiledHand
    rng = random.Random(6)
    made: list[object] = []
    while match.to_act is not None:
        legal = match.legal_actions()
        assert type(legal) is core.CompiledLegal and not gc.is_tracked(legal)
        action = legal[rng.randrange(len(legal))]
        made.append(action)
        made += match.apply(action)
    played = [a for a in made if isinstance(a, Play)]
    assert played and not any(gc.is_tracked(p) or gc.is_tracked(p.cards) for p in played)
    assert not any(gc.is_tracked(h) for h in hand.deal.hands)
    taken = [e for e in made if isinstance(e, TrickWon)]
    assert taken and not any(gc.is_tracked(e) or gc.is_tracked(e.cards) for e in taken)
