"""The reference results of docs/benchmark.md: each run of RUNS played by ``clubs evaluate --out`` (its JSON kept in
``bench/benchmark/ENV-AGENT.json.gz``, every deal's result and the hash of its actions included, so that another
lab can pair its own run with it deal by deal: ``clubs evaluate compare``; a run whose file is there is not played
again, so the script can be stopped and started again), then the table written between the page's markers.

    python tools/benchmark_table.py --workers 2      # play what is missing, then write the table
    python tools/benchmark_table.py --table-only     # only write the table from the kept files
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / "bench" / "benchmark"
PAGE = ROOT / "docs" / "benchmark.md"
RESEARCH = ROOT / "docs" / "research.md"
BEGIN, END = "<!-- benchmark-table:begin -->", "<!-- benchmark-table:end -->"
AGAINST = "heuristic"
ENVS = ("clubs_whist-v1", "clubs_free-v1", "clubs_partnership-v1", "clubs_northstar-4p-v1")
RUNS = [
    (env, agent, deals, against)
    for env in ENVS
    for agent, deals, against in (
        ("random", 100, AGAINST),
        ("learned", 200, AGAINST),
        ("hard", 60, AGAINST),
        ("expert", 30, AGAINST),
    )
]
"""(environment, agent, deals, level): every agent against ``heuristic`` (the learned bot against ``hard`` is in
docs/learning.md, with its learning curve)."""


def kept(env: str, agent: str, against: str = AGAINST) -> Path:
    return KEPT / (f"{env}-{agent}.json.gz" if against == AGAINST else f"{env}-{agent}-vs-{against}.json.gz")


def read(path: Path) -> dict[str, Any]:
    """A kept run's JSON (its deals included)."""
    data: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
    return data


def current(env: str, agent: str, against: str = AGAINST) -> bool:
    """Whether the run is kept and of the agent as it now is: a run of the ``learned`` bot names the SHA-256 of the
    policy it played, and one of a policy shipped anew since is played again."""
    path = kept(env, agent, against)
    if not path.exists():
        return False
    if agent != "learned":
        return True
    policy = ROOT / "src" / "clubsuite" / "bots" / "policies" / f"{env}.npz"
    said = read(path)["agent"].get("sha256")
    return bool(said == hashlib.sha256(policy.read_bytes()).hexdigest())


def play(env: str, agent: str, deals: int, against: str, workers: int) -> None:
    """Play one run with ``clubs evaluate --out`` and keep its file (written whole under a passing name first)."""
    clubs = Path(sys.executable).parent / "clubs"
    args = [str(clubs), "evaluate", agent, "--against", against, "--game", env, "--deals", str(deals)]
    KEPT.mkdir(parents=True, exist_ok=True)
    path = kept(env, agent, against)
    partial = path.with_name(path.name.replace(".json.gz", ".partial.json.gz"))
    resume = ["--resume"] if partial.exists() else []
    subprocess.run([*args, "--workers", str(workers), "--out", str(partial), *resume], check=True)
    partial.replace(path)


def table() -> str:
    """The table of every kept run, in the order of RUNS."""
    rows = [
        BEGIN,
        "",
        "| environment | agent | against | deals | over the other sides (95%) | its side's score "
        "| CPU a decision, mean (95th percentile) | command |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for env, agent, _, against in RUNS:
        path = kept(env, agent, against)
        if not path.exists():
            continue
        data = read(path)
        result, cpu = data["result"], data["cpu"]["agent"]
        low, high = result["ci95"]
        unit = " of a match" if data["episode"] == "match" else " points a hand"
        rows.append(
            f"| `{env}` | `{agent}` | `{against}` | {data['deals']['played']} "
            f"| {result['mean']:+.3f} ({low:+.3f} to {high:+.3f})"
            f"{unit} | {data['agent_score']['mean']:+.3f} | {cpu['cpu_ms_mean']:.2f} ms ({cpu['cpu_ms_p95']:.2f}) "
            f"| `{data['command']}` |"
        )
    rows += ["", END]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1, help="processes for each run (the table's were made with 1)")
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    if not args.table_only:
        for env, agent, deals, against in RUNS:
            if not current(env, agent, against):
                print(f"playing {agent} against {against} on {env}, {deals} deals", file=sys.stderr)
                play(env, agent, deals, against, args.workers)
    for page in (PAGE, RESEARCH):  # the table is on both pages
        text = page.read_text(encoding="utf-8")
        start, stop = text.index(BEGIN), text.index(END) + len(END)
        page.write_text(text[:start] + table() + text[stop:], encoding="utf-8")


if __name__ == "__main__":
    main()
