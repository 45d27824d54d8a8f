"""``clubs evaluate``: an agent against a bot level on a frozen benchmark environment (``docs/benchmark.md``; the
method in :mod:`clubsuite.benchmark.evaluate`)."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import click

from clubsuite.benchmark.agents import agent
from clubsuite.benchmark.envs import ENVS, deals_hash, default_env, find_env, rules_hash
from clubsuite.benchmark.evaluate import BLAS_THREADS, results, sides_of, summary
from clubsuite.cli.common import EXIT_WRITE_FAILED, fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.simulate import check_writable
from clubsuite.errors import ClubsError
from clubsuite.records.files import path_text, write_atomically
from clubsuite.safetext import safe_lines
from clubsuite.sim.running import MAX_WORKERS

MIN_DEALS = 30
"""The fewest deals an evaluation plays: its interval is a normal approximation over deals."""


def _signed(value: float) -> str:
    return f"{value:+.3f}"


@click.command("evaluate", cls=FillsHelp)
@click.argument("agent_text", metavar="AGENT")
@click.option(
    "--against",
    default="hard",
    show_default=True,
    help="The level (or any bot of the registry) at every other side of the table.",
)
@click.option(
    "--game",
    "env_name",
    default=None,
    help=f"The benchmark environment: an id ({', '.join(ENVS)}), or a game's name for its first "
    f"[default: {default_env().id}].",
)
@click.option(
    "--deals",
    type=click.IntRange(MIN_DEALS, 10_000),
    default=200,
    show_default=True,
    help="How many of the environment's 10,000 deals to play, from the first (each from every side); at least "
    f"{MIN_DEALS}, so that the interval's normal approximation holds.",
)
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=1, show_default=True, help="Processes.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also write the result as JSON, with every deal's result, to this file.",
)
@click.option("--progress/--no-progress", default=False, help="Say on standard error how many deals are done.")
@handle_errors
def evaluate_command(
    agent_text: str,
    against: str,
    env_name: str | None,
    deals: int,
    workers: int,
    as_json: bool,
    out: Path | None,
    progress: bool,
) -> None:
    """Play AGENT against a bot level on a benchmark environment's frozen deals, every deal from every side of
    the table, and say how many points a hand the agent's side makes over the others (or, where a deal starts a
    whole match, how much more of a match it wins), with its 95% interval over the deals, and the CPU each decision
    took. AGENT is a bot of the registry (heuristic, hard,
    "pimc(samples=16)"), a Python entry point (package.module:factory, called with the rules spec, returning a
    bot) or a policy's weights file (.npz)."""
    for name in BLAS_THREADS:  # before NumPy loads (a policy's weights), here and in the workers spawned from here
        os.environ.setdefault(name, "1")
    env = find_env(env_name) if env_name is not None else default_env()
    if out is not None:
        check_writable("--out", out)
    player = agent(agent_text, env)
    level = agent(against, env, "--against")
    stale = deals_hash(env) != env.deals_sha256 or rules_hash(env) != env.rules_sha256
    if not stale and "weights" in (
        player.kind,
        level.kind,
    ):  # a policy reads the observation: it must be the frozen one
        from clubsuite.benchmark.observation import observation_hash

        stale = observation_hash(env) != env.observation_sha256
    if stale:
        raise ClubsError(
            f"this build no longer plays {env.id} as it was frozen (its deals, rules or observation changed): "
            "its results would not compare; a new version of the environment is needed"
        )
    done = [0]

    def said(n: int) -> None:
        done[0] += n
        if progress:
            click.echo(f"{done[0]} of {deals} deals played", err=True)

    played = list(results(env, player, level, deals, workers, said))
    command = shlex.join(
        ["clubs", "evaluate", agent_text, "--against", against, "--game", env.id, "--deals", str(deals)]
    )
    data = {**summary(env, player, level, played), "command": command}
    if out is not None:
        try:
            full = {**summary(env, player, level, played, per_deal=True), "command": command}
            write_atomically(out, json.dumps(full, indent=1).encode())
        except OSError as exc:
            fail(f"cannot write the result to {path_text(out)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    result, cpu = data["result"], data["cpu"]
    low, high = result["ci95"]
    n_sides = len(sides_of(env))
    if env.episode == "match":
        lines = [
            f"{agent_text} against {against} on {env.id}: {deals} matches, each from all {n_sides} sides",
            f"  {_signed(result['mean'])} of a match won over the other sides' mean (95% interval {_signed(low)} to "
            f"{_signed(high)})",
            f"  its side wins {data['agent_score']['mean']:.3f} of a match",
        ]
    else:
        lines = [
            f"{agent_text} against {against} on {env.id}: {deals} deals, each from all {n_sides} sides",
            f"  {_signed(result['mean'])} points a hand over the other sides (95% interval {_signed(low)} to "
            f"{_signed(high)})",
            f"  its side scores {data['agent_score']['mean']:+.3f} points a hand",
        ]
    for who, name in (("agent", agent_text), ("against", against)):
        c = cpu[who]
        if c["decisions"]:
            lines.append(
                f"  {name}: {c['cpu_ms_mean']:.3f} ms of CPU a decision (95th percentile {c['cpu_ms_p95']:.3f}, "
                f"most {c['cpu_ms_max']:.3f}) over {c['decisions']} decisions"
            )
    click.echo(safe_lines("\n".join(lines)))
