"""Tests of ``clubs simulate``: JSON output, tables, and clean errors. In this process through the console script's
own frame (:func:`cli_helpers.clubs_in_process`), and as a process of the installed console script where the
environment it starts with is the subject (the pure-Python engine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process

CLUBS = Path(sys.executable).parent / "clubs"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``clubs simulate ARGS`` and capture its output: in this process, or with ``env`` (added to the
    environment, read when the package is imported) as a process of the console script."""
    if env is None:
        done = clubs_in_process(["simulate", *args])
        return subprocess.CompletedProcess(["simulate", *args], done.status, done.stdout, done.stderr)
    return subprocess.run(
        [str(CLUBS), "simulate", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )


def test_json_output_has_per_bot_figures_and_overall_counts() -> None:
    proc = run("whist", "--bots", "random,random,random", "--matches", "4", "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["matches"] == 4
    assert data["seed"] == 3
    assert data["spec"] == "whist"
    assert data["confidence_interval"] == "95% Wilson score interval"
    assert data["mean_hands_per_match"] == pytest.approx(data["hands"] / 4)
    assert [b["label"] for b in data["bots"]] == ["random", "random#2", "random#3"]
    for b in data["bots"]:
        assert set(b) >= {"label", "bot", "wins", "win_rate", "win_rate_ci95", "mean_score_per_hand", "hands"}
        low, high = b["win_rate_ci95"]
        assert 0.0 <= low <= b["win_rate"] <= high <= 1.0
        assert b["hands"] == data["hands"]
    # CW-5: a draw has no winner, every other match at least one.
    assert sum(b["wins"] for b in data["bots"]) >= data["matches"] - data["draws"]
    # CW-5: each hand's scores sum to one.
    assert sum(b["mean_score_per_hand"] for b in data["bots"]) == pytest.approx(1.0)
    assert proc.stderr == ""


def test_json_and_table_are_the_same_with_one_or_two_workers() -> None:
    # Seven matches run past the first cycle of six seatings.
    args = ("whist", "--bots", "heuristic,random,random", "--matches", "7", "--seed", "8")
    one, two = run(*args, "--json"), run(*args, "--json", "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["seating_cycle"] == 6
    table_one, table_two = run(*args), run(*args, "--workers", "2")
    assert table_one.returncode == 0 and table_two.returncode == 0, table_one.stderr + table_two.stderr
    assert table_one.stdout == table_two.stdout
    assert "7 matches = 1 full cycle of 6 + 1 match" in table_one.stdout


@pytest.mark.parametrize(
    ("spec", "bots"),
    [
        ("whist", "random,random,random"),
        ("whist-1997(target=5)", "random,random,random"),
        ("partnership", "random,random"),
        ("partnership(target=100)", "heuristic,random"),
    ],
)
def test_random_bots_give_the_same_result_with_the_compiled_core_and_without(
    spec: str, bots: str, fresh_seed: int
) -> None:
    """Where the compiled core plays the matches (random bots, and the partnership game's heuristic bots beside
    them) the result is the engine's, exactly: 30 matches (8 with heuristic bots) from the run's seed
    (``fresh_seed``), so that many runs cover more matches than one long one."""
    matches = 8 if "heuristic" in bots else 30
    args = (spec, "--bots", bots, "--matches", str(matches), "--seed", str(fresh_seed), "--json")
    core, pure = run(*args), run(*args, env={"CLUBS_PURE_PYTHON": "1"})
    assert core.returncode == 0 and pure.returncode == 0, core.stderr + pure.stderr
    assert json.loads(core.stdout) == json.loads(pure.stdout)
    assert json.loads(core.stdout)["hands"] > matches


def test_variant_name_as_game_and_variant_spec_override() -> None:
    by_name = run("whist-1997", "--bots", "random,random,random", "--matches", "2", "--json")
    by_spec = run(
        "whist", "--variant", "whist-1997(target=5)", "--bots", "random,random,random", "--matches", "2", "--json"
    )
    assert by_name.returncode == 0 and by_spec.returncode == 0, by_name.stderr + by_spec.stderr
    assert json.loads(by_name.stdout)["canonical_spec"] == "whist(lead_after_exchange=left_of_last_exchanger)"
    assert json.loads(by_spec.stdout)["canonical_spec"] == "whist(lead_after_exchange=left_of_last_exchanger,target=5)"


def test_text_output_is_a_table_naming_the_interval() -> None:
    proc = run("whist", "--bots", "random,random,random", "--matches", "3")
    assert proc.returncode == 0, proc.stderr
    assert "Wilson" in proc.stdout
    assert "draws:" in proc.stdout
    assert "mean hands per match" in proc.stdout
    for label in ("random", "random#2", "random#3"):
        assert label in proc.stdout
    # The header says how the seats change and that three matches are half of the cycle of six seatings.
    assert "seating: all 6 seatings in turn" in proc.stdout
    assert "3 matches, less than one cycle of 6: seats not balanced" in proc.stdout
    # Not a terminal: no progress bar on standard error.
    assert proc.stderr == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("whist", "--bots", "random,nobot,random"), "unknown bot 'nobot'"),
        (("whist", "--bots", "random,random"), "2 bots given"),
        (("whist", "--bots", "random,,random"), "--bots 'random,,random': name 2 of 3 is empty"),
        (("whist", "--bots", "random,random,random,"), "name 4 of 4 is empty"),
        (("whist", "--bots", "random, ,random"), "name 2 of 3 is empty"),
        (("whist", "--bots", ",,"), "names 1, 2 and 3 of 3 are empty"),
        (("whist", "--bots", "random,random,random", "--variant", "whist(target=zero)"), "target"),
        (("whist", "--bots", "random,random,random", "--variant", "whist(("), "whist(("),
        (("nogame", "--bots", "random,random,random"), "nogame"),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_traceback(args: tuple[str, ...], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: ")
    assert message in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("whist", "--matches", "0"), "--matches"),
        (("whist", "--matches", "1000000000000"), "--matches"),
        (("free", "--report", "--matches", "0"), "--matches"),
        (("whist", "--workers", "0"), "--workers"),
        (("whist", "--workers", "100000"), "--workers"),
        (("whist", "--seed", "-1"), "--seed"),
        (("whist", "--seed", str(2**64)), "--seed"),
        (("whist", "--seed", "1" * 5000), "--seed"),
    ],
)
def test_numbers_out_of_range_are_usage_errors_naming_the_option(args: tuple[str, ...], option: str) -> None:
    # A count that could never finish (a trillion matches) is refused before anything is built or played.
    proc = run(*args)
    assert proc.returncode == 2
    assert f"Invalid value for '{option}'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert max(len(line) for line in proc.stderr.splitlines()) <= 500  # a 5000-digit seed is not echoed whole
    assert proc.stdout == ""


def test_help_explains_the_seating_cycle() -> None:
    proc = run("--help")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "all n! seatings (6 for three bots)" in text
    assert "every order around the table" in text
    assert "60 or 120 seatings" in text


REPORT_ARGS = ("free", "--bots", "random,random,random", "--matches", "4", "--seed", "5", "--report")


def test_free_report_json_gives_every_section_and_agrees_with_the_hand_count() -> None:
    proc = run(*REPORT_ARGS, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    report = data["report"]
    assert report["hands"] == data["hands"]
    assert list(report["contract_by_top_tier"]) == ["10", "J", "Q", "K", "Joker"]
    assert sum(r["trials"] for r in report["contract_by_top_tier"].values()) == data["hands"]
    assert sum(r["trials"] for r in report["contract_by_cards_bid"].values()) == data["hands"]
    # FC-4: a Joker team makes its contract exactly when it takes all 10 tricks.
    assert report["joker_team_took_all_10"] == report["contract_by_top_tier"]["Joker"]
    assert set(report["points_per_hand_by_role"]) == {
        "lone_winner",
        "joker_bidder",
        "joker_partner",
        "lone_defender",
        "joker_outsider",
    }
    assert set(report["bonuses"]) == {"most_diamonds", "diamonds_tie", "no_diamonds", "ace_of_hearts", "no_spades"}
    for rate in report["bonuses"].values():
        low, high = rate["ci95"]
        assert 0.0 <= low <= rate["rate"] <= high <= 1.0
    assert proc.stderr == ""


def test_free_report_text_is_the_same_with_one_or_two_workers_and_follows_the_table() -> None:
    one, two = run(*REPORT_ARGS), run(*REPORT_ARGS, "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert one.stdout.index("score/hand") < one.stdout.index("Balance report over")
    assert "Mean points per hand by role" in one.stdout
    assert "FC-9" in one.stdout and "CW-5" not in one.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("free", "--bots", "random,random", "--report"), "2 bots given"),
        (("free", "--bots", "random,random,random", "--report", "--variant", "free(target=x)"), "target"),
    ],
)
def test_report_bad_input_exits_2_with_a_message(args: tuple[str, ...], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_timing_adds_each_bots_thinking_time_and_changes_nothing_else() -> None:
    """--timing: per bot its decisions, mean and slowest time (wall clock, so only their shape is checked), in the
    table and the JSON; everything else is the result without it, with one worker or two."""
    args = ("whist", "--bots", "heuristic,random,random", "--matches", "7", "--seed", "8", "--json")
    plain, timed, two = run(*args), run(*args, "--timing"), run(*args, "--timing", "--workers", "2")
    assert plain.returncode == timed.returncode == two.returncode == 0, plain.stderr + timed.stderr + two.stderr
    data, data_two = json.loads(timed.stdout), json.loads(two.stdout)
    for result in (data, data_two):
        thinking = [b.pop("thinking") for b in result["bots"]]
        assert result == json.loads(plain.stdout)
        for t in thinking:
            assert t["decisions"] > 0 and 0 <= t["ms_per_decision"] <= t["slowest_ms"]
            assert t["cpu_ms_per_decision"] is not None and t["cpu_ms_per_decision"] >= 0
    assert [b["thinking"]["decisions"] for b in json.loads(two.stdout)["bots"]] == [
        b["thinking"]["decisions"] for b in json.loads(timed.stdout)["bots"]
    ]
    assert "thinking" not in json.loads(plain.stdout)["bots"][0]
    table = run(*args[:-1], "--timing")
    assert table.returncode == 0, table.stderr
    assert "thinking time per decision (wall clock and CPU, this run):" in table.stdout
    assert table.stdout.count("ms slowest") == 3
