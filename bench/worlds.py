"""What more worlds, or worlds spent more cleverly, can still buy a ``pimc`` search: every budget judged on the same
decisions by worlds of its own.

Run as ``python bench/worlds.py GAME [--hands 8] [--every 2] [--worlds 512] [--seed 21] --save FILE`` to collect,
then ``python bench/worlds.py --judge FILE [--reps 16] [--json]`` to read what was collected.

**Collecting.** The heuristic bot plays ``--hands`` first hands of fresh matches (hand k dealt from the seed and k),
and at every ``--every``-th decision with a choice (turning with the hand, as ``bench/mistakes.py`` does) one large
search, ``pimc(samples=WORLDS,caution=0)``, values every candidate in every one of ``--worlds`` worlds (the
candidates ``expert`` would compare: all legal actions up to its width, else the heuristic's choice and a random
draw). What is kept per decision is the whole table: for each measure, a value per world and candidate. A hand is
saved as soon as it is done (``--save``, as ``bench/vs_openspiel.py`` saves deals), so a collection resumes.

**Judging.** The worlds of a decision are split in two halves that share nothing. The first half is the judge: a
candidate's value is its mean there (the best of its measures' means), and a choice's **loss** is the best
candidate's value less the chosen one's, in thousandths of a win. The second half is the pool a search draws its
worlds from: each search policy below is run ``--reps`` times per decision, each time on the pool's worlds in a new
random order, and its mean loss and mean cost are taken. The judge never sees the worlds a search saw, so a
search's luck is not counted as skill; the judge's own noise is shared by every policy, so the differences between
policies are fair (their standard errors are taken over decisions, paired with ``expert``).

**Cost** is counted in candidate play-outs: a world in which a search values C candidates costs C (one play-out
each), except where the exact solver values every card in one solve (one per world). ``expert`` (32 worlds, every
candidate) is the unit; CPU time is very nearly proportional to it, since play-outs are what a search spends its
time on.

The policies:

* ``uniform N``: N worlds, every candidate in every world, the choice with ``caution`` 100 (as every level makes it);
  ``expert`` is ``uniform 32``, ``hard`` ``uniform 8``;
* ``prune N``: as ``pimc(samples=N,prune=200)``: after 8 worlds, a candidate that the best beats by more than two
  standard errors is valued no further;
* ``prune N, stop``: the same, and the search also stops once no candidate but the best is left (or only the best
  and the heuristic's choice, which the best beats by more than two standard errors): nothing more is to be learnt.

It also counts the candidates worth exactly what another candidate is worth in every world of the table (touching
cards; plays that differ only in a suit that scores nothing): play-outs a search that knew them to be alike could
skip.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from clubsuite.bots import make_bot
from clubsuite.bots.pimc import PimcBot, PimcSettings
from clubsuite.bots.searching import Compared
from clubsuite.engine import resolve
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed
from saved import Saved

Table = dict[str, npt.NDArray[np.float64]]
"""Per measure, a (worlds, candidates) array of values."""


# -- collecting ----------------------------------------------------------------------------------------------------
def collect_hand(spec: str, hand: int, seed: int, worlds: int, every: int) -> dict[str, Any]:
    """The decisions of one heuristic first hand, each with its table of values (see the module docstring)."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    deal_next(match, info, derive_seed(seed, hand))
    heuristic = make_bot("heuristic", match.game)
    search = PimcBot(PimcSettings(samples=worlds, caution=0))
    decisions: list[dict[str, Any]] = []
    index = 0
    while match.to_act is not None:
        seat = match.to_act
        legal = match.legal_actions()
        view = match.view(seat)
        if len(legal) > 1:
            if index % every == hand % every:
                started = time.thread_time()
                found = search.compare(view, legal, random.Random(derive_seed(seed, hand * 1000 + index)))
                decisions.append(
                    {
                        "index": index,
                        "seat": seat,
                        "phase": str(match.phase),
                        "legal": len(legal),
                        "actions": [match.format_action(a) for a in found.actions],
                        "favourite": found.favourite,
                        "rows": {m: [[round(v, 6) for v in row] for row in rows] for m, rows in found.rows.items()},
                        "cpu": time.thread_time() - started,
                    }
                )
            index += 1
        match.apply(heuristic.choose(view, legal, random.Random(index)))
    return {"deal": hand, "choices": index, "seats": match.n_seats, "decisions": decisions}


def group_key(spec: str, seed: int, worlds: int, every: int) -> str:
    """What a saved hand was collected with (a hand collected with other settings is not taken)."""
    return json.dumps({"game": spec, "seed": seed, "worlds": worlds, "every": every}, sort_keys=True)


def collect(spec: str, hands: int, seed: int, worlds: int, every: int, saved: Saved) -> list[dict[str, Any]]:
    """Every hand, from ``saved`` where it is there already, collected (and saved) otherwise."""
    key = group_key(spec, seed, worlds, every)
    out = []
    for hand in range(hands):
        done = saved.get(key, hand)
        if done is None:
            done = collect_hand(spec, hand, seed, worlds, every)
            saved.add(key, done)
            print(f"[worlds] {spec}: hand {hand + 1}/{hands}, {len(done['decisions'])} decisions", file=sys.stderr)
        out.append(done)
    return out


# -- judging -------------------------------------------------------------------------------------------------------
@dataclass
class Decision:
    """One decision's table, split into the judge's half and the pool a search draws from."""

    pool: Table
    value: npt.NDArray[np.float64]
    """The judge's value of each candidate."""
    favourite: int
    solved: bool
    """Whether the exact solver valued the worlds (one solve a world, whatever the candidates)."""
    phase: str
    alike: int
    """Candidates worth exactly what an earlier candidate is worth in every world of the table."""

    @property
    def candidates(self) -> int:
        """How many candidates the search compares."""
        return len(self.value)

    @property
    def worlds(self) -> int:
        """How many worlds the pool holds."""
        return int(next(iter(self.pool.values())).shape[0])

    @property
    def best(self) -> float:
        """The judge's best value."""
        return float(self.value.max())


def decision_of(entry: dict[str, Any]) -> Decision:
    """A saved decision, split in two halves of worlds (the first the judge's)."""
    table = {m: np.array(rows, dtype=np.float64) for m, rows in entry["rows"].items()}
    worlds = next(iter(table.values())).shape[0]
    half = worlds // 2
    judge = np.max(np.stack([t[:half].mean(axis=0) for t in table.values()]), axis=0)
    first = next(iter(table.values()))
    alike = sum(any(np.array_equal(first[:, j], first[:, i]) for i in range(j)) for j in range(first.shape[1]))
    return Decision(
        pool={m: t[half:] for m, t in table.items()},
        value=judge,
        favourite=int(entry["favourite"]),
        solved=set(table) != {"rollout"},
        phase=str(entry["phase"]),
        alike=alike,
    )


@dataclass(frozen=True)
class Policy:
    """A way of spending worlds: at most ``worlds``; with ``prune``, candidates the best beats by more than that many
    standard errors stop being valued after ``least`` worlds; with ``stop``, the search ends once nothing is left to
    learn."""

    name: str
    worlds: int
    caution: float = 1.0
    prune: float = 0.0
    least: int = 8
    stop: bool = False


POLICIES = (
    Policy("uniform 8 (hard)", 8),
    Policy("uniform 16", 16),
    Policy("uniform 32 (expert)", 32),
    Policy("uniform 64", 64),
    Policy("uniform 128", 128),
    Policy("uniform 32, caution 0", 32, caution=0.0),
    Policy("prune 32", 32, prune=2.0),
    Policy("prune 64", 64, prune=2.0),
    Policy("prune 64, stop", 64, prune=2.0, stop=True),
    Policy("prune 128, stop", 128, prune=2.0, stop=True),
)
EXPERT = "uniform 32 (expert)"


def _compared(d: Decision, seen: npt.NDArray[np.intp], alive: Sequence[int]) -> Compared:
    """What the bot's own search would hold after the worlds ``seen``, valuing the candidates ``alive`` (numbered as
    in the table): its rules (:class:`Compared`) then make every choice, so the study chooses exactly as the bot."""
    columns = np.asarray(alive, dtype=np.intp)
    rows = {m: t[np.ix_(seen, columns)].tolist() for m, t in d.pool.items()}
    return Compared(list(alive), list(alive).index(d.favourite), rows)


def choose(d: Decision, seen: npt.NDArray[np.intp], alive: Sequence[int], caution: float) -> int:
    """The choice the bot makes from these worlds and candidates (:meth:`Compared.decision`)."""
    choice = _compared(d, seen, alive).decision(caution)
    assert isinstance(choice, int)
    return choice


def search(d: Decision, order: npt.NDArray[np.intp], policy: Policy) -> tuple[int, int]:
    """One search over the pool's worlds in ``order``: its choice and its cost in play-outs."""
    alive = list(range(d.candidates))
    cost = 0
    k = 0
    while k < policy.worlds:
        k += 1
        cost += 1 if d.solved else len(alive)
        if not policy.prune or d.solved or k < policy.least or k == policy.worlds:
            continue
        found = _compared(d, order[:k], alive)
        gone = {alive[j] for j in found.outclassed(policy.prune)}
        alive = [j for j in alive if j not in gone]
        if policy.stop and _learnt(found.without([found.actions.index(j) for j in gone]), policy.prune):
            break
    return choose(d, order[:k], alive, policy.caution), cost


def _learnt(found: Compared, z: float) -> bool:
    """Whether nothing is left to learn: no candidate but the best of each measure is left, or only those and the
    heuristic's choice, which the best beats by more than ``z`` standard errors in every measure."""
    bests = {m: found.best_in(m) for m in found.rows}
    rest = [j for j in range(len(found.actions)) if j not in bests.values()]
    if not rest:
        return True
    return rest == [found.favourite] and all(
        found.difference(b, found.favourite, m)[0] > max(0.0, z * found.difference(b, found.favourite, m)[1])
        for m, b in bests.items()
    )


def judge(decisions: Sequence[Decision], policies: Sequence[Policy], reps: int, seed: int) -> dict[str, Any]:
    """Each policy's mean loss and cost over ``decisions`` (see the module docstring), paired with ``expert``."""
    rng = np.random.default_rng(seed)
    pool = min(d.worlds for d in decisions)
    if pool < next(p.worlds for p in policies if p.name == EXPERT):
        raise ValueError(f"the pool holds {pool} worlds a decision, fewer than expert searches: collect more worlds")
    orders = [[rng.permutation(d.worlds) for _ in range(reps)] for d in decisions]
    losses: dict[str, list[float]] = {}
    costs: dict[str, list[float]] = {}
    for p in policies:
        if p.worlds > pool:
            continue  # a policy needs a pool of its worlds: left out of a small collection
        for d, mine in zip(decisions, orders, strict=True):
            runs = [search(d, o, p) for o in mine]
            losses.setdefault(p.name, []).append(1000 * statistics.fmean(d.best - d.value[c] for c, _ in runs))
            costs.setdefault(p.name, []).append(statistics.fmean(cost for _, cost in runs))
    base_loss = losses[EXPERT]
    base_cost = statistics.fmean(costs[EXPERT])
    rows = {}
    for name, loss in losses.items():
        diffs = [a - b for a, b in zip(loss, base_loss, strict=True)]
        rows[name] = {
            "loss": statistics.fmean(loss),
            "versus_expert": statistics.fmean(diffs),
            "se": statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else None,
            "cost": statistics.fmean(costs[name]) / base_cost,
        }
    candidates = sum(d.candidates for d in decisions if not d.solved)
    return {
        "decisions": len(decisions),
        "phases": {p: sum(d.phase == p for d in decisions) for p in sorted({d.phase for d in decisions})},
        "alike_share": sum(d.alike for d in decisions if not d.solved) / candidates if candidates else 0.0,
        "policies": rows,
    }


def read(path: Path) -> tuple[list[Decision], dict[str, Any]]:
    """The decisions saved in ``path`` (one collection), and how many decisions a seat makes in a hand."""
    saved = Saved(path, "worlds")
    if len(saved.deals) != 1:
        raise ValueError(f"{path}: expected one collection, found {len(saved.deals)}")
    ((key, hands),) = saved.deals.items()
    decisions = [decision_of(e) for h in sorted(hands) for e in hands[h]["decisions"]]
    if not decisions:
        raise ValueError(f"{path}: no decision saved yet")
    per_seat = statistics.fmean(h["choices"] / h["seats"] for h in hands.values())
    return decisions, {**json.loads(key), "hands": len(hands), "choices_per_seat_hand": per_seat}


def main(argv: list[str] | None = None) -> int:
    """Collect or judge, as the arguments say."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?", help="a rules spec to collect: whist, free, partnership, ...")
    parser.add_argument("--hands", type=int, default=8, help="heuristic first hands (default 8)")
    parser.add_argument("--every", type=int, default=2, help="collect every N-th decision (default 2)")
    parser.add_argument("--worlds", type=int, default=512, help="worlds of each table (default 512)")
    parser.add_argument("--seed", type=int, default=21, help="deals the hands, seeds the searches (default 21)")
    parser.add_argument("--save", type=Path, help="collect into this JSON-lines file (resumes from it)")
    parser.add_argument("--judge", type=Path, metavar="FILE", help="judge the search policies on a collection")
    parser.add_argument("--reps", type=int, default=16, help="searches per decision and policy (default 16)")
    parser.add_argument("--json", action="store_true", help="print the judgement as JSON")
    args = parser.parse_args(argv)
    if args.judge:
        if args.reps < 1:
            parser.error("--reps must be at least 1")
        try:
            decisions, about = read(args.judge)
            result = {**about, **judge(decisions, POLICIES, args.reps, 1)}
        except (OSError, ValueError) as e:
            parser.error(f"--judge {args.judge}: {e}")
        if args.json:
            print(json.dumps(result, indent=1))
            return 0
        print(
            f"{about['game']}: {result['decisions']} decisions of {about['hands']} hands"
            f" ({about['worlds']} worlds each, half of them the judge);"
            f" {about['choices_per_seat_hand']:.1f} choices a seat a hand;"
            f" {100 * result['alike_share']:.0f}% of candidates alike to another in every world"
        )
        for name, r in result["policies"].items():
            se = "" if r["se"] is None else f" +- {r['se']:.2f}"
            print(f"  {name:24s} loses {r['loss']:5.2f} ({r['versus_expert']:+.2f}{se}), cost {r['cost']:.2f} x expert")
        return 0
    if not args.game or not args.save:
        parser.error("give a GAME and --save FILE to collect, or --judge FILE to judge")
    if args.hands < 1 or args.every < 1 or args.worlds < 4:
        parser.error("--hands and --every must be at least 1, --worlds at least 4")
    try:
        resolve(args.game)
        saved = Saved(args.save, "worlds")
    except ValueError as e:
        parser.error(str(e))
    collect(args.game, args.hands, args.seed, args.worlds, args.every, saved)
    return 0


if __name__ == "__main__":
    sys.exit(main())
