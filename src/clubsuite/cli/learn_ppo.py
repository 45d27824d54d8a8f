"""``clubs learn ppo``: train a policy of a benchmark environment by PPO against the environment's bots, from random
weights or from a policy trained by imitation (``docs/learning.md``; the method in
:mod:`clubsuite.learning.baselines`). Added to ``clubs learn`` by :mod:`clubsuite.cli.learn`."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import click

from clubsuite.cli.common import EXIT_WRITE_FAILED, fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.learn_common import one_blas_thread, shown, weights_options, widths_of
from clubsuite.cli.simulate import check_writable
from clubsuite.errors import InvalidOptionsError
from clubsuite.records.files import path_text, write_atomically
from clubsuite.rl.benchmarks import find_env
from clubsuite.safetext import quoted

REPORT_EVERY = 50
"""Iterations between two points of the training record's curve (the mean return of the episodes ended since)."""


@click.command("ppo", cls=FillsHelp)
@click.argument("env_name", metavar="ENV")
@click.option(
    "--init",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Start the policy from this weights file (of the same environment and --hidden), say one trained by "
    "clubs learn train [default: random weights].",
)
@click.option(
    "--iterations",
    type=click.IntRange(1, 1_000_000),
    default=1000,
    show_default=True,
    help="Rollouts to learn from: each is --tables tables played for 64 steps of the learner.",
)
@click.option(
    "--warmup",
    type=click.IntRange(0, 1_000_000),
    default=0,
    show_default=True,
    help="First iterations that train the value network alone (the policy waits): for a policy started by --init.",
)
@click.option("--opponents", default="heuristic", show_default=True, help="The bot at every other seat.")
@click.option("--tables", type=click.IntRange(1, 1024), default=64, show_default=True, help="Tables played at once.")
@click.option("--lr", type=click.FloatRange(1e-7, 0.1), default=3e-4, show_default=True, help="Adam's step size.")
@click.option(
    "--entropy",
    type=click.FloatRange(0.0, 1.0),
    default=0.01,
    show_default=True,
    help="The weight of the policy's entropy in the loss (higher: it explores longer).",
)
@weights_options
@click.option("--progress/--no-progress", default=False, help="Say on standard error how the training goes.")
@handle_errors
def ppo_command(
    env_name: str,
    init: Path | None,
    iterations: int,
    warmup: int,
    opponents: str,
    tables: int,
    hidden: str,
    lr: float,
    entropy: float,
    seed: int,
    out: Path,
    progress: bool,
) -> None:
    """Train a policy network for ENV by PPO with action masks: one seat a table played by the network (drawn each
    episode), the others by --opponents, rewards as the environment's benchmark scores; write its weights (a policy
    file) and how the training went."""
    one_blas_thread()
    from clubsuite.bots.policy import write_policy
    from clubsuite.learning.baselines import Ppo, PpoSettings, started_from
    from clubsuite.learning.network import weight_count

    env = find_env(env_name, "ENV")
    widths = widths_of(hidden)
    if out.suffix != ".npz":
        raise InvalidOptionsError(f"--out {path_text(out)}: a weights file's name ends in .npz")
    check_writable("--out", out)
    if warmup >= iterations:
        raise InvalidOptionsError(f"--warmup {warmup}: fewer than --iterations ({iterations}), or nothing is learned")
    settings = PpoSettings(
        hidden=widths,
        tables=tables,
        lr=lr,
        entropy=entropy,
        opponents=opponents,
        init=str(init) if init is not None else "",
        warmup=warmup,
    )
    if init is not None:
        started_from(str(init), env.id, widths)  # refused here, naming the file, before any table is set up
    try:
        learner = Ppo(env.id, seed, settings)
    except InvalidOptionsError as exc:  # what is left to refuse: the bots named
        raise InvalidOptionsError(f"--opponents {quoted(opponents, 40)}: {exc}") from None
    curve: list[dict[str, float | int]] = []
    start, seen = time.process_time(), 0
    for k in range(1, iterations + 1):
        learner.iteration()
        if k % REPORT_EVERY == 0 or k == iterations:
            ended = learner.returns[seen:]
            seen = len(learner.returns)
            mean = round(sum(ended) / len(ended), 4) if ended else 0.0
            point: dict[str, float | int] = {"iteration": k, "ids": learner.steps, "episodes": len(ended)}
            point["mean_return"] = mean
            curve.append(point)
            if progress:
                click.echo(f"iteration {k}: {learner.steps} ids, mean return {mean:+.3f}", err=True)
    seconds = time.process_time() - start
    command = ["clubs", "learn", "ppo", env.id, "--iterations", str(iterations), "--warmup", str(warmup)]
    command += ["--opponents", opponents, "--tables", str(tables), "--hidden", hidden]
    command += ["--lr", f"{lr:g}", "--entropy", f"{entropy:g}", "--seed", str(seed)]
    if init is not None:
        command += ["--init", shown(init)]
    layers = learner.layers()
    record = {
        "format": "clubsuite-training",
        "version": 1,
        "method": "ppo",
        "env": env.id,
        "command": shlex.join(command),
        "init": shown(init) if init is not None else None,
        "ids": learner.steps,
        "episodes": len(learner.returns),
        "weights": weight_count(layers),
        "settings": {k: v for k, v in vars(settings).items() if k != "init"} | {"hidden": list(widths)},
        "cpu_seconds": round(seconds, 1),
        "curve": curve,
        "python": sys.version.split()[0],
    }
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(out.with_suffix(".json"), (json.dumps(record, indent=1) + "\n").encode())
        write_policy(out, env.id, layers)  # last: a policy file there has its record beside it
    except OSError as exc:
        fail(f"cannot write {path_text(out)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
    click.echo(
        f"{env.id}: {weight_count(layers)} weights trained by PPO on {learner.steps} ids of "
        f"{len(learner.returns)} episodes against {opponents} ({seconds / 60:.1f} CPU minutes); "
        f"written to {path_text(out)}"
    )
