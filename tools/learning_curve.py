"""The learning curves of docs/learning.md: for each environment, the policy trained on the heuristic bot's positions
alone, then on more and more of ``expert``'s (from that start, as tools/train_policies.py trains the imitation
policy), then (the shipped policy) PPO from there, each played by ``clubs evaluate`` against ``heuristic`` (and the
last two against ``hard`` too). Every network and
evaluation is kept under ``bench/learning/`` (``runs/`` for the networks, ``curve/`` for the evaluations' JSON); one
that is there is not made again, so the script can be stopped and started again. Then the table is written between
the page's markers.

    python tools/learning_curve.py --workers 2       # what is missing, then the table
    python tools/learning_curve.py --table-only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import subprocess
import sys
from pathlib import Path

from train_policies import DATA, EPOCHS, HIDDEN, PLAN, RUNS, SEED, SHIPPED, before_ppo, imitated

ROOT = Path(__file__).resolve().parents[1]
CURVE = Path("bench/learning/curve")
PAGE = ROOT / "docs" / "learning.md"
RESEARCH = ROOT / "docs" / "research.md"
"""The page for researchers, which shows the shipped policies' summary too."""
BEGIN, END = "<!-- learning-curve:begin -->", "<!-- learning-curve:end -->"
FRACTIONS = (8, 4, 2, 1)
"""The curve's points: the first 1/8, 1/4, 1/2 and all of the expert's games."""
DEALS = {"heuristic": 200, "hard": 100}
SHIPPED_DEALS = {"heuristic": 1000, "hard": 1000}
"""The shipped policy's evaluations: 1,000 deals against each level, so that an interval says whether it matches
it; whist's against ``hard`` 200 (a deal is a whole match there, some 13 CPU minutes for 200 against ``hard``)."""
SHIPPED_HARD_DEALS = {"clubs_whist-v1": 200}


def clubs(*args: str, out: Path | None = None) -> None:
    command = [str(Path(sys.executable).parent / "clubs"), *args]
    print("$ clubs " + shlex.join(args), flush=True)
    done = subprocess.run(command, check=True, cwd=ROOT, capture_output=out is not None, text=True)
    if out is not None:
        (ROOT / out).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / out).write_text(done.stdout, encoding="utf-8")


def points(env: str) -> list[tuple[int, Path]]:
    """(expert games, network) of each point; 0 games: the heuristic bot's lesson alone; all of them: the network
    tools/train_policies.py trains with the same command (the imitation policy); then, where PLAN has a DAgger
    round, its network; last, the shipped policy (PPO from the one before)."""
    total = PLAN[env]["expert"]
    out = [(0, RUNS / f"{env}-heuristic.npz")]
    for part in FRACTIONS:
        games = total // part
        out.append((games, imitated(env) if part == 1 else RUNS / f"{env}-expert-{games}.npz"))
    if PLAN[env]["dagger"]:
        out.append((total, before_ppo(env)))
    out.append((total, SHIPPED / f"{env}.npz"))
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256((ROOT / path).read_bytes()).hexdigest()


def fresh(kept: Path, net: Path, deals: int) -> bool:
    """Whether the evaluation kept at ``kept`` is of the network now at ``net``, over ``deals`` deals (a policy
    trained again, or shipped anew, or asked for over other deals, is evaluated again)."""
    if not (ROOT / kept).exists():
        return False
    data = json.loads((ROOT / kept).read_text(encoding="utf-8"))
    return bool(data["agent"].get("sha256") == sha256(net) and data["deals"]["played"] == deals)


def make(env: str, workers: int) -> None:
    """Train and evaluate every point of ``env`` that is not kept yet."""
    start = RUNS / f"{env}-heuristic.npz"
    for games, net in points(env):
        made_elsewhere = net == SHIPPED / f"{env}.npz" or (PLAN[env]["dagger"] and net == before_ppo(env))
        if games and not (ROOT / net).exists() and not made_elsewhere:  # those by tools/train_policies.py
            clubs(
                "learn", "train", env, "--teacher", "expert", "--init", str(start), "--data", str(DATA),
                "--hidden", HIDDEN, "--epochs", str(EPOCHS["expert"]), "--seed", str(SEED), "--games", str(games),
                "--out", str(net),
            )  # fmt: skip
        if not (ROOT / net).exists():
            continue
        shipped = net == SHIPPED / f"{env}.npz"
        levels = ("heuristic", "hard") if shipped or net == before_ppo(env) else ("heuristic",)
        for level in levels:
            kept = CURVE / f"{net.stem}-vs-{level}.json"
            deals = (SHIPPED_DEALS if shipped else DEALS)[level]
            if shipped and level == "hard":
                deals = SHIPPED_HARD_DEALS.get(env, deals)
            if not fresh(kept, net, deals):
                clubs(
                    "evaluate", str(net), "--against", level, "--game", env, "--deals", str(deals),
                    "--workers", str(workers), "--json", out=kept,
                )  # fmt: skip


def row(env: str, games: int, net: Path) -> str | None:
    """One line of the table, or None where the point is not made yet."""
    evaluation = ROOT / CURVE / f"{net.stem}-vs-heuristic.json"
    record_path = (ROOT / net).with_suffix(".json")
    if not evaluation.exists() or not record_path.exists():
        return None
    record = json.loads(record_path.read_text(encoding="utf-8"))
    ppo = record.get("method") == "ppo"
    steps = record["ids"] if ppo else record["steps"]["train"]
    cpu = record["cpu_seconds"] if ppo else record["epochs"][-1]["seconds"]
    if games:
        first = json.loads((ROOT / RUNS / f"{env}-heuristic.json").read_text(encoding="utf-8"))
        cpu += first["epochs"][-1]["seconds"]
    if ppo:
        start = json.loads((ROOT / before_ppo(env)).with_suffix(".json").read_text(encoding="utf-8"))
        cpu += start["epochs"][-1]["seconds"]
    cells = []
    for level in ("heuristic", "hard"):
        path = ROOT / CURVE / f"{net.stem}-vs-{level}.json"
        if not path.exists():
            cells.append("")
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        mean, (low, high) = data["result"]["mean"], data["result"]["ci95"]
        cells.append(f"{mean:+.3f} ({low:+.3f} to {high:+.3f}), {data['deals']['played']:,} deals")
    agree = "" if ppo else f"{100 * record['epochs'][-1]['val_agree']:.1f}%"
    teacher = f"{games:,} games of `expert`" if games else "the heuristic bot alone"
    if games and "--played-by" in record["command"]:
        teacher += f" and {PLAN[env]['dagger']:,} of its own play, labelled by `expert` (DAgger)"
    if ppo:
        teacher = f"then PPO against `heuristic`, {record['episodes']:,} {unit(env)} (shipped)"
    return f"| `{env}` | {teacher} | {steps:,} | {cpu / 60:.1f} min | {agree} | {cells[0]} | {cells[1]} |"


def unit(env: str) -> str:
    """What one of the environment's episodes is."""
    return "matches" if env == "clubs_whist-v1" else "hands"


def table() -> str:
    rows = [
        BEGIN,
        "",
        "| environment | taught by | steps trained on | training CPU | agrees with its teacher (held out) "
        "| against `heuristic` (95%) | against `hard` (95%) |",
        "|---|---|---|---|---|---|---|",
    ]
    for env in PLAN:
        for games, net in points(env):
            line = row(env, games, net)
            if line is not None:
                rows.append(line)
    return "\n".join([*rows, "", END])


SUMMARY = ("<!-- learned-summary:begin -->", "<!-- learned-summary:end -->")
POOLS = {
    "clubs_whist-v1": "whist",
    "clubs_free-v1": "free",
    "clubs_partnership-v1": "partnership",
    "clubs_northstar-4p-v1": "northstar-4p",
}
"""The rating pool each environment's calibration is kept under (``bench/learning/calibrate/<pool>.json``)."""
CALIBRATE = Path("bench/learning/calibrate")


def summary() -> str:
    """The shipped policies: strength against both levels; CPU a decision of ``learned`` and ``heuristic`` in the run
    against ``heuristic``, of ``hard`` in the run against it, each level's share measured in its own run; calibrated
    rating."""
    rows = [
        SUMMARY[0],
        "",
        "| environment | against `heuristic` (95%) | against `hard` (95%) | CPU a decision: `learned` | `heuristic` "
        "| `hard` | `learned` / `heuristic` | `learned` / `hard` | calibrated rating: `learned` | `normal` | `hard` |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for env in PLAN:
        stem = f"{env}"
        runs = {}
        for level in ("heuristic", "hard"):
            path = ROOT / CURVE / f"{stem}-vs-{level}.json"
            runs[level] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        if runs["heuristic"] is None or runs["hard"] is None:
            continue
        cells = []
        for level in ("heuristic", "hard"):
            result = runs[level]["result"]
            low, high = result["ci95"]
            cells.append(f"{result['mean']:+.3f} ({low:+.3f} to {high:+.3f}), {runs[level]['deals']['played']:,} deals")
        mine, heuristic = runs["heuristic"]["cpu"]["agent"], runs["heuristic"]["cpu"]["against"]
        in_hard, hard = runs["hard"]["cpu"]["agent"], runs["hard"]["cpu"]["against"]
        rating = ["", "", ""]
        calibration = ROOT / CALIBRATE / f"{POOLS[env]}.json"
        if calibration.exists():
            levels = json.loads(calibration.read_text(encoding="utf-8"))["levels"]
            rating = [
                f"{levels[n]['shown']}" + (f" ({levels[n]['low']} to {levels[n]['high']})" if n != "normal" else "")
                for n in ("learned", "normal", "hard")
            ]
        rows.append(
            f"| `{env}` | {cells[0]} | {cells[1]} | {ms(mine)} | {ms(heuristic)} | {ms(hard)} "
            f"| {mine['cpu_ms_mean'] / heuristic['cpu_ms_mean']:.2f} "
            f"| {100 * in_hard['cpu_ms_mean'] / hard['cpu_ms_mean']:.1f}% | " + " | ".join(rating) + " |"
        )
    return "\n".join([*rows, "", SUMMARY[1]])


def ms(cpu: dict[str, float]) -> str:
    """A side's CPU a decision in a run: the mean, and the 95th percentile in parentheses."""
    return f"{cpu['cpu_ms_mean']:.2f} ms ({cpu['cpu_ms_p95']:.2f})"


def write(text: str, markers: tuple[str, str], block: str) -> str:
    """``text`` with ``block`` between ``markers``."""
    head, rest = text.split(markers[0], 1)
    _, tail = rest.split(markers[1], 1)
    return head + block + tail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("envs", nargs="*", default=list(PLAN))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    if not args.table_only:
        for env in args.envs:
            make(env, args.workers)
    text = write(PAGE.read_text(encoding="utf-8"), (BEGIN, END), table())
    PAGE.write_text(write(text, SUMMARY, summary()), encoding="utf-8")
    RESEARCH.write_text(write(RESEARCH.read_text(encoding="utf-8"), SUMMARY, summary()), encoding="utf-8")


if __name__ == "__main__":
    main()
