"""Tests of ``clubs simulate northstar`` through the command's entry point: --players, --report, teams, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process

CLUBS = Path(sys.executable).parent / "clubs"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``clubs simulate ARGS``, run in this process (:func:`cli_helpers.clubs_in_process`: the same entry point and
    bytes as the console script, without a process start per call), as a finished process."""
    out = clubs_in_process(["simulate", *args])
    return subprocess.CompletedProcess([str(CLUBS), "simulate", *args], out.status, out.stdout, out.stderr)


def default_first_bot() -> str:
    """The bot the default line-up starts with: the game's heuristic bot."""
    return "heuristic"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_players_sets_the_count_and_the_default_line_up_has_one_bot_per_seat(players: int) -> None:
    proc = run("northstar", "--players", str(players), "--matches", "3", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    spec = "northstar" if players == 4 else f"northstar(players={players})"
    assert proc.stdout.startswith(f"3 matches of {spec}, seed 1\n")
    rows = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith(("heuristic", "random"))]
    first = default_first_bot()
    labels = [first, "random" if first != "random" else "random#2"]
    assert rows[:2] == labels
    assert len(rows) == players
    assert "NS-7" in proc.stdout
    assert proc.stderr == ""


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_report_json_for_every_player_count(players: int) -> None:
    bots = ",".join(["random"] * players)
    proc = run("northstar", "--players", str(players), "--bots", bots, "--matches", "3", "--report", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    report = data["report"]
    assert report["players"] == players
    assert report["rounds"] == data["hands"]
    assert report["matches"] == data["matches"] == 3
    positions = report["points_by_position"]
    assert list(positions) == [*(str(k) for k in range(1, players)), "last"]
    # Every player-round has one finishing position (NS-5).
    assert sum(p["samples"] for p in positions.values()) == players * data["hands"]
    if players > 2:
        assert positions["last"]["total"] == 0  # NS-5: the 0 card scores nothing
    assert report["double_or_nothing"] is None and report["team_ended_rounds"] is None
    assert [b["label"] for b in report["bots"]] == [b["label"] for b in data["bots"]]
    assert [b["wins"]["count"] for b in report["bots"]] == [b["wins"] for b in data["bots"]]
    # One winner per match without teams (NS-7).
    assert sum(b["wins"] for b in data["bots"]) == 3
    assert report["round_length"]["tricks"]["samples"] == data["hands"]
    assert "teams" not in data
    assert proc.stderr == ""


def test_report_text_names_every_section_for_a_team_game_with_doubles() -> None:
    proc = run(
        "northstar-teams",
        "--variant",
        "northstar-teams(double_or_nothing=true)",
        "--bots",
        "random,random,random,random",
        "--matches",
        "4",
        "--report",
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.index("score/hand") < out.index("teams: 0+2, 1+3") < out.index("Balance report: 4 players, teams 2x2")
    for words in (
        "Points per round by finishing position",
        "1st out",
        "holding cards when a team ended it (NS-10)",
        "The first player out scores the round's most points",
        "Double or nothing (NS-8)",
        "callers",
        "non-callers",
        "plays",
        "passes",
        "tricks",
        "rounds per match",
        "team-ended rounds",
        "Win rates per bot (fair share 50.0%: a bot wins when its team wins)",
        "Wilson",
    ):
        assert words in out, words


def test_team_game_json_has_team_results_and_team_ended_rounds() -> None:
    proc = run(
        "northstar", "--players", "6", "--variant", "northstar(teams=2x3)", "--matches", "3", "--report", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["canonical_spec"] == "northstar(players=6,teams=2x3)"
    teams = data["teams"]
    assert teams["seats"] == [[0, 2, 4], [1, 3, 5]]
    assert sum(t["wins"] for t in teams["by_team"]) == 3
    # NS-10: each member of the winning team wins, so three bots win each match.
    assert sum(b["wins"] for b in data["bots"]) == 3 * 3
    report = data["report"]
    assert report["teams"] == "2x3"
    # NS-10 comes before NS-5: one player left holding cards is a team alone, so every round ends by NS-10.
    assert report["team_ended_rounds"]["count"] == report["rounds"]
    assert sum(report["held_at_team_end"].values()) == report["rounds"]
    assert "last" not in report["points_by_position"]


@pytest.mark.long
def test_same_results_with_one_or_two_workers() -> None:
    args = ("northstar", "--players", "5", "--variant", "northstar-double", "--matches", "7", "--seed", "9", "--report")
    one, two = run(*args, "--json"), run(*args, "--json", "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["report"]["double_or_nothing"]["calls"] >= 0
    text_one, text_two = run(*args), run(*args, "--workers", "2")
    assert text_one.returncode == 0 and text_two.returncode == 0, text_one.stderr + text_two.stderr
    assert text_one.stdout == text_two.stdout
    assert "7 matches, less than one cycle of 60: seats not balanced" in text_one.stdout


def test_variant_name_as_game_and_players_agreeing_with_it() -> None:
    duel = run("northstar-duel", "--players", "2", "--matches", "2", "--json")
    assert duel.returncode == 0, duel.stderr
    assert json.loads(duel.stdout)["canonical_spec"] == "northstar(players=2)"
    assert len(json.loads(duel.stdout)["bots"]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("northstar", "--players", "7"), "option players=7: expected 2 to 6 players (NS-1)"),
        (("northstar", "--players", "1"), "players=1"),
        (("northstar", "--players", "-3"), "players=-3"),
        (("northstar", "--players", "x"), "Invalid value for '--players'"),
        (("whist", "--players", "3"), "--players 3: Clubs (whist group) is always played by 3 players"),
        (("free", "--players", "4"), "--players 4"),
        (("northstar-duel", "--players", "3"), "--players 3 contradicts players=2 in the variant 'northstar-duel'"),
        (("northstar", "--variant", "northstar-teams", "--players", "6"), "contradicts players=4"),
        (("northstar", "--players", "5", "--variant", "northstar(teams=2x2)"), "teams=2x2 needs players=4"),
        (("northstar", "--variant", "northstar(players=9)"), "players=9"),
        (("northstar", "--variant", "northstar(teams=3x3)"), "teams"),
        (("northstar", "--variant", "northstar(crazy=maybe)"), "crazy"),
        (("northstar", "--variant", "whist"), "--variant 'whist' is a spec of whist"),
        (("northstar", "--variant", "northstar(("), "northstar(("),
        (("northstar", "--bots", "random,random,random"), "3 bots given (random, random, random)"),
        (("northstar", "--bots", "random,random,random"), "or --players 3"),
        (("northstar", "--players", "3", "--bots", "random,random"), "seats 3 players: give one bot per seat"),
        (("northstar", "--players", "3", "--bots", "random,nobot,random"), "unknown bot 'nobot' for northstar"),
        (("northstar", "--players", "3", "--report", "--matches", "0"), "--matches"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message_and_no_traceback(args: tuple[str, ...], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr
    assert proc.stdout == ""


def test_help_describes_players_and_the_northstar_report() -> None:
    proc = run("--help")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "--players" in text
    assert "points per round by finishing position" in text
    assert "team-ended rounds" in text
