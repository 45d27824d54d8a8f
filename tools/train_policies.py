"""Train the shipped policies of the ``learned`` bot (docs/learning.md), every step a ``clubs learn`` command, each
skipped where its output is already there: stopped at any point, the script goes on where it stopped.

For each environment of PLAN: positions labelled by the heuristic bot (cheap: a first lesson in what the game
asks), positions labelled by ``expert`` (its search's values of every candidate), a network trained on the first,
then trained on the second from there (the imitation policy). Where PLAN gives ``dagger`` games, one round of DAgger
follows: that network plays the tables while ``expert`` labels every decision, and the network is trained again
from the first lesson on ``expert``'s own games and these together. Last, PPO against the heuristic bot, started
from the network so far, for PLAN's ``ppo`` iterations. The result is shipped as
``src/clubsuite/bots/policies/<env>.npz`` with its training record beside it; the networks on the way are kept
under ``bench/learning/runs/`` (their records in the repository, the networks not).

    python tools/train_policies.py --workers 2                   # every environment of PLAN
    python tools/train_policies.py --workers 2 clubs_free-v1     # one
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = Path("bench/learning/runs")
SHIPPED = Path("src/clubsuite/bots/policies")
DATA = Path(".positions")
"""Paths from the repository's root (the commands run there, and their records name these)."""

PLAN: dict[str, dict[str, int]] = {
    "clubs_whist-v1": {"heuristic": 1500, "expert": 60, "dagger": 0, "ppo": 4000},
    "clubs_free-v1": {"heuristic": 10000, "expert": 1040, "dagger": 0, "ppo": 3000},
    "clubs_partnership-v1": {"heuristic": 5000, "expert": 300, "dagger": 0, "ppo": 3000},
    "clubs_northstar-4p-v1": {"heuristic": 6000, "expert": 300, "dagger": 0, "ppo": 6000},
}
"""Games of positions by teacher, per environment (a whist game is a whole match), the games of the DAgger round
(0: none), at most as many as ``expert``'s, and the iterations of PPO (each 64 tables played 64 steps)."""
HIDDEN = "256,128"
EPOCHS = {"heuristic": 8, "expert": 12}
SEED = 1
PPO = ("--warmup", "20", "--lr", "1e-4", "--entropy", "0.001", "--opponents", "heuristic")
"""PPO's settings from a policy already trained: a smaller step and entropy bonus than from random weights (the
policy is already sure of most of its choices), the value network taught alone for its first iterations."""


def clubs(*args: str) -> None:
    """Run one ``clubs`` command, said first."""
    command = [str(Path(sys.executable).parent / "clubs"), *args]
    print("$ clubs " + shlex.join(args), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)


def train(env: str, workers: int) -> None:
    """Every step of one environment (see the module docstring)."""
    plan = PLAN[env]
    for teacher in ("heuristic", "expert"):
        games = plan[teacher]
        per_shard = "500" if teacher == "heuristic" else "10"
        clubs(
            "learn", "positions", env, "--teacher", teacher, "--games", str(games), "--data", str(DATA),
            "--per-shard", per_shard, "--workers", str(workers),
        )  # fmt: skip
    first = RUNS / f"{env}-heuristic.npz"
    if not (ROOT / first).exists():
        clubs(
            "learn", "train", env, "--teacher", "heuristic", "--data", str(DATA), "--games", str(plan["heuristic"]),
            "--hidden", HIDDEN, "--epochs", str(EPOCHS["heuristic"]), "--seed", str(SEED), "--out", str(first),
        )  # fmt: skip
    shipped = SHIPPED / f"{env}.npz"
    imitation = imitated(env)
    if not (ROOT / imitation).exists():
        clubs(
            "learn", "train", env, "--teacher", "expert", "--init", str(first), "--data", str(DATA),
            "--games", str(plan["expert"]), "--hidden", HIDDEN, "--epochs", str(EPOCHS["expert"]), "--seed", str(SEED),
            "--out", str(imitation),
        )  # fmt: skip
    if plan["dagger"]:
        clubs(
            "learn", "positions", env, "--teacher", "expert", "--player", str(imitation), "--games",
            str(plan["dagger"]), "--data", str(DATA), "--per-shard", "10", "--workers", str(workers),
        )  # fmt: skip
        if not (ROOT / before_ppo(env)).exists():
            clubs(
                "learn", "train", env, "--teacher", "expert", "--played-by", str(imitation), "--init", str(first),
                "--data", str(DATA), "--games", str(plan["expert"]), "--hidden", HIDDEN, "--epochs",
                str(EPOCHS["expert"]), "--seed", str(SEED), "--out", str(before_ppo(env)),
            )  # fmt: skip
    if not (ROOT / shipped).exists():
        clubs(
            "learn", "ppo", env, "--init", str(before_ppo(env)), "--iterations", str(plan["ppo"]), *PPO,
            "--hidden", HIDDEN, "--seed", str(SEED), "--out", str(shipped),
        )  # fmt: skip


def imitated(env: str) -> Path:
    """The network trained on the heuristic bot's lesson and ``expert``'s games."""
    return RUNS / f"{env}-expert.npz"


def before_ppo(env: str) -> Path:
    """The network PPO starts from: the imitation policy, or the DAgger round's where PLAN gives one."""
    return RUNS / f"{env}-dagger.npz" if PLAN[env]["dagger"] else imitated(env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("envs", nargs="*", default=list(PLAN), help="environments of PLAN (default: all)")
    parser.add_argument("--workers", type=int, default=1, help="processes for the expert's positions")
    args = parser.parse_args()
    for env in args.envs:
        if env not in PLAN:
            parser.error(f"{env}: not in PLAN ({', '.join(PLAN)})")
        train(env, args.workers)


if __name__ == "__main__":
    main()
