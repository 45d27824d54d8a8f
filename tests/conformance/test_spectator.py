"""What a spectator and each seat are shown, in every game: no message names a card its receiver may not know.

Every registered game names a ``spectator`` part (``public_dict(match)``: the table as anyone watching sees it). Over
seeded random play of several hands (the heavier checks on a match, or deals, drawn from the run's seed: other ones
each run), at every decision and at the end of every hand:

* every card a seat's ``view(seat).to_dict()`` names is one the rules let that seat know, and every card the
  spectator's dict or an event names is one shown to the whole table, both by the independent oracle of
  ``tests/knowable.py`` (worked out from the deals and the actions, never from a view);
* the spectator cannot tell apart two deals that differ only in cards it cannot see: a deal redrawn for a seat
  (``determinize``) and a deal with two hidden cards swapped give the same dict after the same actions, as long as
  the table has seen the same thing (the same events, the same seat to act);
* the spectator's dict has no seat, no hand (but the hand sizes), no legal actions, and is plain JSON.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from clubsuite.cards import Card, CardSet
from clubsuite.errors import ClubsError
from clubsuite.events import Event
from clubsuite.view_base import HasSpectator
from conformance.harness import CASES, IDS, MAX_HANDS, Case, seed_of
from knowable import cards_named, knowable_cards

SEEDS = (31, 32)
"""The random matches the lighter checks play (each up to :data:`MAX_HANDS` hands); the heavier ones play one match
of the run's seed (``fresh_seed``), another each run."""
TWIN_RATE = 0.05
"""The share of decisions at which a redrawn deal is compared (after the first decisions, up to one where a twin
was played on)."""
TWIN_STEPS = 8
"""Actions played on a match and its twin after they split, comparing what the spectator sees."""
SWAPS = 6
"""Deals with two hidden cards swapped, per case, from the run's seed (``fresh_seed``)."""

PublicDict = Callable[[Any], dict[str, Any]]


def _part(case: Case) -> PublicDict:
    parts = case.info.parts
    assert isinstance(parts, HasSpectator), f"{case.info.name} has no spectator part (its parts' spectator method)"
    return parts.spectator()


def _moments(case: Case, seed: int, on_events: Callable[[Any, tuple[Any, ...]], None] | None = None) -> Iterator[Any]:
    """Random play of ``case``: yields the match at every decision and once more at the end of every hand (between
    hands, and when the match is over); ``on_events`` sees each action's events. The consumer must not change it."""
    rng = random.Random(seed)
    match = case.new_match()
    while True:
        if match.current is None:
            if match.hands:
                yield match
            if match.is_over or len(match.hands) >= MAX_HANDS:
                return
            match.deal(rng)
            continue
        yield match
        legal = match.legal_actions()
        events = match.apply(legal[rng.randrange(len(legal))])
        if on_events is not None:
            on_events(match, events)


def _unknown(named: set[str], known: set[str]) -> list[str]:
    return sorted(named - known)


# -- the part ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_game_has_a_spectator_part(case: Case) -> None:
    assert callable(_part(case))


# -- (a) each seat's view ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_view_names_only_cards_dealt_to_its_seat_passed_to_it_or_shown_to_the_table(
    case: Case, fresh_seed: int
) -> None:
    """CW-4 (the bid hand an exchanger takes), FC-2 and FC-5 (the chest to its taker, a passed card to its
    receiver), CP-2 (the three cards received), NS-6 (no card of the pack): a view shows its seat what that seat was
    dealt, was shown alone, or saw played in the hand in progress, and nothing else (every seat at every moment of
    a match from the run's seed)."""
    checked = 0
    for match in _moments(case, seed_of(case, fresh_seed)):
        for seat in range(match.n_seats):
            named = cards_named(match.view(seat).to_dict(), match.game)
            unknown = _unknown(named, knowable_cards(match, seat, -1))
            assert not unknown, f"seat {seat}'s view names {unknown}, which it may not know (hand {len(match.hands)})"
            checked += 1
    assert checked > 0


# -- (b) the spectator -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_spectator_is_shown_only_cards_played_or_bid_face_up(case: Case) -> None:
    """A spectator holds no seat: it sees the cards laid face up (a trick, a CLUBS play, a Free Clubs bid, FC-3),
    never a hand, the bid hand (CW-4), the chest, a discard or a passed card (FC-2, FC-5, CP-2), nor the pack (NS-6)."""
    public_dict = _part(case)
    checked = 0
    for seed in SEEDS:
        for match in _moments(case, seed):
            named = cards_named(public_dict(match), match.game)
            unknown = _unknown(named, knowable_cards(match, None, -1))
            assert not unknown, f"the spectator is shown {unknown}, which the table never saw"
            checked += 1
    assert checked > 0


def _plain(value: Any) -> Any:
    """Events as JSON-like values: their fields in order, cards, card sets and plays by their notation."""
    if isinstance(value, (Card, CardSet)):
        return str(value)
    if isinstance(value, Event) or type(value) in (tuple, list):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, type(None))):
        return value
    return str(value)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_event_names_only_cards_shown_to_the_table(case: Case) -> None:
    """Events are what the table is told as play goes on, so a server may send them to every seat and spectator:
    none names a card a spectator may not know (a hand, the bid hand CW-4, the chest or a pass FC-2/FC-5/CP-2)."""
    seen = 0

    def check(match: Any, events: tuple[Any, ...]) -> None:
        nonlocal seen
        named = cards_named(_plain(events), match.game)
        unknown = _unknown(named, knowable_cards(match, None, -1))
        assert not unknown, f"the events {events} name {unknown}, which the table never saw"
        seen += len(events)

    for seed in SEEDS:
        for _ in _moments(case, seed, check):
            pass
    assert seen > 0


# -- (c) deals the spectator cannot tell apart -------------------------------------------------------------------
def _play_alike(a: Any, b: Any, rng: random.Random, steps: int, public_dict: PublicDict) -> int:
    """Play the same random actions on ``a`` and ``b`` (each legal in both) while the table sees the same in both
    (the same events, the same seat to act), checking that the spectator is shown the same; returns how many
    actions were compared. Stops when the hand ends, no action is legal in both, or the public play parts."""
    compared = 0
    while compared < steps and a.current is not None and b.current is not None:
        legal_b = b.legal_actions()
        legal_a = a.legal_actions()
        order = list(range(len(legal_a)))
        rng.shuffle(order)
        action = next((legal_a[i] for i in order[:200] if legal_a[i] in legal_b), None)
        if action is None:
            break
        if a.apply(action) != b.apply(action) or a.to_act != b.to_act:
            break
        assert public_dict(a) == public_dict(b), f"after {action} the spectator tells the two deals apart"
        compared += 1
    return compared


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_spectator_cannot_tell_a_deal_from_one_redrawn_in_the_cards_it_cannot_see(
    case: Case, fresh_seed: int
) -> None:
    """A state redrawn for any seat (``determinize``: every card that seat cannot see drawn again, every public
    fact kept) differs from the match only in cards no spectator sees, so the spectator is shown the same, now and
    after the same further actions (at decisions of a match from the run's seed, the redraws drawn from it too)."""
    public_dict = _part(case)
    seed = seed_of(case, fresh_seed)
    rng = random.Random(seed + 41)
    checked = played = 0
    for match in _moments(case, seed):
        # every decision until a twin has been played on (a short match has few), then a share of them
        if match.current is None or (played and rng.random() > TWIN_RATE):
            continue
        shown = public_dict(match)
        for seat in range(match.n_seats):
            twin = match.determinize(seat, random.Random(rng.randrange(1 << 30)))
            assert public_dict(twin) == shown, f"the spectator tells a deal redrawn for seat {seat} from the match"
            played += _play_alike(match.clone(), twin, rng, TWIN_STEPS, public_dict)
            checked += 1
    assert checked > 0 and played > 0


def _swapped(case: Case, deal: Any, rng: random.Random) -> Any:
    """The deal with two cards of two different places (hands, the bid hand, the chest) swapped, as the game's
    record form reads it; None when no swap tried makes a deal the game accepts."""
    data = deal.to_json()
    places = [(key, None) for key, value in data.items() if isinstance(value, str)]
    places += [(key, i) for key, value in data.items() if isinstance(value, list) for i in range(len(value))]

    def text(place: tuple[str, int | None]) -> str:
        key, i = place
        return data[key] if i is None else data[key][i]

    for _ in range(50):
        p, q = rng.sample(places, 2)
        tp, tq = text(p).split(), text(q).split()
        if not tp or not tq:
            continue
        i, j = rng.randrange(len(tp)), rng.randrange(len(tq))
        tp[i], tq[j] = tq[j], tp[i]
        twin = json.loads(json.dumps(data))
        for (key, k), cards in ((p, tp), (q, tq)):
            if k is None:
                twin[key] = " ".join(cards)
            else:
                twin[key][k] = " ".join(cards)
        try:
            return case.info.deal_from_json(twin)
        except ClubsError:
            continue  # a card the deal does not allow there (an auction card among the primary cards)
    return None


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_spectator_cannot_tell_apart_deals_with_two_hidden_cards_swapped(case: Case, fresh_seed: int) -> None:
    """Two hidden cards swapped between two places before any is played (two hands, a hand and the bid hand, a
    hand and the chest): after the same actions the spectator is shown the same, as long as the table has seen the
    same (a swap that moves a card the rules make show at once, such as 10S that opens the Free Clubs auction, FC-3,
    parts the two at the first decision, and is not compared). The deals and the swaps are drawn from the run's
    seed."""
    public_dict = _part(case)
    seed = seed_of(case, fresh_seed)
    rng = random.Random(seed + 43)
    played = 0
    for k in range(SWAPS):
        a = case.new_match()
        a.deal(deal=case.info.deal_from_seed(seed + 1000 + k, a.next_dealer))
        twin = _swapped(case, a.hands[-1].deal, rng)
        assert twin is not None, "no two cards of the deal could be swapped"
        b = case.new_match()
        b.deal(deal=twin)
        if a.to_act != b.to_act:
            continue
        assert public_dict(a) == public_dict(b), "the spectator tells apart two deals before any action"
        played += _play_alike(a, b, rng, 1000, public_dict)
    assert played > 0


# -- (d), (e) the shape ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_spectator_has_no_seat_no_hand_no_legal_actions_and_is_plain_json(case: Case) -> None:
    public_dict = _part(case)
    for match in _moments(case, SEEDS[0]):
        shown = public_dict(match)
        assert shown["seat"] is None
        assert "legal" not in shown
        assert "hand" in shown and shown["hand"] is None
        assert shown["hand_sizes"] == [int(h).bit_count() for h in match.hands[-1].hands]
        assert json.loads(json.dumps(shown)) == shown, "the spectator's dict is not plain JSON"


# -- the oracle itself -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_oracle_knows_each_seats_cards_and_shows_the_spectator_none_held(case: Case) -> None:
    """The oracle's own sense: a seat may know every card it holds, and whatever the table saw; in the hand in
    progress a spectator may know no card that a seat still holds (random play never takes a card back)."""
    for match in _moments(case, SEEDS[0]):
        public = knowable_cards(match, None, -1)
        for seat in range(match.n_seats):
            held = {str(c) for c in CardSet(int(match.hands[-1].hands[seat]))}
            mine = knowable_cards(match, seat, -1)
            assert held <= mine and public <= mine
            assert not public & held, f"the oracle shows the spectator {sorted(public & held)} of seat {seat}'s hand"
            assert mine <= knowable_cards(match, seat)


def test_the_oracle_reads_cards_in_every_notation_the_project_prints_and_no_word_as_a_card() -> None:
    words = {"phase": "pass", "legal": ["pass any three cards of the hand", "keep", "exchange", "double", "as"]}
    assert cards_named(words, "whist") == set()
    assert cards_named({"hand": "10H TC 2D", "trick": [{"card": "10♥"}], "QS": ["KH, AS"]}, "whist") == {
        "10H",
        "10C",
        "2D",
        "QS",
        "KH",
        "AS",
    }
    assert cards_named({"trick": [{"play": "7C 7H 15S=7"}], "won": ["1D 15C"]}, "northstar") == {
        "7C",
        "7H",
        "15S",
        "1D",
        "15C",
    }
    assert cards_named("1C 15S KH", "whist") == {"KH"}  # each deck reads its own cards only
    assert cards_named("JK1 pass QH", "free") == {"JK1", "QH"} and cards_named("JK1", "whist") == set()
    assert cards_named("call 7H by 2", "free") == {"7H"} and cards_named("7H8H AShes", "whist") == set()
