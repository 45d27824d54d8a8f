"""What a command loads before it can answer: ``clubs play`` with bots that need no learning library starts without
numpy (the learned bot's policies and the games' observation coding import it where a vector is first made), a
quarter of a second sooner on a slow machine."""

from __future__ import annotations

import subprocess
import sys

LOADED_AT_EXIT = """
import atexit, sys
atexit.register(lambda: print("numpy" in sys.modules, file=sys.stderr))
from clubsuite.cli.main import main
sys.argv = ["clubs", *sys.argv[1:]]
main()
"""
"""Run ``clubs`` with the given arguments; at its exit, say on standard error whether numpy was loaded."""


def numpy_loaded(*args: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", LOADED_AT_EXIT, *args], input=b"q\n", capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stderr.decode().strip().splitlines()[-1] == "True"


def test_playing_against_random_and_heuristic_bots_never_loads_numpy() -> None:
    assert not numpy_loaded("play", "whist", "--seed", "4", "--bots", "random")
    assert not numpy_loaded("play", "northstar", "--seed", "4", "--bots", "heuristic")


def test_the_learned_bot_loads_it_when_it_plays() -> None:
    # the check above can fail: a learned bot's first decision does load numpy
    assert numpy_loaded("watch", "whist", "--seed", "4", "--bots", "learned")
