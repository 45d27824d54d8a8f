#!/usr/bin/env bash
# The declared run "fitted objective against the formula, whist, 8 worlds" (docs/bots.md, "Towards master"):
# 2,400 duplicate matches in 40 parts of 60; a part already here is not played again, so the run resumes on any
# clone. `clubs merge bench/runs/fitted-whist/part-*.json --json` gives the result once all 40 are here.
# `run.sh down` takes the parts from the last: one runner each way keeps two cores busy (each part is deterministic,
# so a part both happen to play has the same outcomes).
set -euo pipefail
cd "$(dirname "$0")/../../.."
order=$(seq 1 40)
[ "${1:-}" = down ] && order=$(seq 40 -1 1)
for i in $order; do
  part="bench/runs/fitted-whist/part-$(printf %02d "$i")-of-40.json"
  [ -e "$part" ] && continue
  .venv/bin/clubs simulate whist --bots "pimc(samples=8,ms=10000,objective=fitted),hard,heuristic" \
    --matches 2400 --seed 62 --duplicate --timing --shard "$i/40" --out "$part.$$.partial"
  mv "$part.$$.partial" "$part"
done
