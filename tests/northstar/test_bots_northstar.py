"""Tests of the heuristic bot for North Star's CLUBS: always legal, sensible choices in exact positions, no hidden
reads, and real strength against random bots."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.bots import RandomBot, make_bot
from clubsuite.cards import CardSet
from clubsuite.engine import resolve
from clubsuite.games.northstar import (
    Call,
    Kind,
    NorthstarDeal,
    NorthstarMatch,
    NorthstarOptions,
    NorthstarShuffle,
    Play,
    Teams,
)
from clubsuite.games.northstar.bot import (  # importing the module registers the bot
    NorthstarHeuristic,
    Odds,
    Table,
    Weights,
    value_counts,
)
from clubsuite.games.northstar.combos import DECK_MASK, NORTHSTAR
from clubsuite.runner import play_match
from clubsuite.sim import simulate


def deal_of(players: int, **hands: str) -> NorthstarDeal:
    """A deal with the hands given as ``s0="1C 2C ..."``; the seats not given get the unused cards, lowest first."""
    given = {int(k[1:]): NORTHSTAR.parse_set(v) for k, v in hands.items()}
    used = 0
    for h in given.values():
        used |= int(h)
    rest = list(CardSet(DECK_MASK & ~used))
    out = []
    for seat in range(players):
        if seat in given:
            out.append(given[seat])
        else:
            out.append(CardSet(rest[:10]))
            rest = rest[10:]
    return NorthstarDeal(tuple(out))


def position(options: NorthstarOptions, deal: NorthstarDeal, actions: str = "") -> NorthstarMatch:
    """A match whose seat 0 leads the first trick (the last seat deals), after the actions (``;``-separated)."""
    match = NorthstarMatch(options, first_dealer=options.players - 1)
    match.deal(deal=deal)
    for action in actions.split(";"):
        if action.strip():
            match.apply(action.strip())
    return match


def bot_choice(match: NorthstarMatch, seed: int = 1) -> Any:
    """What the heuristic bot chooses for the seat to act."""
    seat = match.to_act
    assert seat is not None
    return NorthstarHeuristic().choose(match.view(seat), match.legal_actions(), random.Random(seed))


class CheckedBot:
    """Wraps the heuristic bot; asserts that every action it returns is legal and that choosing changes nothing."""

    name = "heuristic"

    def __init__(self) -> None:
        self.inner = NorthstarHeuristic()
        self.decisions = 0

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        """The inner bot's choice, checked against ``legal``."""
        before = view.to_dict()
        action = self.inner.choose(view, legal, rng)
        assert action in legal, f"{action} is not legal: {[str(a) for a in legal]}"
        assert view.to_dict() == before
        self.decisions += 1
        return action


def test_heuristic_is_registered_for_northstar() -> None:
    assert isinstance(make_bot("heuristic", "northstar"), NorthstarHeuristic)


# -- always legal -----------------------------------------------------------------------------------------------
SPECS = (
    "northstar(players=2)",
    "northstar(players=3)",
    "northstar",
    "northstar(players=5)",
    "northstar(players=6)",
    "northstar-teams",
    "northstar(players=6,teams=3x2)",
    "northstar(players=6,teams=2x3)",
    "northstar-double",
    "northstar-wild",
    "northstar-crazy",
    "northstar(players=3,crazy=true,wild_fifteens=true,double_or_nothing=true)",
    "northstar(players=5,wild_fifteens=true,double_or_nothing=true)",
    "northstar(players=6,teams=2x3,crazy=true,wild_fifteens=true)",
    "northstar-2013",
    "northstar(players=2,leftover=reshuffle,wild_fifteens=true,crazy=true)",
)


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mix=st.integers(1, 63))
def test_heuristic_bot_only_makes_legal_moves_in_whole_matches(spec: str, seed: int, mix: int) -> None:
    """Whole matches (NS-1..NS-11 as the spec chooses), the heuristic at the seats ``mix`` names, random elsewhere:
    three a spec (Hypothesis's simplest, then ones it draws anew every run), so many runs cover more than one long
    one."""
    info, options = resolve(spec)
    n = options.players
    seats = [s for s in range(n) if mix >> s & 1] or [0]
    checked = {s: CheckedBot() for s in seats}
    bots: list[Any] = [checked.get(s) or RandomBot() for s in range(n)]
    match = play_match(info.new_match(options, seed % n), bots, seed)
    assert match.is_over
    assert all(b.decisions > 0 for b in checked.values())


# -- exact positions --------------------------------------------------------------------------------------------
FOUR = NorthstarOptions()
TEAMS = NorthstarOptions(players=4, teams=Teams.TWO_BY_TWO)


def test_ns3_leads_a_long_run_rather_than_a_low_single() -> None:
    # Seat 0 led four 12s and took the trick; it holds the run 3-7 and the 1D. The run will likely keep the lead,
    # and the 1D then goes out; led first, the 1D loses the lead and leaves the run, which only a lead can play.
    deal = deal_of(4, s0="1D 3H 4D 5S 6H 7D 12C 12D 12H 12S")
    match = position(FOUR, deal, "12C 12D 12H 12S; pass; pass; pass")
    assert match.to_act == 0
    assert str(bot_choice(match)) == "3H 4D 5S 6H 7D"


def test_ns4_passes_rather_than_wasting_a_15_on_a_worthless_trick() -> None:
    # Seat 0 leads 5D; seat 1 can beat it only with its 15, and the trick holds no club.
    deal = deal_of(4, s0="5D 5C 6C 7C 8C 9C 10C 11C 12C 13C", s1="15H 1C 1D 1H 2H 2S 3C 3D 4H 4S")
    match = position(FOUR, deal, "5D")
    assert [str(a) for a in match.legal_actions()] == ["pass", "15H"]
    assert bot_choice(match) is Call.PASS


def test_ns2_ns4_takes_a_trick_worth_clubs_with_a_15() -> None:
    # The same hand, but seat 0 leads the 5 of clubs (3 points, NS-2): the 15 takes it at once (NS-4).
    deal = deal_of(4, s0="5D 5C 6C 7C 8C 9C 10C 11C 12C 13C", s1="15H 1C 1D 1H 2H 2S 3C 3D 4H 4S")
    match = position(FOUR, deal, "5C")
    assert str(bot_choice(match)) == "15H"


def test_ns5_goes_out_with_a_pair_rather_than_leading_a_single() -> None:
    # Seat 2 took the trick of 8-card runs and leads holding 12H 12S: the pair empties its hand (a bonus card).
    deal = deal_of(4, s0="1D 2D 3D 4D 5D 6D 7D 8D 9D 9C", s2="3H 4H 5H 6H 7H 8H 9H 10H 12H 12S")
    match = position(FOUR, deal, "1D 2D 3D 4D 5D 6D 7D 8D; pass; 3H 4H 5H 6H 7H 8H 9H 10H; pass; pass; pass")
    assert match.to_act == 2
    assert [str(a) for a in match.legal_actions()] == ["12H", "12S", "12H 12S"]
    assert str(bot_choice(match)) == "12H 12S"


def test_ns10_does_not_overtake_a_partner_who_leads_the_trick() -> None:
    # Seat 0 leads the pair of 12s with the 12 of clubs; seat 2 could beat it with its 13s.
    deal = deal_of(
        4,
        s0="12C 12D 1D 2D 3D 4D 5D 6D 7D 8D",
        s1="1C 2C 3C 4C 5C 6C 7C 8C 9C 10C",
        s2="13H 13S 1H 2H 3H 5S 7S 9H 11S 3S",
    )
    alone = position(FOUR, deal, "12C 12D; pass")
    assert str(bot_choice(alone)) == "13H 13S"  # without teams the pair of 13s takes the club
    partners = position(TEAMS, deal, "12C 12D; pass")
    assert bot_choice(partners) is Call.PASS  # with seat 0 as partner the trick is the team's (NS-10)


HELP_DEAL = {
    "s0": "1D 2D 3D 4D 5D 6D 7D 8D 9D 14S",
    "s1": "2S 3S 4S 5S 6S 7S 8S 9S 10S 3C",
    "s2": "4H 5H 6H 7H 8H 9H 2C 12H 13S 11D",
    "s3": "1C 1H 1S 2H 3H 10C 11C 12C 13C 14C",
}
HELP_ACTIONS = "1D 2D 3D 4D 5D 6D 7D 8D 9D; 2S 3S 4S 5S 6S 7S 8S 9S 10S; pass; pass; pass; 3C; 11D; pass; pass"


def test_ns10_leads_a_low_single_to_help_a_partner_with_one_card_out() -> None:
    # Seat 1 went out; seat 2 took the trick of singles and leads, and its partner, seat 0, holds one card.
    partners = position(TEAMS, deal_of(4, **HELP_DEAL), HELP_ACTIONS)
    assert partners.to_act == 2 and partners.view(2).hand_sizes[0] == 1
    assert str(bot_choice(partners)) == "2C"
    # Without teams seat 0 is a rival about to go out: seat 2 leads no single its last card could beat.
    alone = position(FOUR, deal_of(4, **HELP_DEAL), HELP_ACTIONS)
    choice = bot_choice(alone)
    assert isinstance(choice, Play) and choice.kind is not Kind.SINGLE


DOUBLE = NorthstarOptions(double_or_nothing=True)


def test_ns8_calls_double_with_a_hand_that_can_go_out_first() -> None:
    match = position(DOUBLE, deal_of(4, s0="15C 15D 15H 1S 2S 3S 4S 5S 6S 7S"))
    assert Call.DOUBLE in match.legal_actions()
    assert bot_choice(match) is Call.DOUBLE
    match.apply(Call.DOUBLE)
    assert isinstance(bot_choice(match), Play)  # the call does not use up the turn (NS-8)


def test_ns8_does_not_call_double_with_a_weak_hand() -> None:
    match = position(DOUBLE, deal_of(4, s0="1C 1D 2H 3S 5C 6D 8H 9S 11C 12D"))
    assert Call.DOUBLE in match.legal_actions()
    assert bot_choice(match) is not Call.DOUBLE


def test_ns5_last_player_takes_a_trick_worth_clubs() -> None:
    # Two players: seat 0 goes out with a run holding 1C and 2C; seat 1 has the last turn and takes those clubs.
    duel = NorthstarOptions(players=2)
    deal = deal_of(2, s0="1C 2C 3D 4D 5D 6D 7D 8D 9D 10D", s1="2H 3H 4H 5S 6S 7S 8H 9H 10H 11H")
    match = position(duel, deal)
    first = bot_choice(match)
    assert isinstance(first, Play) and first.size == 10  # going out at once (NS-5)
    match.apply(first)
    assert match.current is not None and match.current.last_turn == 1
    assert str(bot_choice(match)) == "2H 3H 4H 5S 6S 7S 8H 9H 10H 11H"


def test_ns9_goes_out_with_a_wild_15_filling_a_run() -> None:
    hand = "1D 2D 3D 4D 5D 6D 7D 8D 9D 15S"
    wild = position(NorthstarOptions(wild_fifteens=True), deal_of(4, s0=hand))
    assert str(bot_choice(wild)) == "1D 2D 3D 4D 5D 6D 7D 8D 9D 15S=10"
    # Without wild 15s it leads the 15 first (it wins at once, NS-4) and then goes out with the run.
    plain = position(FOUR, deal_of(4, s0=hand))
    assert str(bot_choice(plain)) == "15S"


def test_ns9_keeps_a_wild_15_rather_than_filling_a_short_run() -> None:
    # Filling 4-6 with the 15 would spend a sure winner to shed two cards; the bot keeps the 15 for control.
    hand = "1D 4H 6S 9C 9D 11H 11S 13C 13D 15S"
    choice = bot_choice(position(NorthstarOptions(wild_fifteens=True), deal_of(4, s0=hand)))
    assert isinstance(choice, Play) and not choice.cards & NORTHSTAR.parse_set("15S")


def test_ns11_crazy_takes_a_pair_worth_clubs_with_a_low_triple() -> None:
    # Crazy CLUBS: three 2s beat a pair of 5s (a longer set, NS-11), and the 5C is worth 3 points (NS-2).
    crazy = NorthstarOptions(crazy=True)
    deal = deal_of(4, s0="5C 5D 1C 3C 7C 9C 11C 13C 14C 15C", s1="2D 2H 2S 4D 6D 8D 10D 12D 1S 3S")
    match = position(crazy, deal, "5C 5D")
    assert str(bot_choice(match)) == "2D 2H 2S"
    plain = position(FOUR, deal, "5C 5D")
    assert [str(a) for a in plain.legal_actions()] == ["pass"]  # without Crazy CLUBS nothing beats the pair


def test_odds_a_15_wins_at_once_except_in_crazy_clubs() -> None:
    unseen = (0, *([3] * 15))
    assert Odds(45, unseen, (10, 10, 10), wild=False, crazy=False).stands(False, 1, 15) == 1.0
    crazy = Odds(45, unseen, (10, 10, 10), wild=False, crazy=True).stands(False, 1, 15)
    assert crazy < 0.1  # NS-11: any pair beats it
    plain = Odds(45, unseen, (10, 10, 10), wild=False, crazy=False)
    assert plain.stands(False, 1, 3) < plain.stands(False, 1, 12) < 1.0
    assert plain.stands(True, 5, 7) > plain.stands(True, 2, 7)
    assert Odds(45, unseen, (), wild=False, crazy=False).stands(False, 1, 1) == 1.0  # nobody left to beat it


def test_plan_keeps_a_long_run_whole() -> None:
    match = position(FOUR, deal_of(4, s0="1D 3H 4D 5S 6H 7D 9H 11S 13D 15H"))
    table = Table(match.view(0), Weights())
    plays = table.plan_plays(value_counts(int(match.view(0).hand)))
    assert (True, 5, 7) in plays
    assert sorted(p for p in plays if not p[0]) == [
        (False, 1, 1),
        (False, 1, 9),
        (False, 1, 11),
        (False, 1, 13),
        (False, 1, 15),
    ]


# -- hidden information -----------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    stop=st.integers(0, 40),
    swaps=st.integers(1, 6),
    crazy=st.booleans(),
    wild=st.booleans(),
)
def test_choice_depends_only_on_what_the_seat_may_know(
    seed: int, players: int, stop: int, swaps: int, crazy: bool, wild: bool
) -> None:
    """Two deals that differ only in cards the seat to act cannot see (other hands' unplayed cards, the undealt
    cards) give the same view and the same choice with the same RNG."""
    options = NorthstarOptions(players=players, crazy=crazy, wild_fifteens=wild, double_or_nothing=wild)
    rng = random.Random(seed)
    match = NorthstarMatch(options)
    match.deal(deal=NorthstarShuffle.from_seed(seed))
    assert match.current is not None
    dealt = match.current.deal
    bot = NorthstarHeuristic()
    actions = []
    for _ in range(stop):
        seat = match.to_act
        if seat is None:
            return
        action = bot.choose(match.view(seat), match.legal_actions(), rng)
        match.apply(action)
        actions.append(action)
    seat = match.to_act
    if seat is None:
        return
    # Owners of the cards the seat cannot see: other seats (their unplayed cards) and -1 for the undealt cards.
    hidden: dict[int, list[int]] = {}
    for s in range(players):
        hidden[s] = [c.index for c in CardSet(match.current.hands[s])] if s != seat else []
    hidden[-1] = [c.index for c in CardSet(DECK_MASK & ~dealt.cards)]
    owners = [s for s in hidden if hidden[s]]
    if len(owners) < 2:
        return
    moved = {s: set(hidden[s]) for s in owners}
    for _ in range(swaps):
        a, b = rng.sample(owners, 2)
        x, y = rng.choice(sorted(moved[a])), rng.choice(sorted(moved[b]))
        moved[a] ^= {x, y}
        moved[b] ^= {x, y}
    hands = []
    for s in range(players):
        mask = int(dealt.hands[s])
        if s != seat:
            mask = (mask & ~int(match.current.hands[s])) | sum(1 << i for i in moved.get(s, ()))
        hands.append(CardSet(mask))
    twin = NorthstarMatch(options)
    twin.deal(deal=NorthstarDeal(tuple(hands)))
    for action in actions:
        twin.apply(action)
    assert twin.view(seat).to_dict() == match.view(seat).to_dict()
    assert bot.choose(twin.view(seat), twin.legal_actions(), random.Random(seed)) == bot.choose(
        match.view(seat), match.legal_actions(), random.Random(seed)
    )


# -- strength ---------------------------------------------------------------------------------------------------
STRENGTH = (
    # spec, players, matches, share (1 / number of teams), the heuristic's lower bound, the control's margin.
    # Measured with seed 2025: the heuristic against random bots, then a random bot in its place (the control).
    ("northstar", 4, 240, 0.25, 0.6, 0.12),  # 228/240 = 0.95; control 60/240 = 0.25
    ("northstar(players=3)", 3, 120, 1 / 3, 0.7, 0.15),  # 117/120; control 40/120
    ("northstar(players=6)", 6, 120, 1 / 6, 0.5, 0.12),  # 102/120; control 23/120
    ("northstar-teams", 4, 120, 0.5, 0.75, 0.15),  # the heuristic and a random partner: 113/120; control 55/120
    ("northstar-crazy", 4, 120, 0.25, 0.6, 0.15),  # 109/120; control 23/120
    ("northstar(wild_fifteens=true,double_or_nothing=true)", 4, 120, 0.25, 0.6, 0.15),  # 105/120; control 33/120
)


@pytest.mark.parametrize(("spec", "players", "matches", "share", "bound", "margin"), STRENGTH)
def test_heuristic_wins_clearly_more_than_its_share_against_random_bots(
    spec: str, players: int, matches: int, share: float, bound: float, margin: float
) -> None:
    """The heuristic against random bots wins far above its share; a random bot in the same seats stays near it
    (so the bound is one that a bot without skill fails)."""
    result = simulate(spec, ["heuristic"] + ["random"] * (players - 1), matches=matches, seed=2025)
    assert result.entries[0].win_rate > bound
    control = simulate(spec, ["random"] * players, matches=matches, seed=2025)
    assert abs(control.entries[0].win_rate - share) < margin
    assert control.entries[0].win_rate < bound
