"""A game added from outside the package: the toy game in ``tests/toygame`` (a few hundred lines, nothing else
touched) is installed the way another package would add one, through the ``clubsuite.games`` entry-point group,
and played, watched, saved, replayed and simulated by the real ``clubs`` command (``docs/adding-a-game.md``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose Python finds the toy game as an installed distribution with an entry point."""
    site = tmp_path_factory.mktemp("site")
    info = site / "highcard_toy-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: highcard-toy\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[clubsuite.games]\nhighcard = toygame\n", encoding="utf-8")
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([str(site), str(TESTS)])
    environment.pop("CLUBS_DEBUG", None)
    return environment


def clubs(env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``clubs`` in a fresh interpreter with ``env``."""
    return subprocess.run(
        [sys.executable, "-c", "from clubsuite.cli.main import main; main()", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_game_added_by_an_entry_point_is_listed_in_the_help(env: dict[str, str]) -> None:
    proc = clubs(env, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "highcard (High Card: a toy trick game" in " ".join(proc.stdout.split())


def test_a_game_added_by_an_entry_point_is_played_against_its_heuristic_bot(env: dict[str, str]) -> None:
    # Every card of the pack, over and over: the screen refuses those not held or not following suit, and the
    # game goes on until the match is won.
    moves = "\n".join(["AC", "KC", "QC", "JC", "AH", "KH", "QH", "JH"] * 60) + "\n"
    proc = clubs(env, "play", "highcard-short", "--seed", "4", stdin=moves)
    assert proc.returncode == 0, proc.stderr
    assert "High Card" in proc.stdout
    # a game with no words of its own is told in the words every game shares, as the page tells it
    assert "Hand 1 is dealt by " in proc.stdout and "\nThe match is over: " in proc.stdout


def test_a_game_added_by_an_entry_point_is_watched_saved_and_replayed(env: dict[str, str], tmp_path: Path) -> None:
    record = tmp_path / "toy.json"
    proc = clubs(env, "watch", "highcard", "--seed", "7", "--save", str(record))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["game"] == "highcard" and data["result"]["over"]
    replayed = clubs(env, "replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith("High Card: highcard") and "winner: seat" in replayed.stdout
    as_json = clubs(env, "replay", str(record), "--json")
    assert json.loads(as_json.stdout)["winners"] == data["result"]["winners"]


def test_a_game_added_by_an_entry_point_is_simulated(env: dict[str, str]) -> None:
    proc = clubs(env, "simulate", "highcard", "--bots", "heuristic,random", "--matches", "4", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["matches"] == 4 and [b["bot"] for b in result["bots"]] == ["heuristic", "random"]


def test_a_game_without_a_balance_report_refuses_report_and_still_draws_its_page(
    env: dict[str, str], tmp_path: Path
) -> None:
    proc = clubs(env, "simulate", "highcard", "--matches", "2", "--report")
    assert proc.returncode == 2
    assert "the balance report exists for" in proc.stderr and "not for 'highcard'" in proc.stderr
    page = tmp_path / "highcard.html"
    proc = clubs(env, "simulate", "highcard", "--matches", "4", "--html", str(page))
    assert proc.returncode == 0, proc.stderr
    assert page.read_text(encoding="utf-8").count("<svg") == 3  # the plots every game has; no report's own


def test_a_broken_game_package_is_named_and_the_others_still_play(env: dict[str, str], tmp_path: Path) -> None:
    site = tmp_path / "broken"
    info = site / "broken_game-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[clubsuite.games]\nbroken = no_such_module\n", encoding="utf-8")
    broken = dict(env, PYTHONPATH=os.pathsep.join([str(site), env["PYTHONPATH"]]))
    proc = clubs(broken, "simulate", "nosuchgame")
    assert proc.returncode == 2
    assert "no_such_module" in proc.stderr and "Traceback" not in proc.stderr
    assert clubs(broken, "simulate", "highcard", "--matches", "2").returncode == 0


def test_a_game_added_by_an_entry_point_passes_the_conformance_suite(env: dict[str, str]) -> None:
    # The suite every registered game must pass (random play, legal actions against explain, atomic apply, clones,
    # determinize, twin deals, record round trips), run in a fresh interpreter that finds the toy game by its entry
    # point, and restricted to the toy game's cases.
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(TESTS / "conformance"),
            "-k",
            "highcard",
            "-q",
            "-o",
            "addopts=",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=TESTS.parent,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    summary = proc.stdout.strip().splitlines()[-1]
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 20 and "failed" not in summary and "error" not in summary, summary
