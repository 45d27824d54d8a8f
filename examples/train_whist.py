"""Train a small whist player with the Gymnasium environment, in plain NumPy, watch its win rate grow, and export it
for ``clubs evaluate``: train -> export -> evaluate on the frozen benchmark.

The learner is a linear softmax policy over the legal action ids (the action mask), trained by REINFORCE with a
running-mean baseline on what the benchmark environment ``--env`` scores (default ``clubs_whist-v1``): in whist a
whole match an episode, rewarded +1 for a win and -1 otherwise (a seat wins at +11 or at -11, CW-5: a hand's points
are not what a whist player plays for), against two heuristic bots (``--opponents``), its seat drawn each episode.
Every ``--eval-every`` episodes the greedy policy plays whole matches against two random bots and against two
heuristic bots, and the script prints its win rate with a 95% Wilson interval, beside the mean reward of its last
block of training episodes: the learning curve. Every evaluation plays the same deals (the same seeds), so the
points of the curve compare like with like, and the last line gives the change from the untrained policy as a
paired difference with its 95% interval. ``--env`` takes another benchmark id (one hand an episode, rewarded with
its points, where the id's deals are hands) or a rules spec (whole matches).

``--export policy.npz`` writes the trained policy as a weights file (one layer: the linear policy's weights) for a
benchmark id; ``clubs evaluate policy.npz --against heuristic --game clubs_whist-v1`` then plays it on the frozen
deals from every side, as any agent is measured (docs/benchmark.md).

    python examples/train_whist.py --export policy.npz     # about five minutes on one core
    python examples/train_whist.py --episodes 40 --eval-every 20 --eval-matches 4     # a smoke run

Needs the extra ``rl`` (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import clubsuite.rl
from clubsuite.bots.policy import write_policy
from clubsuite.rl.aec import MAX_HANDS
from clubsuite.rl.benchmarks import ENVS
from clubsuite.sim import wilson_interval


class LinearPolicy:
    """Logits ``W @ x`` over the action ids; illegal ids masked out."""

    def __init__(self, observations: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = rng.normal(0.0, 0.01, (actions, observations))
        self.rng = rng

    def probabilities(self, observation: dict[str, Any]) -> np.ndarray:
        """The policy's distribution over the legal ids."""
        logits = self.weights @ observation["observation"]
        logits = np.where(observation["action_mask"] == 1, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, observation: dict[str, Any]) -> tuple[int, np.ndarray]:
        """A sampled id and the distribution it came from."""
        p = self.probabilities(observation)
        return int(self.rng.choice(len(p), p=p)), p

    def greedy(self, observation: dict[str, Any]) -> int:
        """The most probable legal id."""
        return int(np.argmax(self.probabilities(observation)))


def train_episode(env: gymnasium.Env[Any, Any], policy: LinearPolicy, seed: int) -> tuple[float, list[Any]]:
    """Play one training episode; its reward and the (observation, action, distribution) of every step."""
    observation, _ = env.reset(seed=seed)
    steps, total, done = [], 0.0, False
    while not done:
        action, p = policy.sample(observation)
        steps.append((observation["observation"], action, p))
        observation, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        done = terminated or truncated
    return total, steps


EVALUATION_SEEDS = 1_000_000
"""The first seed of the evaluation matches, far from the training hands' seeds: every evaluation plays them."""


def evaluate(policy: LinearPolicy, game: str, opponents: str, matches: int) -> list[int]:
    """Whole matches of the greedy policy with ``opponents`` in every other seat, its seat drawn each match, on the
    same deals at every call: 1 for each match won, 0 for each other."""
    env = gymnasium.make(
        clubsuite.rl.GYM_ID, spec=game, opponents=opponents, seat=None, reward="win", max_hands=MAX_HANDS
    )
    won = []
    for k in range(matches):
        observation, _ = env.reset(seed=EVALUATION_SEEDS + k)
        done, reward = False, 0.0
        while not done:
            observation, reward, terminated, truncated, _ = env.step(policy.greedy(observation))
            done = terminated or truncated
        won.append(int(reward > 0))
    return won


def paired_change(before: list[int], after: list[int]) -> tuple[float, float, float]:
    """The mean change in wins over the same matches, in percentage points, with a 95% normal interval (clipped to
    the possible range)."""
    diffs = np.array(after, dtype=float) - np.array(before, dtype=float)
    mean = float(diffs.mean())
    half = 1.96 * float(diffs.std(ddof=1)) / np.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return 100 * mean, max(-100.0, 100 * (mean - half)), min(100.0, 100 * (mean + half))


def main(argv: list[str] | None = None) -> int:
    """Train, evaluating as it goes; print the learning curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--env", default="clubs_whist-v1", help="a benchmark id, or a rules spec (default clubs_whist-v1)"
    )
    parser.add_argument("--episodes", type=int, default=3_000, help="training episodes (default 3000)")
    parser.add_argument("--eval-every", type=int, default=750, help="evaluate after this many episodes (default 750)")
    parser.add_argument(
        "--eval-matches", type=int, default=300, help="whole matches per evaluation and opponent (default 300)"
    )
    parser.add_argument("--learning-rate", type=float, default=0.005)
    parser.add_argument(
        "--opponents", default="heuristic", help="the training opponents' bot (default heuristic; random, easy...)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--export", type=Path, default=None, help="write the trained policy to this .npz file")
    args = parser.parse_args(argv)
    if min(args.episodes, args.eval_every, args.eval_matches) < 1:
        parser.error("--episodes, --eval-every and --eval-matches must be at least 1")
    if args.export is not None and args.env not in ENVS:
        parser.error(f"--export writes a policy of a benchmark environment: give --env one of {', '.join(ENVS)}")
    rng = np.random.default_rng(args.seed)
    env = gymnasium.make(clubsuite.rl.GYM_ID, spec=args.env, opponents=args.opponents, seat=None)
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, int(env.action_space.n), rng)
    baseline, started = 0.0, time.perf_counter()
    print("episodes  mean reward (last block)  v random: win rate (95% CI)  v heuristic: win rate (95% CI)")
    block: list[float] = []
    first: dict[str, list[int]] = {}
    last: dict[str, list[int]] = {}
    for episode in range(args.episodes + 1):
        if episode % args.eval_every == 0:
            line = f"{episode:8d}  " + (f"{np.mean(block):+24.2f}" if block else " " * 24)
            for opponents in ("random", "heuristic"):
                last[opponents] = evaluate(policy, args.env, opponents, args.eval_matches)
                first.setdefault(opponents, last[opponents])
                won, played = sum(last[opponents]), len(last[opponents])
                low, high = wilson_interval(won, played)
                line += f"  {100 * won / played:12.1f}% ({100 * low:4.1f} .. {100 * high:4.1f})"
            print(line, flush=True)
            block = []
        if episode == args.episodes:
            break
        total, steps = train_episode(env, policy, args.seed * 1_000_003 + episode)
        block.append(total)
        advantage = total - baseline
        baseline += 0.01 * (total - baseline)
        for x, action, p in steps:
            grad = -p
            grad[action] += 1.0
            policy.weights += args.learning_rate * advantage * np.outer(grad, x)
    changes = []
    for opponents in ("random", "heuristic"):
        mean, low, high = paired_change(first[opponents], last[opponents])
        changes.append(f"v {opponents} {mean:+.1f} ({low:+.1f} .. {high:+.1f})")
    print("change in win rate since episode 0, same matches, percentage points (95% CI): " + ", ".join(changes))
    print(f"{time.perf_counter() - started:.0f} s")
    if args.export is not None:
        # one layer: the observation's scores of every action id (the weights file's w0 is observations x ids)
        write_policy(args.export, args.env, [(policy.weights.T, np.zeros(policy.weights.shape[0]))])
        print(f"policy written to {args.export}; measure it on the frozen deals from every side:")
        print(f"  clubs evaluate {args.export} --against heuristic --game {args.env} --deals 200")
    return 0


if __name__ == "__main__":
    sys.exit(main())
