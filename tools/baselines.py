"""The learning baselines of docs/research.md: PPO with action masks and Deep Monte-Carlo in self-play
(``clubsuite.learning.baselines``), several seeds each, within a declared budget of CPU time, each run's network
measured by ``clubs evaluate`` against ``heuristic`` on the benchmark's deals at every checkpoint; then the table of
the curves, the mean over seeds with its 95% interval, written between the page's markers.

    python tools/baselines.py --workers 2                    # play the runs not kept yet, then write the table
    python tools/baselines.py --table-only                   # only write the table from the kept runs
    python tools/baselines.py --budget 60 --seeds 0 1 2 3 4  # a longer budget (CPU minutes) and more seeds

Each run is one process with one BLAS thread (``OPENBLAS_NUM_THREADS=1``): its budget is one core's CPU time,
counted by the process itself, evaluations apart (run in their own process and reported beside). A run's JSON is
kept under ``bench/baselines/`` (its checkpoints' weights files beside it, not in the repository); a run whose JSON
is complete is not played again, so the script can be stopped and started again (a run stopped midway starts
afresh).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / "bench" / "baselines"
PAGE = ROOT / "docs" / "research.md"
BEGIN, END = "<!-- baselines:begin -->", "<!-- baselines:end -->"
ALGOS = ("ppo", "dmc", "bc-ppo")
LABELS = {"ppo": "PPO", "dmc": "DMC", "bc-ppo": "PPO from the imitation policy"}

ENVS = ("clubs_whist-v1", "clubs_northstar-4p-v1")
CHECKPOINTS = (0.25, 0.5, 1.0)
"""The fractions of the budget at which a run's network is measured."""
T95 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}
"""Student's t at 97.5% for n seeds (n - 1 degrees of freedom)."""


def kept(env: str, algo: str, seed: int, budget: float) -> Path:
    return KEPT / f"{env}-{algo}-{budget:g}min-seed{seed}.json"


def evaluate(weights: Path, env: str, deals: int) -> dict[str, object]:
    """``clubs evaluate`` of a weights file against ``heuristic`` on the environment's first ``deals`` deals."""
    clubs = Path(sys.executable).parent / "clubs"
    where = str(weights.relative_to(ROOT))  # run from the repository: the command kept names no folder of a machine
    args = [str(clubs), "evaluate", where, "--against", "heuristic", "--game", env, "--deals", str(deals)]
    done = subprocess.run([*args, "--json"], capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def run(env: str, algo: str, seed: int, budget: float, deals: int) -> Path:
    """Train one run to each checkpoint of ``budget`` CPU minutes, measuring its network at each; keep its JSON."""
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    from clubsuite.bots.policy import write_policy
    from clubsuite.learning.baselines import Dmc, Ppo, PpoSettings, train_for

    if algo == "bc-ppo":  # the shipped policies' last step (tools/train_policies.py), from the same start
        from train_policies import PPO, before_ppo

        given = dict(zip(PPO[::2], PPO[1::2], strict=True))
        start = ROOT / before_ppo(env)
        settings = PpoSettings(
            init=str(start), warmup=int(given["--warmup"]), lr=float(given["--lr"]), entropy=float(given["--entropy"])
        )
        learner: Ppo | Dmc = Ppo(env, seed, settings)
    else:
        learner = Ppo(env, seed) if algo == "ppo" else Dmc(env, seed)
    points = []
    spent = 0.0
    wall = time.perf_counter()
    for fraction in CHECKPOINTS:
        spent += train_for(learner, budget * 60 * fraction - spent)
        weights = KEPT / "weights" / f"{env}-{algo}-{budget:g}min-seed{seed}-{fraction:g}.npz"
        weights.parent.mkdir(parents=True, exist_ok=True)
        write_policy(weights, env, learner.layers())
        measured = evaluate(weights, env, deals)
        recent = learner.returns[-500:]
        points.append(
            {
                "cpu_seconds": round(spent, 1),
                "ids_trained": learner.steps,
                "episodes": len(learner.returns),
                "training_return": sum(recent) / len(recent) if recent else None,
                "result": measured["result"],
                "agent_cpu": measured["cpu"],
                "evaluation": measured["command"],
            }
        )
    record = {
        "env": env,
        "algo": algo,
        "seed": seed,
        "budget_cpu_minutes": budget,
        "settings": shown_settings(learner),
        "deals": deals,
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "command": f"python tools/baselines.py --budget {budget:g} --seeds {seed} --algos {algo} --envs {env}",
        "points": points,
    }
    path = kept(env, algo, seed, budget)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path


def shown_settings(learner: object) -> dict[str, object]:
    """A learner's settings as a kept run names them: a start's file from the repository's root, no machine's
    folder."""
    settings: dict[str, object] = dataclasses.asdict(learner.s)  # type: ignore[attr-defined]
    if settings.get("init"):
        settings["init"] = str(Path(str(settings["init"])).relative_to(ROOT))
    return settings


def budgets(env: str, algo: str) -> list[float]:
    """The budgets (CPU minutes) of the kept runs of ``algo`` on ``env``, smallest first."""
    found = {json.loads(p.read_text(encoding="utf-8"))["budget_cpu_minutes"] for p in KEPT.glob(f"{env}-{algo}-*.json")}
    return sorted(found)


def table() -> str:
    """The curves of every kept run: for each budget, at each checkpoint, each seed's result and the mean over seeds
    with its 95% t-interval (seeds are the independent results)."""
    rows = [
        BEGIN,
        "",
        "| environment | algorithm | budget (CPU minutes) | at | seeds "
        "| result against `heuristic`, mean over seeds (95%) | each seed | ids trained (mean) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for env in ENVS:
        for algo in ALGOS:
            for budget in budgets(env, algo):
                runs = [
                    json.loads(path.read_text(encoding="utf-8"))
                    for path in sorted(KEPT.glob(f"{env}-{algo}-{budget:g}min-seed*.json"))
                ]
                for k, fraction in enumerate(CHECKPOINTS):
                    means = [r["points"][k]["result"]["mean"] for r in runs]
                    n = len(means)
                    mean = sum(means) / n
                    sd = math.sqrt(sum((m - mean) ** 2 for m in means) / (n - 1)) if n > 1 else float("nan")
                    half = T95.get(n, 1.96) * sd / math.sqrt(n) if n > 1 else float("nan")
                    ids = sum(r["points"][k]["ids_trained"] for r in runs) / n
                    rows.append(
                        f"| `{env}` | {LABELS[algo]} | {budget:g} | {budget * fraction:g} | {n} | {mean:+.3f} "
                        f"({mean - half:+.3f} to {mean + half:+.3f}) | {', '.join(f'{m:+.3f}' for m in means)} "
                        f"| {ids:,.0f} |"
                    )
    rows += ["", END]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=6.0, help="CPU minutes a run (default 6)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--algos", nargs="+", choices=ALGOS, default=list(ALGOS))
    parser.add_argument("--envs", nargs="+", default=list(ENVS))
    parser.add_argument("--deals", type=int, default=200, help="deals of each evaluation (default 200)")
    parser.add_argument("--workers", type=int, default=1, help="runs side by side (each one core)")
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    if args.budget <= 0 or args.deals < 1 or args.workers < 1:
        parser.error("--budget, --deals and --workers: positive numbers")
    if not args.table_only:
        KEPT.mkdir(parents=True, exist_ok=True)
        for env in args.envs if "bc-ppo" in args.algos else ():
            from train_policies import before_ppo

            if not (ROOT / before_ppo(env)).exists():
                parser.error(f"bc-ppo on {env}: make its imitation policy first (python tools/train_policies.py {env})")
        todo = [
            (env, algo, seed, args.budget, args.deals)
            for env in args.envs
            for algo in args.algos
            for seed in args.seeds
            if not kept(env, algo, seed, args.budget).exists()
        ]
        with ProcessPoolExecutor(args.workers) as pool:
            for path in pool.map(run, *zip(*todo, strict=True)) if todo else ():
                print(f"kept {path.relative_to(ROOT)}", file=sys.stderr)
    text = PAGE.read_text(encoding="utf-8")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    PAGE.write_text(text[:start] + table() + text[stop:], encoding="utf-8")


if __name__ == "__main__":
    main()
