"""Tests of the North Star's CLUBS balance report and of team results in simulations (NS-5, NS-8, NS-10).

The report is checked against a tally made here from the public events of the same matches, played again from
their match seeds, without the report's code.
"""

from __future__ import annotations

import functools
import itertools
import pickle
import random
from collections import Counter
from typing import Any

import pytest

from clubsuite.bots import base as bot_base
from clubsuite.bots import make_bot
from clubsuite.engine import find_game, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.northstar import (
    DoubleCalled,
    HandScored,
    HandStarted,
    NorthstarMatch,
    NorthstarOptions,
    NorthstarShuffle,
    Passed,
    Played,
    RoundEnded,
    TrickWon,
    WentOut,
)
from clubsuite.games.northstar.report import (
    HELD,
    LAST,
    NorthstarHandFacts,
    hand_facts,
    northstar_report,
    position_keys,
    tally,
)
from clubsuite.runner import play_match
from clubsuite.sim import seating, seating_cycle, simulate, wilson_interval

SPECS = [
    "northstar(players=2)",
    "northstar(players=3,double_or_nothing=true)",
    "northstar(players=5,wild_fifteens=true,crazy=true)",
    "northstar-teams(double_or_nothing=true)",
    "northstar(players=6,teams=3x2)",
    "northstar(players=6,teams=2x3,double_or_nothing=true)",
]


def bots_for(spec: str) -> list[str]:
    """Random bots, one per seat of ``spec``."""
    _, options = resolve(spec)
    return ["random"] * options.players


def record(rounds: list[dict[str, Any]], match: Any, events: tuple[Any, ...]) -> None:
    """Add one step's public events to the account of the rounds."""
    for e in events:
        if isinstance(e, HandStarted):
            rounds.append({"out": [], "doubled": [], "plays": 0, "passes": 0, "tricks": 0})
        elif isinstance(e, HandScored):
            rounds[-1]["scores"] = e.scores
        elif isinstance(e, RoundEnded):
            rounds[-1]["ended"] = e
        elif isinstance(e, WentOut):
            rounds[-1]["out"].append(e.seat)
        elif isinstance(e, DoubleCalled):
            rounds[-1]["doubled"].append(e.seat)
        elif isinstance(e, Played):
            rounds[-1]["plays"] += 1
        elif isinstance(e, Passed):
            rounds[-1]["passes"] += 1
        elif isinstance(e, TrickWon):
            rounds[-1]["tricks"] += 1


def rounds_from_events(spec: str, seed: int, matches: int) -> list[list[dict[str, Any]]]:
    """Every round of matches 0..matches-1 of a simulation, played again here from their match seeds, each round
    read from its public events alone: who went out in which order, who was left holding cards, who called double,
    the scores, and the counts of plays, passes and tricks."""
    info, options = resolve(spec)
    names = bots_for(spec)
    result = simulate(spec, names, matches, seed)
    out = []
    for outcome in result.outcomes:
        rounds: list[dict[str, Any]] = []
        entry_at = {seat: entry for entry, seat in enumerate(outcome.seats)}
        bots = [make_bot(names[entry_at[s]], "northstar") for s in range(len(names))]
        match = info.new_match(options, 0)
        play_match(match, bots, outcome.match_seed, on_events=functools.partial(record, rounds))
        assert tuple(match.winners) == outcome.winner_seats
        out.append(rounds)
    return out


def expected_report(spec: str, seed: int, matches: int) -> dict[str, Any]:
    """The report's counts computed here from the events (see :func:`rounds_from_events`)."""
    _, options = resolve(spec)
    n = options.players
    by_position: dict[str, list[int]] = {}
    counts: Counter[str] = Counter()
    callers: list[int] = []
    others: list[int] = []
    held: Counter[int] = Counter()
    per_match = []
    for match in rounds_from_events(spec, seed, matches):
        per_match.append(len(match))
        for r in match:
            scores, ended = r["scores"], r["ended"]
            for seat in range(n):
                out = r["out"]
                key = str(out.index(seat) + 1) if seat in out else (LAST if seat == ended.last else HELD)
                by_position.setdefault(key, []).append(scores[seat])
            first = r["out"][0]
            counts["rounds"] += 1
            counts["top"] += scores[first] == max(scores)
            counts["alone"] += sorted(scores)[-1] == scores[first] and sorted(scores)[-2] < scores[first]
            counts["calls"] += len(r["doubled"])
            counts["successes"] += first in r["doubled"]
            counts["called_rounds"] += bool(r["doubled"])
            for seat in range(n):
                (callers if seat in r["doubled"] else others).append(scores[seat])
            for key in ("plays", "passes", "tricks"):
                counts[key] += r[key]
            if ended.team is not None:
                counts["team_ended"] += 1
                held[n - len(r["out"])] += 1
    return {
        "by_position": by_position,
        "counts": counts,
        "callers": callers,
        "others": others,
        "held": held,
        "per_match": per_match,
    }


@pytest.mark.parametrize("spec", SPECS)
def test_report_counts_equal_a_tally_made_from_the_public_events(spec: str) -> None:
    seed, matches = 7, 5
    result = simulate(spec, bots_for(spec), matches, seed, hand_facts=True)
    report = northstar_report(result).to_json()
    want = expected_report(spec, seed, matches)
    _, options = resolve(spec)
    n, rounds = options.players, want["counts"]["rounds"]
    assert report["rounds"] == rounds == result.hands
    assert report["matches"] == matches
    assert report["players"] == n
    # Every player-round has exactly one finishing position.
    assert list(report["points_by_position"]) == list(position_keys(n, options.n_teams < n))
    assert sum(p["samples"] for p in report["points_by_position"].values()) == n * rounds
    for key, p in report["points_by_position"].items():
        samples = want["by_position"].get(key, [])
        assert (p["samples"], p["total"]) == (len(samples), sum(samples)), key
        if samples:
            assert p["mean"] == pytest.approx(sum(samples) / len(samples))
    c = want["counts"]
    assert (report["first_out_scores_most"]["count"], report["first_out_scores_most"]["trials"]) == (c["top"], rounds)
    assert report["first_out_scores_most_alone"]["count"] == c["alone"]
    assert report["round_length"]["plays"]["total"] == c["plays"]
    assert report["round_length"]["passes"]["total"] == c["passes"]
    assert report["round_length"]["tricks"]["total"] == c["tricks"]
    assert report["round_length"]["tricks"]["mean"] == pytest.approx(c["tricks"] / rounds)
    assert report["rounds_per_match"]["total"] == sum(want["per_match"]) == rounds
    assert report["rounds_per_match"]["samples"] == matches
    doubles = report["double_or_nothing"]
    if options.double_or_nothing:
        assert (doubles["calls"], doubles["successes"]) == (c["calls"], c["successes"])
        assert doubles["success"]["ci95"] == (list(wilson_interval(c["successes"], c["calls"])) if c["calls"] else None)
        assert doubles["rounds_with_a_call"]["count"] == c["called_rounds"]
        assert doubles["points_of_callers"]["total"] == sum(want["callers"])
        assert doubles["points_of_callers"]["samples"] == len(want["callers"])
        assert doubles["points_of_non_callers"]["total"] == sum(want["others"])
        # NS-8: only the first player out can double; every other caller scores 0 for the round.
        assert c["successes"] <= c["called_rounds"]
    else:
        assert doubles is None and c["calls"] == 0
    if options.n_teams < n:
        assert report["team_ended_rounds"]["count"] == c["team_ended"]
        assert report["held_at_team_end"] == {str(k): v for k, v in sorted(want["held"].items())}
        # NS-10 is checked before NS-5: one player left holding cards is a team alone, so no round of a team game
        # reaches the last player's turn, and the team left holding cards scores nothing.
        assert c["team_ended"] == rounds
        assert all(s == 0 for s in want["by_position"][HELD])
    else:
        assert report["team_ended_rounds"] is None and report["held_at_team_end"] is None
        assert c["team_ended"] == 0
        if n > 2:
            # NS-5: the last player takes the 0 card and scores nothing.
            assert set(want["by_position"][LAST]) == {0}
    assert [b["wins"]["count"] for b in report["bots"]] == [e.wins for e in result.entries]
    assert all(b["fair_share"] == pytest.approx(1 / options.n_teams) for b in report["bots"])


def test_ns5_two_players_the_one_left_holding_cards_scores_clubs_and_the_first_out_the_5() -> None:
    report = northstar_report(simulate("northstar-duel", ["random", "random"], 6, 3, hand_facts=True))
    by_position = report.by_position
    assert list(by_position) == ["1", LAST]
    first, last = by_position["1"], by_position[LAST]
    assert first.mean is not None and last.mean is not None
    # The first out has the 5 bonus card on top of their clubs (NS-1, NS-5).
    assert first.total >= 5 * first.samples
    assert last.total > 0
    assert "scores clubs, NS-5" in report.format_text()


def test_report_is_identical_with_one_or_two_workers() -> None:
    spec = "northstar(players=6,teams=3x2,double_or_nothing=true)"
    one = simulate(spec, bots_for(spec), 9, seed=2, hand_facts=True, workers=1)
    two = simulate(spec, bots_for(spec), 9, seed=2, hand_facts=True, workers=2)
    assert one == two
    assert northstar_report(one) == northstar_report(two)
    assert northstar_report(one).format_text() == northstar_report(two).format_text()
    assert one.to_json() == two.to_json()


def test_hand_facts_travel_small_and_picklable_and_need_a_scored_round() -> None:
    result = simulate("northstar-double", ["random"] * 4, 2, seed=0, hand_facts=True)
    for outcome in result.outcomes:
        assert len(outcome.hand_facts) == outcome.hands
        assert all(isinstance(f, NorthstarHandFacts) for f in outcome.hand_facts)
        assert pickle.loads(pickle.dumps(outcome)) == outcome
    match = NorthstarMatch(NorthstarOptions(players=3))
    match.deal(deal=NorthstarShuffle.from_seed(1))
    assert match.current is not None
    with pytest.raises(InvalidOptionsError, match="only once it is scored"):
        hand_facts(match.current)


def test_report_refuses_other_games_and_results_without_facts() -> None:
    with pytest.raises(InvalidOptionsError, match="hand_facts=True"):
        northstar_report(simulate("northstar", ["random"] * 4, 1, seed=0))
    with pytest.raises(InvalidOptionsError, match="North Star"):
        northstar_report(simulate("free", ["random"] * 3, 1, seed=0, hand_facts=True))


def test_empty_tally_and_variants_without_doubles_or_teams_print_no_such_section() -> None:
    empty = tally([], NorthstarOptions())
    assert empty.rounds == 0 and empty.matches == 0
    assert empty.first_out_top.rate is None and empty.doubles is None and empty.team_ended is None
    assert "-" in empty.format_text()
    text = northstar_report(simulate("northstar", ["random"] * 4, 2, seed=1, hand_facts=True)).format_text()
    assert "Double or nothing" not in text and "NS-10" not in text
    for words in ("1st out", "2nd out", "3rd out", "last, left holding cards (0 card, NS-5)", "Wilson", "passes"):
        assert words in text


# -- seatings and team results (NS-10) ---------------------------------------------------------------------------


class FirstLegal:
    """Always the first legal action: a bot kind of its own, to tell line-ups apart."""

    name = "first-legal"

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        """The first legal action."""
        return legal[0]


@pytest.mark.parametrize(("teams", "players"), [("2x2", 4), ("3x2", 6), ("2x3", 6)])
def test_ns10_a_seating_cycle_partners_every_pair_of_bots_equally_often(teams: str, players: int) -> None:
    # Team members sit alternately (NS-10); the seatings of a whole cycle must put every bot with every other as a
    # partner equally often and every bot in every team equally often, or team results would favour some pairs.
    options = NorthstarOptions(players=players, teams=teams)  # type: ignore[arg-type]
    groups = find_game("northstar")[0].teams_of(options)
    assert sorted(s for g in groups for s in g) == list(range(players))
    cycle = seating_cycle(players)
    partners: Counter[tuple[int, int]] = Counter()
    in_team: Counter[tuple[int, int]] = Counter()
    for k in range(cycle):
        seats = seating(k, players)
        assert sorted(seats) == list(range(players))
        for a, b in itertools.combinations(range(players), 2):
            partners[(a, b)] += options.team_of(seats[a]) == options.team_of(seats[b])
        for entry in range(players):
            in_team[(entry, options.team_of(seats[entry]))] += 1
    assert len(set(partners.values())) == 1
    assert len(set(in_team.values())) == 1


def test_seating_of_five_and_six_players_gives_every_bot_every_seat_in_northstar() -> None:
    for players in (5, 6):
        bots = ["random"] * players
        result = simulate(f"northstar(players={players})", bots, players * 2, seed=4)
        for entry in range(players):
            assert sorted(o.seats[entry] for o in result.outcomes) == sorted(list(range(players)) * 2)
        assert result.seat_teams == ()
        assert all(len(o.winner_seats) == 1 for o in result.outcomes)


@pytest.mark.parametrize(
    "spec", ["northstar-teams", "northstar(players=6,teams=3x2)", "northstar(players=6,teams=2x3)"]
)
def test_ns10_a_bot_wins_when_its_team_wins_and_team_results_add_up(spec: str, monkeypatch: Any) -> None:
    _, options = resolve(spec)
    n = options.players
    # A second bot kind (registered for this test only) so that teams of different line-ups occur.
    monkeypatch.setitem(bot_base._FACTORIES, ("first-legal", "northstar"), (FirstLegal, None))
    bots = ["random", "first-legal", *(["random"] * (n - 2))]
    result = simulate(spec, bots, 8, seed=5)
    groups = find_game("northstar")[0].teams_of(options)
    assert result.seat_teams == groups
    for o in result.outcomes:
        # NS-10: the winners are a whole team, and every bot seated in it wins.
        winning = [g for g in groups if set(g) == set(o.winner_seats)]
        assert len(winning) == 1
        for entry in range(n):
            assert o.won(entry) == (o.seats[entry] in winning[0])
    by_team = result.team_wins()
    assert [w.label for w in by_team] == [f"seats {'+'.join(map(str, g))}" for g in groups]
    assert sum(w.wins for w in by_team) == result.matches
    lineups = result.lineup_wins()
    assert sum(w.matches for w in lineups) == len(groups) * result.matches
    assert sum(w.wins for w in lineups) == result.matches
    # The line-up with the "first" bot, counted here from the seatings.
    with_first = [w for w in lineups if "first-legal" in w.label]
    assert len(with_first) == 1
    first_team = [next(g for g in groups if o.seats[1] in g) for o in result.outcomes]
    assert with_first[0].matches == result.matches
    assert with_first[0].wins == sum(
        set(g) == set(o.winner_seats) for g, o in zip(first_team, result.outcomes, strict=True)
    )
    assert with_first[0].wins == result.entries[1].wins
    data = result.to_json()
    assert data["teams"]["seats"] == [list(g) for g in groups]
    assert [t["wins"] for t in data["teams"]["by_team"]] == [w.wins for w in by_team]
    table = result.format_table()
    assert "a bot wins a match when its team wins" in table and "line-up" in table


def test_games_without_teams_keep_their_output() -> None:
    for spec, n in (("whist", 3), ("free", 3), ("northstar", 4)):
        result = simulate(spec, ["random"] * n, 2, seed=0)
        assert result.seat_teams == () and result.team_wins() == () and result.lineup_wins() == ()
        assert "teams" not in result.to_json()
        assert "line-up" not in result.format_table()
