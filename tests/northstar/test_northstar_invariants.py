"""Random-play invariants of North Star's CLUBS, checked with Hypothesis for every player count and variant.

Cards are conserved, bonus cards go out in order and the 0 card to exactly the player left holding cards (NS-1, NS-5,
NS-10), every score is recomputed here from the public events alone (NS-2, NS-5, NS-8, NS-10), the end of the match
follows NS-7, illegal actions are refused without a trace, every legal action reads back from its notation, and the
pack is accounted for across rounds (NS-6).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from clubsuite.cards import CardSet, Suit
from clubsuite.errors import IllegalActionError, NotYourTurnError
from clubsuite.games.northstar import (
    BONUS_CARDS,
    Call,
    DoubleCalled,
    HandScored,
    Kind,
    Leftover,
    MatchEnded,
    NorthstarMatch,
    NorthstarOptions,
    Play,
    Played,
    RoundEnded,
    Teams,
    TrickWon,
    WentOut,
    generate,
)
from clubsuite.games.northstar.combos import DECK_MASK

TEAMS_FOR = {2: [Teams.NONE], 3: [Teams.NONE], 4: [Teams.NONE, Teams.TWO_BY_TWO], 5: [Teams.NONE]}
TEAMS_FOR[6] = [Teams.NONE, Teams.THREE_BY_TWO, Teams.TWO_BY_THREE]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""40 random matches a run: Hypothesis draws new ones in every run, so many runs cover more than one long one."""


@st.composite
def match_setups(draw: st.DrawFn) -> tuple[NorthstarOptions, int, int, int]:
    """Options (any player count, variant and combination of them), a first dealer, a seed and a number of rounds."""
    players = draw(st.integers(2, 6))
    options = NorthstarOptions(
        players=players,
        teams=draw(st.sampled_from(TEAMS_FOR[players])),
        double_or_nothing=draw(st.booleans()),
        wild_fifteens=draw(st.booleans()),
        crazy=draw(st.booleans()),
        leftover=draw(st.sampled_from(list(Leftover))),
        target=draw(st.sampled_from([0, 25, 100000])),
    )
    return options, draw(st.integers(0, players - 1)), draw(st.integers(0, 2**32)), draw(st.integers(1, 4))


def snapshot(match: NorthstarMatch) -> tuple[Any, ...]:
    """Everything observable about the match and its round, to check that a refused action changed nothing."""
    cur = match.current
    assert cur is not None
    return (
        tuple(match.totals),
        len(match.hands),
        tuple(cur.hands),
        tuple(cur.won),
        tuple(cur.bonus),
        tuple(cur.doubled),
        tuple(cur.started),
        tuple(cur.trick),
        cur.top,
        cur.passes,
        cur.to_act,
        cur.last_turn,
        tuple(cur.history),
        tuple(cur.action_log()),
        cur.legal_actions(),
    )


def expected_scores(events: list[Any], options: NorthstarOptions) -> tuple[int, ...]:
    """A round's scores from its public events alone: clubs won by the table, the bonus card taken, nothing for the
    player left with the 0 card (3+ players), doubling for the first out among callers, 0 for the other callers and
    for a team left holding cards (NS-2, NS-5, NS-8, NS-10)."""
    n = options.players
    won = [0] * n
    bonus = [0] * n
    out: list[int] = []
    callers: set[int] = set()
    ended: RoundEnded | None = None
    for e in events:
        if isinstance(e, TrickWon):
            won[e.seat] |= int(e.cards)
        elif isinstance(e, WentOut):
            bonus[e.seat] = e.bonus or 0
            out.append(e.seat)
        elif isinstance(e, DoubleCalled):
            callers.add(e.seat)
        elif isinstance(e, RoundEnded):
            ended = e
    assert ended is not None
    points = options.club_points
    scores = [sum(points[c.rank - 1] for c in CardSet(won[s]) if c.suit is Suit.CLUBS) + bonus[s] for s in range(n)]
    if ended.last is not None and n > 2:
        scores[ended.last] = 0
    for s in callers:
        scores[s] = 2 * scores[s] if out and out[0] == s else 0
    if ended.team is not None:
        for s in range(n):
            if s % options.n_teams == ended.team:
                scores[s] = 0
    return tuple(scores)


def check_refusals(match: NorthstarMatch, rng: random.Random) -> None:
    """Actions that are not legal now are refused, with the reason ``explain`` gives, and change nothing."""
    cur = match.current
    assert cur is not None and cur.to_act is not None
    seat = cur.to_act
    legal = match.legal_actions()
    opts = match.options
    candidates: list[Any] = []
    if Call.PASS not in legal:
        candidates.append(Call.PASS)
    if Call.DOUBLE not in legal:
        candidates.append(Call.DOUBLE)
    wrong = [p for p in generate(cur.hands[seat], None, opts.wild_fifteens, opts.crazy) if p not in legal]
    candidates += rng.sample(wrong, min(2, len(wrong)))
    elsewhere = CardSet(DECK_MASK & ~cur.hands[seat])
    stranger = elsewhere[rng.randrange(len(elsewhere))]
    candidates.append(Play(CardSet([stranger]), Kind.SINGLE, stranger.rank))
    before = snapshot(match)
    for action in candidates:
        try:
            match.apply(action)
        except IllegalActionError as exc:
            assert match.explain(action) == str(exc)
        else:
            raise AssertionError(f"{action} was accepted although not legal")
        assert snapshot(match) == before
    other = (seat + 1 + rng.randrange(match.n_seats - 1)) % match.n_seats
    try:
        match.apply(legal[0], seat=other)
    except NotYourTurnError:
        pass
    else:
        raise AssertionError("an action out of turn was accepted")
    assert snapshot(match) == before


def play_checked_round(match: NorthstarMatch, rng: random.Random) -> list[Any]:
    """Deal and play one round with random legal actions, checking the invariants at every step."""
    opts = match.options
    n = opts.players
    match.deal(rng=rng)
    hand = match.hands[-1]
    dealt = hand.deal.cards
    assert sum(int(h).bit_count() for h in hand.deal.hands) == dealt.bit_count() == 10 * n  # no card dealt twice
    events: list[Any] = []
    trick = 0
    while match.current is not None:
        # Cards are conserved: the hands, the cards won and the trick in progress are the cards dealt, once each.
        parts = [*hand.hands, *hand.won, hand.trick_cards]
        assert sum(p.bit_count() for p in parts) == dealt.bit_count()
        union = 0
        for p in parts:
            union |= p
        assert union == dealt and hand.trick_cards == trick
        legal = match.legal_actions()
        assert legal, "the seat to act always has a legal action"
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert match.parse_action(match.format_action(action)) == action
        if rng.random() < 0.25:
            check_refusals(match, rng)
        # Uniform among the legal actions, with passing made likelier so that tricks are also won by passes.
        action = Call.PASS if Call.PASS in legal and rng.random() < 0.3 else legal[rng.randrange(len(legal))]
        assert match.explain(action) is None
        new = match.apply(action)
        events.extend(new)
        for e in new:
            if isinstance(e, Played):
                trick |= int(e.play.cards)
            elif isinstance(e, TrickWon):
                assert int(e.cards) == trick, "a trick takes exactly the cards played to it"
                trick = 0
    assert hand.trick_cards == 0
    union = 0
    for m in (*hand.hands, *hand.won):
        union |= m
    assert union == dealt
    return events


def check_round_end(match: NorthstarMatch, events: list[Any], totals: list[int]) -> None:
    """The bonus cards, the 0 card, the scores, the totals and the end of the match after a round."""
    opts = match.options
    n = opts.players
    hand = match.hands[-1]
    bonuses = [e.bonus for e in events if isinstance(e, WentOut)]
    assert bonuses == list(BONUS_CARDS[n][: len(bonuses)])  # highest first, none skipped (NS-1, NS-5)
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) == 1
    last, team = ended[0]
    assert (last is None) == (team is not None)
    zero_cards = [s for s in range(n) if hand.bonus[s] == 0]
    if last is not None and n > 2:
        assert zero_cards == [last]
        assert all(hand.hands[s] == 0 for s in range(n) if s != last)  # the only player who held cards
    else:
        assert zero_cards == []  # a team ended the round (NS-10) or two players (NS-5)
    if team is not None:
        holders = {s % opts.n_teams for s in range(n) if hand.hands[s]}
        assert holders == {team}
    scored = [e for e in events if isinstance(e, HandScored)]
    assert len(scored) == 1
    scores = expected_scores(events, opts)
    for s in range(n):
        totals[s] += scores[s]
    team_totals = [0] * opts.n_teams
    for s in range(n):
        team_totals[s % opts.n_teams] += totals[s]
    assert scored[0] == HandScored(scores, tuple(totals), tuple(team_totals))
    ends = [e for e in events if isinstance(e, MatchEnded)]
    top = max(team_totals)
    leaders = [t for t in range(opts.n_teams) if team_totals[t] == top]
    if top >= opts.goal and len(leaders) == 1:
        winners = tuple(s for s in range(n) if s % opts.n_teams == leaders[0])
        assert ends == [MatchEnded(winners, False, tuple(totals))] and match.is_over  # NS-7
    else:
        assert ends == [] and not match.is_over  # nobody at the target yet, or a tie at the top plays on


def play_checked_match(options: NorthstarOptions, dealer: int, seed: int, rounds: int) -> list[str]:
    """Play up to ``rounds`` rounds of a match with random legal actions, checking every invariant; returns how
    each round ended."""
    ends: list[str] = []
    rng = random.Random(seed)
    match = NorthstarMatch(options, dealer)
    totals = [0] * options.players
    need = 10 * options.players
    stock, discards = DECK_MASK, 0
    for k in range(rounds):
        if match.is_over:
            break
        events = play_checked_round(match, rng)
        dealt = match.hands[-1].deal.cards
        # The pack (NS-6): a full shuffle each round, or the undealt cards first and the discards only when short.
        if options.leftover is Leftover.RESHUFFLE:
            assert match.packs[k] == (60, 0)
        else:
            assert match.packs[k] == (stock.bit_count(), discards.bit_count())
            if stock.bit_count() >= need:
                assert dealt & ~stock == 0
                stock &= ~dealt
            else:
                assert stock & ~dealt == 0
                stock = (stock | discards) & ~dealt
                discards = 0
            discards |= dealt
        check_round_end(match, events, totals)
        assert match.hands[-1].dealer == (dealer + k) % options.players  # the deal passes to the left
        ended = match.hands[-1].ended
        assert ended is not None
        ends.append("team ended the round" if ended.team is not None else "one player left")
    return ends


@pytest.mark.long
@SETTINGS
@given(match_setups())
def test_random_play_keeps_every_invariant(setup: tuple[NorthstarOptions, int, int, int]) -> None:
    for how in play_checked_match(*setup):
        event(how)


def rounds_to_check(players: int, leftover: Leftover) -> int:
    """The rounds a match of each combination plays. With the undealt cards dealt first (NS-6): four with 2 or 3
    players (the pack runs out and the discards are shuffled in; with 3, a fourth round is dealt from the pack
    they renewed), two with 4 to 6 (the discards are shuffled in at the second round already, and at every round
    after it). With a full shuffle each round: two (the deal passes on and the totals add up)."""
    return 4 if leftover is Leftover.NEXT_ROUND and players <= 3 else 2


@pytest.mark.long
def test_every_player_count_variant_and_combination_keeps_every_invariant(fresh_seed: int) -> None:
    # Each combination once, from the run's seed (``fresh_seed``: each run plays other deals), for the rounds that
    # rounds_to_check says (enough for the pack to run out with 2 or 3 players and for the discards to be shuffled in
    # with 4 to 6, NS-6).
    for players, wild, crazy, double, leftover in itertools.product(
        range(2, 7), (False, True), (False, True), (False, True), list(Leftover)
    ):
        for teams in TEAMS_FOR[players]:
            options = NorthstarOptions(
                players=players,
                teams=teams,
                wild_fifteens=wild,
                crazy=crazy,
                double_or_nothing=double,
                leftover=leftover,
                target=100000,
            )
            seed = fresh_seed + players * 1000 + wild * 4 + crazy * 2 + double
            play_checked_match(options, players - 1, seed, rounds_to_check(players, leftover))
