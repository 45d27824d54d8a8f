"""The dataset of ``expert`` games for offline learning (docs/learning.md, "The dataset"): made by ``clubs learn
positions`` with ``expert`` labelling and playing every seat, every decision kept with the search's values, and
each file's content checked against the SHA-256 pinned in ``bench/datasets/expert.json``.

    python tools/expert_dataset.py                      # make the shipped sample again and check it
    python tools/expert_dataset.py --games 300 --data .positions --workers 2   # a larger set, its hashes printed
    python tools/expert_dataset.py --pin                # write the sample's hashes (after a deliberate change)

The sample (``bench/datasets/sample/``, two games of each environment) is in the repository; a larger set is made
again by the same command with more ``--games`` (its files are not kept in the repository: a set of hundreds of games
takes tens of megabytes). A file's hash is that of its arrays (each entry's name, type, shape and numbers, in the
order of ``SHARD_ENTRIES``), not of its bytes: NumPy's archives carry the time they were written.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PINS = ROOT / "bench" / "datasets" / "expert.json"
SAMPLE = ROOT / "bench" / "datasets" / "sample"
ENVS = ("clubs_whist-v1", "clubs_free-v1", "clubs_partnership-v1", "clubs_northstar-4p-v1")
SAMPLE_GAMES = 2


def content_sha256(path: Path) -> str:
    """The SHA-256 of a file of positions' arrays (see the module docstring)."""
    from clubsuite.learning.positions import SHARD_ENTRIES

    digest = hashlib.sha256()
    with np.load(path, allow_pickle=False) as arrays:
        for name in SHARD_ENTRIES:
            if name not in arrays:
                continue
            array = np.ascontiguousarray(arrays[name])
            digest.update(f"{name}:{array.dtype.str}:{array.shape}\n".encode())
            digest.update(array.tobytes())
    return digest.hexdigest()


def make(env: str, games: int, data: Path, workers: int) -> list[Path]:
    """Make (or go on making) ``games`` games of ``env`` under ``data``; the files of its expert folder."""
    clubs = Path(sys.executable).parent / "clubs"
    args = [str(clubs), "learn", "positions", env, "--teacher", "expert", "--games", str(games), "--data", str(data)]
    per_shard = str(min(games, 10))
    subprocess.run([*args, "--per-shard", per_shard, "--workers", str(workers), "--no-progress"], check=True)
    return sorted((data / env / "expert").glob("games-*.npz"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=SAMPLE_GAMES, help=f"games a game (default {SAMPLE_GAMES})")
    parser.add_argument("--data", type=Path, default=SAMPLE, help="where the files go (default: the sample's folder)")
    parser.add_argument("--envs", nargs="+", default=list(ENVS))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pin", action="store_true", help="write the hashes found as the pinned ones")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers: at least 1")
    pins = json.loads(PINS.read_text(encoding="utf-8")) if PINS.exists() else {}
    found: dict[str, dict[str, str]] = {}
    for env in args.envs:
        files = make(env, args.games, args.data, args.workers)
        found[env] = {path.name: content_sha256(path) for path in files}
    key = f"{args.games} games"
    if args.pin:
        pins[key] = found
        PINS.parent.mkdir(parents=True, exist_ok=True)
        PINS.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"pinned the hashes of {key} in {PINS.relative_to(ROOT)}")
        return
    pinned = pins.get(key)
    for env, files in found.items():
        for name, digest in files.items():
            want = (pinned or {}).get(env, {}).get(name)
            verdict = "no pin" if want is None else "the pinned hash" if want == digest else f"NOT the pinned {want}"
            print(f"{env}/expert/{name}: {digest} ({verdict})")
    differ = [n for env in found for n, d in found[env].items() if (pinned or {}).get(env, {}).get(n) not in (None, d)]
    if differ:
        sys.exit(f"{len(differ)} file(s) differ from their pinned hash")


if __name__ == "__main__":
    main()
