"""`clubs play northstar` and `clubs watch northstar` through the console script (NS-1..NS-11).

Whole matches are piped to the end for 2, 3 and 6 players and a team game; the screen of the player is checked
against the saved record so that it never names a card of another hand; refusals give the engine's reason and the
game goes on; bad arguments exit with status 2 and a message.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import clubs_in_process, seat_names, seated
from clubsuite.bots import make_bot
from clubsuite.cards import CardSet
from clubsuite.engine import resolve
from clubsuite.games.northstar import NorthstarMatch, beats, generate, parse_play
from clubsuite.games.northstar.screen import GROUP_LIMIT, LIST_ALL, round_scores
from clubsuite.records import load_record, replay
from clubsuite.runner import deal_next, play_match

CLUBS = str(Path(sys.executable).parent / "clubs")

CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(1[0-5]|[1-9])([CDHS])(?![A-Z0-9])")
"""A North Star card in plain output (``7C``, ``15S``; also the card of a wild ``15S=7``)."""
HELP_EXAMPLES = {"7C", "7H", "4H", "5C", "6D", "15S"}
"""The example cards of the input help printed before the first round."""


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``clubs ARGS`` with ``stdin`` piped in, run in this process (:func:`cli_helpers.clubs_in_process`: the same
    entry point and bytes as the console script, without a process start per call), as a finished process."""
    out = clubs_in_process(args, stdin.encode("utf-8"))
    return subprocess.CompletedProcess([CLUBS, *args], out.status, out.stdout, out.stderr)


def cycling_input(rounds: int = 80, double: bool = False) -> str:
    """Input that is eventually legal at every prompt and names no card: ``pass`` alternating with plays given by
    their values alone (``7``, ``7 7``, ``7 7 7``, ``7 7 7 7``, ``7-8``), which are read against the player's own
    hand; now and then ``?`` (the legal plays), ``s`` (the scores) and ``double``."""
    lines: list[str] = []
    for _ in range(rounds):
        for v in range(1, 16):
            for k in (1, 2, 3, 4):
                lines += ["pass", " ".join([str(v)] * k)]
            lines += ["pass", f"{v}-{v + 1}" if v < 15 else "s"]
        lines += ["?", "double"] if double else ["?"]
    return "\n".join(lines) + "\n"


def final_totals(out: str) -> list[int]:
    """The numbers of the match's end's ``Final totals:``."""
    final = out.split("Final totals:")[1].splitlines()[0].removesuffix(".")
    return [int(p.split()[-1]) for p in final.split(",")]


def round_sections(out: str) -> tuple[str, list[str]]:
    """The text before the first round, and the text of each round (from the line telling its deal to the next)."""
    parts = re.split(r"^(?=Round \d+ is dealt by )", out, flags=re.MULTILINE)
    return parts[0], parts[1:]


def cards_named(text: str) -> set[str]:
    """Every card named in ``text``."""
    return {a + b for a, b in CARD_TOKEN.findall(text)}


def check_saved_totals(out: str, path: Path) -> dict[str, object]:
    """The record replays to the totals the screen printed; returns the replay's JSON account."""
    replayed = run(["replay", str(path), "--json"])
    assert replayed.returncode == 0, replayed.stderr
    data: dict[str, object] = json.loads(replayed.stdout)
    assert data["totals"] == final_totals(out)
    assert data["over"] is True
    return data


# -- whole matches ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "seat", "seed"),
    [(2, 1, 3), (3, 0, 5), (6, 4, 8)],
    ids=["2 players", "3 players", "6 players"],
)
def test_ns7_whole_match_piped_to_the_end_names_the_winner_and_replays_to_the_same_totals(
    tmp_path: Path, players: int, seat: int, seed: int
) -> None:
    path = tmp_path / "game.json"
    args = ["play", "northstar", "--players", str(players), "--seat", str(seat + 1), "--seed", str(seed)]
    result = run([*args, "--bots", "random", "--save", str(path)], cycling_input())
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    out = result.stdout
    assert "\x1b[" not in out, "piped output must carry no colour codes"
    assert out.splitlines()[0] == f"CLUBS (North Star) · variant northstar(players={players}) · seed {seed}"
    names = seat_names(out)
    assert len(names) == players and names[seat] == "You"
    totals = final_totals(out)
    assert len(totals) == players
    assert max(totals) >= 50  # NS-7: the match ends once a total reaches 50
    winner = totals.index(max(totals))
    assert totals.count(max(totals)) == 1  # NS-7: a tie at the top plays on
    who = "You win" if winner == seat else f"{names[winner]} wins"
    assert f"\nThe match is over: {who}. Final totals: " in out  # the game's words (the page's)
    for needle in (
        "Your hand: ",
        "Trick so far: ",
        "\nBeat ",  # what the seat is asked, in the game's words (the page's prompt)
        "Cards held: ",
        "Bonus cards left: ",
        " · taken: ",
        "passes.",
        "wins the trick",
        "Scores",
        "The round is over: ",
        "The deals came from seed",
    ):
        assert needle in out, needle
    if players > 2:
        assert "takes the 0 card" in out or "take the 0 card" in out  # NS-5
    else:
        assert "is left with cards." in out or "you are left with cards." in out  # NS-5, 2 players
    check_saved_totals(out, path)


def test_ns10_team_game_piped_to_the_end_counts_team_totals(tmp_path: Path) -> None:
    path = tmp_path / "teams.json"
    args = ["play", "northstar-teams", "--seat", "2", "--seed", "6", "--bots", "random", "--save", str(path)]
    result = run(args, cycling_input())
    assert result.returncode == 0, result.stderr
    out = result.stdout
    zero, _, two, three = seat_names(out)
    assert f"Teams: Team A ({zero} + {two}), Team B (You + {three})" in out
    assert f"your team: B, with {three}" in out
    assert f"Team totals: Team A ({zero} + {two}) " in out  # the score sheet asked for with s
    rounds = re.findall(r"^Points this round: .*$", out, flags=re.MULTILINE)
    assert rounds and all(f". Team totals: {zero} and {two} " in line for line in rounds)  # NS-10, told once
    after = out.split("\n")
    for i, line in enumerate(after):
        if line.startswith("Points this round: "):  # the points by source and the sheet, no team totals again
            rest = after[i + 1 : after.index("", i + 1)] if "" in after[i + 1 :] else after[i + 1 :]
            assert not any("Team totals" in r or "team totals" in r for r in rest), rest
    ended = re.search(r"^The match is over: (.+) win\. Final totals: ", out, flags=re.MULTILINE)
    assert ended is not None  # the winning team's players, the player's own told as "you" (NS-10)
    winners = (f"{zero} and {two}", f"{three} and you")
    assert ended.group(1) in winners
    totals = final_totals(out)
    team_totals = [totals[0] + totals[2], totals[1] + totals[3]]
    team = winners.index(ended.group(1))
    assert team_totals[team] == max(team_totals) >= 100
    data = check_saved_totals(out, path)
    assert data["team_totals"] == team_totals
    assert data["winners"] == [s for s in range(4) if s % 2 == team]


# -- hidden information ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "seat", "seed"),
    [("northstar(players=3)", 2, 21), ("northstar(wild_fifteens=true,double_or_nothing=true)", 1, 9)],
    ids=["3 players", "wild and double"],
)
def test_play_screen_never_names_a_card_of_another_hand(tmp_path: Path, variant: str, seat: int, seed: int) -> None:
    """Hidden information: per round, every card printed must be in the player's own hand as dealt, or have been
    played (and so be won or on the table). Checked against the saved record, line by line."""
    path = tmp_path / "game.json"
    args = ["play", "northstar", "--variant", variant, "--seat", str(seat + 1), "--seed", str(seed), "--bots", "random"]
    result = run([*args, "--save", str(path)], cycling_input(double=True))
    assert result.returncode == 0, result.stderr
    match = replay(load_record(path)).match
    before, sections = round_sections(result.stdout)
    assert cards_named(before) <= HELP_EXAMPLES
    assert len(sections) == len(match.hands)
    for section, hand in zip(sections, match.hands, strict=True):
        played = 0
        for won in hand.won:
            played |= won
        known = {str(c) for c in CardSet(int(hand.deal.hands[seat]) | played | hand.trick_cards)}
        for line in section.splitlines():
            shown = cards_named(line)
            assert shown <= known, f"{line!r} names {sorted(shown - known)}, which seat {seat} cannot know"
    assert "Legal: " in result.stdout  # the lists of legal plays were checked too
    if "double" in variant:
        assert "double called by: " in result.stdout


# -- refusals --------------------------------------------------------------------------------------------------
def dealt_hand(spec: str, seed: int, seat: int, first_dealer: int = 0) -> CardSet:
    """The hand the CLI deals to ``seat`` in the first round of a match of ``spec`` with ``seed``."""
    info, options = resolve(spec)
    match = info.new_match(options, first_dealer)
    deal_next(match, info, seed)
    return CardSet(match.hands[0].hands[seat])


def test_ns4_ns8_ns3_refusals_give_the_reason_and_ask_again_then_the_game_goes_on() -> None:
    seed, seat = 12, 1  # the dealer is seat 0, so the player leads the first trick
    hand = sorted(dealt_hand("northstar", seed, seat), key=lambda c: (c.rank, c.suit))
    # Two cards that are neither a set nor a run (NS-3).
    a, b = next((x, y) for x in hand for y in hand if y.rank > x.rank + 1)
    lowest = hand[0]
    stdin = f"pass\ndouble\n{a} {b}\n{lowest}\nq\n"
    result = run(["play", "northstar", "--seed", str(seed), "--seat", str(seat + 1), "--bots", "random"], stdin)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    reasons = {  # a player's words: no ruling ids (those are behind "why?")
        "You start this trick, so you cannot pass: play a single card, a set or a run.",  # NS-4
        "Double or nothing is not played in this game: it needs the option double_or_nothing.",  # NS-8
        # Leading, the message does not offer pass (NS-4).
        f"'{a} {b}' is not a single card, a set or a run: a set is cards of one value, and a run is consecutive "
        "values.",  # NS-3
    }
    for reason in reasons:
        i = lines.index(reason)
        assert lines[i + 1].startswith("Your play")  # asked again
    assert f"You play {lowest}." in lines  # the game went on
    assert result.stdout.rstrip().endswith("Game stopped before the end (you quit).")


def test_ns3_a_play_that_does_not_beat_is_refused_when_following() -> None:
    seed, seat = 12, 1
    base = [
        "play",
        "northstar",
        "--seed",
        str(seed),
        "--seat",
        str(seat + 1),
        "--first-dealer",
        "4",
        "--bots",
        "random",
    ]
    first = run(base, "q\n")  # seat 0 (a bot) leads: the player follows
    assert first.returncode == 0, first.stderr
    asked = re.search(r"^(?:Beat|You cannot beat) ([^:]+): ", first.stdout, flags=re.MULTILINE)
    assert asked is not None
    top = parse_play(asked.group(1), wild=False)  # the play to beat, as the seat is asked to beat it (NS-3)
    hand = dealt_hand("northstar", seed, seat, first_dealer=3)
    wrong = next(p for p in generate(int(hand), None, False, False) if not beats(p, top, False))
    result = run(base, f"{wrong}\npass\nq\n")
    lines = result.stdout.splitlines()
    refusal = next(i for i, line in enumerate(lines) if line.startswith(f"{wrong} is "))  # the refusal (NS-3)
    assert str(top) in lines[refusal] and "NS-" not in lines[refusal]  # in a player's words
    assert lines[refusal + 1].startswith("Your play or pass: ")
    assert "You pass." in lines[refusal + 1 :]


def test_the_legal_list_is_grouped_and_cut_short_when_there_are_hundreds_of_plays() -> None:
    """With wild 15s (NS-9) a leader may have hundreds of plays: ``?`` lists them by kind and size, at most
    GROUP_LIMIT of each, the plays of the cards as they are first."""
    spec = "northstar(wild_fifteens=true)"
    counts = {seed: len(generate(int(dealt_hand(spec, seed, 1)), None, True, False)) for seed in range(40)}
    seed = max(counts, key=lambda s: counts[s])
    assert counts[seed] > LIST_ALL
    result = run(
        ["play", "northstar", "--variant", spec, "--seed", str(seed), "--seat", "2", "--bots", "random"], "?\nh\nq\n"
    )
    out = result.stdout
    assert f"Legal: {counts[seed]} plays" in out
    listing = out.split(f"Legal: {counts[seed]} plays")[1].split("(lists cut short")[0]
    rows = [line for line in listing.splitlines() if line.startswith("  ")]
    assert rows and any("... and " in row for row in rows)
    for row in rows:
        listed = row.split(": ", 1)[1].split(", ... and ")[0].split(", ")
        assert len(listed) <= GROUP_LIMIT
    assert out.count(f"Legal: {counts[seed]} plays") == 2  # h lists them too
    assert "Hint: " in out


def test_quit_saves_the_round_in_progress_and_replay_says_who_is_to_act(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    hand = sorted(dealt_hand("northstar", 12, 1), key=lambda c: (c.rank, c.suit))
    args = ["play", "northstar", "--seed", "12", "--seat", "2", "--bots", "random", "--save", str(path)]
    result = run(args, f"{hand[0]}\nq\n")
    assert result.returncode == 0, result.stderr
    data = json.loads(run(["replay", str(path), "--json"]).stdout)
    assert data["over"] is False and data["to_act"] == 1
    assert data["hands"][0]["complete"] is False


def test_the_end_of_input_stops_the_game_with_status_1() -> None:
    result = run(["play", "northstar", "--seed", "12", "--bots", "random"], "")
    assert result.returncode == 1
    assert "Game stopped before the end (the input ended)." in result.stdout


# -- bots and seats --------------------------------------------------------------------------------------------
def test_bots_take_one_name_per_other_seat_for_any_player_count() -> None:
    for players in range(2, 7):
        bots = ",".join(["random"] * (players - 1))
        result = run(["play", "northstar", "--players", str(players), "--bots", bots, "--seed", "1"], "q\n")
        assert result.returncode == 0, (players, result.stderr)
        at_table = seated(result.stdout)
        assert at_table[0] == ("You", None) and [level for _, level in at_table[1:]] == ["random bot"] * (players - 1)
        assert len({name for name, _ in at_table}) == players


def test_default_bots_are_the_heuristic_bot(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    result = run(["play", "northstar", "--players", "3", "--seed", "1", "--save", str(path)], "q\n")
    assert result.returncode == 0, result.stderr
    seats = json.loads(path.read_text())["seats"]
    assert [seat.get("bot") for seat in seats] == [None, "heuristic", "heuristic"]
    assert [seat["name"] for seat in seats] == ["you", *seat_names(result.stdout)[1:]]  # as the screen named them
    assert [level for _, level in seated(result.stdout)] == [None, "normal bot", "normal bot"]


def test_watch_shows_every_hand_and_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    bots = ",".join(["random"] * 5)
    result = run(["watch", "northstar", "--players", "5", "--seed", "4", "--bots", bots, "--save", str(path)])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[0] == "CLUBS (North Star) · variant northstar(players=5) · seed 4"
    assert re.search(r"^The match is over: .+ wins?\. Final totals: ", out, flags=re.MULTILINE)
    assert "(10 cards not dealt this round)" in out
    first = round_sections(out)[1][0].splitlines()
    dealt = first[1:6]
    names = seat_names(out)
    assert [line.split()[0] for line in dealt] == names
    assert len(set().union(*(cards_named(line) for line in dealt))) == 50  # the spectator sees every hand
    check_saved_totals(out, path)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["play", "northstar", "--players", "7"], ["players=7", "2 to 6 players (NS-1)", "--players 7"]),
        (["play", "whist", "--players", "3"], ["--players 3", "always played by 3 players"]),
        (["watch", "free", "--players", "3"], ["--players 3", "always played by 3 players"]),
        (["play", "northstar", "--players", "3", "--variant", "northstar-duel"], ["contradicts players=2"]),
        (["play", "northstar-teams", "--players", "6"], ["contradicts players=4"]),
        (["play", "northstar", "--variant", "northstar(foo=1)"], ["unknown option 'foo'"]),
        (["play", "northstar", "--variant", "northstar(teams=3x2)"], ["teams=3x2 needs players=6", "(NS-10)"]),
        (["play", "northstar", "--variant", "whist-1997"], ["spec of whist"]),
        (["play", "northstar", "--players", "3", "--seat", "4"], ["--seat 4", "seats 1 to 3"]),  # counted from 1
        (["play", "northstar", "--seat", "-1"], ["--seat"]),
        (["watch", "northstar", "--players", "2", "--first-dealer", "3"], ["--first-dealer 3", "seats 1 to 2"]),
        (["play", "northstar", "--players", "3", "--bots", "random,random,random"], ["--bots needs 2 bot names"]),
        (["watch", "northstar", "--players", "6", "--bots", "random,random"], ["--bots needs 6 bot names"]),
        (["play", "northstar", "--bots", "nosuch"], ["nosuch"]),
        (["play", "northstar", "--players", "many"], ["--players"]),
    ],
)
def test_bad_arguments_exit_2_with_a_message_and_no_traceback(args: list[str], needles: list[str]) -> None:
    result = run(args, "q\n")
    assert result.returncode == 2, result.stdout
    for needle in needles:
        assert needle in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


# -- the score lines -------------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    spec=st.sampled_from(
        [
            "northstar(players=2)",
            "northstar(players=3,double_or_nothing=true)",
            "northstar-teams(double_or_nothing=true)",
            "northstar(players=6,teams=2x3,crazy=true)",
            "northstar(players=5,wild_fifteens=true,double_or_nothing=true)",
        ]
    ),
)
def test_ns2_ns5_ns8_ns10_the_score_lines_add_up_to_the_engine_scores(seed: int, spec: str) -> None:
    """The split printed after each round (clubs, bonus card, the 0 card, double or nothing, a team left holding
    cards) gives exactly the engine's scores."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    assert isinstance(match, NorthstarMatch)
    bot = make_bot("random", "northstar")
    play_match(match, [bot] * match.n_seats, seed, bot_rng=random.Random(seed), max_hands=3)
    for hand in match.hands:
        assert hand.scores is not None
        assert tuple(rs.points for rs in round_scores(hand)) == hand.scores
