"""The declared trial of a ``master`` level (docs/bots.md, "Towards master"): the inference-weighted search, at the
CPU ``expert`` spends a decision, against ``expert`` on each benchmark environment's first 400 deals, every deal from
every side. Each evaluation is kept in ``bench/master/<environment>.json.gz`` and written as its deals are done, so the
script can be stopped and started again: it takes up every evaluation where it stopped (``clubs evaluate
--resume``). Then the table is written between the page's markers.

    python tools/master_trial.py --workers 2        # play what is missing, then the table
    python tools/master_trial.py --table-only
    python tools/master_trial.py --only clubs_northstar-4p-v1

The candidates were set before any deal was played, each to cost what ``expert`` costs a decision on the same
positions (``python bench/cost.py GAME expert CANDIDATE --hands 2``; the figures are in docs/bots.md).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEPT = Path("bench/master")
PAGE = ROOT / "docs" / "bots.md"
BEGIN, END = "<!-- master-trial:begin -->", "<!-- master-trial:end -->"
DEALS = 400
LEVEL = "expert"
CANDIDATES = {
    "clubs_northstar-4p-v1": "pimc(samples=16,ms=30000,infer=10,model=learned,pool=2,window=4)",
    "clubs_whist-v1": "pimc(samples=16,ms=30000,infer=10,model=learned,pool=2,window=4)",
    "clubs_free-v1": "pimc(samples=16,ms=30000,infer=10,model=learned,pool=2,window=4)",
    "clubs_partnership-v1": "pimc(samples=9,ms=30000,infer=10,model=learned,pool=2,window=4)",
}
"""Each environment's candidate, in the order they are played (North Star's CLUBS first: the rule needs a win
there)."""


def command(env: str) -> list[str]:
    """The evaluation of ``env``'s candidate, as ``clubs`` arguments."""
    return ["evaluate", CANDIDATES[env], "--against", LEVEL, "--game", env, "--deals", str(DEALS)]


def play(env: str, workers: int) -> None:
    """Play (or take up) the evaluation of ``env``."""
    args = [*command(env), "--workers", str(workers), "--out", str(KEPT / f"{env}.json.gz"), "--resume", "--progress"]
    print("$ clubs " + shlex.join(args), flush=True)
    (ROOT / KEPT).mkdir(parents=True, exist_ok=True)
    subprocess.run([str(Path(sys.executable).parent / "clubs"), *args], check=True, cwd=ROOT)


def row(env: str) -> str:
    """One line of the table: as far as the kept evaluation has gone."""
    path = ROOT / KEPT / f"{env}.json.gz"
    if not path.exists():
        return f"| `{env}` | `{CANDIDATES[env]}` | 0 of {DEALS} | | | | `clubs {shlex.join(command(env))}` |"
    data = json.loads(gzip.decompress(path.read_bytes()))
    result, cpu = data["result"], data["cpu"]
    low, high = result["ci95"] if result["ci95"] else (float("nan"), float("nan"))
    unit = "of a match" if data["episode"] == "match" else "points a hand"
    return (
        f"| `{env}` | `{CANDIDATES[env]}` | {data['deals']['played']} of {DEALS} | {result['mean']:+.3f} "
        f"({low:+.3f} to {high:+.3f}) {unit} | {cpu['agent']['cpu_ms_mean']:.1f} | {cpu['against']['cpu_ms_mean']:.1f}"
        f" | `clubs {shlex.join(command(env))}` |"
    )


def table() -> None:
    """Write the table between the markers of docs/bots.md and docs/research.md."""
    lines = [
        "| environment | candidate | deals | against `expert` (95% interval) | CPU ms a decision | `expert`'s |"
        " command |",
        "|---|---|---|---|---|---|---|",
        *(row(env) for env in CANDIDATES),
    ]
    for page in (PAGE, ROOT / "docs" / "research.md"):  # the table is on both pages
        text = page.read_text(encoding="utf-8")
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        page.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=1, help="processes for each evaluation")
    parser.add_argument("--only", choices=sorted(CANDIDATES), help="play this environment's evaluation alone")
    parser.add_argument("--table-only", action="store_true", help="write the table from what is kept")
    args = parser.parse_args()
    if not args.table_only:
        for env in [args.only] if args.only else list(CANDIDATES):
            play(env, args.workers)
    table()


if __name__ == "__main__":
    main()
